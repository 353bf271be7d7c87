# SPDX-License-Identifier: MIT
# Copyright (c) 2026 the perceptron authors. See LICENSE.
"""
Kernels and their explicit feature expansions (Columbia notes §2.1).

A feature expansion Phi maps x to a longer vector; its kernel computes
K(a, b) = Phi(a).Phi(b) without writing Phi down.  Every kernel here comes
with its Phi where one exists, so that the identity can be checked, and has
a readable ``__name__``.  Standard library only; this file never imports
``perceptron.py`` (except inside ``main`` and ``demonstrate``), so it too can
be copied alone.

==================================  =======================================
Kernel                              K(a, b)
==================================  =======================================
linear(a, b)                        a.b, summed left to right from 0
monotone_conjunction(a, b)          2 ** |Ones(a, b)| (Columbia Claim 2.1)
all_conjunction(a, b)               2 ** same(a, b)   (Khardon et al.)
monotone_conjunction_upto(k)        sum_{l<=k} C(|Ones(a, b)|, l)
polynomial(degree, c=1)             (a.b + c) ** degree
gaussian(sigma)                     exp(-||a - b||^2 / (2 sigma^2)), a float
from_features(phi)                  phi(a).phi(b), the definition itself
gram(K, xs)                         the matrix [[K(a, b) for b] for a]
from_spec("polynomial:2")           the kernel a --kernel option names
==================================  =======================================

Each kernel here has ``gram_rows``: ``K.gram_rows(xs)`` checks each of xs
once and returns row(a) = [K(a, b) for b in xs], the same values at the
speed of their sums (perceptron's kernel dual keeps such rows).

The Boolean kernels take vectors of bits: the ints 0 and 1 (True and False
count as 1 and 0; 1.0 does not).  Their Phi lists one 0/1 feature per
conjunction, the empty conjunction (the constant 1) first, then by size,
then lexicographically, as Columbia §2.1 writes Phi for n = 3.  The three
Boolean kernels are those of R. Khardon, D. Roth and R. Servedio,
"Efficiency versus Convergence of Boolean Kernels for On-Line Learning
Algorithms" (JAIR 24, 2005); the first is the Columbia notes' own.

>>> monotone_conjunction([1, 1, 0], [1, 1, 1])    # Ones = {1, 2}
4
>>> monotone_conjunction_features([1, 1, 0])      # (1, x1, x2, x3, x1x2, x1x3, x2x3, x1x2x3)
[1, 1, 1, 0, 1, 0, 0, 0]
"""

from __future__ import annotations  # the hints below are documentation: never evaluated

import decimal
import math
import numbers
import re
import sys
from fractions import Fraction
from functools import partial, reduce
from collections.abc import Iterable, Mapping, Set, Sized
from itertools import combinations, combinations_with_replacement, product, repeat
from operator import and_, index, mul, sub, xor

__version__ = "0.4.0"

TYPE_CHECKING = False
if TYPE_CHECKING:  # the hints' names, for type checkers only: importing typing would cost every user
    from collections.abc import Callable, Sequence
    from typing import Union

    Number = Union[int, float, Fraction, decimal.Decimal]
    Vector = Sequence[Number]
    Bits = Sequence[int]  # 0 and 1; bool is an int
    Kernel = Callable[..., Number]  # of two vectors (the Boolean kernels take bits only)

__all__ = [
    "KernelError",
    "all_conjunction",
    "all_conjunction_features",
    "demonstrate",
    "from_features",
    "from_spec",
    "gaussian",
    "gram",
    "linear",
    "main",
    "monotone_conjunction",
    "monotone_conjunction_features",
    "monotone_conjunction_upto",
    "polynomial",
    "polynomial_terms",
]


class KernelError(ValueError):
    """A kernel's input or parameter is not what its definition takes."""


def _short(v, limit=60) -> str:
    """repr(v) for a message, cut to ``limit`` characters; never fails."""
    try:
        text = repr(v) if not isinstance(v, int) or v.bit_length() < 4 * limit else f"<an int of {v.bit_length()} bits>"
    except Exception:  # a repr that fails must not hide the error being reported
        text = f"<a {type(v).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _sequence(v, name):
    """Raise a KernelError unless v is a sequence (a list, a tuple, a NumPy row...)."""
    if type(v) not in (list, tuple) and (isinstance(v, (str, bytes, Mapping, Set)) or not isinstance(v, Sized)
                                          or not isinstance(v, Iterable)):
        raise KernelError(f"{name} is {type(v).__name__}, not a sequence of numbers")


def _same_length(a, b):
    _sequence(a, "a")
    _sequence(b, "b")
    if len(a) != len(b):
        raise KernelError(f"vectors of lengths {len(a)} and {len(b)} have no kernel value")


_PLAIN = frozenset((int, float, Fraction, decimal.Decimal, bool))


def _by_value(v):
    """v as an int, float, Fraction or Decimal of the same value, or None if it is not a real number: a
    NumPy int64 as the int of its value (its own arithmetic wraps), a float32 or a float subclass as the
    float of its value (their own arithmetic is theirs)."""
    if type(v) in _PLAIN:
        return v
    try:
        if isinstance(v, decimal.Decimal):
            return decimal.Decimal(v)
        if isinstance(v, numbers.Integral):
            value = int(v)
            return value if type(value) is int else None
        if isinstance(v, numbers.Rational):
            return Fraction(int(v.numerator), int(v.denominator))
        if isinstance(v, numbers.Real):
            value = float(v)
            return value if type(value) is float else None
    except (TypeError, ValueError, ArithmeticError):
        pass
    return None


def _numbers(v, name) -> list:
    """v as a new list of finite real numbers, each taken by value."""
    _sequence(v, name)
    try:
        v = list(v)
    except Exception as err:  # a foreign sequence that cannot be read
        raise KernelError(f"{name} cannot be read: {err}") from None
    if _PLAIN.issuperset(map(type, v)) and all(type(v_i) is not float or math.isfinite(v_i) for v_i in v):
        if not any(type(v_i) is decimal.Decimal and not v_i.is_finite() for v_i in v):
            return v
    values = []
    for i, v_i in enumerate(v):
        value = _by_value(v_i)
        if value is None:
            raise KernelError(f"{name}[{i}] is {_short(v_i)}, not a real number")
        if not (value.is_finite() if type(value) is decimal.Decimal else type(value) is not float
                or math.isfinite(value)):
            raise KernelError(f"{name}[{i}] is {_short(value)}: not finite")
        values.append(value)
    return values


def _arithmetic(f, *args):
    """f(*args), with a failure of the arithmetic told as a KernelError."""
    try:
        return f(*args)
    except (TypeError, ArithmeticError) as err:  # not numbers; numbers that do not mix
        raise KernelError(f"cannot be computed: {err}") from None


def linear(a: Vector, b: Vector):  # -> Number; Any, so its callers may divide
    """The inner product a.b, summed left to right from the int 0.

    The same sum as ``perceptron.dot`` (each file stands alone): sum() is
    left to right, except for floats from Python 3.12 on, where it is
    compensated and a plain loop takes its place.

    >>> linear([1, 2], [3, 4]), linear([1e16, 1.0, -1e16], [1, 1, 1])
    (11, 0.0)
    """
    _same_length(a, b)
    a, b = _numbers(a, "a"), _numbers(b, "b")
    s = _arithmetic(sum, map(mul, a, b))
    if type(s) is float and sys.version_info >= (3, 12):
        s = _arithmetic(_loop, a, b)
    return s


def _loop(a, b):
    s = 0
    for a_i, b_i in zip(a, b):
        s = s + a_i * b_i
    return s


# Rows of kernel values at the speed of the sums (for perceptron's kernel dual, which keeps a row per stored example):
# K.gram_rows(xs) checks and expands each of xs once and gives row(a) = [K(a, b) for b in xs], the same values.  The
# kernels below are outer(linear(phi(a), phi(b))), or of a - b (gaussian): linear's sums taken without its checks, by
# sum(map(mul)) to 3.11, and from 3.12 by math.sumprod for ints (exact) and the plain loop for any other type.

def _gram_rows(phi, outer=None, difference=False):
    """The gram_rows of the kernel outer(linear(phi(a), phi(b))), or outer(linear(a - b, a - b)) with ``difference``;
    phi(v, name) checks v as the kernel does."""
    def gram_rows(xs):
        bs = [phi(b, "b") for b in xs]
        lengths, exact = {len(b) for b in bs}, all(type(v) is int for b in bs for v in b)

        def row(a):
            a = phi(a, "a")
            if lengths - {len(a)}:
                raise KernelError("vectors of different lengths have no kernel value")
            differences = [list(map(sub, a, b)) for b in bs] if difference else None
            if difference and not (exact or all(all(map(math.isfinite, d)) for d in differences)):
                raise KernelError("a difference is not finite")  # linear refuses it: K's own call tells
            us, vs = (differences, differences) if difference else (repeat(a), bs)
            if sys.version_info < (3, 12):
                sums = list(map(sum, map(map, repeat(mul), us, vs)))
            else:
                sums = list(map(sumprod if exact and all(type(v) is int for v in a) else _loop, us, vs))
            return sums if outer is None else list(map(outer, sums))
        return row
    return gram_rows


if sys.version_info >= (3, 12):
    from math import sumprod


# ---------------------------------------------------------------------------
# Boolean kernels: conjunctions over bits (Columbia §2.1; Khardon et al.)
# ---------------------------------------------------------------------------

_BITS = frozenset((0, 1))


def _bits(v, name) -> list:
    """v's entries as the plain ints 0 and 1 (a NumPy int's value; True and False as 1 and 0), or a
    KernelError naming the first that is not a bit."""
    _sequence(v, name)
    if {int, bool}.issuperset(map(type, v)) and _BITS.issuperset(v):
        return list(v)
    bits = []
    for i, v_i in enumerate(v):
        try:
            bit = int(index(v_i))  # index() refuses 1.0 and Fraction(1)
        except TypeError:
            bit = None
        if bit not in _BITS:
            raise KernelError(f"{name}[{i}] is {v_i!r}, not a bit (0 or 1)")
        bits.append(bit)
    return bits


def _count(op, a, b) -> int:
    """sum_i op(a_i, b_i) for op & or ^ over two bit vectors, after checking them."""
    _same_length(a, b)
    return sum(map(op, _bits(a, "a"), _bits(b, "b")))


def _ones(a, b) -> int:
    """|Ones(a, b)|: the positions i with a_i = b_i = 1 (Columbia §2.1)."""
    return _count(and_, a, b)


def monotone_conjunction(a: Bits, b: Bits) -> int:
    """K(a, b) = 2 ** |Ones(a, b)|, in O(n) (Columbia §2.1, Claim 2.1).

    Every subset of Ones(a, b) is a monotone conjunction true of both a and
    b, and no other is; the empty conjunction (the constant 1) is counted.

    >>> monotone_conjunction([1, 0, 1], [1, 1, 1]), monotone_conjunction([0, 0], [1, 1])
    (4, 1)
    """
    return 2 ** _ones(a, b)


def monotone_conjunction_features(x: Bits) -> list:
    """Phi(x): one feature per monotone conjunction, 2 ** n of them.

    In the order of Columbia §2.1 for n = 3, (1, x1, x2, x3, x1x2, x1x3,
    x2x3, x1x2x3): by size, then lexicographically.

    >>> monotone_conjunction_features([1, 0, 1])
    [1, 1, 0, 1, 0, 1, 0, 0]
    """
    _sequence(x, "x")
    return _monotone_features(x, len(x))


def _monotone_features(x, k):
    x = _bits(x, "x")
    return [int(all(x[i] for i in S))
            for size in range(k + 1) for S in combinations(range(len(x)), size)]


def all_conjunction(a: Bits, b: Bits) -> int:
    """K(a, b) = 2 ** same(a, b): all conjunctions of literals (Khardon et al.).

    same(a, b) counts the positions with a_i == b_i.  A conjunction of
    literals (x_i or not x_i) is true of both a and b exactly when it uses
    only such positions, each with the literal a_i satisfies; the empty
    conjunction (the constant 1) is counted, so there are 3 ** n features.

    >>> all_conjunction([1, 0, 1], [1, 1, 1]), all_conjunction([0, 0], [0, 0])
    (4, 4)
    """
    differ = _count(xor, a, b)
    return 2 ** (len(a) - differ)  # same = n - (positions that differ)


def _literals(v, name) -> list:
    """v's bits, then their complements: same(a, b) = _literals(a)._literals(b), a sum of products."""
    bits = _bits(v, name)
    return bits + [1 - bit for bit in bits]


def all_conjunction_features(x: Bits) -> list:
    """Phi(x): one feature per conjunction of literals, 3 ** n of them.

    By size, then by the set of variables lexicographically, then the
    literals with x_i before (not x_i); for n = 1: (1, x1, not x1).

    >>> all_conjunction_features([1, 0])
    [1, 1, 0, 0, 1, 0, 1, 0, 0]
    """
    x = _bits(x, "x")
    return [int(all(x[i] == s for i, s in zip(S, signs)))
            for size in range(len(x) + 1)
            for S in combinations(range(len(x)), size)
            for signs in product((1, 0), repeat=size)]


def monotone_conjunction_upto(k: int) -> Kernel:
    """The kernel of monotone conjunctions of at most k literals (Khardon et al.).

    K(a, b) = sum_{l=0..k} C(|Ones(a, b)|, l): the subsets of Ones(a, b) of
    size at most k.  The empty conjunction (the constant 1) is counted.  The
    kernel's ``features`` is its Phi, the first features of
    ``monotone_conjunction_features`` (those of size <= k), in the same order.

    >>> K = monotone_conjunction_upto(1)
    >>> K.__name__, K([1, 1, 0], [1, 1, 1]), K.features([1, 1, 0])
    ('monotone_conjunction_upto(1)', 3, [1, 1, 1, 0])
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise KernelError(f"k = {k!r} is not a whole number >= 0")

    def subsets(ones) -> int:
        return sum(math.comb(ones, size) for size in range(min(k, ones) + 1))

    def K(a, b) -> int:
        return subsets(_ones(a, b))

    return _named(K, f"monotone_conjunction_upto({k})", features=lambda x: _monotone_features(x, k),
                  gram_rows=_gram_rows(_bits, subsets))


def _named(K, name, **attributes):
    """K with a readable name, and attributes: its Phi as ``features``, ``linear``."""
    K.__name__ = K.__qualname__ = name
    for attribute, value in attributes.items():
        setattr(K, attribute, value)
    return K


_named(monotone_conjunction, "monotone_conjunction", features=monotone_conjunction_features,
       gram_rows=_gram_rows(_bits, partial(pow, 2)))
_named(all_conjunction, "all_conjunction", features=all_conjunction_features,
       gram_rows=_gram_rows(_literals, partial(pow, 2)))
# linear = True tells perceptron.train that a run with this kernel has explicit weights.
_named(linear, "linear", features=list, linear=True, gram_rows=_gram_rows(_numbers))


# ---------------------------------------------------------------------------
# Kernels on real vectors
# ---------------------------------------------------------------------------

MAX_DEGREE = 100  # the highest polynomial degree taken


def polynomial(degree: int, c: Number = 1) -> Kernel:
    """The kernel K(a, b) = (a.b + c) ** degree.

    ``degree`` is a positive int and ``c >= 0`` a real number; exact for
    exact inputs.  Its expansion, ``polynomial_terms``, needs square roots
    of its coefficients to be a plain inner product, so it is written as a
    weighted one.

    >>> K = polynomial(2)
    >>> K.__name__, K([1, 2], [3, 1])
    ('polynomial(2, c=1)', 36)
    """
    c = _degree_and_c(degree, c)

    def power(s):
        return _arithmetic(pow, s + c, degree)

    def K(a, b):
        return power(linear(a, b))

    return _named(K, f"polynomial({degree}, c={c})", degree=degree, c=c, gram_rows=_gram_rows(_numbers, power))


def polynomial_terms(x: Vector, degree: int, c: Number = 1) -> list:
    """The expansion of (x.y + c) ** degree as (weight, monomial of x) pairs.

    With x_0 = 1, (x.y + c)^d = sum over exponents k (k_0 + ... + k_n = d)
    of multinomial(d; k) c^k_0 prod_i (x_i y_i)^k_i, so
    K(a, b) = sum_m w_m m(a) m(b), with exact integer weights for integer c.

    >>> polynomial_terms([2, 3], 2)
    [(1, 1), (2, 2), (2, 3), (1, 4), (2, 6), (1, 9)]
    """
    x = _numbers(x, "x")
    c = _degree_and_c(degree, c)
    terms = []
    for combo in combinations_with_replacement(range(len(x) + 1), degree):
        counts = [combo.count(i) for i in range(len(x) + 1)]
        weight = math.factorial(degree)
        for k in counts:
            weight //= math.factorial(k)
        monomial = _arithmetic(reduce, mul, (x[i - 1] for i in combo if i > 0), 1)  # x_0 = 1
        terms.append((weight * c ** counts[0], monomial))
    return terms


def _degree_and_c(degree, c):
    if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
        raise KernelError(f"degree = {_short(degree)} is not a whole number >= 1")
    if degree > MAX_DEGREE:  # (a.b + c) ** degree of exact inputs has about degree times their digits
        raise KernelError(f"degree = {_short(degree)}: at most {MAX_DEGREE} (a higher power's exact value "
                          "would take too long to compute)")
    if not _real(c) or not c >= 0 or _by_value(c) is None:
        raise KernelError(f"c = {_short(c)} is not a real number >= 0")
    return _by_value(c)


def gaussian(sigma: float) -> Kernel:
    """The kernel K(a, b) = exp(-||a - b||^2 / (2 sigma^2)), with sigma > 0.

    Float by nature (its Phi is infinite-dimensional, so none is given):
    ||a - b||^2 is summed exactly, left to right, then one division and
    math.exp give the float.

    >>> K = gaussian(1)
    >>> K.__name__, K([0, 0], [0, 0]), K([1, 0], [0, 0]) == math.exp(-0.5)
    ('gaussian(1)', 1.0, True)
    """
    if not _real(sigma) or not sigma > 0 or _by_value(sigma) is None:  # nan is not > 0; inf fails below
        raise KernelError(f"sigma = {_short(sigma)} is not a real number > 0")
    sigma = _by_value(sigma)
    try:
        two_sigma_squared = float(2 * sigma * sigma)
    except OverflowError:  # a huge int
        two_sigma_squared = math.inf
    if not 0 < two_sigma_squared < math.inf:
        raise KernelError(f"sigma = {_short(sigma)}: 2 sigma^2 is {two_sigma_squared!r} as a float, so every K(a, b) "
                          "would be 0 or 1")

    def of_distance(squared) -> float:
        return math.exp(-squared / (2 * sigma * sigma))

    def K(a, b) -> float:
        _same_length(a, b)
        a, b = _numbers(a, "a"), _numbers(b, "b")
        d = _arithmetic(lambda: [a_i - b_i for a_i, b_i in zip(a, b)])
        return of_distance(linear(d, d))

    return _named(K, f"gaussian({sigma})", sigma=sigma, gram_rows=_gram_rows(_numbers, of_distance, difference=True))


def _real(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


# ---------------------------------------------------------------------------
# Any expansion, and the Gram matrix
# ---------------------------------------------------------------------------

def from_features(phi: Callable[[Vector], Vector]) -> Kernel:
    """The kernel of an explicit expansion: K(a, b) = phi(a).phi(b) (Columbia §2.1).

    >>> K = from_features(lambda x: [1, x[0], x[0] * x[0]])
    >>> K([2], [3])
    43
    """
    if not callable(phi):
        raise KernelError(f"phi {_short(phi)} is not callable")

    def K(a, b):
        return linear(_expanded(phi, a, "a"), _expanded(phi, b, "b"))

    return _named(K, f"from_features({getattr(phi, '__name__', repr(phi))})", features=phi,
                  gram_rows=_gram_rows(lambda v, name: _numbers(_expanded(phi, v, name), name)))


def _expanded(phi, v, name):
    """phi(v), with a failure of phi told as a KernelError."""
    try:
        return phi(v)
    except (TypeError, ValueError, ArithmeticError, IndexError) as err:
        raise KernelError(f"phi({name}) failed: {err}") from None


def gram(K: Kernel, xs: Iterable[Vector]) -> list:
    """The Gram matrix [[K(a, b) for b in xs] for a in xs], as a list of lists.

    >>> gram(monotone_conjunction, [[1, 0], [1, 1]])
    [[2, 2], [2, 4]]
    """
    if not callable(K):
        raise KernelError(f"kernel {_short(K)} is not callable")
    if isinstance(xs, (str, bytes)) or not isinstance(xs, Iterable):
        raise KernelError(f"xs is {type(xs).__name__}, not a sequence of vectors")
    xs = list(xs)
    return [[K(a, b) for b in xs] for a in xs]


# ---------------------------------------------------------------------------
# The command line: perceptron's, with these kernels; and a demonstration
# ---------------------------------------------------------------------------

def from_spec(spec: str) -> Kernel:
    """The kernel that a ``--kernel`` spec names.

    ``linear``, ``monotone-conjunction``, ``all-conjunction``,
    ``conjunction:K``, ``polynomial:D`` or ``polynomial:D:C``,
    ``gaussian:SIGMA``.

    >>> from_spec("polynomial:2:3").__name__, from_spec("monotone-conjunction").__name__
    ('polynomial(2, c=3)', 'monotone_conjunction')
    """
    if not isinstance(spec, str):
        raise KernelError(f"a kernel spec is a string such as 'polynomial:2', not {_short(spec)}")
    name, *params = spec.split(":")
    if name not in _SPECS:
        raise KernelError(f"unknown kernel {spec!r}: use one of linear, monotone-conjunction, "
                          "all-conjunction, conjunction:K, polynomial:D[:C], gaussian:SIGMA")
    kernel, parsers, form = _SPECS[name]
    if len(params) > len(parsers) or (parsers and not params):
        raise KernelError(f"kernel {spec!r}: write {form}")
    if not parsers:
        return kernel
    try:
        return kernel(*[parse(text) for parse, text in zip(parsers, params)])
    except KernelError as err:
        raise KernelError(f"bad kernel parameter in {spec!r}: {err}") from None


def _whole(text):
    if len(text) > 20 or not re.fullmatch(r"[+-]?[0-9]+", text.strip()):
        raise KernelError(f"{_short(text)} is not a whole number")
    return int(text)


def _number(text):
    """A parameter: a whole number, or a decimal in the grammar of perceptron's CSV cells
    (ASCII digits, no underscores)."""
    try:
        return _whole(text)
    except KernelError:
        pass
    decimal_form = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
    value = float(text) if len(text) < 100 and re.fullmatch(decimal_form, text.strip(), re.ASCII) else math.nan
    if not math.isfinite(value):
        raise KernelError(f"{_short(text)} is not a finite number")
    return value


# --kernel NAME: (the kernel, or what makes it from its parameters; their parsers; the form to write)
_SPECS: dict[str, tuple[Callable, tuple, str]] = {
    "linear": (linear, (), "linear"),
    "monotone-conjunction": (monotone_conjunction, (), "monotone-conjunction"),
    "all-conjunction": (all_conjunction, (), "all-conjunction"),
    "conjunction": (monotone_conjunction_upto, (_whole,), "conjunction:K"),
    "polynomial": (polynomial, (_whole, _number), "polynomial:D or polynomial:D:C"),
    "gaussian": (gaussian, (_number,), "gaussian:SIGMA"),
}


def main(argv: Sequence[str] | None = None) -> int:
    """``python3 kernels.py``: the demonstration; with arguments, perceptron's command line."""
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        import perceptron  # here only: this module never imports it at load time

        return perceptron.main(argv)
    try:
        return demonstrate()
    except BrokenPipeError:  # the reader left (| head): quietly, as a shell tool would
        sys.stdout = None
        return 141


def demonstrate() -> int:
    """Print K(a, b) beside Phi(a).Phi(b), then XOR learned by the kernel dual."""
    import perceptron  # here only: this module never imports it at load time

    print("Columbia notes §2.1: the monotone conjunction kernel, n = 3")
    print("Phi(x) = (1, x1, x2, x3, x1x2, x1x3, x2x3, x1x2x3)")
    pairs = [([1, 1, 0], [1, 1, 1]), ([1, 0, 1], [0, 1, 0]), ([1, 1, 1], [1, 1, 1]), ([0, 1, 1], [1, 1, 0])]
    print(f"{'a':>9}  {'b':>9}  K(a, b) = 2^|Ones|  Phi(a).Phi(b)")
    for a, b in pairs:
        phi_dot = linear(monotone_conjunction_features(a), monotone_conjunction_features(b))
        print(f"{str(a):>9}  {str(b):>9}  {monotone_conjunction(a, b):>17}  {phi_dot:>13}")
    print()
    xor = [([0, 0], -1), ([0, 1], 1), ([1, 0], 1), ([1, 1], -1)]
    primal = perceptron.train(xor, bias=True, max_epochs=100)
    dual = perceptron.train(xor, kernel=monotone_conjunction)
    print("Cornell notes: XOR is not linearly separable, but it is in Phi-space (Columbia §2.3)")
    print(f"  primal with bias:      {primal.mistakes} mistakes in {primal.epochs} passes, "
          f"converged: {'yes' if primal.converged else 'no'}")
    print(f"  kernel dual, 2^|Ones|: {dual.mistakes} mistakes in {dual.epochs} passes, "
          f"converged: {'yes' if dual.converged else 'no'}")
    print("  stored mistakes:", ", ".join(f"{x}:{y:+d}" for x, y in dual.model.stored))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
