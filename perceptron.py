# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the perceptron authors. See LICENSE.
"""
The Perceptron, exactly as four lecture notes write it.

This single file (standard library only, Python 3.9+) implements the
online Perceptron, its dual and kernelized dual forms, the batch algorithm,
the convergence theorem's quantities and a command line. It is meant to be
read beside the notes, and to serve as an oracle that other implementations
diff their mistakes and weights against.

The notes, and how they are cited here:

* Columbia notes: COMS 4252, "Notes on the Perceptron algorithm and kernel
  methods" (§1.1 algorithm, §1.2 convergence, §2.1 kernels, §2.2 dual,
  §2.3 kernelized dual, eq. (1) and (2)).
* Cornell notes: CS 3/5780, "The Perceptron" (§2 bias, §3 batch algorithm,
  §5 convergence, XOR).
* Perceptron Algorithm notes: "Perceptron Algorithm" (Algorithm 1, the
  intuition for the update, the R^2/gamma^2 bound).
* Kalyanakrishnan notes (2017): "The Perceptron" (§1 sign and bias, §2 the
  Perceptron Learning Algorithm, §3 analysis, §4 pocket and multiclass).

Public API
----------

==========================  ===============================================
Function or class           What it is
==========================  ===============================================
sign(t)                     +1 if t >= 0 else -1 (Columbia §1.1)
is_mistake(y, s, rule)      whether score s on label y is a mistake
dot(a, b)                   inner product, summed left to right from 0
with_bias(x)                x with the constant feature 1 appended
Perceptron(d)               the primal learner, w <- w + y x (Columbia §1.1)
DualPerceptron(kernel)      stores every mistake; eq. (1) and (2) (§2.2-2.3)
MulticlassPerceptron        one w per class, argmax (Kalyanakrishnan §4)
train(examples)             a whole run: a Run with the trace of Mistakes
train_multiclass(examples)  a multiclass run (Kalyanakrishnan §4)
RULES                       the mistake rules by name: "sign", "margin"
radius_squared(xs)          R^2 = max_i x_i.x_i
margin_squared(ex, w_star)  gamma^2 = min_i (y_i w*.x_i)^2 / w*.w*
mistake_bound(ex, w_star)   R^2 / gamma^2 (Perceptron Algorithm notes)
svg(run, examples)          a picture of a run on 2 features, as SVG text
main(argv)                  the command line
PerceptronError             the one exception (a ValueError)
==========================  ===============================================

Conventions where the notes disagree
------------------------------------

The notes differ on three points; each is named here and the caller chooses.

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
  equal to -1 or +1 and is used as that int, so ``1.0`` or ``Decimal(1)``
  never change the weights' type.  ``True``/``False`` are refused: they
  usually mean 1/0 labels, where False would be -1.

Arithmetic: the weights start as the int 0, so int, Fraction and Decimal
inputs stay exact and keep their type (Decimal under the caller's context).
Every sum is taken left to right starting from the int 0, for floats too,
so a trace is reproducible to the last bit on every Python version.

>>> run = train([([2, 1], 1), ([-1, -3], -1), ([1, -2], 1)])
>>> run.w, run.mistakes, run.converged
([2, 1], 2, True)
>>> train([([Fraction(1, 2), 1], 1), ([-1, Fraction(-1, 3)], -1)], rule="margin").w
[Fraction(1, 2), 1]
"""

from __future__ import annotations  # the hints below are documentation: never evaluated

import decimal
import math
import numbers
import re
import sys
from collections import namedtuple
from fractions import Fraction
from functools import reduce
from itertools import chain
from operator import add, mul

__version__ = "0.1.0"

__all__ = [
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
    """Bad input: the message names the example's index and what is wrong.

    ``index`` is that 0-based index, or None when no example is at fault.
    """

    def __init__(self, message, index=None):
        super().__init__(message if index is None else f"example {index}: {message}")
        self.index = index
        self.reason = message  # the message without the index


TYPE_CHECKING = False
if TYPE_CHECKING:  # the hints' names, for type checkers only: importing typing would cost every user
    from collections.abc import Callable, Hashable, Iterable, Sequence
    from typing import Union

    Number = Union[int, float, Fraction, decimal.Decimal]  # bool is an int; numpy's floats are floats
    Vector = Sequence[Number]
    Example = tuple[Vector, Number]
    Kernel = Callable[..., Number]  # of two vectors


# ---------------------------------------------------------------------------
# Conventions: sign, the two mistake rules, labels
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
    return 1 if t >= 0 else -1


# The rule decides whether a score is a mistake; prediction is always sign().
def _sign_rule(y, s):
    # Columbia §1.1: update iff h(x) != c(x), with h(x) = sign(w.x).
    return sign(s) != y


def _margin_rule(y, s):
    # Cornell §3: "if y_i (w^T x_i) <= 0" -- a point on the hyperplane is wrong.
    return y * s <= 0


RULES = {"sign": _sign_rule, "margin": _margin_rule}
"""The mistake rules by name: "sign" (Columbia §1.1, default) and "margin" (Cornell §3)."""


def _rule(rule):
    try:
        return RULES[rule]
    except (KeyError, TypeError):
        raise PerceptronError(f"unknown rule {rule!r}: use 'sign' or 'margin'") from None


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
    return _rule(rule)(_label(y), _checked_score(score, why=_NOT_REAL))


_LABELS = {1: 1, -1: -1}  # 1.0, Fraction(1), Decimal(1) hash and compare as 1


def _label(y, index=None) -> int:
    """The label y as the int -1 or +1, or a PerceptronError."""
    if y is True or y is False:
        raise PerceptronError(
            f"label {y} is a bool; labels are -1 or +1 (map 0/1 labels first)", index)
    try:
        label = _LABELS.get(y)
    except TypeError:  # unhashable
        label = None
    if label is None:
        raise PerceptronError(f"label {y!r} is not -1 or +1", index)
    return label


# ---------------------------------------------------------------------------
# Vectors
# ---------------------------------------------------------------------------

def dot(a: Vector, b: Vector) -> Number:
    """The inner product a.b (Columbia §1.1's w . x), summed left to right from the int 0.

    ``((0 + a[0]*b[0]) + a[1]*b[1]) + ...``: exact for int, Fraction and
    Decimal (under the current context), and for floats the same bits on
    every Python version.  (The built-in sum() of floats is compensated on
    3.12+, so it is used only when no term is a float.)

    >>> dot([1, 2, 3], [4, 5, 6])
    32
    >>> dot([Fraction(1, 2), 1], [Fraction(2, 3), Fraction(1, 6)])
    Fraction(1, 2)
    >>> dot([1e16, 1.0, -1e16], [1, 1, 1])
    0.0
    """
    if len(a) != len(b):
        raise PerceptronError(f"vectors of lengths {len(a)} and {len(b)} have no inner product")
    return _dot(a, b)


def _dot(a, b):
    # sum() is left to right unless the running total is a float, and a float
    # total means some term was a float: only then redo it with a plain fold.
    s = sum(map(mul, a, b))
    if isinstance(s, float):
        s = _fold_dot(a, b)
    return s


def _fold_dot(a, b):
    # reduce(add, ..., 0) is the left-to-right loop, for every number type.
    return reduce(add, map(mul, a, b), 0)


def with_bias(x: Vector) -> list:
    """x with the constant feature 1 appended (Cornell §2, Kalyanakrishnan §1).

    The bias b becomes the last weight: w.(x, 1) = w'.x + b.

    >>> with_bias([3, -2])
    [3, -2, 1]
    """
    return [*x, 1]


def _is_finite(s) -> bool:
    """Whether s is a finite real number, of any type."""
    # s - s is 0 for every finite number and nan for inf or nan, and a complex
    # 0j does not compare with 0; math.isfinite would overflow on huge ints
    # and misread Decimals.
    try:
        return s - s >= 0
    except (TypeError, ArithmeticError):  # complex; Decimal Infinity - Infinity is trapped
        return False


def _length(x, index=None, name="x") -> int:
    try:
        return len(x)
    except TypeError:
        raise PerceptronError(f"{name} is {type(x).__name__}, not a sequence of numbers", index) from None


def _check_vector(x, d, index=None, name="x"):
    """Raise a PerceptronError unless x is d finite real numbers."""
    n = _length(x, index, name)
    if n != d:
        raise PerceptronError(f"{name} has length {n}, expected {d}", index)
    for j, v in enumerate(x):
        # bool is an int, so True/False count as the features 1/0.
        if not isinstance(v, (numbers.Real, decimal.Decimal)):
            raise PerceptronError(f"{name}[{j}] is {v!r} ({type(v).__name__}), not a real number", index)
        if not _is_finite(v):
            raise PerceptronError(f"{name}[{j}] is {v!r}; features must be finite", index)


def _check_example(x, y, d, index=None) -> int:
    """Validate one example; return its label as an int."""
    y = _label(y, index)
    _check_vector(x, d, index)
    return y


def _checked_score(score, index=None, why="the sum overflowed"):
    """The score itself, or a PerceptronError if it is not a finite real number."""
    if not _is_finite(score):
        raise PerceptronError(f"w.x is {score!r}: {why}", index)
    return score


_NOT_REAL = "not a finite real number"  # what a dual's score is when its kernel gives inf, nan or complex


def _score_failed(err, index=None):
    # Valid features whose products or sums still fail, e.g. float with Decimal.
    return PerceptronError(f"w.x cannot be computed: {err}", index)


# ---------------------------------------------------------------------------
# The learners.  One algorithm in two forms, side by side (Columbia §2.2):
#
#   primal  score  w.x                    mistake  w <- w + y x
#   dual    score  sum_j y_j K(x_j, x)    mistake  stored <- stored + [(x, y)]
#
# With K = dot the two give the same scores, hence the same mistakes, because
# w = sum_j y_j x_j after the mistakes (x_j, y_j) (eq. (1)) -- exactly so for
# exact numbers; with floats eq. (1) sums the same terms in another order.
# ---------------------------------------------------------------------------

class _Online:
    """What the two forms share: an online step that predicts and, only on a
    mistake, updates.  Each form says what its score and its update are."""

    _mistake: Callable[[int, Number], bool]  # the rule, set by each form's __init__

    def score(self, x: Vector) -> Number:
        """w.x: the primal's own w, the dual's eq. (1) or (2)."""
        return self._score(x)

    def predict(self, x: Vector) -> int:
        """h(x) = sign(w.x) (Columbia §1.1)."""
        return sign(self._score(x))

    def learn(self, x: Vector, y: Number) -> bool:
        """One online step; return whether it was a mistake (and so an update)."""
        return self._step(x, y)[0]

    def _step(self, x, y, index=None):
        y = _label(y, index)
        s = self._score(x, index)
        if not self._mistake(y, s):
            return False, s
        self._update(x, y)
        return True, s

    def _score(self, x, index=None):  # w.x, or the PerceptronError that says why not
        raise NotImplementedError

    def _update(self, x, y):  # what a mistake changes
        raise NotImplementedError


class Perceptron(_Online):
    """The primal Perceptron of Columbia §1.1, on vectors of length d.

    ``w`` starts as d int zeros; ``learn(x, y)`` predicts sign(w.x) and, only
    on a mistake, sets ``w <- w + y x``.

    >>> p = Perceptron(2)
    >>> p.learn([1, 2], -1), p.w        # sign(0) = +1 != -1: a mistake
    (True, [-1, -2])
    >>> p.learn([2, 1], -1), p.w        # w.x = -4, sign -1: no mistake
    (False, [-1, -2])
    >>> q = Perceptron(1, rule="margin")
    >>> q.learn([Fraction(1, 2)], 1), q.w   # w.x = 0 is a mistake under "margin"
    (True, [Fraction(1, 2)])
    """

    def __init__(self, d: int, *, rule: str = "sign"):
        self._mistake = _rule(rule)
        self.rule = rule
        self.w = [0] * _dimension(d)
        self.mistakes = 0

    def __repr__(self):
        return f"Perceptron(w={self.w!r}, mistakes={self.mistakes}, rule={self.rule!r})"

    def _score(self, x, index=None):  # w.x
        return _primal_score(self.w, x, index)

    def _update(self, x, y):  # w <- w + y x
        self.w = [w_i + y * x_i for w_i, x_i in zip(self.w, x)]
        self.mistakes += 1


class DualPerceptron(_Online):
    """The dual Perceptron of Columbia §2.2, kernelized as in §2.3.

    It keeps no w: ``stored`` lists every (x, y) it made a mistake on, in
    order (x as given, not copied; a second mistake on an example stores it
    again), and ``score(x)`` is eq. (2), ``sum_j y_j K(x_j, x)``, summed left
    to right in mistake order from 0 (so before the first mistake it is the
    empty sum, the int 0, whatever the type of x).  With the default
    ``kernel=dot`` that is eq. (1), the primal's w.x.  Examples are vectors
    of finite real numbers, all as long as the first one stored.

    >>> p = DualPerceptron()
    >>> p.learn([1, 2], -1), p.learn([3, 1], 1), p.stored
    (True, True, [([1, 2], -1), ([3, 1], 1)])
    >>> p.score([1, 0]), p.weights()
    (2, [2, -1])
    """

    def __init__(self, kernel: Kernel = dot, *, rule: str = "sign"):
        if not callable(kernel):
            raise PerceptronError(f"kernel {kernel!r} is not callable")
        self._mistake = _rule(rule)
        self.rule = rule
        self.kernel = kernel
        self.stored: list = []
        self.d: int | None = None  # the length of every x, fixed by the first one stored

    def __repr__(self):
        return f"DualPerceptron(kernel={_name(self.kernel)}, mistakes={self.mistakes}, rule={self.rule!r})"

    @property
    def mistakes(self) -> int:
        """The number of mistakes, which is the number of stored examples."""
        return len(self.stored)

    def _score(self, x, index=None):  # sum_j y_j K(x_j, x), eq. (2)
        _check_vector(x, _length(x, index) if self.d is None else self.d, index)
        K = self.kernel
        s = 0
        for x_j, y_j in self.stored:
            try:
                s = s + y_j * K(x_j, x)
            except (TypeError, ValueError, ArithmeticError) as err:
                raise _kernel_failed(K, err, index) from err
        return _checked_score(s, index, _NOT_REAL)

    def _update(self, x, y):  # w <- w + y x, kept as the pair (x, y)
        self.stored.append((x, y))
        self.d = len(x)

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
        w = [0] * len(phi([0] * self.d))  # w starts at 0, as long as phi(x)
        for x_j, y_j in self.stored:
            w = [w_i + y_j * v_i for w_i, v_i in zip(w, phi(x_j))]
        return w


def _primal_score(w, x, index=None):
    """w.x, or the PerceptronError that says why not.

    x is checked in full only when something looks wrong: a length that
    differs, or a w.x that raises, is not finite or not real.  Every bad
    feature causes one of these (a string or None makes a product or the sum
    raise; an inf or nan x_i makes w_i * x_i inf or nan), so the check costs
    nothing on good data and names the fault on bad data.
    """
    try:
        if len(x) == len(w):
            s = _dot(w, x)
            if s - s >= 0:  # finite and real: s - s is 0; nan for inf or nan; complex raises
                return s
    except (TypeError, ValueError, ArithmeticError):
        pass
    _check_vector(x, len(w), index)  # raises, naming the bad length or feature
    try:
        s = _dot(w, x)
    except (TypeError, ArithmeticError) as err:  # good features that do not mix
        raise _score_failed(err, index) from err
    return _checked_score(s, index)  # the features are good: the sum overflowed


def _dimension(d) -> int:
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise PerceptronError(f"dimension d = {d!r} is not a whole number")
    return d


def _kernel_failed(K, err, index=None, where=""):
    return PerceptronError(f"kernel {_name(K)} failed{where}: {err}", index)


def _name(kernel):
    return getattr(kernel, "__name__", None) or repr(kernel)


class MulticlassPerceptron:
    """One weight vector per class, predict argmax_l w(l).x (Kalyanakrishnan §4).

    On a mistake x is added to the true class's vector and subtracted from the
    predicted one's.  Ties go to the class listed first in ``classes`` (so at
    w = 0 every prediction is ``classes[0]``).  scikit-learn's multiclass
    Perceptron is one-versus-all instead, and differs.

    >>> m = MulticlassPerceptron(["a", "b", "c"], 2)
    >>> m.predict([1, 1])
    'a'
    >>> m.learn([1, 0], "b"), m.w
    (True, {'a': [-1, 0], 'b': [1, 0], 'c': [0, 0]})
    """

    def __init__(self, classes: Iterable[Hashable], d: int):
        classes = list(classes)
        if len(classes) < 2 or len(set(classes)) != len(classes):
            raise PerceptronError(f"classes {classes!r} are not two or more distinct labels")
        self.classes = classes
        self.w = {c: [0] * _dimension(d) for c in classes}
        self.mistakes = 0

    def __repr__(self):
        return f"MulticlassPerceptron(w={self.w!r}, mistakes={self.mistakes})"

    def scores(self, x: Vector) -> dict:
        """w(l).x for every class l, in the order of ``classes``."""
        return self._scores(x)

    def predict(self, x: Vector) -> Hashable:
        """argmax_l w(l).x; the earliest class wins a tie."""
        return self._predict(self._scores(x))

    def learn(self, x: Vector, y: Hashable) -> bool:
        """One online step; return whether it was a mistake."""
        return self._step(x, y)[0]

    def _scores(self, x, index=None):
        return {c: _primal_score(w, x, index) for c, w in self.w.items()}

    def _predict(self, scores):
        best = self.classes[0]
        for c in self.classes[1:]:
            if scores[c] > scores[best]:  # strict: a tie stays with the earlier class
                best = c
        return best

    def _step(self, x, y, index=None):
        try:
            known = y in self.w
        except TypeError:  # unhashable
            known = False
        if not known:
            raise PerceptronError(f"label {y!r} is not one of the classes {self.classes!r}", index)
        guess = self._predict(self._scores(x, index))
        if guess == y:
            return False, guess
        self.w[y] = [w_i + x_i for w_i, x_i in zip(self.w[y], x)]          # toward the true class
        self.w[guess] = [w_i - x_i for w_i, x_i in zip(self.w[guess], x)]  # away from the guess
        self.mistakes += 1
        return True, guess


# ---------------------------------------------------------------------------
# Runs: passes over a data set, with the trace of every mistake
# ---------------------------------------------------------------------------

Mistake = namedtuple("Mistake", "epoch index y score")
Mistake.__doc__ = """One mistake of a run: its pass (1-based), the example's index
in the examples given (0-based), the label, and the score w.x that was wrong."""

Pocket = namedtuple("Pocket", "w errors mistakes")
Pocket.__doc__ = """The pocket (Kalyanakrishnan §4): the hypothesis with the fewest
training errors seen, its error count, and after how many mistakes of the run it
stood (so a kernel run, whose w is None, names it as the first ``mistakes``
stored examples)."""


class Run(namedtuple("Run", "w model mistakes epochs converged trace pocket rule bias kernel")):
    """What ``train`` returns.

    w          the final weights (a kernel run: None, except for the linear
               kernel ``dot``, or a kernel with a true ``linear`` attribute)
    model      the learner: a Perceptron, or a DualPerceptron for a kernel run
    mistakes   the number of mistakes (= updates)
    epochs     the number of passes made
    converged  True iff the last pass made no mistake
    trace      a list of Mistake(epoch, index, y, score), or None (trace=False)
    pocket     a Pocket(w, errors, mistakes), or None (pocket=False)
    rule, bias, kernel   the conventions in force (kernel: its name, or None)
    """

    __slots__ = ()


def train(examples: Iterable[Example], *, rule: str = "sign", kernel: Kernel | None = None,
          bias: bool = False, epochs: int | None = None, max_epochs: int = 1000, pocket: bool = False,
          trace: bool = True) -> Run:
    """Run the Perceptron over a sequence of (x, y) pairs; return a Run.

    epochs=None   passes in the given order until a pass makes no mistake
                  (Cornell §3; Kalyanakrishnan's PLA taking the first
                  misclassified point in order), at most ``max_epochs``
                  passes, after which ``converged`` is False.
    epochs=1      one online pass (Columbia §1.1; the Perceptron Algorithm
                  notes' Algorithm 1) over any iterable, a generator
                  included: with trace=False memory does not grow with it.
    epochs=k      k passes, stopping early after a pass with no mistake.

    ``bias=True`` appends the constant feature 1 (``with_bias``); the bias is
    the last weight.  ``kernel=K`` runs the dual of Columbia §2.3 with K.
    ``pocket=True`` also keeps the pocket (Kalyanakrishnan §4): after every
    update the new hypothesis's training errors are counted over all the
    examples with the run's rule, and it goes into the pocket only if that
    count is strictly smaller; the pocket starts as w = 0 with its count.

    The trace, weights and scores are exactly those of calling ``learn``
    example by example; a multi-pass run keeps the examples (a one-shot
    iterator is read once).  A bad example raises a PerceptronError naming
    its index when its turn comes; a pocket or kernel run, which reads every
    example at each update, checks them all before it starts.

    >>> run = train([([1, 1], 1), ([-1, 0], -1), ([0, -1], -1)], rule="margin")
    >>> run.trace
    [Mistake(epoch=1, index=0, y=1, score=0)]
    >>> run.w, run.epochs, run.converged
    ([1, 1], 2, True)
    >>> train([([0], -1)], rule="margin", max_epochs=3).converged  # x = 0 never scores
    False
    """
    mistake = _rule(rule)
    passes = _passes(epochs, max_epochs)
    if kernel is not None and not callable(kernel):
        raise PerceptronError(f"kernel {kernel!r} is not callable")
    checked = pocket or kernel is not None  # these read every example before its turn
    data: Iterable[Example]
    if passes > 1 or pocket or (kernel is not None and isinstance(examples, (list, tuple))):
        data = _kept(examples, bias, checked)
    else:
        data = _biased(examples) if bias else examples
    if kernel is None:
        w, model, count, made, converged, log, best = _run_primal(data, rule, mistake, passes, trace, pocket)
    elif isinstance(data, list):
        w, model, count, made, converged, log, best = _run_dual(data, kernel, rule, mistake, passes, trace, pocket)
    else:
        model, count, made, converged, log = _run_literal(data, DualPerceptron(kernel, rule=rule), 1, trace)
        w, best = _explicit(model), None
    return Run(w, model, count, made, converged, log, best, rule, bool(bias),
               None if kernel is None else _name(kernel))


def _passes(epochs, max_epochs) -> int:
    for name, value in (("max_epochs", max_epochs), ("epochs", epochs)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise PerceptronError(f"{name} = {value!r} is not a whole number >= 1")
    if max_epochs is None:
        raise PerceptronError("max_epochs = None: a run until convergence needs a bound")
    return max_epochs if epochs is None else epochs


def _pair(item, index):
    try:
        x, y = item
    except (TypeError, ValueError):
        raise PerceptronError(f"{item!r} is not an (x, y) pair", index) from None
    return x, y


def _kept(examples, bias, checked) -> list:
    """The examples as a list of (x, y), with the bias if asked; checked first if asked."""
    if not checked:
        return list(_biased(examples) if bias else examples)
    data = []
    d = None
    for i, item in enumerate(examples):
        x, y = _pair(item, i)
        d = _length(x, i) if d is None else d
        y = _check_example(x, y, d, i)
        data.append((with_bias(x) if bias else x, y))
    return data


def _biased(examples):
    d = None
    for i, item in enumerate(examples):
        x, y = _pair(item, i)
        n = _length(x, i)
        d = n if d is None else d
        if n != d:  # named before the bias, so the message speaks of the given x
            raise PerceptronError(f"x has length {n}, expected {d}", i)
        yield with_bias(x), y


def _first_length(data):
    """The length of the first x, and the data with that first item restored."""
    if isinstance(data, (list, tuple)):
        return (_length(_pair(data[0], 0)[0], 0) if data else 0), data
    it = iter(data)
    for first in it:
        return _length(_pair(first, 0)[0], 0), chain((first,), it)
    return 0, ()


def _run_primal(data, rule, mistake, passes, keep_trace, keep_pocket):
    """The primal runs of ``train``: Perceptron.learn, inlined.

    The loop does what ``Perceptron._step`` does, in the same order and with
    the same arithmetic, but checks an example in full only when something
    looks wrong: a label not in {-1, +1}, a length that differs, a w.x that
    raises or is not finite (which every bad feature causes: a string or
    None raises, and an inf or nan x_i makes every w_i * x_i inf or nan).
    """
    d, data = _first_length(data)
    w = [0] * d
    count = 0
    log = [] if keep_trace else None
    best = Pocket(w, _errors(w, data, mistake), 0) if keep_pocket else None
    margin = rule == "margin"
    label_of = _LABELS.get
    fold = False  # True once a float score was seen: then sum with the fold only
    epoch = 0
    converged = False
    while epoch < passes and not converged:
        epoch += 1
        before = count
        for i, item in enumerate(data):
            try:
                x, y = item
                label = label_of(y)
                if label is None or y is True or y is False or len(x) != d:
                    raise ValueError  # let the full check name what is wrong
                if fold:
                    s = reduce(add, map(mul, w, x), 0)  # _fold_dot, inlined
                else:
                    s = sum(map(mul, w, x))
                    if isinstance(s, float):  # see _dot: floats are summed by the fold
                        s = reduce(add, map(mul, w, x), 0)
                        fold = True
                if not s - s == 0:  # inf or nan
                    raise ValueError
                # The rules of RULES, inlined (a complex s raises here):
                # margin: y s <= 0; sign: sign(s) != y, i.e. s < 0 for y = +1, s >= 0 for y = -1.
                wrong = label * s <= 0 if margin else (s < 0 if label > 0 else s >= 0)
            except (TypeError, ValueError, ArithmeticError) as err:
                raise _diagnosis(w, item, i, err) from None
            if wrong:
                w = [w_i + label * x_i for w_i, x_i in zip(w, x)]  # w <- w + y x
                count += 1
                if keep_trace:
                    log.append(Mistake(epoch, i, label, s))
                if keep_pocket:
                    best = _ratchet(best, w, _errors(w, data, mistake), count)
        converged = count == before
    model = Perceptron(d, rule=rule)
    model.w, model.mistakes = w, count
    return w, model, count, epoch, converged, log, best


def _diagnosis(w, item, index, err):
    """The PerceptronError of the literal step for an example the fast loop refused."""
    try:
        x, y = _pair(item, index)
        _label(y, index)
        _primal_score(w, x, index)
    except PerceptronError as found:
        return found
    return _score_failed(err, index)


def _errors(w, data, mistake) -> int:
    """How many examples of data the weights w get wrong under the rule."""
    return sum(1 for i, (x, y) in enumerate(data) if mistake(y, _primal_score(w, x, i)))


def _ratchet(best, w, errors, count):
    # Kalyanakrishnan §4's pocket: take the new hypothesis only if strictly better.
    return Pocket(w, errors, count) if errors < best.errors else best


def _run_dual(data, kernel, rule, mistake, passes, keep_trace, keep_pocket):
    """The kernel runs of ``train`` over a kept data set: DualPerceptron.learn,
    without recomputing what it knows.

    score[j] is eq. (2) for example j, kept up to date: when example i is
    stored, y_i K(x_i, x_j) is added to every score[j], in mistake order from
    0, exactly the sum DualPerceptron.score takes.  The kernel row of i,
    [K(x_i, x_j) for every j], is computed the first time i is stored and
    kept, so a run makes n kernel calls per distinct stored example and a
    pass with no mistake makes none.
    """
    xs = [x for x, _ in data]
    ys = [y for _, y in data]
    rows = {}
    score = [0] * len(xs)
    model = DualPerceptron(kernel, rule=rule)
    model.d = len(xs[0]) if xs else None
    log = [] if keep_trace else None
    best = Pocket(None, _count_wrong(ys, score, mistake), 0) if keep_pocket else None
    margin = rule == "margin"
    epoch = 0
    converged = False
    while epoch < passes and not converged:
        epoch += 1
        before = model.mistakes
        for i, y in enumerate(ys):
            s = score[i]
            try:
                if not s - s >= 0:  # inf or nan (a complex raises)
                    raise ValueError
                # The rules of RULES, inlined, as in _run_primal.
                wrong = y * s <= 0 if margin else (s < 0 if y > 0 else s >= 0)
            except (TypeError, ValueError, ArithmeticError):
                raise PerceptronError(f"w.x is {s!r}: {_NOT_REAL}", i) from None
            if wrong:
                row = rows.get(i)
                if row is None:
                    row = rows[i] = _kernel_row(kernel, xs, i)
                score = [s_j + y * k_j for s_j, k_j in zip(score, row)]
                model.stored.append((xs[i], y))
                if keep_trace:
                    log.append(Mistake(epoch, i, y, s))
                if keep_pocket:
                    best = _ratchet(best, None, _count_wrong(ys, score, mistake), model.mistakes)
        converged = model.mistakes == before
    return _explicit(model), model, model.mistakes, epoch, converged, log, best


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
            raise _kernel_failed(K, err, None, f" on K(x_{i}, x_{j}), the examples {i} and {j}") from err
    raise PerceptronError(f"kernel {_name(K)} failed on a row, then not again")  # a kernel that is not a function


def _count_wrong(ys, scores, mistake) -> int:
    return sum(1 for y, s in zip(ys, scores) if mistake(y, s))


def _explicit(model):
    """The dual's explicit weights where a kernel has them, else None."""
    K = model.kernel
    return model.weights() if K is dot or getattr(K, "linear", False) is True else None


def _run_literal(data, model, passes, keep_trace, record=Mistake, label=_label):
    """Passes of a learner's own literal step: a kernel run over a stream, and multiclass."""
    log = [] if keep_trace else None
    epoch = 0
    converged = False
    while epoch < passes and not converged:
        epoch += 1
        before = model.mistakes
        for i, item in enumerate(data):
            x, y = _pair(item, i)
            made, value = model._step(x, y, i)
            if made and keep_trace:
                log.append(record(epoch, i, label(y), value))
        converged = model.mistakes == before
    return model, model.mistakes, epoch, converged, log


def _classes(data) -> list:
    """The labels in order of first appearance."""
    seen: dict = {}
    for i, item in enumerate(data):
        y = _pair(item, i)[1]
        try:
            seen.setdefault(y, i)
        except TypeError:
            raise PerceptronError(f"label {y!r} cannot be a class: it is not hashable", i) from None
    return list(seen)


MulticlassMistake = namedtuple("MulticlassMistake", "epoch index y predicted")
MulticlassMistake.__doc__ = """One mistake of a multiclass run: the class predicted instead of y."""


def train_multiclass(examples: Iterable[tuple[Vector, Hashable]], classes: Iterable[Hashable] | None = None,
                     *, bias: bool = False, epochs: int | None = None,
                     max_epochs: int = 1000, trace: bool = True) -> Run:
    """Run MulticlassPerceptron (Kalyanakrishnan §4) over (x, y) pairs; return a Run.

    ``classes`` defaults to the labels in order of first appearance, which
    is also the order that breaks ties.  Passes work as in ``train``; the
    trace holds MulticlassMistake(epoch, index, y, predicted), ``w`` is the
    dict {class: weights}, and ``rule`` is "argmax".

    >>> run = train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c")])
    >>> run.w, run.mistakes, run.converged
    ({'a': [1, 0], 'b': [0, 1], 'c': [-1, -1]}, 2, True)
    """
    passes = _passes(epochs, max_epochs)
    data = _kept(examples, bias, checked=False)
    if classes is None:
        classes = _classes(data)
    d = _length(_pair(data[0], 0)[0], 0) if data else 0
    model = MulticlassPerceptron(classes, d)
    model, count, made, converged, log = _run_literal(
        data, model, passes, trace, record=MulticlassMistake, label=lambda y: y)
    return Run(model.w, model, count, made, converged, log, None, "argmax", bool(bias), None)


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
    xs = list(xs)
    if not xs:
        raise PerceptronError("R^2 of no examples is undefined")
    d = _length(xs[0], 0)
    for i, x in enumerate(xs):
        _check_vector(x, d, i)
    return max(_dot(x, x) for x in xs)


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
    nearest, ww = _nearest(examples, w_star)
    return _ratio(nearest * nearest, ww)


def mistake_bound(examples: Iterable[Example], w_star: Vector) -> Number:
    """R^2 / gamma^2, the Perceptron's mistake bound for these examples and w*.

    Here gamma is the smallest margin itself, so the bound can be attained
    (one example x and w* = x: one mistake, bound 1).  Kalyanakrishnan §3
    states it strictly, k < R^2/gamma^2, for a gamma strictly below every
    margin; the Perceptron Algorithm notes, with y w*.x >= gamma, as here.

    >>> mistake_bound([([1, 2], 1), ([-2, 1], -1)], [1, 1])
    Fraction(10, 1)
    """
    examples = list(examples)
    nearest, ww = _nearest(examples, w_star)
    r2 = radius_squared(x for x, _ in examples)
    return _ratio(r2 * ww, nearest * nearest)


def _nearest(examples, w_star):
    """min_i y_i w*.x_i and w*.w*, after checking everything."""
    examples = list(examples)
    if not examples:
        raise PerceptronError("the margin of no examples is undefined")
    d = _length(_pair(examples[0], 0)[0], 0)
    _check_vector(w_star, d, None, "w_star")
    nearest = None
    for i, item in enumerate(examples):
        x, y = _pair(item, i)
        y = _check_example(x, y, d, i)
        margin = y * _dot(w_star, x)
        if margin <= 0:
            raise PerceptronError(
                f"w_star does not strictly separate the examples: y w*.x = {margin!r} <= 0", i)
        nearest = margin if nearest is None or margin < nearest else nearest
    return nearest, _dot(w_star, w_star)


def _ratio(a, b):
    # Exact where the inputs are rational; a Decimal or float divides as its type.
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return Fraction(a, b)
    return a / b


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

# The embedded example: 2-D, integer coordinates, separated through the origin
# by W_STAR = (-2, 1) (y = sign(-2 x1 + x2)), and slow enough to show a few
# passes: 5 mistakes in 4 passes under the sign rule, against a bound of 10.
EXAMPLE = [
    ((3, 3), -1), ((-3, 1), 1), ((0, -3), -1), ((2, 0), -1),
    ((-3, -1), 1), ((0, 4), 1), ((-2, 1), 1), ((-4, 0), 1),
]
W_STAR = (-2, 1)

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


def _replay(xs, trace):
    """w after each mistake of a primal run, recomputed from its trace."""
    w = [0] * len(xs[0]) if xs else []
    for m in trace:
        w = [w_i + m.y * x_i for w_i, x_i in zip(w, xs[m.index])]  # w <- w + y x
        yield w


# A data set read for the command line: the examples, the file line of each,
# the feature names (None without a header), and the name to report it by.
_Data = namedtuple("_Data", "examples lines names source")

_INT = re.compile(r"[+-]?[0-9]+\Z")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
_RATIO = re.compile(r"[+-]?[0-9]+/[0-9]+\Z")


def _parse_number(text, exact):
    """A CSV cell as a number: an int, else a float (a Fraction with exact).

    Raises ValueError with the reason.
    """
    t = text.strip()
    if _INT.match(t):
        return int(t)
    if _DECIMAL.match(t):
        if exact:
            return Fraction(t)  # the decimal text exactly: 0.1 is 1/10
        v = float(t)
        if not math.isfinite(v):
            raise ValueError(f"{text!r} is too large for a float (use --exact)")
        return v
    if _RATIO.match(t):
        if not exact:
            raise ValueError(f"{text!r} is a fraction p/q: use --exact")
        numerator, denominator = t.split("/")
        if int(denominator) == 0:
            raise ValueError(f"{text!r} divides by zero")
        return Fraction(int(numerator), int(denominator))
    if t.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        raise ValueError(f"{text!r} is not finite: NaN and infinity are not features")
    raise ValueError(f"{text!r} is not a number")


def _read_csv(path, *, exact, header, label_column, labels, multiclass) -> _Data:
    """Read examples from a CSV file ('-' for standard input)."""
    import csv
    import io

    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8", newline="") as f:
                text = f.read()
    except OSError as err:
        raise PerceptronError(f"{source}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise PerceptronError(f"{source}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    rows = []
    try:
        for row in reader:
            if any(cell.strip() for cell in row):  # blank lines are skipped
                rows.append((reader.line_num, row))
    except csv.Error as err:
        raise PerceptronError(f"{source}:{reader.line_num}: {err}") from None
    if not rows:
        raise PerceptronError(f"{source}: no examples: the file is empty")
    width = len(rows[0][1])
    label = label_column + width if label_column < 0 else label_column
    if not 0 <= label < width:
        raise PerceptronError(f"{source}: --label-column {label_column} is out of range for {width} columns")
    features = [c for c in range(width) if c != label]
    names = None
    if header and not _all_numbers(rows[0][1], features if multiclass else range(width)):
        names = [rows[0][1][c].strip() for c in features]
        rows = rows[1:]
        if not rows:
            raise PerceptronError(f"{source}: a header but no examples")
    examples, lines = [], []
    for line, row in rows:
        if len(row) != width:
            raise PerceptronError(f"{source}:{line}: the row has {len(row)} columns, the first has {width}")
        x = []
        for c in features:
            try:
                x.append(_parse_number(row[c], exact))
            except ValueError as err:
                raise PerceptronError(f"{source}:{line}: column {c + 1}: {err}") from None
        try:
            y = _parse_label(row[label], labels, multiclass)
        except ValueError as err:
            raise PerceptronError(f"{source}:{line}: column {label + 1}: {err}") from None
        examples.append((x, y))
        lines.append(line)
    return _Data(examples, lines, names, source)


def _all_numbers(row, columns) -> bool:
    """Whether every cell looks like a number (nan and inf count: they are data, refused later)."""
    for c in columns:
        t = row[c].strip()
        if not (_INT.match(t) or _DECIMAL.match(t) or _RATIO.match(t)
                or t.lower().lstrip("+-") in ("nan", "inf", "infinity")):
            return False
    return True


def _parse_label(text, labels, multiclass):
    """A label cell as -1/+1 (reading labels=(0, 1) as Kalyanakrishnan's 0/1)."""
    if multiclass:
        if not text.strip():
            raise ValueError("the label is empty")
        return text.strip()
    try:
        value = _parse_number(text, True)
    except ValueError:
        value = None
    if value == labels[1]:
        return 1
    if value == labels[0] and value is not None:
        return -1
    raise ValueError(f"label {text.strip()!r} is not {labels[0]} or {labels[1]}")


def _kernel(spec, kernel_from):
    if kernel_from is None:
        raise PerceptronError(f"--kernel takes a kernel of kernels.py, which perceptron.py never imports, so that "
                              f"it stands alone: run 'python3 kernels.py ... --kernel {spec}' or the installed "
                              "'perceptron' command")
    try:
        return kernel_from(spec)
    except ValueError as err:  # kernels.KernelError
        raise PerceptronError(str(err)) from None


def _vector_option(text, exact, option):
    try:
        return [_parse_number(cell, exact) for cell in text.split(",")]
    except ValueError as err:
        raise PerceptronError(f"{option}: {err}") from None


def _passes_option(text):
    import argparse

    value = int(text) if _INT.match(text.strip()) else 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1")
    return value


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
    arg("--label-column", type=int, default=-1, metavar="N",
        help="the label's column, 0-based, negative from the end (default: -1)")
    arg("--no-header", dest="header", action="store_false", help="the first row is data even if it is not numeric")
    arg("--exact", action="store_true", help="read decimals and p/q as exact Fractions (0.1 is 1/10)")
    arg("--labels", default="-1,1", choices=["-1,1", "0,1"], metavar="NEG,POS",
        help="the label values: -1,1 (default) or 0,1, Kalyanakrishnan's (write --labels=0,1)")
    arg("--rule", default="sign", choices=sorted(RULES), help="when a score is a mistake (default: sign)")
    arg("--bias", action="store_true", help="append the constant feature 1; the bias is the last weight")
    arg("--epochs", type=_passes_option, metavar="K",
        help="make K passes (1: one online pass); default: until a pass makes no mistake")
    arg("--max-epochs", type=_passes_option, default=1000, metavar="M",
        help="the most passes until convergence (default: 1000)")
    arg("--pocket", action="store_true", help="also report the pocket: the weights with the fewest training errors")
    arg("--kernel", metavar="NAME[:PARAM]",
        help="the kernel dual with a kernel of kernels.py: linear, monotone-conjunction, all-conjunction, "
             "conjunction:K, polynomial:D[:C], gaussian:SIGMA (run as 'python3 kernels.py ...' or the installed "
             "'perceptron')")
    arg("--multiclass", action="store_true", help="labels are any strings: one weight vector per class, argmax")
    arg("--w-star", metavar="W",
        help="a separating w*, as 1,2,3 (write --w-star=-2,1): print R^2/gamma^2 and check the mistakes")
    arg("--weights", action="store_true", help="show w after every mistake even with more than 8 features")
    arg("--quiet", action="store_true", help="print only the summary")
    arg("--json", action="store_true", help="print one JSON document for programs instead")
    arg("--svg", metavar="OUT.svg", help="also draw the run (2 features): the hyperplane after each mistake")
    arg("--svg-steps", metavar="DIR", help="also draw one SVG per mistake into DIR, to page through the run")
    arg("--version", action="version", version=f"perceptron {__version__}")
    return parser


def main(argv: Sequence[str] | None = None, *,
         kernel_from: Callable[[str], Kernel] | None = None) -> int:
    """The command line; ``python3 perceptron.py --help`` lists its options.

    ``kernel_from`` turns a ``--kernel`` spec into a kernel.  This file never
    imports kernels.py (it stands alone), so without it --kernel is an
    error; ``python3 kernels.py ARGS`` and the installed ``perceptron``
    command pass kernels.py's ``from_spec``.
    """
    try:
        return _main(sys.argv[1:] if argv is None else argv, kernel_from)
    except PerceptronError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader left (| head): quietly, as a shell tool would
        sys.stdout = None
        return 141
    except KeyboardInterrupt:  # Ctrl-C on a long run: no traceback, the shell's status
        print(file=sys.stderr)
        return 130


def _main(argv, kernel_from) -> int:
    args = _parser().parse_args(argv)
    if args.multiclass:
        for option in ("kernel", "pocket", "w_star"):
            if getattr(args, option):
                raise PerceptronError(f"--{option.replace('_', '-')} does not apply to --multiclass")
    labels = (-1, 1) if args.labels == "-1,1" else (0, 1)
    if args.file is None:
        data = _Data([(list(x), y) for x, y in EXAMPLE], None, ["x1", "x2"], "the embedded example")
    else:
        data = _read_csv(args.file, exact=args.exact, header=args.header, label_column=args.label_column,
                         labels=labels, multiclass=args.multiclass)
    kernel = _kernel(args.kernel, kernel_from) if args.kernel else None
    w_star = _vector_option(args.w_star, args.exact, "--w-star") if args.w_star else None
    if w_star is None and args.file is None and not (args.bias or args.multiclass or kernel):
        w_star = list(W_STAR)
    try:
        if args.multiclass:
            run = train_multiclass(data.examples, bias=args.bias, epochs=args.epochs, max_epochs=args.max_epochs)
        else:
            run = train(data.examples, rule=args.rule, kernel=kernel, bias=args.bias, epochs=args.epochs,
                        max_epochs=args.max_epochs, pocket=args.pocket)
        bound = _bound(data, run, w_star, kernel) if w_star is not None else None
    except PerceptronError as err:
        raise _at_line(err, data) from None
    if args.svg or args.svg_steps:
        _write_svgs(args, data, run, w_star)
    show = _Show(args, data, labels, run, bound)
    print(_json(show) if args.json else _text(show))
    return 1 if args.epochs is None and not run.converged else 0


def _at_line(err, data):
    """A run's PerceptronError, re-told with the file's line for the index."""
    if err.index is None or data.lines is None:
        return PerceptronError(f"{data.source}: {err}")
    return PerceptronError(f"{data.source}:{data.lines[err.index]}: {err.reason}")


def _bound(data, run, w_star, kernel):
    """(R^2, gamma^2, R^2/gamma^2, w*) for the run's examples as it saw them."""
    if kernel is not None and not getattr(kernel, "linear", False):
        raise PerceptronError("--w-star: the bound needs explicit weights, so no kernel but linear")
    examples = [(with_bias(x) if run.bias else x, y) for x, y in data.examples]
    d = len(examples[0][0])
    if len(w_star) != d:
        raise PerceptronError(f"--w-star has {len(w_star)} numbers, the examples have {d} features"
                              + (" with the bias" if run.bias else ""))
    r2 = radius_squared(x for x, _ in examples)
    g2 = margin_squared(examples, w_star)
    return r2, g2, mistake_bound(examples, w_star), w_star


# What the two reports (text and JSON) both need, computed once.
_Show = namedtuple("_Show", "args data labels run bound")


def _shown_label(y, labels):
    """y as the input wrote it: -1/+1, or 0/1 with --labels=0,1."""
    return y if labels[0] == -1 or not isinstance(y, int) else (1 if y == 1 else 0)


def _text(show) -> str:
    """The report for people."""
    args, data, run = show.args, show.data, show.run
    d = len(data.examples[0][0]) if data.examples else 0
    lines = []
    if not args.quiet:
        names = f" ({', '.join(data.names)})" if data.names and d <= 8 else ""
        labels = ("classes, in order of first appearance" if args.multiclass
                  else "/".join(_label_text(v, show.labels) for v in show.labels))
        bias = "yes (the last weight)" if run.bias else "no"
        passes = f"{args.epochs}" if args.epochs else f"until one makes no mistake, at most {args.max_epochs}"
        lines += [f"perceptron {__version__} on {data.source}: {len(data.examples)} examples, {d} features{names}",
                  f"rule:   {RULE_TEXT[run.rule]}",
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
    header = ["epoch", "index"] + (["line"] if data.lines else [])
    small = d <= 8
    header += ["x"] if small else []
    header += ["y", "predicted"] if args.multiclass else ["y", "score"]
    xs = [with_bias(x) if run.bias else x for x, _ in data.examples]
    after = None
    if not args.multiclass and (run.kernel is None) and (small or args.weights):
        header.append("w after")
        after = _replay(xs, run.trace)
    rows = []
    for m in run.trace:
        row = [str(m.epoch), str(m.index)] + ([str(data.lines[m.index])] if data.lines else [])
        row += [_vec(data.examples[m.index][0])] if small else []
        if args.multiclass:
            row += [str(m.y), str(m.predicted)]
        else:
            row += [_label_text(_shown_label(m.y, show.labels), show.labels), _num(m.score)]
        if after is not None:
            row.append(_vec(next(after)))
        rows.append(row)
    return _table(header, rows)


def _label_text(y, labels):
    return f"{y:+d}" if labels[0] == -1 else str(y)


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
    lines.append(f"epochs: {run.epochs}, {stopped}")
    if run.pocket is not None:
        pocket = "" if run.pocket.w is None else f"w = {_vec(run.pocket.w)}, "
        lines.append(f"pocket: {pocket}{run.pocket.errors} training errors, "
                     f"the weights after {run.pocket.mistakes} mistakes")
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
        "labels": "classes" if args.multiclass else list(show.labels),
        "kernel": run.kernel,
        "examples": len(data.examples),
        "features": data.names,
        "weights": {c: vec(w) for c, w in run.w.items()} if args.multiclass else vec(run.w),
        "mistakes": run.mistakes,
        "epochs": run.epochs,
        "converged": run.converged,
        "trace": [_json_mistake(m, data, show.labels, args.multiclass) for m in run.trace],
    }
    if run.pocket is not None:
        doc["pocket"] = {"weights": vec(run.pocket.w), "errors": run.pocket.errors, "mistakes": run.pocket.mistakes}
    if show.bound is not None:
        r2, g2, bound, w_star = show.bound
        doc["bound"] = {"w_star": vec(w_star), "radius_squared": _json_number(r2),
                        "margin_squared": _json_number(g2), "bound": _json_number(bound),
                        "holds": run.mistakes <= bound}
    return _json_lines(doc, json.dumps)


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


def _json_mistake(m, data, labels, multiclass) -> dict:
    entry = {"epoch": m.epoch, "index": m.index}
    if data.lines:
        entry["line"] = data.lines[m.index]
    if multiclass:
        entry.update(y=m.y, predicted=m.predicted)
    else:
        entry.update(y=_shown_label(m.y, labels), score=_json_number(m.score))
    return entry



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


def svg(run: Run, examples: Iterable[Example], *, w_star: Vector | None = None, upto: int | None = None) -> str:
    """An SVG picture of a run on examples with two features, as text.

    ``examples`` are the (x, y) pairs the run was trained on (without the
    bias feature; ``run.bias`` says whether it was appended, and then every
    line is affine).  The picture has the examples (+ for y = +1, o for
    y = -1, numbered when there are at most 30), every hypothesis after each
    mistake as a faint dashed line numbered by its mistake, the example of
    each mistake ringed, the final hyperplane solid with its w drawn as an
    arrow from the origin, and with ``w_star`` the target's hyperplane and
    its vector v, dotted.  ``upto=k`` draws the run as it stood after its
    k-th mistake.  The same run gives the same bytes.
    """
    examples = [_pair(item, i) for i, item in enumerate(examples)]
    _check_drawable(run, examples, w_star)
    xs = [[Fraction(v) for v in x] for x, _ in examples]
    hypotheses = list(_replay([with_bias(x) if run.bias else x for x in xs], run.trace))
    k = len(hypotheses) if upto is None else upto
    if not 0 <= k <= len(hypotheses):
        raise PerceptronError(f"upto = {upto!r} is not between 0 and the {len(hypotheses)} mistakes")
    box = _box(xs)
    to_px = _pixels(box)
    final = hypotheses[k - 1] if k else [0] * (3 if run.bias else 2)
    parts = [_svg_head(run, k), _grid(box, to_px)]
    if w_star is not None:
        v = [Fraction(c) for c in w_star]
        parts.append(_hyperplane(v, box, to_px, "target", 'stroke="#1f5fbf" stroke-width="1.5" stroke-dasharray="2 4"'))
        parts.append(_arrow(v, box, to_px, "v-vector", "#1f5fbf", "v"))
    for n, w in enumerate(hypotheses[:k], 1):
        parts.append(_hyperplane(w, box, to_px, "hypothesis", 'stroke="#888" stroke-width="1" stroke-dasharray="5 4"',
                                 label=str(n), mistake=n))
    parts.append(_hyperplane(final, box, to_px, "hypothesis final", 'stroke="#000" stroke-width="2"', mistake=k))
    parts.append(_arrow(final, box, to_px, "w-vector", "#000", "w"))
    parts.append(_rings(run.trace[:k], xs, to_px))
    parts.append(_marks(examples, xs, to_px))
    parts.append(_caption(run, k, w_star is not None))
    return "\n".join(part for part in parts if part) + "\n</svg>\n"


def _check_drawable(run, examples, w_star):
    if run.rule == "argmax" or run.w is None:
        raise PerceptronError("svg draws a binary run with explicit weights: the primal, or the linear kernel")
    d = len(examples[0][0]) if examples else 0
    if d != 2:
        raise PerceptronError(f"svg draws examples with 2 features; these have {d}")
    if w_star is not None and len(w_star) != 2 + run.bias:
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


def _svg_head(run, k) -> str:
    side = _PLOT + 2 * _EDGE
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side + _CAPTION}" '
            f'viewBox="0 0 {side} {side + _CAPTION}" font-family="sans-serif" font-size="11">\n'
            f'<title>The Perceptron: the hyperplane after each of {k} mistakes</title>\n'
            '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>\n'
            f'<rect x="{_EDGE}" y="{_EDGE}" width="{_PLOT}" height="{_PLOT}" fill="#fff" stroke="#bbb"/>')


def _grid(box, to_px) -> str:
    """Light grid lines at a round step, and the two axes through the origin."""
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
            t += step
    return "\n".join(lines)


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


def _caption(run, k, has_target) -> str:
    side = _PLOT + 2 * _EDGE
    state = "converged" if run.converged else "not converged"
    lines = [f"rule: {run.rule} · bias: {'yes' if run.bias else 'no'} · {_count(run.mistakes, 'mistake')} · "
             f"{_count(run.epochs, 'epoch')} · {state}",
             "+ is y = +1 · o is y = -1 · ringed: an example of a mistake",
             "dashed: w after mistake n · solid: " + (f"w after mistake {k}" if k < run.mistakes else "the final w")
             + (" · dotted: the target w*" if has_target else "")]
    styles = ['class="caption"'] + ['class="legend" fill="#555"'] * 2
    return "\n".join(f'<text {style} x="{_EDGE}" y="{side + 6 + 16 * n}">{_xml(text)}</text>'
                     for n, (style, text) in enumerate(zip(styles, lines)))


def _count(n, noun) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _write_svgs(args, data, run, w_star):
    """--svg FILE and --svg-steps DIR."""
    import os

    def write(path, text):
        try:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as err:
            raise PerceptronError(f"{path}: cannot write: {err.strerror or err}") from None

    if args.svg:
        write(args.svg, svg(run, data.examples, w_star=w_star))
    if args.svg_steps:
        try:
            os.makedirs(args.svg_steps, exist_ok=True)
        except OSError as err:
            raise PerceptronError(f"{args.svg_steps}: cannot make the folder: {err.strerror or err}") from None
        width = len(str(run.mistakes))
        for k in range(1, run.mistakes + 1):
            path = os.path.join(args.svg_steps, f"step-{k:0{width}d}.svg")
            write(path, svg(run, data.examples, w_star=w_star, upto=k))


if __name__ == "__main__":
    sys.exit(main())
