# perceptron.py: the Perceptron, exactly as four lecture notes write it.
#
# MIT License
#
# Copyright (c) 2026 the perceptron authors
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE.
"""
The Perceptron, exactly as four lecture notes write it.

One file, standard library only, Python 3.9+: the online Perceptron, its
dual and kernelized dual, Cornell's batch loop, multiclass, the convergence
theorem's quantities, and a command line.  Read it beside the notes:

* Columbia notes: "Notes on the Perceptron algorithm and kernel methods",
  COMS 4252, Columbia University, Fall 2025: §1.1 the algorithm, §1.2 the
  theorem, §2.1 kernels, §2.2 the dual, eq. (1), §2.3 the kernelized dual,
  eq. (2).
* Cornell notes: "The Perceptron", CS 3/5780, Cornell University, Spring
  2026: §2 the bias, §3 the algorithm, §5 convergence, XOR.
* Perceptron Algorithm notes: Algorithm 1, the update's intuition, R^2/gamma^2.
* Kalyanakrishnan notes: S. Kalyanakrishnan, "The Perceptron", 2017: §1 sign
  and bias, §2 the learning algorithm, §3 analysis, §4 multiclass.

Three parts: Part I, the notes' algorithms, literal; Part II, the same results
safe and fast (every input checked, the pocket, averages and votes, signals, and
accelerators that give exactly Part I's results: PERCEPTRON_LITERAL=1, or
``--literal``, or any edit of Part I, runs Part I alone); Part III, the tools.

==========================  ==================================================
Name                        What it is
==========================  ==================================================
sign(t)                     +1 if t >= 0 else -1 (Columbia §1.1)
RULES, is_mistake(y, s)     the mistake rules "sign" (default) and "margin"
dot(a, b)                   inner product, summed left to right from 0
with_bias(x)                x with the constant feature 1 appended
Perceptron(d)               the primal learner, w <- w + y x (Columbia §1.1)
DualPerceptron(kernel)      stores every mistake; eq. (1) and (2) (§2.2-2.3)
MulticlassPerceptron        one w per class, argmax (Kalyanakrishnan §4)
train(examples)             a whole run (Cornell §3): a Run with its trace
train_multiclass(examples)  a multiclass run
Run.save(path), load(path)  a run's model, written to a file and read back
radius_squared(xs)          R^2 = max_i x_i.x_i
margin_squared(ex, w_star)  gamma^2 = min_i (y_i w*.x_i)^2 / w*.w*
mistake_bound(ex, w_star)   R^2 / gamma^2 (Perceptron Algorithm notes)
svg(run, examples)          a picture of a run on 2 features, as SVG text
run.explain(examples)       each mistake as the notes write it, with its numbers
main(argv)                  the command line
PerceptronError             the one exception (a ValueError)
==========================  ==================================================

Where the notes disagree, nothing is chosen silently: the defaults are the
notes' point (sign(0) = +1 and rule="sign", a mistake iff sign(w.x) != y,
Columbia §1.1; labels -1/+1; no bias; the data's order), and FAMILY names
every convention (rule="margin", Cornell §3; bias=True, Cornell §2; ...), with
its source and the option that runs it.

Arithmetic: w starts as the int 0, so int, Fraction and Decimal stay exact
and keep their type (Decimal under the caller's context); every sum is taken
left to right from the int 0, so floats have the same bits on every Python.
Numbers are taken by value: a NumPy int64 as the int, a float32 as the float.

>>> run = train([([2, 1], 1), ([-1, -3], -1), ([1, -2], 1)])
>>> run.w, run.mistakes, run.converged
([2, 1], 2, True)
>>> train([([Fraction(1, 2), 1], 1), ([-1, Fraction(-1, 3)], -1)], rule="margin").w
[Fraction(1, 2), 1]
"""

from __future__ import annotations  # the hints are documentation: never evaluated

import sys

if __name__ == "__main__":  # a signal while the script starts, before main(): main's status, never a traceback
    import signal as _signal
    for _signum, _status in ((_signal.SIGINT, 130), (_signal.SIGTERM, 143)):  # each set as it is read: no gap
        if _signal.getsignal(_signum) in (_signal.default_int_handler, _signal.SIG_DFL):  # not one the parent ignored
            _signal.signal(_signum, lambda signum, frame, status=_status: sys.exit(status))  # type: ignore[misc]

import binascii
import contextvars
import decimal
import functools
import math
import numbers
import os
import types
from collections import namedtuple
from collections.abc import Iterable as _Iterable, Mapping as _Mapping, Set as _Set, Sized as _Sized
from fractions import Fraction
from itertools import chain, islice, repeat
from math import isfinite
from operator import add, ge, getitem, gt, le, mul, ne, sub
from types import MappingProxyType

__version__ = "0.4.0"

__all__ = [  # sorted
    "ClassMistake", "DualPerceptron", "Mistake", "MulticlassMistake", "MulticlassPerceptron", "Perceptron",
    "PerceptronError", "Pocket", "RULES", "Run", "dot", "is_mistake", "load", "main", "margin_squared",
    "mistake_bound", "radius_squared", "sign", "svg", "train", "train_multiclass", "with_bias"
]


class PerceptronError(ValueError):
    """Bad input, or arithmetic that cannot be done: the message says what, and in a run at which example.

    ``index`` is the example's 0-based index in the run, or None; ``reason`` is the message without it.
    """

    def __init__(self, message, index=None):
        super().__init__(message if index is None else f"example {index}: {message}")
        self.index, self.reason = index, message


TYPE_CHECKING = False
if TYPE_CHECKING:  # the hints' names, for type checkers only: importing typing would cost every user
    from collections.abc import Callable, Hashable, Iterable, Sequence
    from typing import Any, Union

    Number = Union[int, float, Fraction, decimal.Decimal]  # bool is an int
    Vector = Sequence[Any]  # of Numbers: their products are checked by value at run time
    Example = tuple[Vector, Any]
    Kernel = Callable[..., Number]  # of two vectors


def _boundary(failure=None, **reads):
    """A public function behind the boundary, so that its text is the notes' alone: each argument named in ``reads``
    is read first by the reader of that kind (_READERS, in Part II: "vector", "label", "rule", ...), which checks it
    and takes its numbers by value; and arithmetic that fails (a Decimal context that traps, a float beside a
    Decimal, an int beyond floats, a kernel that refuses its input) is raised as a PerceptronError saying
    ``failure``."""
    def decorate(f):
        names = f.__code__.co_varnames[:f.__code__.co_argcount + f.__code__.co_kwonlyargcount]
        @functools.wraps(f)
        def guarded(*args, **kwargs):
            try:
                if not reads:
                    return f(*args, **kwargs)
                given = {**dict(zip(names, args)), **kwargs}
                for name, kind in reads.items():
                    if name in given:
                        given[name] = _READERS[kind](given[name], name, given)
                return f(**given)
            except PerceptronError:
                raise
            except (ArithmeticError, TypeError, ValueError) as err:
                if failure is None:
                    raise
                kernel = getattr(args[0], "kernel", None) if args else None
                raise PerceptronError(f"{failure.format(kernel=_name(kernel))}: {_reason(err)}") from None
        return guarded
    return decorate


def _accelerated(fast):
    """A function run in its place, unless the literal switch is on (PERCEPTRON_LITERAL=1, --literal, or any edit of
    Part I), by ``fast``: the accelerator of that name in Part II, which gives exactly its results.  Bound where the
    reader finds the function, as heapq takes _heapq's under the same names; ``.literal`` is the text's own."""
    first, *rest = fast.split(".")
    def decorate(literal):
        @functools.wraps(literal)
        def literal_or_fast(*args):
            return (literal if _LITERAL.get() else functools.reduce(getattr, rest, globals()[first]))(*args)
        literal_or_fast.literal = literal  # type: ignore[attr-defined]
        return literal_or_fast
    return decorate


# Part I: the notes, literal.  What runs is what is read: each step as the
# note writes it, on examples the boundary (Part II) has already checked.
#
# sign, and the two mistake rules.  A prediction is always sign(w.x); a rule
# says whether the score s = w.x is a mistake on the label y.

@_boundary(t="real")
def sign(t: Number) -> int:
    """+1 if t >= 0, else -1 (Columbia §1.1: "sign(t) takes value 1 if t >= 0").

    Kalyanakrishnan §1 also sends 0 to the positive side; the Perceptron
    Algorithm notes leave sign(0) open.

    >>> sign(3), sign(0), sign(-2), sign(Fraction(-1, 3))
    (1, 1, -1, -1)
    """
    return 1 if t >= 0 else -1


def _sign_rule(y, s):
    return sign(s) != y  # Columbia §1.1: an update iff h(x) != c(x), where h(x) = sign(w.x)


def _margin_rule(y, s):
    return y * s <= 0    # Cornell §3: "if y_i (w^T x_i) <= 0": a point on the hyperplane is wrong


RULES = MappingProxyType({"sign": _sign_rule, "margin": _margin_rule})
"""The mistake rules by name, read-only: "sign" (Columbia §1.1, the default) and "margin" (Cornell §3)."""


@_boundary(y="label", score="score", rule="rule")
def is_mistake(y: Number, score: Number, rule: str = "sign") -> bool:
    """Whether the score w.x is a mistake on the label y.  The rules differ only at a
    zero score on a positive example:

    >>> is_mistake(1, 0, "sign"), is_mistake(1, 0, "margin"), is_mistake(-1, 0, "sign")
    (False, True, True)
    """
    return RULES[rule](y, score)


# The inner product w.x = ((0 + w_0 x_0) + w_1 x_1) + ...: left to right from
# the int 0, for every number type, so that floats give the same bits
# everywhere and int, Fraction and Decimal stay exact.

@_boundary("the inner product cannot be computed", a="vector", b="alike")
def dot(a: Vector, b: Vector) -> Number:
    """The inner product a.b (Columbia §1.1's w . x), summed left to right from the int 0.

    >>> dot([1, 2, 3], [4, 5, 6]), dot([Fraction(1, 2), 1], [Fraction(2, 3), Fraction(1, 6)])
    (32, Fraction(1, 2))
    >>> dot([1e16, 1.0, -1e16], [1, 1, 1])      # ((0 + 1e16) + 1.0) - 1e16, in floats
    0.0
    """
    s: Any = 0
    for a_i, b_i in zip(a, b):
        s = s + a_i * b_i
    return s


@_boundary(x="vector")
def with_bias(x: Vector) -> list:
    """x with the constant feature 1 appended (Cornell §2; Kalyanakrishnan §1):
    then w.(x, 1) = w'.x + b, the bias b being w's last weight.

    >>> with_bias([3, -2])
    [3, -2, 1]
    """
    return [*x, 1]


# The learners: one algorithm in two forms, side by side (Columbia §2.2).
#
#   primal  score  w.x                    on a mistake  w <- w + y x
#   dual    score  sum_j y_j K(x_j, x)    on a mistake  stored <- stored + [(x, y)]
#
# With K = dot the two make the same mistakes: after the mistakes (x_j, y_j),
# w = sum_j y_j x_j (eq. (1)), so w.x = sum_j y_j (x_j . x) -- the same number
# for exact inputs; with floats the same terms summed in another order.  Each
# learner's _step is the note's step on an example already checked: it
# computes the new hypothesis first and stores it whole, so an example whose
# arithmetic fails leaves the learner as it was.

class Perceptron:
    """The primal Perceptron of Columbia §1.1, on vectors of d features.

    ``w`` starts as the int zeros; ``learn(x, y)`` predicts sign(w.x) and,
    only on a mistake under the rule, sets w <- w + y x.  With ``bias=True``
    every x is read as (x, 1) (Cornell §2): w has d + 1 weights, the bias
    last, and x still has d.

    >>> p = Perceptron(2)
    >>> p.learn([1, 2], -1), p.w        # sign(0) = +1 != -1: a mistake
    (True, [-1, -2])
    >>> p.learn([2, 1], -1), p.w        # w.x = -4, sign -1: no mistake
    (False, [-1, -2])
    >>> q = Perceptron(1, rule="margin")
    >>> q.learn([Fraction(1, 2)], 1), q.w   # w.x = 0 is a mistake under "margin"
    (True, [Fraction(1, 2)])
    """

    Mistake: type  # the trace entry of a run of it, Mistake below

    @_boundary(d="dimension", rule="rule", bias="flag")
    def __init__(self, d: int, *, rule: str = "sign", bias: bool = False):
        self.d, self.bias, self.rule, self.mistake = d, bias, rule, RULES[rule]
        self.w = [0] * (d + bias)
        self.mistakes = 0

    def __repr__(self):
        return f"Perceptron(w={_short(self.w, 200)}, mistakes={self.mistakes}, rule={self.rule!r})"

    @_boundary(x="x")
    def score(self, x: Vector) -> Number:
        """w.x; with the bias, w.(x, 1)."""
        return self._score(self._read(x))

    def predict(self, x: Vector) -> int:
        """h(x) = sign(w.x) (Columbia §1.1)."""
        return sign(self.score(x))

    @_accelerated("_learn_fast")
    @_boundary("w <- w + y x cannot be computed", x="x", y="label")
    def learn(self, x: Vector, y: Number) -> bool:
        """One online step; whether it was a mistake, and so an update."""
        return self._step(x, y)[1]

    def _read(self, x):
        return [*x, 1] if self.bias else x  # Cornell §2: the constant feature 1, last

    @_accelerated("_primal_score")
    def _score(self, x):
        return _finite(dot(self.w, x), "w.x")

    def _step(self, x, y):
        """Columbia §1.1 on a checked example: (its score w.x, whether it was a mistake, and so w moved)."""
        x = self._read(x)
        s = self._score(x)
        if self.mistake(y, s):
            self.w = [w_i + y * x_i for w_i, x_i in zip(self.w, x)]  # w <- w + y x
            self.mistakes += 1
            return s, True
        return s, False


class DualPerceptron:
    """The dual Perceptron of Columbia §2.2, kernelized as in §2.3.

    It keeps no w: ``stored`` lists every (x, y) it made a mistake on, in
    order (a second mistake on an example stores it again), and the score of
    x is eq. (2), sum_j y_j K(x_j, x), summed in mistake order from the int 0
    (before the first mistake, the empty sum 0).  With the default
    ``kernel=dot`` that is eq. (1), the primal's w.x.  Every x has the length
    of the first one stored (``d``); with ``bias=True`` it is read as (x, 1).

    >>> p = DualPerceptron()
    >>> p.learn([1, 2], -1), p.learn([3, 1], 1), p.stored
    (True, True, [([1, 2], -1), ([3, 1], 1)])
    >>> p.score([1, 0]), p.weights()
    (2, [2, -1])
    """

    Mistake: type

    @_boundary(kernel="kernel", rule="rule", bias="flag")
    def __init__(self, kernel: Kernel = dot, *, rule: str = "sign", bias: bool = False):
        self.kernel, self.rule, self.mistake, self.bias = kernel, rule, RULES[rule], bias
        self.stored: list = []
        self.d: int | None = None  # the length of every x, fixed by the first one stored

    def __repr__(self):
        return f"DualPerceptron(kernel={_name(self.kernel)}, mistakes={self.mistakes}, rule={self.rule!r})"

    @property
    def mistakes(self) -> int:
        """The number of mistakes: of stored examples."""
        return len(self.stored)

    @_boundary("kernel {kernel} failed", x="x")
    def score(self, x: Vector) -> Number:
        """sum_j y_j K(x_j, x): eq. (2), or eq. (1) with K = dot."""
        return self._score(self._read(x))

    def predict(self, x: Vector) -> int:
        """h(x) = sign(w.x) (Columbia §1.1), w never written down."""
        return sign(self.score(x))

    @_boundary("kernel {kernel} failed", x="x", y="label")
    def learn(self, x: Vector, y: Number) -> bool:
        """One online step; whether it was a mistake, and so x was stored."""
        return self._step(x, y)[1]

    def _read(self, x):
        return [*x, 1] if self.bias else x

    def _score(self, x):
        s = 0
        for x_j, y_j in self.stored:
            s = s + y_j * self.kernel(x_j, x)  # eq. (2): sum_j c(x^ij) K(x^ij, x)
        return _finite(s, "w.x", _NOT_REAL)

    def _step(self, x, y):
        """Columbia §2.2-2.3 on a checked example: (its score, whether it was a mistake, and so x was stored)."""
        d, x = len(x), self._read(x)
        s = self._score(x)
        if self.mistake(y, s):
            self.stored.append((x, y))  # w <- w + y x, kept as the pair (x, y)
            self.d = d
            return s, True
        return s, False

    @_boundary("w = sum_j y_j phi(x_j) cannot be computed")
    def weights(self, phi: Callable[[Vector], Vector] | None = None) -> list:
        """The explicit w = sum_j y_j phi(x_j), summed in mistake order from 0.

        phi defaults to the identity (the linear kernel, eq. (1)).  For a
        feature expansion phi with kernel K, this is the w of the primal
        Perceptron run on phi(x) (Columbia §2.3).  Before the first mistake
        the length is unknown and the result is [].
        """
        if self.d is None:
            return []
        phi = phi or list
        w = [0] * len(phi([0] * (self.d + self.bias)))  # w starts at 0, as long as phi(x)
        for x_j, y_j in self.stored:
            w = [w_i + y_j * v_i for w_i, v_i in zip(w, phi(x_j))]
        return w


# Cornell §3's algorithm: passes over D until one makes no mistake.

Mistake = namedtuple("Mistake", "epoch index y score")
Mistake.__doc__ = """One mistake of a run: its pass (from 1), the example's index in the
examples given (from 0), the label, and the score w.x that was wrong."""
Perceptron.Mistake = DualPerceptron.Mistake = Mistake


@_accelerated("_pass_fast")
def _pass(learner, D, epoch, on_mistake) -> int:
    """One pass of Cornell §3's inner loop, "for (x_i, y_i) in D": the learner's step on each
    example, and on_mistake told of each mistake.  The number of mistakes, m."""
    m = 0
    for i, (x, y) in enumerate(D):
        s, wrong = learner._step(x, y)  # if a mistake: w <- w + y_i x_i
        if wrong:
            m = m + 1
            on_mistake(learner.Mistake(epoch, i, y, s))
    return m


def _cornell(learner, D, passes, on_mistake, every_pass=False):
    """Cornell §3: "While TRUE: m = 0; for (x_i, y_i) in D: if y_i (w^T x_i) <= 0: w = w + y_i x_i,
    m = m + 1; if m = 0: break", with the learner's rule.  At most ``passes`` passes, so that data that
    is not separable never hangs; ``every_pass`` makes them all (an average counts every example).
    Return (the passes made, whether the last made no mistake)."""
    epoch = m = 0
    while epoch < passes:
        epoch += 1
        m = _pass(learner, D, epoch, on_mistake)
        if m == 0 and not every_pass:
            break
    return epoch, m == 0


# Multiclass (Kalyanakrishnan §4): "associate a separate weight vector w(l)
# with each class l ... the class that they predict together for a given
# query point x is taken to be argmax_l w(l).x".

class MulticlassPerceptron:
    """One weight vector per class; predict argmax_l w(l).x, a tie to the class
    listed first in ``classes`` (Kalyanakrishnan §4).

    update="one-vs-rest" (the default) is the note's reading: "train a
    separate binary classifier for each class".  w(l) is this module's
    binary Perceptron on the labels +1 if y == l else -1, with the rule and
    bias given (scikit-learn's one-versus-all Perceptron is the same run).
    ``learn`` returns whether any class's vector moved.

    update="joint": on a mistake of the argmax, x is added to the true
    class's vector and subtracted from the predicted one's (M. Collins,
    EMNLP 2002; K. Crammer and Y. Singer, JMLR 3, 2003).  An argmax has no
    zero-score question: its rule is "argmax".

    >>> m = MulticlassPerceptron(["a", "b", "c"], 2)
    >>> m.learn([1, 0], "b"), m.w     # sign(0) = +1: a and c are wrong, b is right
    (True, {'a': [-1, 0], 'b': [0, 0], 'c': [-1, 0]})
    >>> j = MulticlassPerceptron(["a", "b", "c"], 2, update="joint")
    >>> j.predict([1, 1]), j.learn([1, 0], "b"), j.w
    ('a', True, {'a': [-1, 0], 'b': [1, 0], 'c': [0, 0]})
    """

    Mistake: type

    @_boundary(classes="classes", d="dimension", update="update", bias="flag")
    def __init__(self, classes: Iterable[Hashable], d: int, *, update: str = "one-vs-rest",
                 rule: str | None = None, bias: bool = False):
        self.classes, self.d, self.bias, self.update = classes, d, bias, update
        self.rule = "argmax" if update == "joint" else rule or "sign"  # an argmax has no zero-score question
        self.binary = ({c: Perceptron(d, rule=self.rule, bias=bias) for c in self.classes}
                       if self.update == "one-vs-rest" else None)
        self._w = {c: [0] * (self.d + self.bias) for c in self.classes}  # the joint update's vectors
        self._mistakes = 0

    def __repr__(self):
        return f"MulticlassPerceptron(w={_short(self.w, 200)}, mistakes={self.mistakes}, update={self.update!r})"

    @property
    def w(self) -> dict:
        """{class: its weights, the bias last}."""
        return {c: p.w for c, p in self.binary.items()} if self.binary else self._w

    @property
    def mistakes(self) -> int:
        """The updates made: of every class's vector (one-vs-rest), or of the argmax (joint)."""
        return sum(p.mistakes for p in self.binary.values()) if self.binary else self._mistakes

    @_boundary(x="x")
    def scores(self, x: Vector) -> dict:
        """w(l).x for every class l, in the order of ``classes``."""
        return self._scores(self._read(x))

    def predict(self, x: Vector) -> Hashable:
        """argmax_l w(l).x; the earliest class wins a tie."""
        return _argmax(self.classes, self.scores(x))

    @_boundary("the update cannot be computed", x="x", y="class")
    def learn(self, x: Vector, y: Hashable) -> bool:
        """One online step; whether it moved a vector."""
        if self.binary is None:
            return self._step(x, y)[1]
        before = [(p, p.w, p.mistakes) for p in self.binary.values()]
        try:  # every class's Perceptron steps, or none does
            return sum(p._step(x, 1 if c == y else -1)[1] for c, p in self.binary.items()) > 0
        except BaseException:
            for p, w, mistakes in before:
                p.w, p.mistakes = w, mistakes
            raise

    def _read(self, x):
        return [*x, 1] if self.bias else x

    def _scores(self, x):
        return {c: _finite(dot(w, x), "w(l).x") for c, w in self.w.items()}

    def _step(self, x, y):
        """The joint update on a checked example: (the class predicted, whether it is not y, and two vectors moved)."""
        x = self._read(x)
        guess = _argmax(self.classes, self._scores(x))
        if guess != y:
            w = dict(self._w)
            w[y] = [w_i + x_i for w_i, x_i in zip(w[y], x)]              # toward the true class
            w[guess] = [w_i - x_i for w_i, x_i in zip(w[guess], x)]      # away from the guess
            self._w = w
            self._mistakes += 1
            return guess, True
        return guess, False

    def _class(self, y):
        try:
            known = y in self._w
        except TypeError:  # unhashable
            known = False
        if not known:
            raise PerceptronError(f"label {_short(y)} is not one of the classes {_short(self.classes)}")
        return y


def _argmax(classes, scores):
    best = classes[0]
    for c in classes[1:]:
        if scores[c] > scores[best]:  # strict: a tie stays with the earlier class
            best = c
    return best


MulticlassMistake = namedtuple("MulticlassMistake", "epoch index y predicted")
MulticlassMistake.__doc__ = """One mistake of a joint multiclass run: the class predicted instead of y."""
MulticlassPerceptron.Mistake = MulticlassMistake

ClassMistake = namedtuple("ClassMistake", "cls epoch index y score")
ClassMistake.__doc__ = """One mistake of a one-vs-rest run: in the binary run of class cls,
on the label y (+1 if the example is of class cls, else -1), with the score w(cls).x."""


# The convergence theorem's quantities, exactly (no square roots).
#
# Perceptron Algorithm notes and Kalyanakrishnan §3: if ||x_i|| <= R and a
# unit w* has y_i w*.x_i >= gamma > 0, the Perceptron makes at most
# R^2/gamma^2 mistakes.  For any w* != 0, gamma = min_i y_i w*.x_i / ||w*||,
# so gamma^2 = min_i (y_i w*.x_i)^2 / (w*.w*), a ratio of sums of products:
# exact for int, Fraction and Decimal.  Columbia's 1/delta^2 (§1.2) and
# Cornell's 1/gamma^2 (§5) are the case R = 1.

def radius_squared(xs: Iterable[Vector]) -> Number:
    """R^2 = max_i x_i.x_i, the squared length of the longest x: the R of
    "||x_i|| <= R" (Perceptron Algorithm notes; Kalyanakrishnan Assumption 2).

    >>> radius_squared([[3, 4], [1, 1]]), radius_squared([[Fraction(1, 2)]])
    (25, Fraction(1, 4))
    """
    xs = [x for x, _ in _Data(((x, 1) for x in _iterable(xs, "xs")), keep=True)]
    if not xs:
        raise PerceptronError("R^2 of no examples is undefined")
    return _finite(max(dot(x, x) for x in xs), "R^2")


@_boundary("gamma^2 cannot be computed")
def margin_squared(examples: Iterable[Example], w_star: Vector) -> Number:
    """gamma^2 = min_i (y_i w*.x_i)^2 / (w*.w*): the squared distance from the
    hyperplane w*.x = 0 to the nearest example; the gamma of the Perceptron
    Algorithm notes and Kalyanakrishnan's Assumption 1, Columbia's delta and
    Cornell's gamma.  An error names the first example that w* does not
    strictly separate (y_i w*.x_i <= 0).

    >>> margin_squared([([1, 2], 1), ([-2, 1], -1)], [1, 1])
    Fraction(1, 2)
    """
    nearest, ww, _ = _nearest(examples, w_star)
    return _ratio(nearest * nearest, ww, "gamma^2")


@_boundary("R^2/gamma^2 cannot be computed")
def mistake_bound(examples: Iterable[Example], w_star: Vector) -> Number:
    """R^2 / gamma^2, the Perceptron's mistake bound for these examples and w*.

    gamma is the smallest margin itself, so the bound can be attained (one
    example x and w* = x: one mistake, bound 1); Kalyanakrishnan §3 states
    it strictly, k < R^2/gamma^2, for a gamma below every margin.

    >>> mistake_bound([([1, 2], 1), ([-2, 1], -1)], [1, 1])
    Fraction(10, 1)
    """
    nearest, ww, xs = _nearest(examples, w_star)
    return _ratio(radius_squared(xs) * ww, nearest * nearest, "R^2/gamma^2")


def _nearest(examples, w_star):
    """min_i y_i w*.x_i, w*.w* and the xs, after checking everything."""
    D = _Data(examples, keep=True)
    if not D.examples:
        raise PerceptronError("the margin of no examples is undefined")
    w_star = _vector(w_star, D.d, "w_star")
    margins = [y * dot(w_star, x) for x, y in D.examples]
    for i, margin in enumerate(margins):
        if margin <= 0:
            raise PerceptronError(f"w_star does not strictly separate the examples: y w*.x = {_short(margin)} <= 0", i)
    return min(margins), dot(w_star, w_star), [x for x, _ in D.examples]


def _ratio(a, b, name):
    # Exact where the inputs are rational; a Decimal or float divides as its type,
    # and must stay finite and above 0 (gamma > 0): a float that underflows to 0,
    # or overflows to inf, is refused rather than reported as if it were valid.
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return Fraction(a, b)
    value = _finite(a / b, name)
    if not value > 0:
        raise PerceptronError(f"{name} is {_short(value)}: the arithmetic of {type(value).__name__} underflows "
                              "(use exact numbers)")
    return value


# Part II: the same results, safe and fast.  The runs, with what a run keeps beyond the notes (the pocket, the
# averages, the votes) and Ctrl-C handled in one place; every input checked at the boundary; and the
# accelerators, each fenced, naming the Part I function it replaces and giving its results.

Pocket = namedtuple("Pocket", "w errors mistakes")
Pocket.__doc__ = """The pocket (Gallant 1990): the hypothesis with the fewest training errors seen, its error
count, and after how many mistakes it stood (a kernel run's: its first ``mistakes`` stored examples)."""


class Run(namedtuple("Run", "w model mistakes epochs converged trace pocket rule bias kernel average voted "
                            "multiclass labels conventions", defaults=(None, None, None, (-1, 1), None))):
    """What ``train`` and ``train_multiclass`` return: ``w`` the final weights, the bias last (multiclass: {class:
    weights}; a kernel run: None, unless its kernel is ``dot`` or has ``linear`` True); ``model`` the learner; the
    ``mistakes`` (= updates) and ``epochs`` (passes) made; ``converged`` iff the last pass made no mistake; ``trace``
    [Mistake(epoch, index, y, score), ...] or None; ``pocket`` a Pocket, ``average`` the averaged weights, ``voted``
    Freund and Schapire's [(v_k, c_k), ...], each None if not kept; ``rule``, ``bias``, ``kernel`` (its name),
    ``multiclass`` ("one-vs-rest", "joint" or None), a binary run's ``labels`` (negative, positive), which it
    predicts, and ``conventions``, its point of the family (the notes' where none was given)."""

    __slots__ = ()

    @_boundary("the prediction cannot be computed")
    def predict(self, x: Vector, weights: str = "w") -> Hashable:
        """The prediction for x with the run's conventions: weights "w", "pocket", "average", or "voted" (sign(sum_k
        c_k sign(v_k.x)), sign(0) = +1 within), a zero score as the run's ``zero`` (0: no label, 0 beside -1/+1, else
        None); a multiclass run's argmax_l w(l).x, ties to the earliest class (its ``ties``: the last), its vote each
        class's voted sum (one-vs-rest) or the joint hypotheses' argmaxes counted c_k times."""
        if self.multiclass is None:
            o = self._sign(self._votes([x], weights)[0])
            return self.labels[o > 0] if o else 0 if self.labels == (-1, 1) else None
        classes = self.model.classes[::-1] if (self.conventions or _NOTES).ties == "last" else self.model.classes
        return _argmax(classes, self._scores(x, weights))

    def _sign(self, s) -> int:
        """sign(s) as the run's point has it at 0: FAMILY's sign(0) = +1 (the notes'), -1 or 0."""
        return sign(s) if s != 0 else (self.conventions or _NOTES).zero

    def _scores(self, x, weights) -> dict:
        """A multiclass run's {class: its score} for x: w(l).x, or the vote's."""
        kept, classes = self._kept(weights), self.model.classes
        x = self._read(_vector(x, self.model.d))
        def scores(w):
            return {c: _finite(dot(w[c], x), "w(l).x") for c in classes}
        if weights != "voted":
            return scores(kept)
        if self.multiclass == "one-vs-rest":  # each class's voted perceptron's sum, as its score
            return {c: sum(c_k * sign(_finite(dot(v, x), "w(l).x")) for v, c_k in kept[c]) for c in classes}
        order = classes[::-1] if (self.conventions or _NOTES).ties == "last" else classes  # where ties go
        won = [(_argmax(order, scores(W)), c_k) for W, c_k in kept]  # joint: each hypothesis's argmax, c_k times
        return {c: sum(c_k for winner, c_k in won if winner == c) for c in classes}

    def _read(self, x):
        return _read_at(self.conventions or Conventions(bias=self.bias), x)

    def _votes(self, xs, weights="voted") -> list:
        """A binary run's w.x for each x, or the vote's sum_k c_k sign(v_k.x) (a kernel run's v_k: its dual after k)."""
        kept = self._kept(weights)
        if weights != "voted":
            return [self.score(x, weights) for x in xs]
        if self.kernel is None and self.bias and self._read([0]) != [0, 1]:  # x as the run read it: (1, x), (x, -1)
            return _voted_signs(kept, False, [self._read(_vector(x, len(kept[0][0]) - 1)) for x in xs])
        if self.kernel is None:
            return _voted_signs(kept, self.bias, xs)
        return [sum(c * sign(scores[k]) for k, c in kept) for scores in map(self._prefix_scores, xs)]

    def _prefix_scores(self, x) -> list:
        """eq. (2) for x after each number k = 0, 1, ... of the stored examples: v_k, the dual of the first k."""
        dual, scores = self.model, [0]
        kept = _KernelScores(dual, [dual._read(_vector(x, dual.d))])
        for x_j, y_j in dual.stored:
            kept.scores = kept.moved(x_j, y_j)
            scores.append(_finite(kept.scores[0], "w.x", _NOT_REAL))
        return scores

    def predictions(self, X: Iterable[Vector], weights: str = "w") -> list:
        """The prediction of every row of X (a list of vectors, a NumPy matrix, a DataFrame), as ``predict``."""
        return [self.predict(x, weights) for x in _values(X, rows=True)]

    def _kept(self, weights, refused=None):
        """The predictor's weights (the pocket's, the average, the votes), or why not (``refused``: the votes')."""
        if not isinstance(weights, str) or weights not in ("w", "pocket", "average", "voted"):
            raise PerceptronError(f"weights = {_short(weights)}: use 'w', 'pocket', 'average' or 'voted'")
        if weights == "voted" and refused:
            raise PerceptronError(refused)
        kept = getattr(self, weights)
        if kept is None and weights != "w":
            raise PerceptronError(f"this run kept no {'votes' if weights == 'voted' else weights}: train(..., "
                                  f"{weights}={'True' if weights != 'average' else repr('after')})")
        if weights == "pocket":  # {class: its pocket's w}, or the pocket's w
            return {c: p.w for c, p in kept.items()} if isinstance(kept, dict) else kept.w
        return kept

    def errors(self, examples: Iterable, y: Iterable | None = None, weights: str = "w") -> int:
        """How many of the examples (or of X with labels y) the predictor gets wrong: errors(examples, "pocket")."""
        if isinstance(y, str):  # errors(examples, weights): no y is a str
            weights, y = y, None
        pairs = _pairs(examples, y)
        D = _Data(pairs, True, _class_label) if self.multiclass else _binary_data(pairs, True, self.labels)[0]
        xs = [x for x, _ in D.examples]
        predicted = self.predictions(xs, weights) if self.multiclass else map(self._sign, self._votes(xs, weights))
        return sum(map(ne, predicted, (y for _, y in D.examples)))

    @_boundary("w.x cannot be computed")
    def score(self, x: Vector, weights: str = "w") -> Number:
        """w.x, or w.(x, 1) with the run's bias, for weights "w", "pocket" or "average"."""
        if self.model is None or self.multiclass is not None:
            raise PerceptronError("score is for a binary run")
        w = self._kept(weights, "the vote has no score: predict(x, 'voted')")
        if w is None:  # a kernel run: its dual's score, or its pocket's (its first k stored examples)
            return self.model.score(x) if weights == "w" else self._prefix_scores(x)[self.pocket.mistakes]
        return _finite(dot(w, self._read(_vector(x, len(w) - self.bias))), "w.x")

    def save(self, path) -> None:
        """Write the run without its history to the file ``path`` as ``--save`` does (JSON, read back by ``load``):
        whole or not at all, never over a device, a FIFO or a folder; a link is followed."""
        _write_files({self._file_name(path): _json_text(_document(self)) + "\n"})

    @staticmethod
    def _file_name(path) -> str:
        if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str):
            raise PerceptronError(f"path = {_short(path)} is not a file name (a str or a pathlib.Path)")
        return os.fspath(path)

    def _repr_html_(self) -> str:
        """The run in a notebook: what it is, its trace if short, its picture if it has one (svg: 2 features)."""
        examples, trace, w = getattr(self.model, "_examples", None), self.trace or [], self.w
        rows = [*_described(self), ("bias", self.bias), ("kernel", self.kernel or "none (primal)"),
                ("labels", "/".join(map(str, self.labels or self.model.classes))),
                *([(f"w({c})", v) for c, v in w.items()] if isinstance(w, dict) else [
                    ("w", "sum_j y_j Phi(x_j) (Columbia §2.3)" if w is None else w)]),
                ("mistakes", self.mistakes), ("passes", self.epochs), ("converged", self.converged)]
        if 0 < len(trace) <= _HEAD + _TAIL:
            rows += [[{"epoch": "pass", "cls": "class"}.get(f, f) for f in trace[0]._fields], *trace]
        cells = "".join(f"<tr>{''.join(f'<td>{_xml(_num(c))}</td>' for c in row)}"
                        "</tr>" for row in rows)
        return f'<table class="perceptron-run">{cells}</table>' + (svg(self, examples) if examples and trace else "")

    def explain(self, examples: Iterable, w_star: Vector | None = None, every: bool = False, *,
                y: Iterable | None = None) -> str:
        """The run's mistakes as ``--explain`` writes them (the first 20 and the last 5, or every one), over the run's
        own examples (or X with y=); with ``w_star``, the proof's (1) and (2) checked exactly at each and its chain at
        the end (the Perceptron Algorithm notes; Columbia §1.2's Claims 1.2 and 1.3 for unit vectors)."""
        if self.trace is None:
            raise PerceptronError("this run kept no trace: train(..., trace=True)")
        D = _Data(_pairs(examples, y), keep=True, label=lambda label: label)
        if any(m.index >= len(D.examples) for m in self.trace):
            raise PerceptronError(f"the run has mistakes on examples up to {max(m.index for m in self.trace)}, "
                                  f"and {len(D.examples)} examples were given: explain a run with its own examples")
        if w_star is not None and (self.multiclass is not None or _explicit(self.model) is None):
            raise PerceptronError("w_star: the proof's (1) and (2) need explicit weights: a binary run, primal or the "
                                  "linear kernel")
        bound = None if w_star is None else _bound(_binary_data(D.examples, True, self.labels)[0].examples, self,
                                                   _vector(w_star, None, "w_star"), None)
        return "\n".join(_explained(self, [D.examples[m.index][0] for m in self.trace], bound, every))


def load(path) -> Run:
    """The Run a model file holds (``Run.save``, ``--save``, or a run's ``--json``), without its history."""
    path = Run._file_name(path)
    return _model_of(path, _json_file(path, "a model (--save) or a run (--json)"))[0]


@_accelerated("_voted_signs_fast")
def _voted_signs(kept, bias, xs) -> list:
    """sum_k c_k sign(v_k.x) for each x: the vote of a primal run, its sign the prediction."""
    xs = [[*x, 1] if bias else x for x in (_vector(x, len(kept[0][0]) - bias) for x in xs)]
    return [sum(c * sign(_finite(dot(v, x), "w.x")) for v, c in kept) for x in xs]


def _count(wrong, at_most=None) -> int:
    """How many of the iterable ``wrong`` are true, counted up to at_most (None or below 1: all)."""
    return len(list(islice(filter(None, wrong), at_most if at_most and at_most > 0 else None)))


def _explicit(learner):
    """A learner's weights: its w, or a dual's explicit sum where its kernel has one (as Run.w), else None."""
    if isinstance(learner, DualPerceptron):
        K = learner.kernel
        return learner.weights() if K is dot or getattr(K, "linear", False) is True else None
    return learner.w


def train(examples: Iterable, y: Iterable | None = None, *, rule: str = "sign", kernel: Kernel | None = None,
          bias: bool = False, epochs: int | None = None, max_epochs: int = 1000, pocket: bool = False,
          average: str | None = None, voted: bool = False, labels: tuple | None = None, trace: bool | list = True,
          on_mistake: Callable | None = None, **conventions) -> Run:
    """Run the Perceptron over (x, y) pairs, or over the vectors X (lists, a NumPy matrix, a DataFrame) and their
    labels y; return a Run.  Labels are -1 and +1; any two others (0/1, "B"/"M") are read as -1 for the one that
    sorts first, or as ``labels = (negative, positive)`` says (as a one-pass run over a stream of them needs).

    epochs=None  passes in order until one makes no mistake (Cornell §3; Kalyanakrishnan's PLA), at most
                 ``max_epochs``, after which ``converged`` is False.
    epochs=1     one online pass (Columbia §1.1; the Perceptron Algorithm notes' Algorithm 1) over any iterable: with
                 trace=False memory does not grow with it.
    epochs=k     k passes, stopping early after a clean pass (with ``average`` or ``voted``: exactly k).

    ``bias=True`` appends the constant feature 1 (Cornell §2).  ``kernel=K`` runs the dual of Columbia §2.3.  A list
    ``trace`` receives each Mistake as it is made; ``on_mistake(mistake, model)`` is called after each update.  Ctrl-C
    lands between whole steps: its KeyboardInterrupt carries the run so far as ``run`` (None while reading examples).

    Beyond the notes, for data that is not separable (refinements Kalyanakrishnan §4 mentions without naming):
    pocket=True  Gallant's pocket with ratchet ("Perceptron-based learning algorithms", IEEE Trans. Neural Networks
                 1(2), 1990): after each update, w is pocketed only if its training errors are strictly fewer.
    average="after"  sum_t W_t / N, the mean of w after every example (M. Collins, "Discriminative training methods
                 for hidden Markov models", EMNLP 2002); "before"  sum_{t=0}^{N-1} W_t / N (nltk); "updates"  the mean
                 of w after each update.  Each is exact: a Fraction for int and Fraction data, the float iterates'
                 exact mean rounded once, a Decimal divided once.
    voted=True   Y. Freund and R. E. Schapire, "Large margin classification using the perceptron algorithm", Machine
                 Learning 37(3), 1999: ``run.voted`` lists each v_k with c_k, the examples visited while it stood.

    ``conventions``: any point of the family (FAMILY: zero=-1, rate=0.1, order=[[...], ...], ...); the run keeps its
    examples and takes the family's step and pass, Part I's at the notes' point.  A run that keeps its examples
    checks them all before it starts; a one-pass run each in turn.  A bad example's error names its index.

    >>> run = train([([1, 1], 1), ([-1, 0], -1), ([0, -1], -1)], rule="margin")
    >>> run.trace
    [Mistake(epoch=1, index=0, y=1, score=0)]
    >>> run.w, run.epochs, run.converged
    ([1, 1], 2, True)
    >>> data = [([1, 0], 1), ([0, 1], -1), ([1, 1], 1)]
    >>> run = train(data, epochs=2, average="after", voted=True)
    >>> run.w, run.average     # W after each of the 6 steps sums to (4, -3)
    ([1, -1], [Fraction(2, 3), Fraction(-1, 2)])
    >>> run.voted              # each v_k with the number of examples it stood for
    [([0, 0], 1), ([0, -1], 1), ([1, 0], 2), ([1, -1], 2)]
    """
    try:
        options = _options(epochs, max_epochs, bias, pocket, average, voted, trace, on_mistake)
        passes, bias, pocket, average, voted = options[:5]
        _setting(rule, "rule")
        point = _point("kernel" if kernel is not None else None, rule=rule, bias=bias, **conventions)
        family = bool(_beyond(point))  # beyond Part I's learners
        if kernel is not None and average is not None:  # the kernel itself is checked by the dual's boundary
            raise PerceptronError("an average needs explicit weights: a primal run (no kernel)")
        D, labels = _binary_data(_pairs(examples, y), passes > 1 or pocket or average is not None or voted or
                                 kernel is not None or family, labels)
        learner = (Perceptron(D.d, rule=rule, bias=bias) if kernel is None and not family else
                   _FamilyPerceptron(D.d, point) if kernel is None else DualPerceptron(kernel, rule=rule, bias=bias)
                   if not family else _FamilyDual(kernel, point, [x for x, _ in D.examples]))
        if kernel is not None and D.d:
            learner.d = D.d  # the length of every x, known from the first example
        if D.d == 2 and D.examples is not None:
            learner._examples = D.examples  # type: ignore[union-attr]  # for the run's picture in a notebook
        shapes = () if kernel is None else (lambda dual: [dual.mistakes], lambda v: v[0])  # v_k: the first k
        return _run_cornell(learner, D, options, *shapes,
                            kernel=None if kernel is None else _name(kernel), labels=labels, conventions=point)
    except KeyboardInterrupt as stop:  # the run so far, from _run_cornell; none before
        stop.run = getattr(stop, "run", None)  # type: ignore[attr-defined]
        raise


def _options(epochs, max_epochs, bias, pocket, average, voted, trace, on_mistake) -> tuple:
    """The options of train and train_multiclass, checked (trace: a new list, None or the list given), every_pass."""
    for name, value in (("max_epochs", max_epochs), ("epochs", epochs)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1):
            raise PerceptronError(f"{name} = {_short(value)} is not a whole number >= 1")  # NumPy's: by value
    if max_epochs is None:
        raise PerceptronError("max_epochs = None: a run until convergence needs a bound")
    if average is not None and (not isinstance(average, str) or average not in ("after", "before", "updates")):
        raise PerceptronError(f"average = {_short(average)}: use 'after', 'before', 'updates' or None")
    if on_mistake is not None and not callable(on_mistake):
        raise PerceptronError(f"on_mistake = {_short(on_mistake)} is not callable")
    return (int(max_epochs if epochs is None else epochs), _setting(bias, "bias"), _setting(pocket, "pocket"), average,
            _setting(voted, "voted"), trace if isinstance(trace, list) else [] if _setting(trace, "trace") else None,
            on_mistake, epochs is not None and (average is not None or voted))


def _pairs(examples, y):
    if y is None:
        return examples
    rows, y = list(_values(examples, rows=True)), _values(y)
    if getattr(y, "ndim", 1) > 1:
        raise PerceptronError(f"y is an array of shape {_short(y.shape)}: give one label per row (y.ravel())")
    y = list(_iterable(y, "y"))
    if len(rows) != len(y):
        raise PerceptronError(f"X has {len(rows)} rows and y {len(y)} labels")
    nested = next((v for v in y if isinstance(v, list) or getattr(v, "ndim", 0)), None)
    if nested is not None:
        raise PerceptronError(f"y holds {_short(nested)}, not one label per row of X")
    return list(zip(rows, y))


def _values(v, rows=False):
    """v by value: a DataFrame as its rows, a Series as its values (an int column's Python ints); rows=True: v is X."""
    if hasattr(v, "tocsr"):  # scipy's sparse
        raise PerceptronError(f"{type(v).__name__} is a sparse matrix: pass its dense rows (.toarray())")
    v = v.__array__() if hasattr(v, "__array__") and not isinstance(v, _Iterable) else v  # NumPy-like
    v = v.to_numpy(dtype=object) if hasattr(v, "iloc") and callable(getattr(v, "to_numpy", None)) else v
    if rows and getattr(_iterable(v, "X"), "ndim", 2) == 1:
        raise PerceptronError(f"X is an array of shape {_short(v.shape)}, not rows: Reshape your data, "
                              "X.reshape(-1, 1) for one feature, X.reshape(1, -1) for one example")
    return v


def _label_value(y):
    """A label by value: NumPy's bool (bool_ before NumPy 2) as a bool, its ints as ints, its strings as str."""
    if type(y).__name__ in ("bool_", "bool") and type(y) is not bool:
        return bool(y)
    if isinstance(y, str) and type(y) is not str:
        return str(y)
    if type(y).__name__ in ("NAType", "NaTType"):  # pandas' missing values, equal to nothing
        raise PerceptronError(f"label {_short(y)} is a missing value: drop the examples without one, or fill them")
    value = _by_value(y) if not isinstance(y, (str, bool)) else None
    return y if value is None else value


def _binary_data(examples, keep, labels):
    """(the checked data, its labels (negative, positive)), read as ``train`` says (as met if they do not sort)."""
    two: Any = None  # two labels other than -1 and +1: (negative, positive)

    def read_two(y):  # -1 for the negative, +1 for the positive (of its type, where they are equal: 1 and True)
        label = _class_label(y)
        if label in two:
            return 1 if label == two[1] and (label != two[0] or type(label) is type(two[1])) else -1
        raise PerceptronError(f"label {_short(y)} is not {_short(two[0])} or {_short(two[1])}")
    if labels is not None:
        labels = list(labels) if getattr(labels, "ndim", None) == 1 else labels  # NumPy's: labels=np.unique(y)
        pair = [(type(v) is bool, v) for v in map(_label_value, labels)] if isinstance(labels, (tuple, list)) and \
            len(labels) == 2 else []  # True is not the label 1, as in labels read from the data
        if not pair or pair[0] == pair[1]:
            raise PerceptronError(f"labels = {_short(labels)} is not two distinct labels (negative, positive)")
        two = tuple(_class_label(v) for v in labels)
        return _Data(examples, keep, label=read_two), two
    D = _Data(examples, keep, label=_label_value) if keep else None  # every label, by value, before any is read
    try:  # the labels kept, or a list's; a stream's are -1 and +1, or what labels= says
        ys = [y for _, y in (D.examples if keep else examples)] if keep or type(examples) in _LISTS else [-1]
    except Exception:  # an item that is not a pair: named where the run meets it
        ys = [-1]
    try:  # the distinct labels by value, in order (True is not the label 1); None: the notes', or unhashable
        values = None if set(map(type, ys)) == {int} and set(ys) <= {-1, 1} else \
            [y for _, y in dict.fromkeys((type(y) is bool, y) for y in map(_label_value, ys))]
    except TypeError:
        values = None
    if values is not None and len(values) == 2 and any(type(v) is bool or v not in (-1, 1) for v in values):
        try:
            two = tuple(sorted(values))
        except (TypeError, ArithmeticError):  # values that do not sort (a Decimal NaN)
            two = tuple(values)
    read = _label if two is None else read_two  # -1/+1, or a label that is neither, as the notes say
    if not keep:
        return _Data(examples, keep, read), two or (-1, 1)
    for i, (x, y) in enumerate(D.examples):
        try:
            D.examples[i] = (x, read(y))
        except PerceptronError as err:
            many = len(values or ())
            hint = f"; these examples have {many} labels: use train_multiclass for classes" if many > 2 else ""
            raise PerceptronError(err.reason + hint, i) from None
    return D, two or (-1, 1)


def _run_cornell(learner, D, options, flat=_explicit, shaped=list, **conventions):
    """_cornell (the family's: _visits) for a run, with the pocket, averages and votes it keeps (``flat``: one vector
    for _History; ``shaped``: back); its Run.  The one place a run meets Ctrl-C, which takes back a step it lands in."""
    passes, _, pocket, average, voted, log, hook, every_pass = options
    best = tally = record = None
    made: list = []  # the index of each update's example, first told (an observer that fails then names it)

    def run(epochs, converged, means=None):
        return Run(w=_explicit(learner), model=learner, mistakes=learner.mistakes, epochs=epochs, converged=converged,
                   trace=log, pocket=best, rule=learner.rule, bias=learner.bias,
                   average=shaped(means[average]) if means and average else None,
                   voted=_Votes(((shaped(v), c) for v, c in tally.votes), map(D.examples.__getitem__, made))
                   if tally and voted else None, **conventions)

    def ratchet(mistake, learner):  # Gallant's pocket (as ``train`` describes it), told of each update
        nonlocal best
        errors = count(best.errors, mistake)  # stopped at the pocket's count: then it cannot win
        if errors < best.errors:
            best = Pocket(_explicit(learner), errors, learner.mistakes)
    try:
        count = _pocket_errors(learner, D) if pocket else None
        best = Pocket(_explicit(learner), count(None, None), 0) if pocket else None
        tally = _History(flat(learner), len(D.examples), voted, flat, average) if average or voted else None
        point = getattr(learner, "point", None)
        remember = voted or isinstance(learner, DualPerceptron)  # the example of each update: v_k's, K's pair's
        record = _Recorder(learner, [(lambda mistake, _: made.append(mistake.index)) if remember else None,
                                     ratchet if pocket else None, tally if point is None else None, hook,
                                     None if log is None else lambda mistake, _: log.append(mistake)],
                           lambda: (best, len(log or ())))
        try:
            if point is None:
                epoch, converged = _cornell(learner, D, passes, record, every_pass)
                visits = tally and epoch * len(D.examples)  # (Part I's passes are whole)
            else:  # the family's pass, each mistake told, and the history each move of w at the visit it is made
                last = visits = 0  # the last pass that made a mistake; the visits so far
                for epoch, i, y, s, wrong, ended in _visits(learner, D, passes, every_pass):
                    visits += 1
                    if tally and (ended if point.batch else wrong):  # a batch moves w at its end; told before the
                        tally(None, learner, visits)  # record, which makes the step whole (as Part I's observers)
                    if wrong:
                        last = epoch
                        record(learner.Mistake(epoch, i, y, s))
                epoch, converged = learner.epoch, last < learner.epoch
        except PerceptronError as err:
            raise (err if err.index is not None or D.at is None else type(err)(err.reason, D.at)) from None
        except (ArithmeticError, TypeError, ValueError) as err:
            if not isinstance(learner, DualPerceptron):
                what = "w <- w + y x" if isinstance(learner, Perceptron) else "the update"
                raise PerceptronError(f"{what} cannot be computed: {_reason(err)}", D.at) from None
            x = None if D.examples is None or D.at is None else learner._read(D.examples[D.at][0])
            for j, (x_j, _) in enumerate(learner.stored if x is not None else ()):  # again, to name the pair
                try:
                    learner.kernel(x_j, x)
                except (TypeError, ValueError, ArithmeticError) as again:  # K's message: its a = x_j, b = x
                    raise PerceptronError(f"kernel {_name(learner.kernel)} failed on K(x_{made[j]}, x_{D.at}), "
                                          f"the examples {made[j]} and {D.at}: {_reason(again)}") from None
            raise PerceptronError(f"kernel {_name(learner.kernel)} failed: {_reason(err)}", D.at) from None
        return run(epoch, converged, tally and tally.means(visits))
    except KeyboardInterrupt as stop:  # the run at its last whole step (one whose trace entry is in): a step in hand
        if record is not None and (log is None or len(log) <= record.seen[2][1]):  # is taken back
            mistakes, w, (best, logged) = record.seen
            vars(learner).update({"stored": learner.stored[:mistakes]} if isinstance(learner, DualPerceptron) else
                                 {"w": w, "mistakes": mistakes} if isinstance(learner, Perceptron) else
                                 {"_w": w, "_mistakes": mistakes})  # the joint update's vectors
            del (log if log is not None else [])[logged:], (tally and tally.votes or [])[mistakes:]
        stop.run = run(D.passes, False)  # type: ignore[attr-defined]
        raise


class _Held:
    """Ctrl-C (SIGINT), and SIGTERM under main(), held while a write is not whole: raised on leaving, a second one at
    once.  Only the default handler and main's are wrapped, only in the main thread (where signals land)."""

    def __enter__(self):
        import signal
        self.previous, self.held = {}, None  # held: the signal held, (signum, frame)
        for signum in filter(None, (signal.SIGINT, getattr(signal, "SIGTERM", None))):
            handler = signal.getsignal(signum)
            if handler is signal.default_int_handler or getattr(handler, "__module__", None) == __name__:  # main's
                try:
                    self.previous[signum] = signal.signal(signum, self._hold)
                except ValueError:  # not the main thread
                    break

    def _hold(self, signum, frame):
        second, self.held = self.held is not None, (signum, frame)
        if second:
            self.__exit__(None, None, None)

    def __exit__(self, kind, value, traceback):
        """Every handler given back, then the held signal's own handler run (unless the block raised)."""
        import signal
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        held, self.held = self.held, None
        if held is not None and kind is None:
            self.previous[held[0]](*held)


class _Recorder:
    """A run's one on_mistake, telling its observers; ``seen``: (mistakes, w, kept()) at the last whole step."""

    signalled: contextvars.ContextVar = contextvars.ContextVar("perceptron_signalled", default=())  # main's signals

    def __init__(self, learner, observers, kept):
        self.learner, self.kept = learner, kept
        self.observers = [observe for observe in observers if observe is not None]
        self.lean = not self.observers  # nothing to tell but the step's end (the fast pass's)
        self.whole_now()

    def __call__(self, mistake):
        for observe in self.observers:
            observe(mistake, self.learner)
        self.whole_now()

    def whole_now(self):
        """The step is whole: what __call__ does last, and all a lean pass tells."""
        self.seen = self.learner.mistakes, getattr(self.learner, "w", None), self.kept()
        if self.signalled.get():  # one lost (Python only reports one raised in a finalizer) is raised here
            raise self.signalled.get()[0]()


@_accelerated("_KeptScores.errors")
def _pocket_errors(learner, D):
    """errors(at_most, mistake): the training errors of the learner's hypothesis, recounted, stopped at at_most."""
    joint = isinstance(learner, MulticlassPerceptron)
    classes = learner.classes[::-1] if joint and getattr(learner, "point", _NOTES).ties == "last" else \
        getattr(learner, "classes", None)  # in the order ties go
    def wrong(x, y):
        x = learner._read(x)
        return _argmax(classes, learner._scores(x)) != y if joint else learner.mistake(y, learner._score(x))
    return lambda at_most, mistake: _count((wrong(x, y) for x, y in D.examples), at_most)


class _Votes(list):
    """Run.voted, [(v_k, c_k), ...], and ``made``: the example (x, y) whose mistake made v_k, for k = 1, 2, ..."""

    def __init__(self, votes, made):
        super().__init__(votes)
        self.made = list(made)


class _History:
    """How many examples each hypothesis stood for, in order: Freund and Schapire's c_k, kept as exact sums (for the
    averages) and as a list (the votes).  The visit t (the run's t-th, whatever its order) that makes v_{k+1} counts
    for v_{k+1}, so sum_k c_k = N and sum_k c_k v_k = sum_{t=1}^N W_t.  An update costs O(d); votes alone, O(1)."""

    def __init__(self, w, n, votes, weights=None, sums=True):
        self.n, self.w, self.since, self.first = n, list(w), 1, list(w)  # first: W_0, the start
        self.total = [0] * len(w) if sums else None  # sum_t W_t so far, exactly: Fractions of the floats
        self.scaled, self.k = [0] * len(w), 0  # the accelerator's share of it: ints over 2^k
        self.votes = [] if votes else None
        self.weights = weights or _explicit  # what a hypothesis is: the learner's w, or a dual's stored count
        self.updated, self.updates = ([0] * len(w) if sums == "updates" else None), 0  # sum_k v_k exactly, and k

    def __call__(self, mistake, learner, t=None):
        """An update: the learner's w is the hypothesis from the visit t on (Part I's: (epoch - 1) n + index + 1)."""
        self.at(t or (mistake.epoch - 1) * self.n + mistake.index + 1, self.weights(learner))
        if self.updated is not None:
            self.updated = [s + Fraction(v) for s, v in zip(self.updated, self.w)]
            self.updates += 1

    def at(self, t, w):
        """w is the hypothesis from the step t on."""
        c = t - self.since  # the one before stood for the steps since .. t - 1
        if self.total is not None:
            self.add(c)
        if self.votes is not None:
            self.votes.append((self.w, c))
        self.w, self.since = list(w), t

    @_accelerated("_scaled_sums")
    def add(self, c):
        """sum_t W_t += c w, exactly (a float or Decimal is a ratio of ints)."""
        self.total = [s + c * (v if type(v) in (int, Fraction) else Fraction(v)) for s, v in zip(self.total, self.w)]

    def means(self, N) -> dict:
        """{"after": ..., "before": ..., "updates": ...}, the averages ``train`` describes, exact ({} without sums)."""
        w = self.w
        self.at(N + 1, w)
        if self.total is None:
            return {}
        if N == 0:
            return {"after": list(w), "before": list(w), "updates": list(w)}
        kinds = set(map(type, w))
        mean = float if float in kinds else Fraction if decimal.Decimal not in kinds else \
            lambda q: decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
        total = [s + Fraction(a, 1 << self.k) for s, a in zip(self.total, self.scaled)]
        try:
            return {"after": [mean(Fraction(s) / N) for s in total],
                    "before": [mean((s - Fraction(v) + Fraction(v_0)) / N) for s, v, v_0 in zip(total, w, self.first)],
                    "updates": [mean(s / self.updates) for s in self.updated] if self.updates else list(w)}
        except ArithmeticError as err:  # the caller's Decimal context traps the division
            raise PerceptronError(f"the average cannot be computed: {_reason(err)}") from None


def train_multiclass(examples: Iterable, y: Iterable | None = None, *, classes: Iterable[Hashable] | None = None,
                     update: str = "one-vs-rest", rule: str | None = None, bias: bool = False,
                     epochs: int | None = None, max_epochs: int = 1000, pocket: bool = False,
                     average: str | None = None, voted: bool = False, trace: bool | list = True,
                     on_mistake: Callable | None = None, **conventions) -> Run:
    """A multiclass run (Kalyanakrishnan §4) over (x, y) pairs, or over X and y; return a Run, its ``w`` the dict
    {class: weights}.  ``classes`` defaults to the labels in order of first appearance, the order that breaks ties.

    update="one-vs-rest": for each class l in turn, ``train`` on the labels +1 if y == l else -1; ``converged`` iff
    every class's run converged, ``epochs`` the most any made; the trace holds ClassMistake(cls, epoch, index, y,
    score), class by class; ``pocket``, ``average`` and ``voted`` are {class: ...}.

    update="joint": passes as in ``train`` with the joint update (Collins 2002; K. Crammer and Y. Singer,
    "Ultraconservative online algorithms for multiclass problems", JMLR 3, 2003); the trace holds
    MulticlassMistake(epoch, index, y, predicted), ``rule`` is "argmax", the pocket is of the argmax, the averages
    over the class vectors together and the votes [({class: v_k(l)}, c_k), ...].  ``conventions`` as in ``train``:
    one-vs-rest takes any (a start {class: w}); the joint update a rate, a start, an order, ties="last", abstain=True.

    >>> run = train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c")], update="joint")
    >>> run.w, run.mistakes, run.converged
    ({'a': [1, 0], 'b': [0, 1], 'c': [-1, -1]}, 2, True)
    >>> train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c")]).w
    {'a': [2, -1], 'b': [-1, 2], 'c': [-1, -1]}
    """
    learner = point = None  # a Ctrl-C at any moment carries the run so far: none before a learner
    runs: dict = {}  # one-vs-rest: each class's run

    def one_vs_rest(converged):  # the classes' runs as one
        learner.binary.update({c: r.model for c, r in runs.items()})
        kept = {field: {c: getattr(r, field) for c, r in runs.items()} if asked else None
                for field, asked in (("pocket", pocket), ("average", average), ("voted", voted))}
        return Run(w=learner.w, model=learner, mistakes=learner.mistakes,
                   epochs=max((r.epochs for r in runs.values()), default=0), converged=converged, trace=log,
                   rule=learner.rule, bias=bias, kernel=None, multiclass="one-vs-rest", labels=None, conventions=point,
                   **kept)

    def tell(c, mistake, model):  # class c's run's on_mistake: its mistakes as ClassMistake, to the trace and the hook
        entry = ClassMistake(c, *mistake)
        if log is not None:
            log.append(entry)
        if hook is not None:
            hook(entry, model)
    try:
        options = _options(epochs, max_epochs, bias, pocket, average, voted, trace, on_mistake)
        passes, bias, pocket, average, voted, log, hook, _ = options
        logged = len(log or ())  # a list given may hold entries already
        D = _Data(_pairs(examples, y), keep=True, label=_class_label)
        learner = MulticlassPerceptron(list(dict.fromkeys(y for _, y in D.examples)) if classes is None else classes,
                                       D.d, update=update, rule=rule, bias=bias)
        if classes is not None:  # read again, naming the first example whose label is not a class
            D = _Data(D.examples, keep=True, label=learner._class)
        point = _point("joint" if learner.binary is None else None, rule=learner.rule if learner.binary else "sign",
                       bias=bias, **conventions)
        if learner.binary is None:  # one vector for the history: the class vectors, one after another
            learner = _FamilyJoint(learner.classes, learner.d, point) if _beyond(point) else learner
            size = learner.d + bias
            return _run_cornell(learner, D, options, lambda joint: [v for c in joint.classes for v in joint.w[c]],
                                lambda v: {c: list(v[k * size:(k + 1) * size]) for k, c in enumerate(learner.classes)},
                                kernel=None, multiclass="joint", labels=None, conventions=point)
        for c in learner.classes:  # each class's start, checked by _point: its own, or the one given
            runs[c] = train([(x, 1 if y == c else -1) for x, y in D.examples], rule=learner.rule, bias=bias,
                            epochs=epochs, max_epochs=max_epochs, pocket=pocket, average=average, voted=voted,
                            trace=False, on_mistake=functools.partial(tell, c), **{**conventions, "start": (
                                point.start.get(c) if isinstance(point.start, dict) else point.start)})
        return one_vs_rest(all(r.converged for r in runs.values()))
    except KeyboardInterrupt as stop:  # one-vs-rest: the classes before, this one so far, the ones after at w = 0
        so_far = getattr(stop, "run", None)  # the joint run's so far, or class c's
        if learner is not None and learner.binary is not None:
            if so_far is not None:
                runs[c] = so_far
            so_far = one_vs_rest(False)
            del (log if log is not None else [])[logged + so_far.mistakes:]  # a step taken back: its entry too
        stop.run = so_far  # type: ignore[attr-defined]
        raise


# The family: the Perceptron at every convention a run can take, FAMILY a row per convention (its name, the field of a
# run's point it sets and its value (a capital word for a value given), where it is met, what it changes), its option
# --FIELD=VALUE, train's keyword FIELD=VALUE.  The family's step and pass are written once, here: Part I's at the notes'
# point (test_the_family_at_the_notes_point_is_part_one).
_Row = namedtuple("_Row", "name field value source changes")
FAMILY = (
    _Row("the sign rule", "rule", "sign", "Columbia §1.1; Perceptron Algorithm notes; Kalyanakrishnan §2",
         "a mistake iff sign(w.x) != y"),
    _Row("the margin rule", "rule", "margin", "Cornell §3; scikit-learn's and river's Perceptron; np.sign "
         "code, `if np.sign(w @ x) != y`", "a mistake iff y (w.x) <= 0: every zero score is one"),
    _Row("a threshold", "threshold", "T", "hinge-loss, passive-aggressive and thresholded training",
         "a mistake iff y (w.x) <= T"),
    _Row("sign(0) = +1", "zero", 1, "Columbia §1.1; Kalyanakrishnan §1", "a zero score predicts +1"),
    _Row("sign(0) = -1", "zero", -1, "code written `np.where(w @ x > 0, 1, -1)`", "a zero score predicts -1"),
    _Row("sign(0) = 0", "zero", 0, "np.sign, whose 0 is never a label", "a zero score predicts 0, a mistake "
         "on either label"),
    _Row("the update y x", "step", "label", "Columbia §1.1; Cornell §3", "w <- w + eta y x"),
    _Row("the update (t - o) x", "step", "error", "Rosenblatt's rule as often written, o = sign(w.x)",
         "w <- w + eta (y - o) x: 2 eta y x on the wrong side, eta y x at a zero score under sign(0) = 0"),
    _Row("the passive-aggressive step", "step", "passive-aggressive", "Crammer et al., JMLR 7, 2006",
         "w <- w + ((T - y w.x) / x.x) y x, T the threshold"),
    _Row("a rate", "rate", "ETA", "scikit-learn's eta0; mlxtend's eta", "every update times eta"),
    _Row("a falling rate", "falling", True, "course code: eta_p = eta_0 / p", "the rate of pass p is eta / p"),
    _Row("a bias", "bias", True, "Cornell §2; Kalyanakrishnan §1", "x read as (x, 1): the bias, the last weight"),
    _Row("the bias first", "bias_first", True, "code that prepends the constant 1",
         "x read as (1, x): the bias, the first weight"),
    _Row("a bias on -1", "bias_feature", -1, "a threshold theta: `if w @ x - theta >= 0`, theta -= y",
         "the bias's constant feature is -1: the negative of the notes' bias"),
    _Row("a rate for the bias", "bias_rate", "R", "code with a rate of its own for b: `b += lr_b * y`",
         "the bias moves by R times the label's factor"),
    _Row("a start", "start", "W", "a warm or a random start", "w starts at W, not 0"),
    _Row("an order", "order", "ORDER", "a shuffle written down; code that visits some examples only",
         "pass p visits the examples in ORDER's p-th list (the last repeats)"),
    _Row("a seeded shuffle", "shuffle", "SEED", "scikit-learn's shuffle=True (here random.Random(SEED))",
         "each pass visits a new permutation, shuffled from the last one's"),
    _Row("the batch rule", "batch", "sum", "gradient descent on the perceptron loss",
         "a batch's updates summed and applied at its end, scored by the w in force"),
    _Row("the batch rule with the mean", "batch", "mean", "gradient descent on the mean perceptron loss; "
         "PyTorch's mean", "a batch's updates summed, divided by its size, applied at its end"),
    _Row("a minibatch", "batch_size", "B", "minibatch gradient descent", "a batch is B examples, not the pass"),
    _Row("a weight decay", "decay", "C", "an L2 penalty, scikit-learn's alpha", "w <- (1 - C) w at each example"),
    _Row("a decay at each update", "decay_at", "update", "code that decays as it updates",
         "w <- (1 - C) w + f x, only on a mistake"),
    _Row("labels 0/1", "labels", (0, 1), "Kalyanakrishnan §1", "labels 0 and 1, read as -1 and +1"),
    _Row("no bias", "bias", False, "Columbia §1", "no bias: a hyperplane through the origin"),
    _Row("the passes", "max_epochs", "K", "a fixed number of epochs", "the run stops after K passes"),
    _Row("one-vs-rest", "multiclass", "one-vs-rest", "Kalyanakrishnan §4; scikit-learn",
         "one binary Perceptron per class, on 'this class or not'"),
    _Row("the joint update", "multiclass", "joint", "Collins 2002; Crammer and Singer 2003",
         "on a mistake of the argmax, w(y) += x and w(guess) -= x"),
    _Row("ties to the last", "ties", "last", "`max` over the classes reversed; nltk", "an argmax tie goes to "
         "the class listed last"),
    _Row("no prediction at 0", "abstain", True, "code that skips an argmax of zeros", "while every class's "
         "vector is 0 no class is predicted: only the true class's vector moves"),
    _Row("the average after", "average", "after", "Collins 2002; scikit-learn's average=True",
         "the mean of w after every example"),
    _Row("the average before", "average", "before", "nltk's AveragedPerceptron", "the mean of w before every example"),
    _Row("the average over updates", "average", "updates", "code that averages at each mistake",
         "the mean of w after every update"),
    _Row("the votes", "voted", True, "Freund and Schapire 1999", "every w kept, with the examples it stood for"),
)
_ROWS = {row.name: row for row in FAMILY}
Conventions = namedtuple("Conventions", "rule zero step rate falling threshold bias bias_first bias_feature "
                                         "bias_rate start order shuffle batch batch_size decay decay_at ties abstain",
                         defaults=("sign", 1, "label", 1, False, 0, False, False, 1, None, None, None, None, None,
                                   None, 0, "example", "first", False))
_NOTES = Conventions()  # the notes' point: Part I
_ONLY = {"kernel": ("rule", "zero", "step", "rate", "falling", "threshold", "bias", "bias_first", "bias_feature",
                    "order", "shuffle"),
         "joint": ("rate", "falling", "bias", "bias_first", "bias_feature", "start", "order", "shuffle", "ties",
                   "abstain")}  # what the dual and the joint update take; a binary primal run takes them all


def _point(kind=None, **given) -> Conventions:
    """The point of the family a run's options name, each value checked (kind: "kernel", "joint" or None)."""
    unknown = sorted(set(given) - set(Conventions._fields))
    if unknown:
        near = _nearest_name(unknown[0], Conventions._fields)
        raise PerceptronError(f"unknown convention {unknown[0]!r}" + (f" (did you mean {near!r}?)" if near else "")
                              + f"; the family's are {', '.join(Conventions._fields)}")
    p = _NOTES._replace(**{name: v for name, v in given.items() if v is not None})
    for field, v, default in zip(p._fields, p, _NOTES):
        if type(v) is type(default) and v == default or field == "bias" and type(v) is bool:  # (an array's == is not)
            continue
        if field not in _ONLY.get(kind, Conventions._fields[:-2]):  # a binary run: no argmax to tie or abstain
            raise PerceptronError(f"{field} = {_short(v)} does not apply to a {kind or 'binary'} run")
        if field in ("rate", "threshold", "bias_rate", "decay"):
            v = _finite(v, field)
            if not (0 <= v < 1 if field == "decay" else v >= 0 if field == "threshold" else v > 0):
                bound = {"threshold": "0 <= threshold", "decay": "0 <= decay < 1"}.get(field, f"0 < {field}")
                raise PerceptronError(f"{field} = {_short(v)} is not a number {bound}")
        elif field in ("shuffle", "batch_size"):
            v = v if isinstance(v, bool) or not isinstance(v, numbers.Integral) else int(v)  # NumPy's, by value
            if type(v) is not int or v < (field == "batch_size"):
                raise PerceptronError(f"{field} = {_short(v)} is not a whole number >= {int(field == 'batch_size')}")
        elif field == "start":  # a vector, or a dict of them by class
            v = {c: _vector(w, None, f"start[{c!r}]") for c, w in v.items()} if isinstance(v, dict) else \
                _vector(v, None, "start")
        elif field == "order":  # a list of example indexes, or one a pass
            v = v if isinstance(v, _LISTS) and v and isinstance(v[0], _LISTS) else [v]
            v = [[i if isinstance(i, bool) or not isinstance(i, numbers.Integral) else int(i) for i in one]
                 if isinstance(one, _LISTS) else one for one in v]  # NumPy's ints, by value
            if not all(isinstance(one, _LISTS) and one and all(type(i) is int and i >= 0 for i in one) for one in v):
                raise PerceptronError(f"order = {_short(v)} is not a list of example indexes, or one a pass")
            v = [list(one) for one in v]
        else:
            values = [row.value for row in FAMILY if row.field == field] + [default]
            if v not in values or type(v) is not type(default) and not (default is None and type(v) is str):
                raise PerceptronError(f"{field} = {_short(v)}: use " + " or ".join(map(repr, dict.fromkeys(values))))
        p = p._replace(**{field: v})
    if p.step == "passive-aggressive" and (p.rate != 1 or p.falling or p.bias_rate is not None or not p.threshold):
        raise PerceptronError("the passive-aggressive step needs a threshold T > 0 (its margin), and no rate")
    if p.batch is None and p.batch_size is not None or p.batch and (p.decay or p.bias_rate is not None):
        raise PerceptronError("batch_size goes with batch='sum' or 'mean', and a batch with no decay or bias rate")
    if p.decay_at != "example" and not p.decay:
        raise PerceptronError("decay_at goes with a decay C > 0")
    if (p.bias_first or p.bias_feature != 1 or p.bias_rate is not None) and not p.bias:
        raise PerceptronError("bias_first, bias_feature and bias_rate need bias=True")
    if p.order is not None and p.shuffle is not None:
        raise PerceptronError("an order and a seeded shuffle: give one")
    return p


def _read_at(p, x):
    """x as the point p reads it: with the bias's constant feature (1, or -1) last, or first (Cornell §2)."""
    return x if not p.bias else [p.bias_feature, *x] if p.bias_first else [*x, p.bias_feature]


def _beyond(p) -> dict:
    """The conventions of the point p beyond Part I's own (its rule and bias), by field."""
    return {} if p is None else {f: v for f, v, n in zip(p._fields, p, _NOTES) if f not in ("rule", "bias") and v != n}


def _decided(p, y, s, x=None, epoch=1, kernel=dot):
    """The family's rule and update (FAMILY's rows): whether the score s is a mistake on the label y at the point p,
    the prediction o (Part I's sign, the point's value at 0), and with x the factor f of its update w <- w + f x
    (passive-aggressive's x.x: the kernel's K(x, x), as Crammer et al. kernelize it)."""
    o = sign(s) if s != 0 else p.zero
    wrong = o != y if p.rule == "sign" and not p.threshold else y * s <= p.threshold
    if not wrong or x is None:
        return wrong, o, None
    if p.step == "passive-aggressive":
        xx = kernel(x, x)
        return wrong, o, 0 if xx == 0 else y * _quotient(p.threshold - y * s, xx)
    return wrong, o, (y - o if p.step == "error" else y) * (_quotient(p.rate, epoch) if p.falling else p.rate)


def _quotient(a, b):
    return Fraction(a, b) if type(a) in (int, Fraction) and type(b) in (int, Fraction) else a / b


class _FamilyPerceptron(Perceptron):
    """Part I's Perceptron at any point of the family, on vectors of d features."""

    def __init__(self, d, point):
        super().__init__(d, rule=point.rule, bias=point.bias)
        self.point, self.epoch, self.f, self.delta = point, 1, None, None
        if point.start is not None:
            self.w = _vector(point.start, d + point.bias, "start", "{name} has {n} numbers, and w has {d}")
        del self.mistake  # Part I's RULES[rule]: the point's rule is the method below

    def mistake(self, y, s):
        return _decided(self.point, y, s)[0]

    def _read(self, x):
        return _read_at(self.point, x)

    def _step(self, x, y, i=None):
        """The family's step (FAMILY's rows): (w.x, whether a mistake); a batch's updates wait for applied()."""
        p, x = self.point, self._read(x)
        if p.decay and p.decay_at == "example":  # an L2 penalty: w shrinks at every example
            self.w = [(1 - p.decay) * w_i for w_i in self.w]
        s = self._score(x)
        wrong, o, self.f = _decided(p, y, s, x, self.epoch)
        if wrong:
            fx = [self.f * x_i for x_i in x]
            if p.bias_rate is not None:  # b <- b + R y (or R (y - o)), the bias's feature times its own rate
                b = 0 if p.bias_first else -1
                fx[b] = (y - o if p.step == "error" else y) * p.bias_rate * x[b]
            if p.batch:
                self.delta = fx if self.delta is None else list(map(add, self.delta, fx))
            elif p.decay and p.decay_at == "update":
                self.w = [(1 - p.decay) * w_i + v for w_i, v in zip(self.w, fx)]
            else:
                self.w = [w_i + v for w_i, v in zip(self.w, fx)]  # w <- w + f x
            self.mistakes += 1
        return s, wrong

    def applied(self, size):
        """The batch rule at a batch's end (of ``size`` examples): its updates summed, or their mean, applied."""
        if self.delta is not None:
            mean = self.point.batch == "mean"
            self.w = [w_i + (_quotient(v, size) if mean else v) for w_i, v in zip(self.w, self.delta)]
            self.delta = None


class _FamilyDual(DualPerceptron):
    """Part I's DualPerceptron at a point of the family: it stores (x, f), eq. (2) sums f_j K(x_j, x) (notes: y_j)."""

    def __init__(self, kernel, point, xs):
        super().__init__(kernel, rule=point.rule, bias=point.bias)
        self.point, self.epoch, self.f = point, 1, None
        del self.mistake  # Part I's RULES[rule]: the point's rule is _FamilyPerceptron's
        self.kept = None if _LITERAL.get() else _KernelScores(self, [self._read(x) for x in xs])

    _read, mistake = _FamilyPerceptron._read, _FamilyPerceptron.mistake

    def __getstate__(self):  # the kept scores serve the run alone, and their rows hold the kernel's closures
        return {**vars(self), "kept": None}

    def _step(self, x, y, i=None):
        """The family's step on example i (x): (its score, whether it was a mistake, and so (x, f) was stored)."""
        kept, x_read = self.kept if i is not None else None, self._read(x)
        s = _finite(kept.scores[i], "w.x", _NOT_REAL) if kept else self._score(x_read)
        wrong, _, self.f = _decided(self.point, y, s, x_read, self.epoch, self.kernel)
        if wrong:
            try:
                scores = kept.moved(kept.xs[i], self.f, i) if kept else None
            except (TypeError, ValueError, ArithmeticError):  # met again by Part I's eq. (2), where it would be
                self.kept = scores = None
            self.stored.append((x_read, self.f))  # stored whole, then the scores move
            self.d = len(x)
            if scores is not None:
                kept.scores = scores
        return s, wrong


class _FamilyJoint(MulticlassPerceptron):
    """Part I's joint update at a point of the family: a rate, a start, ties to the last class, no prediction at 0."""

    def __init__(self, classes, d, point):
        super().__init__(classes, d, update="joint", bias=point.bias)
        self.point, self.epoch = point, 1
        if point.start is not None:
            if not isinstance(point.start, dict) or any(c not in point.start for c in self.classes):
                raise PerceptronError(f"start = {_short(point.start)}: a joint run starts at {{class: w}}, a vector "
                                      f"for each of the classes {_short(self.classes)}")
            self._w = {c: _vector(point.start[c], d + point.bias, f"start[{c!r}]") for c in self.classes}

    _read = _FamilyPerceptron._read

    def _step(self, x, y, i=None):
        """The joint update at the point, w(y) += eta x and w(guess) -= eta x; the guess None while it abstains."""
        x, classes = self._read(x), self.classes[::-1] if self.point.ties == "last" else self.classes
        abstains = self.point.abstain and not any(v for w in self._w.values() for v in w)
        guess = None if abstains else _argmax(classes, self._scores(x))
        if guess != y:
            eta = _quotient(self.point.rate, self.epoch) if self.point.falling else self.point.rate
            step = x if eta == 1 and type(eta) is int else [eta * x_i for x_i in x]
            w = dict(self._w)
            w[y] = [w_i + v for w_i, v in zip(w[y], step)]
            if guess is not None:
                w[guess] = [w_i - v for w_i, v in zip(w[guess], step)]
            self._w = w
            self._mistakes += 1
        return guess, guess != y


def _visits(learner, D, passes, every_pass=False):
    """The family's pass, Cornell §3's loop at the learner's point (stopping after a clean pass unless ``every_pass``):
    yields each visit's (pass, index, y, score, mistake, the size of the batch that ended there, or 0)."""
    p, n, order = learner.point, len(D.examples), list(range(len(D.examples)))
    if p.shuffle is not None:
        import random
        shuffled = random.Random(p.shuffle)
    for epoch in range(1, passes + 1):
        learner.epoch = D.passes = epoch
        if p.order is not None:
            order = p.order[min(epoch, len(p.order)) - 1]
        elif p.shuffle is not None:
            shuffled.shuffle(order)
        m, size = 0, p.batch_size or len(order)
        for k, i in enumerate(order, 1):
            if i >= n:
                raise PerceptronError(f"order: index {i} in pass {epoch}, and the examples are 0..{n - 1}")
            D.at = i
            x, y = D.examples[i]
            s, wrong = learner._step(x, y, i)
            m += wrong
            ended = (k % size or size) if p.batch and (k % size == 0 or k == len(order)) else 0
            if ended:
                learner.applied(ended)
            yield epoch, i, y, s, wrong, ended
        if m == 0 and not every_pass:
            break


class Classifier:
    """The scikit-learn estimator protocol over ``train`` and ``train_multiclass``, without importing scikit-learn;
    ``run_`` is the Run, ``classes_`` sorted (two: classes_[1] positive; more: ``multiclass`` "one-vs-rest" or
    "joint").  Defaults as scikit-learn's Perceptron where the notes allow: bias=True (fit_intercept), max_epochs=1000
    (max_iter), passes in order, no shuffling, penalty or rate; rule="sign", the notes' (scikit-learn's is "margin").
    predictor: "w", "pocket", "average" or "voted"; kernel (two classes): a function or a --kernel spec
    ("polynomial:2"); conventions: {field: value} as train takes them.  Given NumPy arrays (or pandas), predict and
    decision_function return NumPy arrays, else lists."""

    def __init__(self, rule="sign", bias=True, max_epochs=1000, predictor="w", multiclass="one-vs-rest",
                 kernel=None, conventions=None):
        self.rule, self.bias, self.max_epochs = rule, bias, max_epochs
        self.predictor, self.multiclass, self.kernel, self.conventions = predictor, multiclass, kernel, conventions

    def __repr__(self):
        return f"Classifier({', '.join(f'{k}={_short(v)}' for k, v in self.get_params().items())})"

    def __getstate__(self):  # pickled without the kernel a spec names (kernels.py's are closures): made again from it
        state = dict(vars(self))
        if isinstance(self.kernel, str) and "run_" in state:
            state["run_"] = self.run_._replace(model=object.__new__(type(self.run_.model)))
            vars(state["run_"].model).update(vars(self.run_.model), kernel=None)
        return state

    def __setstate__(self, state):
        vars(self).update(state)
        if isinstance(self.kernel, str) and "run_" in state:
            self.run_.model.kernel = _kernel_of(self.kernel)

    def get_params(self, deep=True) -> dict:
        return {name: getattr(self, name) for name in ("rule", "bias", "max_epochs", "predictor", "multiclass",
                                                       "kernel", "conventions")}

    def set_params(self, **params):
        for name, value in params.items():
            if name not in self.get_params():
                raise PerceptronError(f"Classifier has no parameter {_short(name)}: {', '.join(self.get_params())}")
            setattr(self, name, value)
        return self

    def fit(self, X, y, **weighted):
        """Train from w = 0 on X and y (all the passes ``max_epochs`` allows); return self.  No sample_weight."""
        if any(value is not None for value in weighted.values()):
            raise PerceptronError(f"{min(weighted)}: every example counts once here")
        return self._fit_anew(X, y, None, max_epochs=self.max_epochs)

    @property
    def partial_fit(self):
        """partial_fit(X, y, classes=None): one online pass from the weights so far (the first from w = 0, over
        ``classes`` or y's); return self.  For predictor="w" only, and no convention that knows its pass."""
        if self.predictor != "w":
            raise AttributeError(f"partial_fit keeps the final weights only: predictor='w', not {self.predictor!r}")
        given = self.conventions.items() if isinstance(self.conventions, dict) else ()
        per_pass = sorted(f for f, v in given if f in ("batch", "falling", "order", "shuffle") and v is not None
                          and v is not False)
        if per_pass:  # a falling rate's, an order's or a shuffle's pass number, or a batch's end: not learn()'s
            raise AttributeError(f"partial_fit is one pass through learn(): {per_pass[0]} needs fit's passes")
        return self._partial_fit

    def _partial_fit(self, X, y, classes=None):
        if not hasattr(self, "run_"):
            return self._fit_anew(X, y, classes, epochs=1)
        if classes is not None and set(_classes(classes)) != set(map(_class_label, self.classes_)):
            raise PerceptronError(f"classes {_short(_classes(classes))} are not the first call's, "
                                  f"{_short([_class_label(c) for c in self.classes_])}")
        import copy
        pairs = _pairs(self._rows(X), self._column(y))
        D = _binary_data(pairs, True, self.run_.labels)[0] if self.run_.labels else _Data(pairs, True, _class_label)
        learner = copy.deepcopy(self.run_.model)  # the model moves only once every example is learned
        try:
            moved = [learner.learn(x, label) for x, label in D]  # D.at: the example in hand
        except PerceptronError as err:
            raise type(err)(err.reason, D.at) from None
        self.run_ = self.run_._replace(model=learner, w=_explicit(learner), mistakes=learner.mistakes,
                                       epochs=self.run_.epochs + 1, converged=not any(moved))
        return self

    def predict(self, X):
        """The predicted class of each row of X."""
        rows = self._rows(X)  # first: an unfitted model is told so
        return self._like(X, self.run_.predictions(rows, self.predictor))

    def decision_function(self, X):
        """Each row's score: w.x for two classes (positive: classes_[1]), [w(l).x for l in classes_] for more; or the
        vote's, sum_k c_k sign(v_k.x) (a score of 0: the run's sign(0))."""
        rows, run = self._rows(X), self.run_
        if run.multiclass is not None:
            return self._like(X, [list(run._scores(x, self.predictor).values()) for x in rows])
        return self._like(X, run._votes(rows, self.predictor))

    def score(self, X, y, sample_weight=None) -> float:
        """The accuracy on X and y: the fraction of rows predicted right, as the nearest float."""
        if sample_weight is not None:
            raise PerceptronError("sample_weight: every example counts once here")
        pairs = _pairs(self._rows(X), self._column(y))
        if not pairs:
            raise PerceptronError("X has no rows: no accuracy")
        predicted = self.run_.predictions([x for x, _ in pairs], self.predictor)
        return sum(p == _class_label(y) for p, (_, y) in zip(predicted, pairs)) / len(pairs)

    @property
    def coef_(self) -> list:
        """The predictor's weights without the bias: one row for two classes, one per class for more."""
        return [coef for coef, _ in self._vectors()]

    @property
    def intercept_(self) -> list:
        """The bias of each row of coef_ times its constant feature (1, or -1), 0 without one."""
        return [intercept for _, intercept in self._vectors()]

    def _fit_anew(self, X, y, classes, **passes):
        """fit, or partial_fit's first pass: train or train_multiclass over the classes (given, or y's, sorted)."""
        if y is None:
            raise PerceptronError("Classifier requires y to be passed, but the target y is None")
        y = self._column(y)
        D = _Data(_pairs(X, y), keep=True, label=_class_label)
        if D.examples and not D.d:  # scikit-learn's words
            raise PerceptronError(f"X has 0 feature(s) (shape=({len(D.examples)}, 0)) while a minimum of 1 is "
                                  "required.")
        given = _classes(classes) if classes is not None else \
            [y for _, y in dict.fromkeys((type(y) is bool, y) for _, y in D.examples)]  # True is not the class 1
        continuous = next((c for c in given if type(c) is float and not c.is_integer()), None)
        if continuous is not None:  # scikit-learn's words
            raise PerceptronError(f"Unknown label type: y holds {continuous!r}: classes are labels, not measurements")
        if len(given) < 2:
            raise PerceptronError(f"y has {len(given) or 'no'} class{'es' * (not given)} {_short(given)}: a "
                                  "classifier needs two")
        if self.kernel is not None and len(given) > 2:
            raise PerceptronError(f"Only binary classification is supported with a kernel: y has {len(given)} classes "
                                  f"(kernel = {_short(self.kernel)})")
        kernel = _kernel_of(self.kernel) if isinstance(self.kernel, str) else self.kernel
        try:
            classes = sorted(given)
        except (TypeError, ArithmeticError):
            classes = given
        if not isinstance(self.conventions, (dict, type(None))):
            raise PerceptronError(f"conventions = {_short(self.conventions)} is not a dict of the family's fields")
        asked = self.predictor if isinstance(self.predictor, str) else None  # any other: refused by Run._kept
        options = dict(bias=self.bias, pocket=asked == "pocket", average="after" if asked == "average" else None,
                       voted=asked == "voted", trace=False, **(self.conventions or {}))
        if len(classes) == 2:
            run = train(D.examples, rule=self.rule, kernel=kernel, labels=tuple(classes), **options, **passes)
        else:
            run = train_multiclass(D.examples, classes=classes, update=self.multiclass,
                                   rule=None if self.multiclass == "joint" else self.rule, **options, **passes)
        run._kept(self.predictor)  # the predictor checked, before the model is kept
        self.run_, self.classes_, self.n_features_in_ = run, self._like(y, classes), D.d
        return self

    @staticmethod
    def _column(y):
        """y, or a column vector y as its column with scikit-learn's DataConversionWarning (or a UserWarning)."""
        if getattr(y, "ndim", 1) != 2 or getattr(y, "shape", (0, 0))[1] != 1:
            return y
        import warnings
        warnings.warn(getattr(sys.modules.get("sklearn.exceptions"), "DataConversionWarning", UserWarning)(
            "A column-vector y was passed when a 1d array was expected: read as y.ravel()"), stacklevel=3)
        return Classifier._like(y, [label for label, in _values(y)])

    def _rows(self, X) -> list:
        """X's rows, each checked to be as long as the fitted examples (told in scikit-learn's words)."""
        if not hasattr(self, "run_"):  # scikit-learn's NotFittedError (a ValueError) where scikit-learn is loaded
            raise getattr(sys.modules.get("sklearn.exceptions"), "NotFittedError", PerceptronError)(
                "this Classifier is not fitted yet: call fit(X, y) first")
        D = _Data(((x, 1) for x in _values(X, rows=True)), keep=True)  # a bad row named; all as long as the first
        if D.examples and D.d != self.n_features_in_:
            raise PerceptronError(f"X has {D.d} features, but Classifier is expecting {self.n_features_in_} "
                                  "features as input")
        return [x for x, _ in D.examples]

    def _vectors(self) -> list:
        """(coef, intercept) of each row: w.x as the run read x (its bias first or last, on 1 or -1) is coef.x + b."""
        kept, run = self.run_._kept(self.predictor, "the vote has no weights"), self.run_
        if kept is None:
            raise PerceptronError("the kernel run has no weights")
        read = run._read([0] * self.n_features_in_)  # x = 0 as the run read it: 1 or -1 where the bias's feature is
        at = next((j for j, r in enumerate(read) if r), len(read))
        rows = [kept[c] for c in run.model.classes] if run.multiclass else [kept]
        return [(w[:at] + w[at + 1:], 0 if at == len(w) else w[at] if read[at] == 1 else -w[at]) for w in rows]

    @staticmethod
    def _like(X, values):
        """values as a NumPy array if X has one (NumPy is then loaded), else as the list."""
        numpy = sys.modules.get("numpy") if hasattr(X, "__array__") else None
        return values if numpy is None else numpy.asarray(values)

    def __sklearn_tags__(self):  # called by scikit-learn only: it is then imported
        from sklearn.utils import ClassifierTags, Tags, TargetTags  # type: ignore[import-not-found]
        return Tags(estimator_type="classifier", target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags(multi_class=self.kernel is None))


# The boundary: every value from outside is checked here, once, and numbers taken by value (a NumPy int64 as an int),
# so that Part I sees only plain, finite numbers.  A check raises without a position; a run adds "example i:".

_LISTS = (list, tuple)  # the containers a pass reads without a copy: their len() cannot lie
_PLAIN = frozenset((int, float, Fraction, decimal.Decimal, bool))
_EXACT = frozenset((int, Fraction, bool))  # always finite
_FLOATS = frozenset((float, int, bool))
_LABELS = {1: 1, -1: -1}  # 1.0, Fraction(1), Decimal(1) hash and compare as 1
_NOT_REAL = "not a finite real number"
_MAX_D = 1 << 24  # the most features a learner takes: w is a list of that many numbers
_END = object()  # a stream's end, as next() finds it


def _short(v, limit=60, text=repr) -> str:
    """text(v) for a message, cut to ``limit`` characters; never fails, never slow."""
    if isinstance(v, int) and v.bit_length() > 4 * limit:  # the repr of a huge int is slow, or refused
        return f"<an int of {v.bit_length()} bits>"
    try:
        said = text(v) or type(v).__name__
    except Exception:  # a repr that fails (too deep, too long) must not hide the error being reported
        said = f"<a {type(v).__name__}>"
    return said if len(said) <= limit else said[:limit - 3] + "..."


_reason = functools.partial(_short, limit=200, text=str)  # an error's own words, for a message


def _name(kernel) -> str:
    name = getattr(kernel, "__name__", None)
    return name if isinstance(name, str) else _short(kernel)


def _setting(value, name, given=None):
    """A learner's setting, checked by its name (the reader of _READERS's settings): rule, update, d, kernel, a flag."""
    if name == "rule":
        if not isinstance(value, str) or value not in RULES:
            raise PerceptronError(f"unknown rule {_short(value)}: use 'sign' or 'margin'")
    elif name == "update":  # with its rule: "argmax" is the joint update's rule, and its only one
        rule = given.get("rule")
        if not isinstance(value, str) or value not in ("one-vs-rest", "joint"):
            raise PerceptronError(f"update = {_short(value)}: use 'one-vs-rest' or 'joint'")
        if value == "joint" and rule not in (None, "argmax"):
            raise PerceptronError(f"rule = {_short(rule)} does not apply to the joint update: an argmax has no "
                                  "zero-score question")
        if value == "one-vs-rest" and rule is not None:
            _setting(rule, "rule")
    elif name == "d":  # NumPy's int64 by value
        d = None if type(value) is bool else _by_value(value)
        if type(d) is not int or d < 0:
            raise PerceptronError(f"dimension d = {_short(value)} is not a whole number")
        if d > _MAX_D:
            raise PerceptronError(f"dimension d = {_short(value)} is more than {_MAX_D:,} features")
        return d
    elif name == "kernel":
        if not callable(value):
            raise PerceptronError(f"kernel {_short(value)} is not callable")
    elif value is not True and value is not False:
        raise PerceptronError(f"{name} = {_short(value)} is not True or False")
    return value


def _iterable(v, name):
    if isinstance(v, (str, bytes, bytearray)) or not isinstance(v, _Iterable) or getattr(v, "ndim", 1) == 0:
        raise PerceptronError(f"{name} is {_short(v) if hasattr(v, 'ndim') else type(v).__name__}, not a sequence")
    return v


def _classes(classes, *_) -> list:
    if isinstance(classes, (_Set, _Mapping)):
        raise PerceptronError(f"classes {_short(classes)} have no order: give a list, whose order breaks ties")
    classes = [_class_label(c) for c in _iterable(classes, "classes")]
    if len(classes) < 2 or len(set(classes)) != len(classes):
        raise PerceptronError(f"classes {_short(classes)} are not two or more distinct labels")
    return classes


def _by_value(v):
    """v as an int, float, Fraction or Decimal of the same value, or None if v is not a real number."""
    if type(v) in _PLAIN:
        return v
    try:
        if isinstance(v, decimal.Decimal):
            return decimal.Decimal(v)
        if isinstance(v, numbers.Integral):  # NumPy's int64 and uint8: they wrap on overflow, ints do not
            value = int(v)
            return value if type(value) is int else None
        if isinstance(v, numbers.Rational):
            return Fraction(int(v.numerator), int(v.denominator))
        if isinstance(v, numbers.Real):      # NumPy's float32 and float64; a float subclass
            value = float(v)
            return value if type(value) is float else None
    except (TypeError, ValueError, ArithmeticError):
        pass
    return None


def _is_finite(v) -> bool:
    """Whether a plain number v is finite: v - v is 0 for those, nan for inf and nan."""
    try:
        return type(v) in _EXACT or v - v == 0
    except ArithmeticError:  # Decimal('Infinity') - itself is trapped
        return False


def _finite(v, name, why="the sum overflowed"):
    value = _by_value(v)
    if value is None:
        raise PerceptronError(f"{name} is {_short(v)}: {_NOT_REAL}")
    if not _is_finite(value):
        raise PerceptronError(f"{name} is {_short(value)}: {why}")
    return value


def _vector(x, d, name="x", wrong_length="{name} has length {n}, expected {d}") -> list:
    """x, read once, as a new list of d finite real numbers, each taken by value (any length if d is None)."""
    if type(x) not in _LISTS:
        if isinstance(x, (str, bytes, bytearray)) or not isinstance(x, _Sized) or not isinstance(x, _Iterable):
            raise PerceptronError(f"{name} is {type(x).__name__}, not a sequence of numbers")
        if isinstance(x, (_Mapping, _Set)):
            raise PerceptronError(f"{name} is a {type(x).__name__}, not a sequence of numbers in order")
        ndim = getattr(x, "ndim", 1)
        if ndim != 1:  # a 0-d array, or a matrix where one x is meant
            raise PerceptronError(f"{name} is an array of shape {_short(getattr(x, 'shape', None))}, not one vector"
                                  f"{': predictions(X) predicts each row' if ndim == 2 else ''}")
    try:
        x = list(x)
    except Exception as err:  # whatever reading a foreign sequence raises, told in one line
        raise PerceptronError(f"{name} cannot be read: {_reason(err)}") from None
    if d is not None and len(x) != d:
        rows = x and isinstance(x[0], _Iterable) and not isinstance(x[0], (str, bytes))  # a matrix, given as one x
        hint = ": rows? predictions(X) predicts each row" if rows else ""
        raise PerceptronError(wrong_length.format(name=name, n=len(x), d=d) + hint)
    kinds = set(map(type, x))
    try:
        if kinds <= _EXACT or kinds <= _FLOATS and all(map(isfinite, x)) or kinds <= _PLAIN and all(map(_is_finite, x)):
            return x
    except OverflowError:  # an int beyond floats beside floats: one by one, below
        pass
    values = [_by_value(v) for v in x]
    for j, (v, value) in enumerate(zip(x, values)):  # the first that is not a finite real number, named
        if value is None:
            said = f"{name}[{j}] is {_short(v)} ({type(v).__name__}), not a real number"
            if isinstance(v, numbers.Complex):
                raise PerceptronError(said + ": Complex data not supported")  # scikit-learn's words
            if isinstance(v, str):
                raise PerceptronError(said)
            raise _NotANumber(said + ": float() argument must be a string or a real number")
        if not _is_finite(value):
            raise PerceptronError(f"{name}[{j}] is {_short(value)}; features must be finite, not NaN or inf")
    return values


class _NotANumber(PerceptronError, TypeError):
    """A feature that is no number nor string: also float()'s TypeError, in its words (scikit-learn's checks ask)."""


def _real(t, *_):
    """sign's argument: a real number, taken by value (None, a string, a complex, a NaN refused)."""
    value = _by_value(t)
    try:
        if value is not None and value == value:
            return value
    except ArithmeticError:  # a signalling NaN
        pass
    raise PerceptronError(f"sign of {_short(t)}: not a real number")


def _label(y, *_) -> int:
    if type(y).__name__ in ("bool", "bool_"):  # Python's and NumPy's
        raise PerceptronError(f"label {y} is a bool; labels are -1 or +1 (map 0/1 labels first)")
    try:
        label = _LABELS.get(y)
    except (TypeError, ValueError):  # unhashable
        label = None
    if label is None:
        raise PerceptronError(f"label {_short(y)} is not -1 or +1")
    return label


def _class_label(y):
    """A multiclass label, by value: anything hashable that equals itself (not a NaN, which no class would match)."""
    y = _label_value(y)
    try:
        hash(y)
        same = y == y
    except (TypeError, ArithmeticError):  # unhashable; Decimal('sNaN')
        raise PerceptronError(f"label {_short(y)} cannot be a class: it is not hashable") from None
    if same is not True:
        raise PerceptronError(f"label {_short(y)} cannot be a class: it is not equal to itself")
    return y


_READERS = {  # the boundary's reader of each kind of Part I's arguments (_boundary): (value, its name, all given)
    "real": _real, "label": _label, "rule": _setting, "flag": _setting, "dimension": _setting, "kernel": _setting,
    "update": _setting, "classes": _classes, "class": lambda y, name, given: given["self"]._class(y),
    "score": lambda s, *_: _finite(s, "w.x", _NOT_REAL), "x": lambda x, name, given: _vector(x, given["self"].d),
    "vector": lambda v, name, given: _vector(v, None, name), "alike": lambda b, name, given: _vector(
        b, len(given["a"]), name, f"vectors of lengths {len(given['a'])} and {{n}} have no inner product"),
}


class _Data:
    """A run's examples, checked: ``examples`` their checked copies (None for a stream); ``d`` the first x's length
    (or learn's); ``at`` the example in hand; ``passes`` those begun."""

    def __init__(self, examples, keep, label=None, d=None):
        self.label, self.at, self.passes, self.cache, self.d = label or _label, None, 0, None, d
        if d is not None:  # learn's example, of d features: the fast pass checks it
            self.items, self.examples = examples, None
            return
        rest = iter(_iterable(examples, "examples"))
        first = next(rest, _END)
        rest = rest if first is _END else chain([first], rest)
        self.d = 0 if first is _END else len(self.check(first, 0)[0])
        self.examples = [self.check(item, i) for i, item in enumerate(rest)] if keep else None
        self.items = rest if self.examples is None else self.examples  # a stream's: the fast pass checks them
        kinds: set = set()  # float and Decimal, as met
        for i, (x, _) in enumerate(self.examples or ()):
            kinds |= set(map(type, x)) & {float, decimal.Decimal}
            if len(kinds) == 2:
                raise PerceptronError("floats and Decimals in one data set: their sums cannot be taken (use one "
                                      "kind)", i)

    def check(self, item, i):
        self.at = i
        try:
            try:
                x, y = item
            except Exception:  # not a pair; a pair that cannot be read
                raise PerceptronError(f"{_short(item)} is not an (x, y) pair") from None
            return _vector(x, self.d), self.label(y)
        except PerceptronError as err:
            raise type(err)(err.reason, i) from None

    def __iter__(self):
        """The checked examples, for the literal pass; ``at`` follows it."""
        self.passes += 1
        for self.at, item in enumerate(self.items):
            yield item if self.examples is not None else self.check(item, self.at)


# Accelerators, fenced as heapq fences _heapq: each gives exactly the results of the Part I function it replaces, bit
# for bit (bench/README.md).  PERCEPTRON_LITERAL=1 (read at import), --literal (a context variable) or an edit of Part I
# (its CRC-32 is not _PART_I_DIGEST) runs Part I alone.  After an edit on purpose: print(perceptron._part_one_digest()).
_PART_I_DIGEST = "fd76c804"


def _part_one_digest(path=globals().get("__file__")) -> str | None:
    """The CRC-32 of Part I's text in ``path``, 8 hex digits: "" without its banners, None if not readable as source."""
    try:
        with open(path, encoding="utf-8") as f:  # universal newlines: the same text from a CRLF checkout
            text = f.read()
    except (OSError, TypeError, ValueError):  # no file (None: frozen), or not text (a .pyc)
        return None
    start = text.find("\n", text.find("\n# Part I: ") + 1)
    end = text.find("\n# Part II: ", start)
    return f"{binascii.crc32(text[start:end].encode()):08x}" if "\n# Part I: " in text and end > 0 else ""


_PART_I_EDITED = _part_one_digest() not in (None, _PART_I_DIGEST)
if _PART_I_EDITED and sys.stderr is not None:
    print("Part I was edited: running it literally; accelerators off", file=sys.stderr, flush=True)
_LITERAL = contextvars.ContextVar("perceptron_literal", default=_PART_I_EDITED or
                                  os.environ.get("PERCEPTRON_LITERAL", "") not in ("", "0"))


# The fastest sums in dot's order, ((0 + a_0 b_0) + a_1 b_1) + ...: to 3.11 sum(map(mul, a, b)); from 3.12 sumprod for
# ints (exact), Fractions and Decimals (a plain sum there), and for floats (whose sum() is compensated, and sumprod
# extended-precision) Part I's own loop, dot's without its boundary.
if sys.version_info >= (3, 12):
    from math import sumprod as _sum_exact
    _sum_float = dot.__wrapped__  # type: ignore[attr-defined]
else:
    def _sum_exact(a, b):
        return sum(map(mul, a, b))

    _sum_float = _sum_exact


def _dots(v, xs, exact=False) -> list:
    """[v.x for x in xs] by those sums (exact: of ints and Fractions alone); to 3.11 without a call per x."""
    if sys.version_info < (3, 12):
        return list(map(sum, map(map, repeat(mul), repeat(v), xs)))
    return list(map(_sum_exact if exact else _sum_float, repeat(v), xs))


def _pass_fast(learner, D, epoch, on_mistake) -> int:
    """_pass (Part I), fast: a DualPerceptron's by _KernelScores.dual_pass; a Perceptron's with w.x the fastest sum in
    dot's order, the bias added last, and the boundary and the learner's _step for an example out of the ordinary
    (below).  Unseen: an object whose products with plain numbers are not its value's."""
    if type(learner) is not Perceptron:
        return _KernelScores.dual_pass(learner, D, epoch, on_mistake) if type(learner) is DualPerceptron and \
            D.examples is not None else _pass.literal(learner, D, epoch, on_mistake)  # type: ignore[attr-defined]

    def kind_of(s):  # (the fast sum, None for sum(map(mul, w, x)); a score's type; whether x's types are checked)
        kind = type(s) if type(s) in (float, Fraction, decimal.Decimal) else int
        return None if sys.version_info < (3, 12) else _sum_float if kind is float else _sum_exact, kind, \
            kind is not int and kind is not float
    D.passes = epoch
    checked, bias, mistake, d = D.examples is not None, learner.bias, learner.mistake, learner.d
    w, b = (learner.w[:-1], learner.w[-1]) if bias else (learner.w, None)
    sum_of, kind, exact = kind_of(w[0] if w else 0)
    plain, lists, lean = _PLAIN.issuperset, _LISTS, getattr(on_mistake, "lean", False)
    named = None if checked or D.label is _label else D.label  # labels other than -1, +1
    # For y = -1 or +1: the rules inlined, _margin_rule's y s <= 0 and _sign_rule's sign(s) != y, i.e. (s >= 0) !=
    # (y > 0) as sign(0) = +1.  The update w_i + y x_i of ints and floats is w_i + x_i or w_i - x_i, exactly (IEEE 754
    # defines a - b as a + (-b)); a Decimal's y x_i is rounded to the context: Fractions and Decimals keep Part I's.
    rule = "margin" if mistake is _margin_rule else "sign" if mistake is _sign_rule else None
    m, i = 0, -1
    try:
        for i, item in enumerate(D.items):
            try:
                x, y = item
                if named is not None:
                    y = named(y)
                if not checked and (type(y) is not int or y * y != 1 or type(x) not in lists or len(x) != d
                                    or exact and not plain(map(type, x))):
                    raise TypeError
                s = sum(map(mul, w, x)) if sum_of is None else sum_of(w, x)
                if b is not None:
                    s = s + b
                if type(s) is not kind or not s - s == 0:
                    raise TypeError
                wrong = y * s <= 0 if rule == "margin" else (s >= 0) != (y > 0) if rule == "sign" else mistake(y, s)
                if wrong:  # w <- w + y x
                    moved = list(map(add if y > 0 else sub, w, x)) if not exact else \
                        [w_i + y * x_i for w_i, x_i in zip(w, x)]
                    if not (checked or exact):  # the new w's sum is of the run's type and finite, too
                        total = sum(moved)
                        if type(total) is not kind or not total - total == 0:
                            raise TypeError
            except (TypeError, ValueError, ArithmeticError):
                x, y = item if checked else D.check(item, i)
                s, wrong = learner._step(x, y)  # the literal step: its score, its update, its errors
                w, b = (learner.w[:-1], learner.w[-1]) if bias else (learner.w, None)
                sum_of, kind, exact = kind_of(s)  # the run's type, which an example may change
            else:
                if wrong:
                    w = moved
                    if b is not None:
                        b = b + y  # the bias's feature is the constant 1
                    learner.w = w if b is None else [*w, b]  # stored whole, then counted
                    learner.mistakes += 1
            if wrong:
                m += 1
                if lean:
                    on_mistake.whole_now()
                else:
                    on_mistake(Mistake(epoch, i, y, s))
    except BaseException:
        D.at = i
        raise
    return m


class _KernelScores:
    """eq. (2) for each of the xs, kept up to date in DualPerceptron._score's order, with each stored x_j's row of K."""
    KEPT = 1 << 22  # the most kernel values kept (32 MiB of references): beyond, a row is computed again each time

    def __init__(self, learner, xs):
        self.learner, self.xs, self.scores, self.rows, self.row_of = learner, xs, [0] * len(xs), {}, None

    def moved(self, x_j, y_j, j=None) -> list:
        """The scores once (x_j, y_j) is stored (x_j the j-th of the xs if j is given), not yet kept."""
        row, plain = self.rows.get(j) or (None, None)
        if row is None:
            try:
                self.row_of = self.row_of or self.learner.kernel.gram_rows(self.xs)
                row = self.row_of(x_j)
            except Exception:  # no gram_rows, or one that fails: the kernel's own calls, which tell what is wrong
                self.row_of = lambda x_j: [self.learner.kernel(x_j, x) for x in self.xs]
                row = self.row_of(x_j)
            plain = _FLOATS.issuperset(map(type, row))  # then y_j k is k or -k exactly, and s + -k is s - k
            if j is not None and (len(self.rows) + 1) * len(self.xs) <= self.KEPT:
                self.rows[j] = row, plain
        return list(map(add if y_j > 0 else sub, self.scores, row)) if plain and type(y_j) is int and y_j * y_j == 1 \
            else [s + y_j * k for s, k in zip(self.scores, row)]

    @classmethod
    def dual_pass(cls, learner, D, epoch, on_mistake) -> int:
        """_pass (Part I) for a DualPerceptron over kept examples: eq. (2) read from the scores kept, else literally."""
        D.passes = epoch
        if D.cache is None and learner.mistakes == 0:
            D.cache = cls(learner, [learner._read(x) for x, _ in D.examples])
        m = 0
        for i, (x, y) in enumerate(D.examples):
            D.at, cache = i, D.cache
            if isinstance(cache, cls) and cache.learner is learner:
                s = _finite(cache.scores[i], "w.x", _NOT_REAL)
                wrong = learner.mistake(y, s)
                try:
                    scores = cache.moved(cache.xs[i], y, i) if wrong else None
                except (TypeError, ValueError, ArithmeticError):  # met again by the literal step, where it would be
                    D.cache = False  # the literal step from here on
                    s, wrong = learner._step(x, y)
                else:
                    if wrong:
                        learner.stored.append((cache.xs[i], y))  # stored whole, then the scores move
                        learner.d, cache.scores = D.d, scores
            else:
                s, wrong = learner._step(x, y)
            if wrong:
                m += 1
                on_mistake(Mistake(epoch, i, y, s))
        return m


def _primal_score(learner, x) -> Number:
    """Perceptron._score (Part I), fast: w.x by the fastest sum in dot's order; anything irregular is the literal's."""
    w = learner.w
    try:
        s = _sum_exact(w, x)  # of different lengths: sumprod raises (the literal's), sum(map(mul)) zips as dot
        if type(s) is float and _sum_float is not _sum_exact:
            s = _sum_float(w, x)  # sumprod of floats is extended-precision: the plain loop's bits instead
        if type(s) in _EXACT or type(s) in (float, decimal.Decimal) and s - s == 0:
            return s
    except (TypeError, ValueError, ArithmeticError):
        pass
    return Perceptron._score.literal(learner, x)  # type: ignore[attr-defined]


# The pocket's scores kept up to date: after w <- w + y_i x_i (x_i read, the bias its last feature 1), each score
# w.x_j moves by y_i r_ij, r_ij = x_i.x_j, O(1) once x_i's row [r_ij for every j] is known.  A primal run keeps the
# margins q_j = y_j w.x_j, a joint run every class's scores.  With ints and Fractions they are the run's: q_j < 0 is a
# mistake under both rules, q_j = 0 the rule's to decide, a tie the argmax's.  A float score kept is not the run's,
# but both are near the exact e_j = sum_k w_k x_jk of the run's weights, and a rule reads only a score's sign and
# whether it is 0 (an argmax, which is largest).  With u = 2^-53, gamma = m u / (1 - m u) for m = d + 3 (a rounding
# per product, one more for an int weight, one per sum), eta = m 2^-1074 for products that underflow, W = max_k |w_k|
# (of every class), X_i = max_k |x_ik|, N_j = sum_k |x_jk|: the run's S_j = fl(w.x_j) has |S_j - e_j| <= gamma W N_j
# + eta.  An update w'_k = fl(w_k + y x_ik) = w_k + y x_ik + delta_k, |delta_k| <= u W', moves e_j by y r_ij + sum_k
# delta_k x_jk; the kept a'_j = fl(a_j + y fl(r_ij)) is off by |fl(r_ij) - r_ij| <= gamma X_i N_j + eta (r_ij summed in
# any order, or by math.sumprod, which rounds once) and a rounding of u |a'_j| <= u (W' N_j + E'_j).  So E_j = |a_j -
# e_j| stays within N_j G + H, from a_j = S_j, G = gamma W, H = eta, where after each update (which moves a class's
# vector at most once)
#   G' = (G + gamma X_i + 2 u W') / (1 - u),   H' = (H + eta) / (1 - u).
# Hence |S_j - a_j| <= N_j (G + gamma W) + H + eta <= B (computed in floats with a margin of 2 for their own
# roundings, N = max_j N_j): a margin further than B from 0 has S_j's sign, and S_j is not 0; an argmax stands where
# every other class's score is more than 2B below the largest (3B asked, for the sum's own rounding).  Only the
# scores in doubt are summed again, in the run's order.  The bound holds while no sum overflows (W N <= 2^1000 is
# asked); after n updates all are summed again and G and H start over, so B stays small.

class _Drift:
    """The bound B (above) on float scores of the xs kept up to date from the run's own (B = 0), weights up to W."""

    def __init__(self, xs, W):
        m, self.updates = len(xs[0]) + 3 if xs else 3, 0
        self.gamma, self.eta = m * 2.0 ** -53 / (1 - m * 2.0 ** -53), m * 2.0 ** -1074
        self.N = max((sum(map(abs, x)) for x in xs), default=0.0)  # inf past the range
        self.G, self.H = self.gamma * W, self.eta

    def moved(self, W, X_i):
        """B after an update by an x_i of largest |x_ik| X_i, to weights of largest |w_k| W; None if it fails."""
        u, self.updates = 2.0 ** -53, self.updates + 1
        self.G = (self.G + self.gamma * X_i + 2 * u * W) / (1 - u)
        self.H = (self.H + self.eta) / (1 - u)
        B = 2 * (self.N * (self.G + self.gamma * W) + self.H + self.eta)
        return B if W * self.N <= 2.0 ** 1000 and isfinite(B) else None  # then every |q_j| <= W N (1 + ...) too


class _KeptScores:
    """errors(at_most, mistake) of a primal or joint run's pocket, from scores kept up to date (derived above)."""
    ROWS = 2000  # the most examples whose rows (n each) it keeps: at most n^2 numbers

    @classmethod
    def errors(cls, learner, D):
        """_pocket_errors, fast: the same counts without summing every w.x again (a dual's from _KernelScores)."""
        literal = _pocket_errors.literal(learner, D)  # type: ignore[attr-defined]
        xs, ys = [x for x, _ in D.examples], [y for _, y in D.examples]
        if type(learner) is DualPerceptron:
            def from_kept_scores(at_most, mistake):
                cache = D.cache
                if not (isinstance(cache, _KernelScores) and cache.learner is learner and
                        _PLAIN.issuperset(map(type, cache.scores)) and all(map(_is_finite, cache.scores))):
                    return literal(at_most, mistake)
                return _count(map(learner.mistake, ys, cache.scores), at_most)
            return from_kept_scores
        joint, exact = type(learner) is MulticlassPerceptron, all(type(v) in _EXACT for x in xs for v in x)
        if len(xs) > cls.ROWS or not (joint or type(learner) is Perceptron) or joint and learner.binary is not None \
                or not (exact or all(type(v) is float for x in xs for v in x)):
            return literal
        return cls(learner, xs, ys, literal, exact, joint)

    def __init__(self, learner, xs, ys, literal, exact, joint):
        self.learner, self.ys, self.literal, self.exact, self.joint = learner, ys, literal, exact, joint
        self.xs = [learner._read(x) for x in xs]
        self.X = [max(map(abs, x), default=0.0) for x in self.xs]
        self.kept, self.after, self.rows = None, -1, {}  # kept: margins, or {class: scores}
        self.truth = [learner.classes.index(y) for y in ys] if joint else None

    def __call__(self, at_most, mistake):
        learner, B = self.learner, None
        flat = learner.w if not self.joint else [] if self.exact else [v for w in learner.w.values() for v in w]
        W = 0 if self.exact else max(map(abs, flat), default=0.0)
        if self.kept is not None and mistake is not None and learner.mistakes == self.after + 1 and \
                self.drift.updates < len(self.xs) and self.row(mistake.index) is not None:
            row, kept = self.rows[mistake.index], self.kept
            if self.joint:
                kept[mistake.y] = list(map(add, kept[mistake.y], row))
                kept[mistake.predicted] = list(map(sub, kept[mistake.predicted], row))
            else:
                self.kept = list(map(add if mistake.y > 0 else sub, kept, row))
            B = 0 if self.exact else self.drift.moved(W, self.X[mistake.index])
        if B is None:  # the first count, n updates since the last, or a bound that does not hold: all summed again
            self.kept, self.drift = None, _Drift(self.xs, W)
            if not (self.exact or W * self.drift.N <= 2.0 ** 1000 and all(
                    type(v) is float or type(v) is int and -2 ** 53 <= v <= 2 ** 53 for v in flat)):
                return self.literal(at_most, mistake)  # which says what is wrong, where the literal count would
            lists = [_dots(w, self.xs, self.exact) for w in (learner.w.values() if self.joint else [learner.w])]
            if not (self.exact or all(all(map(isfinite, v)) for v in lists)):
                return self.literal(at_most, mistake)
            self.kept = dict(zip(learner.w, lists)) if self.joint else list(map(mul, self.ys, lists[0]))
            B = 0
        self.after = learner.mistakes
        return self.argmax_errors(B, at_most) if self.joint else self.margin_errors(B, at_most)

    def row(self, i):
        """x_i's row (times y_j for the margins), or None if a sum is not finite."""
        if i not in self.rows:
            row = _dots(self.xs[i], self.xs, True)  # any order is within the bound: sumprod from 3.12
            row = row if self.joint else list(map(mul, self.ys, row))
            self.rows[i] = row if self.exact or isfinite(sum(row)) else None
        return self.rows[i]

    def margin_errors(self, B, at_most):
        q, learner = self.kept, self.learner
        wrong = _count(filter(functools.partial(gt, -B), q), at_most) if sys.implementation.name != "pypy" else \
            min(sum(map(gt, repeat(-B), q)), at_most if at_most and at_most > 0 else len(q))  # y_j S_j < 0 for certain
        if at_most and wrong == at_most or min(map(abs, q), default=B + 1) > B:
            return wrong
        near = [j for j, q_j in enumerate(q) if -B <= q_j <= B]
        scores = _dots(learner.w, [self.xs[j] for j in near], self.exact)  # as the run sums them
        wrong += sum(map(learner.mistake, [self.ys[j] for j in near], scores))
        return min(wrong, at_most) if at_most and at_most > 0 else wrong

    def argmax_errors(self, B, at_most):
        classes, n = self.learner.classes, len(self.xs)
        lists = [self.kept[c] for c in classes]
        top, near = list(map(max, *lists)), [0] * n
        for v in lists:  # how many classes are within 3B of the largest score (B = 0: attain it)
            near = list(map(add, near, map(ge, map(add, v, repeat(3 * B)) if B else v, top)))
        wrong = list(map(ne, map(getitem, map(getitem, repeat(lists), self.truth), range(n)), top))
        for j in (j for j, k in enumerate(near) if k > 1):  # a tie, or a float argmax in doubt: found again
            found = {c: _sum_float(self.learner.w[c], self.xs[j]) if B else self.kept[c][j] for c in classes}
            wrong[j] = _argmax(classes, found) != self.ys[j]
        return _count(wrong, at_most)


def _scaled_sums(history, c):
    """_History.add, fast: ints, and floats that are ints times 2^-k (ints at most 2^53 beside them), added as the
    ints w 2^k to ints over 2^k by C-level maps; more bits below the point raise k (to 1000 at most); else literally."""
    w = history.w
    kinds = set(map(type, w))
    if kinds <= {int}:
        history.scaled = list(map(add, history.scaled, map(mul, repeat(c << history.k), w)))
        return
    if kinds <= {int, float} and (int not in kinds or max(map(abs, w)) <= 2 ** 53):
        scaled = list(map(mul, repeat(2.0 ** history.k), w))  # exact while finite: a power of 2
        if not all(map(float.is_integer, scaled)):
            k = max(Fraction(v).denominator.bit_length() - 1 for v in w)
            if history.k < k <= 1000:
                history.scaled, history.k = [a << (k - history.k) for a in history.scaled], k
                scaled = list(map(mul, repeat(2.0 ** k), w))
        if all(map(float.is_integer, scaled)):  # False for an inf: a sum past the float range
            history.scaled = list(map(add, history.scaled, map(mul, repeat(c), map(float.__trunc__, scaled))))
            return
    _History.add.literal(history, c)  # type: ignore[attr-defined]


def _voted_signs_fast(kept, bias, xs) -> list:
    """_voted_signs, fast: v_k.x = v_(k-1).x + y x_i.x where v_k = v_(k-1) + y x_i (x_i in Run.voted's ``made``), a row
    per x_i, floats within the pocket's bound B (above) of 0 summed again, all every n.  Else: the literal vote."""
    d, literal, given = len(kept[0][0]) - bias, _voted_signs.literal, xs  # type: ignore[attr-defined]
    made, scores, rows, drift = getattr(kept, "made", ()), [], {}, None  # type: Any, list, dict, Any
    votes = [0] * len(xs)  # sum_k c_k [v_k.x >= 0]
    try:  # a PerceptronError (an x to refuse) is a ValueError: the literal vote's to tell
        xs = [[*_vector(x, d), 1] if bias else _vector(x, d) for x in xs]
        kinds = set().union(*(map(type, v) for v, _ in kept), *(map(type, x) for x in xs))
        exact = kinds <= _EXACT
        if not (exact or kinds <= _FLOATS):
            raise TypeError  # the literal vote's
        for k, (v, c) in enumerate(kept):
            W, B = 0 if exact else max(map(abs, v), default=0.0), None
            x_i, y = made[k - 1] if 0 < k <= len(made) else (None, 0)
            read = None if x_i is None else [*x_i, 1] if bias else x_i
            if read is not None and (exact or W <= 2 ** 53 and drift.updates < len(xs)) and \
                    list(map(add if y > 0 else sub, kept[k - 1][0], read)) == v:  # v_k = v_(k-1) + y x_i
                row, X_i = rows.get(id(x_i)) or rows.setdefault(id(x_i), (_dots(read, xs, True), max(map(abs, read))))
                scores = list(map(add if y > 0 else sub, scores, row))
                B = 0 if exact else drift.moved(W, X_i)
            if B is None:
                scores, B, drift = _dots(v, xs, exact), 0, _Drift(xs, W) if made and not exact else None
                if not (exact or all(map(isfinite, scores))):
                    raise OverflowError  # the literal vote says where
            signs = list(map(le, repeat(0), scores))
            if B and min(map(abs, scores)) <= B:  # in doubt: v_k.x as the run sums it
                for j in [j for j, s in enumerate(scores) if -B <= s <= B]:
                    signs[j] = _sum_float(v, xs[j]) >= 0
            votes = list(map(add, votes, map(mul, repeat(c), signs)))
    except (ArithmeticError, TypeError, ValueError):
        return literal(kept, bias, given)
    total = sum(c for _, c in kept)
    return [2 * p - total for p in votes]  # sum_k c_k sign(v_k.x), sign(0) = +1


@_boundary("w <- w + y x cannot be computed")
def _learn_fast(learner, x, y) -> bool:
    """Perceptron.learn (Part I), fast: _pass_fast over the one example, which it checks in passing."""
    try:
        return _pass_fast(learner, _Data(((x, y),), False, d=learner.d), 1, lambda mistake: None) == 1
    except PerceptronError as err:  # learn's example has no index
        raise type(err)(err.reason) from None


# Part III: the tools.  The command line reads its input into one report model (the run, its test, its bound), as
# text or JSON; the modes are dispatched from one table (_MODES).  Then --check, --vectors, the picture, the writer.

# The embedded example: 2-D, integer coordinates, separated through the origin by W_STAR = (-2, 1) (y = sign(-2 x1
# + x2)), and slow enough to show a few passes: 5 mistakes in 4 passes under the sign rule, against a bound of 10.
EXAMPLE = [((3, 3), -1), ((-3, 1), 1), ((0, -3), -1), ((2, 0), -1),
           ((-3, -1), 1), ((0, 4), 1), ((-2, 1), 1), ((-4, 0), 1)]
W_STAR = (-2, 1)


def _described(run) -> list:
    """The header's (label, text) of the rule, the multiclass update and each convention that ran, and where each is
    met (FAMILY): Part I's read off its own rule at a zero score (so an edit shows), the family's off its point."""
    p = run.conventions or Conventions(rule=run.rule if run.rule in RULES else "sign", bias=bool(run.bias))
    beyond, edited = _beyond(p), "Part I as it stands, edited: {} has {}"
    zero = p.zero if beyond or run.multiclass == "joint" else sign(0)
    at = "<=" if beyond or RULES["margin"](1, 0) else "<"
    notes = "Columbia §1.1" if zero == 1 else "see conventions" if beyond else edited.format("Columbia §1.1", "+1")
    rule = (f"argmax: predict the class of the largest w(l).x, a tie to the {p.ties} (Kalyanakrishnan §4)"
            if run.multiclass == "joint" else
            f"margin: a mistake iff y (w.x) {at} {_num(p.threshold)} "
            f"({'Cornell §3' if at == '<=' else edited.format('Cornell §3', '<= 0')})"
            if p.rule == "margin" or p.threshold else
            f"sign: a mistake iff sign(w.x) != y, sign(0) = {zero:+d} ({notes})")
    row = _ROWS["one-vs-rest" if run.multiclass == "one-vs-rest" else "the joint update"]
    said = [("rule", rule)] + [("multiclass", f"{run.multiclass}: {row.changes} ({row.source})")] * bool(run.multiclass)
    for field, value in beyond.items():
        row = next(row for row in FAMILY if row.field == field and (row.value == value or str(row.value).isupper()))
        changes = row.changes if field == "order" else row.changes.replace(str(row.value), _shown_any(value))
        said += [("convention", f"{_option(field, value)}: {changes} ({row.source})")] * (field != "ties")
    return said

_DIGITS = 4300         # the most digits of a number in a cell (Python's own limit for int <-> str)
_LINE_LIMIT = 1 << 20  # the longest line read, in bytes: no file is read whole
_JSON_LIMIT = 1 << 28  # the largest JSON file read back (--model, --check), in bytes


class _Terminated(KeyboardInterrupt):
    """SIGTERM while main() runs, raised as Ctrl-C is, so that every write it interrupts is taken back."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (``--help``; and 141: a reader that left, | head).  Nothing process-wide outlives the call.
    Ctrl-C and SIGTERM: one handler, which notes each (_Recorder) and raises it; then 130 or 143 on every path."""
    import signal
    signals: list = []
    def interrupted(signum, frame):
        signals.append(_Terminated if signum == getattr(signal, "SIGTERM", None) else KeyboardInterrupt)
        raise signals[-1]()
    previous: dict = {}
    try:
        try:
            try:  # the default handlers, or the script's while it starts (its own module's), taken over
                for signum in filter(None, (signal.SIGINT, getattr(signal, "SIGTERM", None))):
                    handler = signal.getsignal(signum)
                    if (handler in (signal.default_int_handler, signal.SIG_DFL)
                            or getattr(handler, "__module__", None) == __name__):
                        previous[signum] = handler  # kept first: given back wherever a signal lands
                        signal.signal(signum, interrupted)
            except ValueError:  # not the main thread: none taken over
                previous.clear()
            args = _arguments(sys.argv[1:] if argv is None else argv)
            context = contextvars.copy_context()
            context.run(_Recorder.signalled.set, signals)
            context.run(_LITERAL.set, args.literal or _LITERAL.get())
            status = context.run(next(mode for option, mode in _MODES if option is None or getattr(args, option)), args)
            return status if not signals else 143 if _Terminated in signals else 130  # (one lost in a finalizer)
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
    except SystemExit as done:  # --help, --version: argparse's exit, with its status; the script's start's handler
        return int(done.code or 0)
    except BrokenPipeError:  # the reader left (| head): quietly, as a shell tool would (_emit let its output go)
        return 141
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (_Terminated): no traceback, the shell's status
        if not isinstance(stop, _Terminated):
            _say("")
        return 143 if isinstance(stop, _Terminated) else 130
    except (PerceptronError, OSError, MemoryError) as err:  # bad input; a limit of the machine (memory, open files, a
        where = getattr(err, "filename", None) or ("the working folder" if isinstance(err, FileNotFoundError) else "")
        _say(f"error: {err}" if isinstance(err, PerceptronError) else  # deleted working folder), not a bug
             f"error: {where and f'{where}: '}{getattr(err, 'strerror', None) or str(err) or 'out of memory'}")
        return 2
    except Exception as err:  # a bug: one line, and a status that no verdict has
        _say(f"error: internal error (please report it): {type(err).__name__}: {_reason(err)}")
        return 3  # never 0, 1 or 2, which are verdicts and bad input


def _say(line):
    """One line on standard error."""
    import contextlib
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no standard error to say it on
        print(_printable(line), file=sys.stderr, flush=True)


def _printable(line):
    """A line with its control characters escaped: a file name, a header cell or a class may hold a newline."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)


# Options that do not apply beside another one, and options that apply only with others (or a FILE).
_NOT_BESIDE = {"multiclass": ("kernel", "w_star", "labels"), "epochs": ("max_epochs",),
               "json": ("quiet", "trace"), "quiet": ("weights", "trace"), "kernel": ("average",),
               "model": (*Conventions._fields, "epochs", "max_epochs", "pocket", "kernel", "multiclass", "w_star",
                         "labels", "average", "voted", "svg", "svg_steps", "html", "test", "weights", "trace", "check",
                         "save"),
               "check": ("json", "quiet", "trace", "test", "svg", "svg_steps", "html", "w_star", "save", "predictor"),
               "tolerance": ("json", "quiet", "model", "bitwise"), "explain": ("json", "quiet", "model", "check")}
_NOT_BESIDE["conform"] = ("file", "check", "model", *_NOT_BESIDE["check"], "explain", "weights")  # and --check's
_ONLY_WITH = {"tolerance": ("check", "conform"), "bitwise": ("check", "conform"), "conform_cases": ("conform",),
              "conform_seed": ("conform",), "labels": ("file", "conform"), "predictor": ("model", "test"),
              **dict.fromkeys(("label_column", "header", "delimiter", "drop_column", "test", "model", "check"),
                              ("file",))}
_DEFAULTS = {"label_column": -1, "labels": (-1, 1), "rule": "sign", "max_epochs": 1000, "delimiter": ",",
             "drop_column": (), "predictor": "w"}


def _arguments(argv):
    def flag(name):
        return "--no-header" if name == "header" else "a FILE" if name == "file" else "--" + name.replace("_", "-")
    if isinstance(argv, (str, bytes)) or not all(isinstance(a, str) for a in argv):
        raise PerceptronError(f"argv is {_short(argv)}: a list of strings")
    args = _parser(argv).parse_args(list(argv))
    given = {name for name, value in vars(args).items() if value is not None and value is not (name == "header")}
    for name, value in vars(args).items():
        if value == "" and name != "file":
            raise PerceptronError(f"{flag(name)} needs a value (see --help)")
    for option, others in (*_NOT_BESIDE.items(), ("vectors", sorted(given - {"vectors", "literal"}))):
        for other in others:
            if {option, other} <= given:
                raise PerceptronError(f"{flag(other)} does not apply to {flag(option)}")
    for name, needs in _ONLY_WITH.items():
        if name in given and not given.intersection(needs):
            where = {("file",): ", not to the embedded example", ("conform",): " only"}.get(needs, "")
            raise PerceptronError(f"{flag(name)} applies to {' or '.join(map(flag, needs))}{where}")
    for name in ("w_star", "tolerance", *Conventions._fields):  # numbers in the cells' grammar (1e999999 refused)
        text, family = getattr(args, name), name in Conventions._fields
        if not isinstance(text, str) or name in ("rule", "step", "batch", "decay_at", "ties"):
            continue
        try:  # a tolerance, and p/q in the family's values (a rate of 1/3), exactly; other decimals as the cells are
            numbers = [[_parse_number(cell, args.exact or name == "tolerance" or family and "/" in cell)
                        for cell in (one.split(",") if name in ("order", "start", "w_star") else [one])]
                       for one in (text.split(";") if name == "order" else [text])]
            if name == "tolerance" and numbers[0][0] < 0:
                raise ValueError(f"{_short(text)} is not a number >= 0 (as 1e-12)")
            if family and name not in ("rate", "threshold", "bias_rate", "decay", "start") and not all(
                    _form(cell.strip()) == "int" for cell in text.replace(";", ",").split(",")):
                raise ValueError(f"{_short(text)} is not " + ("whole numbers" if name == "order" else "a whole number"))
        except ValueError as err:
            raise PerceptronError(f"{flag(name)}: {err}") from None
        setattr(args, name, {"order": numbers, "start": numbers[0], "w_star": numbers[0]}.get(name, numbers[0][0]))
    if args.weights and not (args.json or args.check) and (args.multiclass or args.kernel):  # a table with no w
        raise PerceptronError(f"--weights does not apply to {flag('multiclass' if args.multiclass else 'kernel')}'s "
                              "text report: --json --weights writes w after each mistake")
    if args.multiclass == "joint" and "rule" in given:
        raise PerceptronError("--rule does not apply to --multiclass joint: an argmax has no zero-score question")
    _point("joint" if args.multiclass == "joint" else "kernel" if args.kernel else None, rule=args.rule,
           bias=args.bias, **_family_options(args))  # each convention checked here, not blamed on FILE once read
    vars(args).update({name: value for name, value in _DEFAULTS.items() if getattr(args, name) is None})
    args.given = given
    _refuse_overwriting(args)
    return args


def _parser(argv=()):
    import argparse
    class Parser(argparse.ArgumentParser):
        def error(self, message):  # one line, exit 2, as every other error here; a misspelled option's nearest;
            unknown = [a for a in message.partition("unrecognized arguments: ")[2].split() if a.startswith("--")]
            near = unknown and _nearest_name(unknown[0].split("=")[0], self._option_string_actions)
            option = message.partition(": expected one argument")[0].replace("argument ", "", 1)
            value = dict(zip(argv, argv[1:])).get(option, "") if message.endswith(": expected one argument") else ""
            near = near or (value.startswith("-") and f"{option}={value} (a value that starts with '-' takes '=')")
            raise PerceptronError(f"{message}{f': did you mean {near}?' if near else ''} (see --help)")
        def _print_message(self, message, file=None):  # --help and --version: printed whole, or not at all
            _emit(message.rstrip("\n"))
    def typed(kind):  # an option's value: two labels, a separator, a whole number (of passes: >= 1)
        def value(text):
            names = [t.strip() for t in text.split(",")]
            text = "\t" if kind == "delimiter" and text in ("tab", "\\t") else text
            if kind == "labels" and len(names) == 2 and all(names) and names[0] != names[1]:
                return tuple(int(t) if _form(t) == "int" and len(t) < 20 else t for t in names)
            if kind == "delimiter" and len(text) == 1 and text not in "\r\n\"" and not text.isalnum():
                return text
            if kind in ("whole", "passes") and _form(text) == "int" and len(text) <= 20 - (kind == "passes") and (
                    kind == "whole" or int(text) >= 1):
                return int(text)
            raise argparse.ArgumentTypeError(f"{_short(text)} is not " + {
                "labels": "two distinct labels NEG,POS (as --labels=B,M)", "whole": "a whole number",
                "delimiter": "one separator character (or 'tab')", "passes": "a whole number >= 1"}[kind])
        return value
    parser = Parser(prog="perceptron", description="Train the Perceptron (primal, dual or kernelized) on a CSV file,\n"
                                                   "or on the embedded example, and print every mistake.",
                    formatter_class=argparse.RawDescriptionHelpFormatter, epilog="""examples:
  perceptron                                    the embedded example: every mistake, and the bound
  perceptron data.csv --bias                    train until a pass makes no mistake
  perceptron iris.csv --multiclass --bias       several classes (the labels of a column)
  perceptron data.csv --pocket --test test.csv  data that is not separable, errors on held-out data
  perceptron data.csv --bias --save model.json  then: perceptron new.csv --model model.json
  perceptron data.csv --check theirs.json       where another implementation's run parts from this one

Exit status: 0 converged or made the passes asked for (--check: the runs agree), 1 stopped at --max-epochs
(--check: they differ), 2 bad input or usage, 130 Ctrl-C, 143 SIGTERM, 3 an internal error.""")
    arg = parser.add_argument_group("input").add_argument
    arg("file", nargs="?", metavar="FILE", help="CSV file, '-' for standard input (default: the embedded example)")
    arg("--label-column", type=typed("whole"), metavar="N", help="the label's column, 0-based; -1 the last (default)")
    arg("--no-header", dest="header", action="store_false", help="the first row is data even if it is not numeric")
    arg("--exact", action="store_true", help="read decimals and p/q as exact Fractions (0.1 is 1/10)")
    arg("--labels", type=typed("labels"), metavar="NEG,POS", help="-1,1 (default), 0,1 (Kalyanakrishnan's), names: B,M")
    arg("--delimiter", type=typed("delimiter"), metavar="C", help="the separator of the cells (default ','; 'tab')")
    arg("--drop-column", type=typed("whole"), action="append", metavar="N", help="skip column N, 0-based (repeatable)")
    arg = parser.add_argument_group("training").add_argument
    arg("--rule", choices=sorted(RULES), help="when a score is a mistake (default: sign)")
    arg("--bias", action="store_true", help="append the constant feature 1; the bias is the last weight")
    arg("--epochs", type=typed("passes"), metavar="K", help="make K passes (default: until a pass makes no mistake)")
    arg("--max-epochs", type=typed("passes"), metavar="M", help="the most passes until convergence (default: 1000)")
    arg("--kernel", metavar="NAME[:PARAM]", help="the kernel dual with a kernel of kernels.py: linear, "
        "monotone-conjunction, all-conjunction, conjunction:K, polynomial:D[:C], gaussian:SIGMA")
    arg("--multiclass", nargs="?", const="one-vs-rest", choices=["one-vs-rest", "joint"], metavar="UPDATE",
        help="any labels: a w per class, argmax; one-vs-rest (default, Kalyanakrishnan §4) or joint (Collins 2002)")
    arg = parser.add_argument_group("conventions", "beyond the notes' point: FAMILY's rows, --FIELD=VALUE").add_argument
    for field, default in zip(Conventions._fields, _NOTES):
        rows = [row for row in FAMILY if row.field == field]
        text = "; ".join(row.changes if default is False else f"{row.value}: {row.changes}" for row in rows) + (
            "" if default in (None, False) else f" (the notes: {default})")
        if field not in ("rule", "bias"):
            arg("--" + field.replace("_", "-"), help=text, **({"action": "store_true"} if default is False else {
                "metavar": "|".join(str(row.value) for row in rows)}))
    arg = parser.add_argument_group("predictors").add_argument
    arg("--pocket", action="store_true", help="also report the pocket: the weights with the fewest training errors")
    arg("--average", choices=["after", "before", "updates"], help="also report the averaged weights: the mean after "
        "every example (Collins 2002; scikit-learn's average=True), before it (nltk), or after every update")
    arg("--voted", action="store_true", help="also report Freund and Schapire's voted perceptron: each w, its count")
    arg("--predictor", choices=["w", "pocket", "average", "voted"], help="--model's and --test's predictor (default w)")
    arg = parser.add_argument_group("model").add_argument
    arg("--test", metavar="FILE2", help="after training, every predictor's errors on a held-out CSV read alike")
    arg("--save", metavar="MODEL.json", help="save the trained model, its predictors and options, for --model")
    arg("--model", metavar="MODEL.json", help="predict FILE by a --save or --json model, one a line; errors if labeled")
    arg = parser.add_argument_group("oracle").add_argument
    arg("--w-star", metavar="W", help="a separating w* (--w-star=-2,1): print R^2/gamma^2, check the mistakes")
    arg("--check", metavar="THEIRS.json", help="where THEIRS (a run, as --json writes it) parts from this run, and why")
    arg("--conform", metavar="'COMMAND'", help="run another implementation on many cases, each a CSV file {data}, its "
        "run written to {out} (or printed) as --check reads it: what it is, each bug shrunk to a CSV file, exit 0 or 1")
    arg("--conform-cases", type=typed("passes"), metavar="N", help=f"--conform's cases (default {_CONFORM_CASES})")
    arg("--conform-seed", type=typed("whole"), metavar="S", help="--conform's seed (default: a new one, printed)")
    arg("--tolerance", metavar="T", help="with --check: numbers agree within T times their scale (S = sum |w_i x_i| "
        "for a score, the largest |w_i| for weights), beside the rounding the float model allows")
    arg("--bitwise", action="store_true", help="with --check: numbers agree only bit for bit (no rounding allowed)")
    arg("--vectors", metavar="DIR", help="write the conformance corpus into DIR: every case's data, options and JSON")
    arg("--literal", action="store_true", help="audit: Part I alone, without its accelerators (PERCEPTRON_LITERAL=1)")
    arg = parser.add_argument_group("output").add_argument
    arg("--quiet", action="store_true", help="print only the summary")
    arg("--json", action="store_true", help="print one JSON document for programs instead")
    arg("--weights", action="store_true", help="show w after every mistake, even of 9 features or more (or in JSON)")
    arg("--trace", choices=["all"], help="show every mistake in the text report (default: the first 20 and the last 5)")
    arg("--explain", action="store_true", help="write each mistake as the notes do, with its numbers: the score's "
        "sum of products, the rule, the update, and with a w* the proof checked at each and whole (for the table)")
    arg("--svg", metavar="OUT.svg", help="also draw the run (2 features): each mistake's hyperplane, or kernel regions")
    arg("--svg-steps", metavar="DIR", help="also draw one SVG per mistake into DIR, to page through the run")
    arg("--html", metavar="OUT.html", help="also write the run as one page: its steps, the proof's chart, the trace")
    parser.add_argument("--version", action="version", version=f"perceptron {__version__}")
    return parser


def _kernel_of(spec, name=None):
    """The kernel a --kernel spec names (kernels.py, imported here, never at load time), or a run.kernel ``name``."""
    if name is not None:
        spec = name.replace("monotone_conjunction_upto(", "conjunction:").replace("(", ":").replace(", c=", ":")
        kernel = dot if name == "dot" else _kernel_of(spec.rstrip(")").replace("_", "-"))
        return kernel if _name(kernel) == name else None
    try:
        import kernels
    except ImportError:
        kernels = None
    if not (callable(getattr(kernels, "from_spec", None)) and hasattr(kernels, "KernelError")):
        found = "none" if kernels is None else f"another module of that name, {getattr(kernels, '__file__', None)}"
        raise PerceptronError(f"--kernel needs this project's kernels.py beside perceptron.py (found {found})")
    try:
        return kernels.from_spec(spec)
    except ValueError as err:  # kernels.KernelError
        raise PerceptronError(str(err)) from None


# Reading CSV: one line at a time, every cell in one number grammar.
class _Located(PerceptronError):
    """An error of the input that already names the file and line."""


class _Input:
    """A file's (or the embedded example's) examples, read one at a time; where(i): i's (line, x), or the last's."""
    def __init__(self, source, names, rows, d, keep, labeled=True):
        self.source, self.names, self.rows, self.labeled = source, names, rows, labeled  # rows: (line, x, y)
        self.count, self.d, self.current = 0, d, None
        self.kept: list | None = [] if keep else None

    def __iter__(self):
        for line, x, y in self.rows:
            self.count += 1
            self.current = (line, x)
            if self.kept is not None:
                self.kept.append(self.current)
            yield x, y

    def where(self, i):
        return self.kept[i] if self.kept is not None and i < len(self.kept) else self.current

    def examples(self) -> list:  # every error of a row names its line already (_Located); a progress line as it reads
        with _Progress(f"{self.source}: {{1:,}} examples read", every=4096) as reading:
            return [reading.mistake(0) or example for example in self]

    def located(self, err):
        line = self.where(err.index)[0] if err.index is not None and self.where(err.index) else None
        return err if isinstance(err, _Located) else _Located(
            f"{self.source}: {err}" if line is None else f"{self.source}:{line}: {err.reason}")


def _form(text):
    import re
    t = text.strip()
    for name, pattern in (("int", r"[+-]?[0-9]+"), ("decimal", r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"),
                          ("ratio", r"[+-]?[0-9]+/[0-9]+")):
        if re.fullmatch(pattern, t, re.ASCII):
            return name
    return "special" if t.lower().lstrip("+-") in ("nan", "inf", "infinity") else None


def _int_of(text):
    """int(text) for at most _DIGITS digits, whatever limit this process set on int <-> str."""
    return int(text) if len(text) < 640 else int(decimal.Decimal(text))


def _parse_number(text, exact):
    """A CSV cell as a number: an int, else a float (a Fraction with exact); else ValueError with the reason."""
    t = text.strip()
    digits = sum(c in "0123456789" for c in t) if len(t) > _DIGITS else 0
    if digits > _DIGITS:  # int() and Fraction() of a long text take time that grows faster than its length
        raise ValueError(f"{_short(t, 24)} has {digits} digits: a number here has at most {_DIGITS}")
    form = _form(t)
    if form == "decimal" and exact and abs(int(t.lower().partition("e")[2] or 0)) > _DIGITS:
        raise ValueError(f"{_short(t, 24)}: an exponent beyond {_DIGITS} is not read exactly (10**e is built)")
    if form == "int":
        return _int_of(t)
    if form == "decimal" and exact:
        return Fraction(decimal.Decimal(t))  # the decimal text exactly: 0.1 is 1/10
    if form == "decimal" and isfinite(float(t)):
        return float(t)
    numerator, _, denominator = t.partition("/")
    if form == "ratio" and exact and _int_of(denominator) != 0:
        return Fraction(_int_of(numerator), _int_of(denominator))
    comma = _form(t.replace(",", ".")) == "decimal" and t.count(",") == 1  # 1,6: a decimal comma, as Excel writes
    raise ValueError(f"{_short(text)} " + {"decimal": "is too large for a float (use --exact)",
                                            "ratio": "divides by zero" if exact else "is a fraction p/q: use --exact",
                                            "special": "is not finite: NaN and infinity are not features"}.get(
        form, "is not a number" + f": write {t.replace(',', '.')}, with a decimal point" * comma))


def _read(args, path, keep=True, features=None, shown_as="<data>") -> _Input:
    """A CSV file's examples, read as needed ('-': standard input; bytes: a text named ``shown_as``; --model's d)."""
    exact, drop, delimiter = args.exact, args.drop_column, args.delimiter
    source = "<stdin>" if path == "-" else path if isinstance(path, str) else shown_as
    rows = _rows(path, source, delimiter)
    first = next(rows, None)
    if first is None:
        raise _Located(f"{source}: no examples: the file is empty")
    width = len(first[1])
    for other, name in ((";", "';'"), ("\t", "tab"), ("|", "'|'")) if width == 1 else ():
        if other != delimiter and other in first[1][0]:  # name the separator, rather than read the file wrong
            raise _Located(f"{source}:{first[0]}: one column, separated by {name} rather than "
                           f"{'a comma' if delimiter == ',' else repr(delimiter)}: read it with --delimiter {name}")
    columns, training = width - len(set(drop)), features is None
    if not training and columns not in (features, features + 1):
        raise _Located(f"{source}: {_count_text(columns, 'column')}: the model has {_count_text(features, 'feature')}, "
                       f"so a file for it has {_count_text(features, 'column')} ({features + 1} with the labels)")
    unlabeled = columns == features  # then no label column: every column not dropped is a feature
    label = width if unlabeled else args.label_column + width if args.label_column < 0 else args.label_column
    wrong = [("--label-column", args.label_column)] if not unlabeled and not 0 <= label < width else []
    wrong += [("--drop-column", c) for c in drop if not 0 <= c < width]
    if wrong:
        raise _Located(f"{source}: {wrong[0][0]} {wrong[0][1]} is out of range for {width} columns")
    if label in drop:  # (a file with no labels for --model may drop the column that held them)
        raise _Located(f"{source}: --drop-column {label} is the label's column: name the label's with --label-column")
    features = [c for c in range(width) if c != label and c not in drop]
    numeric, names = all(isinstance(name, int) for name in args.labels), None
    text = None if unlabeled else first[1][label].strip()
    if args.multiclass and not _form(text or "0"):  # a class's name, or a header's over classes that are numbers
        second = next(rows, None)
        rows = chain([second] if second else [], rows)
        text = text if second and label < len(second[1]) and _form(second[1][label]) else None
    # A header: a first row with a feature that is not a number (nan and inf count: they are data, refused later), or
    # a label that is not one (not a number, for numeric --labels; not one of the names); a dropped column not read.
    if args.header and not (all(_form(first[1][c]) for c in features) and (
            text is None or (_form(text) if numeric else text in map(str, args.labels)))):
        names = [first[1][c].strip() for c in features]
        if not first[1][0].strip() and 0 in features and len(first[1]) > 1:
            second = next(rows, (None, [""]))  # a pandas row index (df.to_csv(path)) counts 0, 1, 2, ...
            raise _Located(f"{source}:{first[0]}: the first column has no name" + (
                " and counts 0, 1, 2, ...: it is the row index pandas writes (write the file with index=False)"
                * (second[1][0].strip() == "0") + "; name it, or skip it with --drop-column 0"))
        first = next(rows, None)
        if first is None:
            raise _Located(f"{source}: a header but no examples")
    seen: dict = {}  # each label's text, read once
    def found(text):  # the file's first three labels from here on, for a hint (read no further than a bound)
        texts = dict.fromkeys([*(t.strip() for t in seen), text])
        for _, row in islice(rows, 100_000):
            if len(texts) > 2:
                break
            texts.setdefault(row[label].strip() if label < len(row) else text)
        return list(texts)
    def examples():
        for line, row in chain([first], rows):
            if len(row) != width:
                raise _Located(f"{source}:{line}: the row has {len(row)} columns, the first has {width}")
            cells = [row[c] for c in features]
            text, x = "".join(cells), None
            # Quickly where every cell is an int, or every one a finite float with a point; int() and float() read
            # more than the cells' grammar (other digits, 1_000), so only ASCII with no "_", not long.
            if not exact and text.isascii() and "_" not in text and len(text) <= _DIGITS:
                try:  # (a row of ints and floats, or a cell that is neither: read below)
                    x = list(map(float, cells)) if all("." in cell for cell in cells) else list(map(int, cells))
                except ValueError:
                    pass
                x = None if x and type(x[0]) is float and not all(map(isfinite, x)) else x
            if x is None:
                x = []
                for c, cell in zip(features, cells):
                    try:
                        x.append(_parse_number(cell, exact))
                    except ValueError as err:
                        raise _Located(f"{source}:{line}: column {c + 1}: {err}") from None
            try:
                y = None if unlabeled else seen[row[label]] if row[label] in seen else \
                    seen.setdefault(row[label], _parse_label(row[label], args, found if training else None))
            except ValueError as err:
                raise _Located(f"{source}:{line}: column {label + 1}: {err}") from None
            yield line, x, y
    return _Input(source, names, examples(), len(features), keep, labeled=not unlabeled)


def _rows(path, source, delimiter=","):
    """(line, cells) of every row not blank, read a line at a time (UTF-8; \\n, \\r\\n or a lone \\r ends one)."""
    import csv
    import gzip
    import io
    import zlib
    def lines(text):  # a byte that is not UTF-8 read as its surrogate (\udcXX), so that its line can say where
        try:
            for number, line in enumerate(iter(functools.partial(text.readline, _LINE_LIMIT + 1), ""), 1):
                raw = line if line.isascii() else line.encode("utf-8", "surrogateescape")
                if len(raw) > _LINE_LIMIT:
                    raise _Located(f"{source}:{number}: the line is longer than {_LINE_LIMIT} bytes")
                if "\0" in line:  # csv refuses it before Python 3.11 and reads it after: refused alike everywhere
                    raise _Located(f"{source}:{number}: the line holds a NUL byte, which no CSV text does")
                try:
                    yield line if raw is line else raw.decode("utf-8")
                except UnicodeDecodeError as err:
                    raise _Located(f"{source}:{number}: not UTF-8 text ({err.reason} at byte {err.start + 1} of "
                                   "the line)") from None
        except (OSError, EOFError, zlib.error) as err:  # (EOFError, zlib.error: a .gz cut short, or not gzip's)
            raise _Located(f"{source}: cannot read: {getattr(err, 'strerror', None) or err}") from None
    raw = io.BytesIO(path) if isinstance(path, bytes) else _opened(path, source)  # (without peek: read as it is)
    f = gzip.GzipFile(fileobj=raw) if getattr(raw, "peek", bytes)(2)[:2] == b"\x1f\x8b" else raw  # gzip's magic
    # A line ends in \n, \r\n or \r (newline=""); utf-8-sig: the byte-order mark Excel writes is not data.
    text = io.TextIOWrapper(f, encoding="utf-8-sig", errors="surrogateescape", newline="")
    reader, line = csv.reader(lines(text), delimiter=delimiter), 1  # line: where the row begins (a quote may span)
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                yield line, row
            line = reader.line_num + 1
    except csv.Error as err:
        raise _Located(f"{source}:{line}: {err}") from None
    finally:
        if path == "-":
            text.detach()  # standard input stays open
        else:
            text.close()
            raw.close()


def _opened(path, source):
    """The one place a named input is opened ('-': standard input): binary, without blocking, a regular file only."""
    import stat
    if path == "-" and getattr(sys.stdin, "buffer", None) is None:  # sys.stdin is None: standard input was closed
        raise _Located(f"{source}: cannot read: standard input is closed")
    if path == "-":
        return sys.stdin.buffer
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as err:
        raise _Located(f"{source}: cannot read: {err.strerror or err}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _Located(_kind(source, mode, "inputs are read from regular files, or from standard input ('-')"))
    return os.fdopen(fd, "rb")


def _parse_label(text, args, found):
    """A label cell as -1/+1 of --labels=NEG,POS, by value (1.0 is 1) or name; ``found(text)``: labels for a hint."""
    t = text.strip()
    if args.multiclass:
        if not t:
            raise ValueError("the label is empty")
        return t
    try:
        value = _parse_number(t, True)
    except ValueError:
        value = None
    for y, name in ((1, args.labels[1]), (-1, args.labels[0])):
        if t == name if isinstance(name, str) else (value is not None and value == name):
            return y
    hint, names = ("", found(t)) if found else (", the model's labels", [])
    if len(names) > 2:
        hint = f": the file has 3 labels or more ({', '.join(names)}): learn its classes with --multiclass"
    elif len(names) == 2:
        try:
            negative, positive = sorted(names, key=lambda name: _parse_number(name, True))
        except ValueError:
            negative, positive = sorted(names)
        hint = f": labels {negative} and {positive} are read with --labels={negative},{positive}"
    elif args.labels == (-1, 1) and found:
        hint = (": labels 0 and 1 are read with --labels=0,1" if value in (0, 1) else
                ": labels False and True are read with --labels=False,True" if t.lower() in ("true", "false") else
                ": name the two labels with --labels=NEG,POS (as --labels=B,M), or learn several classes with "
                "--multiclass" if value is None else "")
    raise ValueError(f"label {_short(t)} is not {args.labels[0]} or {args.labels[1]}{hint}")


# Training, and the one report model; rows: the mistakes shown (all, or the text's first and last), (m, where, w).
_Report = namedtuple("_Report", "args data run rows after bound errors test interrupted hint")


def _train_mode(args) -> int:
    report, files = _train_report(args, args.file)
    text = _json(report) if args.json else _text(report)
    _write_files(files, folder=None if report.interrupted else args.svg_steps,
                 report=lambda: _emit(text, args.json, held=True))
    return 130 if report.interrupted else 1 if args.epochs is None and not report.run.converged else 0


def _train_report(args, path, shown_as="<data>", so_far=True):
    """(the report, {path: text} of --svg, --svg-steps, --html, --save) of a run on path (None: EXAMPLE)."""
    kernel = _kernel_of(args.kernel) if args.kernel else None
    w_star = args.w_star or (list(W_STAR) if path is None and not (args.bias or args.multiclass or kernel) else None)
    # One online pass streams the file, in constant memory; anything that reads the examples again keeps them.
    stream = args.epochs == 1 and not (w_star or args.svg or args.svg_steps or args.html or kernel or args.pocket
                                        or args.multiclass or args.average or args.voted)
    data = _read(args, path, keep=not stream, shown_as=shown_as) if path is not None else _Input(
        "the embedded example", ["x1", "x2"], ((None, list(x), y) for x, y in EXAMPLE), 2, not stream)
    shown = bool(not args.quiet or args.json or args.svg or args.svg_steps or args.html)
    every = bool(args.json or args.explain or args.trace or args.svg or args.svg_steps or args.html)  # all rows kept
    import collections
    progress, head, tail = _Progress(), [], collections.deque(maxlen=None if every else _TAIL)  # the rows shown
    after = args.weights if args.json else not ((args.quiet and not args.html) or kernel or args.multiclass)  # w after
    def on_mistake(mistake, model):  # a row with its mistake's number (a step a Ctrl-C took back: dropped below)
        if shown:
            w = after and (args.json or args.weights or data.d <= 8) and _explicit(model)
            (head if len(head) < _HEAD else tail).append((progress.count + 1, mistake, data.where(mistake.index), w))
        progress.mistake(mistake.epoch)
    examples = data if stream else data.examples()
    interrupted = False
    with progress:
        try:
            run = _fit(args, examples, kernel, trace=every and shown,
                       on_mistake=on_mistake if shown or progress.on else None)
            bound = _bound(examples, run, w_star, kernel) if w_star is not None else None
        except PerceptronError as err:
            raise data.located(err) from None
        except KeyboardInterrupt as stop:  # the report of the run so far, at its last whole step
            run = getattr(stop, "run", None)
            if run is None or isinstance(stop, _Terminated) or not so_far:
                raise
            bound, interrupted = None, True
    test = _test(args.test, args, run, data.d, data.names) if args.test and not interrupted else None
    errors, hint = _training_errors_and_hint(args, examples, kernel, run) if not interrupted else ({}, None)
    rows = [row[1:] for row in (*head, *tail) if row[0] <= run.mistakes]
    after = bool(rows) and rows[0][2] is not False  # (False: no w kept)
    report = _Report(args, data, run, rows, after, bound, errors, test, interrupted, hint)
    return report, {} if interrupted else _pictures(report, examples) | (
        {args.save: _json_text(_document(run, args.labels, data.names)) + "\n"} if args.save else {})


def _family_options(args) -> dict:
    return {field: getattr(args, field) for field in Conventions._fields[1:] if field != "bias" and
            getattr(args, field) is not None and getattr(args, field) is not False}


def _fit(args, examples, kernel, trace, on_mistake) -> Run:
    options = dict(bias=args.bias, epochs=args.epochs, max_epochs=args.max_epochs, pocket=args.pocket,
                   average=args.average, voted=args.voted, trace=trace, on_mistake=on_mistake, **_family_options(args))
    if args.multiclass:
        return train_multiclass(examples, update=args.multiclass,
                                rule=None if args.multiclass == "joint" else args.rule, **options)
    return train(examples, rule=args.rule, kernel=kernel, **options)


class _Progress:
    """A terminal's progress line (stderr) after a second: ``what`` of (at, count) every ``every`` steps, in a with."""
    def __init__(self, what="pass {0}, {1:,} mistakes so far", every=64):
        import time
        self.on, self.clock = sys.stderr is not None and sys.stderr.isatty(), time.monotonic
        self.next, self.count, self.shown, self.what, self.every = self.clock() + 1.0, 0, False, what, every

    def __enter__(self):
        return self

    def mistake(self, at):
        self.count += 1
        if self.on and self.count % self.every == 0 and self.clock() >= self.next:
            self.next, self.shown = self.clock() + 0.5, True
            print("\r" + self.what.format(at, self.count) + " ", end="", file=sys.stderr, flush=True)

    def __exit__(self, *exception):
        if self.shown:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)


def _bound(examples, run, w_star, kernel):
    """(R^2, gamma^2, R^2/gamma^2, w*) for the run's examples as it saw them (its bias's feature first, or -1)."""
    if kernel is not None and not getattr(kernel, "linear", False):
        raise PerceptronError("--w-star: the bound needs explicit weights, so no kernel but linear")
    examples = [(run._read(x), y) for x, y in examples]
    d = len(examples[0][0])
    if len(w_star) != d:
        raise PerceptronError(f"--w-star has {len(w_star)} numbers, the examples have {d} features"
                              + (" with the bias" if run.bias else ""))
    return (radius_squared(x for x, _ in examples), margin_squared(examples, w_star), mistake_bound(examples, w_star),
            w_star)


def _kept_predictors(run) -> list:
    return ["w"] + [name for name in ("pocket", "average", "voted") if getattr(run, name) is not None]


def _training_errors_and_hint(args, examples, kernel, run):
    """{predictor: training errors} of a finished run that kept its examples; and the hint --bias (Cornell §1)."""
    if not isinstance(examples, list) or run.w is None:  # run.w None: a kernel's, not written down
        return {}, None
    kept = _kept_predictors(run)
    errors = {} if run.converged and kept == ["w"] else {
        name: run.errors(examples, name) for name in kept if name != "voted"}
    if "voted" in kept:  # on a terminal 64 examples at a time, with a progress line
        with _Progress(f"the vote's training errors: {{0:,}} of {len(examples):,} examples", every=1) as progress:
            errors["voted"], size = 0, 64 if progress.on else max(len(examples), 1)
            for k in range(0, len(examples), size):
                errors["voted"] += run.errors(examples[k:k + size], "voted")
                progress.mistake(min(k + size, len(examples)))
    if args.epochs is not None or run.converged or args.bias or kernel:
        return errors, None
    variant = type(args)(**{**vars(args), "bias": True, "max_epochs": min(args.max_epochs, 100)})
    try:
        with _Progress("with --bias: pass {0}, {1:,} mistakes so far") as progress:
            again = _fit(variant, examples, kernel, trace=False, on_mistake=lambda m, _: progress.mistake(m.epoch))
    except PerceptronError:
        return errors, None
    return errors, (f"  with --bias these examples converge, in {_count_text(again.epochs, 'pass')}: separable, "
                    "but not by a hyperplane through the origin (Cornell §1)" if again.converged else None)


def _test(path, args, run, features=None, names=None) -> dict:
    """--test FILE2 (or --model's FILE, maybe unlabeled): --predictor's predictions; with labels, each one's errors."""
    data = _read(args, path, keep=False, features=features)
    other = names is not None and data.names is not None and data.names != names
    if other and sorted(data.names) == sorted(names):
        raise PerceptronError(f"{data.source}: its columns {_short(data.names)} are the model's features "
                              f"{_short(names)} in another order: put them in the model's order")
    note = other and (f"its columns {_short(data.names)} are not the model's features {_short(names)}: "
                      "applied by position")
    kept = _kept_predictors(run)
    if args.predictor not in kept:
        raise PerceptronError(f"--predictor {args.predictor}: the {'model' if args.model else 'run'} kept none: train "
                              f"with --{args.predictor}" + " after" * (args.predictor == "average"))
    errors, predictions, i = dict.fromkeys(kept, 0), [], 0
    with _Progress(f"{data.source}: {{1:,}} examples so far") as progress:
        try:
            for i, (x, y) in enumerate(data):
                for name in kept if y is not None else [args.predictor]:
                    guess = (str if run.multiclass else int)(run.predict(x, name))  # a loaded model's classes: text
                    errors[name] += guess != y
                    if name == args.predictor:
                        predictions.append(guess if run.multiclass else args.labels[guess == 1])
                progress.mistake(i)
        except PerceptronError as err:
            err = data.located(err if isinstance(err, _Located) else PerceptronError(err.reason, i))
            raise _Located(f"{err}; {note}") if note else err from None
    if note:  # said before the report, which the other names do not change
        _say(f"note: {data.source}: {note}")
    return {"file": data.source, "examples": data.count, "predictor": args.predictor,
            "errors": errors if data.labeled else None, "predictions": predictions}


# The report as text, for people.
_HEAD, _TAIL = 20, 5  # the mistakes a text report shows by default: the first and the last


def _text(report) -> str:
    args, data, run, labels = report.args, report.data, report.run, report.args.labels
    d, joint, one_vs_rest = data.d, run.multiclass == "joint", run.multiclass == "one-vs-rest"
    first = bool(run.bias and getattr(run.conventions, "bias_first", False))  # the bias the first weight, or the last
    def aligned(header, rows) -> list:  # a table, its columns right-aligned
        rows = [list(map(_printable, row)) for row in [header, *rows]]
        widths = [max(len(cell) for cell in column) for column in zip(*rows)]
        return ["  ".join(cell.rjust(n) for cell, n in zip(row, widths)).rstrip() for row in rows]
    def weights_lines(label, w) -> list:  # w or {class: w}, under the feature names where the file had a header
        by_class = w if isinstance(w, dict) else {None: w}
        if args.quiet and d > 8:
            return [f"{label}: {d} feature weights{' per class' if len(by_class) > 1 else ''}"
                    f"{', and a bias' if run.bias else ''} (shown without --quiet, or with --json)"]
        if data.names is None:
            return [f"{label} = {_num(w)}" if c is None else f"{label}({c}) = {_num(w)}" for c, w in by_class.items()]
        rows = [[label if c is None else f"{label}({c})"] + [_num(v) for v in w] for c, w in by_class.items()]
        return aligned(["", *["bias"] * first, *data.names, *["bias"] * (run.bias and not first)], rows)
    label_text = (lambda y: f"{y:+d}") if labels == (-1, 1) else str
    lines = []
    if not args.quiet:
        described = _described(run)
        conventions = [text for label, text in described if label == "convention"]
        names = f" ({', '.join(data.names)})" if data.names and d <= 8 else ""
        shown = "classes, in order of first appearance" if args.multiclass else "/".join(map(label_text, labels))
        passes = f"{args.epochs}" if args.epochs else f"until one makes no mistake, at most {args.max_epochs}"
        lines = [f"perceptron {__version__} on {data.source}: {data.count} examples, {d} features{names}",
                 *(f"{label + ':':7} {text}" for label, text in described if label != "convention"),
                 *(("conventions: " if k == 0 else " " * 13) + text for k, text in enumerate(conventions))]
        bias = f"yes (the {'first' if first else 'last'} weight)" if run.bias else "no"
        lines += [f"labels: {shown}   bias: {bias}   kernel: {run.kernel or 'none (primal)'}", f"passes: {passes}", ""]
        if args.explain:
            lines += _explained(run, [x for _, (_, x), _ in report.rows], report.bound, args.trace == "all", labels)
        elif not report.rows:
            lines.append("no mistakes")
        else:  # the trace table: a row a mistake, w after it for a primal binary run of 8 features (or --weights)
            cells = [{"class": str(m.cls) if one_vs_rest else None, "pass": str(m.epoch), "index": str(m.index),
                      "line": None if line is None else str(line), "x": _num(x) if d <= 8 else None,
                      "y": str(m.y) if joint else label_text(labels[m.y == 1]),  # one-vs-rest: -1/+1
                      "predicted" if joint else "score": str(m.predicted) if joint else _num(m.score),
                      "w after": _num(w) if report.after else None}  # {column: cell}, None where it is not shown
                     for m, (line, x), w in report.rows]
            header = [column for column, cell in cells[0].items() if cell is not None]
            rows = [[row[column] for column in header] for row in cells]
            hidden = len(rows) - _HEAD - _TAIL + run.mistakes - len(report.rows) if args.trace != "all" else 0
            table = aligned(header, rows[:_HEAD] + rows[-_TAIL:] if hidden > 0 else rows)
            if hidden > 0:
                table.insert(1 + _HEAD, f"... {hidden:,} more mistakes ('--trace all' shows them)")
            lines += table
        lines.append("")
    lines += weights_lines("w", run.w) if run.w is not None else [
        f"w: not written down in a {run.kernel} kernel run: it is sum_j y_j Phi(x_j) over the {run.mistakes} stored "
        "mistakes (Columbia §2.3)"]
    stopped = (f"interrupted (Ctrl-C) in pass {run.epochs}: the run so far, after {data.count} examples read"
               if report.interrupted else "converged" if run.converged else
               f"not converged: stopped at --max-epochs {args.max_epochs}" if args.epochs is None
               else "not converged in the passes asked for")
    lines += [f"mistakes: {run.mistakes}", f"passes: {run.epochs}, {stopped}"]
    pockets = run.pocket if isinstance(run.pocket, dict) else {None: run.pocket}
    for c, p in pockets.items() if run.pocket is not None else ():
        shown = "" if p.w is None or isinstance(p.w, dict) or args.quiet and data.d > 8 else f"w = {_num(p.w)}, "
        lines.append(f"pocket{'' if c is None else f' of {c}'}: {shown}{p.errors} training errors, "
                     f"the weights after {p.mistakes} mistakes")
        if isinstance(p.w, dict):
            lines.extend(weights_lines("pocket w", p.w))
    if run.average is not None:
        lines.extend(weights_lines(f"average ({args.average})", run.average))
        lines.append(f"averaged over {run.epochs * data.count} examples ({run.epochs} passes)" if args.average !=
                     "updates" else f"averaged over w after each of its {_count_text(run.mistakes, 'mistake')}"
                     + (", each class's over its own" if one_vs_rest else ""))
    if run.voted is not None:
        count = sum(map(len, run.voted.values())) if isinstance(run.voted, dict) else len(run.voted)
        lines.append(f"voted: {count} hypotheses v_k, each with the examples it stood for (--json lists them); "
                     "predict sign(sum_k c_k sign(v_k.x))" + (", class by class" if run.multiclass else ""))
    test = report.test
    if test is not None:
        said = ", no labels: predictions only (--json)" if test["errors"] is None else "; errors: " + ", ".join(
            f"{name} {count}" for name, count in test["errors"].items())
        lines.append(f"test: {test['file']}: {test['examples']} examples{said}")
    if report.errors:
        lines.append(f"training errors: {', '.join(f'{n} {k}' for n, k in report.errors.items())} (of {data.count})")
    if report.hint:
        lines.append(report.hint)
    if args.epochs is None and not run.converged and not report.interrupted:
        lines.append(f"  {'else' if report.hint else 'not separable, or not yet'}: --pocket keeps the weights with "
                     "the fewest training errors, --average after the mean of all; or allow more --max-epochs, or "
                     "scale the features")
    made = {"picture": args.svg, "model": args.save and f"{args.save} (apply it with --model)",
            "pictures": args.svg_steps and f"{run.mistakes + 1} in {args.svg_steps}, "
            + ("the start" if getattr(run.conventions, "start", None) is not None else "w = 0") + " and each mistake",
            "page": args.html}  # the files written: none by an interrupted run
    lines += [f"{name}: {text}" for name, text in made.items() if text and not report.interrupted]
    if report.bound is not None:
        r2, g2, bound, w_star = report.bound
        lines.append(f"bound: R^2 = {_num(r2)}, gamma^2 = {_num(g2)} for w* = {_num(w_star)}: "
                     f"{_count_text(run.mistakes, 'mistake')}, {'at most' if run.mistakes <= bound else 'MORE than'} "
                     f"R^2/gamma^2 = {_num(bound)}")
    return "\n".join(map(_printable, lines))


def _explained(run, xs, bound=None, every=False, labels=None) -> list:
    """--explain and Run.explain (which says what it writes), replayed from w = 0 (xs: the mistakes' x) by the run's
    own steps and read off what they computed, so that an edit of Part I, or a convention, shows."""
    def products(a, b, shown=10) -> str:  # a.b as its sum of products, (a_0)(b_0) + (a_1)(b_1) + ...
        terms = [f"({_num(a_i)})({_num(b_i)})" for a_i, b_i in islice(zip(a, b), shown)]
        return " + ".join(terms) + (f" + ... ({len(a) - shown:,} more)" if len(a) > shown else "")
    labels = labels or run.labels
    if not run.trace:
        return ["no mistakes"]
    model, joint, one_vs_rest = run.model, run.multiclass == "joint", run.multiclass == "one-vs-rest"
    p = run.conventions or Conventions(rule=run.rule if run.rule in RULES else "sign", bias=run.bias)
    if p.batch or p.decay and p.decay_at == "example":
        raise PerceptronError("--explain replays a run mistake by mistake, and the batch rule or a decay at each "
                              "example moves w between mistakes: explain a run without them")
    family = bool(_beyond(p))
    def binary(start=None):  # the run's own learner, from w = 0 (or its start)
        return _FamilyPerceptron(model.d, p._replace(start=start)) if family else \
            Perceptron(model.d, rule=run.rule, bias=run.bias)
    learners: dict[Any, Any] = (
        {c: binary(p.start.get(c) if isinstance(p.start, dict) else p.start) for c in model.classes} if one_vs_rest
        else {None: (_FamilyJoint(model.classes, model.d, p) if family else
                     MulticlassPerceptron(model.classes, model.d, update="joint", bias=run.bias)) if joint
              else (_FamilyDual(model.kernel, p, []) if family else
                    DualPerceptron(model.kernel, rule=run.rule, bias=run.bias)) if run.kernel is not None
              else binary(p.start)})
    def update(before, after, x, y, s, f=None) -> str:  # w <- c w + f x, f read off what the step computed
        f = f if f is not None else y if [b + y * v for b, v in zip(before, x)] == after else next(
            (_quotient(a - b, v) for a, b, v in zip(after, before, x) if v != 0), y)
        c, step, bias = 1 - p.decay if p.decay else 1, [f * v for v in x], ""
        if p.bias_rate is not None:  # the bias's feature moved by its own rate: _decided's factor at the rate R
            b = 0 if p.bias_first else -1
            step[b] = _decided(p._replace(rate=p.bias_rate, falling=False), y, s, x)[2] * x[b]
            bias = f", the bias by {_num(p.bias_rate)} {'(y - o)' if p.step == 'error' else 'y'} x_b"
        if [c * b + v if c != 1 else b + v for b, v in zip(before, step)] != after:
            return f"  w <- {_num(after)} (not w + f x for one f: Part I's update as it stands)"
        factor = "y" if f == y else f"{_num(_quotient(f, y))} y"
        decayed = f"({_num(c)}) " if c != 1 else ""
        step_text = _num(step) if bias else f"({_num(f)}){_num(x)}"
        return f"  w <- {decayed}w + {factor} x{bias} = {decayed}{_num(before)} + {step_text} = {_num(after)}"
    hidden = len(run.trace) - _HEAD - _TAIL if not every else 0
    lines = []
    if bound is not None:
        r2, g2, _, w_star = bound
        ww = dot(w_star, w_star)
        lines += [f"w* = {_num(w_star)}: ||w*||^2 = {_num(ww)}, gamma^2 = {_num(g2)}, R^2 = {_num(r2)}; after M "
                  "mistakes (the Perceptron Algorithm notes' proof):", "  (1) w.w* >= M gamma ||w*||  (Kalyanakrishnan"
                  " §3, strict; Columbia's Claim 1.2 is w.v >= delta M for ||v|| = 1)", "  (2) ||w||^2 <= M R^2  ("
                  "Kalyanakrishnan §3's (2); Columbia's Claim 1.3 is ||w||^2 <= M for ||x|| = 1)", ""]
    for k, (m, x) in enumerate(zip(run.trace, xs), 1):
        cls = getattr(m, "cls", None)
        learner, w = learners[cls], "w" if cls is None else f"w({cls})"
        x_read = learner._read(x)
        before: Any = getattr(learner, "w", None)  # the dual has no w
        shown = not _HEAD < k <= _HEAD + hidden
        if k == _HEAD + 1 and hidden > 0:
            lines += [f"... {hidden:,} more mistakes ('--trace all' shows them; in Python, every=True)", ""]
        terms = None
        if run.kernel is not None:  # the dual before its k-th mistake: the run's first k - 1 stored examples
            if not shown:
                continue
            learner.stored = model.stored[:k - 1]
            terms = [(y_j, learner.kernel(x_j, x_read)) for x_j, y_j in learner.stored]
        scores: Any = learner._scores(x_read) if joint and shown else None
        learner.epoch = m.epoch  # (a falling rate's pass)
        s, wrong = learner._step(x, m.y)
        if not wrong or s != (m.predicted if joint else m.score):
            raise PerceptronError(f"mistake {k}: example {m.index} is not the run's (the replay does not make "
                                  "this mistake): explain a run with its own examples")
        if not shown:
            continue
        y = m.y if joint else f"{m.y:+d}"
        at = learner._read([0] * len(x))  # the bias's feature where the run's own reading puts it (Part I's, or p's)
        bias = f" (the bias's {_num(at[0] or at[-1])} {'first' if at[0] else 'last'})" if run.bias else ""
        lines.append(f"mistake {k}: " + (f"class {cls}'s run, " if one_vs_rest else "") + f"pass {m.epoch}, "
                     f"index {m.index}, x = {_num(x_read)}{bias}"
                     + f", y = {y}" + (f" (not {cls})" if one_vs_rest and m.y < 0 else "")
                     + (f" (label {labels[m.y > 0]})" if labels not in (None, (-1, 1)) else ""))
        if joint:
            eta = _quotient(p.rate, m.epoch) if p.falling else p.rate  # the joint step's rate, as it ran
            step = x_read if eta == 1 and type(eta) is int else [eta * v for v in x_read]
            eta = "" if eta == 1 else f"({_num(eta)}) "
            lines += [f"  w({c}).x = {products(before[c], x_read)} = {_num(scores[c])}" for c in model.classes]
            tied = [c for c in model.classes if s is not None and scores[c] == scores[s]]  # the winner: as it ran
            tie = f" (a tie, to the class listed {'first' if tied[0] == s else 'last'})" if len(tied) > 1 else ""
            lines.append(f"  argmax_l w(l).x = {s}{tie} != y = {y}: a mistake (Kalyanakrishnan §4)" if s is not None
                         else "  every w(l) is 0: no class predicted (--abstain)")
            for c, op in [(y, "+"), (s, "-")][:1 + (s is not None)]:  # each sum checked against what the step made
                moved = [b + v if op == "+" else b - v for b, v in zip(before[c], step)] == learner.w[c]
                lines.append(f"  w({c}) <- " + (f"w({c}) {op} {eta}x = {_num(before[c])} {op} {eta}{_num(x_read)} = "
                             if moved else "") + _num(learner.w[c]) + (" (Collins 2002)" if op == "-" else "")
                             + ("" if moved else f" (not w({c}) {op} {eta}x: Part I's update as it stands)"))
        else:
            o = _decided(p, m.y, s)[1] if family else sign(s)  # the prediction, as the run's own sign made it
            notes = s != 0 or o == 1  # sign(0) as Columbia's
            rule = (f"  y ({w}.x) = ({y})({_num(s)}) = {_num(m.y * s)} <= {_num(p.threshold)}: a mistake "
                    f"({'Cornell §3' if not p.threshold else 'a threshold, --threshold'})"
                    if p.rule == "margin" or p.threshold else
                    f"  sign({_num(s)}) = {f'{o:+d}' if o else 0} != y = {y}: a mistake (" + ("Columbia §1.1" if notes
                    else "--zero" if family else "Part I's sign as it stands; Columbia §1.1 has sign(0) = +1") + ")")
            f = getattr(learner, "f", None)
            c_j = "f_j" if family else "y_j"  # what the dual stores with each x_j: the notes' y_j, or the update's f_j
            lines += ([f"  w.x = sum_j {c_j} K(x_j, x) = {products(*zip(*terms)) if terms else '0 (none stored)'}"
                       f"{f' = {_num(s)}' if terms else ''} (Columbia §2.3, eq. (2), K = {run.kernel})", rule,
                       f"  stored <- stored + [(x, {'y' if f in (None, m.y) else _num(f)})]: {learner.mistakes} "
                       f"stored, w = sum_j {c_j} Phi(x_j) (Columbia §2.3)"] if terms is not None
                      else [f"  {w}.x = {products(before, x_read)} = {_num(s)}", rule, update(
                          before, learner.w, x_read, m.y, s, f).replace("w", w, 1).replace(" w ", f" {w} ", 1)])
        w_now = _explicit(learner)
        if bound is not None and w_now is not None:
            a, n, least = dot(w_now, w_star), dot(w_now, w_now), k * k * g2 * ww
            lines += [f"  (1) at M = {k}: w.w* = {products(w_now, w_star)} = {_num(a)} >= 0 and (w.w*)^2 = "
                      f"{_num(a * a)} >= M^2 gamma^2 ||w*||^2 = ({k}^2)({_num(g2)})({_num(ww)}) = {_num(least)}: "
                      f"{'holds' if a >= 0 and a * a >= least else 'FAILS'}{', tight' if a * a == least else ''}",
                      f"  (2) at M = {k}: ||w||^2 = {products(w_now, w_now)} = {_num(n)} <= M R^2 = ({k})"
                      f"({_num(r2)}) = {_num(k * r2)}: {'holds' if n <= k * r2 else 'FAILS'}"
                      f"{', tight' if n == k * r2 else ''}"]
        lines.append("")
    if bound is not None and w_now is not None:  # w_now: the run's w after its last mistake
        M, chain = k, [least, a * a, n * ww, k * r2 * ww]
        lines += [f"the theorem, M = {M} (Perceptron Algorithm notes; Kalyanakrishnan §3, Theorem 3; Columbia §1.2, "
                  "Theorem 1.1, for ||w*|| = R = 1):", "  M gamma ||w*|| <= w.w* <= ||w|| ||w*|| <= sqrt(M) R ||w*||, "
                  "by (1), Cauchy-Schwarz and (2); squared, each side >= 0:",
                  f"  ({M}^2)({_num(g2)})({_num(ww)}) = {_num(chain[0])} <= ({_num(a)})^2 = {_num(chain[1])} <= "
                  f"({_num(n)})({_num(ww)}) = {_num(chain[2])} <= ({M})({_num(r2)})({_num(ww)}) = {_num(chain[3])}: "
                  f"{'holds' if a >= 0 and chain == sorted(chain) else 'FAILS'}", f"  so M <= R^2/gamma^2: {M} <= "
                  f"({_num(r2)})/({_num(g2)}) = {_num(bound[2])}: {'holds' if M <= bound[2] else 'FAILS'}"]
    return lines[:-1] if lines[-1] == "" else lines


def _count_text(n, noun) -> str:
    plural = noun[:-2] + "es" if noun.endswith("is") else noun + ("es" if noun.endswith("s") else "s")
    return f"{n} {noun if n == 1 else plural}"


def _num(v, ratio=False) -> str:
    """A number for people, reading back to the same value: 3, 1/3, 0.1, 2.50, a vector (3, 1/3); an int in full, past
    str()'s limit.  ``ratio``: a Fraction as JSON's text "p/q" (3/1 too), which the readers take back exactly."""
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(map(_num, v)) + ")"
    if isinstance(v, Fraction):
        return _num(v.numerator) + (f"/{_num(v.denominator)}" if v.denominator != 1 or ratio else "")
    try:
        return str(v)
    except ValueError:  # an int beyond sys.get_int_max_str_digits()
        return str(decimal.Decimal(v))


# The report as JSON, for programs: one document, the same bytes on every run.
def _json(report) -> str:
    args, data, run = report.args, report.data, report.run
    trace = []  # w after each mistake's update, with --weights (a kernel's: null)
    for m, (line, _), w in report.rows:
        entry = {"class": getattr(m, "cls", None), "epoch": m.epoch, "index": m.index, "line": line,
                 "y": m.y if run.multiclass else args.labels[m.y == 1],
                 "predicted": getattr(m, "predicted", None), "score": getattr(m, "score", None)}
        trace.append({key: value for key, value in entry.items() if value is not None} | (
            {"weights": w} if report.after else {}))
    r2, g2, bound, w_star = report.bound or (None,) * 4
    history = {"input": data.source, "examples": data.count, "mistakes": run.mistakes, "epochs": run.epochs,
               "converged": run.converged, "interrupted": True if report.interrupted else None, "trace": trace,
               "labels": "classes" if args.multiclass else None, "training_errors": report.errors or None,
               "average": None if run.average is None else {"convention": args.average, "weights": run.average,
                                                             "examples": run.epochs * data.count},
               "test": report.test and {key: v for key, v in report.test.items() if key != "file"},
               "bound": None if bound is None else {"w_star": w_star, "radius_squared": r2, "margin_squared": g2,
                                                    "bound": bound, "holds": run.mistakes <= bound}}
    history = {key: value for key, value in history.items() if value is not None}  # _document orders
    return _json_text(_document(run, args.labels, data.names, history))


def _json_text(doc) -> str:
    """doc as JSON with one field per line and one trace entry per line; its numbers by _num, ints in full."""
    def dump(value):
        if isinstance(value, dict):
            return "{" + ", ".join(f"{dump(str(k))}: {dump(v)}" for k, v in value.items()) + "}"
        if isinstance(value, (list, tuple)):
            return "[" + ", ".join(map(dump, value)) + "]"
        if isinstance(value, (Fraction, decimal.Decimal)):  # "p/q", or a Decimal's text
            value = _num(value, ratio=True)
        elif type(value) is int:
            return _num(value)
        if isinstance(value, float) and not isfinite(value):  # JSON has no number for it: never written
            raise PerceptronError(f"the JSON report cannot be written: {value!r} is not a JSON number")
        return json.dumps(value, ensure_ascii=False)
    import json
    fields = [f"  {dump(key)}: " + ("[\n" + ",\n".join(f"    {dump(entry)}" for entry in value) + "\n  ]"
                                    if key == "trace" and value else dump(value)) for key, value in doc.items()]
    return "{\n" + ",\n".join(fields) + "\n}"


def _emit(report, as_json=False, held=False):
    """Print the report whole (ASCII where the output cannot encode it) through the file descriptor: a buffered
    write a signal interrupts drops the rest.  Ctrl-C is held until it is whole, here or, ``held``, by the caller."""
    import contextlib
    import json
    out = sys.stdout
    if out is None:
        raise PerceptronError("cannot write the report: standard output is closed")
    try:
        report.encode(out.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        report = ("".join(c if c < "\x80" else json.dumps(c)[1:-1] for c in report) if as_json
                  else report.replace("§", "sec. ").encode("ascii", "backslashreplace").decode("ascii"))
    try:
        with contextlib.nullcontext() if held else _Held():
            try:
                fd = out.fileno()
            except (AttributeError, OSError, ValueError):  # a file in memory (a test's capture)
                out.write(report + "\n")
                out.flush()
            else:
                out.flush()
                view = memoryview((report + "\n").encode(out.encoding or "utf-8"))
                while view:  # the whole report, however few bytes each write takes
                    view = view[os.write(fd, view):]
    except (OSError, ValueError) as err:  # the reader left (| head); a full disk; a closed file
        with contextlib.suppress(OSError, ValueError, AttributeError):  # what stdout holds goes nowhere: no 2nd error
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        if isinstance(err, BrokenPipeError):
            raise
        raise PerceptronError(f"cannot write the report: {err.strerror if isinstance(err, OSError) else err}"
                              ) from None


# One document for a run and its model.  --json writes the run; --save and Run.save its model: the run without its
# history, with a kernel run's stored examples.  load, --model and --check read either through _model_of, every field
# checked.  (--json keeps its bytes: a multiclass run's labels are "classes", no "format", no stored examples.)
_MODEL_FORMAT = "perceptron-model/2"
_RUN_ORDER = ("perceptron", "format", "input", "rule", "bias", "conventions", "multiclass", "labels", "kernel",
              "examples", "features", "weights", "mistakes", "epochs", "converged", "interrupted", "trace", "pocket",
              "average", "voted", "stored", "training_errors", "test", "bound")


def _document(run, labels=None, features=None, history=None) -> dict:
    """The one writer: the run's model (labels: the file's names of -1 and +1), or with ``history`` the whole run."""
    labels = list(run.model.classes if run.multiclass else labels or run.labels)
    def by_class(kept, each):  # a pocket or the votes (each w, or a kernel's mistakes), or {class: them}; None: none
        return None if kept is None else {c: each(v) for c, v in kept.items()} if isinstance(kept, dict) else each(kept)
    doc = {"perceptron": __version__, "format": _MODEL_FORMAT, "rule": run.rule, "bias": run.bias, "kernel": run.kernel,
           "multiclass": run.multiclass, "labels": labels, "features": features, "weights": run.w,
           "conventions": _beyond(run.conventions) or None,
           "pocket": by_class(run.pocket, lambda p: {"weights": p.w, "errors": p.errors, "mistakes": p.mistakes}),
           "average": None if run.average is None else {"weights": run.average},
           "voted": by_class(run.voted, lambda votes: [{"mistakes" if isinstance(v, int) else "weights": v, "count": c}
                                                        for v, c in votes])}
    if history is not None:
        doc = {**doc, **history, "format": None}  # (--json: no format)
    elif len(set(map(str, labels))) < len(labels) or not all(type(v) in (str, int, bool, float) for v in labels):
        raise PerceptronError(f"labels {_short(labels)} cannot be saved: a model's labels are str, int, bool "
                              "or float, each with its own text")
    elif run.kernel is not None:
        K = run.model.kernel
        try:  # a kernel that load() finds again by its name
            named = K is dot or str(getattr(K, "__module__", "")).endswith("kernels") and _kernel_of(None, run.kernel)
        except PerceptronError:
            named = None
        if not named:
            raise PerceptronError(f"a run with the kernel {_short(run.kernel)} cannot be saved: a model names its "
                                  "kernel, dot or one of kernels.py's")
        doc["stored"] = [[*x, y] for x, y in run.model.stored]
    return {key: doc[key] for key in _RUN_ORDER if key in doc and (
        doc[key] is not None or key not in ("format", "conventions", "pocket", "average", "voted"))}


def _model_of(path, doc, read=None):
    """The one reader: (the Run of doc, a model or a run's JSON; its features' names); with read, THEIRS's fields."""
    read = read or _Fields(path, doc, frozenset(_RUN_ORDER), "a model (--save) or a run (--json)")
    if doc.get("format", _MODEL_FORMAT) != _MODEL_FORMAT:
        raise read.wrong("format", f"{_short(doc['format'])}: this version reads {_MODEL_FORMAT}; save the model again")
    if read.form:  # THEIRS: this run's classes and kernel, its update as declared; its vectors' length, as given
        _, update, labels, name = read.form
        update = doc.get("multiclass") or update
        kernel, stored, explicit = name, None, name is None or name.startswith("linear")
    else:
        read.need("perceptron")
        bias = read.need("bias")
        update = read.choice("multiclass", doc.get("multiclass"), (None, "one-vs-rest", "joint"))
        rule = read.choice("rule", doc.get("rule"), ("argmax",) if update == "joint" else ("sign", "margin"))
        name, kernel, stored = doc.get("kernel"), None, doc.get("stored")
        if name is not None:
            try:
                kernel = None if update or not isinstance(name, str) else _kernel_of(None, name)
            except PerceptronError as err:
                raise read.wrong("kernel", f"{_short(name)}: {err.reason}") from None
            if kernel is None:
                raise read.wrong("kernel", f"{_short(name)} is not a kernel of this module or kernels.py"
                                 + (": a multiclass model has none: null" if update else ""))
        explicit = kernel is None or kernel is dot or getattr(kernel, "linear", False) is True
        kernel = None if explicit and stored is None else kernel  # a linear kernel run's --json: its w, the primal's
        if (kernel is None) != (stored is None) or not isinstance(stored, (list, type(None))):
            raise read.wrong("stored", "a model that is not a kernel model has none: null" if kernel is None else
                             "missing, or not a list of [x..., y]: a kernel model holds its stored examples (a "
                             "kernel run's --json does not: save its model with --save or Run.save)")
        values, kinds = [(key, doc.get(key)) for key in ("weights", "pocket", "average", "voted", "stored")], {}
        while values:  # numbers of one kind: floats, or exact (ints, "p/q", decimals: Fractions beside a ratio)
            key, v = values.pop()
            values.extend((key, u) for u in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()))
            kinds.setdefault("float" if type(v) is float else isinstance(v, str) and _form(v), (key, v))
        exact = [kinds[form] for form in ("ratio", "decimal", "int") if form in kinds]
        if "float" in kinds and exact:
            raise read.wrong(exact[0][0], f"{_short(exact[0][1])} beside the float {kinds['float'][1]!r}: a model's "
                                          "numbers are of one kind, floats or exact (ints, \"p/q\", decimal text)")
        read.fractions = "ratio" in kinds
        labels, first = read.need("labels"), read.need("weights")
        if update and labels == "classes" and isinstance(first, dict):
            labels = list(first)  # a run's --json names its classes by its weights' keys
        distinct = isinstance(labels, list) and len(set(map(str, labels))) == len(labels) >= 2
        if not (distinct and (update or len(labels) == 2 and labels[0] != labels[1])
                and all(type(v) in (str, int, bool, float) for v in labels)):
            raise read.wrong("labels", f"{_short(labels)} is not " + ("two or more distinct classes" if update else
                                                                      "two distinct labels, negative first"))
        row, names = stored[0] if stored else None, doc.get("features")
        if not explicit:  # the length of x (the bias's 1 included): a stored example's, or the features'
            read.n = len(row) - 1 if isinstance(row, list) else len(names) + bias if isinstance(names, list) else None
        given, read.classes = doc.get("conventions") or {}, labels if update else None
        if not isinstance(given, dict):
            raise read.wrong("conventions", f"{_short(given)} is not an object of the family's fields, or null")
        given = {field: read.number(f"conventions.{field}", v) if field in ("rate", "threshold", "bias_rate", "decay")
                 else read.weights(f"conventions.{field}", v, isinstance(v, list)) if field == "start" else v
                 for field, v in given.items()}  # a multiclass run's start: a vector, or {class: vector}
        try:
            point = _point("joint" if update == "joint" else "kernel" if kernel is not None else None, bias=bias,
                           rule="sign" if update == "joint" else rule, **given)
        except PerceptronError as err:
            raise read.wrong("conventions", err.reason) from None
    read.classes, read.implicit = labels if update else None, None if explicit else name
    def entry(field, value, parts, optional=(), one_class=False):  # the parts' values, of an object of them
        names = parts
        if read.form and "count" not in parts:  # THEIRS's pocket or average may be its weights alone
            value = value if isinstance(value, dict) and "weights" in value else {"weights": value}
            parts, optional = ("weights",), parts + optional
        if not (isinstance(value, dict) and set(parts) <= set(value) <= set(parts) | set(optional)):
            raise read.wrong(field, f"{_short(value)} is not an object of {', '.join(parts)}")
        got = {"errors": 0, "mistakes": 0}
        for key, v in value.items():
            if key not in ("weights", "convention") and (type(v) is not int or v < 0):  # errors, mistakes, count, ...
                raise read.wrong(f"{field}.{key}", f"{_short(v)} is not a whole number >= 0")
            got[key] = (read.weights(f"{field}.{key}", v, one_class) if key == "weights" else
                        read.choice(f"{field}.{key}", v, ("after", "before", "updates")) if key == "convention" else v)
        if stored is not None and got["mistakes"] > len(stored):
            raise read.wrong(f"{field}.mistakes", f"{got['mistakes']}: the model stored {len(stored)} examples")
        return [got[key] for key in names]
    def kept(field, value, one_class=False):  # a Pocket, or the votes [(w, or a kernel's mistakes, count), ...]
        if field.startswith("pocket"):
            return Pocket(*entry(field, value, ("weights", "errors", "mistakes"), one_class=one_class))
        if not isinstance(value, list) or not value:
            raise read.wrong(field, f"{_short(value)} is not a list of one or more votes")
        if kernel is None and name is not None and isinstance(value[0], dict) and "mistakes" in value[0]:
            raise read.wrong(field, "a kernel run's votes count its stored examples, which its --json does not hold: "
                             "save its model with --save or Run.save")
        parts = ("weights" if kernel is None else "mistakes", "count")
        return [tuple(entry(f"{field}[{k}]", v, parts, one_class=one_class)) for k, v in enumerate(value)]
    w, n, rows = read.weights("weights", doc["weights"]), read.n, []
    for k, row in enumerate(stored or ()):  # (x, y); at a point of the family, (x, f): the factor its update stored
        if not (isinstance(row, list) and len(row) == n + 1 > 1 and (
                _beyond(point) or type(row[-1]) is int and row[-1] in (-1, 1))):
            raise read.wrong(f"stored[{k}]", f"{_short(row)} is not [x..., y]: {n} numbers, then -1 or +1")
        rows.append((read.vector(f"stored[{k}]", row[:-1]), read.number(f"stored[{k}][{n}]", row[-1])))
    pocket, voted = [None if doc.get(key) is None else read.by_class(key, doc[key], kept)
                     if update == "one-vs-rest" else kept(key, doc[key]) for key in ("pocket", "voted")]
    average = None if doc.get("average") is None else entry("average", doc["average"], ("weights",),
                                                            ("convention", "examples"))[0]
    run = Run(w=w, model=None, mistakes=None, epochs=None, converged=None, trace=None, pocket=pocket, rule=None,
              bias=None, kernel=name, average=average, voted=voted, multiclass=update, labels=None)
    if read.form:
        return run, None
    d = None if n is None else n - bias
    if not (names is None or isinstance(names, list) and len(names) == d and all(type(v) is str for v in names)):
        raise read.wrong("features", f"{_short(names)} is not {d} column names, or null")
    family = bool(_beyond(point))
    try:
        if update:
            model = _FamilyJoint(labels, d, point) if family and update == "joint" else MulticlassPerceptron(
                labels, d, update=update, rule=None if update == "joint" else rule, bias=bias)
            model._w = dict(w)  # the joint update's vectors; one-vs-rest's are its binary runs'
            for c in model.binary or {}:
                model.binary[c] = _FamilyPerceptron(d, point._replace(start=None)) if family else model.binary[c]
                model.binary[c].w = w[c]
        elif kernel is not None:
            model = _FamilyDual(kernel, point, []) if family else DualPerceptron(kernel, rule=rule, bias=bias)
            model.stored, model.d = rows, d
        else:
            model = _FamilyPerceptron(d, point) if family else Perceptron(d, rule=rule, bias=bias)
            model.w = w
    except PerceptronError as err:
        raise read.wrong("labels" if update else "weights", err.reason) from None
    return run._replace(w=model.w if update else w, model=model, mistakes=model.mistakes, epochs=0, rule=rule,
                        bias=bias, labels=None if update else tuple(labels), conventions=point), names


def _model_mode(args) -> int:
    """--model MODEL.json on FILE: its predictions, one a line; its errors if labeled."""
    run, names = _model_of(args.model, _json_file(args.model, "a model (--save) or a run (--json)"))
    args.multiclass, args.labels = run.multiclass, run.labels or args.labels  # as the model reads them
    test = _test(args.file, args, run._replace(labels=(-1, 1)), run.model.d, names)
    _emit(_json_text({"perceptron": __version__, "model": args.model, "test": {
        k: v for k, v in test.items() if k != "file"}}) if args.json else "\n".join(
        map(str, test["predictions"])), args.json)
    if test["errors"] is not None and not args.json:  # the predictions alone on standard output, for a pipe
        _say(f"{test['file']}: {test['examples']} examples; errors: " + ", ".join(
            f"{name} {count}" for name, count in test["errors"].items()))
    return 0


class _Fields:
    """A run's JSON read back, field by field; its vectors have one length, n, that the first read fixes."""

    def __init__(self, path, doc, known, what, form=None):
        if not isinstance(doc, dict):
            raise PerceptronError(f"{path}: not {what}: a JSON object is expected")
        self.path, self.doc, self.form, self.fractions, self.floats = path, doc, form, form is not None, []
        self.n = self.classes = self.implicit = None  # _model_of sets the classes and the implicit w's kernel
        self.known(doc, known, what)
        for key, kind in {"perceptron": str, "bias": bool, "epochs": int, "converged": bool, "mistakes": int}.items():
            if key in doc and type(doc[key]) is not kind:  # where given, in a model or THEIRS
                name = "a string" if kind is str else "true or false" if kind is bool else "an int"
                raise self.wrong(key, f"{_short(doc[key])} is not {name}")

    def known(self, doc, known, what, where=""):
        unknown = sorted(set(doc) - known)
        if unknown:
            near = _nearest_name(unknown[0], known)
            raise self.wrong(where + _short(unknown[0]), f"not a field of {what}" + (f" (did you mean {near!r}?)"
                             if near else "") + f"; the fields are {', '.join(sorted(known))}")

    def wrong(self, field, what):
        return PerceptronError(f"{self.path}: {field}: {what}")

    def need(self, field):
        if field not in self.doc:
            raise self.wrong(field, "missing")
        return self.doc[field]

    def choice(self, field, value, choices):
        if value not in choices or type(value) not in (str, type(None)):
            raise self.wrong(field, f"{_short(value)} is not one of "
                             + ", ".join("null" if c is None else repr(c) for c in choices))
        return value

    def weights(self, field, value, one_class=False):
        if value is None and (self.implicit or self.form and not one_class):
            return None
        if self.implicit:
            raise self.wrong(field, f"{_short(value)}: a {self.implicit} kernel run has no explicit weights: "
                             + ("give null and the trace" if self.form else "null"))
        if self.classes is not None and not one_class:
            return self.by_class(field, value, self.weights)
        return self.vector(field, value)

    def by_class(self, field, value, each):
        keys = [str(c) for c in self.classes]
        if not isinstance(value, dict) or sorted(value) != sorted(keys):
            raise self.wrong(field, f"{_short(value)} is not an object of the classes {_short(keys)}")
        return {c: each(f"{field}.{k}", value[k], True) for c, k in zip(self.classes, keys)}

    def vector(self, field, value) -> list:
        n, d = self.n, self.form and self.form[0]
        if not (isinstance(value, list) and value and len(value) == (n or len(value))
                and (not d or len(value) in (d, d + 1))):
            if not d:
                raise self.wrong(field, f"{_short(value)} is not a list of {n or 'one or more'} numbers")
            shown = f"{len(value)} numbers" if isinstance(value, list) else _short(value)
            other = f", and its other vectors have {n}" if isinstance(value, list) and len(value) in (d, d + 1) else ""
            raise self.wrong(field, f"{shown}: the data has {d} features, so {d} weights ({d + 1} with a bias){other}")
        self.n = len(value)
        if set(map(type, value)) == {float} and all(map(isfinite, value)):  # the common case, read at once
            self.floats.extend(value)
            return value
        return [self.number(f"{field}[{i}]", v) for i, v in enumerate(value)]

    def number(self, field, v):
        """A number as --json writes it: a JSON number, "p/q" (a Fraction), decimal text (a Decimal, or a Fraction)."""
        if type(v) is float and isfinite(v):
            self.floats.append(v)
            return v
        if type(v) is int:
            return v
        if isinstance(v, str) and len(v) <= 4 * _DIGITS + 2:
            form = _form(v)
            if form == "ratio":
                numerator, denominator = v.strip().split("/")
                if len(numerator) + len(denominator) <= 2 * _DIGITS + 1 and _int_of(denominator) != 0:
                    return Fraction(_int_of(numerator), _int_of(denominator))
            elif form == "decimal" and int(v.lower().partition("e")[2].lstrip("+-").lstrip("0")[:6] or 0) > 2 * _DIGITS:
                raise self.wrong(field, f"{_short(v)}: an exponent beyond {2 * _DIGITS} is not read")  # 10**e: slow
            elif form in ("int", "decimal"):  # exact, past the int <-> str limit
                return Fraction(decimal.Decimal(v)) if self.fractions else decimal.Decimal(v)
        raise self.wrong(field, f"{v!r} is not a finite number" if type(v) is float else
                         f"{_short(v)} is not a number (a JSON number, \"p/q\", or a decimal's text)")


def _nearest_name(name, known):
    import difflib
    return next(iter(difflib.get_close_matches(str(name), sorted(known), n=1, cutoff=0.6)), None)


def _json_file(path, what):
    import json
    def integer(text):  # an int, read past the int <-> str limit; NaN or Infinity (parse_constant): not JSON's
        if not text.lstrip("-").isdigit():
            raise ValueError(f"{text} is not a number JSON has")
        if len(text.lstrip("-")) > 2 * _DIGITS:
            raise ValueError(f"an int of {len(text.lstrip('-'))} digits: at most {2 * _DIGITS} are read")
        return _int_of(text)
    def unique_keys(pairs):  # {"weights": [...], "weights": [...]}: which one was meant cannot be known
        doc = {}
        for key, value in pairs:
            if key in doc:
                raise ValueError(f"the key {_short(key)} appears twice in one object")
            doc[key] = value
        return doc
    f = _opened(path, path)
    try:
        raw = f.read(_JSON_LIMIT + 1)
    except OSError as err:
        raise PerceptronError(f"{path}: cannot read: {err.strerror or err}") from None
    finally:
        if path != "-":
            f.close()
    if len(raw) > _JSON_LIMIT:
        raise PerceptronError(f"{path}: not {what}: larger than {_JSON_LIMIT >> 20} MiB")
    try:
        return json.loads(raw.decode("utf-8"), parse_int=integer, parse_constant=integer, object_pairs_hook=unique_keys)
    except (ValueError, RecursionError) as err:  # not UTF-8, not JSON; NaN or Infinity; too many digits; too deep
        reason = (f"not UTF-8 ({err.reason} at byte {err.start + 1})" if isinstance(err, UnicodeDecodeError) else
                  "its lists or objects are nested too deeply" if isinstance(err, RecursionError) else _reason(err))
        raise PerceptronError(f"{path}: not {what}: {reason}") from None


# --check THEIRS.json: another implementation's run against this one; where they part, and why.  THEIRS is read
# strictly and by value (_Fields.number), and our run replayed (_replay) within its rounding (_Rounding); the diagnoses,
# in the order tried: a bug (_law), the fewest conventions (_conventions), a tie that rounding breaks, a bug of a shape
# it knows (_bug), a law outside the notes, else the notes' rule (_unexplained).
_THEIRS_FIELDS = frozenset(_RUN_ORDER) | {"precision", "start", "rate", "order", "extra"}  # "extra": theirs, unread
_TRACE_FIELDS = frozenset(("class", "epoch", "index", "line", "y", "score", "predicted", "weights"))
_TRACE_LIMIT = 500_000  # the most mistakes of THEIRS read: about 30 s; a longer trace is refused at once
_PRECISIONS = {"binary64": 53, "binary32": 24, "binary16": 11, "bfloat16": 8}  # significand bits: u = 2^-p
_Step = namedtuple("_Step", "cls epoch index y score weights score_bound weight_bound")
_Step.__doc__ = """One mistake, exact (None: not given); a joint update's score is the class predicted; bounds: ours."""
_Theirs = namedtuple("_Theirs", "weights trace epochs converged average pocket voted precision start rate order "
                                "floats mistakes", defaults=(None,))
_Side = namedtuple("_Side", "steps weights epochs converged average voted watched final_bound")
_Side.__doc__ = """A run as the check compares it; watched: our score at each visit where only THEIRS made a mistake."""
# A run as data: its point of the family (the options', with what THEIRS declares), its shape, a fault (_Faulty).
_Settings = namedtuple("_Settings", "point multiclass kernel classes passes exactly average voted fault")
_Difference = namedtuple("_Difference", "what k ours theirs")  # where a comparison finds the two apart
# How THEIRS may write the numbers of the notes' run: read as written, named, never a difference of the run.
_WRITTEN = {"epochs from 0": "their epochs count from 0; here from 1 (`for epoch in range(K)`)",
            "indexes from 1": "their indexes count from 1; here from 0 (1-based languages)"}
_SEARCHED = 96  # the most sets of conventions tried: each a run, stopped where it parts from THEIRS
_SEARCH_VISITS = 200_000  # and the most visits those runs make in all (a run with no trace to stop it is whole)
_FAULTS: dict = {"skip": (0, "skipped the update"), "twice": (2, "made the update twice"),  # (the factor c of
                  "prediction": (-1, "updated by the prediction sign(w.x), not by the label")}  # f x, what it did)
_SHAPES = ("its rule never fires", "its integers wrap", "at one step", "every score is stale", "by the prediction",
           "never visited", "the x of the example visited before")  # the bugs of a whole run, in _bug's words


def _check_mode(args) -> int:
    """0 if THEIRS agrees with this run, 1 with where they part and why, 2 for bad input."""
    status, lines, _ = _verdict(args)
    _emit("\n".join(lines))
    return status


def _verdict(args, diagnose=True, prefer=None) -> tuple:
    """One check as data: (its exit status, its report's lines, the options under which THEIRS agrees or None); not
    ``diagnose``: a difference is (1, [], None) at once; ``prefer``: a bug shape tried first (_bug's)."""
    try:
        data, found_first = _read(args, args.file), []
        examples = data.examples()
    except _Located as err:  # 0/1 labels read without --labels are read as 0/1 (Kalyanakrishnan's): a convention
        if "labels" in args.given or args.multiclass or "label '0' is not -1 or 1" not in str(err):
            raise
        args.labels, found_first = (0, 1), ["labels 0/1"]
        data = _read(args, args.file)
        examples = data.examples()
    kernel = _kernel_of(args.kernel) if args.kernel else None
    classes = list(dict.fromkeys(y for _, y in examples)) if args.multiclass else None
    theirs = _read_theirs(args, data, classes, examples)
    base = _settings(args, kernel, classes)
    kind = f"multiclass {args.multiclass}" if args.multiclass else f"kernel {args.kernel}" if args.kernel else "primal"
    passes = _count_text(args.epochs, "pass") if args.epochs else f"until a clean pass, at most {args.max_epochs}"
    rule, p = "" if args.multiclass == "joint" else f"rule {args.rule}, ", base.point
    bias = f"bias {'first' if p.bias_first else 'last'}" + f" on {p.bias_feature}" * (p.bias_feature != 1)
    head = (f"check: {args.check} against this run of {data.source} ({kind}, {rule}"
            f"{bias if p.bias else 'no bias'}, {passes})")
    agrees = f"check: {args.check} agrees with this run of {data.source}"
    def differ(diagnosis, reading=None):  # exit 1: the head, the verdict (the diagnosis's first words), then why, where
        verdict = diagnosis[0][len("diagnosis: "):].split(".  ")[0].split(": ")[0]
        return 1, [f"{head}: {verdict}", *diagnosis, *where], reading
    declared = [name for name in _evidence(theirs, 0) if name in ("a start", "a rate", "an order")]
    found_first += declared
    def replayed(**rounding):  # the run again, step by step, within a rounding of THEIRS's: asked before any law
        model = _Rounding(args, theirs, examples, **rounding)
        side = _replay(examples, base, model, theirs)
        return (model, side, *_compare(side, theirs, base, model))
    try:
        model, ours, difference, agreement = replayed()
    except PerceptronError as err:  # THEIRS's start or rate makes the run overflow
        raise PerceptronError(f"{args.check}: the run THEIRS describes cannot be replayed: {err}") from None
    if difference is not None and model.guessed and all(_held_in(v, "binary32") for v in theirs.floats):
        narrower = replayed(precision="binary32")  # its whole floats tell no format: the commonest narrower one
        if narrower[2] is None:
            model, ours, difference, agreement = narrower
    where = [] if difference is None else _where(difference, ours, examples, data, base.point.start)
    preferred = prefer and difference is not None and _bug(examples, base, theirs, model, difference, ours, prefer)
    if preferred and prefer in preferred[0]:  # the shape other cases show, before any reading of this one's own
        return differ(preferred)
    if difference is not None and not diagnose:
        return 1, [], None
    if difference is None and not found_first:
        return 0, [f"{agrees}: {agreement}"], args
    if difference is not None and args.bitwise and replayed(off=False)[2] is None:  # within their precision's rounding
        return differ([f"diagnosis: not bit for bit (--bitwise), but alike up to {model.name} rounding (another order "
                       "or precision).  Bit for bit: sum in binary64 from 0: s = 0; for a, b in zip(w, x): s += a * b"])
    tie = None if difference is None else _rounding(difference, ours, model, examples, base.point)
    # the rules differ only at 0: an update on THEIRS's score not 0 where ours is within rounding of 0 is no rule's
    rounded_tie = tie and difference.theirs is not None and difference.theirs.score not in (None, 0) and \
        _parting(difference) == (difference.theirs.cls, difference.theirs.epoch, difference.theirs.index)
    law = None if difference is None or rounded_tie else _law(examples, args, theirs, model)
    names, named, variant = (None if rounded_tie or law and law[0] == "bug" else
                             _conventions(args, data, examples, classes, kernel, theirs, found_first)) or (None,) * 3
    whole = difference is None or not theirs.order or all(len(set(one)) == len(examples) for one in theirs.order)
    if names is not None and whole and set(names) <= set(declared) | set(_WRITTEN):
        said = [f"its {text.split(';')[0][len('their '):]} (read as written)" for name, text in _WRITTEN.items()
                if name in names]
        declares = ", ".join([_declared(theirs, sorted(declared))] * bool(declared) + said)
        return 0, [f"{agrees} under what it declares ({declares}), confirmed at every step:",
                   *(line for line in named[1:-1] if "way of writing" not in line)], variant
    if named is None and difference is None:  # its numbers are the notes' run's, not those it declares
        named = [f"diagnosis: its declaration does not describe its run: its numbers are this run's, but it declares "
                 f"{', '.join(found_first)} ({_declared(theirs, found_first)}), under which no run gives them"]
    if named and (whole or not {"an order"} & set(names or ())):  # (names None: a tie)
        return differ(named, names and variant)
    bug = law and law[0] == "bug" and law[1] or tie or _bug(examples, base, theirs, model, difference, ours, prefer)
    if law and not bug:
        return differ(law[1], law[2])
    return differ(bug or _unexplained(difference, ours, examples, base, theirs.trace is not None))


def _read_theirs(args, data, classes, examples) -> _Theirs:
    """THEIRS.json: what a run shares with a model by _model_of, in this run's form, then THEIRS's own fields."""
    path, n, what = args.check, len(data.kept), "the JSON of a run"
    read = _Fields(path, _json_file(path, what), _THEIRS_FIELDS, what, (data.d, args.multiclass, classes, args.kernel))
    doc, trace = read.doc, read.doc.get("trace")
    if "weights" not in doc:
        raise read.wrong("weights", "missing: give the final weights (a list, {class: list} or a kernel's null)")
    if doc["weights"] is None and not any(doc.get(key) is not None for key in ("trace", "average")):
        raise read.wrong("weights", "null, and nothing else to compare: give the weights, the trace or the average")
    for key, option, ours in (("kernel", "--kernel", args.kernel), ("multiclass", "--multiclass", args.multiclass)):
        if doc.get(key) is not None and not isinstance(doc[key], str):
            raise read.wrong(key, f"{_short(doc[key])} is not a {option} value, or null")
        if key in doc and (doc[key] is None) != (ours is None):  # which kernel, which update: conventions
            raise read.wrong(key, f"THEIRS is a {key} {doc[key]} run: check with {option} {doc[key]}" if doc[key]
                             else f"THEIRS is a run without {option}: check without it")
    run = _model_of(path, doc, read=read)[0]
    if trace is None and args.kernel:
        raise read.wrong("trace", "missing: a kernel run is compared by its mistakes: give each one's epoch and index")
    if trace is not None and not (isinstance(trace, list) and len(trace) <= _TRACE_LIMIT):  # read in seconds
        raise read.wrong("trace", f"{len(trace):,} mistakes: more than the {_TRACE_LIMIT:,} a check reads; check a "
                         "shorter run (fewer --epochs)" if isinstance(trace, list) else "a list of mistakes")
    if isinstance(trace, list) and doc.get("mistakes") not in (None, len(trace)):
        raise read.wrong("mistakes", f"{doc['mistakes']}, but the trace lists {len(trace)}")
    precision = read.choice("precision", doc.get("precision"), (None, *_PRECISIONS))
    order = doc.get("order")  # one list, or one a pass
    order = order if order is None or isinstance(order, list) and order and isinstance(order[0], list) else [order]
    if not all(isinstance(p, list) and p and all(type(i) is int and 0 <= i < n for i in p) for p in order or ()):
        raise read.wrong("order", f"one list of the indexes 0..{n - 1} (ints) as visited, or one per pass")
    rate = None if doc.get("rate") is None else read.number("rate", doc["rate"])
    if rate is not None and rate <= 0:
        raise read.wrong("rate", f"{_short(doc['rate'])} is not a number > 0")
    steps, named = [], {str(c): c for c in classes or ()}  # a class by its text: THEIRS's int 0 is the file's "0"
    for k, entry in enumerate(trace or ()):
        where = f"trace[{k}]"
        if not isinstance(entry, dict):
            raise read.wrong(where, "each mistake is an object of 'epoch' (from 1) and 'index' (from 0)")
        read.known(entry, _TRACE_FIELDS, "a mistake", f"{where}.")
        for key in ("epoch", "index"):
            if type(entry.get(key)) is not int:
                raise read.wrong(f"{where}.{key}", f"{_short(entry.get(key))}: each mistake needs an int 'epoch' "
                                 "(from 1) and 'index' (the example's, from 0)")
        cls, predicted = (None if entry.get(key) is None else named.get(str(entry[key]), entry[key])
                          for key in ("class", "predicted"))
        i = entry["index"]
        if not (entry["epoch"] >= 0 and 0 <= i <= n):  # an index of n: counted from 1, perhaps
            raise read.wrong(where, f"epoch {entry['epoch']}, index {i}: out of range for {n} examples, indexed from 0")
        if classes is None and "class" in entry:
            raise read.wrong(f"{where}.class", "a binary run's mistakes name no class")
        if cls is not None and cls not in classes:
            raise read.wrong(f"{where}.class", f"{_short(cls)} is not one of the classes {sorted(classes)}")
        if predicted is not None and (classes is None or predicted not in classes):
            raise read.wrong(f"{where}.predicted", f"{_short(predicted)} is not one of the classes")
        if i < n:  # its line and y, where given, are those of the example its index names
            line, y = data.where(i)[0], examples[i][1]
            written = y if args.multiclass else args.labels[y == 1]  # its label as the file writes it
            if "line" in entry and entry["line"] != line:
                raise read.wrong(f"{where}.line", f"{_short(entry['line'])}: example {i} is on line {line}")
            if args.multiclass == "one-vs-rest" and cls is not None:  # y of the class's binary run
                y = 1 if y == cls else -1
            if "y" in entry and not (type(entry["y"]) is not bool and entry["y"] in (y, written)
                                     or str(entry["y"]) == str(written)):
                raise read.wrong(f"{where}.y", f"{_short(entry['y'])} is not the label of example {i} ({written})")
        score = predicted if args.multiclass == "joint" else (None if entry.get("score") is None
                                                              else read.number(f"{where}.score", entry["score"]))
        after = read.weights(f"{where}.weights", entry.get("weights"), isinstance(entry.get("weights"), list))
        steps.append(_Step(cls, entry["epoch"], i, None, score, after, None, None))  # (after: None where not given)
    indexes = [s.index for s in steps]
    if n in indexes and 0 in indexes:  # counted from 1 it would have no 0; from 0, no n
        raise read.wrong(f"trace[{indexes.index(n)}].index", f"{n}: the data has {n} examples, indexed 0..{n - 1}")
    if order is not None:  # each pass's mistakes are at examples it visits, in the order it visits them
        base, zero = 1 if n in indexes else 0, any(s.epoch == 0 for s in steps)  # indexes from 1, epochs from 0
        for k, (s, t) in enumerate(zip([None, *steps], steps)):
            visits = order[min(t.epoch + zero, len(order)) - 1]
            if t.index - base not in visits:
                raise read.wrong(f"trace[{k}].index", f"{t.index}: epoch {t.epoch} does not visit that example in the "
                                 "order \"order\" declares for it")
            if s and s[:2] == t[:2] and visits.index(t.index - base) <= visits.index(s.index - base):  # (cls, epoch)
                raise read.wrong(f"trace[{k}]", f"index {t.index} after index {s.index} in epoch {t.epoch}: not the "
                                 "order \"order\" declares for that pass")
    pocket = run.pocket.w if isinstance(run.pocket, Pocket) else run.pocket and {c: p.w for c, p in run.pocket.items()}
    start = read.weights("start", doc.get("start"))  # (None where not given)
    return _Theirs(run.w, None if trace is None else steps, doc.get("epochs"), doc.get("converged"), run.average,
                   pocket, run.voted, precision, start, rate, order, read.floats, doc.get("mistakes"))


def _settings(args, kernel, classes) -> _Settings:
    point = _point("joint" if args.multiclass == "joint" else "kernel" if kernel is not None else None,
                   rule="sign" if args.multiclass == "joint" else args.rule, bias=args.bias, **_family_options(args))
    return _Settings(point, args.multiclass, kernel, classes, args.epochs or args.max_epochs,
                     args.epochs is not None and bool(args.average or args.voted), args.average, args.voted, None)


class _Faulty(_FamilyPerceptron):
    """The family's Perceptron with a bug, ``fault`` = (kind, the mistake it is at, or "always"): w + c f x (_FAULTS's
    c), w + f x' (x' the x visited before), every score stale, or ("wrap", bits): two's complement ints of that size."""

    def __init__(self, d, point, xs, fault):
        super().__init__(d, point)
        self.fault, self.before, self.xs = fault, self.w, xs
        self.previous = (point.order[0] if point.order else range(len(xs)))[-1]

    def _score(self, x):
        s = _finite(dot(self.before if self.fault[0] == "stale" else self.w, x), "w.x")
        return self._wrapped(s, self.fault[1]) if self.fault[0] == "wrap" else s

    def _step(self, x, y, i=None):
        w, made = self.w, self.mistakes
        s, wrong = super()._step(x, y, i)
        kind, at = self.fault
        if wrong and kind == "wrap":
            self.w = [self._wrapped(v, at) for v in self.w]
        elif wrong and kind == "previous":
            self.w = [w_i + self.f * v for w_i, v in zip(w, self._read(self.xs[self.previous]))]
        elif wrong and kind != "stale" and at in (made, "always"):
            self.w = [w_i + _FAULTS[kind][0] * (v - w_i) for w_i, v in zip(w, self.w)]
        self.before, self.previous = w if wrong else self.before, i
        return s, wrong

    @staticmethod
    def _wrapped(v, bits):
        return (v + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)


def _replay(examples, st, model, theirs=None, stop=False, cls=None, expected=None) -> _Side:
    """The run under st (_visits), each mistake with the bound THEIRS may differ by (``stop``: to where they part);
    one-vs-rest's class by class (``cls``), along THEIRS's one trace."""
    expected = expected or {"trace": theirs and theirs.trace, "stop": stop, "k": 0, "parted": False}
    if st.multiclass == "one-vs-rest" and cls is None:
        sides = {c: _replay([(x, 1 if y == c else -1) for x, y in examples], st, model, cls=c, expected=expected)
                 for c in st.classes}
        by_class = {field: {c: getattr(side, field) for c, side in sides.items()} for field in _Side._fields}
        return _Side([s for side in sides.values() for s in side.steps], by_class["weights"],
                     max(by_class["epochs"].values(), default=0), all(by_class["converged"].values()),
                     by_class["average"] if st.average else None, by_class["voted"] if st.voted else None,
                     {k: v for side in sides.values() for k, v in side.watched.items()}, by_class["final_bound"])
    xs = [x for x, _ in examples]
    n, K, joint, p = len(xs), st.kernel, st.multiclass == "joint", st.point
    p = p._replace(start=p.start.get(cls)) if isinstance(p.start, dict) and not joint else p
    d = len(xs[0]) if xs else 0
    learner: Any = _FamilyJoint(st.classes, d, p) if joint else _FamilyDual(K, p, xs) if K is not None else \
        _Faulty(d, p, xs, st.fault) if st.fault else _FamilyPerceptron(d, p)
    X = [learner._read(x) for x in xs]
    flat = (lambda joint: [a for c in st.classes for a in joint.w[c]]) if joint else \
        (lambda dual: [dual.mistakes]) if K is not None else _explicit  # a hypothesis, for the history (train's)
    E = [0.0] * (d + p.bias)  # the float model's bound on |THEIRS's w - ours|, weight by weight
    steps, watched, parts = [], {}, []  # type: list, dict, list  # parts: a batch's (f, x)
    history = _History(flat(learner), n, st.voted, flat, st.average) if st.average or st.voted else None
    sums, upto = [(0.0, 0.0)] * n, [0] * n  # a kernel run's bound: each example's sum of |terms| so far
    visits, epoch, made, scored = 0, 0, 0, None if joint or K is not None else learner.w
    D = types.SimpleNamespace(examples=examples, at=None, passes=0)
    for epoch_now, i, y, s, wrong, ended in _visits(learner, D, st.passes, st.exactly):
        epoch, made, visits = epoch_now, made * (epoch_now == epoch) + wrong, visits + 1
        stored = learner.mistakes - wrong  # a dual's stored examples when it scored
        if p.decay and p.decay_at == "example" and scored is not None:  # w <- c w before it scored: c E, rounded
            c = 1 - p.decay
            E = E if model.off else [c * e + (model.u + model.u_ours) * abs(float(v)) for e, v in zip(E, learner.w)]
            scored = [c * v for v in scored]
        trace, watch = expected["trace"], False
        if trace is not None and not expected["parted"]:  # THEIRS's next mistake: at this visit, or parted
            here = expected["k"] < len(trace) and trace[expected["k"]][:3] == (cls, epoch, i)  # (cls, epoch, index)
            expected["k"] += wrong and here
            expected["parted"], watch = wrong != here, here and not wrong  # one of the two made a mistake here
        bound: Any = 0.0 if joint or model.off else None  # argmax: its class; else where a decision or score is read
        if bound is None and (watch or wrong) and K is None:
            bound = model.score_bound(scored, E, X[i])
        elif bound is None and (watch or wrong):  # from the magnitudes of eq. (2)'s terms, each stored since the last
            S, apart = sums[i]
            for x_j, f_j in learner.stored[upto[i]:stored]:
                S += abs(float(f_j * K(x_j, X[i])))
                apart += abs(float(f_j)) * model.kernel_error(K, x_j, X[i])
            sums[i], upto[i] = (S, apart), stored  # eq. (2)'s sum in any order, its kernel values apart
            bound = max((_gamma(stored, model.u_ours) + _gamma(stored, model.u)) * S + apart, model.tolerance * S)
        if watch:
            watched[(cls, epoch, i)] = (s, bound)
        if wrong:
            w: Any = _explicit(learner)
            if p.batch:
                parts.append((learner.f, X[i]))
            elif K is None and not joint:  # (passive-aggressive's f follows the score: it moves with it)
                apart = bound / (float(sum(map(mul, X[i], X[i]))) or 1.0) if p.step == "passive-aggressive" else 0.0
                E = model.moved(E, w, [(learner.f, X[i])], step=apart)
            steps.append(_Step(cls, epoch, i, y, s, None if p.batch else w, bound, None if joint else E))
        if history is not None and (ended if p.batch else wrong):  # w moved here (a batch's: at its end)
            history(None, learner, visits)
        if ended and parts:  # a batch's end: its updates, made in order, in force from here
            E = model.moved(E, learner.w, parts, mean=ended if p.batch == "mean" else 0)
            parts = []
        if expected["parted"] and expected["stop"]:  # (its trace differs here: what it does next is not compared)
            break
        scored = learner.w if scored is not None else None
    size, means = d + p.bias, {} if history is None else history.means(visits)  # (which closes the last vote)
    shaped = (lambda v: {c: list(v[k * size:(k + 1) * size]) for k, c in enumerate(st.classes)}) if joint else list
    average: Any = shaped(means[st.average]) if st.average else None
    votes = [(shaped(v) if K is None else v[0], c) for v, c in history.votes] if history and st.voted else None
    return _Side(steps, _explicit(learner), epoch, made == 0, average, votes, watched, None if joint else E)


class _Rounding:
    """The float model: how far THEIRS's numbers may lie from ours, computed in its precision (declared, or the
    narrowest holding every non-integral weight it wrote: its scores may be summed wider, as NumPy's float32 w @
    float64 x), summed in any order, its inputs rounded.  Any order of
    summing n products is within gamma_n sum |w_i x_i| of the exact sum, gamma_n = n u / (1 - n u) (Higham, "Accuracy
    and Stability of Numerical Algorithms", 2002, §3.1); each update's roundings are carried on each weight's bound.
    --tolerance T widens it to T S (S = sum |w_i x_i|, or max |w_i| for weights); --bitwise sets it to 0."""

    def __init__(self, args, theirs, examples, off=None, precision=None):
        inputs = [v for x, _ in examples for v in x]
        self.u_ours = 2.0 ** -53 if any(type(v) is float for v in inputs) else 0.0
        scores = {s.score for s in theirs.trace or ()}  # (finite: _Fields.number) whole ones tell no format
        telling = [v for v in theirs.floats if v != int(v) and v not in scores]
        self.name = precision or theirs.precision or next((name for name in reversed(_PRECISIONS) if telling and all(
            _held_in(v, name) for v in telling)), "binary64" if theirs.floats or self.u_ours else "exact")  # narrowest
        self.guessed = theirs.precision is None and bool(theirs.floats) and not telling
        self.bits = bits = _PRECISIONS.get(self.name)
        self.u = 0.0 if bits is None else 2.0 ** -bits
        self.u_in = 0.0 if bits is None or all(_held_in(v, self.name) for v in inputs) else self.u
        self.tolerance = float(args.tolerance or 0)
        self.off = (args.bitwise if off is None else off) or (self.u == self.u_ours == self.tolerance == 0)
        # Whole numbers, sums and products below 2^p are exact in p bits: no rounding, a difference is a difference.
        self.whole = not isinstance(theirs.start, dict) and theirs.average is None and all(
            _is_whole(v) for v in inputs + [theirs.rate or 1] + list(theirs.start or ()))

    def score_bound(self, w, E, x) -> float:
        """How far THEIRS's w.x may lie from ours: both sums' roundings, S = sum |w_i x_i|, and A = sum E_i |x_i|."""
        try:
            ax = [abs(float(v)) for v in x]
            S = sum(abs(float(v)) * a for v, a in zip(w, ax))
            A = sum(map(mul, E, ax)) if any(E) else 0.0
            if self.whole and S < 2.0 ** (self.bits or 53) and not A:
                return self.tolerance * S
            moved, theirs = (1 + self.u_in) * A + self.u_in * S, (1 + self.u_in) * (S + A)
            return max(_gamma(len(ax), self.u_ours) * S + _gamma(len(ax), self.u) * theirs + moved, self.tolerance * S)
        except OverflowError:
            return math.inf

    def kernel_error(self, K, a, b) -> float:
        """How far THEIRS's K(a, b) may lie from ours, each side's from the exact K, inputs within a relative delta
        (Higham §3.1 for the sums; A = sum |a_i b_i|): linear, A ((1 + delta)^2 - 1) + gamma_d A'; polynomial, its
        base t = a.b + c moves by e (gamma_(d+1)), |(t + e)^p - t^p| <= (|t| + e)^p - |t|^p, plus gamma_p (|t| + e)^p;
        gaussian, t = ||a - b||^2 / (2 sigma^2) moves by e (gamma_(d+3) t'), |exp(-t') - exp(-t)| <= exp(-t) expm1(e),
        plus 2u exp(-t + e).  Bit counts are exact; an unknown kernel (from_features) is taken as exact."""
        d, error = len(a), 0.0
        try:
            fa, fb = [abs(float(v)) for v in a], [abs(float(v)) for v in b]
            degree, sigma = getattr(K, "degree", None), getattr(K, "sigma", None)
            for u, delta in filter(any, ((self.u, self.u_in + self.u_ours if self.u_in else 0.0), (self.u_ours, 0.0))):
                A = sum(map(mul, fa, fb))
                moved = A * ((1 + delta) ** 2 - 1)
                if degree is not None:
                    t = abs(float(sum(map(mul, a, b))) + float(K.c))
                    e = moved + _gamma(d + 1, u) * (A + moved + abs(float(K.c)))
                    error += (t + e) ** degree - t ** degree + _gamma(degree, u) * (t + e) ** degree
                elif sigma is not None:
                    scale = 2 * float(sigma) ** 2
                    gaps = [abs(float(p) - float(q)) for p, q in zip(a, b)]
                    t = sum(g * g for g in gaps) / scale
                    spread = sum((2 * g + delta * (p + q)) * delta * (p + q) for g, p, q in zip(gaps, fa, fb)) / scale
                    e = spread + _gamma(d + 3, u) * (t + spread) + 3 * u * t
                    error += math.exp(-t) * math.expm1(e) + 2 * u * math.exp(-t + e)
                elif K is dot or getattr(K, "linear", False) is True:
                    error += moved + _gamma(d, u) * (A + moved)
        except OverflowError:
            return math.inf
        return error

    def moved(self, E, w, parts, mean=0, step=0.0):
        """The bound on each weight after w += sum of f x over parts (one, or a batch's); ``step``: how far THEIRS's f
        may lie from ours (passive-aggressive's, which follows the score)."""
        if self.off:
            return E
        u, k = self.u, len(parts)
        try:
            grown = [sum(abs(float(f)) * abs(float(x[i])) for f, x in parts) for i in range(len(E))]  # sum |f x_i|
            aw = [abs(float(v)) for v in w]
            if self.whole and not mean and not any(E) and all(_is_whole(f) for f, _ in parts) and \
                    max(map(add, aw, grown)) < 2.0 ** (self.bits or 53):
                return E
            rate = any(type(f) is Fraction and f.denominator & (f.denominator - 1) for f, _ in parts)  # a rate
            # such as 1/10 is not a binary fraction: THEIRS's eta is rounded too, by u, before any product
            grows = (self.u_in + (2 + rate + 2 * bool(mean)) * u + _gamma(k, u) + _gamma(k, self.u_ours)) / (mean or 1)
            moved = [e + g * grows + step * abs(float(v)) for e, g, v in zip(E, grown, parts[0][1])]  # e + m
            return [(1 + u) * m + (self.u_ours + u) * a for m, a in zip(moved, aw)]
        except OverflowError:
            return [math.inf] * len(E)


def _is_whole(v) -> bool:
    try:
        return Fraction(v).denominator == 1
    except (ValueError, OverflowError, TypeError):  # inf, nan
        return False


def _gamma(n, u):
    return n * u / (1 - n * u) if n * u < 1 else math.inf


def _held_in(v, precision) -> bool:
    import struct
    try:
        f, code = float(v), {"binary16": "<e", "binary32": "<f", "bfloat16": "<f"}.get(precision)  # None: binary64
        return (code is None and type(v) is float or Fraction(f) == Fraction(v)) and (
            code is None or struct.unpack(code, struct.pack(code, f))[0] == f) and (
            precision != "bfloat16" or struct.unpack("<I", struct.pack("<f", f))[0] & 0xFFFF == 0)
    except (OverflowError, ValueError, struct.error):  # inf or nan, but in binary64
        return False


def _compare(ours, theirs, st, model, whole=True):
    """(the first difference or None, what was alike: what was compared, the largest difference in ulps and its
    bound): the trace, the final weights, and (``whole``) the rest."""
    import itertools
    compared, largest = set(), [0.0, 0.0]  # (ulps, the bound's ulps)

    def close(theirs, ours, bound, what) -> bool:
        compared.add(what)
        if theirs == ours:
            return True
        difference = abs(Fraction(theirs) - Fraction(ours))
        if not bound < math.inf or difference > Fraction(bound) * (1 + Fraction(1, 10 ** 9)):
            return False  # a bound that overflowed (inf, nan) says nothing: only equal values agree
        # the ulp of the larger in ``bits`` bits, at least 2^-1074: 2^(e - bits) where 2^(e-1) <= v < 2^e, exact
        v, bits = max(abs(Fraction(theirs)), abs(Fraction(ours))), model.bits or 53
        e = v.numerator.bit_length() - v.denominator.bit_length()  # within one of the e above
        e += (v >= Fraction(2) ** e) - (v < Fraction(2) ** (e - 1))
        ulp = max(Fraction(2) ** (e - bits), Fraction(2) ** -1074)
        if difference / ulp > largest[0]:  # (inf past a float's range)
            largest[:] = (float(r) if r < 2 ** 1023 else math.inf for r in (difference / ulp, Fraction(bound) / ulp))
        return True

    def vectors(theirs, ours, E, what) -> bool:
        """Alike within each weight's bound E_i, at least T max |w_i|: vectors, {class: vector}, or votes."""
        compared.add(what)
        if theirs == ours:  # equal values, of any types: nothing to bound
            return True
        if isinstance(ours, dict):
            return isinstance(theirs, dict) and set(theirs) == set(ours) and all(
                vectors(theirs[c], ours[c], E.get(c) if isinstance(E, dict) else None, what) for c in ours)
        if ours and isinstance(ours[0], tuple):  # votes
            return len(ours) == len(theirs) and all(tc == oc and (tv == ov if isinstance(tv, int) or isinstance(
                ov, int) else vectors(tv, ov, E, what)) for (tv, tc), (ov, oc) in zip(theirs, ours))
        scale = model.tolerance and Fraction(model.tolerance) * max(map(abs, map(Fraction, ours)), default=0)
        bounds = E if isinstance(E, list) else [0.0] * len(ours)  # (all 0.0 where nothing rounds: model.off)
        return len(theirs) == len(ours) and all(
            close(t, o, max(b, scale), what) for t, o, b in zip(theirs, ours, bounds))

    for k, (o, t) in enumerate(itertools.zip_longest(ours.steps, theirs.trace) if theirs.trace is not None else ()):
        if o is None or t is None or (o.cls, o.epoch, o.index) != (t.cls, t.epoch, t.index):
            return _Difference("mistake", k, o, t), None
        compared.add("trace")
        if t.score is not None and (t.score != o.score if st.multiclass == "joint"
                                    else not close(t.score, o.score, o.score_bound, "scores")):
            return _Difference("score", k, o, t), None
        if t.weights is not None and not st.point.batch and not (  # a batch's "w after" is ambiguous: not compared
                o.weights is not None and vectors(t.weights, o.weights, o.weight_bound, "w after")):
            return _Difference("w after", k, o, t), None
    finals = [("weights", theirs.weights, ours.weights), ("average", theirs.average, ours.average),
              ("epochs", theirs.epochs, ours.epochs), ("converged", theirs.converged, ours.converged),
              ("mistakes", theirs.mistakes, len(ours.steps)), ("votes", theirs.voted, ours.voted)]
    for what, t, o in [final for final in (finals if whole else finals[:1]) if final[1] is not None]:  # as given
        compared.add(what)
        if not (o is not None and vectors(t, o, ours.final_bound, what) if what in ("weights", "average", "votes")
                else t == o):
            return _Difference(what, None, o, t), None
    alike = "bit for bit" if model.name != "exact" else "exactly"
    if largest[0]:
        alike = (f"up to {model.name} rounding: largest difference {largest[0]:.3g} ulp (bound {largest[1]:.3g})"
                 + (" (whole floats say nothing of their format: declare \"precision\" to be sure)" * model.guessed))
    return None, (f"{_count_text(len(ours.steps), 'mistake')}; compared: "
                  f"{', '.join(sorted(compared)) or 'nothing but the form'}; {alike}")


def _conventions(args, data, examples, classes, kernel, theirs, found_first) -> tuple | None:
    """The fewest conventions under which THEIRS agrees: (names, _named's lines, options); (None, lines, None): a tie"""
    n, d = len(examples), data.d
    import itertools
    forced = tuple(dict.fromkeys(found_first + _evidence(theirs, n)))
    order = list(_ROWS) + list(_WRITTEN)
    candidates = sorted((sum(names, ()) for names in itertools.product(*_choices(args, theirs, n, d, kernel))),
                        key=lambda names: (len(names), [order.index(name) for name in names]))
    agreeing, tied, visits = [], None, 0  # type: list, tuple | None, int  # agreeing: (names, values)
    for names in [forced + names for names in candidates if forced + names][:_SEARCHED]:  # (none: as given)
        if agreeing and len(names) > len(agreeing[0][0]) or tied and len(names) > len(tied[0]) or \
                visits > _SEARCH_VISITS:
            break
        converted = theirs._replace(trace=theirs.trace and [  # its numbering read back as the notes'
            s._replace(epoch=s.epoch + ("epochs from 0" in names), index=s.index - ("indexes from 1" in names))
            for s in theirs.trace])
        for size in _batch_sizes(converted, n) if "a minibatch" in names else [None]:
            values = {"max_epochs": theirs.epochs or args.max_epochs, "batch_size": size, "start": converted.start or (
                theirs.weights and [0] * len(theirs.weights)), "order": converted.order, "rate": converted.rate,
                      "bias_rate": None, "threshold": 0, "decay": 0, "converged": theirs.converged}  # (0: the notes')
            try:
                variant = _variant(args, names, values)
                for field, name in (("rate", "a rate"), ("bias_rate", "a rate for the bias")):
                    if name in names and (field == "bias_rate" or converted.rate is None):  # read at the rate 1
                        values[field] = _rate_read(examples, converted, variant, field == "bias_rate")
                if "the passes" in names and theirs.epochs is None:  # THEIRS wrote its weights alone
                    values["max_epochs"] = _passes_read(examples, converted, _variant(args, names, values))
                variant = _variant(args, names, values)
                model = _Rounding(variant, converted, examples)
                st = _settings(variant, kernel, classes)
                ours = _replay(examples, st, model, converted, stop=True)
            except (PerceptronError, OverflowError):  # a run these conventions do not make, or that overflows
                continue
            visits += ours.epochs * n * len(classes or [1])
            difference, _ = _compare(ours, converted, st, model)
            if difference is None:
                agreeing.append((names, variant))
                break
            tie = tied is None and _rounding(difference, ours, model, examples, st.point)
            if tie:  # agreeing up to a tie that rounding breaks: named if nothing agrees throughout
                until = "epoch {}, index {}".format(*_parting(difference)[1:])
                tied = names, _named(variant, names, [])[:-1] + [  # (no command: it does not agree)
                    f"  under them the rest of the run agrees, step by step, up to {until}",
                    tie[0].replace("diagnosis: ", f"then at {until}: ", 1), *tie[1:]]
    if agreeing:  # of the readings alike, the rate of fewest digits first (1/2 with the mean, not 1/60 with the sum)
        agreeing.sort(key=lambda reading: len(repr(float(reading[1].rate or 1)).split("e")[0].replace("-", "")
                                              .replace(".", "").strip("0")))
        names, variant = agreeing[0]
        return names, _named(variant, names, agreeing[1:]), variant
    return tied and (None, tied[1], None)


def _passes_read(examples, theirs, variant):
    """THEIRS's passes where it writes its final weights alone (scikit-learn's max_iter with tol=None): the first of
    at most 100 after which the run's w lies nearest THEIRS's; the comparison that follows decides."""
    st = _settings(variant, None, None)
    side = _replay(examples, st._replace(passes=min(st.passes, 100)), _Rounding(variant, theirs, examples, off=True))
    after = {s.epoch: s.weights for s in side.steps if isinstance(s.weights, list)}  # w at the end of each pass
    apart = {k: max(abs(Fraction(a) - Fraction(b)) for a, b in zip(w, theirs.weights)) for k, w in after.items()}
    return min(apart, key=apart.get, default=1)  # (exact: no float's range; a clean pass's w is the one before's)


def _rate_read(examples, theirs, variant, bias):
    """THEIRS's rate (``bias``: its bias's), its first weight of one sign over the run's at the rate 1 (the bias's,
    or any other's): exact, or a binary fraction, else the float of the shortest decimal near it."""
    variant = type(variant)(**{**vars(variant), "rate": None, "bias_rate": None})
    side = _replay(examples, _settings(variant, None, None), _Rounding(variant, theirs, examples))  # (primal only)
    pairs = [(s.weights, m.weights) for s, m in zip(theirs.trace or [], side.steps)]
    t, o = next(((t, o) for ts, os_ in pairs + [(theirs.weights, side.weights)]
                 if isinstance(ts, list) and isinstance(os_, list) for k, (t, o) in enumerate(zip(ts, os_))
                 if o != 0 and t != 0 and (t > 0) == (o > 0)  # and k is the bias's place, or not
                 and bool(variant.bias and k == (0 if variant.bias_first else len(ts) - 1)) == bias), (1, 1))
    eta = Fraction(t) / Fraction(o)
    if type(t) is float:  # THEIRS's eta times ours, rounded: the float of the shortest decimal near the ratio
        return float(_simplest(float(eta), 2.0 ** -50)) if eta.denominator & (eta.denominator - 1) else float(eta)
    return eta if eta.denominator > 1 else int(eta)


def _declared(theirs, names) -> str:
    one = theirs.order[0] if theirs.order else []  # one list shown whole, or its ends
    order = theirs.order and (f"[{', '.join(map(str, one if len(one) < 6 else one[:3] + ['...'] + one[-1:]))}]"
                              if len(theirs.order) == 1 else f"{len(theirs.order)} orders, one a pass")
    fields = {"a start": _shown_any(theirs.start), "a rate": _shown_any(theirs.rate), "an order": order}
    return ", ".join(f'"{name.split()[-1]}": {fields[name]}' for name in names if name in fields) or "its labels"


def _evidence(theirs, n) -> list:
    """What THEIRS itself says: its numbering, its start (w = 0 is the notes'), else its rate, and its order."""
    said = {"epochs from 0": min((s.epoch for s in theirs.trace or ()), default=1) == 0,
            "indexes from 1": max((s.index for s in theirs.trace or ()), default=-1) == n,  # else a choice (no 0)
            "a start": any(v != 0 for v in theirs.start or ()), "a rate": theirs.rate not in (None, 1),
            "an order": theirs.order is not None}
    return [name for name, shown in said.items() if shown]


def _batch_sizes(theirs, n) -> list:
    """The sizes 1 < b < n of a minibatch that THEIRS's first pass allows (at most 8): from w = 0 every score is 0
    until the batch of the first mistake ends, from the last of the first scores 0 to before the first that is not."""
    if not theirs.trace or theirs.order is not None or theirs.start is not None:
        return []
    first = min(s.epoch for s in theirs.trace)
    scores = [(s.index, s.score) for s in theirs.trace if s.epoch == first]
    zeros = next((k for k, (_, s) in enumerate(scores) if s != 0), len(scores))  # how many scores 0 come first
    if zeros < 2:  # one is every run's: its first mistake is at w = 0
        return []
    i, last, end = scores[0][0], scores[zeros - 1][0], scores[zeros][0] if zeros < len(scores) else n
    return [b for b in range(2, n) if last <= (i // b + 1) * b - 1 < end][:8]


def _choices(args, theirs, n, d, kernel) -> list:
    """The alternatives of each dimension a convention can change (the options as given: an empty tuple)."""
    choices: list = []
    steps = theirs.trace or []
    if steps and min(s.index for s in steps) > 0 and max(s.index for s in steps) < n:
        choices.append([(), ("indexes from 1",)])
    if args.multiclass != "joint":  # sign(0) is the sign rule's: each but the options', +1 the notes'
        sign = ("the sign rule",) if args.rule == "margin" else ()
        choices.append([(), ("the margin rule",) if args.rule == "sign" else sign] + [
            sign + (row.name,) + ("the update (t - o) x",) * (row.value == 0) for row in FAMILY
            if row.field == "zero" and row.value != (1 if args.zero is None else args.zero)])
    vectors = [theirs.weights, theirs.average, theirs.pocket, theirs.start] + [s.weights for s in steps]
    lengths = {len(w) for v in vectors for w in (v.values() if isinstance(v, dict) else [v]) if isinstance(w, list)}
    if lengths == {d + 1}:
        bias = () if args.bias else ("a bias",)
        choices += [[bias, bias + ("the bias first",)], [(), ("a bias on -1",)]]
        if not args.multiclass and kernel is None:
            choices.append([(), ("a rate for the bias",)])
    elif lengths == {d} and args.bias:
        choices.append([("no bias",)])
    elif not lengths:
        choices.append([(), ("no bias",) if args.bias else ("a bias",)])
    if not args.multiclass and kernel is None:  # an option given that THEIRS need not take: the notes' value
        free = {"a threshold": True, "a weight decay": True, "a rate": theirs.rate == 1,  # (or what it declares)
                "a start": not any(theirs.start or ()) and type(theirs.weights) is list}
        choices += [[(), (name,)] for name, notes in free.items() if notes and getattr(args, _ROWS[name].field)]
    if not args.multiclass and kernel is None and theirs.start is None and theirs.rate is None:
        choices.append([(), ("a rate",), ("a rate", "a falling rate")])
    kept_on = theirs.converged and theirs.epochs is not None and args.epochs is None and theirs.epochs > max(
        (s.epoch for s in steps), default=0) + 1  # passes after a clean one: a number of passes fixed (--epochs)
    if theirs.epochs is not None and theirs.epochs != (args.epochs or args.max_epochs) and theirs.converged is False \
            or kept_on or (theirs.epochs, theirs.converged, theirs.trace, args.multiclass, kernel) == (None,) * 5:
        choices.append([(), ("the passes",)])
    if not args.multiclass and kernel is None:
        minibatch = [("the batch rule", "a minibatch"), ("the batch rule with the mean", "a minibatch")] \
            if _batch_sizes(theirs, n) else []
        choices.append([(), ("the batch rule",), ("the batch rule with the mean",)] + minibatch)
    if args.multiclass:
        choices += [[(), ("the joint update",) if args.multiclass == "one-vs-rest" else ("one-vs-rest",)],
                    [(), ("no prediction at 0",)], [(), ("ties to the last",)]]
    if theirs.average is not None:  # (alternatives in any order: the candidates are sorted)
        choices.append([() if row.value == args.average else (row.name,) for row in FAMILY if row.field == "average"])
    if theirs.voted is not None and not args.voted:
        choices.append([("the votes",)])
    return choices


def _variant(args, names, values):
    """A copy of ``args`` with the conventions ``names`` set (a parameter from ``values``); an error if they clash."""
    variant = type(args)(**vars(args))  # a copy of the parsed options, to change
    for row in filter(None, map(_ROWS.get, names)):  # (a way of writing: read, not run)
        field = "epochs" if row.field == "max_epochs" and (args.epochs is not None or values.get("converged")) else \
            row.field  # (THEIRS converged, yet made more passes: as many as --epochs says)
        value = values[row.field] if isinstance(row.value, str) and row.value.isupper() else row.value
        if field == "multiclass" and value == "joint" and "rule" in args.given or field == "average" and \
                value != "updates" and args.epochs is None and "the passes" not in names:
            raise PerceptronError(f"{names}: these conventions clash")
        setattr(variant, field, value)
    return variant


def _option(field, value) -> str:
    """An option on the command line: --FIELD, or --FIELD=VALUE (numbers as --json reads them)."""
    flag = "--" + field.replace("_", "-")
    if value is True:
        return flag
    if isinstance(value, (list, tuple)):  # a vector, two labels, or an order (one list, or one a pass)
        value = ";".join(",".join(map(_num, v)) for v in (value if value and isinstance(value[0], list) else [value]))
    return f"{flag}={_num(value)}"


def _named(args, names, others) -> list:
    """The diagnosis of conventions: each's option, what it changes and where it is met; the command that runs it."""
    def option(name, args):  # (a convention's option in these options, its value), or a way of writing's words
        row = _ROWS.get(name)
        if row is None:
            return _WRITTEN[name], None
        field = "epochs" if row.field == "max_epochs" and args.epochs is not None else row.field
        value = getattr(args, field)
        return ("no --bias" if field == "bias" and value is False else "--order (THEIRS's \"order\")"
                if field == "order" else _option(field, value)), value
    lines = [f"diagnosis: {'a convention' if len(names) == 1 else f'{len(names)} conventions'}, not a bug.  "
             "THEIRS is this project's run with:"]
    for name in names:
        (said, value), row = option(name, args), _ROWS.get(name)
        changes = row and (row.changes.replace(str(row.value), _shown_any(value))
                           if str(row.value).isupper() and row.field != "order" else row.changes)
        lines.append(f"  - {said}: {changes} (met in {row.source})" if row else
                     f"  - {said}: a way of writing the numbers, read as written")
    lines += ["  (or equally: " + (" ".join(option(name, v)[0] for name in n if name in _ROWS) or "the options as "
                                    "given") + ")" for n, v in others[:3]]
    import shlex
    shown = {field: getattr(args, field) != value for field, value in _DEFAULTS.items()}  # (the rest: where true)
    shown.update(rule=shown["rule"] and args.multiclass != "joint", max_epochs=shown["max_epochs"] and not args.epochs)
    options = [_option(field, getattr(args, field)) for field in (
        "exact", "label_column", "labels", "delimiter", "multiclass", "kernel", "rule", "bias", "epochs", "max_epochs",
        "pocket", "average", "voted", "tolerance", "bitwise", "literal") if shown.get(field, getattr(args, field))]
    options += [_option(field, v) for field, v in _family_options(args).items()]
    options += [f"--drop-column={c}" for c in args.drop_column] + ["--no-header"] * (not args.header)
    return lines + ["reproduce it: python3 perceptron.py " + shlex.join([args.file, *options, "--check", args.check])]


def _rounding(difference, ours, model, examples, point) -> list | None:
    """A decision that differs where our score lies within its bound of 0, not exactly 0: a tie rounding breaks."""
    if difference.what != "mistake" or model.off:
        return None
    visit, o = _parting(difference), difference.ours
    s, bound = (o.score, o.score_bound) if o is not None and (o.cls, o.epoch, o.index) == visit else \
        ours.watched.get(visit, (None, 0.0))
    if s is None or isinstance(s, str) or not bound > 0 or abs(Fraction(s)) > Fraction(bound):
        return None
    w = [point.start] + [m.weights for m in ours.steps[:difference.k] if m.cls == visit[0] and m.weights is not None]
    w, x = w[-1], _read_at(point, examples[visit[2]][0])  # x as the run read it, its bias's feature in place
    exact = (f"; the exact score w.x (from Fractions of the same floats) is "
             f"{_shown_any(sum(map(mul, map(Fraction, w), map(Fraction, x))))}"
             if isinstance(w, list) and len(w) == len(x) else "")
    return [f"diagnosis: a tie broken by rounding, not a bug.  Our score there is {_shown_any(s)}, within "
            f"{bound:.3g} of 0{exact}:",
            f"  {model.name} arithmetic, summed in any order, may put THEIRS's score anywhere within that bound of "
            "ours (Higham 2002, §3.1: gamma_n sum |w_i x_i|, through every update), and the rule decides at 0.",
            "  To agree bit for bit, compute in binary64 and sum left to right from 0: s = 0; for a, b in zip(w, x): "
            "s = s + a * b"]


def _parting(difference):
    m = min((m for m in (difference.ours, difference.theirs) if m is not None), key=lambda m: (m.epoch, m.index))
    return (m.cls, m.epoch, m.index)


def _bug(examples, st, theirs, model, difference, ours, prefer=None) -> list | None:
    """A bug of THEIRS that explains its whole run, the first of _SHAPES that does (one faulty step: among the 12
    mistakes before the parting); ``prefer``: one tried first (--conform's, where one case's data fits two)."""
    first, trace, n = (ours.steps or [None])[0], theirs.trace, len(examples)
    tries: list = []  # (the settings of a bug, or None where it holds as seen, its diagnosis)
    if trace == [] and first is not None and first.score == 0:
        tries.append((None, "a bug in THEIRS, at its first step: its rule never fires from w = 0, where every score is "
                      f"0 (a strict `y w.x < 0`); the notes update there (epoch {first.epoch}, index {first.index}: "
                      + ("y (w.x) = 0 <= 0, Cornell §3)." if first.y > 0 else "sign(0) = +1 != y, Columbia §1.1).")))
    if theirs.epochs is not None and theirs.converged is False:
        st = st._replace(passes=theirs.epochs)  # the passes THEIRS made
    numbers = [v for x, _ in examples for v in x] + [v for m in ours.steps if m.cls is None for v in [
        m.score, *(m.weights if isinstance(m.weights, list) else ())]]  # the notes' numbers: do any pass 2^31?
    whole = all(map(_is_whole, numbers + theirs.floats))  # integers, or whole floats
    largest = max(map(abs, numbers), default=0) if whole and not st.multiclass and st.kernel is None else 0
    tries += [({"fault": ("wrap", bits)}, f"a bug in THEIRS: its integers wrap: every score and weight is kept in "
               f"{bits} bits and wraps past 2^{bits - 1} (two's complement: C's int{bits}_t, NumPy's int{bits}); "
               "the notes' arithmetic is exact.  Wrapped so, the whole run agrees.") for bits in (32, 64)
              if largest >= 2 ** (bits - 1)]
    if trace and difference.k is not None and st.multiclass != "joint":
        for j in range(min(difference.k, len(trace) - 1), max(-1, difference.k - 12), -1):
            m = trace[j]
            tries += [({"fault": (fault, j)}, f"a bug in THEIRS, at one step: THEIRS {did} at mistake {j + 1} (epoch "
                       f"{m.epoch}, index {m.index}): with that step so, the rest of its run agrees.")
                      for fault, (_, did) in _FAULTS.items() if m.weights is None or j == difference.k]
        tries += [({"fault": ("stale", "always")}, "a bug in THEIRS: every score is stale, w.x for the weights before "
                   "the latest update; so, the whole run agrees."),
                  ({"fault": ("prediction", "always")}, "a bug in THEIRS: every update is by the prediction sign(w.x), "
                   "-y on a mistake, not by the label y (w - y x, away from it); so, the whole run agrees.")]
    visited = {i for one in theirs.order for i in one} if theirs.order else {s.index for s in trace or ()}
    missing = sorted({s.index for s in ours.steps} - visited)
    if missing and (trace is not None or theirs.order) and not st.multiclass and st.kernel is None:
        first = next(s for s in ours.steps if s.index in missing)
        them = "it" if len(missing) == 1 else "them"
        order = [[i for i in one if i not in missing] for one in theirs.order or [range(n)]]
        tries.append(({"point": st.point._replace(order=order)}, "a bug in THEIRS: " + (
            f"example {missing[0]} is" if len(missing) == 1 else f"examples {', '.join(map(str, missing))} are")
            + " never visited" + (f" (its declared \"order\" leaves {them} out)" if theirs.order else "")
            + "; the notes visit every example in each pass (Cornell §3: for (x_i, y_i) in D), and make a mistake "
            f"on example {first.index} at epoch {first.epoch}.  With {them} left out, the whole run agrees."))
    if trace and (len(trace) > 2 or prefer == _SHAPES[-1]):  # fewer updates fit it by chance, unless others show it
        tries.append(({"fault": ("previous", "always")}, f"a bug in THEIRS, at its first step (epoch {trace[0].epoch}, "
                      f"index {trace[0].index}): every update adds the x of the example visited before its own "
                      "(x[i - 1] for x[i], an off-by-one), not w <- w + y x (Columbia §1.1)."))
    tries.sort(key=lambda tried: prefer is None or prefer not in tried[1])  # (st below: as bugged, for _compare)
    return next(([f"diagnosis: {bug}"] for changed, bug in tries if changed is None or _compare(_replay(
        examples, st._replace(**changed), model, theirs, stop=True), theirs, st, model, whole=False)[0] is None), None)


def _law(examples, args, theirs, model) -> tuple | None:
    """A law w_k = c w_(k-1) + eta y x read off THEIRS's trace (least squares) as a point of the family: a decay c < 1,
    a rate, passive-aggressive's step, a threshold t of "update while y w.x <= t" (the notes' t = 0), a start, a
    shuffle.  ("bug", lines) for one step off it; ("variant", lines, the options that run it or None); else None."""
    steps, n, d = theirs.trace or [], len(examples), len(examples[0][0])
    if args.multiclass or args.kernel or len(steps) < 3 or any(not isinstance(s.weights, list) or not 0 <= s.index < n
                                                                or s.epoch * n > 2 ** 53 for s in steps):
        return None  # (visits counted beyond a float's whole numbers: no decay per visit to read)
    try:  # (THEIRS's vectors: d or d + 1 numbers, as the reader allows; a bias where the options put it, else last)
        W = [[float(v) for v in s.weights] for s in steps]
        point = _settings(args, None, None).point._replace(bias=len(W[0]) > d)
        X = [[float(v) for v in _read_at(point, x)] for x, _ in examples]
        start = [float(v) for v in theirs.start] if theirs.start else [0.0] * len(W[0])
    except OverflowError:
        return None
    u = 2.0 ** -(model.bits or 53)
    # within the rounding of 0 (of reading THEIRS as floats, or of its declared precision) is 0: a y w.x, and w_0
    near = 2.0 ** -_PRECISIONS.get(theirs.precision, 53)
    zero = 2 * len(start) ** 2 * near * max(max(map(abs, v)) for v in W + [start]) * max(max(map(abs, x)) for x in X)
    visits = theirs.order or [range(n)]  # the examples of each pass, in its order
    shuffled = None if theirs.order else next((k for k, (a, b) in enumerate(zip(steps, steps[1:]), 1)  # the first step
                                               if b.epoch == a.epoch and b.index <= a.index), None)  # out of its order
    reads: list = []  # each update's (keep factor c or None, eta, y w_(k-1).x, x.x, visits since the last, fits)
    before, last = start, -1  # type: list, Any
    for s, w in zip(steps, W):
        x, y = X[s.index], examples[s.index][1]
        at = None if shuffled else (s.epoch - 1) * n + visits[min(s.epoch, len(visits)) - 1].index(s.index)
        pp, px, xx, pw, xw = (sum(map(mul, a, b)) for a, b in ((before, before), (before, x), (x, x), (before, w),
                                                               (x, w)))
        det = pp * xx - px * px
        c, f = ((pw * xx - px * xw) / det, (pp * xw - px * pw) / det) if pp and det > 1e-9 * pp * xx else \
            (pw / pp if pp and not xx else None, (xw - px) / xx if xx else 0.0)  # w_(k-1) = 0, or along x: no
        # decay to read here; x = 0 (a mistake under the margin rule): only the decay, and no rate (NaN below)
        gap = None if at is None else at - last
        # the rounding of a product, a sum and each example's decay, and the solve's for c and f: its condition u
        slack = (4 + 2 * (gap or 1) + (pp * xx / det if c is not None and det else 0)) * u
        if model.whole and (c is None or isfinite(c) and abs(c - round(c)) < 1e-9) and isfinite(f) and \
                abs(f - round(f)) < 1e-9:  # (inf or nan: THEIRS's weights past a float's range, no whole law)
            c, f, slack = c and float(round(c)), float(round(f)), 0.0  # whole numbers: nothing rounds
        fits = max(abs(w_i - ((c or 1.0) * p_i + f * x_i)) for w_i, p_i, x_i in zip(w, before, x)) <= slack * (
            max(map(abs, before)) + abs(f) * max(map(abs, x)) + max(map(abs, w)))
        reads.append((c, f * y if xx else math.nan, y * px if abs(px) > zero else 0.0, xx, gap, fits))
        before, last = w, at
    tolerance = 1e-6 if u > 2.0 ** -30 else 1e-9

    def apart(values):  # (the value most of them share, the indexes of those not near it: all where none is shared)
        buckets: dict = {}
        for v in values:
            if v == v:  # NaN: a step that says nothing of it
                buckets.setdefault(f"{v:.5g}", []).append(v)
        shared = max(buckets.values(), key=len, default=[math.nan])
        off = [k for k, v in enumerate(values) if abs(v - shared[0]) > tolerance * abs(shared[0])]
        return shared[0], off if len(shared) > 1 or not off else list(range(len(values)))  # one step is no law
    bad = {k for k, r in enumerate(reads) if not r[5]}  # the steps off the law
    found: dict = {}  # the law as a point of the family, {field: value}
    eta, off = apart([r[1] for r in reads])
    if off and all(reads[k][2] == 0 and abs(2 * reads[k][1] - eta) <= tolerance * abs(eta) for k in off):
        eta, off = eta / 2, []  # eta y x at a zero score, 2 eta y x on the wrong side: the (t - o) update
        found.update(zero=0, step="error")
    passive = len(off) > 1
    if passive:  # no one rate: passive-aggressive's step (tau - y w.x) / x.x?
        tau, off = apart([r[1] * r[3] + r[2] for r in reads])
        if len(off) > 1 or tau <= 0:
            return None
        found.update(step="passive-aggressive", threshold=_simplest(tau))
    elif eta <= 0:
        return None
    elif abs(eta - float(args.rate or 1)) > tolerance * float(args.rate or 1):  # (the options' rate, else 1)
        found["rate"] = _simplest(eta)
    bad |= set(off)
    kept = [(k, r) for k, r in enumerate(reads) if r[0] is not None and k not in bad]
    factor, per_example = 1.0, True  # the decay: w shrinks by the factor at each example, or at each update
    if kept and any(abs(r[0] - 1) > tolerance for _, r in kept):
        per = [r[0] ** (1 / r[4]) if r[4] and r[0] > 0 else math.nan for _, r in kept]
        factor, odd = apart(per) if not any(map(math.isnan, per)) else (0.0, [0, 1])
        if len(odd) > 1 or not 0 < factor < 1 or len(kept) < 2:
            (factor, odd), per_example = apart([r[0] for _, r in kept]), False
            # a reshuffle hides how many examples lie between two updates, so a decay that differs is no bug
            if len(odd) > 1 or not 0 < factor < 1 or shuffled and odd:
                return None
        bad |= {kept[j][0] for j in odd}
        found.update(decay=_simplest(1 - factor), **({} if per_example else {"decay_at": "update"}))
    if len(bad) > 1:
        return None
    # y w.x before each update, and at each visit that made none; a zero is the rule's (sign(0)), not a threshold
    low = max((r[2] for k, r in enumerate(reads) if k not in bad and r[2]), default=-math.inf)
    high, k, epoch, made, w = math.inf, 0, 0, -1, start  # the least at a visit that made none, by THEIRS's w then
    while not shuffled and k < len(steps) and steps[k].epoch > epoch:  # (a step in a pass already walked: stop)
        epoch, made = steps[k].epoch if made == k else epoch + 1, k  # after a pass without an update, the step's
        for i in visits[min(epoch, len(visits)) - 1]:
            if k == len(steps):
                break
            if (steps[k].epoch, steps[k].index) == (epoch, i):
                w, k = W[k], k + 1
                continue
            margin = examples[i][1] * sum(map(mul, w, X[i]))
            high = min(high, margin) if abs(margin) > zero else high
    if low >= high:
        return None
    if not low <= 0 < high:  # it updates while y w.x <= t, the notes' t = 0
        found.setdefault("threshold", _simplest(math.ceil(low) if math.ceil(low) < high else low))
    if bad == {0} and theirs.start is None and not reads[0][5]:  # its first update from a start other than 0
        x, y = X[steps[0].index], examples[steps[0].index][1]
        found["start"] = [_simplest(w_i - eta * y * x_i) if abs(w_i - eta * y * x_i) > 4 * near * (
            abs(w_i) + abs(eta * x_i)) else 0 for w_i, x_i in zip(W[0], x)]  # within the rounding of eta y x and of
        bad = set()  # the sum: 0
    if bad and len(steps) < 5:  # one step off a law is a bug only where four others fix the law
        return None
    if not found and not bad and not shuffled:  # the notes' law: nothing read (what THEIRS declares is no reading)
        return None
    found.update({row.field: getattr(theirs, row.field) for row in map(_ROWS.get, _evidence(theirs, n)) if row})
    names = [next(row.name for row in FAMILY if row.field == field and (row.value == value or str(row.value).isupper()))
             for field, value in found.items()]
    variant = _variant(args, names, found)
    for field in {"decay", "threshold", "step"} - set(found):  # read as the notes', whatever the options say
        setattr(variant, field, None)
    if theirs.epochs is not None and theirs.converged is False:  # the passes THEIRS made
        setattr(variant, "epochs" if args.epochs is not None else "max_epochs", theirs.epochs)
    named = _named(variant, names, [])
    if bad:
        k = bad.pop()
        s, ratio = steps[k], round(reads[k][1] / eta, 9) if reads[k][5] and not passive else math.nan
        x, y, c = X[s.index], examples[s.index][1], factor ** ((reads[k][4] or 1) if per_example else 1)
        step = (tau - reads[k][2]) / reads[k][3] if passive and reads[k][3] else eta
        expected = [c * p_i + step * y * x_i for p_i, x_i in zip(W[k - 1] if k else start, x)]
        law = "; ".join(line[4:].split(" (met in ")[0] for line in named[1:-1]) or "the notes' w <- w + y x"
        did = dict(_FAULTS.values()).get(ratio, f"made an update other than the law's ({law})")
        return "bug", [f"diagnosis: a bug in THEIRS, at one step: THEIRS {did} at mistake {k + 1} (epoch {s.epoch}, "
                       f"index {s.index}); each of its other {len(steps) - 1} updates follows {law}.",
                       f"  w before it: " + (_shown_any(steps[k - 1].weights) if k else "the start"),
                       f"  w after it:  {_shown_any(s.weights, expected)}; the law's: {_shown_any(expected)}"]
    lines = [f"diagnosis: outside the notes, not a bug: a law read from THEIRS's own trace holds at every one of its "
             f"{len(steps)} updates.  THEIRS is the notes' perceptron with:", *named[1:-1]]
    if shuffled:  # its seed unknown: the run in the file's order, tried below, cannot make its trace
        row = _ROWS["a seeded shuffle"]
        lines.append(f"  - a shuffle: {row.changes} (met in {row.source.split(' (')[0]}), read from its trace: epoch "
                     f"{steps[shuffled].epoch} visits index {steps[shuffled].index} after index "
                     f"{steps[shuffled - 1].index}")
    try:
        model, st = _Rounding(variant, theirs, examples), _settings(variant, None, None)
        agrees = _compare(_replay(examples, st, model, theirs, stop=True), theirs, st, model)[0] is None
    except PerceptronError:
        agrees = False
    return "variant", lines + (["  the run with them agrees step by step", named[-1]] if agrees else [
        "  " + ("an order THEIRS does not declare cannot be run" if shuffled else "the run with them does not agree "
                "with THEIRS step by step within its rounding") + ": declare what it does (\"rate\", \"start\", "
        "\"order\": the indexes each pass visits) to compare exactly"]), variant if agrees else None


def _simplest(v, within=1e-9):
    """The shortest decimal within ``within`` of v (relatively), as the command line reads it: an int if whole."""
    texts = (f"{v:.{digits}g}" for digits in range(1, 18))
    v = float(next((text for text in texts if abs(float(text) - v) <= within * abs(v)), repr(v)))
    return int(v) if v.is_integer() else v


def _unexplained(difference, ours, examples, st, traced=False) -> list:
    what, k, o, _ = difference
    if k is None:
        told = [f"  their {what} differ from the notes' run's (both: below); " + (
            "their trace agrees with it at every mistake: they part after its last." if traced else "give THEIRS's "
            "trace (each mistake's epoch and index, and its weights after) to find the first step where they part.")]
    elif what == "score":
        told = [f"  their score is not our w.x, beyond the bound {o.score_bound:.3g} of rounding (both: below)."]
    elif what == "w after":
        told = ["  the weights after this update differ beyond rounding (both: below); the notes' is w <- w + y x."]
    else:  # a mistake one side made there
        visit = _parting(difference)
        made = o is not None and (o.cls, o.epoch, o.index) == visit  # by ours: the notes require an update
        y, s = (o.y, o.score) if made else (examples[visit[2]][1], ours.watched.get(visit, (None, 0))[0])
        if not made and (s is None or st.multiclass):
            why = ""
        elif st.multiclass == "joint" or s is None or isinstance(s, str):
            why = ": the argmax is not y"
        else:  # _decided's rule and prediction, in words
            wrong, predicted, _ = _decided(st.point, y, s)
            why = f": y (w.x) = {_shown_any(y * Fraction(s))} {'<=' if wrong else '>'} " \
                  f"{_shown_any(st.point.threshold)}" if st.point.rule == "margin" or st.point.threshold else \
                f": the score is {_shown_any(s)} and sign({_shown_any(s)}) = {predicted:+d} {'!=' if wrong else '='} " \
                f"y = {y:+d}"
        told = [f"  the notes require {'an' if made else 'no'} update here{why} (Columbia §1.1, Cornell §3); "
                f"THEIRS made {'none' if made else 'one'}."]
    return ["diagnosis: unexplained: not a convention this check knows, nor rounding, nor a law read from THEIRS's "
            "trace, nor one faulty step.  Here THEIRS parts from the notes:", *told]


def _where(difference, ours, examples, data, start) -> list:
    what, k, o, t = difference
    if k is None:
        return [f"they differ in the {what}:", f"  ours:   {_shown_any(o)}", f"  theirs: {_shown_any(t, o)}"]
    lines = [f"they part at mistake {k + 1} of the trace ({what}):"]
    for name, m in (("ours:  ", o), ("theirs:", t)):
        lines.append(f"  {name} no more mistakes" if m is None else
                     f"  {name} " + (f"class {m.cls}, " if m.cls is not None else "") + f"epoch {m.epoch}, index "
                     f"{m.index}" + (f" (line {data.where(m.index)[0]})" if m.index < len(data.kept) else "")
                     + (f", {'predicted' if isinstance(m.score, str) else 'score'} {_shown_any(m.score)}"
                        if m.score is not None else "")
                     + (f", w after {_shown_any(m.weights, o and o.weights)}" if m.weights is not None else ""))
    visit = _parting(difference)
    if what == "mistake":
        did = ["an update" if m and (m.cls, m.epoch, m.index) == visit else "no update" for m in (o, t)]
        lines.append(f"  at epoch {visit[1]}, index {visit[2]}" + (f", class {visit[0]}" if visit[0] else "")
                     + f": ours made {did[0]}, theirs {did[1]}")
    x, y = examples[visit[2]]
    lines.append(f"  the example: x = {_shown_any(x)}, y = {y if isinstance(y, str) else f'{y:+d}'}")
    before = [(start.get(visit[0], start) if isinstance(start, dict) else start) or 0] + [
        s.weights for s in ours.steps[:k] if s.cls == visit[0] and s.weights is not None]  # (the start: given, or 0)
    return lines + ["  w before it: " + _shown_any(before[-1]) + ", as at the start" * (len(before) == 1)] \
        if before[1:] or ours.steps and ours.steps[0].weights is not None else lines


def _shown_any(v, other=None) -> str:
    """A value for a report: a number an int in full, else the shortest decimal of the nearest float (exact ones:
    --json); a long vector as its ends and, beside ``other``, its largest differences."""
    if isinstance(v, dict):
        return ", ".join(f"{c}: {_shown_any(w, other.get(c) if isinstance(other, dict) else None)}"
                         for c, w in v.items())
    if v is None or isinstance(v, (bool, str)):
        return "none" if v is None else str(v).lower() if isinstance(v, bool) else v
    if not isinstance(v, list):
        v = Fraction(v)
        try:  # (309 digits of a float's 1e308 say less than its shortest decimal)
            return repr(float(v)) if v.denominator > 1 or abs(v.numerator) >= 10 ** 30 and Fraction(float(v)) == v \
                else _num(v)
        except OverflowError:
            return _num(v)
    if v and isinstance(v[0], tuple):  # votes: each hypothesis's count
        return f"{_count_text(len(v), 'hypothesis')}, counted " + ", ".join(str(c) for _, c in v[:12]) + (
            ", ..." if len(v) > 12 else "")
    if len(v) <= 8:
        return "(" + ", ".join(map(_shown_any, v)) + ")"
    apart = sorted(range(len(v)), key=lambda i: -abs(Fraction(v[i]) - Fraction(other[i])))[:3] \
        if isinstance(other, list) and len(other) == len(v) else []
    most = ", ".join(f"w[{i}] = {_shown_any(v[i])} (ours {_shown_any(other[i])})" for i in apart
                     if v[i] != other[i])
    return (f"({', '.join(map(_shown_any, v[:3]))}, ..., {', '.join(map(_shown_any, v[-2:]))}) [{len(v)} weights]"
            + (f"; most apart: {most}" if most else ""))


# --vectors DIR: a conformance corpus for any implementation, in any language: small CSV files, their options and
# the JSON this project writes (with --weights: w after every mistake), the same bytes on every run.

_XOR = "x1,x2,y\n0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n"
_NOISY = "x1,x2,y\n2,1,1\n-1,-2,-1\n1,-1,1\n-2,1,-1\n1,2,-1\n"
_CLASSES = "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n2,1,a\n-1,2,b\n"
_TIES = "x1,x2,y\n1,0,a\n1,0,b\n0,1,c\n"
_BITS = "x1,x2,x3,y\n1,0,1,1\n1,1,1,1\n0,1,1,-1\n1,1,0,-1\n0,0,0,-1\n1,0,0,-1\n"
_CASES = [  # name, about, data, options
    ("zero-score-sign", "w = 0 scores 0: under the sign rule (the default) a mistake only on a negative example, "
     "sign(0) = +1 (Columbia §1.1)", "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n", ["--weights"]),
    ("zero-score-margin", "the same data under the margin rule: every zero score is a mistake (Cornell §3; "
     "np.sign-style code)", "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n", ["--rule", "margin", "--weights"]),
    ("sign-of-zero", "a score of exactly 0 after an update, on a positive example: sign(0) = +1 = y, no mistake",
     "x1,x2,y\n1,1,-1\n1,-1,1\n2,0,1\n-1,1,-1\n", ["--weights"]),
    ("bias", "the constant feature 1 appended (Cornell §2): the bias is the last weight",
     "x,y\n2,1\n3,1\n1,-1\n0,-1\n", ["--bias", "--weights"]),
    ("labels-0-1", "labels 0/1 (Kalyanakrishnan §1), read as -1/+1; the trace names them as the file does",
     "x1,x2,y\n2,1,1\n-1,-2,0\n1,-1,1\n-2,1,0\n", ["--labels=0,1", "--weights"]),
    ("exact-fractions", "p/q and decimals read exactly (0.1 is 1/10): the weights are written \"p/q\"",
     "x1,x2,y\n1/2,0.1,1\n-1/3,0.25,-1\n2/3,-0.5,1\n-0.2,-1/7,-1\n", ["--exact", "--weights"]),
    ("float-summation-order", "summed left to right from 0, (1, 1, 1) scores (-1e16 + -1.0) + 1e16 = 0.0 against w "
     "= (-1e16, -1, 1e16), not a mistake; the exact score is -1, a mistake: sum in this order",
     "x1,x2,x3,y\n1e16,1.0,-1e16,-1\n1.0,1.0,1.0,1\n", ["--weights"]),
    ("not-separable", "XOR is not linearly separable (Cornell): the run stops at --max-epochs, not converged "
     "(exit status 1)", _XOR, ["--bias", "--max-epochs", "5", "--weights"]),
    ("pocket", "Gallant's pocket on XOR: the weights with the fewest training errors, pocketed only when strictly "
     "fewer", _XOR, ["--bias", "--pocket", "--max-epochs", "5", "--weights"]),
    ("multiclass-one-vs-rest", "one binary Perceptron per class (Kalyanakrishnan §4); the trace names each "
     "mistake's class", _CLASSES, ["--multiclass", "--weights"]),
    ("multiclass-joint", "the joint update: w(y) += x, w(guess) -= x (Collins 2002)", _CLASSES,
     ["--multiclass", "joint", "--weights"]),
    ("multiclass-ties-joint", "argmax ties go to the class that appears first in the file", _TIES,
     ["--multiclass", "joint", "--max-epochs", "3", "--weights"]),
    ("multiclass-ties-one-vs-rest", "every class's zero score under sign(0) = +1: each class's vector moves "
     "on its own", _TIES, ["--multiclass", "--max-epochs", "3", "--weights"]),
    ("average-after", "the mean of w after every example visited, over 3 passes (Collins 2002; scikit-learn's "
     "average=True)", _NOISY, ["--average", "after", "--epochs", "3", "--weights"]),
    ("average-before", "the mean of w before every example visited (nltk's AveragedPerceptron)", _NOISY,
     ["--average", "before", "--epochs", "3", "--weights"]),
    ("voted", "Freund and Schapire's voted perceptron: every w with the number of examples it stood for",
     _NOISY, ["--voted", "--epochs", "3", "--weights"]),
    ("dual", "the dual (Columbia §2.2, eq. (1)): every mistake stored; with the linear kernel its w is written",
     _NOISY, ["--kernel", "linear", "--epochs", "3"]),
    ("kernel-polynomial", "(a.b + 1)^2 separates XOR: the kernelized dual, eq. (2)", _XOR,
     ["--kernel", "polynomial:2"]),
    ("kernel-polynomial-homogeneous", "(a.b)^2, c = 0", _NOISY, ["--kernel", "polynomial:2:0", "--epochs", "3"]),
    ("kernel-monotone-conjunction", "2^|Ones(a, b)| (Columbia Claim 2.1) on bits: x1 and x3", _BITS,
     ["--kernel", "monotone-conjunction"]),
    ("kernel-all-conjunction", "2^same(a, b) on bits (Khardon, Roth and Servedio 2005)", _BITS,
     ["--kernel", "all-conjunction"]),
    ("kernel-conjunction-2", "the monotone conjunctions of at most 2 bits", _BITS, ["--kernel", "conjunction:2"]),
    ("kernel-gaussian", "exp(-|a - b|^2 / 2) on points 0 or 100 apart: every K is exactly 1.0 or 0.0 on any libm",
     "x1,x2,y\n0,0,-1\n0,100,1\n100,0,1\n100,100,-1\n0,0,-1\n", ["--kernel", "gaussian:1"]),
]


def _vectors_mode(args) -> int:
    """--vectors DIR: every case's data and expected JSON, and DIR/index.json, all or none, never among other files."""
    import json
    folder, index_path = args.vectors, os.path.join(args.vectors, "index.json")
    names = set(os.listdir(folder)) if os.path.lexists(folder) else set()  # (an error is main's to say)
    older = set()  # an older corpus's files: its index.json, if --vectors wrote it, and every file it lists
    try:
        doc = _json_file(index_path, "the index of a corpus")
        if isinstance(doc["perceptron"], str):  # (a name listed with a folder in it is none of the names here)
            older = {case[key] for case in doc["cases"] for key in ("data", "expected")} | {"index.json"}
    except (ValueError, LookupError, TypeError) as err:  # some other program's index.json
        if isinstance(err, _Located) and os.path.lexists(index_path):  # not to be read (a FIFO would block): said
            raise
    if names - older:
        raise PerceptronError(f"{folder}: the folder holds other files ({_short(min(names - older))}, ...): give "
                              "--vectors a new or empty folder, or one that holds an older corpus")
    files, index = {}, []
    for name, about, text, options in _CASES:
        data, expected = f"{name}.csv", f"{name}.json"
        report, _ = _train_report(_arguments([data, "--json", *options]), text.encode("utf-8"), shown_as=data,
                                  so_far=False)
        files[os.path.join(folder, data)], files[os.path.join(folder, expected)] = text, _json(report) + "\n"
        index.append({"name": name, "about": about, "data": data, "options": options, "expected": expected})
    doc = {"perceptron": __version__, "command": "python3 perceptron.py DATA --json OPTIONS, inside this folder; "
           "the JSON equals EXPECTED but for its 'input' field", "cases": index}
    files[index_path] = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"  # last: a corpus with an index is whole
    _write_files(files, folder=folder, first_remove=index_path,
                 report=lambda: _emit(f"{len(index)} cases written to {folder} (index.json lists them)", held=True))
    return 0

# --conform 'COMMAND': the oracle drives another implementation, as CPython's deccheck drives _decimal beside
# _pydecimal: designed cases, then seeded random ones, each a CSV file {data} COMMAND reads, checked in process
# (_verdict); the options under which THEIRS agrees on the most cases are its reading; any other case is a bug.
_DESIGNED = (  # (what the case makes show, its data: a header, then an example a row, the label last)
    ("a zero score on each label at w = 0", "x1,x2,y 1,0,1 0,1,-1 1,1,1 -1,-2,-1"),
    ("the first and the last example a mistake", "x1,x2,y 3,1,-1 -1,3,1 0,-3,-1 -3,3,1 2,2,1"),
    ("a bias that matters", "x,y 1,1 2,1 3,-1 4,-1"),
    ("a rate", "x1,x2,y 0.5,1.5,1 -1.25,0.5,-1 2,-0.75,1 -0.5,-1,-1"),
    ("repeated and all-zero examples", "x1,x2,y 1,2,1 1,2,1 0,0,1 -1,-1,-1 1,2,1 0,0,1"),
    ("data that is not separable", _NOISY),
    ("ints near 2^31: int32 wraps, binary32 rounds", "x1,x2,y 2147483647,1,-1 1,2147483647,1 3,-5,-1"),
    ("ints near 2^53: binary64 rounds, int64 wraps", "x1,x2,y 9007199254740993,1,-1 1,9007199254740993,1 3,-5,-1"),
    ("floats near 1e16: the order of a sum", "x1,x2,x3,y 1e16,1.0,-1e16,-1 1.0,1.0,1.0,1"))
_DESIGNED_CLASSES = (("ties between classes", _TIES), ("classes", _CLASSES),
                     ("classes that are not separable", "x1,x2,y 1,0,a 1,0,b 0,1,c 2,1,a"))
_CONFORM_CASES = 40  # the cases by default: about a minute for an implementation that answers in 50 ms
_CONFORM_LIMIT = 10.0  # the seconds a run may take until one answers; then 20 times the median answer, at least 2
_DIAGNOSED = 8  # the most cases diagnosed whole (a diagnosis that searches takes seconds); the rest are compared
_SHRINK_RUNS = 60  # the most runs of COMMAND that shrinking one bug takes (and a third of it, diagnoses)


def _conform_mode(args) -> int:
    """--conform COMMAND: what THEIRS is on the cases (its options, its arithmetic), each bug shrunk to a witness."""
    import collections, itertools, random, re, shlex, shutil, tempfile, time
    command, count, began = args.conform, args.conform_cases or _CONFORM_CASES, time.monotonic()
    if "{data}" not in command:
        raise PerceptronError("--conform: COMMAND has no {data}, the path of the CSV file it reads")
    seed = random.SystemRandom().randrange(10 ** 6) if args.conform_seed is None else args.conform_seed
    folder, stopped = tempfile.mkdtemp(prefix="perceptron-conform-"), None  # type: str, BaseException | None
    def options(reading, file="DATA.csv", check="THEIRS.json"):  # a reading's command line (its key)
        variant = type(reading)(**{**vars(reading), "file": file, "check": check})
        return _named(variant, [], [])[-1][len("reproduce it: "):]
    def checked(case, reading, diagnose=False, prefer=None):  # (status, lines, reading); 2 where --check refuses it
        variant = type(reading)(**{**vars(reading), "file": case["data"], "check": case["theirs"]})
        try:
            return _verdict(variant, diagnose, prefer)
        except Exception as err:  # bad JSON, a field of the wrong kind: in --check's words, under the options given
            case["failure"] = case["failure"] if reading is not args else (
                f"--check refuses it: {str(err).replace(case['theirs'] + ': ', '')}" if isinstance(err, PerceptronError)
                else f"the check failed (please report it): {type(err).__name__}: {_reason(err)}")
            return 2, [], None
    def gist(lines):  # a diagnosis in a few words: "a bug in THEIRS", "unexplained", ...; "" if none
        return "".join(re.split(r"[:;(.]", line[len("diagnosis: "):])[0].strip() for line in lines[1:2])
    def shape(rows):
        return f"{_count_text(len(rows), 'example')} of {_count_text(len(rows[0]) - 1, 'feature')}"
    def witness(case):  # its data (and THEIRS) as new files here, each created, never over a file that exists
        ends, made = ("csv", "json")[:2 - bool(case["failure"])], []  # type: tuple, list
        n = next(n for n in itertools.count(1) if not any(os.path.lexists(f"conform-{n}.{end}") for end in ends))
        try:
            with _Held():
                for source, end in zip((case["data"], case["theirs"]), ends):
                    with open(source, "rb") as f, open(f"conform-{n}.{end}", "xb") as out:
                        made.append(out.name)
                        out.write(f.read())
            return made
        except OSError as err:  # (one made since, by another program: not replaced)
            for name in made:
                os.unlink(name)
            return [f"(not written: {err.strerror or err})"] * 2
    def agrees(case, key):  # THEIRS's agreement with the reading on the case (its first line), or False
        status, lines, _ = (2, [], None) if case["failure"] else checked(case, readings[key][0])
        case["under"][key] = status == 0 and lines[0]
        return case["under"][key]
    base, cases, bugs, budget = options(args), [], {}, iter([True] * _DIAGNOSED)  # type: str, list, dict, Any
    readings, chosen = {base: (args, [])}, base  # type: dict, str
    try:  # the folder goes, whatever happens; a limit of the machine is one line, exit 2
        try:
            for name, rows in _conform_cases(args, seed, count):
                times = sorted(case["seconds"] for case in cases if not case["failure"])
                limit = max(2.0, 20 * times[len(times) // 2]) if times else _CONFORM_LIMIT
                cases.append(case := dict(_conform_run(args, folder, rows, limit), name=name))
                if not case["failure"] and not any(agrees(case, key) for key in list(readings)):  # else a new one?
                    case["status"], case["lines"], case["own"] = checked(case, args, next(budget, False))
                    if case["own"] is not None:
                        readings.setdefault(options(case["own"]), (case["own"], case["lines"]))
                        case["under"][options(case["own"])] = True  # its words read below
            judged, budget = [case for case in cases if not case["failure"]], iter([True] * _DIAGNOSED)
            ranked = sorted(readings, key=lambda key: -sum(bool(case["under"].get(key)) for case in judged))[:3]
            for key in ranked:  # the likeliest readings, each on every case
                for case in filter(lambda case: case["under"].get(key) in (None, True), judged):
                    agrees(case, key)
            chosen = min(ranked, key=lambda key: (-sum(bool(case["under"][key]) for case in judged), len(key)))
            reading = readings[chosen][0]
            for case in filter(lambda case: not case["under"][chosen], judged):  # bugs, or ties that rounding breaks
                if chosen != base or not case["lines"]:
                    case["status"], case["lines"], case["own"] = checked(case, reading, next(budget, False))
                said = "a reading of its own: " * (case["own"] is not None) + gist(case["lines"])
                case["under"][chosen] = case["status"] == 0 and case["lines"][0] or said.startswith(
                    "a tie broken by rounding") and said  # agreeing as written, or up to rounding
                if not case["under"][chosen]:
                    bugs.setdefault(said, []).append(case)
            top = max((said for said in bugs if said.startswith("a bug in THEIRS")), key=lambda said: len(bugs[said]),
                      default=None)  # the bug of most cases: where another case's data fits it too, it is read so
            common = next((one for one in _SHAPES if one in bugs[top][0]["lines"][1]), "") if top else ""
            regrouped: dict = {}  # bound to bugs at once: a Ctrl-C before leaves the groups as they were
            for said, group in bugs.items():
                for case in group:
                    lines = common and said != top and checked(case, reading, False, common)[1]  # that shape, or []
                    case["lines"] = lines or case["lines"]
                    regrouped.setdefault(top if lines else said, []).append(case)
            bugs = {said: sorted(group, key=cases.index) for said, group in regrouped.items()}
            for said, group in list(bugs.items())[:3]:  # each bug shrunk to where it shows under every reading
                first, found, others = group[0], {}, [one for one, _ in readings.values()]
                runs, diagnoses = iter(range(_SHRINK_RUNS)), iter(range(_SHRINK_RUNS // 3))
                def shows(rows):  # whether COMMAND's run on rows differs under every reading, and in the same words
                    trial = next(runs, None) is not None and _conform_run(args, folder, rows, min(
                        _CONFORM_LIMIT, 1 + 4 * first["seconds"]))
                    if trial and not trial["failure"] and all(checked(trial, one)[0] == 1 for one in others) and \
                            next(diagnoses, None) is not None:
                        trial["lines"] = checked(trial, reading, True)[1]
                        found[repr(rows)] = gist(trial["lines"]) == gist(first["lines"]) and trial
                    return bool(found.get(repr(rows)))
                if said:
                    first["shrunk"] = found.get(repr(_conform_shrunk(first["rows"], shows))) or first
        except KeyboardInterrupt as err:
            stopped = err
        failed = [case for case in cases if case["failure"]]
        agreeing, (reading, described) = [case for case in cases if case["under"].get(chosen)], readings[chosen]
        status, designed = int(chosen != base or len(agreeing) < count), sum(not case["name"].startswith("random")
                                                                             for case in cases)
        parts = [gist(described)] * (chosen != base) + [f"{said} on {_count_text(len(group), 'case')}" if said else
            f"{_count_text(len(group), 'more case')} differing, not diagnosed" for said, group in bugs.items()] + [
            f"no run on {_count_text(len(failed), 'case')}"] * bool(failed) + [
            f"interrupted after {_count_text(len(cases), 'case')}"] * bool(stopped)
        lines = [f"conform: {shlex.quote(command)} on {_count_text(len(cases), 'case')} ({designed} designed, "
                 f"{len(cases) - designed} random, seed {seed}) in {time.monotonic() - began:.1f} s: "
                 + ("differs: " + "; ".join(parts) if status else "agrees on every case")]
        if agreeing:
            on = "every case" if len(agreeing) == len(cases) else f"{len(agreeing)} of the {len(cases)} cases"
            lines.append(f"THEIRS, on {on}: " + (described[1][len("diagnosis: "):] if chosen != base else
                                                  "this project's run, with the options given"))
            lines += [line for line in itertools.takewhile(lambda line: not line.startswith("reproduce it:"),
                                                           described[2:]) if not line.startswith("  (or equally")]
            lines.append("reproduce it: " + shlex.join(["python3", "perceptron.py", *shlex.split(chosen)[3:-2],
                                                        "--conform", command, f"--conform-seed={seed}",
                                                        f"--conform-cases={count}"]))
            said = collections.Counter("under what it declares" if "under what it declares" in case["under"][chosen]
                                       else case["under"][chosen].rsplit("; ", 1)[-1].split(":")[0]
                                       for case in agreeing)
            lines.append("its arithmetic: " + ", ".join(f"{k} ({_count_text(n, 'case')})" for k, n in said.items()))
        for said, group in bugs.items():
            first, shrunk = group[0], group[0].get("shrunk")
            lines.append((said or f"differs, past the {_DIAGNOSED} cases diagnosed") + f", on case "
                         f"{cases.index(first) + 1} ({first['name']})" + ", and on " * bool(group[1:])
                         + ", ".join(str(cases.index(case) + 1) for case in group[1:]))
            if shrunk:
                files = witness(shrunk)
                lines += [f"  shrunk from {shape(first['rows'])} to {shape(shrunk['rows'])}: {files[0]}",
                          *("  " + line.replace(shrunk["data"], files[0]).replace(shrunk["theirs"], files[1])
                            for line in shrunk["lines"][1:]), "  show it: " + options(reading, *files)]
        for case in failed:
            lines += [f"no run on case {cases.index(case) + 1} ({case['name']}): {case['failure']}; its data: "
                      f"{witness(case)[0]}", *(f"  its standard error: {line}" for line in case["stderr"])]
        _emit("\n".join(lines))
    except OSError as err:
        raise PerceptronError(f"--conform: cannot run the cases: {err.strerror or err}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 143 if isinstance(stopped, _Terminated) else 130 if stopped else status


def _conform_cases(args, seed, count):
    """(what each case makes show, its rows, the label last): the designed ones, then ``seed``'s random ones."""
    import random
    designed = _DESIGNED + (_DESIGNED_CLASSES if args.multiclass else ())
    for name, text in designed[:count]:
        yield name, [line.split(",") for line in text.split()[1:]]
    rng, classes = random.Random(seed), ("a", "b", "c") if args.multiclass else ("-1", "1")
    for k in range(len(designed), count):
        n, d, floats, separable = rng.randint(2, 10), rng.randint(1, 3), rng.random() < 0.5, rng.random() < 0.7
        xs = [[f"{rng.uniform(-9, 9):.2f}" if floats else str(rng.randint(-9, 9)) for _ in range(d)] for _ in range(n)]
        ws = [[rng.randint(-3, 3) for _ in range(d)] for _ in classes]
        scores = [[sum(a * float(v) for a, v in zip(w, x)) for w in ws] for x in xs]
        ys = [(classes[s.index(max(s))] if args.multiclass else classes[s[0] > 0]) if separable else rng.choice(classes)
              for s in scores]
        ys[0] = classes[classes.index(ys[0]) - (len(set(ys)) == 1 and bool(args.multiclass))]  # classes: two or more
        yield (f"random, {_count_text(n, 'example')} of {_count_text(d, 'float' if floats else 'int')}, "
               f"labelled {'by a w*' if separable else 'at random'}"), [x + [y] for x, y in zip(xs, ys)]


def _conform_run(args, folder, rows, limit) -> dict:
    """COMMAND once through the shell on ``rows`` in ``folder``, no stdin; past ``limit`` s, all it started killed."""
    import contextlib, resource, shlex, signal, subprocess, time
    stem = os.path.join(folder, str(len(os.listdir(folder))))
    data, out, printed, errors = (stem + end for end in (".csv", ".json", ".out", ".err"))
    command, names, began = args.conform, {"-1": str(args.labels[0]), "1": str(args.labels[1])}, time.monotonic()
    with open(data, "w", encoding="utf-8") as f:
        f.write("\n".join([",".join([f"x{j}" for j in range(1, len(rows[0]))] + ["y"])] + [
            ",".join(row[:-1] + [names.get(row[-1], row[-1])]) for row in rows]) + "\n")
    hard = resource.getrlimit(resource.RLIMIT_FSIZE)[1]  # no file past what --check reads (SIGXFSZ), nor the user's
    size = (hard, _JSON_LIMIT)[hard == resource.RLIM_INFINITY or hard > _JSON_LIMIT]
    with open(printed, "wb") as stdout, open(errors, "wb") as stderr:
        child = subprocess.Popen(command.replace("{data}", shlex.quote(data)).replace("{out}", shlex.quote(out)),
                                 shell=True, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                 start_new_session=True, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE,
                                                                                               (size, hard)))
        try:
            failure, code = None, child.wait(limit)  # an exit status not 0 with THEIRS written: judged (not converged)
        except subprocess.TimeoutExpired:
            failure = f"past the time limit of {limit:.3g} s: stopped"
        finally:
            with contextlib.suppress(OSError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    theirs = out if "{out}" in command else printed
    if not failure and (code < 0 or not (os.path.isfile(theirs) and os.path.getsize(theirs))):
        failure = f"it ended by signal {-code}" if code < 0 else "it wrote nothing" + " to {out}" * (
            "{out}" in command) + f", exit status {code}" * bool(code)
    with open(errors, "rb") as f:
        f.seek(max(0, os.path.getsize(errors) - 600))
        tail = f.read().decode("utf-8", "replace").splitlines()[-3:]
    return {"rows": rows, "data": data, "theirs": theirs, "seconds": time.monotonic() - began,
            "failure": failure or None, "stderr": tail, "under": {}, "lines": [], "own": None, "status": 1}


def _conform_shrunk(rows, shows) -> list:
    """The smallest rows that shows(rows): fewest examples (ddmin, Zeller and Hildebrandt 2002), features, numbers."""
    import itertools
    def smaller(cell):  # 0, then 1 (of its sign), then half, each only if it is smaller
        v = float(cell)
        return [t for t in dict.fromkeys(("0", "-1" if v < 0 else "1", str(int(v / 2)))) if abs(float(t)) < abs(v)]
    size = len(rows) // 2
    while size:  # a chunk of examples left out; the chunks halve down to one example
        kept = next((kept for i in range(0, len(rows), size) if shows(kept := rows[:i] + rows[i + size:])), None)
        rows, size = (kept, min(size, len(kept) // 2)) if kept else (rows, size // 2)
    for j in reversed(range(len(rows[0]) - 1)):  # a feature left out, while one stays
        if len(rows[0]) > 2 and shows(fewer := [row[:j] + row[j + 1:] for row in rows]):
            rows = fewer
    for i, j in itertools.product(range(len(rows)), range(len(rows[0]) - 1)):  # each number smaller while it shows
        while trial := next(filter(shows, ([*rows[:i], rows[i][:j] + [t] + rows[i][j + 1:], *rows[i + 1:]]
                                           for t in smaller(rows[i][j]))), None):
            rows = trial
    return rows


_MODES = (("vectors", _vectors_mode), ("model", _model_mode), ("conform", _conform_mode), ("check", _check_mode),
          (None, _train_mode))


# A picture of a run (SVG), as Columbia §1.1 draws one (svg says what), on the "simple data sets in two dimensions" of
# Kalyanakrishnan §2, on which the hyperplane "tilts" in response to errors.  Exact (Fractions) up to the pixels: a
# line's data-from and data-to ("p/q") satisfy w.(x, y) (+ b) = 0.
_PLOT, _EDGE = 440, 30  # the square plot and the space around it, in pixels
_DRAWN, _NUMBERED, _CELLS = 10, 30, 40  # hypotheses drawn before the current one, examples numbered, a grid's side
_XML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def _xml(text) -> str:
    """Text for XML 1.0 and HTML: markup as entities; what XML 1.0 cannot hold as its escape (\\x01, \\x1b, \\ufffe)."""
    return "".join(c if c in "\t\n" or " " <= c < "\x7f" or c >= "\xa0" and not ("\ud800" <= c < "\ue000" or "\ufdd0"
                   <= c < "\ufdf0" or ord(c) & 0xFFFE == 0xFFFE) else ascii(c)[1:-1] for c in text).translate(_XML)


def svg(run: Run, examples: Iterable[Example], *, w_star: Vector | None = None, upto: int | None = None,
        names: Sequence[str] | None = None) -> str:
    """An SVG picture of a binary run on the two-feature examples it was trained on, as Columbia §1.1 draws it, after
    its ``upto``-th mistake (0: w = 0; default: all, with the pocket's w and the average): + for y = +1, o for y = -1;
    ``w_star`` the target, solid; w dashed; the 10 hypotheses before, numbered.  A kernel run: the sign of eq. (2)."""
    if not isinstance(run, Run):
        raise PerceptronError(f"svg draws a Run of train(), not {_short(run)}")
    kept = _Data(examples, keep=True).examples
    if w_star is not None and (run.w is None or len(w_star := _vector(w_star, None, "w_star")) != 2 + run.bias):
        raise PerceptronError(f"svg: w_star is drawn beside explicit weights, as {2 + run.bias} numbers")
    if names is not None and (not isinstance(names, (list, tuple)) or list(map(type, names)) != [str, str]):
        raise PerceptronError(f"svg: names = {_short(names)} is not two strings")
    return _draw(run, kept, _weights_after(run, kept, d=2), w_star, upto, names)


def _weights_after(run, examples, d=None) -> list:
    """What is drawn after each mistake: w; a kernel run's, eq. (2)'s sign on a grid.  ``d``: the features required."""
    import re
    n = len(examples[0][0]) if examples else 0
    if d is not None and n != d:
        raise PerceptronError(f"svg draws examples with {d} features; these have {n}")
    if run.multiclass is not None or run.trace is None:
        raise PerceptronError("svg draws a binary run that kept its trace")
    after = []  # the run made again: it must make the same trace
    again = train(examples, rule=run.rule, bias=run.bias, epochs=max(run.epochs, 1), kernel=None if run.w is not None
                  else run.model.kernel, on_mistake=lambda m, model: after.append(_explicit(model)),
                  **_beyond(run.conventions or Conventions(bias=run.bias)))  # under the conventions that ran
    if again.trace[:len(run.trace)] != list(run.trace):
        raise PerceptronError("the examples are not those the run was trained on: its trace differs")
    if run.w is not None:
        return after[:len(run.trace)]
    x0, x1, y0, y1 = _axes([[Fraction(c) for c in x] for x, _ in examples], ("", ""))[0]
    zero = (run.conventions or _NOTES).zero
    grid = [(x0 + (x1 - x0) * (2 * i + 1) / (2 * _CELLS), y1 - (y1 - y0) * (2 * j + 1) / (2 * _CELLS))
            for j in range(_CELLS) for i in range(_CELLS)]
    for points in (grid, [tuple(int(2 * c >= 1) for c in point) for point in grid]):
        try:  # each point once
            scores = {point: run._prefix_scores(point) for point in points}
        except (ValueError, TypeError, ArithmeticError):  # the kernel refuses the point (a kernel of bits)
            continue
        def row(j, k):  # row j's signs after k mistakes: a zero score's is the run's sign(0) (--zero)
            return "".join("+-"[scores[point][k] < 0 or scores[point][k] == 0 and zero < 0]
                           for point in points[j * _CELLS:(j + 1) * _CELLS])
        size = _PLOT / _CELLS
        return [f'<g class="regions"><rect x="{_EDGE}" y="{_EDGE}" width="{_PLOT}" height="{_PLOT}" fill="#d6e6fa"/>'
                + "".join(f'<rect x="{_EDGE + m.start() * size:g}" y="{_EDGE + j * size:g}" width="{len(m[0]) * size:g}'
                          f'" height="{size:g}" fill="#fbe0c4"/>' for j in range(_CELLS)
                          for m in re.finditer("-+", row(j, k)))
                + "</g>" for k in range(1, run.mistakes + 1)]
    return [""] * run.mistakes


def _draw(run, examples, after, v=None, upto=None, names=None) -> str:
    """The picture after the run's k-th mistake (upto; None: all, with the pocket and the average), as svg says."""
    k, M = len(after) if upto is None else upto, len(after)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= M:
        raise PerceptronError(f"upto = {_short(upto)} is not between 0 and the {M} mistakes")
    xs = [[Fraction(c) for c in x] for x, _ in examples]
    box, to_px, axes = _axes(xs, names or ("x1", "x2"))
    this, kernel = run.trace[k - 1] if k else Mistake(0, None, 1, 0), run.w is None  # mistake k (k = 0: none)
    taken, marks, rings = [], [], []  # the boxes no label may overprint; each example's mark (+ or o), its ring
    grey = {m.index for m in run.trace[:k]} if kernel else ()
    for i, ((_, y), x) in enumerate(zip(examples, xs)):
        px, py = to_px(*x)
        taken.append((px - 6, py - 6, px + 6, py + 6))
        shape = (f'<path d="M{px - 5:.2f},{py:.2f} H{px + 5:.2f} M{px:.2f},{py - 5:.2f} V{py + 5:.2f}" stroke="#000" '
                 'stroke-width="2"/>' if y == 1 else
                 f'<circle cx="{px:.2f}" cy="{py:.2f}" r="4.5" fill="none" stroke="#000" stroke-width="1.5"/>')
        if len(examples) <= _NUMBERED:
            taken.append((px + 6, py - 16, px + 8 + 6.5 * len(str(i)), py - 4))
            shape += f'<text class="index" x="{px + 7:.2f}" y="{py - 6:.2f}">{i}</text>'
        marks.append(f'<g class="example" data-index="{i}" data-y="{y:+d}">{shape}</g>')
        if i == this.index or i in grey:
            taken.append((px - 10, py - 10, px + 10, py + 10))
            rings.append(f'<circle class="ring" data-index="{i}" cx="{px:.2f}" cy="{py:.2f}" r="9" fill="none" '
                         f'stroke="{"#d33" if i == this.index else "#999"}" stroke-width="1.5"/>')
    p = run.conventions or Conventions(bias=run.bias)  # the conventions that ran, each named by its option
    parts, legend = [axes], [
        f"rule: {run.rule} · bias: {'yes' if run.bias else 'no'} · {_count_text(run.mistakes, 'mistake')} · "
        f"{_count_text(run.epochs, 'pass')} · {'converged' if run.converged else 'not converged'}",
        *[f"conventions: {' '.join(_option(field, value) for field, value in _beyond(p).items())}"] * bool(_beyond(p)),
        "+ is y = +1 · o is y = -1" + (", numbered by index (from 0)" if len(xs) <= _NUMBERED else "")]
    def add(*drawn, lead=""):  # (part, its words): the parts drawn, in order, and their words as a line of the legend
        words = [text for part, text in drawn if part]
        parts.extend(part for part, _ in drawn if part)
        legend.extend((lead + " · ".join(words)).split("\n") if words else [])
    if kernel:
        add((k and after[k - 1], f"blue: sum_j y_j K(x_j, x) {'>' if p.zero < 0 else '>='} 0 (Columbia §2.3, eq. "
             f"(2)), orange: {'<=' if p.zero < 0 else '<'} 0,\n"
             "  x: each cell's centre (for a kernel of bits, its nearest corner of {0,1}^2)"))
        parts.insert(0, parts.pop())  # under the grid
    else:
        def plane(u):  # u as a x + b y + c, the line a hyperplane draws: its bias last, times its feature (Cornell §2)
            u = [*u[1:], u[0]] if p.bias and p.bias_first else u
            return u if not p.bias or p.bias_feature == 1 else [*u[:2], u[2] * p.bias_feature]
        after, v, w0 = [plane(u) for u in after], v and plane(v), plane(p.start) if p.start else [0, 0]
        w, before = (after[k - 1], after[k - 2] if k > 1 else w0) if k else (w0, w0)
        add((v is not None and _hyperplane(v, box, to_px, "target", 'stroke="#8fb3e3" stroke-width="5"'),
             "solid blue: the target, w*.x = 0"))
        earlier = [_hyperplane(after[n - 1], box, to_px, "hypothesis", 'stroke="#999" stroke-dasharray="5 4"', n, taken)
                   for n in range(k - 1, max(k - 1 - _DRAWN, 0), -1)]  # numbered from the last back; "": off the box
        add(("\n".join(filter(None, earlier[::-1])),
             f"grey dashes n: w after mistake n{f' (the last {_DRAWN})' * (k > _DRAWN + 1)}"))
        kept = (("pocket", run.pocket and plane(run.pocket.w), "#1a8a4a", "9 3 2 3", "green dash-dot: the pocket's w"),
                ("average", run.average and plane(run.average), "#9a2a9a", "1 3", "purple dots: the average"))
        add(*[(upto is None and u is not None and _hyperplane(u, box, to_px, name, f'stroke="{colour}" '
               f'stroke-dasharray="{dashes}"'), words) for name, u, colour, dashes, words in kept])
        add(((k or p.start) and _hyperplane(w, box, to_px, "hypothesis final", 'stroke="#000" stroke-width="2" '
                                            'stroke-dasharray="8 5"', mistake=k),
             f"black dashes: w after mistake {k}{' (the last)' * (k == M)}" if k else "black dashes: w at the start"))
        tips = [[Fraction(c) for c in u[:2]] for u in (before, w, v or [0, 0])]  # one scale: lengths compare
        reach = (min(map(abs, box)) or (box[1] - box[0]) / 4) * Fraction(9, 10)
        scale = min([Fraction(1)] + [reach / max(map(abs, tip)) for tip in tips if any(tip)])
        before, w, v = ([c * scale for c in tip] for tip in tips)
        arrows, plus = [], "+" if this.y > 0 else "-"  # each from start to tip, named beyond its head where free
        moved = {"rate", "falling", "step", "decay", "bias_rate", "batch", "batch_size"} & set(_beyond(p))
        for cls, start, tip, colour, name, words in (("w-vector", (0, 0), w, "#000", "w", "w dashed"), (
                "move", before if k > 1 or p.start else w, w, "#d33", "move" if moved else plus + "x",
                "the move of w at the update red" if moved else f"the move w -> w {plus} x red"),
                ("v-vector", (0, 0), v, "#1f5fbf", "v", "v = w* blue")):
            (p0, q0), (p1, q1) = to_px(*start), to_px(*tip)
            dxs = (4, -4 - 6.5 * len(name)) if p1 >= p0 else (-4 - 6.5 * len(name), 4)  # else beside it
            spots = [(p1 + dx, q1 + dy * (1 if q1 >= q0 else -1)) for dy in (12, -4, 24, -16, 36, -28) for dx in dxs]
            at = list(start) != list(tip) and (_place(spots, name, taken) or spots[0])  # always named (none: no length)
            dashes = ' stroke-dasharray="5 3"' * (cls == "w-vector")
            arrows.append((at and f'<g class="{cls}"><line x1="{p0:.2f}" y1="{q0:.2f}" x2="{p1:.2f}" y2="{q1:.2f}" '
                           f'stroke="{colour}" stroke-width="1.5"{dashes} marker-end="url(#head)"/><text class="name" '
                           f'x="{at[0]:.2f}" y="{at[1]:.2f}" fill="{colour}">{name}</text></g>', words))
        add(*arrows, lead=f"arrows{' (scaled alike)' * (scale < 1)}: ")
    parts.append("\n".join(rings + marks))
    legend += ([f"{'grey rings: the stored x_j · ' * kernel}red ring: x of mistake {k} (index {this.index})"] if k
               else [f"w = {_num(p.start)}, the start (--start): no mistake yet" if p.start else
                     "w = 0, no mistake yet: no hyperplane (Columbia §1.1)"])
    return _svg(f"the run after mistake {k}" if k else "w at the start, before any mistake" if p.start else
                "w = 0, before any mistake", parts, legend)


def _svg(title, parts, legend) -> str:
    """A picture: a plot of _PLOT pixels square (its parts), its title, and its legend under it, the first line dark."""
    side, height = _PLOT + 2 * _EDGE, _PLOT + 2 * _EDGE + 4 + 16 * len(legend)
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{height}" viewBox="0 0 {side} {height}" '
        'font-family="sans-serif" font-size="11">', f"<title>The Perceptron: {_xml(title)}</title>",
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>',
        f'<rect x="{_EDGE}" y="{_EDGE}" width="{_PLOT}" height="{_PLOT}" fill="#fff" stroke="#bbb"/>', *parts,
        *(f'<text class="{"legend" if n else "caption"}" x="{_EDGE}" y="{side + 6 + 16 * n}" '
          f'fill="{"#555" if n else "#000"}">{_xml(text)}</text>' for n, text in enumerate(legend)), "</svg>\n"])


def _axes(xs, names):
    """(box, to_px, drawing): the square around the examples and the origin, a point's pixels, the grid and axes."""
    columns = [[Fraction(0)] + [x[i] for x in xs] for i in (0, 1)]
    half = (max(max(c) - min(c) for c in columns) or Fraction(2)) * Fraction(6, 10)  # the span and a tenth each side
    cx, cy = ((min(c) + max(c)) / 2 for c in columns)
    x0, x1, y0, y1 = box = (cx - half, cx + half, cy - half, cy + half)
    def to_px(x, y):
        return (_EDGE + float((x - x0) / (x1 - x0)) * _PLOT, _EDGE + float((y1 - y) / (y1 - y0)) * _PLOT)
    lines, step = [], Fraction(1)  # a power of 10: more than 1.2 lines and at most 12 across the (square) box
    while 2 * half / step > 12:
        step *= 10
    while 2 * half / step <= 1.2:
        step /= 10
    for axis, (lo, hi) in enumerate(((x0, x1), (y0, y1))):
        for t in (n * step for n in range(-(-lo // step), hi // step + 1)):  # the multiples of step from lo to hi
            a, b = (to_px(t, y0), to_px(t, y1)) if axis == 0 else (to_px(x0, t), to_px(x1, t))
            lines.append(f'<line class="{"axis" if t == 0 else "grid"}" x1="{a[0]:.2f}" y1="{a[1]:.2f}" '
                         f'x2="{b[0]:.2f}" y2="{b[1]:.2f}" stroke="{"#999" if t == 0 else "#eee"}"/>')
            value = (str(t.numerator) if t.denominator == 1 and abs(t.numerator) < 10 ** 15  # else 6 digits (1e+4300)
                     else format(decimal.Context(prec=6).divide(decimal.Decimal(t.numerator), t.denominator), "g"))
            at = (a[0] - 4, a[1] + 12) if axis == 0 else (_EDGE - 26, b[1] + 3)  # below the plot; left of it
            lines.append(f'<text class="tick" x="{at[0]:.2f}" y="{at[1]:.2f}" font-size="9" fill="#777">{value}</text>')
    (px, py), (qx, qy) = to_px(x1, 0), to_px(0, y1)
    lines += [f'<text class="axis-name" x="{px - 4:.2f}" y="{py - 5:.2f}" text-anchor="end" fill="#555">'
              f'{_xml(names[0])}</text>', f'<text class="axis-name" x="{qx + 5:.2f}" y="{qy + 12:.2f}" '
              f'fill="#555">{_xml(names[1])}</text>']
    return box, to_px, "\n".join(lines)


def _hyperplane(w, box, to_px, cls, style, mistake=None, taken=None) -> str:
    """The line w.(x, y) (+ b) = 0 within the box, numbered by its mistake where free if ``taken``; "" if it misses."""
    w = [Fraction(v) for v in w]
    (a, b, c), (x0, x1, y0, y1) = (w + [0])[:3], box
    crossings = {(X, -(a * X + c) / b) for X in (x0, x1) if b} | {(-(b * Y + c) / a, Y) for Y in (y0, y1) if a}
    ends = sorted(p for p in crossings if x0 <= p[0] <= x1 and y0 <= p[1] <= y1)  # where it crosses the box's sides
    if len(ends) < 2:  # it misses the box, or touches a corner (a set: the ends are distinct)
        return ""
    (p1, q1), (p2, q2) = to_px(*ends[0]), to_px(*ends[-1])
    at = taken is not None and _place([(p1 + t * (p2 - p1) + 4, q1 + t * (q2 - q1) - 4) for t in (
        0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4)], str(mistake), taken)  # near the ends first: lines part there
    return (f'<g class="{cls}" data-w="{",".join(_num(v, ratio=True) for v in w)}"'
            + ("" if mistake is None else f' data-mistake="{mistake}"') + f'><line x1="{p1:.2f}" y1="{q1:.2f}" '
            f'x2="{p2:.2f}" y2="{q2:.2f}" {style} data-from="{",".join(_num(v, ratio=True) for v in ends[0])}" '
            f'data-to="{",".join(_num(v, ratio=True) for v in ends[-1])}"/>'
            + (f'<text class="step" x="{at[0]:.2f}" y="{at[1]:.2f}" fill="#777">{mistake}</text>' if at else "")
            + "</g>")


def _place(spots, text, taken):
    """The first spot (a text's baseline start) where text fits in the plot over no box taken, then taken; or None."""
    for x, y in spots:
        box = (x - 1, y - 10, x + 6.5 * len(text) + 1, y + 2)
        if (_EDGE <= box[0] and box[2] <= _EDGE + _PLOT and _EDGE <= box[1] and box[3] <= _EDGE + _PLOT
                and not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken)):
            taken.append(box)
            return x, y
    return None


_STYLE = """body { font: 14px/1.4 sans-serif; margin: 1em 2em } .frame[hidden] { display: none }
pre { background: #f4f4f4; padding: .6em; white-space: pre-wrap } .frame pre { flex: 1; min-width: 30em; margin: 0 }
.frame, .proof { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start }"""
_SCRIPT = """const steps = document.querySelectorAll("div.frame"), at = document.getElementById("at");
function show(k) {
  at.value = k = Math.max(0, Math.min(steps.length - 1, k));
  steps.forEach((step, i) => { step.hidden = i !== k; });
  document.getElementById("shown").textContent = steps[k].dataset.title;
}
at.oninput = () => show(+at.value);
at.onkeydown = event => event.stopPropagation();  // the slider moves itself
onkeydown = event => { const move = {ArrowLeft: -1, ArrowRight: 1}[event.key]; if (move) show(+at.value + move); };
show(0);"""


def _pictures(report, examples) -> dict:
    """{path: text} of --svg, --svg-steps (step-0.svg at w = 0, then one a mistake), --html (nothing fetched)."""
    args, run = report.args, report.run
    pictured = args.svg or args.svg_steps
    after = (_weights_after(run, examples, 2 if pictured else None) if pictured or args.html and
             run.multiclass is None and (report.data.d == 2 or report.bound) else None)
    draw = functools.partial(_draw, run, examples, after, report.bound and report.bound[3], names=report.data.names)
    files = {args.svg: draw(None)} if args.svg else {}  # None: all the mistakes drawn
    for k in range(run.mistakes + 1) if args.svg_steps else ():  # step-0.svg ...: in the order of their names
        files[os.path.join(args.svg_steps, f"step-{k:0{len(str(run.mistakes))}d}.svg")] = draw(k)
    if not args.html:
        return files
    head, table, summary = _text(report._replace(args=type(args)(**{**vars(args), "quiet": False, "explain": False}))
                                 ).split("\n\n", 2)
    blocks = "\n".join(_explained(run, [x for _, (_, x), _ in report.rows], report.bound, args.trace == "all",
                                  args.labels)).split("\n\n")
    start = (run.conventions or _NOTES).start  # (its value: the head's)
    steps = [(0, "\n\n".join(["w at the start (--start): no mistake yet" if start is not None else
                              "w = 0: no mistake yet (Columbia §1.1)"] + [b for b in blocks if b.startswith("w* =")]))]
    steps += [(int(b[8:b.index(":")]), b) for b in blocks if b.startswith("mistake ")]
    title = _xml(f"The Perceptron on {report.data.source}")
    files[args.html] = "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        """<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
script-src 'unsafe-inline'">""",
        f"<title>{title}</title>", f"<style>{_STYLE}</style></head><body>",
        f"<h1>{title}</h1>", f"<pre>{_xml(head)}</pre>", "<h2>Step by step</h2>",
        f'<p><input type="range" id="at" min="0" max="{len(steps) - 1}" value="0" aria-label="step"> <b id="shown">'
        "</b> (or the arrow keys)</p>",
        *(f'<div class="frame" data-title="{f"mistake {k} of {run.mistakes}" if k else steps[0][1].split(":")[0]}">'
          + (draw(k) if after is not None and report.data.d == 2 else "") + f"<pre>{_xml(text)}</pre></div>"
          for k, text in steps),
        *(["<h2>The proof</h2>", '<div class="proof">', _chart(report.bound, after, start), *(
            f"<pre>{_xml(b)}</pre>" for b in blocks if b.startswith("the theorem")), "</div>"] if report.bound else []),
        "<h2>The run</h2>", f"<pre>{_xml(summary)}</pre>", "<h2>The trace</h2>", f"<pre>{_xml(table)}</pre>",
        f"<script>{_SCRIPT}</script>", "</body></html>\n"])
    return files


def _chart(bound, after, start) -> str:
    """The proof from the start (M = 0) to mistake M, its legend the Perceptron Algorithm notes' (1), (2), bound."""
    r2, g2, most, w_star = bound
    q, context = Fraction(g2) * Fraction(dot(w_star, w_star)), decimal.Context(prec=12)
    root = Fraction(context.sqrt(context.divide(decimal.Decimal(q.numerator), q.denominator)))  # gamma ||w*||
    series = [[Fraction(dot(w, u or w)) / s for w in [start or [0] * len(w_star), *after]]
              for u, s in ((w_star, root), (None, Fraction(r2)))]
    right = Fraction(max(len(after), min(most, 2 * len(after)), 1))  # to R^2/gamma^2, if not far beyond the run
    box, to_px, axes = _axes([[right, right]] + [[Fraction(M), v] for values in series for M, v in enumerate(values)],
                             ("M", ""))  # M's units on both axes
    return _svg("the proof, mistake by mistake", [axes, *(
        f'<polyline class="{name}" points="{" ".join("%.2f,%.2f" % to_px(M, v) for M, v in enumerate(values))}" '
        f'fill="none" stroke="{colour}" stroke-width="2"/>' for name, values, colour in (("(1)", series[0], "#000"),
                                                                                       ("(2)", series[1], "#1f5fbf"))),
        _hyperplane([1, -1], box, to_px, "M", 'stroke="#999" stroke-dasharray="6 4"'),
        _hyperplane([1, 0, -most], box, to_px, "most", 'stroke="#d33"')],
        ["black: w.w* / (gamma ||w*||), at least M (grey dashes) · blue: ||w||^2 / R^2, at most M",
         f"red: M = R^2/gamma^2 = {_num(most)}{', beyond the picture' * (most > right)}: no run makes more mistakes"])


def _refuse_overwriting(args):
    """Usage errors before any work: an output that is an input or another output, a folder, or not a regular file."""
    import contextlib, re
    written, seen = ("--svg", "--save", "--html"), {}  # seen: each input's and output's name and file, by whom
    given = [(option, path) for option, path in zip(("FILE", "--test", "--model", "--check") + written, (
        args.file, args.test, args.model, args.check, args.svg, args.save, args.html)) if path]  # inputs, then outputs
    steps, step_name = args.svg_steps and os.path.realpath(args.svg_steps), re.compile(r"step-[0-9]+\.svg").fullmatch
    for option, path in given:  # a file is its device and inode: an input by any name, or on standard input
        output = option in written
        if output and path.endswith(tuple(filter(None, (os.sep, os.altsep)))):
            raise PerceptronError(f"{option} {path}: a folder's name, not a file's: {option} names the file to write")
        real = os.path.realpath(path)
        if output and seen.setdefault(real, option) != option:  # two outputs by one name
            raise PerceptronError(f"{option} {path} is the output {seen[real]}: it would be overwritten")
        if steps and os.path.dirname(real) == steps and step_name(os.path.basename(real)):
            raise PerceptronError(f"--svg-steps {args.svg_steps} writes step-N.svg files, and {option} {path} is one "
                                  "of those names: it would be overwritten")
        stdin = path == "-" and not output
        if stdin and seen.setdefault("-", option) != option:
            raise PerceptronError(f"{seen['-']} and {option} are both '-': standard input can be read once; give one "
                                  "of them a file")
        try:
            st = os.fstat(sys.stdin.fileno()) if stdin else os.stat(path)
        except (OSError, ValueError, AttributeError) as err:  # no such file; standard input closed, or not a file
            if output and not isinstance(err, FileNotFoundError):  # a link in a loop, a folder not to be searched
                raise PerceptronError(f"{path}: cannot write: {err.strerror}") from None
            continue
        if output and not os.path.isfile(path):
            raise PerceptronError(_kind(path, st.st_mode))
        other = seen.setdefault((st.st_dev, st.st_ino), f"{option} (standard input)" if stdin else option)
        if output and other != option:
            raise PerceptronError(f"{option} {path} is the {'output' if other in written else 'input'} "
                                  f"{other}: it would be overwritten")
    with contextlib.suppress(OSError):  # the step files there now, none an input (not to be listed: said later)
        for name in filter(step_name, os.listdir(steps) if steps else []):  # a dangling link is itself, no input
            st = os.stat(os.path.join(steps, name), follow_symlinks=os.path.exists(os.path.join(steps, name)))
            if (st.st_dev, st.st_ino) in seen:
                raise PerceptronError(f"--svg-steps {args.svg_steps} writes step-N.svg files, and its {name} is the "
                                      f"{seen[st.st_dev, st.st_ino]}: it would be overwritten")


def _write_files(files, folder=None, first_remove=None, report=lambda: None):
    """Every file the program writes, whole or none: each to a temporary file beside its target (its permissions kept),
    all before any rename; a target not a regular file is refused.  A failure or Ctrl-C before the renames takes back
    only what this call made.  ``report()`` runs last, Ctrl-C held from it to the last rename: if it fails, no file."""
    import contextlib
    made, temporary, targets, path = [], {}, {}, folder
    try:
        if folder:  # the folders missing, innermost first: made here, so taken back on a failure
            missing = os.path.abspath(folder)
            while not os.path.lexists(missing):
                made.append(missing)
                missing = os.path.dirname(missing)
            os.makedirs(folder, exist_ok=True)
        for path, text in files.items():  # a link is followed, but not out of a folder written whole (a corpus)
            inside = folder and os.path.dirname(os.path.abspath(path)) == os.path.abspath(folder)
            targets[path] = real = path if inside else os.path.realpath(path)
            mode = os.stat(real, follow_symlinks=not inside).st_mode if os.path.lexists(real) else None
            if mode is not None and not (os.path.isfile(real) or inside and os.path.islink(real)):
                raise PerceptronError(_kind(path, mode))
            with _Held():
                for number in range(1 << 62):  # the first name no file has (O_EXCL): no randomness
                    name = os.path.join(os.path.dirname(real), f".{os.path.basename(real)}.{os.getpid()}.{number}.part")
                    with contextlib.suppress(FileExistsError):
                        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                        break
                temporary[path] = name
            with open(fd, "wb") as out:  # closed whatever happens
                if mode is not None and not os.path.islink(real):
                    os.chmod(name, mode & 0o7777)
                out.write(text.encode("utf-8"))
        with _Held():
            report()
            if first_remove and os.path.lexists(first_remove):
                os.unlink(first_remove)
            for path in files:
                os.replace(temporary[path], targets[path])
                del temporary[path]
    except BaseException as err:
        with _Held():  # a folder only if empty: one that now holds the user's files stays
            for remove, name in [*zip(repeat(os.unlink), temporary.values()), *zip(repeat(os.rmdir), made)]:
                with contextlib.suppress(OSError):
                    remove(name)
        if isinstance(err, OSError) and not isinstance(err, BrokenPipeError):  # (the report's reader left)
            doing = "make the folder" if path == folder else "write"  # path is folder until the files' loop
            raise PerceptronError(f"{path}: cannot {doing}: {err.strerror or err}") from None
        raise


def _kind(path, mode, rule="outputs are written to regular files only, and never replace anything else") -> str:
    import stat
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if
            stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return f"{path}: {kind}, not a regular file: {rule}"


if __name__ == "__main__":
    sys.exit(main())  # main takes Ctrl-C and SIGTERM over from the start's handlers (above), and gives them back
