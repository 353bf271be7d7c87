# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the perceptron authors. See LICENSE.
"""
The Perceptron, exactly as four lecture notes write it.

This single file (standard library only, Python 3.9+) implements the online
Perceptron, its dual and kernelized dual forms, the batch algorithm, the
convergence theorem's quantities and a command line.  It is meant to be read
beside the notes, top to bottom, and to serve as an oracle that other
implementations diff their mistakes and weights against.

The notes, and how they are cited here:

* Columbia notes: COMS 4252 (Columbia University, Fall 2025), "Notes on the
  Perceptron algorithm and kernel methods": §1.1 the algorithm, §1.2 the
  convergence theorem, §2.1 kernels, §2.2 the dual, eq. (1), §2.3 the
  kernelized dual, eq. (2).
* Cornell notes: CS 3/5780 (Cornell University, Spring 2026), "The
  Perceptron": §2 the bias, §3 the batch algorithm, §5 convergence, XOR.
* Perceptron Algorithm notes: "Perceptron Algorithm": Algorithm 1, the
  intuition for the update, the R^2/gamma^2 bound.
* Kalyanakrishnan notes: S. Kalyanakrishnan, "The Perceptron" (2017): §1
  sign and bias, §2 the Perceptron Learning Algorithm, §3 analysis, §4
  non-separable data and multiclass.

Public API
----------

==========================  ===============================================
Function or class           What it is
==========================  ===============================================
sign(t)                     +1 if t >= 0 else -1 (Columbia §1.1)
RULES, is_mistake(y, s)     the two mistake rules, "sign" and "margin"
dot(a, b)                   inner product, summed left to right from 0
with_bias(x)                x with the constant feature 1 appended
Perceptron(d)               the primal learner, w <- w + y x (Columbia §1.1)
DualPerceptron(kernel)      stores every mistake; eq. (1) and (2) (§2.2-2.3)
train(examples)             a whole run (Cornell §3): a Run with its trace
MulticlassPerceptron        one w per class, argmax (Kalyanakrishnan §4)
train_multiclass(examples)  a multiclass run
radius_squared(xs)          R^2 = max_i x_i.x_i
margin_squared(ex, w_star)  gamma^2 = min_i (y_i w*.x_i)^2 / w*.w*
mistake_bound(ex, w_star)   R^2 / gamma^2 (Perceptron Algorithm notes)
svg(run, examples)          a picture of a run on 2 features, as SVG text
main(argv)                  the command line
PerceptronError             the one exception (a ValueError)
==========================  ===============================================

Conventions where the notes disagree
------------------------------------

* sign(0).  Columbia §1.1 and Kalyanakrishnan §1 both map 0 to the positive
  side (Columbia outputs +1/-1, Kalyanakrishnan 1/0).  The Perceptron
  Algorithm notes leave it unspecified; Cornell never needs it.  Here
  ``sign(0) == 1`` and ``predict`` always uses it.
* Is a zero score a mistake?  ``rule="sign"`` (the default; Columbia §1.1,
  the Perceptron Algorithm notes, Kalyanakrishnan §2): a mistake iff
  ``sign(w.x) != y``, so at w = 0 a positive example is no mistake and a
  negative one is.  ``rule="margin"`` (Cornell §3, and scikit-learn's
  Perceptron): a mistake iff ``y * (w.x) <= 0``, so every example on the
  hyperplane, w = 0 included, is a mistake.
* Labels.  -1/+1 (Columbia, Cornell, the Perceptron Algorithm notes,
  Kalyanakrishnan §2) in the API; Kalyanakrishnan's 1/0 sign output is
  offered by the command line (``--labels=0,1``).  A label is any number
  equal to -1 or +1 and is used as that int.  ``True``/``False`` (and
  NumPy's bools) are refused: they usually mean 1/0 labels.

Arithmetic: the weights start as the int 0, so int, Fraction and Decimal
inputs stay exact and keep their type (Decimal under the caller's context).
Every sum is taken left to right starting from the int 0, for floats too,
so a trace is reproducible to the last bit on every Python version.  Numbers
are taken by value: a NumPy int64 is used as the Python int of its value, a
float32 as the Python float of its value.

>>> run = train([([2, 1], 1), ([-1, -3], -1), ([1, -2], 1)])
>>> run.w, run.mistakes, run.converged
([2, 1], 2, True)
>>> train([([Fraction(1, 2), 1], 1), ([-1, Fraction(-1, 3)], -1)], rule="margin").w
[Fraction(1, 2), 1]
"""

from __future__ import annotations  # the hints below are documentation: never evaluated

import decimal
import numbers
import sys
from collections import namedtuple
from fractions import Fraction
from itertools import islice, repeat
from operator import add, mul, sub
from types import MappingProxyType

__version__ = "0.3.0"

__all__ = [
    "ClassMistake",
    "DualPerceptron",
    "Mistake",
    "MulticlassMistake",
    "MulticlassPerceptron",
    "Perceptron",
    "PerceptronError",
    "Pocket",
    "RULES",
    "Run",
    "dot",
    "is_mistake",
    "main",
    "margin_squared",
    "mistake_bound",
    "radius_squared",
    "sign",
    "svg",
    "train",
    "train_multiclass",
    "with_bias",
]


class PerceptronError(ValueError):
    """Bad input: the message says what is wrong and, in a run, at which example.

    ``index`` is the example's 0-based index in the run, or None;
    ``reason`` is the message without it.
    """

    def __init__(self, message, index=None):
        super().__init__(message if index is None else f"example {index}: {message}")
        self.index = index
        self.reason = message


TYPE_CHECKING = False
if TYPE_CHECKING:  # the hints' names, for type checkers only: importing typing would cost every user
    from collections.abc import Callable, Hashable, Iterable, Sequence
    from typing import Union

    Number = Union[int, float, Fraction, decimal.Decimal]  # bool is an int
    Vector = Sequence[Number]
    Example = tuple[Vector, Number]
    Kernel = Callable[..., Number]  # of two vectors


# ---------------------------------------------------------------------------
# sign, and the two mistake rules
# ---------------------------------------------------------------------------

def sign(t: Number) -> int:
    """Return +1 if t >= 0, else -1 (Columbia §1.1).

    At 0 this returns +1, as Columbia writes it.  Kalyanakrishnan §1 also
    sends 0 to the positive side but writes it 1 (and the negative side 0);
    the Perceptron Algorithm notes leave sign(0) open.

    >>> sign(3), sign(0), sign(-2)
    (1, 1, -1)
    >>> sign(Fraction(-1, 3))
    -1
    """
    try:
        return 1 if t >= 0 else -1
    except TypeError:
        raise PerceptronError(f"sign of {_short(t)}: not a real number") from None


# A rule says whether the score s = w.x is a mistake on the label y; a
# prediction is always sign(s).  Each rule is written here once, and every
# learner and run below calls it.
def _sign_rule(y, s):
    # Columbia §1.1: update iff h(x) != c(x), with h(x) = sign(w.x).
    return sign(s) != y


def _margin_rule(y, s):
    # Cornell §3: "if y_i (w^T x_i) <= 0" -- a point on the hyperplane is wrong.
    return y * s <= 0


RULES = MappingProxyType({"sign": _sign_rule, "margin": _margin_rule})
"""The mistake rules by name, read-only: "sign" (Columbia §1.1, the default)
and "margin" (Cornell §3)."""


def is_mistake(y: Number, score: Number, rule: str = "sign") -> bool:
    """Whether predicting with score ``w.x`` is a mistake on label y.

    The two rules differ only at a zero score on a positive example:

    >>> is_mistake(1, 0, "sign"), is_mistake(1, 0, "margin")
    (False, True)
    >>> is_mistake(-1, 0, "sign"), is_mistake(-1, 0, "margin")
    (True, True)
    >>> is_mistake(1, Fraction(-1, 2))
    True
    """
    return _rule(rule)(_label(y), _number(score, "w.x", _NOT_REAL))


# ---------------------------------------------------------------------------
# The inner product, and the bias
#
# w.x = ((0 + w_0 x_0) + w_1 x_1) + ...: left to right from the int 0, for
# every number type, so that a float run gives the same bits everywhere.  The
# fastest sum that keeps this order depends on the Python version:
#   3.9-3.11  sum(map(mul, w, x)), a plain left-to-right sum for every type;
#   3.12+     math.sumprod for ints (exact) and for Fraction and Decimal (a
#             plain sum there); for floats, whose sum() is compensated and
#             whose sumprod is extended-precision from 3.12 on, a plain loop.
# _dot picks the right one for any data; _dot_float, the float one, is also
# right for any data; both give the bits of the plain loop, and both raise a
# ValueError for vectors of different lengths.
# ---------------------------------------------------------------------------

if sys.version_info >= (3, 12):
    from math import sumprod as _dot_exact

    def _dot_float(a, b):
        if len(a) != len(b):
            raise ValueError("vectors of different lengths")
        s = 0
        for a_i, b_i in zip(a, b):
            s = s + a_i * b_i
        return s

    def _dot(a, b):
        s = _dot_exact(a, b)
        return _dot_float(a, b) if type(s) is float else s
else:
    def _dot(a, b):
        if len(a) != len(b):
            raise ValueError("vectors of different lengths")
        return sum(map(mul, a, b))

    _dot_exact = _dot_float = _dot


def dot(a: Vector, b: Vector) -> Number:
    """The inner product a.b (Columbia §1.1's w . x), summed left to right from the int 0.

    Exact for int, Fraction and Decimal (under the current context), and for
    floats the same bits on every Python version.

    >>> dot([1, 2, 3], [4, 5, 6])
    32
    >>> dot([Fraction(1, 2), 1], [Fraction(2, 3), Fraction(1, 6)])
    Fraction(1, 2)
    >>> dot([1e16, 1.0, -1e16], [1, 1, 1])
    0.0
    """
    a = _vector(a, None, "a")
    b = _vector(b, len(a), "b", f"vectors of lengths {len(a)} and {{n}} have no inner product")
    return _number(_arithmetic(_dot, a, b), "a.b", "the sum overflowed")


def with_bias(x: Vector) -> list:
    """x with the constant feature 1 appended (Cornell §2, Kalyanakrishnan §1).

    The bias b becomes the last weight: w.(x, 1) = w'.x + b.

    >>> with_bias([3, -2])
    [3, -2, 1]
    """
    return [*_vector(x, None), 1]


# ---------------------------------------------------------------------------
# The learners.  One algorithm in two forms, side by side (Columbia §2.2):
#
#   primal  score  w.x                    mistake  w <- w + y x
#   dual    score  sum_j y_j K(x_j, x)    mistake  stored <- stored + [(x, y)]
#
# With K = dot the two give the same scores, hence the same mistakes, because
# w = sum_j y_j x_j after the mistakes (x_j, y_j) (eq. (1)) -- exactly so for
# exact numbers; with floats eq. (1) sums the same terms in another order.
#
# Each form's _pass is the one implementation of its step: a pass of Cornell
# §3's inner loop over (index, (x, y)) items, which predicts and, only on a
# mistake, updates; learn(x, y) is that pass over the one example.  A pass
# computes into local values and stores them only at its end, so a learner
# that meets a bad example is left exactly as it was.
# ---------------------------------------------------------------------------

class Perceptron:
    """The primal Perceptron of Columbia §1.1, on vectors of d features.

    ``w`` starts as int zeros; ``learn(x, y)`` predicts sign(w.x) and, only
    on a mistake, sets ``w <- w + y x``.  With ``bias=True`` the constant
    feature 1 is appended to every x (Cornell §2): ``w`` has d + 1 weights,
    the bias last, and x still has d.

    >>> p = Perceptron(2)
    >>> p.learn([1, 2], -1), p.w        # sign(0) = +1 != -1: a mistake
    (True, [-1, -2])
    >>> p.learn([2, 1], -1), p.w        # w.x = -4, sign -1: no mistake
    (False, [-1, -2])
    >>> q = Perceptron(1, rule="margin")
    >>> q.learn([Fraction(1, 2)], 1), q.w   # w.x = 0 is a mistake under "margin"
    (True, [Fraction(1, 2)])
    """

    def __init__(self, d: int, *, rule: str = "sign", bias: bool = False):
        self._mistake = _rule(rule)
        self.rule = rule
        self.d = _dimension(d)
        self.bias = _flag(bias, "bias")
        self.w = [0] * (self.d + self.bias)
        self.mistakes = 0

    def __repr__(self):
        return f"Perceptron(w={self.w!r}, mistakes={self.mistakes}, rule={self.rule!r})"

    def score(self, x: Vector) -> Number:
        """w.x, or w.(x, 1) with the bias."""
        return self._score(_vector(x, self.d), *self._weights())

    def predict(self, x: Vector) -> int:
        """h(x) = sign(w.x) (Columbia §1.1)."""
        return sign(self.score(x))

    def learn(self, x: Vector, y: Number) -> bool:
        """One online step; return whether it was a mistake (and so an update)."""
        return self._pass([(None, (x, y))]) == 1

    def _weights(self):
        """(w, b): the weights of x's features, and the bias weight or None."""
        return _split(self.w, self.bias)

    @staticmethod
    def _score(x, w, b):
        s = _arithmetic(_dot, w, x)
        if b is not None:
            s = s + b  # w.(x, 1): the bias times the constant feature 1, the sum's last term
        return _number(s, "w.x", "the sum overflowed")

    def _pass(self, items, epoch=1, log=None, on_update=None) -> int:
        """For each (index, (x, y)): if y, w.x is a mistake, w <- w + y x.
        Return the number of mistakes."""
        w, b = self._weights()
        d, mistake = self.d, self._mistake
        dot, kind, trusted = _sum_for(type(w[0]) if w else int)
        lists, plain = _LISTS, _PLAIN.issuperset
        made, logged = 0, 0 if log is None else len(log)
        try:  # Ctrl-C, wherever it lands in the pass: the run so far is kept, update by whole update
            for i, item in items:
                try:
                    try:  # the common case, checked in passing (see _checked)
                        x, y = item
                        if type(y) is not int or y * y != 1 or type(x) not in lists:
                            raise TypeError
                        s = dot(w, x) if b is None else dot(w, x) + b  # a ValueError if len(x) != d
                        if type(s) is not kind or not s - s == 0 or not (trusted or plain(map(type, x))):
                            raise TypeError
                    except (TypeError, ValueError, ArithmeticError):
                        x, y, s = _checked(item, d, w, b)
                        if type(s) is not kind:
                            dot, kind, trusted = _sum_for(type(s))
                    if mistake(y, s):
                        # w <- w + y x, and the bias weight, whose feature is the constant 1;
                        # stored in one assignment, so that Ctrl-C finds a whole update or none.
                        update = [w_i + y * x_i for w_i, x_i in zip(w, x)], None if b is None else b + y
                        if log is not None:
                            log.append(Mistake(epoch, i, y, s))
                        (w, b), made = update, made + 1
                        if on_update is not None:
                            on_update(w if b is None else [*w, b], self.mistakes + made, epoch, i)
                except PerceptronError as err:
                    raise PerceptronError(err.reason, i) from None
                except ArithmeticError as err:  # raised by the caller's Decimal context
                    raise PerceptronError(f"w <- w + y x failed: {_reason(err)}", i) from None
        except KeyboardInterrupt:
            self.w, self.mistakes = w if b is None else [*w, b], self.mistakes + made
            if log is not None and len(log) > logged + made:
                del log[logged + made:]  # the mistake whose update was not stored
            raise
        self.w = w if b is None else [*w, b]
        self.mistakes += made
        return made


def _sum_for(kind):
    """(the dot product, the score type, whether it is trusted) of a primal
    pass whose scores are of type ``kind``; see _dot and _checked."""
    if kind is float:
        return _dot_float, float, True
    if kind in (Fraction, decimal.Decimal):
        return _dot_exact, kind, False
    return _dot_exact, int, True


class DualPerceptron:
    """The dual Perceptron of Columbia §2.2, kernelized as in §2.3.

    It keeps no w: ``stored`` lists every (x, y) it made a mistake on, in
    order (a second mistake on an example stores it again), and ``score(x)``
    is eq. (2), ``sum_j y_j K(x_j, x)``, summed left to right in mistake
    order from 0 (so before the first mistake it is the empty sum, the int
    0).  With the default ``kernel=dot`` that is eq. (1), the primal's w.x.
    Examples are vectors of finite real numbers, all as long as the first
    one stored (``d``).  With ``bias=True`` every x is read as (x, 1), and
    ``stored`` holds those (Cornell §2).

    >>> p = DualPerceptron()
    >>> p.learn([1, 2], -1), p.learn([3, 1], 1), p.stored
    (True, True, [([1, 2], -1), ([3, 1], 1)])
    >>> p.score([1, 0]), p.weights()
    (2, [2, -1])
    """

    def __init__(self, kernel: Kernel = dot, *, rule: str = "sign", bias: bool = False):
        if not callable(kernel):
            raise PerceptronError(f"kernel {_short(kernel)} is not callable")
        self._mistake = _rule(rule)
        self.rule = rule
        self.kernel = kernel
        self.bias = _flag(bias, "bias")
        self.stored: list = []
        self.d: int | None = None  # the length of every x, fixed by the first one stored

    def __repr__(self):
        return f"DualPerceptron(kernel={_name(self.kernel)}, mistakes={self.mistakes}, rule={self.rule!r})"

    @property
    def mistakes(self) -> int:
        """The number of mistakes, which is the number of stored examples."""
        return len(self.stored)

    def score(self, x: Vector) -> Number:
        """sum_j y_j K(x_j, x): eq. (2), or eq. (1) with K = dot."""
        return self._score(self._read(_vector(x, self.d)), self.stored)

    def predict(self, x: Vector) -> int:
        """h(x) = sign(w.x) (Columbia §1.1), w never written down."""
        return sign(self.score(x))

    def learn(self, x: Vector, y: Number) -> bool:
        """One online step; return whether it was a mistake (and so x was stored)."""
        return self._pass([(None, (x, y))]) == 1

    def _read(self, x):
        return [*x, 1] if self.bias else x

    def _score(self, x, stored):  # sum_j y_j K(x_j, x), eq. (2)
        K = self.kernel
        s = 0
        for x_j, y_j in stored:
            try:
                s = s + y_j * K(x_j, x)
            except (TypeError, ValueError, ArithmeticError) as err:
                raise PerceptronError(f"kernel {_name(K)} failed: {_reason(err)}") from err
        return _number(s, "w.x", _NOT_REAL)

    def _pass(self, items, epoch=1, log=None, on_update=None) -> int:
        """For each (index, (x, y)): if y, eq. (2) is a mistake, store (x, y).
        Return the number of mistakes."""
        stored, d, mistake = list(self.stored), self.d, self._mistake
        for i, item in items:
            try:
                x, y = _example(item, d)
                s = self._score(self._read(x), stored)
            except PerceptronError as err:
                raise PerceptronError(err.reason, i) from None
            if mistake(y, s):
                stored.append((self._read(x), y))  # w <- w + y x, kept as the pair (x, y)
                d = len(x)
                if log is not None:
                    log.append(Mistake(epoch, i, y, s))
                if on_update is not None:
                    on_update(None, len(stored), epoch, i)
        made = len(stored) - len(self.stored)
        self.stored, self.d = stored, d
        return made

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


# ---------------------------------------------------------------------------
# A run: passes over a data set (Cornell §3), with the trace of every mistake
# ---------------------------------------------------------------------------

Mistake = namedtuple("Mistake", "epoch index y score")
Mistake.__doc__ = """One mistake of a run: its pass (1-based), the example's index
in the examples given (0-based), the label, and the score w.x that was wrong."""

Pocket = namedtuple("Pocket", "w errors mistakes")
Pocket.__doc__ = """The pocket (Kalyanakrishnan §4): the hypothesis with the fewest
training errors seen, its error count, and after how many mistakes of the run it
stood (so a kernel run, whose w is None, names it as the first ``mistakes``
stored examples)."""


class Run(namedtuple("Run", "w model mistakes epochs converged trace pocket rule bias kernel "
                            "average voted multiclass", defaults=(None, None, None))):
    """What ``train`` and ``train_multiclass`` return.

    w          the final weights, the bias last (a kernel run: None, except
               for the linear kernel ``dot``, or a kernel whose ``linear``
               attribute is True; multiclass: a dict {class: weights})
    model      the learner: a Perceptron, a DualPerceptron for a kernel run,
               a MulticlassPerceptron
    mistakes   the number of mistakes (= updates)
    epochs     the number of passes made
    converged  True iff the last pass made no mistake
    trace      a list of Mistake(epoch, index, y, score), or None (trace=False)
    pocket     a Pocket(w, errors, mistakes), or None (pocket=False)
    rule, bias, kernel   the conventions in force (kernel: its name, or None)
    average    the averaged weights (average="after" or "before"), or None
    voted      Freund and Schapire's [(v_k, c_k), ...] (voted=True), or None
    multiclass "one-vs-rest" or "joint" for a multiclass run, else None
    """

    __slots__ = ()

    def predict(self, x: Vector, weights: str = "w") -> Hashable:
        """The prediction for x with the run's own conventions (its bias appended).

        weights="w" (the final weights), "pocket", "average", or "voted":
        Freund and Schapire's sign(sum_k c_k sign(v_k.x)), with sign(0) = +1
        at both levels (sign_voted).  A multiclass run predicts argmax_l
        w(l).x, ties to the earliest class.
        """
        if self.multiclass is not None:
            return self.model.predict(x) if weights == "w" else _refuse(weights, "a multiclass run")
        if weights == "voted":
            if self.voted is None:
                raise PerceptronError("this run kept no votes: train(..., voted=True)")
            x = _vector(x, None)
            return sign(sum(c * sign(_score_of(v, x, self.bias)) for v, c in self.voted))
        return sign(self.score(x, weights))

    def errors(self, examples: Iterable[Example], weights: str = "w") -> int:
        """How many of the examples the run's predictor (as in ``predict``) gets wrong."""
        d, data = _data(examples, keep=True, label=_hashable if self.multiclass else _label)
        return sum(1 for x, y in data if self.predict(x, weights) != y)

    def score(self, x: Vector, weights: str = "w") -> Number:
        """w.x, or w.(x, 1) with the run's bias, for weights "w", "pocket" or "average"."""
        if self.model is None or self.multiclass is not None:
            raise PerceptronError("score is for a binary run")
        if weights == "w" and self.kernel is not None and self.w is None:
            return self.model.score(x)
        w = {"w": self.w, "pocket": self.pocket and self.pocket.w, "average": self.average}.get(weights, ())
        if w == ():
            raise PerceptronError(f"weights = {_short(weights)}: use 'w', 'pocket', 'average' or 'voted'")
        if w is None:
            raise PerceptronError(f"this run kept no {weights} weights")
        return _score_of(w, _vector(x, len(w) - self.bias), self.bias)


def _score_of(w, x, bias):
    return Perceptron._score(x, *_split(w, bias))


def _split(w, bias):
    """(the weights of x's features, the bias weight or None)."""
    return (w[:-1], w[-1]) if bias else (w, None)


def _refuse(weights, what):
    raise PerceptronError(f"weights = {_short(weights)} does not apply to {what}")


def train(examples: Iterable[Example], *, rule: str = "sign", kernel: Kernel | None = None,
          bias: bool = False, epochs: int | None = None, max_epochs: int = 1000, pocket: bool = False,
          average: str | None = None, voted: bool = False, trace: bool | list = True) -> Run:
    """Run the Perceptron over a sequence of (x, y) pairs; return a Run.

    epochs=None   passes in the given order until a pass makes no mistake
                  (Cornell §3; Kalyanakrishnan's PLA taking the first
                  misclassified point in order), at most ``max_epochs``
                  passes, after which ``converged`` is False.
    epochs=1      one online pass (Columbia §1.1; the Perceptron Algorithm
                  notes' Algorithm 1) over any iterable, a generator
                  included: with trace=False memory does not grow with it.
    epochs=k      k passes, stopping early after a pass with no mistake
                  (with ``average`` or ``voted``: exactly k passes, since
                  every example visited counts).

    ``bias=True`` appends the constant feature 1 (Cornell §2); the bias is
    the last weight.  ``kernel=K`` runs the dual of Columbia §2.3 with K.
    ``trace`` may also be a list, which receives each Mistake as it is made.
    A primal run stopped by Ctrl-C raises KeyboardInterrupt with the run so
    far (every whole update) as its ``run`` attribute.

    Beyond the notes, for data that is not separable (Kalyanakrishnan §4
    mentions such refinements without naming them):

    pocket=True   the pocket with ratchet of S. I. Gallant, "Perceptron-based
                  learning algorithms", IEEE Trans. Neural Networks 1(2),
                  1990: after every update the new w's training errors
                  under the run's rule are counted over all the examples,
                  and w is pocketed only if they are strictly fewer; the
                  pocket starts as w = 0 with its count.
    average="after"   the mean of the weights after every example visited,
                  updated or not, over all passes: sum_t W_t / N (M. Collins,
                  EMNLP 2002, averaged parameters; Freund and Schapire's
                  sum_k c_k v_k / N; scikit-learn's SGDClassifier(average=True)
                  up to its float rounding).
    average="before"  the mean of the weights before every example,
                  sum_{t=0}^{N-1} W_t / N (nltk's AveragedPerceptron).
                  Either mean is exact: a Fraction for int and Fraction
                  data, and for floats the exact mean of the float iterates
                  rounded once to a float (Decimal: divided once in the
                  current context).
    voted=True    Y. Freund and R. E. Schapire, "Large margin classification
                  using the perceptron algorithm", Machine Learning 37(3),
                  1999: ``run.voted`` lists every hypothesis v_k with c_k,
                  the number of examples visited while it stood (the
                  example that made it counts for it); run.predict(x,
                  "voted") is sign(sum_k c_k sign(v_k.x)), sign(0) = +1.

    The trace, weights and scores are those of calling ``learn`` example by
    example: each pass is the learner's own.  A run that keeps its examples
    (several passes, the pocket, a kernel, an average, votes) reads a
    one-shot iterator once and checks every example before it starts; a
    one-pass run checks each when its turn comes.  Either way a bad example
    raises a PerceptronError that names its index.

    >>> run = train([([1, 1], 1), ([-1, 0], -1), ([0, -1], -1)], rule="margin")
    >>> run.trace
    [Mistake(epoch=1, index=0, y=1, score=0)]
    >>> run.w, run.epochs, run.converged
    ([1, 1], 2, True)
    >>> train([([0], -1)], rule="margin", max_epochs=3).converged  # x = 0 never scores
    False
    >>> data = [([1, 0], 1), ([0, 1], -1), ([1, 1], 1)]
    >>> run = train(data, epochs=2, average="after", voted=True)
    >>> run.w, run.average     # W after each of the 6 steps sums to (4, -3)
    ([1, -1], [Fraction(2, 3), Fraction(-1, 2)])
    >>> run.voted              # each v_k with the number of examples it stood for
    [([0, 0], 1), ([0, -1], 1), ([1, 0], 2), ([1, -1], 2)]
    """
    passes, bias, pocket = _passes(epochs, max_epochs), _flag(bias, "bias"), _flag(pocket, "pocket")
    average, voted = _average(average), _flag(voted, "voted")
    history = average is not None or voted
    d, data = _data(examples, keep=passes > 1 or pocket or history or kernel is not None)
    log = _log(trace)
    model: Perceptron | DualPerceptron
    tally = None
    if kernel is None:
        model = Perceptron(d, rule=rule, bias=bias)
        keeper = _Pocket(model.w, _errors(model, data)) if pocket else None
        tally = _History(model.w, len(data), voted) if history else None
        try:
            epoch, converged = _cornell(model, data, passes, log, _hooks(keeper and keeper.offer, tally,
                                                                         _recorder(log)),
                                        exactly=history and epochs is not None)
        except KeyboardInterrupt as stop:  # Ctrl-C: the run so far goes with it, as stop.run
            setattr(stop, "run", Run(model.w, model, model.mistakes, getattr(stop, "epochs", 0), False, log,
                                     keeper and keeper.best, rule, bias, None))
            raise
        best, w = keeper and keeper.best, model.w
    elif history:
        raise PerceptronError("average and voted need explicit weights: a primal run (no kernel)")
    else:
        model = DualPerceptron(kernel, rule=rule, bias=bias)
        try:
            if isinstance(data, list):  # the cached form of eq. (2), below
                epoch, converged, best = _kernel_run(model, data, passes, log, pocket)
            else:  # one pass over a stream: the literal dual
                (epoch, converged), best = _cornell(model, data, passes, log, None), None
        except KeyboardInterrupt as stop:  # Ctrl-C: the stored mistakes so far, each with its trace entry
            if log is not None and len(log) > model.mistakes:
                del log[model.mistakes:]
            setattr(stop, "run", Run(_explicit(model), model, model.mistakes, getattr(stop, "epochs", 0), False,
                                     log, None, rule, bias, _name(kernel)))
            raise
        w = _explicit(model)
    means = tally.means(epoch * len(data)) if tally is not None else None
    return Run(w, model, model.mistakes, epoch, converged, log, best, rule, bias,
               None if kernel is None else _name(kernel), means and average and means[average],
               tally.votes if tally is not None else None)


def _cornell(model, data, passes, log, on_update, exactly=False):
    """Cornell §3's loop with the learner's own pass; return (epochs, converged).

    While TRUE: m = 0; for (x_i, y_i) in D: if y_i (w.x_i) is a mistake,
    w <- w + y_i x_i and m = m + 1; if m = 0: break.  Here it also stops
    after ``passes`` passes, so that non-separable data never hangs (and,
    ``exactly``, makes all of them).
    """
    epoch, clean = 0, True
    while epoch < passes:
        epoch += 1
        try:
            m = model._pass(enumerate(data), epoch, log, on_update)
        except KeyboardInterrupt as stop:
            stop.epochs = epoch  # for the run so far, which train attaches
            raise
        clean = m == 0
        if clean and not exactly:
            break
    return epoch, clean


def _log(trace) -> list | None:
    """The trace to keep: a new list, none, or the list given (which sees each mistake as it is made)."""
    return trace if isinstance(trace, list) else [] if _flag(trace, "trace") else None


def _passes(epochs, max_epochs) -> int:
    for name, value in (("max_epochs", max_epochs), ("epochs", epochs)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise PerceptronError(f"{name} = {_short(value)} is not a whole number >= 1")
    if max_epochs is None:
        raise PerceptronError("max_epochs = None: a run until convergence needs a bound")
    return max_epochs if epochs is None else epochs


class _Pocket:
    """Gallant's pocket with ratchet: after every update the new w's training
    errors are counted, and w is pocketed only if they are strictly fewer.

    ``errors(w, at_most)`` counts, and may stop once the count reaches
    at_most: such a w cannot be pocketed, so its exact count is not needed
    (the same result, far sooner on data with many errors)."""

    def __init__(self, w, errors):
        self.errors = errors
        self.best = Pocket(_copied(w), errors(w, None, None), 0)

    def offer(self, w, mistakes, epoch=None, index=None):
        errors = self.errors(w, self.best.errors, index)
        if errors < self.best.errors:
            self.best = Pocket(_copied(w), errors, mistakes)


def _copied(w):
    return dict(w) if isinstance(w, dict) else list(w)


def _errors(model, data):
    """errors(w, at_most, index) of a binary primal run: the examples w gets wrong
    under the run's rule, after an update on example ``index``."""
    score, mistake, bias = model._score, model._mistake, model.bias
    if len(data) <= _KEPT_SCORES and all(type(v) in _EXACT for x, _ in data for v in x):
        return _kept_errors(data, mistake, bias)

    xs, ys = [x for x, _ in data], [y for _, y in data]

    def errors(w, at_most, index):  # floats: the literal recount, whose sums are w.x's own
        w, b = _split(w, bias)
        scores = map(score, xs, repeat(w), repeat(b))
        return len(list(islice(filter(None, map(mistake, ys, scores)), at_most)))
    return errors


_KEPT_SCORES = 2000  # the most examples whose rows (n each) the exact pocket keeps: at most n^2 numbers


def _kept_errors(data, mistake, bias):
    """errors(w, at_most, index) for exact data, where w.x_j need not be summed again.

    As the kernel run keeps eq. (2): after the update w <- w + y_i (x_i, 1),
    every score moves by y_i (x_i.x_j + 1), the row [x_i.x_j + 1 for every j]
    computed the first time i is updated on.  For ints and Fractions that is
    the very number w.x_j, so the rule decides alike, in O(n) per update."""
    xs, ys = [x for x, _ in data], [y for _, y in data]
    rows: dict = {}
    scores = [0] * len(xs)

    def errors(w, at_most, index):
        nonlocal scores
        if index is not None:
            row = rows.get(index)
            if row is None:
                row = rows[index] = [_dot(xs[index], x) + bias for x in xs]
            # s_j + y_i k_j with y_i = +1 or -1, exactly: ints and Fractions do not round
            scores = list(map(add if ys[index] > 0 else sub, scores, row))
        # The mistakes among the scores, counted up to at_most (islice stops there).
        return len(list(islice(filter(None, map(mistake, ys, scores)), at_most)))
    return errors


class _History:
    """How many examples each hypothesis stood for, in order: Freund and
    Schapire's c_k, kept as exact sums (for the averages) and as a list (votes).

    The example at step t = (epoch - 1) n + index + 1 that makes v_{k+1}
    counts for v_{k+1}, so sum_k c_k = N and sum_k c_k v_k = sum_{t=1}^N W_t,
    the sum of the weights after every example.  Each update costs O(d)."""

    def __init__(self, w, n, votes):
        self.n, self.w, self.since = n, list(w), 1
        self.total = [0] * len(w)  # sum_t W_t so far, exactly: Fractions of the floats
        self.votes: list | None = [] if votes else None

    def __call__(self, w, mistakes, epoch, index):
        t = (epoch - 1) * self.n + index + 1
        self._close(t)
        self.w, self.since = list(w), t

    def _close(self, t):
        c = t - self.since  # the current w stood for the steps since .. t - 1
        self.total = [s + c * _exactly(v) for s, v in zip(self.total, self.w)]
        if self.votes is not None:
            self.votes.append((self.w, c))

    def means(self, N) -> dict:
        """{"after": sum_{t=1}^N W_t / N, "before": sum_{t=0}^{N-1} W_t / N}, after the run."""
        self._close(N + 1)
        if N == 0:
            return {"after": list(self.w), "before": list(self.w)}
        kind = _kind(self.w)
        last = [_exactly(v) for v in self.w]
        return {"after": [kind(Fraction(s) / N) for s in self.total],
                "before": [kind((Fraction(s) - v) / N) for s, v in zip(self.total, last)]}


def _exactly(v):
    """v as an int or Fraction of the same value (a float or Decimal is a ratio of ints)."""
    return v if type(v) in (int, Fraction) else Fraction(v)


def _kind(w):
    """How a run's exact mean is given back: as floats for a float run (rounded once),
    Decimals for a Decimal run (divided once in the current context), else Fractions."""
    if any(type(v) is float for v in w):
        return float
    if any(type(v) is decimal.Decimal for v in w):
        return lambda q: decimal.Decimal(q.numerator) / decimal.Decimal(q.denominator)
    return Fraction


def _recorder(log):
    """The command line's trace, when it keeps the weights after each update: as a hook."""
    return log.updated if isinstance(log, _Log) and log.after is not None else None


def _hooks(*hooks):
    """One on_update that calls each hook given (None for none)."""
    hooks = [h for h in hooks if h is not None]
    if not hooks:
        return None

    def each(*update):
        for hook in hooks:
            hook(*update)
    return each


def _average(average):
    if average not in (None, "after", "before"):
        raise PerceptronError(f"average = {_short(average)}: use 'after', 'before' or None")
    return average


def _explicit(model):
    """The dual's explicit weights where a kernel has them, else None."""
    K = model.kernel
    return model.weights() if K is dot or getattr(K, "linear", False) is True else None


# ---------------------------------------------------------------------------
# Multiclass (Kalyanakrishnan §4): one weight vector per class, argmax
# ---------------------------------------------------------------------------

class MulticlassPerceptron:
    """One weight vector per class; predict argmax_l w(l).x, a tie to the class
    listed first in ``classes`` (Kalyanakrishnan §4).

    update="one-vs-rest" (the default) is the note's reading: "train a
    separate binary classifier for each class: that is, associate a separate
    weight vector w(l) with each class l".  w(l) is the binary Perceptron of
    this module on the labels +1 if y == l else -1, with the rule and bias
    given (so scikit-learn's multiclass Perceptron, one-versus-all, can be
    compared with it).  ``learn`` returns whether any class's vector moved.

    update="joint": on a mistake of the argmax, x is added to the true class's
    vector and subtracted from the predicted one's (M. Collins, EMNLP 2002;
    K. Crammer and Y. Singer, JMLR 3, 2003).  An argmax has no zero-score
    question, so its rule is "argmax" and another rule is refused.

    >>> m = MulticlassPerceptron(["a", "b", "c"], 2)
    >>> m.learn([1, 0], "b"), m.w     # sign(0) = +1: a and c are wrong, b is right
    (True, {'a': [-1, 0], 'b': [0, 0], 'c': [-1, 0]})
    >>> j = MulticlassPerceptron(["a", "b", "c"], 2, update="joint")
    >>> j.predict([1, 1]), j.learn([1, 0], "b"), j.w
    ('a', True, {'a': [-1, 0], 'b': [1, 0], 'c': [0, 0]})
    """

    def __init__(self, classes: Iterable[Hashable], d: int, *, update: str = "one-vs-rest",
                 rule: str | None = None, bias: bool = False):
        self.classes = _classes(classes)
        self.update = _update(update)
        if self.update == "joint" and rule not in (None, "argmax"):
            raise PerceptronError(f"rule = {_short(rule)} does not apply to the joint update: an argmax has no "
                                  "zero-score question")
        self.rule = "argmax" if self.update == "joint" else rule or "sign"
        self.d, self.bias = _dimension(d), _flag(bias, "bias")
        self.binary = {c: Perceptron(d, rule=self.rule, bias=bias) for c in self.classes} \
            if self.update == "one-vs-rest" else None
        self._w = {c: [0] * (self.d + self.bias) for c in self.classes}  # the joint update's vectors
        self._mistakes = 0

    def __repr__(self):
        return f"MulticlassPerceptron(w={self.w!r}, mistakes={self.mistakes}, update={self.update!r})"

    @property
    def w(self) -> dict:
        """{class: its weights, the bias last}."""
        return {c: p.w for c, p in self.binary.items()} if self.binary else self._w

    @property
    def mistakes(self) -> int:
        """The updates made: of every class's vector (one-vs-rest), or of the argmax (joint)."""
        return sum(p.mistakes for p in self.binary.values()) if self.binary else self._mistakes

    def scores(self, x: Vector) -> dict:
        """w(l).x for every class l, in the order of ``classes``."""
        return self._scores(self.w, _vector(x, self.d))

    def predict(self, x: Vector) -> Hashable:
        """argmax_l w(l).x; the earliest class wins a tie."""
        return _argmax(self.classes, self.scores(x))

    def learn(self, x: Vector, y: Hashable) -> bool:
        """One online step; return whether it moved a vector."""
        if self.binary is None:
            return self._pass([(None, (x, y))]) == 1
        y, x = self._class(y), _vector(x, self.d)
        before = {c: (p.w, p.mistakes) for c, p in self.binary.items()}
        try:  # every class's step, or none
            return sum(p._pass([(None, (x, 1 if y == c else -1))]) for c, p in self.binary.items()) > 0
        except PerceptronError:
            for c, (w, mistakes) in before.items():
                self.binary[c].w, self.binary[c].mistakes = w, mistakes
            raise

    def _scores(self, w, x):
        return {c: Perceptron._score(x, *_split(w_c, self.bias)) for c, w_c in w.items()}

    def _pass(self, items, epoch=1, log=None, on_update=None) -> int:
        """The joint update: for each (index, (x, y)), if argmax_l w(l).x is not
        y, move w(y) toward x and w(guess) away from it.  Return the mistakes."""
        w, made, logged = dict(self._w), 0, 0 if log is None else len(log)
        try:  # Ctrl-C, wherever it lands in the pass: the run so far is kept, update by whole update
            for i, item in items:
                try:
                    x, y = _pair(item)
                    y = self._class(y)
                    x = _vector(x, self.d)
                    guess = _argmax(self.classes, self._scores(w, x))
                    if guess != y:
                        x = [*x, 1] if self.bias else x
                        moved = dict(w)
                        moved[y] = [w_i + x_i for w_i, x_i in zip(w[y], x)]              # toward the true class
                        moved[guess] = [w_i - x_i for w_i, x_i in zip(w[guess], x)]      # away from the guess
                        if log is not None:
                            log.append(MulticlassMistake(epoch, i, y, guess))
                        w, made = moved, made + 1
                        if on_update is not None:
                            on_update(dict(w), self._mistakes + made, epoch, i)
                except PerceptronError as err:
                    raise PerceptronError(err.reason, i) from None
                except ArithmeticError as err:
                    raise PerceptronError(f"w <- w + x failed: {_reason(err)}", i) from None
        except KeyboardInterrupt:
            self._w, self._mistakes = w, self._mistakes + made
            if log is not None and len(log) > logged + made:
                del log[logged + made:]  # the mistake whose update was not stored
            raise
        self._w = w
        self._mistakes += made
        return made

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


def _update(update):
    if update not in ("one-vs-rest", "joint"):
        raise PerceptronError(f"update = {_short(update)}: use 'one-vs-rest' or 'joint'")
    return update


MulticlassMistake = namedtuple("MulticlassMistake", "epoch index y predicted")
MulticlassMistake.__doc__ = """One mistake of a joint multiclass run: the class predicted instead of y."""

ClassMistake = namedtuple("ClassMistake", "cls epoch index y score")
ClassMistake.__doc__ = """One mistake of a one-vs-rest run: in the binary run of class cls,
on the label y (+1 if the example is of class cls, else -1), with the score w(cls).x."""


def train_multiclass(examples: Iterable[tuple[Vector, Hashable]], classes: Iterable[Hashable] | None = None,
                     *, update: str = "one-vs-rest", rule: str | None = None, bias: bool = False,
                     epochs: int | None = None, max_epochs: int = 1000, pocket: bool = False,
                     trace: bool | list = True) -> Run:
    """A multiclass run (Kalyanakrishnan §4) over (x, y) pairs; return a Run.

    ``classes`` defaults to the labels in order of first appearance, which
    is also the order that breaks ties.  ``w`` is the dict {class: weights}.

    update="one-vs-rest": for each class l in turn, ``train`` on the labels
    +1 if y == l else -1, with the run's rule, bias, passes and pocket; each
    class's run stops after its own clean pass, or at the bound, so
    ``converged`` is true iff every class's run converged and ``epochs`` is
    the most any made.  The trace holds ClassMistake(cls, epoch, index, y,
    score), class by class; ``pocket`` is {class: Pocket}.

    update="joint": passes as in ``train`` with the joint update; the trace
    holds MulticlassMistake(epoch, index, y, predicted) and ``rule`` is
    "argmax".  pocket=True keeps the pocket of the argmax predictor, its
    errors counted over all the examples (Gallant's ratchet, as in train).

    >>> run = train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c")], update="joint")
    >>> run.w, run.mistakes, run.converged
    ({'a': [1, 0], 'b': [0, 1], 'c': [-1, -1]}, 2, True)
    >>> train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c")]).w
    {'a': [2, -1], 'b': [-1, 2], 'c': [-1, -1]}
    """
    passes, bias, pocket = _passes(epochs, max_epochs), _flag(bias, "bias"), _flag(pocket, "pocket")
    d, data = _data(examples, keep=True, label=_hashable)
    model = MulticlassPerceptron(_first_appearance(data) if classes is None else classes, d, update=update,
                                 rule=rule, bias=bias)
    for i, (_, y) in enumerate(data):
        try:
            model._class(y)
        except PerceptronError as err:
            raise PerceptronError(err.reason, i) from None
    log = _log(trace)
    if model.binary is None:
        keeper = _Pocket(model.w, _argmax_errors(model, data)) if pocket else None
        try:
            epoch, converged = _cornell(model, data, passes, log, _hooks(keeper and keeper.offer, _recorder(log)))
        except KeyboardInterrupt as stop:  # Ctrl-C: the run so far goes with it, as stop.run
            setattr(stop, "run", Run(model.w, model, model.mistakes, getattr(stop, "epochs", 0), False, log,
                                     keeper and keeper.best, "argmax", bias, None, multiclass="joint"))
            raise
        return Run(model.w, model, model.mistakes, epoch, converged, log, keeper and keeper.best, "argmax", bias,
                   None, multiclass="joint")
    runs = {}
    for c in model.classes:
        runs[c] = train([(x, 1 if y == c else -1) for x, y in data], rule=model.rule, bias=bias, epochs=epochs,
                        max_epochs=max_epochs, pocket=pocket, trace=log.child() if isinstance(log, _Log) else
                        log is not None)
        model.binary[c] = runs[c].model
        if log is not None:
            for m in runs[c].trace:
                log.append(ClassMistake(c, *m))
            after = getattr(log, "after", None)
            if after is not None:
                after.extend(runs[c].trace.after)
    return Run(model.w, model, model.mistakes, max((r.epochs for r in runs.values()), default=0),
               all(r.converged for r in runs.values()), log, {c: r.pocket for c, r in runs.items()} if pocket else None,
               model.rule, bias, None, multiclass="one-vs-rest")


def _argmax_errors(model, data):
    """errors(w, at_most, index) of a joint run: the examples whose argmax is not their class."""
    def errors(w, at_most, index):
        count = 0
        for x, y in data:
            if _argmax(model.classes, model._scores(w, x)) != y:
                count += 1
                if count == at_most:
                    break
        return count
    return errors


def _first_appearance(data) -> list:
    """The labels in order of first appearance."""
    return list(dict.fromkeys(y for _, y in data))


# ---------------------------------------------------------------------------
# The convergence theorem's quantities, exactly (no square roots)
#
# Perceptron Algorithm notes and Kalyanakrishnan §3: if ||x_i|| <= R and a unit
# w* has y_i w*.x_i >= gamma > 0, the Perceptron makes at most R^2/gamma^2
# mistakes.  For any w* != 0, gamma = min_i y_i w*.x_i / ||w*||, so
# gamma^2 = min_i (y_i w*.x_i)^2 / (w*.w*), a ratio of sums of products:
# exact for int, Fraction and Decimal.  Columbia's 1/delta^2 (§1.2) and
# Cornell's 1/gamma^2 (§5) are the case R = 1.
# ---------------------------------------------------------------------------

def radius_squared(xs: Iterable[Vector]) -> Number:
    """R^2 = max_i x_i.x_i, the squared length of the longest x.

    The R of "||x_i|| <= R" (Perceptron Algorithm notes; Kalyanakrishnan
    Assumption 2), squared so that it stays exact.

    >>> radius_squared([[3, 4], [1, 1]])
    25
    >>> radius_squared([[Fraction(1, 2)]])
    Fraction(1, 4)
    """
    d, xs = _data(((x, 1) for x in _iterable(xs, "xs")), keep=True)
    if not xs:
        raise PerceptronError("R^2 of no examples is undefined")
    return _number(max(_arithmetic(_dot, x, x) for x, _ in xs), "R^2", "the sum overflowed")


def margin_squared(examples: Iterable[Example], w_star: Vector) -> Number:
    """gamma^2 = min_i (y_i w*.x_i)^2 / (w*.w*): the squared distance from the
    hyperplane w*.x = 0 to the nearest example.

    The gamma of the Perceptron Algorithm notes and Kalyanakrishnan's
    Assumption 1 (for a unit w*), Columbia's delta and Cornell's gamma.

    Raises a PerceptronError, naming the first such example, if w* does not
    strictly separate the examples (y_i w*.x_i <= 0).

    >>> margin_squared([([1, 2], 1), ([-2, 1], -1)], [1, 1])
    Fraction(1, 2)
    """
    nearest, ww, _ = _nearest(examples, w_star)
    return _ratio(nearest * nearest, ww, "gamma^2")


def mistake_bound(examples: Iterable[Example], w_star: Vector) -> Number:
    """R^2 / gamma^2, the Perceptron's mistake bound for these examples and w*.

    Here gamma is the smallest margin itself, so the bound can be attained
    (one example x and w* = x: one mistake, bound 1).  Kalyanakrishnan §3
    states it strictly, k < R^2/gamma^2, for a gamma strictly below every
    margin; the Perceptron Algorithm notes, with y w*.x >= gamma, as here.

    >>> mistake_bound([([1, 2], 1), ([-2, 1], -1)], [1, 1])
    Fraction(10, 1)
    """
    nearest, ww, xs = _nearest(examples, w_star)
    return _ratio(radius_squared(xs) * ww, nearest * nearest, "R^2/gamma^2")


def _nearest(examples, w_star):
    """min_i y_i w*.x_i, w*.w* and the xs, after checking everything."""
    d, examples = _data(examples, keep=True)
    if not examples:
        raise PerceptronError("the margin of no examples is undefined")
    w_star = _vector(w_star, d, "w_star")
    nearest = None
    for i, (x, y) in enumerate(examples):
        margin = y * _arithmetic(_dot, w_star, x)
        if margin <= 0:
            raise PerceptronError(
                f"w_star does not strictly separate the examples: y w*.x = {_short(margin)} <= 0", i)
        nearest = margin if nearest is None or margin < nearest else nearest
    return nearest, _arithmetic(_dot, w_star, w_star), [x for x, _ in examples]


def _ratio(a, b, name):
    # Exact where the inputs are rational; a Decimal or float divides as its type,
    # and must stay finite and above 0 (gamma > 0): a float that underflows to 0,
    # or overflows to inf, is refused rather than reported as if it were valid.
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return Fraction(a, b)
    value = _number(_arithmetic(lambda: a / b, what=name), name, "it is not a finite number")
    if not value > 0:
        raise PerceptronError(f"{name} is {_short(value)}: the arithmetic of {type(value).__name__} underflows "
                              "(use exact numbers)")
    return value


# ===========================================================================
# Input checking: every value from outside is checked here, and numbers are
# taken by value (a NumPy int64 as the Python int of its value, a float32 as
# the Python float of its value), so the algorithms above see plain numbers.
# Checks raise without a position; a pass adds "example i:" where it knows i.
# ===========================================================================

from collections.abc import Iterable as _Iterable, Mapping as _Mapping, Set as _Set, Sized as _Sized  # noqa: E402

_LISTS = (list, tuple)  # the containers a pass reads without a copy: their len() cannot lie
_PLAIN = frozenset((int, float, Fraction, decimal.Decimal, bool))
_EXACT = frozenset((int, Fraction, bool))  # always finite
_LABELS = {1: 1, -1: -1}  # 1.0, Fraction(1), Decimal(1) hash and compare as 1
_NOT_REAL = "not a finite real number"  # what a dual's score is when its kernel gives inf, nan or complex


def _short(v, limit=60) -> str:
    """repr(v) for a message, cut to ``limit`` characters; never fails."""
    if isinstance(v, int) and v.bit_length() > 4 * limit:  # repr of a huge int is slow, or refused
        return f"<an int of {v.bit_length()} bits>"
    try:
        text = repr(v)
    except Exception:  # a repr that fails (too deep, too long) must not hide the error being reported
        text = f"<a {type(v).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _reason(err, limit=200) -> str:
    """What an exception says, for a message: str(err), cut to ``limit`` characters."""
    text = str(err) or type(err).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _rule(rule):
    try:
        return RULES[rule]
    except (KeyError, TypeError):
        raise PerceptronError(f"unknown rule {_short(rule)}: use 'sign' or 'margin'") from None


def _flag(value, name) -> bool:
    if value is True or value is False:
        return value
    raise PerceptronError(f"{name} = {_short(value)} is not True or False")


def _dimension(d) -> int:
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise PerceptronError(f"dimension d = {_short(d)} is not a whole number")
    return d


def _name(kernel) -> str:
    return getattr(kernel, "__name__", None) or _short(kernel)


def _by_value(v):
    """v as an int, float, Fraction or Decimal of the same value, or None if v is not a real number."""
    if type(v) in _PLAIN:
        return v
    if isinstance(v, decimal.Decimal):
        return decimal.Decimal(v)
    try:
        if isinstance(v, numbers.Integral):  # NumPy's int64 and uint8: they wrap on overflow, ints do not
            return int(v)
        if isinstance(v, numbers.Rational):
            return Fraction(int(v.numerator), int(v.denominator))
        if isinstance(v, numbers.Real):      # NumPy's float32 and float64: computed in their own type
            return float(v)
    except (TypeError, ValueError, ArithmeticError):
        pass
    return None


def _finite(v) -> bool:
    """Whether v is a finite real number: v - v is 0 for those, nan for inf and nan."""
    try:
        return v - v >= 0  # complex does not compare; Decimal('Infinity') - itself is trapped
    except (TypeError, ArithmeticError):
        return False


def _number(s, name, why):
    """s taken by value, or a PerceptronError if it is not a finite real number."""
    value = _by_value(s)
    if value is None or not _finite(value):
        raise PerceptronError(f"{name} is {_short(s)}: {why}")
    return value


def _arithmetic(f, *args, what="w.x"):
    """f(*args), with a failure of the arithmetic itself told as a PerceptronError."""
    try:
        return f(*args)
    except (TypeError, ArithmeticError) as err:  # float with Decimal; the caller's Decimal traps
        raise PerceptronError(f"{what} cannot be computed: {_reason(err)}") from None


def _label(y) -> int:
    """The label y as the int -1 or +1."""
    if type(y).__name__ in ("bool", "bool_"):  # Python's and NumPy's
        raise PerceptronError(f"label {y} is a bool; labels are -1 or +1 (map 0/1 labels first)")
    try:
        label = _LABELS.get(y)
    except (TypeError, ValueError):  # unhashable
        label = None
    if label is None:
        raise PerceptronError(f"label {_short(y)} is not -1 or +1")
    return label


def _hashable(y):
    """A multiclass label: anything hashable."""
    try:
        hash(y)
    except TypeError:
        raise PerceptronError(f"label {_short(y)} cannot be a class: it is not hashable") from None
    return y


def _classes(classes) -> list:
    if isinstance(classes, (_Set, _Mapping)):
        raise PerceptronError(f"classes {_short(classes)} have no order: give a list, whose order breaks ties")
    classes = [_hashable(c) for c in _iterable(classes, "classes")]
    if len(classes) < 2 or len(set(classes)) != len(classes):
        raise PerceptronError(f"classes {_short(classes)} are not two or more distinct labels")
    return classes


def _iterable(v, name):
    if isinstance(v, (str, bytes)) or not isinstance(v, _Iterable):
        raise PerceptronError(f"{name} is {type(v).__name__}, not a sequence")
    return v


def _pair(item):
    try:
        x, y = item
    except (TypeError, ValueError):
        raise PerceptronError(f"{_short(item)} is not an (x, y) pair") from None
    return x, y


def _vector(x, d, name="x", wrong_length="{name} has length {n}, expected {d}") -> list:
    """x as a list of d finite real numbers, each taken by value; x itself if it
    is a list or tuple of such numbers already.

    x is read once, and its length is that of what was read.
    """
    if type(x) not in _LISTS:
        if isinstance(x, (str, bytes, bytearray)) or not isinstance(x, _Sized) or not isinstance(x, _Iterable):
            raise PerceptronError(f"{name} is {type(x).__name__}, not a sequence of numbers")
        if isinstance(x, (_Mapping, _Set)):
            raise PerceptronError(f"{name} is a {type(x).__name__}, not a sequence of numbers in order")
        try:
            x = list(x)
        except Exception as err:  # whatever reading a foreign sequence raises, told in one line
            raise PerceptronError(f"{name} cannot be read: {_reason(err)}") from None
    n = len(x)
    if d is not None and n != d:
        raise PerceptronError(wrong_length.format(name=name, n=n, d=d))
    if _PLAIN.issuperset(map(type, x)) and all(type(v) in _EXACT or _finite(v) for v in x):
        return x
    return [_real(v, f"{name}[{j}]") for j, v in enumerate(x)]


def _real(v, name):
    """One feature, taken by value, or the PerceptronError that says why not."""
    value = _by_value(v)
    if value is None:
        raise PerceptronError(f"{name} is {_short(v)} ({type(v).__name__}), not a real number")
    if not _finite(value):
        raise PerceptronError(f"{name} is {_short(value)}; features must be finite")
    return value


def _example(item, d, label=_label):
    """(x, y) of an item, checked, x of length d (any length if d is None)."""
    x, y = _pair(item)
    y = label(y)
    return _vector(x, d), y


def _checked(item, d, w, b):
    """(x, y, w.x) for one item of a primal pass, every part checked: what the
    pass's common case skips when it can tell that nothing is wrong.

    The pass takes its own reading only for an exact list or tuple (whose
    len() cannot lie) with the label the int -1 or +1, and a finite score of
    the run's exact type.  Anything else is read here: in an int or float
    run a NumPy element makes the score a NumPy number, a bad feature makes
    the sum raise, an inf or nan feature makes it inf or nan.  A Fraction or
    Decimal times a NumPy int can be a Fraction or Decimal, so in those runs
    the pass also checks the elements' types, a small cost next to exact
    arithmetic.
    """
    x, y = _example(item, d)
    return x, y, Perceptron._score(x, w, b)


_END = object()


def _data(examples, keep, label=_label):
    """(d, examples): d is the length of the first x.  Kept, the examples are a
    list of checked (x, y); else the examples as given (an iterator is read once)."""
    if type(examples) in _LISTS:
        items, first = examples, examples[0] if examples else _END
    else:
        items = iter(_iterable(examples, "examples"))
        first = next(items, _END)
        items = _chain(first, items)
    if first is _END:
        return 0, []
    try:
        d = len(_vector(_pair(first)[0], None))
    except PerceptronError as err:
        raise PerceptronError(err.reason, 0) from None
    if not keep:
        return d, items
    data = []
    for i, item in enumerate(items):
        try:
            data.append(_example(item, d, label))
        except PerceptronError as err:
            raise PerceptronError(err.reason, i) from None
    return d, data


def _chain(first, rest):
    yield first
    yield from rest


# ===========================================================================
# The kernel dual over a kept data set: eq. (2) kept up to date.
#
# DualPerceptron._score re-sums sum_j y_j K(x_j, x_i) at every step.  Over a
# kept data set the same numbers can be kept instead: score[i] is eq. (2) for
# example i, and when example j is stored, y_j K(x_j, x_i) is added to every
# score[i], in mistake order from 0 -- exactly the sum DualPerceptron takes.
# The row [K(x_j, x_i) for every i] is computed the first time j is stored and
# kept, so a run makes n kernel calls per distinct stored example and a pass
# with no mistake makes none.  The rule is the learner's own.  The tests
# check this form against the literal DualPerceptron, mistake by mistake.
# ===========================================================================

def _kernel_run(model, data, passes, log, pocket):
    """Passes of the kernel dual over a kept data set; return (epochs, converged, pocket)."""
    xs = [model._read(x) for x, _ in data]
    ys = [y for _, y in data]
    K, mistake = model.kernel, model._mistake
    rows: dict = {}
    score = [0] * len(xs)
    stored = model.stored
    model.d = len(data[0][0]) if data else None
    best = Pocket(None, _wrong(mistake, ys, score), 0) if pocket else None
    epoch = 0
    try:
        while True:
            epoch += 1
            m = 0
            for i, y in enumerate(ys):
                try:
                    s = _number(score[i], "w.x", _NOT_REAL)
                except PerceptronError as err:
                    raise PerceptronError(err.reason, i) from None
                if mistake(y, s):
                    row = rows.get(i)
                    if row is None:
                        row = rows[i] = _kernel_row(K, xs, i)
                    if log is not None:
                        log.append(Mistake(epoch, i, y, s))
                    stored.append((xs[i], y))  # stored <- stored + [(x_i, y)]: the update, whole
                    score = [s_j + y * k_j for s_j, k_j in zip(score, row)]
                    m += 1
                    if pocket:
                        errors = _wrong(mistake, ys, score)
                        if errors < best.errors:
                            best = Pocket(None, errors, len(stored))
            if m == 0 or epoch == passes:
                return epoch, m == 0, best
    except KeyboardInterrupt as stop:
        stop.epochs = epoch  # for the run so far, which train attaches
        raise


def _kernel_row(K, xs, i) -> list:
    """[K(x_i, x_j) for every j], or a PerceptronError naming the pair that failed."""
    x_i = xs[i]
    try:
        return [K(x_i, x_j) for x_j in xs]
    except (TypeError, ValueError, ArithmeticError):
        pass
    for j, x_j in enumerate(xs):  # again, one call at a time, to name the pair
        try:
            K(x_i, x_j)
        except (TypeError, ValueError, ArithmeticError) as err:
            # K's message speaks of its arguments a = x_i and b = x_j: name both examples.
            raise PerceptronError(f"kernel {_name(K)} failed on K(x_{i}, x_{j}), the examples {i} and {j}: "
                                  f"{_reason(err)}") from err
    raise PerceptronError(f"kernel {_name(K)} failed on a row, then not again")  # a kernel that is not a function


def _wrong(mistake, ys, scores) -> int:
    return sum(1 for y, s in zip(ys, scores) if mistake(y, s))


# ===========================================================================
# The command line
# ===========================================================================

# The embedded example: 2-D, integer coordinates, separated through the origin
# by W_STAR = (-2, 1) (y = sign(-2 x1 + x2)), and slow enough to show a few
# passes: 5 mistakes in 4 passes under the sign rule, against a bound of 10.
EXAMPLE = [
    ((3, 3), -1), ((-3, 1), 1), ((0, -3), -1), ((2, 0), -1),
    ((-3, -1), 1), ((0, 4), 1), ((-2, 1), 1), ((-4, 0), 1),
]
W_STAR = (-2, 1)

MULTICLASS_TEXT = {
    "one-vs-rest": "one-vs-rest: one binary run per class on 'this class or not' (Kalyanakrishnan §4)",
    "joint": "joint: on a mistake x moves to the true class and away from the predicted one (Collins 2002)",
}

RULE_TEXT = {
    "sign": "sign: a mistake iff sign(w.x) != y, sign(0) = +1 (Columbia §1.1)",
    "margin": "margin: a mistake iff y (w.x) <= 0 (Cornell §3)",
    "argmax": "argmax: predict the class of the largest w(l).x, a tie to the first (Kalyanakrishnan §4)",
}


def _num(v) -> str:
    """A number as text that reads back to the same value: 3, 1/3, 0.1, 2.50."""
    if isinstance(v, Fraction):
        return str(v)  # "p/q", or "p" when q = 1
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _vec(v) -> str:
    return "(" + ", ".join(map(_num, v)) + ")"


def _table(header, rows) -> list:
    """Lines of a table, every column right-aligned to its widest cell."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]
    return ["  ".join(cell.rjust(n) for cell, n in zip(row, widths)).rstrip()
            for row in [header, *rows]]


_DIGITS = 4300       # the most digits of a number in a cell (Python's own limit for int <-> str)
_LINE_LIMIT = 1 << 20  # the longest line read, in bytes: no file is read whole


class _Located(PerceptronError):
    """An error of the input that already names the file and line."""


class _Input:
    """A data set for the command line, read one example at a time (from a CSV
    file, standard input or the embedded example), with where each came from:
    ``where(i)`` is the file line and x of example i -- of any example when
    kept, else of the one read last, which is the one a streamed run is at."""

    def __init__(self, source, names, rows, keep, numbered=True):
        self.source, self.names, self.numbered = source, names, numbered
        self.rows = rows  # (line, x, y) triples
        self.count, self.d, self.current = 0, 0, None
        self.kept: list | None = [] if keep else None

    def __iter__(self):
        for line, x, y in self.rows:
            self.count += 1
            self.d = self.d or len(x)
            self.current = (line, x)
            if self.kept is not None:
                self.kept.append(self.current)
            yield x, y

    def where(self, i):
        return self.kept[i] if self.kept is not None else self.current


class _Log(list):
    """A run's trace that also notes, for each mistake, its example's line and x,
    and (weights=True) in ``after`` the weights the learner's update made of it;
    or, store=False, keeps nothing and only shows the progress."""

    def __init__(self, data, progress=None, store=True, weights=False):
        super().__init__()
        self.data, self.where, self.progress, self.store = data, [], progress, store
        self.weights = weights  # True, or a function that says, when asked, whether to keep them
        self.after: list | None = [] if weights and store else None

    def append(self, mistake):
        if self.store:
            super().append(mistake)
            self.where.append(self.data and self.data.where(mistake.index))
        if self.progress is not None:
            self.progress.mistake(mistake.epoch)

    def updated(self, w, mistakes, epoch, index):
        """The learners' on_update: w after the update of the mistake appended last."""
        if self.after is not None and (self.weights is True or self.weights()):
            self.after.append(w)

    def __delitem__(self, key):
        super().__delitem__(key)
        del self.where[key]
        if self.after is not None:
            del self.after[key]

    def child(self):
        """A log like this one for one class's binary run (one-vs-rest)."""
        return _Log(self.data, self.progress, self.store, self.after is not None and self.weights)


class _Progress:
    """A line on standard error, a terminal, for a run of more than a second: the pass and the mistakes."""

    def __init__(self):
        import time

        self.clock = time.monotonic
        self.start = self.next = self.clock() + 1.0
        self.count, self.shown = 0, False

    def mistake(self, epoch):
        self.count += 1
        if self.count % 64 == 0 and self.clock() >= self.next:
            self.next = self.clock() + 0.5
            self.shown = True
            print(f"\rpass {epoch}, {self.count:,} mistakes so far ", end="", file=sys.stderr, flush=True)

    def done(self):
        if self.shown:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)


_INT = r"[+-]?[0-9]+"
_DECIMAL = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_RATIO = r"[+-]?[0-9]+/[0-9]+"


def _form(text):
    """Which of the number forms text is written in: "int", "decimal", "ratio", "special" or None."""
    import re  # here only: the module itself does not need it

    t = text.strip()
    for name, pattern in (("int", _INT), ("decimal", _DECIMAL), ("ratio", _RATIO)):
        if re.fullmatch(pattern, t, re.ASCII):
            return name
    return "special" if t.lower().lstrip("+-") in ("nan", "inf", "infinity") else None


def _exponent(decimal_text):
    """|e| of a number written in the "decimal" form, 0 if it has no exponent."""
    return abs(int(decimal_text.strip().lower().partition("e")[2] or 0))


def _parse_number(text, exact):
    """A CSV cell as a number: an int, else a float (a Fraction with exact).

    Raises ValueError with the reason.
    """
    t = text.strip()
    digits = sum(c in "0123456789" for c in t) if len(t) > _DIGITS else 0
    if digits > _DIGITS:  # int() and Fraction() of a long text take time that grows faster than its length
        raise ValueError(f"{_short(t, 24)} has {digits} digits: a number here has at most {_DIGITS}")
    form = _form(t)
    if form == "decimal" and exact and _exponent(t) > _DIGITS:
        raise ValueError(f"{_short(t, 24)}: an exponent beyond {_DIGITS} is not read exactly (10**e is built)")
    if form == "int":
        return int(t)
    if form == "decimal":
        if exact:
            return Fraction(t)  # the decimal text exactly: 0.1 is 1/10
        v = float(t)
        if not _finite(v):
            raise ValueError(f"{_short(text)} is too large for a float (use --exact)")
        return v
    if form == "ratio":
        if not exact:
            raise ValueError(f"{_short(text)} is a fraction p/q: use --exact")
        numerator, denominator = t.split("/")
        if int(denominator) == 0:
            raise ValueError(f"{_short(text)} divides by zero")
        return Fraction(int(numerator), int(denominator))
    if form == "special":
        raise ValueError(f"{_short(text)} is not finite: NaN and infinity are not features")
    raise ValueError(f"{_short(text)} is not a number")


def _read_csv(path, *, exact, header, label_column, labels, multiclass, keep, delimiter=",", drop=()) -> _Input:
    """The examples of a CSV file ('-' for standard input), read as they are needed."""
    source = "<stdin>" if path == "-" else path
    rows = _rows(path, source, delimiter)
    first = next(rows, None)
    if first is None:
        raise _Located(f"{source}: no examples: the file is empty")
    width = len(first[1])
    _check_delimiter(source, first, delimiter)
    label = label_column + width if label_column < 0 else label_column
    if not 0 <= label < width or any(not 0 <= c < width for c in drop):
        wrong = label_column if not 0 <= label < width else [c for c in drop if not 0 <= c < width][0]
        option = "--label-column" if wrong == label_column and not 0 <= label < width else "--drop-column"
        raise _Located(f"{source}: {option} {wrong} is out of range for {width} columns")
    features = [c for c in range(width) if c != label and c not in drop]
    numeric = not multiclass and all(isinstance(name, int) for name in labels)
    names = None
    if header and not _all_numbers(first[1], range(width) if numeric else features):
        names = [first[1][c].strip() for c in features]
        if not first[1][0].strip() and 0 in features and len(first[1]) > 1:
            _refuse_an_index(source, rows, first)
        first = next(rows, None)
        if first is None:
            raise _Located(f"{source}: a header but no examples")

    def examples():
        for line, row in _chain(first, rows):
            if len(row) != width:
                raise _Located(f"{source}:{line}: the row has {len(row)} columns, the first has {width}")
            x = []
            for c in features:
                try:
                    x.append(_parse_number(row[c], exact))
                except ValueError as err:
                    raise _Located(f"{source}:{line}: column {c + 1}: {err}") from None
            try:
                y = _parse_label(row[label], labels, multiclass)
            except ValueError as err:
                raise _Located(f"{source}:{line}: column {label + 1}: {err}") from None
            yield line, x, y

    return _Input(source, names, examples(), keep)


def _check_delimiter(source, first, delimiter):
    """One column whose text holds another separator: name it, rather than read the file wrong."""
    line, row = first
    if len(row) == 1:
        for other, name in ((";", "';'"), ("\t", "tab"), ("|", "'|'")):
            if other != delimiter and other in row[0]:
                raise _Located(f"{source}:{line}: one column, separated by {name} rather than "
                               f"{'a comma' if delimiter == ',' else repr(delimiter)}: read it with --delimiter {name}")


def _refuse_an_index(source, rows, header):
    """A first column with no name whose first value is 0: pandas' row index (df.to_csv(path)), never a feature."""
    first = next(rows, None)
    if first is not None and first[1][0].strip() == "0":
        raise _Located(f"{source}:{header[0]}: the first column has no name and counts 0, 1, 2, ...: it is the row "
                       "index pandas writes, not a feature; write the file with index=False, or skip the column "
                       "with --drop-column 0 (or give it a name to use it)")
    raise _Located(f"{source}:{header[0]}: the first column has no name; name it, or skip it with --drop-column 0")


def _rows(path, source, delimiter=","):
    """(line, cells) of every row that is not blank, the file read one line at a time."""
    import csv

    try:
        f = sys.stdin.buffer if path == "-" else open(path, "rb")
    except OSError as err:
        raise _Located(f"{source}: cannot read: {err.strerror or err}") from None
    except AttributeError:  # sys.stdin is None: standard input was closed
        raise _Located(f"{source}: cannot read: standard input is closed") from None
    try:
        reader = csv.reader(_lines(f, source), delimiter=delimiter)
        try:
            for row in reader:
                if any(cell.strip() for cell in row):
                    yield reader.line_num, row
        except csv.Error as err:
            raise _Located(f"{source}:{reader.line_num}: {err}") from None
    finally:
        if path != "-":
            f.close()


def _lines(f, source):
    """The lines of a binary file as text: UTF-8, a byte-order mark read as a mark, none too long."""
    number = 0
    while True:
        try:
            raw = f.readline(_LINE_LIMIT + 1)
        except OSError as err:
            raise _Located(f"{source}: cannot read: {err.strerror or err}") from None
        if not raw:
            return
        number += 1
        if len(raw) > _LINE_LIMIT:
            raise _Located(f"{source}:{number}: the line is longer than {_LINE_LIMIT} bytes")
        if b"\0" in raw:  # csv refuses it before Python 3.11 and reads it after: refused alike everywhere
            raise _Located(f"{source}:{number}: the line holds a NUL byte, which no CSV text does")
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):  # the mark Excel writes: not data
            raw = raw[3:]
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise _Located(f"{source}:{number}: not UTF-8 text ({err.reason} at byte {err.start + 1} of the line)"
                           ) from None


def _all_numbers(row, columns) -> bool:
    """Whether every cell looks like a number (nan and inf count: they are data, refused later)."""
    return all(_form(row[c]) for c in columns)


def _parse_label(text, labels, multiclass):
    """A label cell as -1/+1: labels = (NEG, POS) are numbers (compared by value, so 1.0 is 1)
    or names (compared as text), as --labels gives them; Kalyanakrishnan's 0/1 is (0, 1)."""
    t = text.strip()
    if multiclass:
        if not t:
            raise ValueError("the label is empty")
        return t
    try:
        value = _parse_number(t, True)
    except ValueError:
        value = None
    for y, name in ((1, labels[1]), (-1, labels[0])):
        if t == name if isinstance(name, str) else (value is not None and value == name):
            return y
    raise ValueError(f"label {_short(t)} is not {labels[0]} or {labels[1]}")


def _labels_option(text):
    """--labels=NEG,POS: two distinct names; whole numbers are read as numbers."""
    import argparse

    names = [t.strip() for t in text.split(",")]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        raise argparse.ArgumentTypeError(f"{_short(text)} is not two distinct labels NEG,POS (as --labels=B,M)")
    return tuple(int(t) if _form(t) == "int" and len(t) < 20 else t for t in names)


def _delimiter_option(text):
    import argparse

    text = "\t" if text in ("tab", "\\t") else text
    if len(text) != 1 or text in "\r\n\"" or text.isalnum():
        raise argparse.ArgumentTypeError(f"{_short(text)} is not one separator character (or 'tab')")
    return text


def _kernel(spec):
    """The kernel a --kernel spec names, from this project's kernels.py (imported here, never at load time)."""
    try:
        import kernels
    except ImportError:
        kernels = None
    if not (callable(getattr(kernels, "from_spec", None)) and hasattr(kernels, "KernelError")):
        found = "none" if kernels is None else f"another module of that name, {getattr(kernels, '__file__', None)}"
        raise PerceptronError(f"--kernel needs kernels.py, this project's kernels, beside perceptron.py "
                              f"(found {found})")
    try:
        return kernels.from_spec(spec)
    except ValueError as err:  # kernels.KernelError
        raise PerceptronError(str(err)) from None


def _vector_option(text, exact, option):
    try:
        return [_parse_number(cell, exact) for cell in text.split(",")]
    except ValueError as err:
        raise PerceptronError(f"{option}: {err}") from None


def _passes_option(text):
    import argparse

    value = int(text) if _form(text) == "int" and len(text) < 20 else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{_short(text)} is not a whole number >= 1")
    return value


def _whole_option(text):
    import argparse

    if _form(text) != "int" or len(text) > 20:
        raise argparse.ArgumentTypeError(f"{_short(text)} is not a whole number")
    return int(text)


def _tolerance_option(text):
    import argparse

    if _form(text) not in ("int", "decimal") or len(text) > 40 or Fraction(text) < 0:
        raise argparse.ArgumentTypeError(f"{_short(text)} is not a number >= 0 (as 1e-12)")
    return Fraction(text)


# Options that take a value, and options that do not apply beside another one (or without a FILE).
_VALUED = ("label_column", "labels", "rule", "kernel", "w_star", "svg", "svg_steps", "test", "model", "check",
           "vectors")
_NOT_BESIDE = {"multiclass": ("kernel", "w_star", "labels", "average", "voted"), "epochs": ("max_epochs",),
               "json": ("quiet", "trace"), "quiet": ("weights", "trace"), "kernel": ("average", "voted"),
               "model": ("rule", "bias", "epochs", "max_epochs", "pocket", "kernel", "multiclass", "w_star", "labels",
                         "average", "voted", "svg", "svg_steps", "test", "weights", "trace", "check"),
               "check": ("json", "quiet", "trace", "test", "svg", "svg_steps", "w_star"),
               "tolerance": ("json", "quiet", "model")}
_NEED_FILE = ("label_column", "labels", "header", "delimiter", "drop_column", "test", "model", "check")
_DEFAULTS = {"label_column": -1, "labels": (-1, 1), "rule": "sign", "max_epochs": 1000, "delimiter": ",",
             "drop_column": ()}


def _arguments(argv):
    """The parsed options, with every usage error said in one line."""
    args = _parser().parse_args(argv)
    given = {name for name, value in vars(args).items() if value not in (None, False) and name != "header"}
    given |= {"header"} if not args.header else set()
    for name in _VALUED:
        if getattr(args, name) == "":
            raise PerceptronError(f"{_flag_name(name)} needs a value (see --help)")
    for option, others in _NOT_BESIDE.items():
        for other in others:
            if option in given and other in given:
                raise PerceptronError(f"{_flag_name(other)} does not apply to {_flag_name(option)}")
    if args.vectors is not None and given - {"vectors"}:
        other = min(given - {"vectors"})
        raise PerceptronError(f"{'a FILE' if other == 'file' else _flag_name(other)} does not apply to --vectors")
    if "tolerance" in given and "check" not in given:
        raise PerceptronError("--tolerance applies to --check only")
    if args.multiclass == "joint" and "rule" in given:
        raise PerceptronError("--rule does not apply to --multiclass joint: an argmax has no zero-score question")
    if args.file is None:
        for name in _NEED_FILE:
            if name in given:
                raise PerceptronError(f"{_flag_name(name)} applies to a FILE, not to the embedded example")
    for name, value in _DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.given = given
    return args


def _flag_name(name):
    return "--no-header" if name == "header" else "--" + name.replace("_", "-")


def _parser():
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):  # one line, exit 2, as every other error here
            raise PerceptronError(f"{message} (see --help)")

    parser = Parser(
        prog="perceptron",
        description="Train the Perceptron (primal, dual or kernelized) on a CSV file, or on the "
                    "embedded example, and print every mistake.",
        epilog="Exit status: 0 when the run converged or made the passes asked for, 1 when passes "
               "until convergence stopped at --max-epochs, 2 for bad input or usage.")
    arg = parser.add_argument
    arg("file", nargs="?", metavar="FILE", help="CSV file, '-' for standard input (default: the embedded example)")
    arg("--label-column", type=_whole_option, metavar="N",
        help="the label's column, 0-based, negative from the end (default: -1)")
    arg("--no-header", dest="header", action="store_false", help="the first row is data even if it is not numeric")
    arg("--exact", action="store_true", help="read decimals and p/q as exact Fractions (0.1 is 1/10)")
    arg("--labels", type=_labels_option, metavar="NEG,POS",
        help="the two labels, negative first: -1,1 (default), 0,1 (Kalyanakrishnan's), or names (--labels=B,M)")
    arg("--delimiter", type=_delimiter_option, metavar="C", help="the separator of the cells (default ','; 'tab')")
    arg("--drop-column", type=_whole_option, action="append", metavar="N",
        help="skip column N, 0-based (as pandas' index column: --drop-column 0); may be given again")
    arg("--rule", choices=sorted(RULES), help="when a score is a mistake (default: sign)")
    arg("--bias", action="store_true", help="append the constant feature 1; the bias is the last weight")
    arg("--epochs", type=_passes_option, metavar="K",
        help="make K passes (1: one online pass); default: until a pass makes no mistake")
    arg("--max-epochs", type=_passes_option, metavar="M",
        help="the most passes until convergence (default: 1000)")
    arg("--pocket", action="store_true", help="also report the pocket: the weights with the fewest training errors")
    arg("--kernel", metavar="NAME[:PARAM]",
        help="the kernel dual with a kernel of kernels.py: linear, monotone-conjunction, all-conjunction, "
             "conjunction:K, polynomial:D[:C], gaussian:SIGMA")
    arg("--multiclass", nargs="?", const="one-vs-rest", choices=["one-vs-rest", "joint"], metavar="UPDATE",
        help="labels are any strings: one weight vector per class, argmax; one-vs-rest (the default, "
             "Kalyanakrishnan §4) or joint (Collins 2002)")
    arg("--average", choices=["after", "before"], help="also report the averaged weights: the mean after every "
        "example (Collins 2002; scikit-learn's average=True) or before it (nltk)")
    arg("--voted", action="store_true", help="also report Freund and Schapire's voted perceptron: every w with "
        "the number of examples it stood for")
    arg("--w-star", metavar="W",
        help="a separating w*, as 1,2,3 (write --w-star=-2,1): print R^2/gamma^2 and check the mistakes")
    arg("--weights", action="store_true", help="show w after every mistake even with more than 8 features "
        "(with --json: each trace entry's weights)")
    arg("--quiet", action="store_true", help="print only the summary")
    arg("--trace", choices=["all"], help="show every mistake in the text report (default: the first 20 and "
        "the last 5)")
    arg("--json", action="store_true", help="print one JSON document for programs instead")
    arg("--test", metavar="FILE2", help="after training, count the errors of the final weights (and the pocket's, "
        "the average's, the vote's) on a held-out CSV read with the same options")
    arg("--model", metavar="RUN.json", help="apply a run saved by --json to FILE, without training: its errors "
        "and predictions")
    arg("--check", metavar="THEIRS.json", help="compare a run of another implementation (JSON, as --json writes "
        "it) with this run: exit 0 if they agree, 1 with the first step where they part and why")
    arg("--tolerance", type=_tolerance_option, metavar="T", help="with --check: numbers agree within relative "
        "tolerance T (for a float implementation that sums in another order)")
    arg("--vectors", metavar="DIR", help="write the conformance corpus into DIR: data, options and expected "
        "JSON of every case, and DIR/index.json")
    arg("--svg", metavar="OUT.svg", help="also draw the run (2 features): the hyperplane after each mistake")
    arg("--svg-steps", metavar="DIR", help="also draw one SVG per mistake into DIR, to page through the run")
    arg("--version", action="version", version=f"perceptron {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; ``python3 perceptron.py --help`` lists its options."""
    try:
        return _main(sys.argv[1:] if argv is None else argv)
    except PerceptronError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (| head): quietly, as a shell tool would
        _drop_output()
        return 141
    except KeyboardInterrupt:  # Ctrl-C on a long run: no traceback, the shell's status
        print(file=sys.stderr)
        return 130


def _main(argv) -> int:
    args = _arguments(argv)
    if args.vectors is not None:
        return _write_vectors(args.vectors)
    if args.model:
        return _apply(args)
    if args.check:
        return _check(args)
    labels = args.labels
    kernel = _kernel(args.kernel) if args.kernel else None
    w_star = _vector_option(args.w_star, args.exact, "--w-star") if args.w_star else None
    if w_star is None and args.file is None and not (args.bias or args.multiclass or kernel):
        w_star = list(W_STAR)
    # One online pass streams the file, in constant memory; anything that reads
    # the examples again (more passes, the pocket, a kernel, the bound, the
    # pictures) keeps them.  The trace is kept only where it is shown.
    stream = args.epochs == 1 and not (w_star or args.svg or args.svg_steps or kernel or args.pocket
                                        or args.multiclass or args.average or args.voted)
    data = _embedded(not stream) if args.file is None else _read(args, args.file, keep=not stream)
    shown = not args.quiet or args.json or args.svg or args.svg_steps
    progress = _Progress() if sys.stderr is not None and sys.stderr.isatty() else None
    log = _Log(data, progress, store=shown, weights=_weights_kept(args, data)) if shown or progress else False
    interrupted = False
    with _big_ints():
        try:
            examples = data if stream else list(data)
            run = _fit(args, examples, kernel, log)
            bound = _bound(examples, run, w_star, kernel) if w_star is not None else None
        except _Located:
            raise
        except PerceptronError as err:
            raise _at_line(err, data) from None
        except KeyboardInterrupt as stop:  # Ctrl-C: the report of the run so far, then the shell's status
            so_far = getattr(stop, "run", None)
            if so_far is None:
                raise
            run, bound, interrupted = so_far, None, True
            examples = examples if isinstance(examples, list) else None
        finally:
            if progress is not None:
                progress.done()
        if not shown:
            run = run._replace(trace=None)
        test = _test(args.test, args, labels, run) if args.test and not interrupted else None
        show = _Show(args, data, labels, run, bound, _training_errors(run, examples), test, interrupted)
        report = _json(show) if args.json else _text(show)
        pictures = {} if interrupted else _pictures(args, examples, run, w_star, data.names)
    _write_pictures(args, pictures)
    _emit(report, args.json)
    return 130 if interrupted else 1 if args.epochs is None and not run.converged else 0


def _read(args, path, keep=True):
    """The examples of a CSV file, read with the options given."""
    return _read_csv(path, exact=args.exact, header=args.header, label_column=args.label_column, labels=args.labels,
                     multiclass=args.multiclass, keep=keep, delimiter=args.delimiter, drop=args.drop_column)


def _fit(args, examples, kernel, log) -> Run:
    """The run the options ask for."""
    if args.multiclass:
        rule = None if args.multiclass == "joint" else args.rule
        return train_multiclass(examples, update=args.multiclass, rule=rule,
                                bias=args.bias, epochs=args.epochs, max_epochs=args.max_epochs, pocket=args.pocket,
                                trace=log)
    return train(examples, rule=args.rule, kernel=kernel, bias=args.bias, epochs=args.epochs,
                 max_epochs=args.max_epochs, pocket=args.pocket, average=args.average, voted=args.voted, trace=log)


def _weights_kept(args, data):
    """Whether the trace keeps w after each mistake: for --json --weights (and --check), and for the
    text report's "w after" column (a primal binary run, 8 features at most unless --weights)."""
    if args.json or args.check:
        return args.weights or bool(args.check)
    if args.quiet or args.kernel or args.multiclass:
        return False
    return lambda: args.weights or data.d <= 8


def _apply(args) -> int:
    """--model RUN.json: a saved run applied to FILE, with --test's report."""
    with _big_ints():
        run, labels = _load(args.model)
        args.multiclass = run.multiclass
        test = _test(args.file, args, labels, run)
        if args.json:
            import json
            report = _json_lines({"perceptron": __version__, "model": args.model,
                                  "test": {k: v for k, v in test.items() if k != "file"}}, json.dumps)
        else:
            title = f"perceptron {__version__}: the run saved in {args.model}, applied"
            report = "\n".join([title] + _test_lines(test))
    _emit(report, args.json)
    return 0


def _load(path):
    """(run, labels): a run saved by --json, as a Run that predicts (its trace is neither needed nor kept),
    and the labels its file used."""
    doc = _json_file(path, "the JSON of a run")
    if not isinstance(doc, dict) or "perceptron" not in doc or "weights" not in doc:
        raise PerceptronError(f"{path}: not the JSON of a run written by --json (no 'perceptron' and 'weights')")
    try:
        return _saved_run(doc)
    except (KeyError, TypeError, ValueError, ArithmeticError) as err:
        raise PerceptronError(f"{path}: not the JSON of a run written by --json: {_reason(err)}") from None


def _saved_run(doc):
    bias, rule, update = doc["bias"] is True, doc["rule"], doc.get("multiclass")
    if doc["weights"] is None:
        raise PerceptronError(f"a {doc.get('kernel')} kernel run's JSON does not hold its stored examples: "
                              "evaluate it with --test when it is trained")
    number = _saved_number
    if update:
        w = {c: [number(v) for v in weights] for c, weights in doc["weights"].items()}
        model = MulticlassPerceptron(list(w), len(next(iter(w.values()))) - bias, update=update,
                                     rule=None if update == "joint" else rule, bias=bias)
        for c, weights in w.items():
            if model.binary:
                model.binary[c].w = weights
            else:
                model._w[c] = weights
        return Run(model.w, model, 0, 0, True, None, None, model.rule, bias, None, multiclass=update), model.classes
    w = [number(v) for v in doc["weights"]]
    model = Perceptron(len(w) - bias, rule=rule, bias=bias)
    model.w = w
    pocket = doc.get("pocket")
    pocket = pocket and Pocket([number(v) for v in pocket["weights"]], pocket["errors"], pocket["mistakes"])
    average = doc.get("average") and [number(v) for v in doc["average"]["weights"]]
    labels = doc["labels"]
    if not (isinstance(labels, list) and len(labels) == 2 and labels[0] != labels[1]):
        raise ValueError(f"labels {_short(labels)} are not two distinct labels")
    return Run(w, model, 0, 0, True, None, pocket, rule, bias, None, average), tuple(labels)


def _saved_number(v):
    """A number as --json writes it: a JSON number, or a string "p/q" (a Fraction) or a Decimal's text."""
    if type(v) in (int, float):
        return v
    if isinstance(v, str) and len(v) > 4 * _DIGITS + 2:
        raise ValueError(f"{_short(v)} has more than {2 * _DIGITS} digits")
    if isinstance(v, str) and _form(v) in ("ratio", "int"):
        return Fraction(v)
    if isinstance(v, str) and _form(v) == "decimal":
        if _exponent(v) > 2 * _DIGITS:  # its exact value, an int or a Fraction, would take 10**e
            raise ValueError(f"{_short(v)}: an exponent beyond {2 * _DIGITS} is not read")
        return decimal.Decimal(v)
    raise ValueError(f"{_short(v)} is not a number")


def _embedded(keep):
    return _Input("the embedded example", ["x1", "x2"], ((None, list(x), y) for x, y in EXAMPLE), keep,
                  numbered=False)


def _at_line(err, data):
    """A run's PerceptronError, re-told with the file's line for the index."""
    line = None if err.index is None else data.where(err.index)[0]
    if line is None:
        return PerceptronError(f"{data.source}: {err}")
    return PerceptronError(f"{data.source}:{line}: {err.reason}")


def _big_ints():
    """Lift Python's limit on the digits of int <-> str (3.11+, and security releases
    before) while the report is written: any int the input held, or a run made of
    them, is written out in full."""
    import contextlib

    get, set_ = getattr(sys, "get_int_max_str_digits", None), getattr(sys, "set_int_max_str_digits", None)

    @contextlib.contextmanager
    def lifted():
        if get is None:
            yield
            return
        limit = get()
        set_(0)
        try:
            yield
        finally:
            set_(limit)
    return lifted()


def _emit(report, as_json):
    """Print the report: whole, in characters the output can encode, or one error line."""
    out = sys.stdout
    if out is None:
        raise PerceptronError("cannot write the report: standard output is closed")
    try:
        report.encode(out.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        report = _ascii(report, as_json)
    try:
        out.write(report + "\n")
        out.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as err:  # a full disk; a closed file
        _drop_output()
        raise PerceptronError(f"cannot write the report: {err.strerror if isinstance(err, OSError) else err}"
                              ) from None


def _ascii(report, as_json):
    """The report in ASCII: JSON with \\u escapes; text with "sec." for § and escapes for the rest."""
    if as_json:
        import json

        return "".join(c if c < "\x80" else json.dumps(c)[1:-1] for c in report)
    return report.replace("§", "sec. ").encode("ascii", "backslashreplace").decode("ascii")


def _drop_output():
    """Send what standard output still holds to nowhere, so that leaving does not fail again."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _bound(examples, run, w_star, kernel):
    """(R^2, gamma^2, R^2/gamma^2, w*) for the run's examples as it saw them."""
    if kernel is not None and not getattr(kernel, "linear", False):
        raise PerceptronError("--w-star: the bound needs explicit weights, so no kernel but linear")
    examples = [(with_bias(x) if run.bias else x, y) for x, y in examples]
    d = len(examples[0][0])
    if len(w_star) != d:
        raise PerceptronError(f"--w-star has {len(w_star)} numbers, the examples have {d} features"
                              + (" with the bias" if run.bias else ""))
    r2 = radius_squared(x for x, _ in examples)
    g2 = margin_squared(examples, w_star)
    return r2, g2, mistake_bound(examples, w_star), w_star


# What the two reports (text and JSON) both need, computed once.
_Show = namedtuple("_Show", "args data labels run bound errors test interrupted")


def _test(path, args, labels, run) -> dict:
    """--test FILE (or --model's FILE): the run's predictors on examples read with the same options."""
    data = _read_csv(path, exact=args.exact, header=args.header, label_column=args.label_column, labels=labels,
                     multiclass=args.multiclass, keep=True, delimiter=args.delimiter, drop=args.drop_column)
    kept = ["w"] + [name for name, value in (("pocket", run.pocket), ("average", run.average), ("voted", run.voted))
                    if value is not None and not run.multiclass and getattr(value, "w", True) is not None]
    errors, predictions = dict.fromkeys(kept, 0), []
    for i, (x, y) in enumerate(data):
        try:
            for name in kept:
                guess = run.predict(x, name)
                errors[name] += guess != y
                if name == "w":
                    predictions.append(guess if run.multiclass else _shown_label(guess, labels))
        except PerceptronError as err:
            raise _at_line(PerceptronError(err.reason, i), data) from None
    return {"file": data.source, "examples": data.count, "errors": errors, "predictions": predictions}


def _test_lines(test) -> list:
    errors = ", ".join(f"{name} {count}" for name, count in test["errors"].items())
    return [f"test: {test['file']}: {test['examples']} examples; errors: {errors}"]


def _training_errors(run, examples) -> dict:
    """{predictor: training errors} of a kept binary run that did not converge or kept more than w."""
    if not isinstance(examples, list) or run.multiclass or (run.w is None and run.kernel is not None):
        return {}
    kept = [name for name, value in (("pocket", run.pocket), ("average", run.average), ("voted", run.voted))
            if value is not None]
    if run.converged and not kept:
        return {}
    return {name: run.errors(examples, name) for name in ["w", *kept]}


def _shown_label(y, labels):
    """The label y (-1 or +1) as the input names it: -1/+1, 0/1, or --labels' names."""
    return labels[1] if y == 1 else labels[0]


def _text(show) -> str:
    """The report for people."""
    args, data, run = show.args, show.data, show.run
    d = data.d
    lines = []
    if not args.quiet:
        names = f" ({', '.join(data.names)})" if data.names and d <= 8 else ""
        labels = ("classes, in order of first appearance" if args.multiclass
                  else "/".join(_label_text(v, show.labels) for v in show.labels))
        bias = "yes (the last weight)" if run.bias else "no"
        passes = f"{args.epochs}" if args.epochs else f"until one makes no mistake, at most {args.max_epochs}"
        lines += [f"perceptron {__version__} on {data.source}: {data.count} examples, {d} features{names}",
                  f"rule:   {RULE_TEXT[run.rule]}"]
        if run.multiclass:
            lines.append(f"multiclass: {MULTICLASS_TEXT[run.multiclass]}")
        lines += [
                  f"labels: {labels}   bias: {bias}   kernel: {run.kernel or 'none (primal)'}",
                  f"passes: {passes}",
                  ""]
        lines.extend(_trace_table(show, d))
        lines.append("")
    lines.extend(_summary(show))
    return "\n".join(lines)


def _trace_table(show, d) -> list:
    args, data, run = show.args, show.data, show.run
    if not run.trace:
        return ["no mistakes"]
    one_vs_rest = run.multiclass == "one-vs-rest"
    header = (["class"] if one_vs_rest else []) + ["epoch", "index"] + (["line"] if data.numbered else [])
    small = d <= 8
    header += ["x"] if small else []
    header += ["y", "predicted"] if run.multiclass == "joint" else ["y", "score"]
    after = None
    if not args.multiclass and run.kernel is None and (small or args.weights):
        header.append("w after")
        after = iter(run.trace.after)
    rows = []
    for m, (line, x) in zip(run.trace, run.trace.where):
        row = ([str(m.cls)] if one_vs_rest else []) + [str(m.epoch), str(m.index)]
        row += ([str(line)] if data.numbered else []) + ([_vec(x)] if small else [])
        if run.multiclass == "joint":
            row += [str(m.y), str(m.predicted)]
        elif one_vs_rest:
            row += [f"{m.y:+d}", _num(m.score)]
        else:
            row += [_label_text(_shown_label(m.y, show.labels), show.labels), _num(m.score)]
        if after is not None:
            w = next(after, None)  # None: the update that Ctrl-C stopped
            row.append("" if w is None else _vec(w))
        rows.append(row)
    hidden = len(rows) - _HEAD - _TAIL if args.trace != "all" else 0
    if hidden <= 0:
        return _table(header, rows)
    lines = _table(header, rows[:_HEAD] + rows[-_TAIL:])
    return lines[:1 + _HEAD] + [f"... {hidden:,} more mistakes ('--trace all' shows them)"] + lines[1 + _HEAD:]


_HEAD, _TAIL = 20, 5  # the mistakes a text report shows by default: the first and the last


def _label_text(y, labels):
    return f"{y:+d}" if labels == (-1, 1) else str(y)


def _summary(show) -> list:
    args, data, run = show.args, show.data, show.run
    lines = []
    if args.multiclass:
        lines.extend(_weights_lines("w", run.w, data.names, run.bias))
    elif run.w is None:
        lines.append(f"w: not written down in a {run.kernel} kernel run: it is sum_j y_j Phi(x_j) "
                     f"over the {run.mistakes} stored mistakes (Columbia §2.3)")
    else:
        lines.extend(_weights_lines("w", {None: run.w}, data.names, run.bias))
    lines.append(f"mistakes: {run.mistakes}")
    stopped = "converged" if run.converged else (
        f"not converged: stopped at --max-epochs {args.max_epochs}" if args.epochs is None
        else "not converged in the passes asked for")
    if show.interrupted:
        stopped = f"interrupted (Ctrl-C) in pass {run.epochs}: the run so far, after {data.count} examples read"
    lines.append(f"epochs: {run.epochs}, {stopped}")
    pockets = run.pocket if isinstance(run.pocket, dict) else {None: run.pocket}
    for c, p in pockets.items() if run.pocket is not None else ():
        shown = "" if p.w is None or isinstance(p.w, dict) else f"w = {_vec(p.w)}, "
        lines.append(f"pocket{'' if c is None else f' of {c}'}: {shown}{p.errors} training errors, "
                     f"the weights after {p.mistakes} mistakes")
        if isinstance(p.w, dict):
            lines.extend(_weights_lines("pocket w", p.w, data.names, run.bias))
    if run.average is not None:
        lines.extend(_weights_lines(f"average ({args.average})", {None: run.average}, data.names, run.bias))
        lines.append(f"averaged over {run.epochs * data.count} examples ({run.epochs} passes)")
    if run.voted is not None:
        lines.append(f"voted: {len(run.voted)} hypotheses v_k, each with the examples it stood for (--json lists "
                     "them); predict sign(sum_k c_k sign(v_k.x))")
    if show.test is not None:
        lines.extend(_test_lines(show.test))
    if show.errors:
        lines.append("training errors: " + ", ".join(f"{name} {count}" for name, count in show.errors.items())
                     + f" (of {data.count})")
    if args.epochs is None and not run.converged and not run.multiclass and not show.interrupted:
        lines.append("  not separable, or not yet: --pocket keeps the weights with the fewest training errors, "
                     "--average after the mean of all; or allow more --max-epochs, or scale the features")
    if args.svg:
        lines.append(f"picture: {args.svg}")
    if args.svg_steps:
        lines.append(f"pictures: {run.mistakes} in {args.svg_steps}, one per mistake")
    if show.bound is not None:
        r2, g2, bound, w_star = show.bound
        holds = "at most" if run.mistakes <= bound else "MORE than"
        lines.append(f"bound: R^2 = {_num(r2)}, gamma^2 = {_num(g2)} for w* = {_vec(w_star)}: "
                     f"{_count(run.mistakes, 'mistake')}, {holds} R^2/gamma^2 = {_num(bound)}")
    return lines


def _weights_lines(label, by_class, names, bias) -> list:
    """The weights, under the feature names when the file had a header."""
    if names is None:
        return [f"{label} = {_vec(w)}" if c is None else f"{label}({c}) = {_vec(w)}" for c, w in by_class.items()]
    header = [""] + names + (["bias"] if bias else [])
    rows = [[label if c is None else f"{label}({c})"] + [_num(v) for v in w] for c, w in by_class.items()]
    return _table(header, rows)


def _json_number(v):
    """int as a JSON integer, float as a JSON number that reads back the same,
    Fraction as the string "p/q" (always with the slash), Decimal as its string."""
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    if isinstance(v, decimal.Decimal):
        return str(v)
    return v


def _json(show) -> str:
    """The report for programs: one JSON document, the same bytes on every run."""
    import json

    args, data, run = show.args, show.data, show.run
    vec = lambda v: None if v is None else [_json_number(x) for x in v]  # noqa: E731
    doc = {
        "perceptron": __version__,
        "input": data.source,
        "rule": run.rule,
        "bias": run.bias,
        "multiclass": run.multiclass,
        "labels": "classes" if args.multiclass else list(show.labels),
        "kernel": run.kernel,
        "examples": data.count,
        "features": data.names,
        "weights": {c: vec(w) for c, w in run.w.items()} if args.multiclass else vec(run.w),
        "mistakes": run.mistakes,
        "epochs": run.epochs,
        "converged": run.converged,
        **({"interrupted": True} if show.interrupted else {}),
        "trace": [_json_mistake(m, line, show.labels, run.multiclass)
                  for m, (line, _) in zip(run.trace or [], run.trace.where if run.trace else [])],
    }
    after = getattr(run.trace, "after", None) if args.weights else None
    for entry, w in zip(doc["trace"], after or ()):  # w after the mistake's update
        entry["weights"] = {c: vec(v) for c, v in w.items()} if isinstance(w, dict) else vec(w)

    def pocket(p):
        w = {c: vec(v) for c, v in p.w.items()} if isinstance(p.w, dict) else vec(p.w)
        return {"weights": w, "errors": p.errors, "mistakes": p.mistakes}
    if run.pocket is not None:
        doc["pocket"] = ({c: pocket(p) for c, p in run.pocket.items()} if isinstance(run.pocket, dict)
                         else pocket(run.pocket))
    if run.average is not None:
        doc["average"] = {"convention": args.average, "weights": vec(run.average),
                          "examples": run.epochs * data.count}
    if run.voted is not None:
        doc["voted"] = [{"weights": vec(v), "count": c} for v, c in run.voted]
    if show.errors:
        doc["training_errors"] = show.errors
    if show.test is not None:
        doc["test"] = {key: value for key, value in show.test.items() if key != "file"}
    if show.bound is not None:
        r2, g2, bound, w_star = show.bound
        doc["bound"] = {"w_star": vec(w_star), "radius_squared": _json_number(r2),
                        "margin_squared": _json_number(g2), "bound": _json_number(bound),
                        "holds": run.mistakes <= bound}
    try:
        return _json_lines(doc, json.dumps)
    except ValueError as err:  # a non-finite float, which JSON has no number for: never written
        raise PerceptronError(f"the JSON report cannot be written: {err}") from None


def _json_lines(doc, dumps) -> str:
    """doc as JSON with one field per line and one trace entry per line."""
    def dump(value):
        return dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "))

    fields = []
    for key, value in doc.items():
        if key == "trace" and value:
            entries = ",\n".join(f"    {dump(entry)}" for entry in value)
            fields.append(f'  "trace": [\n{entries}\n  ]')
        else:
            fields.append(f"  {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(fields) + "\n}"


def _json_mistake(m, line, labels, multiclass) -> dict:
    entry = {"class": m.cls} if multiclass == "one-vs-rest" else {}
    entry.update(epoch=m.epoch, index=m.index)
    if line is not None:
        entry["line"] = line
    if multiclass == "joint":
        entry.update(y=m.y, predicted=m.predicted)
    elif multiclass == "one-vs-rest":
        entry.update(y=m.y, score=_json_number(m.score))
    else:
        entry.update(y=_shown_label(m.y, labels), score=_json_number(m.score))
    return entry



# ===========================================================================
# --check: another implementation's run against this one, and why they part
#
# THEIRS is read in the vocabulary of --json and compared by exact value (a
# JSON float is the binary64 it reads as, "p/q" a Fraction).  At the first
# difference the diagnosis is tried in order:
#   (a) a convention: THEIRS is this project's run under other named settings;
#   (b) for floats, a score whose sign a sum in another order can flip;
#   (c) otherwise a bug: what the notes require at that step, and what THEIRS did.
# ===========================================================================

_Mistake = namedtuple("_Mistake", "cls epoch index score weights")  # one mistake, its numbers exact (None: not given)

# The unit roundoff of binary64: every float operation is exact times (1 + e), |e| <= u.
_U = Fraction(1, 2 ** 53)
_RATE_TOLERANCE = Fraction(1, 10 ** 9)  # floats: eta * (sum y x) and sum eta y x round apart
_ZERO_SIGN = {"margin": "a zero score is a mistake (Cornell §3). np.sign-style code, `if np.sign(w @ x) != y`, "
                        "is this rule: np.sign(0) == 0 is never a label",
              "sign": "a zero score is a mistake only on a negative example: sign(0) = +1 (Columbia §1.1)"}


def _check(args) -> int:
    """--check THEIRS.json: 0 if THEIRS agrees with this run, else 1 with where they part and why."""
    tolerance = args.tolerance or 0
    with _big_ints():
        data, examples, conventions = _check_data(args)
        kernel = _kernel(args.kernel) if args.kernel else None
        ours = _ours(args, data, examples, kernel)
        theirs = _theirs(args.check, ours, data)
        difference = _difference(ours, theirs, tolerance)
        if difference is None and not conventions:
            lines = [f"check: {args.check} agrees with this run of {data.source}: {_agreement(ours, theirs)}"]
            _emit("\n".join(lines), False)
            return 0
        lines = [f"check: {args.check} against this run of {data.source} ({_settings(args)})"]
        if difference is not None:
            lines += _where(difference, ours, theirs, examples, data)
        found = _convention(args, data, examples, kernel, theirs, tolerance, conventions)
        if found is not None:
            lines += found
        elif difference is not None:
            lines += _rounding(difference, ours, theirs, examples) or _bug(difference, ours, theirs, examples)
    _emit("\n".join(lines), False)
    return 1


def _check_data(args):
    """(data, examples, conventions): the examples; a file of 0/1 labels read without
    --labels is read as 0/1 (Kalyanakrishnan's), which is then a convention to report."""
    try:
        data = _read(args, args.file)
        return data, _examples(data), []
    except _Located as err:
        if not ("labels" in args.given or args.multiclass) and "label '0' is not -1 or 1" in str(err):
            args.labels = (0, 1)
            data = _read(args, args.file)
            return data, _examples(data), [("--labels=0,1", "labels 0/1, read as -1/+1 (Kalyanakrishnan §1)")]
        raise


def _examples(data):
    try:
        return list(data)
    except _Located:
        raise
    except PerceptronError as err:
        raise _at_line(err, data) from None


def _ours(args, data, examples, kernel) -> dict:
    """This run under ``args``, with w after each mistake, as exact values."""
    log = _Log(None, weights=True)
    try:
        run = _fit(args, examples, kernel, log)
    except PerceptronError as err:
        raise _at_line(err, data) from None
    after = log.after or []
    steps = [_Mistake(getattr(m, "cls", None), m.epoch, m.index, _exact(getattr(m, "score", None)),
                  _exact(after[k] if k < len(after) else None)) for k, m in enumerate(log)]
    pocket = run.pocket
    if isinstance(pocket, dict):
        pocket = {c: p.w for c, p in pocket.items()}
    elif pocket is not None:
        pocket = pocket.w
    return {"run": run, "log": log, "weights": _exact(run.w), "trace": steps, "epochs": run.epochs,
            "converged": run.converged, "pocket": _exact(pocket), "average": _exact(run.average)}


def _exact(v):
    """Weights, a dict of them or a number as exact values (Fractions of the floats); None stays."""
    if v is None:
        return None
    if isinstance(v, dict):
        return {str(c): _exact(w) for c, w in v.items()}
    if isinstance(v, list):
        return [Fraction(x) for x in v]
    return Fraction(v)


def _theirs(path, ours, data) -> dict:
    """THEIRS.json as a side like ``ours``, its form checked against this run's: a careless
    form (a missing field, a wrong length, an index out of range) is a clear error."""
    doc = _json_file(path, "the JSON of a run")

    def wrong(where, what):
        return PerceptronError(f"{path}: {where}: {what}")
    if not isinstance(doc, dict) or "weights" not in doc:
        raise wrong("no 'weights'", "give the final weights: a list (an object of lists for --multiclass, "
                    "null for a --kernel run); see the README's --check section")
    if doc["weights"] is None and not any(doc.get(key) is not None for key in ("trace", "average", "pocket")):
        raise wrong("weights", "null, and nothing else to compare: give the weights, the trace or the average")
    run = ours["run"]
    shape = _shape(ours)

    def weights(v, where):
        if v is None and (shape == "none" or where == "weights"):
            return None  # a kernel run's; or not given (an averaged peer may give only its average)
        if shape == "none":
            raise wrong(where, f"a {run.kernel} kernel run has no explicit weights: give null and the trace")
        if shape == "dict":
            if not isinstance(v, dict) or set(v) != set(ours["weights"]):
                raise wrong(where, f"not an object of the classes {sorted(ours['weights'])}")
            return {c: vector(v[c], f"{where}.{c}") for c in ours["weights"]}
        return vector(v, where)

    def vector(v, where):
        d = data.d
        if not isinstance(v, list) or len(v) not in (d, d + 1):
            n = f"{len(v)} numbers" if isinstance(v, list) else _short(v)
            raise wrong(where, f"{n}: the data has {d} features, so {d} weights ({d + 1} with a bias)")
        return [number(x, f"{where}[{i}]") for i, x in enumerate(v)]

    def number(v, where):
        try:
            if type(v) is float and not _finite(v):
                raise ValueError(f"{_short(v)} is not a number")
            return Fraction(_saved_number(v))
        except ArithmeticError:  # "p/0"
            raise wrong(where, f"{_short(v)} is not a number (a JSON number or \"p/q\")") from None
        except ValueError as err:
            raise wrong(where, f"{_reason(err)} (a JSON number or \"p/q\")") from None

    def step(k, entry):
        where = f"trace[{k}]"
        if not isinstance(entry, dict) or not all(isinstance(entry.get(key), int) and not
                                                  isinstance(entry.get(key), bool) for key in ("epoch", "index")):
            raise wrong(where, "each mistake needs an int 'epoch' (from 1) and 'index' (the example's, from 0)")
        if not (0 <= entry["epoch"] and 0 <= entry["index"] <= len(data.kept)):
            raise wrong(where, f"epoch {entry['epoch']}, index {entry['index']}: out of range for "
                        f"{len(data.kept)} examples (indexes count from 0)")
        cls = entry.get("class")
        if run.multiclass == "one-vs-rest" and cls is not None and str(cls) not in ours["weights"]:
            raise wrong(where, f"'class' {_short(cls)} is not one of {sorted(ours['weights'])}")
        score = entry.get("score")
        after = entry.get("weights")
        return _Mistake(None if cls is None else str(cls), entry["epoch"], entry["index"],
                    None if score is None else number(score, f"{where}.score"),
                    None if after is None else vector(after, f"{where}.weights") if isinstance(after, list)
                    and shape != "none" else weights(after, f"{where}.weights"))
    trace = doc.get("trace")
    if trace is not None and not isinstance(trace, list):
        raise wrong("trace", "a list of mistakes")
    if trace is None and shape == "none":
        raise wrong("no 'trace'", "a kernel run is compared by its stored mistakes: give each one's epoch and index")
    for key, kind in (("epochs", int), ("converged", bool)):
        if key in doc and type(doc[key]) is not kind:
            raise wrong(key, f"{_short(doc[key])} is not {'an int' if kind is int else 'true or false'}")
    side = {"weights": weights(doc["weights"], "weights"), "epochs": doc.get("epochs"),
            "converged": doc.get("converged"), "trace": None if trace is None else [step(k, e) for k, e in
                                                                                    enumerate(trace)]}
    for key in ("average", "pocket"):
        v = doc.get(key)
        if isinstance(v, dict) and "weights" in v:
            v = v["weights"]
        elif key == "pocket" and isinstance(v, dict) and run.multiclass == "one-vs-rest":
            v = {c: p.get("weights") if isinstance(p, dict) else p for c, p in v.items()}
        side[key] = None if v is None else weights(v, key)
    return side


def _shape(ours):
    w = ours["weights"]
    return "none" if w is None else "dict" if isinstance(w, dict) else "list"


def _json_file(path, what):
    """A JSON file of at most 256 MiB, its ints of at most 2 _DIGITS digits: a run's weights
    (sums of cells of at most _DIGITS digits) fit, and nothing takes quadratic time to read,
    whatever limit the report has lifted."""
    import json

    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    if limit != 2 * _DIGITS and hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(2 * _DIGITS)
    try:
        with open(path, encoding="utf-8") as f:
            return json.loads(f.read(1 << 28), parse_constant=_no_constant)
    except OSError as err:
        raise PerceptronError(f"{path}: cannot read: {err.strerror or err}") from None
    except ValueError as err:  # not UTF-8, not JSON, NaN or Infinity, an int of too many digits
        raise PerceptronError(f"{path}: not {what}: {_reason(err)}") from None
    except RecursionError:
        raise PerceptronError(f"{path}: not {what}: its lists or objects are nested too deeply") from None
    finally:
        if limit != 2 * _DIGITS and hasattr(sys, "set_int_max_str_digits"):
            sys.set_int_max_str_digits(limit)


def _no_constant(name):
    raise ValueError(f"{name} is not a number JSON has")


def _close(a, b, tolerance):
    """a == b, or within the relative tolerance: |a_i - b_i| <= t max_j(|a_j|, |b_j|) for vectors."""
    if a is None or b is None:
        return a is b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_close(a[c], b[c], tolerance) for c in a)
    if not isinstance(a, list):
        a, b = [a], [b]
    if len(a) != len(b):
        return False
    if not tolerance:
        return a == b
    scale = tolerance * max(map(abs, a + b), default=0)
    return all(abs(p - q) <= scale for p, q in zip(a, b))


def _difference(ours, theirs, tolerance):
    """The first difference, as (what, k, ours, theirs), or None: the trace mistake by mistake
    (which example, its score, w after), then the final weights, the passes, the pocket, the average."""
    if theirs["trace"] is not None:
        a, b = ours["trace"], theirs["trace"]
        for k, (o, t) in enumerate(zip(a, b)):
            if (o.cls, o.epoch, o.index) != (t.cls if o.cls is not None else None, t.epoch, t.index):
                return "mistake", k, o, t
            if t.score is not None and o.score is not None and not _close(o.score, t.score, tolerance):
                return "score", k, o, t
            if t.weights is not None and not _close(o.weights, t.weights, tolerance):
                return "w after", k, o, t
        if len(a) != len(b):
            k = min(len(a), len(b))
            return "mistake", k, a[k] if k < len(a) else None, b[k] if k < len(b) else None
    if theirs["weights"] is not None and not _close(ours["weights"], theirs["weights"], tolerance):
        return "weights", None, ours["weights"], theirs["weights"]
    for key in ("epochs", "converged", "pocket", "average"):
        if theirs[key] is None:
            continue
        if not _close(ours[key], theirs[key], tolerance) if key in ("pocket", "average") else ours[key] != theirs[key]:
            return key, None, ours[key], theirs[key]
    return None


def _agreement(ours, theirs) -> str:
    compared = [key for key in ("weights", "trace", "epochs", "converged", "pocket", "average")
                if theirs[key] is not None]
    return f"{_count(len(ours['trace']), 'mistake')}; compared: {', '.join(compared)}"


def _settings(args) -> str:
    kind = (f"multiclass {args.multiclass}" if args.multiclass else f"kernel {args.kernel}" if args.kernel
            else "primal")
    passes = _count(args.epochs, "pass") if args.epochs else f"until a clean pass, at most {args.max_epochs}"
    rule = "" if args.multiclass == "joint" else f"rule {args.rule}, "
    return f"{kind}, {rule}{'bias last' if args.bias else 'no bias'}, {passes}"


# The first difference, told: where the runs part, and what each side did there.
def _where(difference, ours, theirs, examples, data) -> list:
    what, k, o, t = difference
    if k is None:
        return [f"they differ in the {what}:", f"  ours:   {_shown(o)}", f"  theirs: {_shown(t)}"]
    lines = [f"they part at mistake {k + 1} of the trace ({what}):"]
    for name, m in (("ours:  ", o), ("theirs:", t)):
        lines.append(f"  {name} " + ("no more mistakes" if m is None else _step_text(m, data)))
    step = _parting(difference)
    if what == "mistake":
        did = {name: "an update" if m is not None and (m.cls, m.epoch, m.index) == (step.cls, step.epoch, step.index)
               else "no update" for name, m in (("ours", o), ("theirs", t))}
        lines.append(f"  at epoch {step.epoch}, index {step.index}" + (f", class {step.cls}" if step.cls else "")
                     + f": ours made {did['ours']}, theirs {did['theirs']}")
    x, y = examples[step.index]
    lines.append(f"  the example: x = {_vec(x)}, y = {y if type(y) is str else f'{y:+d}'}")
    before = _before(ours, k, step.cls)
    if before is not None:
        lines.append(f"  w before it: {_shown(before)}")
    return lines


def _step_text(m, data) -> str:
    line = data.where(m.index)[0] if m.index < len(data.kept) else None
    text = (f"class {m.cls}, " if m.cls is not None else "") + f"epoch {m.epoch}, index {m.index}"
    text += f" (line {line})" if line is not None else ""
    if m.score is not None:
        text += f", score {_num(_tidy(m.score))}"
    if m.weights is not None:
        text += f", w after {_shown(m.weights)}"
    return text


def _tidy(v):
    return v.numerator if isinstance(v, Fraction) and v.denominator == 1 else v


def _shown(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, dict):
        return ", ".join(f"{c}: {_shown(w)}" for c, w in v.items())
    if isinstance(v, list):
        return _vec([_tidy(x) for x in v])
    return _num(_tidy(v)) if isinstance(v, (int, Fraction)) else str(v)


def _parting(difference):
    """The visit at which the runs part: the earlier of the two k-th mistakes."""
    _, _, o, t = difference
    return min((m for m in (o, t) if m is not None), key=lambda m: (m.epoch, m.index))


def _before(ours, k, cls):
    """Our w before the k-th mistake (of class cls in a one-vs-rest run), exact; None for a kernel run."""
    if ours["weights"] is None:
        return None
    for m in reversed(ours["trace"][:k]):
        if m.cls == cls:
            return m.weights
    w = ours["weights"]
    zero = lambda v: [Fraction(0)] * len(v)  # noqa: E731
    if cls is not None:
        return zero(w[cls])
    return {c: zero(v) for c, v in w.items()} if isinstance(w, dict) else zero(w)


# (a) A convention: THEIRS is this project's run under other named settings.
def _convention(args, data, examples, kernel, theirs, tolerance, conventions) -> list | None:
    """Lines naming the fewest changes of setting under which THEIRS agrees, or None."""
    import copy

    runs: dict = {}
    for changes in sorted(_changes(args, theirs, data.d), key=len):
        if not changes and not conventions:
            continue  # as given: that is the run THEIRS already differs from
        settings = {key: value for key, value, _ in changes if not key.startswith("~")}
        key = tuple(sorted(settings.items()))
        if key not in runs:
            variant = copy.copy(args)
            vars(variant).update(settings)
            try:
                runs[key] = _ours(variant, data, examples, kernel)
            except PerceptronError:
                runs[key] = None
        ours = runs[key]
        if ours is None:
            continue
        moved = _moved(theirs, ours, {k: v for k, v, _ in changes}, data)
        if moved is None:
            continue
        told, rate_tolerance, rate_said = moved
        if _difference(ours, told, max(tolerance, rate_tolerance)) is None:
            variant = copy.copy(args)
            vars(variant).update(settings)
            said = [text for _, _, text in changes if text] + rate_said + [text for _, text in conventions]
            converted = any(key.startswith("~") for key, _, _ in changes)
            return (["diagnosis: a convention, not a bug.  THEIRS is this project's run with:"]
                    + [f"  - {text}" for text in said]
                    + [f"reproduce it: {_command(variant, data)}"
                       + ("  (with the conversions above, which no option makes)" if converted else "")])
    return None


def _changes(args, theirs, d) -> list:
    """Every combination of the conventions that may apply, each a list of (setting, value, text);
    a setting named "~..." is a conversion of THEIRS, not an option of this run."""
    choices: list = []
    if args.multiclass != "joint":
        other = "margin" if args.rule == "sign" else "sign"
        choices.append([[], [("rule", other, f"--rule {other}: {_ZERO_SIGN[other]}")]])
    lengths = {len(w) for key in ("weights", "average", "pocket") for w in _vectors(theirs[key])}
    lengths |= {len(w) for m in theirs["trace"] or () for w in _vectors(m.weights)}
    if args.kernel or not lengths:  # no weights to count: either
        choices.append([[], [("bias", not args.bias, "no --bias" if args.bias else "--bias")]])
    elif lengths == {d + 1}:
        bias = [] if args.bias else [("bias", True, "--bias: they learn a bias, the weight of a constant feature 1")]
        choices.append([bias, bias + [("~first", True, "their bias is their first weight; here it is the last")]])
    elif lengths == {d} and args.bias:
        choices.append([[("bias", False, "no --bias: they learn no bias")]])
    if args.multiclass:
        other = "joint" if args.multiclass == "one-vs-rest" else "one-vs-rest"
        choices.append([[], [("multiclass", other, f"--multiclass {other}: " + (
            "the joint update, w(y) += x and w(guess) -= x (Collins 2002)" if other == "joint"
            else "one binary Perceptron per class (Kalyanakrishnan §4)"))]])
    if args.average and theirs["average"] is not None:
        other = "before" if args.average == "after" else "after"
        choices.append([[], [("average", other, f"--average {other}: the mean of w " + (
            "before each example (nltk)" if other == "before" else "after each example (Collins 2002)"))]])
    choices.append([[], [("~epoch", 1, "their epochs count from 0; here from 1")]])
    choices.append([[], [("~index", -1, "their indexes count from 1; here from 0")]])
    choices.append([[], [("~rate", None, None)]])
    combos: list = [[]]
    for choice in choices:
        combos = [c + o for c in combos for o in choice]
    return combos


def _vectors(w):
    return [] if w is None else list(w.values()) if isinstance(w, dict) else [w]


def _moved(theirs, ours, changes, data):
    """(THEIRS read back under the conversions in ``changes``, the tolerance they need, their texts),
    or None where one cannot apply: their bias first, 0-based epochs, 1-based indexes, a learning rate."""
    first, de, di = "~first" in changes, changes.get("~epoch", 0), changes.get("~index", 0)
    rate, tolerance, said = Fraction(1), 0, []
    if "~rate" in changes:
        rate = _rate(ours["weights"], theirs["weights"])
        if rate is None:
            return None
        # w starts at 0 and every update adds eta y x, so w = eta (sum y x) and w.x = eta (sum y x).x:
        # the same signs, the same mistakes, every number eta times ours.  Scaling by a power of two is
        # exact in binary64; by another eta their sums round apart from eta times ours, hence a tolerance.
        if (rate.numerator & (rate.numerator - 1)) or (rate.denominator & (rate.denominator - 1)):
            tolerance = _RATE_TOLERANCE
        said = [f"a learning rate eta = {_num(_tidy(rate))}: their weights and scores are eta times ours "
                f"(started at w = 0, the same mistakes; no option: divide their numbers by {_num(_tidy(rate))})"]

    def w(v):
        if v is None:
            return None
        if isinstance(v, dict):
            return {c: w(u) for c, u in v.items()}
        return [a / rate for a in (v[1:] + v[:1] if first else v)]
    steps = theirs["trace"]
    if steps is not None:
        steps = [_Mistake(m.cls, m.epoch + de, m.index + di, None if m.score is None else m.score / rate, w(m.weights))
                 for m in steps]
        if any(not 0 <= m.index < len(data.kept) for m in steps):
            return None
    moved = dict(theirs, weights=w(theirs["weights"]), trace=steps, pocket=w(theirs["pocket"]),
                 average=w(theirs["average"]))
    return moved, tolerance, said


def _rate(ours, theirs):
    """eta if theirs == eta * ours for some eta > 0 other than 1 (their first weight not 0 says which)."""
    for a, b in zip(_flat(ours), _flat(theirs)):
        if a != 0:
            rate = b / a
            return rate if rate > 0 and rate != 1 else None
    return None


def _flat(w):
    return [v for u in _vectors(w) for v in u]


def _command(args, data) -> str:
    """The command line of a run with these settings (and THEIRS to check)."""
    import shlex

    options = [args.file]
    options += ["--exact"] if args.exact else []
    options += [f"--label-column={args.label_column}"] if args.label_column != -1 else []
    options += [f"--labels={args.labels[0]},{args.labels[1]}"] if args.labels != (-1, 1) else []
    options += [f"--delimiter={args.delimiter}"] if args.delimiter != "," else []
    options += [f"--drop-column={c}" for c in args.drop_column] + (["--no-header"] if not args.header else [])
    options += [f"--multiclass={args.multiclass}"] if args.multiclass else []
    options += [f"--kernel={args.kernel}"] if args.kernel else []
    options += [f"--rule={args.rule}"] if args.rule != "sign" and args.multiclass != "joint" else []
    options += ["--bias"] if args.bias else []
    options += [f"--epochs={args.epochs}"] if args.epochs else []
    options += [f"--max-epochs={args.max_epochs}"] if args.max_epochs != 1000 and not args.epochs else []
    options += ["--pocket"] if args.pocket else []
    options += [f"--average={args.average}"] if args.average else []
    options += ["--voted"] if args.voted else []
    return "python3 perceptron.py " + " ".join(map(shlex.quote, options + ["--check", args.check]))


# (b) A tie broken by rounding.  A float dot product summed in any order is
# within gamma_n S of the exact w.x, where S = sum |w_i x_i| and gamma_n =
# n u / (1 - n u), u = 2^-53 (Higham, "Accuracy and Stability of Numerical
# Algorithms", 2002, §3.1: each of the n products and n - 1 sums rounds once
# by at most u, and a term passes through at most n of them).  So two orders
# differ by at most 2 gamma_n S, and where our score is within that of the
# rule's edge 0, another order may land on the other side of it: not a bug.
def _rounding(difference, ours, theirs, examples) -> list | None:
    what, k, o, t = difference
    run = ours["run"]
    if what not in ("mistake", "score") or run.multiclass or run.kernel is not None:
        return None
    step = _parting(difference)
    x = examples[step.index][0]
    w = _actual_before(ours, k)
    if not any(type(v) is float for v in [*x, *w]):
        return None
    s = Fraction(_score_of(w, x, run.bias))
    terms = [Fraction(a) * Fraction(b) for a, b in zip(w, [*x, 1] if run.bias else x)]
    n, exact, S = len(terms), sum(terms), sum(map(abs, terms))
    gamma = n * _U / (1 - n * _U)
    theirs_s = t.score if t is not None and (t.epoch, t.index) == (step.epoch, step.index) else None
    apart = abs(s) if theirs_s is None else abs(s - theirs_s)
    if apart > 2 * gamma * S or (theirs_s is not None and abs(theirs_s - exact) > gamma * S):
        return None
    return ["diagnosis: a tie broken by rounding, not a bug.",
            f"  the exact score w.x (from Fractions of the same floats) is {_num(_tidy(exact))}"
            + ("" if exact.denominator == 1 else f" = {float(exact)!r} rounded") + ";",
            f"  ours, summed left to right from 0, is {float(s)!r}"
            + ("" if theirs_s is None else f"; theirs is {float(theirs_s)!r}") + ".",
            f"  Any order of summing these {n} products is within gamma_n S = {float(gamma * S):.3g} "
            "of the exact score "
            f"(S = sum |w_i x_i|, gamma_n = n u / (1 - n u), u = 2^-53), so two orders may differ by "
            f"{float(2 * gamma * S):.3g}:",
            ("  enough to move this score across 0, where the rule decides." if what == "mistake" else
             "  their score differs from ours by no more (--tolerance compares such numbers)."),
            "  This project sums left to right from 0 (s = 0; for a, b in zip(w, x): s = s + a * b):",
            "  sum so to agree bit for bit."]


def _actual_before(ours, k, cls=None, back=0):
    """Our w (its own numbers, not exact values) before the k-th mistake, or ``back`` updates earlier."""
    log, run = ours["log"], ours["run"]
    earlier = [j for j in range(k) if getattr(log[j], "cls", None) == cls]
    if back < len(earlier):
        return log.after[earlier[-1 - back]]
    w = run.w[cls] if cls is not None else run.w
    return [0] * len(w)


# (c) A bug: what the notes require at that step, and what THEIRS did.
def _bug(difference, ours, theirs, examples) -> list:
    what, k, o, t = difference
    run = ours["run"]
    head = "diagnosis: not a convention this project knows, nor rounding: a bug, in one of the two."
    if run.multiclass == "one-vs-rest" and theirs["trace"] and all(m.cls is None for m in theirs["trace"]):
        head += "\n  (a one-vs-rest trace names each mistake's 'class': THEIRS names none)"
    if k is None:
        return [head] + _whole_run(what, ours)
    step = _parting(difference)
    x, label = examples[step.index]
    y = label if run.multiclass != "one-vs-rest" else (1 if str(label) == step.cls else -1)
    ours_here = o is not None and (o.cls, o.epoch, o.index) == (step.cls, step.epoch, step.index)
    theirs_here = t is not None and (t.cls, t.epoch, t.index) == (step.cls, step.epoch, step.index)
    lines = [head]
    explicit = run.multiclass != "joint" and run.kernel is None
    s = o.score if ours_here else (Fraction(_score_of(_actual_before(ours, k, step.cls), x, run.bias))
                                   if explicit else None)
    if what == "mistake" and ours_here:
        lines.append(f"  the notes require an update here: {_why(run.rule, y, s)}, so w <- w + y x"
                     + (f" = {_shown(o.weights)}" if o.weights is not None else "") + " (Columbia §1.1, Cornell §3);")
        lines.append("  THEIRS made no update here" + (f": its mistake {k + 1} is at epoch {t.epoch}, index {t.index}."
                                                       if t is not None else " and no more mistakes."))
    elif what == "mistake":
        lines.append("  the notes require no update here: " + (_why(run.rule, y, s) if s is not None else
                                                                "no mistake") + ";")
        lines.append("  THEIRS updated here" + ("" if t.score is None else f", with the score {_shown(t.score)}") + ".")
    if what in ("mistake", "score") and theirs_here and t.score is not None and s is not None and t.score != s:
        lines.append(f"  their score {_shown(t.score)} is not w.x = {_shown(s)} for the weights before this step"
                     + _stale(ours, k, step, x, t.score))
    if what == "w after":
        lines += _update_text(ours, k, step, x, y, t)
    return lines


def _why(rule, y, s) -> str:
    if rule == "sign":
        relation = "!=" if sign(s) != y else "="
        return f"the score is {_shown(s)} and sign({_shown(s)}) = {sign(s):+d} {relation} y = {y:+d}"
    if rule == "margin":
        return f"y (w.x) = {_shown(y * s)} {'<=' if y * s <= 0 else '>'} 0"
    return f"the argmax is not y = {y}"


def _stale(ours, k, step, x, score) -> str:
    """Whether a wrong score is w.x for the weights before the previous update: a stale score."""
    run = ours["run"]
    if run.multiclass == "joint" or run.kernel is not None:
        return "."
    for back in (1, 2):
        earlier = _actual_before(ours, k, step.cls, back)
        if Fraction(_score_of(earlier, x, run.bias)) == score:
            return (f": it is w.x for the weights of {back} update{'s' if back > 1 else ''} earlier, "
                    f"{_shown(_exact(earlier))}: a stale score (w.x kept from before w changed).")
    return "."


def _update_text(ours, k, step, x, y, t) -> list:
    """What their update did to w, against the notes' w <- w + y x."""
    run = ours["run"]
    if run.multiclass == "joint" or run.kernel is not None:
        return [f"  the weights after this update differ: ours {_shown(ours['trace'][k].weights)}, "
                f"theirs {_shown(t.weights)}; the joint update is w(y) += x, w(guess) -= x (Collins 2002)."]
    before = _exact(_actual_before(ours, k, step.cls))
    yx = [Fraction(y * v) for v in ([*x, 1] if run.bias else x)]
    moved = [a - b for a, b in zip(t.weights, before)]
    lines = [f"  the notes' update is w <- w + y x: y x = {_shown(yx)}; THEIRS moved w by {_shown(moved)}"]
    if not any(moved):
        lines.append("  THEIRS skipped the update: w is unchanged after a mistake.")
    elif moved == [-v for v in yx]:
        lines.append("  THEIRS moved w away from the label, w - y x: as an update by the prediction sign(w.x),"
                     " which is -y on a mistake, instead of by the label y would.")
    else:
        ratios = {m / v for m, v in zip(moved, yx) if v}
        if len(ratios) == 1 and all(m == 0 for m, v in zip(moved, yx) if not v):
            lines.append(f"  THEIRS added {_shown(ratios.pop())} y x at this update only.")
    return lines


def _whole_run(what, ours) -> list:
    run = ours["run"]
    passes = f"{_count(len(ours['trace']), 'mistake')} in {_count(run.epochs, 'epoch')}"
    if what == "weights":
        return [f"  their final weights differ from the notes' run ({passes}).",
                "  Give THEIRS's trace (each mistake's epoch and index, and 'weights' after it) to find the first "
                "step where they part."]
    if what in ("epochs", "converged"):
        return [f"  the same weights but not the same {what}: the notes' run makes {passes}, "
                f"{'converged' if run.converged else 'not converged'}; Cornell §3's loop stops after the first pass "
                "with no mistake (epochs count from 1; a pass that finds no mistake counts)."]
    return [f"  the same run but not the same {what}: see the README's definitions of the pocket (Gallant 1990: "
            "pocketed only when strictly fewer errors) and of the averages (--average after: Collins 2002; before: "
            "nltk)."]


# ===========================================================================
# --vectors: a conformance corpus for any implementation, in any language
#
# Each case is a small CSV file, its options and the JSON this project writes
# for it (with --weights: w after every mistake), so that an implementation
# can find its first fault without this project.  The same bytes on every run.
# ===========================================================================

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


def _write_vectors(folder) -> int:
    """--vectors DIR: every case's data and expected JSON, and DIR/index.json; the same bytes on
    every run.  A write that fails (a full disk, Ctrl-C) removes the files it added and leaves
    no index.json: never a half corpus that reads as whole."""
    import os

    made = not os.path.isdir(folder)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise PerceptronError(f"{folder}: cannot make the folder: {err.strerror or err}") from None
    written: list = []
    try:
        count = _write_cases(folder, written)
    except BaseException:
        for path in reversed(written):
            os.unlink(path)
        if made:
            os.rmdir(folder)
        raise
    print(f"{count} cases written to {folder} (index.json lists them)")
    return 0


def _write_cases(folder, written) -> int:
    import contextlib
    import io
    import json
    import os

    def write(name, text):
        path = os.path.join(folder, name)
        new = not os.path.exists(path)
        _write_whole(path, text)
        if new:
            written.append(path)

    index = []
    if os.path.exists(os.path.join(folder, "index.json")):  # an older corpus's index goes first
        os.unlink(os.path.join(folder, "index.json"))
    for name, about, text, options in _CASES:
        data, expected = f"{name}.csv", f"{name}.json"
        write(data, text)
        out = io.StringIO()
        here = os.getcwd()
        try:  # as `python3 perceptron.py DATA --json OPTIONS` run inside DIR
            os.chdir(folder)
            with contextlib.redirect_stdout(out):
                _main([data, "--json", *options])
        finally:
            os.chdir(here)
        write(expected, out.getvalue())
        index.append({"name": name, "about": about, "data": data, "options": options, "expected": expected})
    doc = {"perceptron": __version__, "command": "python3 perceptron.py DATA --json OPTIONS, inside this folder; "
           "the JSON equals EXPECTED but for its 'input' field", "cases": index}
    write("index.json", json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    return len(index)


# ---------------------------------------------------------------------------
# A picture of a run: the hyperplane tilting at each mistake (SVG, as text)
#
# Kalyanakrishnan §2: "visualise the progress of the algorithm by sketching
# simple data sets in two dimensions and verifying that the Perceptron
# Learning algorithm repeatedly 'tilts' the hyperplane in response to errors";
# Columbia §1.1 draws the target v and the hypothesis w, each as a normal
# vector with its hyperplane.  Geometry is exact (Fractions) up to the pixel
# coordinates, and every line carries its exact endpoints in data-from and
# data-to ("p/q" pairs), which satisfy w.(x, y) (+ b) = 0 exactly.
# ---------------------------------------------------------------------------

_PLOT = 440      # the square plot, in pixels
_EDGE = 30       # the space around it
_CAPTION = 52    # the space below it for the caption


def svg(run: Run, examples: Iterable[Example], *, w_star: Vector | None = None, upto: int | None = None,
        names: Sequence[str] | None = None) -> str:
    """An SVG picture of a run on examples with two features, as text.

    ``examples`` are the (x, y) pairs the run was trained on (without the
    bias feature; ``run.bias`` says whether it was appended, and then every
    line is affine).  The picture has the examples (+ for y = +1, o for
    y = -1, numbered when there are at most 30), the hypothesis after each
    mistake as a faint dashed line numbered by its mistake (the last 40 of a
    longer run, as the caption says), the example of each drawn mistake
    ringed, the final hyperplane solid with its w drawn as an arrow from the
    origin, the pocket's and the averaged hyperplanes when the run kept
    them, and with ``w_star`` the target's hyperplane and its vector v,
    dotted.  The axes carry their values and ``names`` (default x1, x2).
    ``upto=k`` draws the run as it stood after its k-th mistake.  The same
    run gives the same bytes.
    """
    if not isinstance(run, Run):
        raise PerceptronError(f"svg draws a Run of train(), not {_short(run)}")
    examples = _data(examples, keep=True)[1]
    _check_drawable(run, examples, w_star)
    xs = [[Fraction(v) for v in x] for x, _ in examples]
    hypotheses = [[Fraction(v) for v in w] for w in _weights_after(run, examples)]
    k = len(hypotheses) if upto is None else upto
    if not 0 <= k <= len(hypotheses):
        raise PerceptronError(f"upto = {upto!r} is not between 0 and the {len(hypotheses)} mistakes")
    first = max(1, k - _DRAWN + 1)  # the mistakes drawn: the last _DRAWN, numbered as in the run
    box = _box(xs)
    to_px = _pixels(box)
    final = hypotheses[k - 1] if k else [0] * (3 if run.bias else 2)
    extra = [(name, w) for name, w in (("pocket", run.pocket and run.pocket.w), ("average", run.average))
             if w is not None and upto is None]
    parts = [_svg_head(run, k, len(extra)), _grid(box, to_px, names or ("x1", "x2"))]
    if w_star is not None:
        v = [Fraction(c) for c in w_star]
        parts.append(_hyperplane(v, box, to_px, "target", 'stroke="#1f5fbf" stroke-width="1.5" stroke-dasharray="2 4"'))
        parts.append(_arrow(v, box, to_px, "v-vector", "#1f5fbf", "v"))
    for n in range(first, k + 1):
        parts.append(_hyperplane(hypotheses[n - 1], box, to_px, "hypothesis",
                                 'stroke="#888" stroke-width="1" stroke-dasharray="5 4"', label=str(n), mistake=n))
    for name, w in extra:
        parts.append(_hyperplane(w, box, to_px, name, _EXTRA_STYLE[name]))
    parts.append(_hyperplane(final, box, to_px, "hypothesis final", 'stroke="#000" stroke-width="2"', mistake=k))
    parts.append(_arrow(final, box, to_px, "w-vector", "#000", "w"))
    parts.append(_rings(run.trace[first - 1:k], xs, to_px))
    parts.append(_marks(examples, xs, to_px))
    parts.append(_caption(run, k, w_star is not None, first, [name for name, _ in extra]))
    return "\n".join(part for part in parts if part) + "\n</svg>\n"


_DRAWN = 40  # the most hypotheses a picture draws: the last ones
_EXTRA_STYLE = {"pocket": 'stroke="#1a8a4a" stroke-width="1.5" stroke-dasharray="9 3 2 3"',
                "average": 'stroke="#9a2a9a" stroke-width="1.5" stroke-dasharray="1 3"'}


def _weights_after(run, examples) -> list:
    """w after each mistake of a binary primal run: as the command line's trace kept
    them, or from the learner run again (a run is deterministic) with the same trace."""
    after = getattr(run.trace, "after", None)
    if after is not None and len(after) == len(run.trace):
        return after
    log = _Log(None, weights=True)
    train(examples, rule=run.rule, bias=run.bias, epochs=max(run.epochs, 1), trace=log)
    if list(log) != list(run.trace):
        raise PerceptronError("the examples are not those the run was trained on: its trace differs")
    return log.after or []


def _check_drawable(run, examples, w_star):
    if run.rule == "argmax" or run.w is None:
        raise PerceptronError("svg draws a binary run with explicit weights: the primal, or the linear kernel")
    d = len(examples[0][0]) if examples else 0
    if d != 2:
        raise PerceptronError(f"svg draws examples with 2 features; these have {d}")
    if w_star is not None and len(_vector(w_star, None, "w_star")) != 2 + run.bias:
        raise PerceptronError(f"svg: w_star has {len(w_star)} numbers, expected {2 + run.bias}")


def _box(xs):
    """The square [x0, x1] x [y0, y1] around the examples and the origin, with a margin."""
    lo = [min([0] + [x[i] for x in xs]) for i in (0, 1)]
    hi = [max([0] + [x[i] for x in xs]) for i in (0, 1)]
    span = max(hi[0] - lo[0], hi[1] - lo[1]) or Fraction(2)
    half = span * Fraction(6, 10)  # half the side: the span plus a tenth on each side
    centre = [(lo[i] + hi[i]) / 2 for i in (0, 1)]
    return (centre[0] - half, centre[0] + half, centre[1] - half, centre[1] + half)


def _pixels(box):
    x0, x1, y0, y1 = box

    def to_px(x, y):
        return (_EDGE + float((x - x0) / (x1 - x0)) * _PLOT, _EDGE + float((y1 - y) / (y1 - y0)) * _PLOT)
    return to_px


def _f(v) -> str:
    return f"{v:.2f}"


def _xml(text) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _svg_head(run, k, extra) -> str:
    side, caption = _PLOT + 2 * _EDGE, _CAPTION + 16 * bool(extra)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side + caption}" '
            f'viewBox="0 0 {side} {side + caption}" font-family="sans-serif" font-size="11">\n'
            f'<title>The Perceptron: the hyperplane after each of {k} mistakes</title>\n'
            '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>\n'
            f'<rect x="{_EDGE}" y="{_EDGE}" width="{_PLOT}" height="{_PLOT}" fill="#fff" stroke="#bbb"/>')


def _grid(box, to_px, names) -> str:
    """Light grid lines at a round step with their values, the two axes through the origin, and their names."""
    x0, x1, y0, y1 = box
    step = _step(x1 - x0)
    lines = []
    for axis, (lo, hi) in enumerate(((x0, x1), (y0, y1))):
        t = -(-lo // step) * step  # the first multiple of step >= lo
        while t <= hi:
            a, b = (to_px(t, y0), to_px(t, y1)) if axis == 0 else (to_px(x0, t), to_px(x1, t))
            colour = "#999" if t == 0 else "#eee"
            lines.append(f'<line class="{"axis" if t == 0 else "grid"}" x1="{_f(a[0])}" y1="{_f(a[1])}" '
                         f'x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{colour}"/>')
            at = (a[0] - 4, a[1] + 12) if axis == 0 else (b[0] - 26, b[1] + 3)  # below the plot; left of it
            lines.append(f'<text class="tick" x="{_f(at[0] if axis == 0 else _EDGE - 26)}" y="{_f(at[1])}" '
                         f'font-size="9" fill="#777">{_tick(t)}</text>')
            t += step
    (px, py), (qx, qy) = to_px(x1, 0), to_px(0, y1)
    lines.append(f'<text class="axis-name" x="{_f(px - 4)}" y="{_f(py - 5)}" text-anchor="end" fill="#555">'
                 f'{_xml(names[0])}</text>')
    lines.append(f'<text class="axis-name" x="{_f(qx + 5)}" y="{_f(qy + 12)}" fill="#555">{_xml(names[1])}</text>')
    return "\n".join(lines)


def _tick(t) -> str:
    return str(t.numerator) if t.denominator == 1 else f"{float(t):g}"


def _step(span):
    """A round grid step (1, 2 or 5 times a power of 10) giving at most 12 lines."""
    step = Fraction(1)
    while span / step > 12:
        step *= 10
    while span / step <= 1.2:
        step /= 10
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 12:
            return step * factor
    return step * 10


def _segment(w, box):
    """The exact endpoints of w[0] x + w[1] y (+ w[2]) = 0 within the box, or None."""
    a, b = w[0], w[1]
    c = w[2] if len(w) > 2 else 0
    x0, x1, y0, y1 = box
    points = set()
    if b != 0:
        points.update((X, -(a * X + c) / b) for X in (x0, x1))
    if a != 0:
        points.update((-(b * Y + c) / a, Y) for Y in (y0, y1))
    inside = sorted(p for p in points if x0 <= p[0] <= x1 and y0 <= p[1] <= y1)
    return (inside[0], inside[-1]) if len(inside) >= 2 and inside[0] != inside[-1] else None


def _hyperplane(w, box, to_px, cls, style, label=None, mistake=None) -> str:
    w = [Fraction(v) for v in w]
    attrs = f'class="{cls}" data-w="{",".join(map(_ratio_text, w))}"'
    attrs += "" if mistake is None else f' data-mistake="{mistake}"'
    ends = _segment(w, box)
    if ends is None:  # w = 0, or a line that misses the plot
        return f"<g {attrs}></g>"
    (X1, Y1), (X2, Y2) = ends
    (p1, q1), (p2, q2) = to_px(X1, Y1), to_px(X2, Y2)
    line = (f'<line x1="{_f(p1)}" y1="{_f(q1)}" x2="{_f(p2)}" y2="{_f(q2)}" {style} '
            f'data-from="{_ratio_text(X1)},{_ratio_text(Y1)}" data-to="{_ratio_text(X2)},{_ratio_text(Y2)}"/>')
    # The number along the line, at a place that differs from mistake to mistake
    # (steps of the golden ratio), so that lines that coincide (w and 2w) keep
    # their numbers apart.
    t = 0.1 + 0.8 * ((mistake or 0) * 0.381966 % 1)
    px, py = p1 + t * (p2 - p1), q1 + t * (q2 - q1)
    text = "" if label is None else f'<text x="{_f(px + 4)}" y="{_f(py - 4)}" fill="#888">{label}</text>'
    return f"<g {attrs}>{line}{text}</g>"


def _ratio_text(v) -> str:
    v = Fraction(v)
    return f"{v.numerator}/{v.denominator}"


def _arrow(w, box, to_px, cls, colour, name) -> str:
    """The normal vector (w1, w2) from the origin, shortened to fit if need be."""
    a, b = Fraction(w[0]), Fraction(w[1])
    if a == b == 0:
        return ""
    x0, x1, y0, y1 = box
    reach = min(abs(x0), abs(x1), abs(y0), abs(y1)) or (x1 - x0) / 4
    longest = max(abs(a), abs(b))
    scale = min(Fraction(1), reach * Fraction(9, 10) / longest)  # the direction matters, not the length
    (p0, q0), (p1, q1) = to_px(0, 0), to_px(a * scale, b * scale)
    shown = name if scale == 1 else f"{name} (scaled)"
    return (f'<g class="{cls}"><line x1="{_f(p0)}" y1="{_f(q0)}" x2="{_f(p1)}" y2="{_f(q1)}" stroke="{colour}" '
            f'stroke-width="1.5" marker-end="url(#head)"/><text x="{_f(p1 + 4)}" y="{_f(q1 + 12)}" '
            f'fill="{colour}">{shown}</text></g>')


def _rings(trace, xs, to_px) -> str:
    rings = []
    for i in sorted({m.index for m in trace}):
        px, py = to_px(*xs[i])
        rings.append(f'<circle class="ring" data-index="{i}" cx="{_f(px)}" cy="{_f(py)}" r="9" fill="none" '
                     'stroke="#d33" stroke-width="1.5"/>')
    return "\n".join(rings)


def _marks(examples, xs, to_px) -> str:
    marks = []
    for i, ((_, y), x) in enumerate(zip(examples, xs)):
        px, py = to_px(*x)
        if y == 1:  # + for y = +1 ...
            shape = (f'<path d="M{_f(px - 5)},{_f(py)} H{_f(px + 5)} M{_f(px)},{_f(py - 5)} V{_f(py + 5)}" '
                     'stroke="#000" stroke-width="2"/>')
        else:       # ... o for y = -1: distinct in grey, not only in colour
            shape = f'<circle cx="{_f(px)}" cy="{_f(py)}" r="4.5" fill="none" stroke="#000" stroke-width="1.5"/>'
        label = f'<text x="{_f(px + 7)}" y="{_f(py - 6)}">{i}</text>' if len(examples) <= 30 else ""
        marks.append(f'<g class="example" data-index="{i}" data-y="{y:+d}">{shape}{label}</g>')
    return "\n".join(marks)


def _caption(run, k, has_target, first=1, extra=()) -> str:
    side = _PLOT + 2 * _EDGE
    state = "converged" if run.converged else "not converged"
    drawn = "" if first == 1 else f" (the last {k - first + 1} of {k:,} drawn)"
    lines = [f"rule: {run.rule} · bias: {'yes' if run.bias else 'no'} · {_count(run.mistakes, 'mistake')} · "
             f"{_count(run.epochs, 'epoch')} · {state}",
             "+ is y = +1 · o is y = -1 · ringed: an example of a drawn mistake",
             f"dashed: w after mistake n{drawn} · solid: "
             + (f"w after mistake {k}" if k < run.mistakes else "the final w")
             + (" · dotted: the target w*" if has_target else "")]
    if extra:
        lines.append(" · ".join({"pocket": "green dash-dot: the pocket's w",
                                 "average": "purple dots: the averaged w"}[name] for name in extra))
    styles = ['class="caption"'] + ['class="legend" fill="#555"'] * (len(lines) - 1)
    return "\n".join(f'<text {style} x="{_EDGE}" y="{side + 6 + 16 * n}">{_xml(text)}</text>'
                     for n, (style, text) in enumerate(zip(styles, lines)))


def _count(n, noun) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "es" if noun.endswith("s") else "s")


def _pictures(args, examples, run, w_star, names) -> dict:
    """{path: SVG text} for --svg FILE and --svg-steps DIR, all drawn before any is written."""
    import os

    pictures = {}
    if args.svg:
        pictures[args.svg] = svg(run, examples, w_star=w_star, names=names)
    if args.svg_steps:
        width = len(str(run.mistakes))
        for k in range(1, run.mistakes + 1):
            pictures[os.path.join(args.svg_steps, f"step-{k:0{width}d}.svg")] = svg(run, examples, w_star=w_star,
                                                                                   upto=k, names=names)
    return pictures


def _write_pictures(args, pictures):
    """Write every picture whole or not at all: each to a temporary name beside it, then renamed."""
    import os

    made = args.svg_steps and not os.path.isdir(args.svg_steps)
    if args.svg_steps:
        try:
            os.makedirs(args.svg_steps, exist_ok=True)
        except OSError as err:
            raise PerceptronError(f"{args.svg_steps}: cannot make the folder: {err.strerror or err}") from None
    written = []
    try:
        for path, text in pictures.items():
            _write_whole(path, text)
            written.append(path)
    except BaseException:  # a failure or Ctrl-C part way: take back what this run wrote
        for path in written:
            os.unlink(path)
        if made:
            os.rmdir(args.svg_steps)
        raise


def _write_whole(path, text):
    """Write text to path whole or not at all: to a temporary file beside it, then renamed."""
    import os
    import tempfile

    folder, name = os.path.split(path)
    try:
        fd, temporary = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=".part")
    except OSError as err:
        raise PerceptronError(f"{path}: cannot write: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as open() would have made it
        os.replace(temporary, path)
    except BaseException as err:
        os.unlink(temporary)
        if isinstance(err, OSError):
            raise PerceptronError(f"{path}: cannot write: {err.strerror or err}") from None
        raise


if __name__ == "__main__":
    sys.exit(main())
