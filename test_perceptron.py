"""Tests of perceptron.py, each named after the claim of the notes it checks.

Comparisons are exact (==) and types are checked with ``type(...) is``; data
comes from seeded generators, so every run tests the same cases.

The sections follow the parts of the project: (1) the notes' claims; (2) the
accelerators against Part I; (3) bad input -- one table for the API, one for the
command line -- and seeded fuzzing; (4) the command line; (5) the oracle,
--check and --vectors; (6) the picture, --svg.  A test of more than a few
seconds is marked ``slow``: ``python3 -m pytest -m "not slow"`` is the quick run
(CI runs them all).
"""

import array
import ast
import collections.abc
import contextlib
import copy
import decimal
import hashlib
import html
import html.parser
import gc
import gzip
import io
import json
import math
import numbers
import os
import pickle
import platform
import random
import re
import shlex
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from decimal import Decimal, localcontext
from fractions import Fraction
from operator import mul

import pytest

try:
    import tracemalloc
except ImportError:  # PyPy has none: the memory tests run on CPython
    tracemalloc = None  # type: ignore[assignment]
NO_TRACEMALLOC = pytest.mark.skipif(tracemalloc is None, reason="this Python (PyPy) has no tracemalloc to measure "
                                                                 "memory")

import kernels
import perceptron as P
from perceptron import (DualPerceptron, Mistake, MulticlassPerceptron, Perceptron,
                        PerceptronError, dot, is_mistake, margin_squared, mistake_bound,
                        radius_squared, sign, train, with_bias)


# ===========================================================================
# Shared helpers: seeded data, literal references, stand-ins for NumPy's numbers,
# and the two ways to run the command line (in this process and in a child)
# ===========================================================================

RULES = ["sign", "margin"]
XOR = [([0, 0], -1), ([0, 1], 1), ([1, 0], 1), ([1, 1], -1)]


def separable(seed, n=30, d=None, low=-9, high=9):
    """Integer examples labelled by a random integer w*, none on its hyperplane."""
    rng = random.Random(seed)
    d = d or rng.randint(2, 20)
    w_star = [rng.randint(-5, 5) for _ in range(d)]
    while not any(w_star):
        w_star = [rng.randint(-5, 5) for _ in range(d)]
    examples = []
    while len(examples) < n:
        x = [rng.randint(low, high) for _ in range(d)]
        m = sum(a * b for a, b in zip(w_star, x))
        if m != 0:
            examples.append((x, 1 if m > 0 else -1))
    return examples, w_star


def noisy(seed, n=40, d=3, flip=0.2):
    examples, w_star = separable(seed, n, d)
    rng = random.Random(seed + 1000)
    return [(x, -y if rng.random() < flip else y) for x, y in examples], w_star


def as_fractions(examples, seed=0):
    """Each x divided by its own random q: Fractions, still labelled (and separated) as before."""
    rng = random.Random(seed)
    fractions = []
    for x, y in examples:
        q = rng.randint(2, 9)
        fractions.append(([Fraction(v, q) for v in x], y))
    return fractions


def replay(xs, trace):
    """The test's own reference: w after each mistake of a primal run, from its trace alone."""
    w = None
    for m in trace:
        x = xs[m.index]
        w = [a + m.y * b for a, b in zip(w or [0] * len(x), x)]
        yield w


def reference_run(learner, examples, passes):
    """The trace of calling learn() example by example: the notes' loop, literally."""
    trace = []
    for epoch in range(1, passes + 1):
        clean = True
        for i, (x, y) in enumerate(examples):
            s = learner.score(x)
            if learner.learn(x, y):
                trace.append(Mistake(epoch, i, y, s))
                clean = False
        if clean:
            return trace, epoch, True
    return trace, passes, False


def left_to_right(a, b):
    s = 0
    for p, q in zip(a, b):
        s = s + p * q
    return s


def state(model):
    """What a learner holds, comparable after a deep copy."""
    if isinstance(model, MulticlassPerceptron):
        return copy.deepcopy((model.w, model.mistakes))
    return copy.deepcopy(vars(model))


def csv_of(examples, labels=(-1, 1)):
    rows = [",".join(map(str, x)) + f",{labels[0] if y < 0 else labels[1]}" for x, y in examples]
    return "\n".join(rows) + "\n"


# Each data set starts with a positive example, so that the two rules part at w = 0.
CHECKED = [(sorted(separable(seed, n=30, d=3)[0], key=lambda e: -e[1]),) for seed in range(4)]


# Stand-ins for NumPy's scalars (no NumPy needed), and for a sequence whose len() lies.
class Int64:
    """A stand-in for NumPy's int64: an Integral whose arithmetic wraps at 2**63, as NumPy's does."""

    def __init__(self, v):
        self.v = (int(v) + 2**63) % 2**64 - 2**63

    def __int__(self):
        return self.v

    __index__ = __int__

    def __mul__(self, other):  # with a Fraction, NumPy computes on objects: a Fraction, by value
        return self.v * other if isinstance(other, Fraction) else Int64(self.v * int(other))

    def __add__(self, other):
        return self.v + other if isinstance(other, Fraction) else Int64(self.v + int(other))

    __rmul__, __radd__ = __mul__, __add__

    def __repr__(self):
        return f"Int64({self.v})"


class Float32:
    """A stand-in for NumPy's float32: a Real computed in single precision."""

    def __init__(self, v):
        self.v = struct.unpack("f", struct.pack("f", float(v)))[0]

    def __float__(self):
        return self.v

    def __mul__(self, other):
        return Float32(self.v * float(other))

    def __add__(self, other):
        return Float32(self.v + float(other))

    __rmul__, __radd__ = __mul__, __add__

    def __repr__(self):
        return f"Float32({self.v!r})"


numbers.Integral.register(Int64)
numbers.Real.register(Float32)


class bool_:  # noqa: N801 -- NumPy's name: a bool that is not a Python bool and not a number
    def __init__(self, v):
        self.v = bool(v)

    def __eq__(self, other):
        return self.v == other

    def __hash__(self):
        return hash(self.v)

    def __bool__(self):
        return self.v

    def __repr__(self):
        return repr(self.v)


numpy2_bool = type("bool", (bool_,), {})  # NumPy 2 names its bool "bool", as Python's is named


class Liar(collections.abc.Sequence):
    """A sequence whose len() says 3 but which holds 2 numbers."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return 1


# The command line: cli() runs main() in this process, cli_process() the script in a child.
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "perceptron.py")


FOUR = "1,2,1\n-1,-2,-1\n3,1,1\n2,2,1\n"
EMBEDDED_CSV = "x1,x2,y\n" + "".join(f"{x[0]},{x[1]},{y}\n" for x, y in P.EXAMPLE)


def cli(capsys, *argv):
    """main(argv): (exit status, standard output, standard error)."""
    status = P.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def cli_json(capsys, *argv):
    status, out, err = cli(capsys, *argv, "--json")
    assert err == ""
    return status, json.loads(out)


def cli_process(*argv, cwd=None, env=None, input=None, stdout=None, timeout=60, text=True):
    """python3 perceptron.py ARGV in a child process: (exit status, standard output, standard error).

    Text by default (UTF-8, a byte that is not UTF-8 shown as \\xNN, no newline translated),
    bytes with text=False.  input is standard input (str or bytes); stdout, if given, is the
    file standard output goes to (then None stands for it).  Only the tests of signals, which
    must reach the process while it runs, start it themselves (subprocess.Popen)."""
    if isinstance(input, str):
        input = input.encode("utf-8")
    done = subprocess.run([sys.executable, SCRIPT, *argv], cwd=cwd, env=env, input=input,
                          stdout=subprocess.PIPE if stdout is None else stdout, stderr=subprocess.PIPE, timeout=timeout)
    out, err = done.stdout, done.stderr
    if text:
        out = None if out is None else out.decode("utf-8", "backslashreplace")
        err = err.decode("utf-8", "backslashreplace")
    return done.returncode, out, err


def write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def exact(v):
    """A JSON number back to the API's value: strings are Fractions "p/q"."""
    return Fraction(v) if isinstance(v, str) else v


def files_in(folder):
    """Every file and folder under folder, as sorted relative paths."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


# ===========================================================================
# 1. The notes' claims, each checked literally
# ===========================================================================

def test_the_readmes_concordance_names_functions_of_part_one():
    text = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    table = text[text.index("| note | section, equation |"):].split("\n\n", 1)[0].splitlines()[2:]
    source = open(P.__file__, encoding="utf-8").read()
    part_two = next(n for n, line in enumerate(source.splitlines(), 1) if line.startswith("# Part II"))
    assert part_two <= 650 + 1  # Part I: at most 650 lines from the top
    defined = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            defined.setdefault(node.name, node.lineno)
            for child in getattr(node, "body", ()):
                if isinstance(child, ast.FunctionDef):
                    defined.setdefault(f"{node.name}.{child.name}", child.lineno)
    notes = set()
    for row in table:
        note, _, _, names = [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip("|"))]
        notes.add(note)
        for name in re.findall(r"`([\w.]+)`", names):
            if name.startswith("kernels."):
                assert callable(getattr(kernels, name.split(".", 1)[1])), name
            else:
                assert name in defined and defined[name] < part_two, name  # written in Part I
    assert notes == {"Columbia", "Cornell", "Perceptron Algorithm", "Kalyanakrishnan"}


# ---------------------------------------------------------------------------
# Conventions: sign(0), the two rules, labels
# ---------------------------------------------------------------------------

def test_sign_of_zero_is_plus_one_as_in_columbia():
    assert sign(0) == 1 and sign(0.0) == 1 and sign(Fraction(0)) == 1 and sign(Decimal(0)) == 1
    assert sign(-1) == -1 and sign(Fraction(-1, 10**9)) == -1 and sign(5) == 1
    assert type(sign(Fraction(1, 2))) is int


def test_sign_rule_at_w_zero_positive_is_no_mistake_negative_is():
    p = Perceptron(2)
    assert p.learn([1, 1], 1) is False and p.w == [0, 0]
    assert p.learn([1, 1], -1) is True and p.w == [-1, -1]


def test_margin_rule_at_w_zero_every_example_is_a_mistake():
    p = Perceptron(2, rule="margin")
    assert p.learn([1, 1], 1) is True and p.w == [1, 1]
    q = Perceptron(2, rule="margin")
    assert q.learn([1, 1], -1) is True and q.w == [-1, -1]


@pytest.mark.parametrize("rule, positive_is_mistake", [("sign", False), ("margin", True)])
def test_zero_score_later_in_a_run(rule, positive_is_mistake):
    p = Perceptron(2, rule=rule)
    p.w = [1, -1]                     # w != 0 and w.x = 0 for x = (2, 2)
    assert p.score([2, 2]) == 0
    assert p.learn([2, 2], 1) is positive_is_mistake
    assert p.w == ([3, 1] if positive_is_mistake else [1, -1])
    q = Perceptron(2, rule=rule)
    q.w = [1, -1]
    assert q.learn([2, 2], -1) is True and q.w == [-1, -3]


@pytest.mark.parametrize("rule, positive_is_mistake", [("sign", False), ("margin", True)])
def test_a_float_zero_score_is_plus_zero_and_zero_under_both_rules(rule, positive_is_mistake):
    """Summed from the int 0, a float score is never -0.0 (0 + -0.0 is 0.0), and a zero
    score parts the rules in a float run as in an exact one."""
    assert repr(P.dot([-1.0], [0.0])) == "0.0" and repr(P.dot([-1.0, 1.0], [0.0, -0.0])) == "0.0"
    examples = [([1.0], -1), ([0.0], 1)]  # after the first mistake w = (-1.0), and w.x = 0.0
    run = train(examples, rule=rule, epochs=1)
    assert [repr(m.score) for m in run.trace] == ["0.0"] + (["0.0"] if positive_is_mistake else [])
    assert run.w == [-1.0] and type(run.w[0]) is float
    learner = Perceptron(1, rule=rule)
    assert [learner.learn(x, y) for x, y in examples] == [True, positive_is_mistake]


@pytest.mark.parametrize("rule, positive_is_mistake", [("sign", False), ("margin", True)])
@pytest.mark.parametrize("number", [int, Fraction])
def test_zero_score_after_a_mistake_in_every_form(rule, positive_is_mistake, number):
    """w = (-1, 0) after the first mistake gives x = (0, 1) the score 0: the rules part there,
    alike in train's primal and kernel paths and in the literal DualPerceptron."""
    half = number(1) / 2 if number is Fraction else 1
    examples = [([1 * half, 0 * half], -1), ([0 * half, 1 * half], 1)]
    expected = [Mistake(1, 0, -1, 0)] + ([Mistake(1, 1, 1, 0)] if positive_is_mistake else [])
    primal, dual_run = train(examples, rule=rule, epochs=1), train(examples, rule=rule, epochs=1, kernel=dot)
    assert primal.trace == dual_run.trace == expected
    assert all(type(m.score) is number for m in primal.trace)  # 0 * x_i keeps x's type
    # eq. (2) over no stored mistakes is the empty sum: the int 0; after one, x's type.
    assert [type(m.score) for m in dual_run.trace] == [int] + [number] * positive_is_mistake
    dual = DualPerceptron(rule=rule)
    assert [dual.learn(x, y) for x, y in examples] == [True, positive_is_mistake]


def test_is_mistake_rules_differ_only_at_zero_on_positive():
    for s in [-2, -1, 0, 1, 2, Fraction(-1, 3), Fraction(1, 3)]:
        for y in (-1, 1):
            differ = is_mistake(y, s, "sign") != is_mistake(y, s, "margin")
            assert differ == (s == 0 and y == 1)


def test_predict_uses_sign_under_both_rules():
    for rule in RULES:
        assert Perceptron(3, rule=rule).predict([1, 2, 3]) == 1


def test_labels_equal_to_one_are_used_as_ints():
    for y in (1.0, Fraction(1), Decimal(1)):
        p = Perceptron(1)
        p.learn([Fraction(1, 3)], -y)
        assert p.w == [Fraction(-1, 3)] and type(p.w[0]) is Fraction
    run = train([([1], -1.0)])
    assert run.trace[0].y == -1 and type(run.trace[0].y) is int and type(run.w[0]) is int


# ---------------------------------------------------------------------------
# dot: left to right from 0
# ---------------------------------------------------------------------------

def test_dot_sums_floats_left_to_right_on_every_python():
    # sum() of these is 1.0 on 3.12+ (compensated) and 0.0 before; the notes' order gives 0.0.
    assert dot([1e16, 1.0, -1e16], [1, 1, 1]) == 0.0
    assert dot([1.0, 1e100, 1.0, -1e100], [1, 1, 1, 1]) == 0.0
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 30)
        a = [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 8) for _ in range(n)]
        b = [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 8) for _ in range(n)]
        assert dot(a, b) == left_to_right(a, b)


def test_primal_run_on_floats_is_summed_left_to_right():
    # w = (1e16, 1, -1e16) after one mistake; x = (1, 1, 1): the score is 0.0 left to right.
    run = train([([1e16, 1.0, -1e16], -1), ([-1.0, -1.0, -1.0], 1)], epochs=1, rule="margin")
    assert run.trace[1].score == 0.0 and type(run.trace[1].score) is float


def test_dot_is_exact_and_keeps_types():
    assert dot([1, 2], [3, 4]) == 11 and type(dot([1, 2], [3, 4])) is int
    f = dot([Fraction(1, 3), Fraction(1, 6)], [1, 1])
    assert f == Fraction(1, 2) and type(f) is Fraction
    d = dot([Decimal("0.1"), Decimal("0.2")], [1, 1])
    assert d == Decimal("0.3") and type(d) is Decimal


def test_decimal_uses_the_callers_context_left_to_right():
    a = [Decimal("1.00001"), Decimal("2.00001"), Decimal("-3")]
    with localcontext() as ctx:
        ctx.prec = 3
        expected = (Decimal(0) + a[0]) + a[1]
        expected = expected + a[2]
        assert dot(a, [1, 1, 1]) == expected


# ---------------------------------------------------------------------------
# Columbia §1.1 and the Perceptron Algorithm notes: the update, Claims 1.2 and 1.3,
# the mistake bound
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("number", [int, Fraction])
def test_update_raises_y_w_dot_x_by_exactly_x_dot_x(rule, number):
    """(w + y x).x = w.x + y x.x (Columbia §1.1): the update moves w.x toward y."""
    for seed in range(30):
        examples, _ = separable(seed, n=20)
        if number is Fraction:
            examples = as_fractions(examples, seed)
        p = Perceptron(len(examples[0][0]), rule=rule)
        for x, y in examples * 3:
            before = p.score(x)
            if p.learn(x, y):
                after = p.score(x)
                assert y * after == y * before + dot(x, x)
                assert type(after) is number
        assert p.mistakes > 0


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("number", [int, Fraction])
def test_claims_1_2_and_1_3_hold_after_every_mistake(rule, number):
    """After M mistakes, w.w* >= M gamma and w.w <= M R^2 (Claims 1.2, 1.3 in R form).

    With an unnormalised w*, w.w* >= M gamma reads w.w* >= M min_i y_i w*.x_i.
    """
    for seed in range(40):
        examples, w_star = separable(seed, n=25)
        if number is Fraction:
            examples = as_fractions(examples, seed)
        gamma = min(y * dot(w_star, x) for x, y in examples)
        r2 = radius_squared([x for x, _ in examples])
        p = Perceptron(len(w_star), rule=rule)
        for _ in range(1000):
            clean = True
            for x, y in examples:
                if p.learn(x, y):
                    clean = False
                    assert dot(p.w, w_star) >= p.mistakes * gamma
                    assert dot(p.w, p.w) <= p.mistakes * r2
            if clean:
                break
        assert clean and p.mistakes > 0


@pytest.mark.parametrize("rule", RULES)
def test_mistakes_are_at_most_r2_over_gamma2(rule):
    """The Perceptron Algorithm notes' theorem, on 200 seeded separable data sets."""
    for seed in range(200):
        rng = random.Random(seed)
        examples, w_star = separable(seed, n=rng.randint(5, 60), d=rng.randint(2, 20),
                                     low=-rng.randint(1, 12), high=rng.randint(1, 12))
        run = train(examples, rule=rule, trace=False)
        assert run.converged
        assert run.mistakes <= mistake_bound(examples, w_star)


def test_columbia_unit_vectors_bound_is_one_over_delta_squared():
    # ||x|| = ||v|| = 1 with exact rational coordinates (3/5, 4/5): R^2 = 1, bound = 1/delta^2.
    v = [Fraction(3, 5), Fraction(4, 5)]
    xs = [[Fraction(3, 5), Fraction(4, 5)], [Fraction(-4, 5), Fraction(3, 5)], [Fraction(4, 5), Fraction(-3, 5)],
          [1, 0], [0, -1]]
    examples = [(x, sign(dot(v, x))) for x in xs if dot(v, x) != 0]
    delta2 = margin_squared(examples, v)
    assert radius_squared([x for x, _ in examples]) == 1
    assert mistake_bound(examples, v) == 1 / delta2
    assert train(examples).mistakes <= 1 / delta2


def test_bound_quantities_are_exact_fractions():
    examples = [([1, 2], 1), ([-2, 1], -1)]
    assert radius_squared([x for x, _ in examples]) == 5
    assert type(radius_squared([x for x, _ in examples])) is int
    g2 = margin_squared(examples, [1, 1])
    assert g2 == Fraction(1, 2) and type(g2) is Fraction
    b = mistake_bound(examples, [1, 1])
    assert b == 10 and type(b) is Fraction
    fr = [([Fraction(1, 2), 1], 1)]
    assert margin_squared(fr, [2, 0]) == Fraction(1, 4) and type(margin_squared(fr, [2, 0])) is Fraction
    dec = [([Decimal("0.5"), Decimal(1)], 1)]
    assert margin_squared(dec, [2, 0]) == Decimal("0.25") and type(margin_squared(dec, [2, 0])) is Decimal


def test_the_bound_is_attained_by_one_example():
    """M <= R^2/gamma^2 with gamma the smallest margin: one example x, w* = x gives M = 1 = the bound."""
    for x in ([3, 4], [1], [Fraction(1, 2), 2, -1]):
        run = train([(x, -1)])  # sign(0) = +1 is wrong once, then w = -x is right
        assert run.mistakes == 1 == mistake_bound([(x, -1)], [-v for v in x])


# ---------------------------------------------------------------------------
# The dual (Columbia §2.2) against the primal
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("number", [int, Fraction])
def test_dual_with_inner_product_is_the_primal(rule, bias, number):
    """eq. (1): sum_j y_j x_j . x = w.x, so the same mistakes and w = sum_j y_j x_j."""
    for seed in range(25):
        examples, _ = noisy(seed, n=20, d=random.Random(seed).randint(1, 6), flip=0.1)
        if number is Fraction:
            examples = as_fractions(examples, seed)
        primal = train(examples, rule=rule, bias=bias, max_epochs=15)
        dual = train(examples, rule=rule, bias=bias, max_epochs=15, kernel=dot)
        assert dual.trace == primal.trace
        assert (dual.mistakes, dual.epochs, dual.converged) == (primal.mistakes, primal.epochs, primal.converged)
        assert dual.w == primal.w == dual.model.weights()
        assert [type(v) for v in dual.w] == [type(v) for v in primal.w]


@pytest.mark.parametrize("rule", RULES)
def test_literal_dual_learn_matches_literal_primal_learn(rule):
    for seed in range(20):
        examples, _ = noisy(seed, n=15)
        primal, dual = Perceptron(3, rule=rule), DualPerceptron(rule=rule)
        for x, y in examples * 4:
            assert primal.score(x) == dual.score(x)
            assert primal.learn(x, y) == dual.learn(x, y)
        assert dual.weights() == primal.w and dual.mistakes == primal.mistakes


def test_dual_stores_a_second_mistake_on_the_same_example_again():
    dual = DualPerceptron()
    for _ in range(4):
        for x, y in P.EXAMPLE:
            dual.learn(x, y)
    again = [x for x, _ in dual.stored if x == list(P.EXAMPLE[2][0])]  # a copy of x, as a list
    assert len(again) == 3 and dual.mistakes == len(dual.stored) == 5


# ---------------------------------------------------------------------------
# train: every mode gives learn()'s trace (Cornell §3)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("epochs", [None, 1, 3])
@pytest.mark.parametrize("bias", [False, True])
def test_train_trace_is_learn_example_by_example(rule, epochs, bias):
    for seed in range(20):
        examples, _ = noisy(seed, n=25, d=random.Random(seed).randint(1, 5))
        data = [(with_bias(x) if bias else x, y) for x, y in examples]
        ref = Perceptron(len(data[0][0]), rule=rule)
        passes = 50 if epochs is None else epochs
        trace, made, converged = reference_run(ref, data, passes)
        run = train(examples, rule=rule, bias=bias, epochs=epochs, max_epochs=50)
        assert run.trace == trace and run.w == ref.w and run.mistakes == ref.mistakes
        assert (run.epochs, run.converged) == (made, converged)
        dual = train(examples, rule=rule, bias=bias, epochs=epochs, max_epochs=50, kernel=dot)
        assert dual.trace == trace and dual.w == ref.w


def test_one_pass_reads_a_generator_once():
    examples, _ = separable(1, n=50, d=4)
    run = train(((x, y) for x, y in examples), epochs=1)
    assert run.epochs == 1 and run.trace == train(examples, epochs=1).trace


def test_passes_until_convergence_keep_a_one_shot_iterator():
    examples, _ = separable(2, n=40, d=3)
    from_iterator = train(iter(examples))
    assert from_iterator.trace == train(examples).trace and from_iterator.converged
    assert from_iterator.epochs > 1


def test_epochs_k_stops_early_after_a_clean_pass():
    examples, _ = separable(3, n=30, d=3)
    full = train(examples)
    assert full.epochs >= 2
    run = train(examples, epochs=full.epochs + 5)
    assert run.epochs == full.epochs and run.converged
    short = train(examples, epochs=1)
    assert short.epochs == 1 and short.converged is False


@pytest.mark.parametrize("rule", RULES)
def test_convergence_ends_with_a_clean_pass(rule):
    """Cornell §3: stop after a pass with m = 0 -- then w separates the data."""
    for seed in range(30):
        examples, _ = separable(seed, n=30)
        run = train(examples, rule=rule)
        assert run.converged and run.trace[-1].epoch == run.epochs - 1
        assert not any(is_mistake(y, dot(run.w, x), rule) for x, y in examples)


def test_a_run_of_no_examples_converges_at_once():
    run = train([])
    assert (run.w, run.mistakes, run.epochs, run.converged, run.trace) == ([], 0, 1, True, [])


def test_trace_false_keeps_none():
    examples, _ = separable(4, n=20)
    run = train(examples, trace=False)
    assert run.trace is None and run.w == train(examples).w


def test_a_run_whose_trace_is_not_shown_keeps_none(tmp_path):
    log: list = []
    run = train([([1], 1), ([-1], 1)], epochs=1, rule="margin", trace=log)
    assert run.trace is log and log == [Mistake(1, 0, 1, 0), Mistake(1, 1, 1, -1)]
    assert train([([1], 1), ([-1], 1)], epochs=1, rule="margin", trace=False).trace is None


# ---------------------------------------------------------------------------
# XOR and the product feature (Cornell §8, Kalyanakrishnan §4), the bias, the zero vector
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
def test_xor_is_not_linearly_separable(rule):
    """Cornell §8: the Perceptron "cannot solve ... XOR"; even with a bias it never converges."""
    run = train(XOR, rule=rule, bias=True, max_epochs=100)
    assert run.converged is False and run.epochs == 100
    assert all(m.epoch <= 100 for m in run.trace) and run.trace[-1].epoch == 100


@pytest.mark.parametrize("rule", RULES)
def test_a_product_feature_x1x2_makes_xor_separable(rule):
    """Kalyanakrishnan §4: "the addition of a feature x1x2 will make the data linearly-separable"."""
    with_product = [([a, b, a * b], y) for (a, b), y in XOR]
    run = train(with_product, rule=rule, bias=True)
    assert run.converged and all(is_mistake(y, dot(run.w, with_bias(x)), rule) is False for x, y in with_product)


@pytest.mark.parametrize("rule", RULES)
def test_without_a_bias_the_hyperplane_goes_through_the_origin(rule):
    """Cornell §1-2: x = 1 positive and x = 2 negative need a threshold, the bias."""
    examples = [([1], 1), ([2], -1)]
    assert train(examples, rule=rule, max_epochs=50).converged is False
    run = train(examples, rule=rule, bias=True)
    assert run.converged and run.w[1] != 0  # the bias moved the hyperplane off the origin
    assert not any(is_mistake(y, dot(run.w, with_bias(x)), rule) for x, y in examples)


@pytest.mark.parametrize("rule", RULES)
def test_zero_vector_labelled_negative_never_converges(rule):
    # w.0 = 0 is +1 under sign and wrong under margin, and the update adds 0.
    run = train([([1, 1], 1), ([0, 0], -1)], rule=rule, max_epochs=7)
    assert (run.converged, run.epochs) == (False, 7)
    assert [m.index for m in run.trace if m.epoch > 1] == [1] * 6


# ---------------------------------------------------------------------------
# Streams: one pass over examples that are never kept
# ---------------------------------------------------------------------------

def test_a_million_streamed_examples_in_one_pass():
    def stream():
        rng = random.Random(5)
        for _ in range(10 ** 6):
            x = [rng.randint(-3, 3), rng.randint(-3, 3)]
            yield x, 1 if 2 * x[0] - x[1] >= 0 else -1
    run = train(stream(), epochs=1, trace=False)
    assert run.epochs == 1 and run.trace is None and run.mistakes > 0
    assert run.w[0] > 0 > run.w[1]


@pytest.mark.slow
@NO_TRACEMALLOC
def test_streamed_pass_memory_does_not_grow_with_the_stream():
    def stream(n):
        for i in range(n):
            yield [i % 7 - 3, i % 5 - 2], 1 if i % 3 else -1

    def peak(n):
        tracemalloc.start()
        train(stream(n), epochs=1, trace=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak

    assert peak(200_000) < 2 * peak(2_000) + 4096


# ---------------------------------------------------------------------------
# Exact types
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("number", [int, Fraction, Decimal])
def test_weights_and_scores_keep_the_input_type(number):
    rng = random.Random(11)
    examples, _ = separable(11, n=20, d=4)
    if number is Fraction:
        examples = [([Fraction(v, rng.randint(1, 9)) for v in x], y) for x, y in examples]
    if number is Decimal:
        examples = [([Decimal(v) / 4 for v in x], y) for x, y in examples]
    run = train(examples)
    assert all(type(v) is number for v in run.w)
    assert all(type(m.score) is number for m in run.trace)
    assert type(run.model.score(examples[0][0])) is number


def test_no_float_appears_in_an_exact_run():
    examples = as_fractions(separable(12, n=30, d=5)[0], 12)
    run = train(examples, pocket=True, max_epochs=50)
    assert all(type(v) is Fraction for v in run.w + run.pocket.w)


# ---------------------------------------------------------------------------
# Beyond the notes, for data that is not separable: multiclass one-vs-rest and
# joint, the pocket (Gallant), averaged and voted perceptrons (Freund and
# Schapire; Collins) -- each against a literal reference written here
# ---------------------------------------------------------------------------

def errors(w, examples, rule):
    return sum(is_mistake(y, dot(w, x), rule) for x, y in examples)


@pytest.mark.parametrize("rule", RULES)
def test_pocket_is_never_worse_than_the_final_weights(rule):
    for seed in range(30):
        examples, _ = noisy(seed, n=40, flip=0.25)
        run = train(examples, rule=rule, max_epochs=20, pocket=True)
        assert run.pocket.errors == errors(run.pocket.w, examples, rule)
        assert run.pocket.errors <= errors(run.w, examples, rule)


@pytest.mark.parametrize("rule", RULES)
def test_pocket_ratchets_only_on_strictly_fewer_errors(rule):
    for seed in range(10):
        examples, _ = noisy(seed, n=30, flip=0.3)
        run = train(examples, rule=rule, max_epochs=5, pocket=True)
        w = [0] * 3
        best = (errors(w, examples, rule), list(w), 0)
        for k, m in enumerate(run.trace, 1):
            w = [a + m.y * b for a, b in zip(w, examples[m.index][0])]
            e = errors(w, examples, rule)
            if e < best[0]:
                best = (e, list(w), k)
        assert (run.pocket.errors, run.pocket.w, run.pocket.mistakes) == best
        dual = train(examples, rule=rule, max_epochs=5, pocket=True, kernel=dot)
        assert (dual.pocket.errors, dual.pocket.mistakes) == (best[0], best[2])


@pytest.mark.parametrize("update", ["one-vs-rest", "joint"])
def test_multiclass_converges_on_three_separable_classes(update):
    rng = random.Random(9)
    centres = {"a": (6, 0), "b": (-3, 5), "c": (-3, -5)}
    examples = [([cx + rng.randint(-1, 1), cy + rng.randint(-1, 1), 1], c)
                for _ in range(20) for c, (cx, cy) in centres.items()]
    m = MulticlassPerceptron(["a", "b", "c"], 3, update=update)
    for _ in range(100):
        if not any([m.learn(x, y) for x, y in examples]):
            break
    assert all(m.predict(x) == y for x, y in examples)


@pytest.mark.parametrize("update", ["one-vs-rest", "joint"])
def test_multiclass_tie_goes_to_the_earliest_class(update):
    m = MulticlassPerceptron(["b", "a", "c"], 2, update=update)
    assert m.predict([1, 1]) == "b"  # w = 0: every score ties
    vectors = m.binary if m.binary else None
    for c, w in (("c", [1, 0]), ("a", [1, 0])):
        if vectors:
            vectors[c].w = w
        else:
            m.w[c] = w
    assert m.predict([1, 5]) == "a" and m.scores([1, 5]) == {"b": 0, "a": 1, "c": 1}
    run = P.train_multiclass([([0, 0], "b"), ([0, 0], "a")], update=update, max_epochs=2)
    assert run.model.predict([3, 3]) == "b"  # x = 0 never moves a vector: all ties, to the first class


def three_classes(seed, n=24, number=int):
    rng = random.Random(seed)
    examples = []
    for _ in range(n):
        x = [rng.randint(-5, 5) for _ in range(3)]
        c = "abc"[(x[0] + 2 * x[1] - x[2]) % 3]  # no linear rule: passes stop at the bound
        examples.append(([number(v) if number is int else Fraction(v, rng.randint(1, 4)) for v in x], c))
    return examples


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("number", [int, Fraction])
def test_one_vs_rest_is_the_binary_run_of_each_class(rule, bias, number):
    examples = three_classes(41, number=number)
    run = P.train_multiclass(examples, rule=rule, bias=bias, max_epochs=6, pocket=True)
    for c in "abc":
        binary = train([(x, 1 if y == c else -1) for x, y in examples], rule=rule, bias=bias, max_epochs=6,
                       pocket=True)
        assert run.w[c] == binary.w and run.pocket[c] == binary.pocket
        assert [m[1:] for m in run.trace if m.cls == c] == binary.trace
    assert run.converged == all(train([(x, 1 if y == c else -1) for x, y in examples], rule=rule, bias=bias,
                                      max_epochs=6).converged for c in "abc")
    x = examples[0][0]
    scores = {c: dot(with_bias(x) if bias else x, run.w[c]) for c in "abc"}
    assert run.predict(x) == max("abc", key=lambda c: (scores[c], -"abc".index(c)))


def joint_reference(examples, classes, passes):
    """The joint multiclass perceptron, literally: argmax (first class on ties), w(y) += x, w(guess) -= x."""
    w = {c: [0] * len(examples[0][0]) for c in classes}
    trace = []
    for epoch in range(1, passes + 1):
        before = len(trace)
        for i, (x, y) in enumerate(examples):
            s = {c: sum(a * b for a, b in zip(w[c], x)) for c in classes}
            guess = max(classes, key=lambda c: (s[c], -classes.index(c)))
            if guess != y:
                w[y] = [a + b for a, b in zip(w[y], x)]
                w[guess] = [a - b for a, b in zip(w[guess], x)]
                trace.append((epoch, i, y, guess))
        if len(trace) == before:
            break
    return w, trace


@pytest.mark.parametrize("number", [int, Fraction])
def test_joint_is_the_joint_update_literally(number):
    examples = three_classes(42, number=number)
    run = P.train_multiclass(examples, classes=["a", "b", "c"], update="joint", max_epochs=5)
    w, trace = joint_reference(examples, ["a", "b", "c"], 5)
    assert run.w == w and [tuple(m) for m in run.trace] == trace and run.rule == "argmax"
    with pytest.raises(PerceptronError, match="does not apply to the joint update"):
        P.train_multiclass(examples, update="joint", rule="margin")


def test_the_joint_pocket_counts_the_argmax_errors():
    examples = three_classes(43)
    run = P.train_multiclass(examples, classes=["a", "b", "c"], update="joint", max_epochs=5, pocket=True)
    best, replay = None, {c: [0, 0, 0] for c in "abc"}

    def argmax_errors(w):
        return sum(1 for x, y in examples if max("abc", key=lambda c: (dot(w[c], x), -"abc".index(c))) != y)
    best = (argmax_errors(replay), dict(replay), 0)
    for k, m in enumerate(run.trace, 1):
        x = examples[m.index][0]
        replay[m.y] = [a + b for a, b in zip(replay[m.y], x)]
        replay[m.predicted] = [a - b for a, b in zip(replay[m.predicted], x)]
        if argmax_errors(replay) < best[0]:
            best = (argmax_errors(replay), dict(replay), k)
    assert (run.pocket.errors, run.pocket.w, run.pocket.mistakes) == best


def literal_history(examples, rule, bias, passes):
    """Every W_t, t = 0..N, of a run of exactly ``passes`` passes, by the learner's own learn()."""
    learner = Perceptron(len(examples[0][0]), rule=rule, bias=bias)
    history = [list(learner.w)]
    for _ in range(passes):
        for x, y in examples:
            learner.learn(x, y)
            history.append(list(learner.w))
    return history


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("passes", [1, 3, 10])
@pytest.mark.parametrize("number", [int, Fraction])
def test_averages_after_and_before_are_the_literal_means(rule, bias, passes, number):
    examples, _ = noisy(44, n=15, d=3)
    examples = examples if number is int else as_fractions(examples, 44)
    W = literal_history(examples, rule, bias, passes)
    N = len(W) - 1
    after = [sum((Fraction(w[j]) for w in W[1:]), Fraction(0)) / N for j in range(len(W[0]))]
    before = [sum((Fraction(w[j]) for w in W[:-1]), Fraction(0)) / N for j in range(len(W[0]))]
    run_after = train(examples, rule=rule, bias=bias, epochs=passes, average="after")
    run_before = train(examples, rule=rule, bias=bias, epochs=passes, average="before")
    assert run_after.average == after and run_before.average == before and run_after.epochs == passes
    assert all(type(v) is Fraction for v in run_after.average + run_before.average)


def test_averages_of_floats_are_the_exact_means_of_the_float_iterates_rounded_once():
    examples = [([v / 3 for v in x], y) for x, y in noisy(45, n=15, d=3)[0]]
    W = literal_history(examples, "margin", True, 4)
    after = [float(sum(Fraction(w[j]) for w in W[1:]) / (len(W) - 1)) for j in range(4)]
    run = train(examples, rule="margin", bias=True, epochs=4, average="after")
    assert run.average == after and all(type(v) is float for v in run.average)


def test_an_average_until_convergence_counts_the_clean_pass():
    examples, _ = separable(46, n=20, d=3)
    run = train(examples, average="after")
    W = literal_history(examples, "sign", False, run.epochs)
    assert run.converged and run.average == [sum(Fraction(w[j]) for w in W[1:]) / (len(W) - 1) for j in range(3)]


@pytest.mark.parametrize("update", [None, "joint"])
def test_the_average_before_of_a_run_with_a_start_counts_the_start_as_w_0(update):
    # sum_{t=0}^{N-1} W_t / N: W_0 is the start (it was left out: a run that never moved from [1, 1] averaged [0, 0])
    if update is None:
        assert train([([1, 0], 1)], epochs=1, average="before", start=[1, 1]).average == [1, 1]
        run = train([([1, 0], 1), ([-1, 0], 1)], epochs=1, average="before", start=[1, 1])
        assert (run.w, run.average) == ([0, 1], [1, 1])  # W_0 = W_1 = [1, 1], then W_2 = [0, 1]
    else:
        run = P.train_multiclass([([1, 0], "a"), ([0, 1], "b")], update="joint", epochs=1, average="before",
                                 start={"a": [1, 0], "b": [0, 1]})
        assert run.mistakes == 0 and run.average == {"a": [1, 0], "b": [0, 1]}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
def test_voted_counts_sum_to_n_and_their_weighted_sum_is_n_times_the_average(rule, bias):
    examples, _ = noisy(47, n=20, d=3)
    run = train(examples, rule=rule, bias=bias, epochs=5, average="after", voted=True)
    N = 5 * len(examples)
    assert sum(c for _, c in run.voted) == N and len(run.voted) == run.mistakes + 1
    weighted = [sum(c * v[j] for v, c in run.voted) for j in range(len(run.w))]
    assert weighted == [N * a for a in run.average] and all(type(v) is int for v in weighted)
    assert [v for v, _ in run.voted][1:] == list(replay(
        [with_bias(x) if bias else x for x, _ in examples], run.trace))


def test_the_voted_prediction_is_sign_of_the_counted_signs():
    examples, _ = noisy(48, n=20, d=2)
    run = train(examples, epochs=3, voted=True)
    for x, _ in examples:
        total = sum(c * sign(dot(v, x)) for v, c in run.voted)
        assert run.predict(x, "voted") == (1 if total >= 0 else -1)


@pytest.mark.parametrize("bias_convention", [{"bias_first": True}, {"bias_feature": -1}])
def test_the_vote_reads_x_as_the_run_did_with_its_bias_first_or_on_minus_one(bias_convention):
    # each v_k is scored on x read as the run read it, (1, x) or (x, -1), as w and the pocket are: not (x, 1)
    examples = [([1, 0], 1), ([0, 1], -1), ([1, 1], 1), ([0, 0], -1), ([2, 1], 1)]
    run = train(examples, epochs=3, voted=True, bias=True, **bias_convention)
    read = (lambda x: [1, *x]) if "bias_first" in bias_convention else (lambda x: [*x, -1])
    for x, _ in examples:
        total = sum(c * sign(dot(v, read(x))) for v, c in run.voted)
        assert run.predict(x, "voted") == (1 if total >= 0 else -1)
    assert run.errors(examples, "voted") == 0 == run.errors(examples)


@pytest.mark.parametrize("bias", [False, True])
def test_run_predict_applies_the_runs_own_bias(bias):
    examples, _ = noisy(50, n=20, d=3)
    run = train(examples, bias=bias, max_epochs=4, pocket=True, average="after")
    for x, _ in examples:
        xb = with_bias(x) if bias else x
        assert run.predict(x) == sign(dot(run.w, xb)) and run.score(x) == dot(run.w, xb)
        assert run.predict(x, "pocket") == sign(dot(run.pocket.w, xb))
        assert run.score(x, "average") == dot(run.average, xb)
    with pytest.raises(PerceptronError, match="kept no votes"):
        run.predict(examples[0][0], "voted")


@pytest.mark.parametrize("zero", [1, -1, 0])
def test_a_binary_run_predicts_a_zero_score_by_its_own_sign_of_zero(zero):
    # zero=-1's run converged on these, and predict, errors and --test read its zero scores as +1: 2 errors
    examples = [([1, 0], 1), ([0, 1], -1), ([0, 0], -1)]
    run = train(examples, zero=zero, epochs=5, pocket=True, average="after")
    for weights in ("w", "pocket", "average"):
        said = [sign(s) if s else zero for s in (run.score(x, weights) for x, _ in examples)]
        assert [run.predict(x, weights) for x, _ in examples] == said
        assert run.errors(examples, weights) == sum(o != y for o, (_, y) in zip(said, examples))
    assert (run.converged, run.errors(examples)) == ((True, 0) if zero == -1 else (False, 1))


def test_a_zero_score_under_sign_of_zero_0_predicts_no_label_even_where_0_is_a_label():
    # labels 0/1: a zero score predicted 0, the negative label, while errors() counted it wrong (no label)
    run = train([([1, 0], 1), ([0, 1], 0)], labels=(0, 1), zero=0, epochs=1)
    assert run.score([0, 0]) == 0 and run.predict([0, 0]) is None and run.errors([([0, 0], 0)]) == 1
    assert train([([1, 0], 1), ([0, 1], -1)], zero=0, epochs=1).predict([0, 0]) == 0


def test_cli_test_of_a_run_under_zero_minus_one_counts_its_zero_scores_as_it_ran(capsys, tmp_path):
    path = write(tmp_path, "x1,x2,y\n1,0,1\n0,1,-1\n0,0,-1\n")
    status, out, _ = cli(capsys, path, "--zero=-1", "--epochs=5", "--test", path)
    assert status == 0 and "passes: 2, converged" in out and "3 examples; errors: w 0" in out


def test_run_errors_counts_the_predictors_mistakes_side_by_side():
    examples, _ = noisy(51, n=30, d=3)
    run = train(examples, bias=True, max_epochs=5, pocket=True, average="before", voted=True)
    for weights in ("w", "pocket", "average", "voted"):
        assert run.errors(examples, weights) == sum(1 for x, y in examples if run.predict(x, weights) != y)
    assert run.errors(examples, "pocket") == run.pocket.errors  # the sign rule's errors are the predictor's
    multi = P.train_multiclass(three_classes(52), max_epochs=3)
    assert multi.errors(three_classes(52)) == sum(1 for x, y in three_classes(52) if multi.predict(x) != y)


# ---------------------------------------------------------------------------
# A run in use: X and y, any two labels, whole matrices, every predictor of a
# multiclass run (Crammer and Singer 2003 for the joint average, as nltk has it)
# ---------------------------------------------------------------------------

class Array(collections.abc.Sequence):
    """A stand-in for a NumPy array: a sequence that is not a list (rows, for a matrix)."""

    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


@pytest.mark.parametrize("number, value", [(int, int), (Int64, int), (Float32, float), (Fraction, Fraction)])
def test_train_of_x_and_y_is_train_of_the_pairs_by_value(number, value):
    examples, _ = noisy(80, n=25, d=3)
    X = [[number(v) for v in x] for x, _ in examples]
    y = [Int64(label) if number is Int64 else label for _, label in examples]
    expected = train([([value(float(v) if number is Float32 else v) for v in x], label)
                      for x, label in zip(X, [label for _, label in examples])], max_epochs=20, bias=True)
    for matrix in (X, Array(Array(row) for row in X)):
        for labels in (y, Array(y)):
            run = train(matrix, labels, max_epochs=20, bias=True)
            assert (run.w, run.trace, run.labels) == (expected.w, expected.trace, (-1, 1))
            assert [type(v) for v in run.w] == [type(v) for v in expected.w] and type(run.w[0]) is value
            assert run.predictions(matrix) == [expected.predict(x) for x in expected_rows(expected, X)]
            assert run.errors(matrix, y=labels) == sum(run.predict(x) != label for x, (_, label) in zip(X, examples))
    with pytest.raises(PerceptronError, match="^X has 25 rows and y 24 labels$"):
        train(X, y[:-1])


def expected_rows(run, X):
    """X's rows by value, as the run reads them."""
    return [[float(v) if isinstance(v, Float32) else int(v) if isinstance(v, Int64) else v for v in x] for x in X]


@pytest.mark.parametrize("negative, positive, labels", [
    (0, 1, (0, 1)), ("B", "M", ("B", "M")), ("yes", "no", ("no", "yes")), (False, True, (False, True)),
    (bool_(False), bool_(True), (False, True)),
    (numpy2_bool(False), numpy2_bool(True), (False, True)), (Int64(0), Int64(1), (0, 1)), (-1, 0, (-1, 0))])
@pytest.mark.parametrize("epochs", [1, None])
def test_train_takes_any_two_labels_the_one_that_sorts_first_negative(negative, positive, labels, epochs):
    examples, _ = noisy(81, n=25, d=3)
    named = [(x, positive if y == 1 else negative) for x, y in examples]
    if labels[0] != _value(negative):  # the one that sorts first is read as -1
        examples = [(x, -y) for x, y in examples]
    run, plain = train(named, epochs=epochs, max_epochs=9), train(examples, epochs=epochs, max_epochs=9)
    assert (run.w, run.trace, run.labels) == (plain.w, plain.trace, labels)
    X = [x for x, _ in examples]
    assert run.predictions(X) == [labels[plain.predict(x) > 0] for x in X]
    assert run.errors(named) == plain.errors(examples) == run.errors(X, y=[y for _, y in named])
    given = train(named, epochs=epochs, max_epochs=9, labels=(labels[1], labels[0]))  # which is which, as given
    assert (given.w, given.labels) == (train([(x, -y) for x, y in examples], epochs=epochs, max_epochs=9).w,
                                       (labels[1], labels[0]))


def _value(label):
    return bool(label) if isinstance(label, bool_) else int(label) if isinstance(label, Int64) else label


@pytest.mark.parametrize("first, second", [(1, True), (0, False), (True, 1)])
def test_labels_equal_but_one_a_bool_are_two_labels_each_read_as_itself(first, second):
    # True is not the label 1: both were read as -1 (1 == True), a run on one label that never converged
    run = train([([1], first), ([-2], second)])
    assert run.labels == (first, second) and [type(v) for v in run.labels] == [type(first), type(second)]
    assert (run.w, run.converged, [m.y for m in run.trace]) == ([-1], True, [-1])
    assert [type(run.predict(x)) for x in ([1], [-2])] == [type(first), type(second)]


def test_a_stream_of_other_labels_names_them_with_labels():
    stream = iter([([1, 2], "a"), ([-1, 0], "b")])
    with pytest.raises(PerceptronError, match="^example 0: label 'a' is not -1 or \\+1$"):
        train(stream, epochs=1)
    assert train(iter([([1, 2], "a"), ([-1, 0], "b")]), epochs=1, labels=("b", "a")).w == [1, 0]


def test_the_one_vs_rest_pocket_and_average_are_each_class_s_binary_run():
    examples = three_classes(82)
    run = P.train_multiclass(examples, epochs=4, pocket=True, average="after", voted=True)
    for c in "abc":
        binary = train([(x, 1 if y == c else -1) for x, y in examples], epochs=4, pocket=True, average="after")
        assert (run.pocket[c].w, run.average[c]) == (binary.pocket.w, binary.average)  # SGDClassifier(average=True)
    for x, _ in examples:  # argmax over the classes' pocket (average) vectors, ties to the earliest class
        for weights, vectors in (("pocket", {c: run.pocket[c].w for c in "abc"}), ("average", run.average)):
            scores = [dot(vectors[c], x) for c in "abc"]
            assert run.predict(x, weights) == "abc"[scores.index(max(scores))]
    assert run.errors(examples, "pocket") == sum(run.predict(x, "pocket") != y for x, y in examples)
    assert run.errors(examples, "voted") == sum(run.predict(x, "voted") != y for x, y in examples)


def nltk_averaged(examples, classes, passes):
    """nltk's AveragedPerceptron (nltk/tag/perceptron.py), as it is written there: weights[f][c] with
    _totals and _tstamps, i counting every example, argmax ties to the greatest label, the update on the
    features present, and average_weights rounding to 3 decimals."""
    weights, totals, tstamps, i = {}, collections.defaultdict(int), collections.defaultdict(int), 0

    def predict(features):
        scores = collections.defaultdict(float)
        for f, value in features.items():
            if f not in weights or value == 0:
                continue
            for label, weight in weights[f].items():
                scores[label] += value * weight
        return max(classes, key=lambda label: (scores[label], label))

    def upd_feat(c, f, w, v):
        param = (f, c)
        totals[param] += (i - tstamps[param]) * w
        tstamps[param] = i
        weights[f][c] = w + v

    for _ in range(passes):
        for x, truth in examples:
            features = {f: 1 for f, v in enumerate(x) if v}
            guess = predict(features)
            i += 1
            if truth != guess:
                for f in features:
                    by_class = weights.setdefault(f, {})
                    upd_feat(truth, f, by_class.get(truth, 0.0), 1.0)
                    upd_feat(guess, f, by_class.get(guess, 0.0), -1.0)
    return {(f, c): round((totals[f, c] + (i - tstamps[f, c]) * w) / i, 3)
            for f, by_class in weights.items() for c, w in by_class.items()}


def test_a_joint_run_with_ties_last_predicts_and_pockets_as_it_ran():
    examples = [([1, 0], "a"), ([0, 1], "b")]  # at [0, 1] a tie (0 and 0), which went to "b" as the run ran
    run = P.train_multiclass(examples, update="joint", ties="last", pocket=True, voted=True)
    assert run.w == {"a": [1, 0], "b": [-1, 0]} and run.converged and run.mistakes == 1
    assert run.predictions([[0, 1], [0, 0]]) == ["b", "b"] and run.errors(examples) == 0
    assert run.predict([0, 1], "voted") == "b" and run.errors(examples, "voted") == 0
    assert run.pocket == (run.w, 0, 1) and run.predictions([[0, 1]], "pocket") == ["b"]
    model = P.Classifier(bias=False, multiclass="joint", conventions={"ties": "last"})
    model.fit([[1, 0], [0, 1], [-1, -1]], ["a", "b", "c"])
    assert model.predict([[0, 0]]) == ["c"] and model.decision_function([[2, 1]]) == [[2, 1, -3]]  # classes_' order
    first = P.train_multiclass(examples, update="joint", pocket=True)  # ties to the first: "a" at 0
    assert first.predict([0, 0]) == "a" and first.errors(examples) == 0 and first.pocket.errors == 0


def test_the_joint_average_before_is_nltks_averaged_perceptron():
    rng = random.Random(83)
    classes = ["DET", "NOUN", "VERB", "ADJ"]
    w_star = {c: [rng.randint(-3, 3) for _ in range(8)] for c in classes}
    examples = []
    for _ in range(60):
        x = [rng.randint(0, 1) for _ in range(8)]
        scores = {c: dot(w_star[c], x) for c in classes}
        examples.append((x, max(classes, key=lambda c: (scores[c], rng.random()))))
    theirs = nltk_averaged(examples, classes, passes=5)
    run = P.train_multiclass(examples, classes=sorted(classes, reverse=True), update="joint", epochs=5,
                             average="before")
    ours = {(f, c): round(float(run.average[c][f]), 3) for c in classes for f in range(8)}
    assert {k: v for k, v in ours.items() if v} == {k: v for k, v in theirs.items() if v}
    assert run.mistakes > 20 and len([v for v in ours.values() if v]) > 10  # a run with something to average


class Frame:
    """A stand-in for a pandas DataFrame: iterating it gives its column names, .to_numpy() its rows."""

    def __init__(self, rows, columns):
        self.rows, self.columns, self.iloc = rows, columns, None

    def __iter__(self):
        return iter(self.columns)

    def to_numpy(self, dtype=None):
        return Array(Array(row) for row in self.rows)


class Shaped(Array):
    """A stand-in for a NumPy array with its ndim and shape (a 0-d one cannot be iterated)."""

    def __init__(self, items, shape):
        super().__init__(items)
        self.ndim, self.shape = len(shape), shape

    def __iter__(self):
        if not self.ndim:
            raise TypeError("iteration over a 0-d array")
        return iter(self.items)


def test_a_frame_is_its_rows_y_is_positional_and_labels_of_numpy_types_are_read_by_value():
    examples = three_classes(84)
    X, y = [x for x, _ in examples], ["abc".index(c) for _, c in examples]
    frame, int64s = Frame(X, ["x1", "x2", "x3"]), [Int64(label) for label in y]
    expected = P.train_multiclass(list(zip(X, y)), max_epochs=5)
    for X_given, y_given in ((frame, int64s), (Array(Array(x) for x in X), Array(int64s))):
        run = P.train_multiclass(X_given, y_given, max_epochs=5)  # y positional, as train(X, y)
        assert (run.w, run.trace, run.model.classes) == (expected.w, expected.trace, expected.model.classes)
        assert run.errors(X_given, y_given) == run.errors(X, y) == expected.errors(list(zip(X, y))) > 0
        assert run.predictions(frame) == expected.predictions(X)
    binary = [(x, label > 0) for x, label in zip(X, y)]
    run = train(frame, [bool_(label) for _, label in binary], max_epochs=5)
    assert (run.w, run.labels) == (train(binary, max_epochs=5).w, (False, True))
    assert run.errors(frame, [bool_(label) for _, label in binary], "w") == train(binary, max_epochs=5).errors(binary)
    assert P.train_multiclass(list(zip(X, y)), classes=[2, 1, 0], max_epochs=5).model.classes == [2, 1, 0]


@pytest.mark.parametrize("call, message", [
    (lambda run: run.predict(Shaped([[1, 2, 3]] * 4, (4, 3))),
     "x is an array of shape (4, 3), not one vector: predictions(X) predicts each row"),
    (lambda run: run.predict(Shaped([], ())), "x is an array of shape (), not one vector"),
    (lambda run: run.predict([[1, 2, 3]] * 4), "x has length 4, expected 3: rows? predictions(X) predicts each row"),
    (lambda run: run.predictions(Shaped([1, 2, 3], (3,))), "X is an array of shape (3,), not rows: Reshape your data"),
    (lambda run: run.predictions(type("csr_matrix", (), {"tocsr": None})()),
     "csr_matrix is a sparse matrix: pass its dense rows (.toarray())"),
    (lambda run: run.errors([[1, 2, 3]] * 2, Shaped([[1], [-1]], (2, 1))),
     "y is an array of shape (2, 1): give one label per row (y.ravel())"),
    (lambda run: run.errors([[1, 2, 3]] * 2, [[1], [-1, 1]]), "y holds [1], not one label per row of X"),
    (lambda run: run.errors([[1, 2, 3]] * 2, Shaped([], ())), "y is <test_perceptron.Shaped"),
    (lambda run: run.errors([[1, 2, 3]] * 2, Shaped([[1, -1]], (1, 2))), "y is an array of shape (1, 2)"),
    (lambda run: run.errors([[1, 2, 3]] * 2, [1, -1, 1]), "X has 2 rows and y 3 labels"),
    (lambda run: run.errors([[1, 2, 3]] * 2, type("Arrayish", (), {"__array__": lambda self: [1, -1, 1]})()),
     "X has 2 rows and y 3 labels"),
    (lambda run: P.train_multiclass([[1, 2, 3]] * 2, [type("NAType", (), {})(), "a"]),
     "example 0: label <test_perceptron.NAType object at"),
    (lambda run: train([[1, 2, 3]] * 3, ["a", "b", type("NAType", (), {"__repr__": lambda self: "<NA>"})()]),
     "example 2: label <NA> is a missing value: drop the examples without one, or fill them"),
])
def test_arrays_of_the_wrong_shape_and_missing_labels_are_refused_saying_what_to_pass(call, message):
    run = train([([1, 2, 3], 1), ([-1, 0, 2], -1)])
    with pytest.raises(PerceptronError) as err:
        call(run)
    assert str(err.value).startswith(message) and type(err.value) is PerceptronError


def test_numpy_and_pandas_as_users_pass_them():
    np, pd = pytest.importorskip("numpy"), pytest.importorskip("pandas")
    examples = three_classes(85, n=30)
    X, y = np.array([x for x, _ in examples], dtype=np.int64), np.array(["abc".index(c) for _, c in examples])
    frame, series = pd.DataFrame(X, columns=["a", "b", "c"]), pd.Series(y)
    plain = P.train_multiclass([(list(map(int, x)), int(label)) for x, label in zip(X, y)], max_epochs=5)
    run = P.train_multiclass(frame, series, max_epochs=5)
    assert (run.w, run.model.classes) == (plain.w, plain.model.classes) and type(run.w[0][0]) is int
    assert run.errors(X, y) == run.errors(frame, series) == run.errors(X, y=y) == plain.errors(examples_of(X, y)) > 0
    binary = train(frame, series > 0, max_epochs=5)
    assert binary.labels == (False, True) and binary.errors(X, y > 0) == binary.errors(frame, series > 0)
    with pytest.raises(PerceptronError, match=r"^x is an array of shape \(30, 3\), not one vector: predictions\(X\)"):
        run.predict(X)
    with pytest.raises(PerceptronError, match=r"^x is an array of shape \(\), not one vector$"):
        run.predict(np.array(3.0))
    with pytest.raises(PerceptronError, match=r"^y is an array of shape \(30, 1\)"):
        train(X, y[:, None])
    with pytest.raises(PerceptronError, match="^example 1: label <NA> is a missing value"):
        train(X[:3], pd.array([0, pd.NA, 1], dtype="Int64"))
    with pytest.raises(PerceptronError, match="^example 1: label <NA> is a missing value"):
        P.train_multiclass(X[:3], pd.Series(["a", pd.NA, "b"], dtype="string"))


def examples_of(X, y):
    return [(list(map(int, x)), int(label)) for x, label in zip(X, y)]


@pytest.mark.parametrize("options", [{}, {"multiclass": "joint"}, {"predictor": "pocket", "rule": "margin"},
                                     {"predictor": "average", "bias": False}])
def test_the_classifier_is_the_run_of_train_or_train_multiclass(options):
    examples = three_classes(86, n=30)
    X, y = [x for x, _ in examples], [c for _, c in examples]
    model = P.Classifier(max_epochs=6, **options)
    assert model.fit(X, y) is model and model.get_params() == {**P.Classifier().get_params(), "max_epochs": 6,
                                                                **options}
    params = model.get_params()
    run = P.train_multiclass(examples, classes=["a", "b", "c"], update=params["multiclass"], max_epochs=6,
                             rule=None if params["multiclass"] == "joint" else params["rule"], bias=params["bias"],
                             pocket=params["predictor"] == "pocket",
                             average="after" if params["predictor"] == "average" else None)
    vectors = run.pocket if params["predictor"] == "pocket" else run.average or run.w
    vectors = {c: getattr(v, "w", v) for c, v in vectors.items()} if isinstance(vectors, dict) else vectors.w
    assert (model.classes_, model.n_features_in_, model.run_.w) == (["a", "b", "c"], 3, run.w)
    assert model.coef_ == [vectors[c][:3] for c in "abc"]
    assert model.intercept_ == [vectors[c][3] if params["bias"] else 0 for c in "abc"]
    assert model.predict(X) == run.predictions(X, params["predictor"])
    assert model.decision_function(X[:2]) == [[dot(vectors[c], x + [1] * params["bias"]) for c in "abc"] for x in X[:2]]
    assert model.score(X, y) == 1 - run.errors(examples, params["predictor"]) / 30
    binary = [(x, c == "a") for x, c in examples]
    model.fit(Array(Array(x) for x in X), [bool_(label) for _, label in binary])
    run = train(binary, max_epochs=6, rule=params["rule"], bias=params["bias"], pocket=params["predictor"] == "pocket",
                average="after" if params["predictor"] == "average" else None)
    kept = run.pocket.w if params["predictor"] == "pocket" else run.average or run.w
    assert (model.classes_, model.coef_, model.predict(X)) == ([False, True], [kept[:3]],
                                                               run.predictions(X, params["predictor"]))
    assert model.decision_function(X) == [run.score(x, params["predictor"]) for x in X]
    assert type(model.coef_[0][0]) is (Fraction if params["predictor"] == "average" else int)


@pytest.mark.parametrize("conventions", [None, {"bias_first": True}, {"bias_feature": -1}, {"bias_first": True,
                                                                                         "bias_feature": -1}])
def test_the_classifiers_coef_and_intercept_give_its_scores_wherever_the_bias_is_read(conventions):
    X, y = [[1, 2], [2, 0], [-1, -2], [0, -1], [1, -1]], ["yes", "yes", "no", "no", "no"]
    for model in (P.Classifier(conventions=conventions).fit(X, y),
                  P.Classifier(conventions=conventions).fit(X, ["a", "b", "c", "c", "a"])):
        scores = model.decision_function(X)
        rows = [scores] if model.run_.multiclass is None else [list(column) for column in zip(*scores)]
        assert [[dot(w, x) + b for x in X] for w, b in zip(model.coef_, model.intercept_)] == rows
        assert all(type(b) is int for b in model.intercept_) and len(model.coef_[0]) == 2


def test_the_classifier_partial_fit_is_one_online_pass_from_the_weights_so_far():
    examples, _ = noisy(87, n=20, d=3)
    learner = Perceptron(3, bias=True)
    for x, label in examples:
        learner.learn(x, label)
    model = P.Classifier().partial_fit([x for x, _ in examples[:12]], [y for _, y in examples[:12]], classes=[1, -1])
    model.partial_fit(Array(x for x, _ in examples[12:]), [Int64(y) for _, y in examples[12:]])
    assert (model.run_.w, model.run_.mistakes, model.run_.epochs, model.classes_) == (learner.w, learner.mistakes,
                                                                                       2, [-1, 1])
    with pytest.raises(PerceptronError, match="^example 0: label 0 is not -1 or 1$"):
        model.partial_fit([[1, 2, 3]], [0])
    assert model.run_.w == learner.w
    joint = P.Classifier(multiclass="joint", bias=False).partial_fit(*zip(*three_classes(88)))
    reference = MulticlassPerceptron(["a", "b", "c"], 3, update="joint")
    for x, c in three_classes(88):
        reference.learn(x, c)
    assert joint.run_.w == reference.w and joint.predict([[1, 2, 3]]) == [reference.predict([1, 2, 3])]


@pytest.mark.parametrize("conventions", [{"falling": True}, {"batch": "sum"}, {"batch": "mean"}, {"shuffle": 0},
                                         {"order": [[5, 4, 3, 2, 1, 0]]}])
def test_partial_fit_is_fits_next_pass_or_not_offered_for_a_convention_that_knows_its_pass(conventions):
    # a pass with its number (a falling rate, an order, a shuffle) or a batch's end: one pass through learn() is not
    # fit's next pass, so partial_fit is not offered (as fit's two passes it would have to be)
    X, y = [[1, 2], [-1, 1], [1, -2], [2, 1], [3, 1], [3, 1.5]], [1, -1, 1, -1, 1, -1]
    model = P.Classifier(conventions=conventions)
    if hasattr(model, "partial_fit"):
        model.partial_fit(X, y).partial_fit(X, y)
        assert model.run_.w == P.Classifier(conventions=conventions, max_epochs=2).fit(X, y).run_.w
    assert not hasattr(model, "partial_fit")
    assert hasattr(P.Classifier(conventions={"shuffle": None, "falling": False, "rate": 2}), "partial_fit")


def test_a_later_partial_fit_refuses_classes_other_than_the_first_ones():
    # scikit-learn's protocol: the first call fixes the classes; a later one naming others is refused, not ignored
    X, y = [[1, 2], [-1, 1], [1, -2]], ["a", "b", "a"]
    model = P.Classifier().partial_fit(X, y, classes=["a", "b"])
    w = model.run_.w
    said = "classes ['a', 'b', 'c'] are not the first call's, ['a', 'b']"
    with pytest.raises(PerceptronError, match=re.escape(said)):
        model.partial_fit(X, y, classes=["a", "b", "c"])
    assert model.run_.w == w and model.partial_fit(X, y, classes=["b", "a"]).run_.epochs == 2


@pytest.mark.parametrize("multiclass", [None, "one-vs-rest", "joint"])
def test_a_partial_fit_that_fails_part_way_leaves_the_model_as_it_was_and_names_the_example(multiclass):
    # one online pass is learned whole or not at all: an update before the failing example is taken back
    X, y = [[1, 2], [-1, -2], [0, 3]], (["a", "b", "c"] if multiclass else [1, -1, 1])
    model = P.Classifier(multiclass=multiclass or "one-vs-rest").partial_fit(X, y)
    before = (copy.deepcopy(model.run_.model.w), model.run_.w, model.run_.mistakes, model.predict(X))
    for bad, said in (([[-3, -5], [1e308, 1e308], [-1, 4]], "^example [12]: w(\\(l\\))?.x is [+-]?inf"),
                      ([[-3, -5], [1, "x"], [-1, 4]], "^example 1: x\\[1\\] is 'x'")):
        with pytest.raises(PerceptronError, match=said):
            model.partial_fit(bad, [y[1], y[0], y[2]])
        assert (model.run_.model.w, model.run_.w, model.run_.mistakes, model.predict(X)) == before
    with pytest.raises(PerceptronError, match="^example 1: x\\[0\\] is None"):
        model.predict([[1, 2], [None, 2]])


@pytest.mark.parametrize("call, message", [
    (lambda: P.Classifier().predict([[1, 2]]), "this Classifier is not fitted yet: call fit(X, y) first"),
    (lambda: P.Classifier().fit([[1, 2], [3, 4]], [1, 1]), "y has 1 class [1]: a classifier needs two"),
    (lambda: P.Classifier().fit([[1, 2], [3, 4]], [0.5, 1]), "Unknown label type: y holds 0.5"),
    (lambda: P.Classifier().fit([[1, 2], [3, 4]], None), "Classifier requires y to be passed"),
    (lambda: P.Classifier().fit([[], []], [0, 1]), "X has 0 feature(s) (shape=(2, 0)) while a minimum of 1"),
    (lambda: P.Classifier().fit([[1, 2], [3, 4]], [0, 1]).predict([[1, 2, 3]]),
     "X has 3 features, but Classifier is expecting 2 features as input"),
    (lambda: P.Classifier().fit([[1, 2], [3, 4]], [0, 1]).score([[1, 2]], [0], sample_weight=[2]), "sample_weight"),
    (lambda: P.Classifier(kernel=lambda a, b: dot(a, b)).fit(*zip(*three_classes(89))),
     "Only binary classification is supported with a kernel: y has 3 classes (kernel = <function"),
    (lambda: P.Classifier(kernel=dot).partial_fit(*zip(*three_classes(89))),
     "Only binary classification is supported with a kernel: y has 3 classes (kernel = <function dot"),
    (lambda: P.Classifier(predictor="best").fit([[1, 2], [3, 4]], [0, 1]), "weights = 'best': use 'w', 'pocket'"),
    (lambda: P.Classifier().set_params(bais=True), "Classifier has no parameter 'bais': rule, bias,"),
    (lambda: P.Classifier(predictor="voted").fit([[1, 2], [3, 4]], [0, 1]).coef_, "the vote has no weights"),
])
def test_the_classifier_refuses_with_the_modules_error(call, message):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value).startswith(message)


def test_the_classifier_with_a_kernel_is_the_kernel_run_and_its_parameters_are_its_own():
    examples = [(x, 1 if x[0] * x[1] > 0 else -1) for x in ([1, 1], [-1, -1], [1, -1], [-1, 1], [2, 3], [-2, 1])]
    X, y = [x for x, _ in examples], [label for _, label in examples]
    model = P.Classifier(kernel="polynomial:2", bias=False).fit(X, y)
    run = train(examples, kernel=kernels.polynomial(2))
    assert model.predict(X) == y == run.predictions(X) and model.decision_function(X) == [run.score(x) for x in X]
    assert model.set_params(bias=True, max_epochs=3) is model and repr(model) == (
        "Classifier(rule='sign', bias=True, max_epochs=3, predictor='w', multiclass='one-vs-rest', "
        "kernel='polynomial:2', conventions=None)")
    assert P.Classifier(**model.get_params()).get_params() == model.get_params()


@pytest.mark.parametrize("kernel", ["polynomial:2", "gaussian:1", "all-conjunction", "linear", None])
def test_a_fitted_classifier_pickles_with_any_kernel_spec_and_predicts_as_before(kernel):
    X = [[1, 1], [-1, -1], [1, -1], [-1, 1], [2, 3], [-2, 1]]
    X, y = ([[int(v > 0) for v in x] for x in X] if kernel == "all-conjunction" else X), [1, 1, -1, -1, 1, -1]
    model = P.Classifier(kernel=kernel, bias=False, predictor="voted" if kernel else "pocket").fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    assert again.get_params() == model.get_params() and again.run_.w == model.run_.w
    assert again.predict(X) == model.predict(X) and again.decision_function(X) == model.decision_function(X)
    assert model.run_.model.__class__ is again.run_.model.__class__ and (kernel is None) == (model.run_.kernel is None)
    assert not hasattr(again, "partial_fit")  # pocket or voted: the final weights only have it


@pytest.mark.parametrize("kernel", [None, "polynomial:2", dot])
def test_a_run_and_a_classifier_at_a_point_of_the_family_pickle_and_predict_as_before(kernel):
    X, y = [[1, 1], [-1, -1], [1, -1], [-1, 1], [2, 3], [-2, 1]], [1, 1, -1, -1, 1, -1]
    model = P.Classifier(kernel=kernel, predictor="pocket", conventions={"zero": -1, "rate": 2}).fit(X, y)
    again = pickle.loads(pickle.dumps(model))
    assert again.predict(X) == model.predict(X) and again.decision_function(X) == model.decision_function(X)
    assert type(again.run_.model) is (P._FamilyPerceptron if kernel is None else P._FamilyDual)
    run = train(list(zip(X, y)), kernel=kernel and dot, zero=-1, rate=2)  # (kernels.py's are closures)
    assert pickle.loads(pickle.dumps(run)).predictions(X) == run.predictions(X)
    joint = P.train_multiclass(list(zip(X, "abcabc")), update="joint", ties="last")
    assert pickle.loads(pickle.dumps(joint)).w == joint.w


@pytest.mark.parametrize("predictor", ["pocket", "average", "voted"])
def test_partial_fit_is_offered_only_where_it_works_the_final_weights(predictor):
    X, y = [[1, 2], [-1, -2], [2, 1]], [1, -1, 1]
    assert hasattr(P.Classifier(), "partial_fit") and not hasattr(P.Classifier(predictor=predictor), "partial_fit")
    with pytest.raises(AttributeError, match=f"^partial_fit keeps the final weights only: predictor='w', not "
                                             f"'{predictor}'$"):
        P.Classifier(predictor=predictor).partial_fit(X, y)
    assert P.Classifier().partial_fit(X, y).run_.w == train(list(zip(X, y)), bias=True, epochs=1).w


@pytest.mark.parametrize("options", [{}, {"kernel": "polynomial:2"}, {"multiclass": "one-vs-rest"},
                                     {"multiclass": "joint"}])
def test_the_votes_decision_function_is_its_sum_and_predict_is_its_sign_or_argmax(options):
    examples = three_classes(93, n=24) if "multiclass" in options else noisy(93, n=24, d=3, flip=0.2)[0]
    X, y = [x for x, _ in examples], [label for _, label in examples]
    model = P.Classifier(predictor="voted", max_epochs=4, **options).fit(X, y)
    run, scores = model.run_, model.decision_function(X)
    if "multiclass" in options:
        argmax = [model.classes_[row.index(max(row))] for row in scores]
        assert argmax == model.predict(X) == run.predictions(X, "voted")
    else:  # sum_k c_k sign(v_k.x), which predict signs: sign(0) = +1
        assert [model.classes_[s >= 0] for s in scores] == model.predict(X) and all(type(s) is int for s in scores)
        if not options:
            assert scores == [sum(c * sign(dot(v, [*x, 1])) for v, c in run.voted) for x in X]


def test_fit_refuses_sample_weight_as_score_does_with_the_modules_error():
    X, y = [[1, 2], [-1, -2]], [1, -1]
    with pytest.raises(PerceptronError, match="^sample_weight: every example counts once here$"):
        P.Classifier().fit(X, y, sample_weight=[1, 2])
    with pytest.raises(PerceptronError, match="^sample_weight: every example counts once here$"):
        P.Classifier().fit(X, y).score(X, y, sample_weight=[1, 2])
    assert P.Classifier().fit(X, y, sample_weight=None).predict(X) == y


@pytest.mark.slow
def test_the_classifier_passes_scikit_learns_check_estimator_and_fits_in_a_pipeline():
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_iris
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.utils.estimator_checks import check_estimator
    for options in ({}, {"predictor": "pocket", "max_epochs": 20}, {"predictor": "average", "max_epochs": 20},
                    {"predictor": "voted", "max_epochs": 20}, {"predictor": "voted", "kernel": "polynomial:2"},
                    {"kernel": "gaussian:1"}):  # (20 passes: the vote of 1,000 passes on noisy data is slow to count)
        check_estimator(P.Classifier(**options), expected_failed_checks={  # refused all the same, in its words
            "check_dtype_object": "a PerceptronError (a ValueError) where the check asks for NumPy's TypeError"})
    X, y = load_iris(return_X_y=True)
    scores = cross_val_score(make_pipeline(StandardScaler(), P.Classifier(predictor="average")), X, y)
    assert list(scores) == list(cross_val_score(make_pipeline(StandardScaler(), P.Classifier(predictor="average")),
                                                X, y)) and min(scores) >= 0.8



def test_the_classifier_reads_a_column_y_with_a_warning_and_names_complex_nan_and_inf_as_scikit_learn_does():
    X, y = [[1, 2], [2, 0], [-1, -2], [0, -1]], ["yes", "yes", "no", "no"]
    with pytest.warns(UserWarning, match="^A column-vector y was passed when a 1d array was expected"):
        column = P.Classifier().fit(X, Shaped([[label] for label in y], (4, 1)))
    assert column.run_.w == P.Classifier().fit(X, y).run_.w and column.score(X, y) == 1.0
    with pytest.raises(PerceptronError, match=r"^example 1: x\[0\] is 2j \(complex\), not a real number: Complex data "
                                              "not supported$"):
        P.Classifier().fit([[1], [2j]], [0, 1])
    for bad in (float("nan"), float("inf")):
        with pytest.raises(PerceptronError, match=f"^example 0: x\\[1\\] is {bad}; features must be finite, not NaN "
                                                  "or inf$"):
            column.predict([[1, bad]])

# ===========================================================================
# 2. The accelerators against Part I: one implementation of each rule, the fast
# paths giving the literal ones' results, numbers taken by value at the boundary
# ===========================================================================

def test_rules_are_read_only_so_every_form_runs_the_same_rules():
    with pytest.raises(TypeError):
        P.RULES["never"] = lambda y, s: False
    with pytest.raises(TypeError):
        del P.RULES["sign"]
    assert sorted(P.RULES) == ["margin", "sign"]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("pocket", [False, True])
def test_train_is_the_learn_loop_with_pocket_and_bias(rule, bias, pocket):
    examples, _ = noisy(31, n=25, d=3)
    run = train(examples, rule=rule, bias=bias, pocket=pocket, max_epochs=7)
    learner = Perceptron(3, rule=rule, bias=bias)
    assert (run.trace, run.epochs, run.converged) == reference_run(learner, examples, 7)
    assert run.w == learner.w and len(run.w) == 3 + bias


@pytest.mark.slow
def test_train_on_floats_matches_learn_bit_for_bit():
    rng = random.Random(3)
    examples = [([rng.gauss(0, 10 ** rng.randint(-3, 3)) for _ in range(6)], rng.choice([-1, 1]))
                for _ in range(60)]
    for rule in RULES:
        ref = Perceptron(6, rule=rule)
        trace, _, _ = reference_run(ref, examples, 20)
        run = train(examples, rule=rule, max_epochs=20)
        assert run.trace == trace and run.w == ref.w
        # The dual sums sum_j y_j (x_j . x), another order than w.x: with floats it is
        # its own computation, which the fast kernel run must reproduce bit for bit.
        dual_trace, _, _ = reference_run(DualPerceptron(rule=rule), examples, 20)
        assert train(examples, rule=rule, max_epochs=20, kernel=dot).trace == dual_trace
        assert dual_trace != trace  # the two orders really differ on this data


def bits(w):
    """w with each float's sign shown, so that 0.0 and -0.0 differ."""
    return [(v, math.copysign(1, v)) if isinstance(v, float) else (v, type(v)) for v in w]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("kind", ["signed zeros and subnormals", "ints and floats mixed", "long Decimals"])
def test_the_fast_update_is_w_plus_y_x_bit_for_bit(rule, kind):
    rng = random.Random(41)
    cell = {"signed zeros and subnormals": lambda: rng.choice([0.0, -0.0, 5e-324, -5e-324, rng.uniform(-1, 1)]),
            "ints and floats mixed": lambda: rng.choice([rng.randint(-3, 3), rng.uniform(-3, 3), 2 ** 60 + 1]),
            "long Decimals": lambda: Decimal(f"{rng.randint(-10 ** 40, 10 ** 40)}e-38")}[kind]
    examples = [([cell() for _ in range(4)], rng.choice([-1, 1])) for _ in range(40)]
    for passes, options in ((1, {"epochs": 1}), (6, {"max_epochs": 6})):  # streamed, and kept
        w, trace = [0] * 4, []  # Columbia §1.1, written out here: learn() itself runs the accelerator
        for epoch in range(1, passes + 1):
            made = len(trace)
            for i, (x, y) in enumerate(examples):
                s = left_to_right(w, x)
                if is_mistake(y, s, rule):
                    w = [w_i + y * x_i for w_i, x_i in zip(w, x)]
                    trace.append(Mistake(epoch, i, y, s))
            if len(trace) == made:
                break
        run = train(examples, rule=rule, **options)
        assert run.trace == trace and bits(run.w) == bits(w)


def literal_pocket(examples, trace, rule, bias):
    """Gallant's ratchet, literally: every w of the trace recounted in full."""
    xs = [with_bias(x) if bias else x for x, _ in examples]

    def errors(w):
        return sum(1 for x, (_, y) in zip(xs, examples) if is_mistake(y, dot(w, x), rule))
    w = [0] * len(xs[0])
    best = (errors(w), list(w), 0)
    for k, m in enumerate(trace, 1):
        w = [a + m.y * b for a, b in zip(w, xs[m.index])]
        if errors(w) < best[0]:
            best = (errors(w), w, k)
    return best


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("number", [int, Fraction])
def test_the_pocket_is_the_literal_recount_and_its_errors_are_recounted(rule, bias, number):
    examples, _ = noisy(49, n=30, d=3, flip=0.3)
    examples = examples if number is int else as_fractions(examples, 49)
    run = train(examples, rule=rule, bias=bias, max_epochs=8, pocket=True)
    assert (run.pocket.errors, run.pocket.w, run.pocket.mistakes) == literal_pocket(examples, run.trace, rule, bias)
    xs = [with_bias(x) if bias else x for x, _ in examples]
    assert run.pocket.errors == sum(1 for x, (_, y) in zip(xs, examples) if is_mistake(y, dot(run.pocket.w, x), rule))


def test_a_linear_kernel_run_keeps_its_pocket_weights(capsys, tmp_path):
    examples = noisy(72, n=20, d=2, flip=0.3)[0]
    kernel, primal = train(examples, kernel=dot, pocket=True, max_epochs=5), train(examples, pocket=True, max_epochs=5)
    assert kernel.pocket == primal.pocket and kernel.pocket.w is not None
    status, out, err = cli(capsys, write(tmp_path, csv_of(examples)), "--kernel", "linear", "--pocket",
                           "--max-epochs", "5")
    assert status == 1 and err == "" and f"pocket: w = {P._num(primal.pocket.w)}" in out


def test_a_run_that_keeps_its_examples_copies_them_as_it_reads_them():
    buffer = [0, 0]

    def refilled():  # a reader that refills one list for every example, as buffered readers do
        for x, y in [([1, 2], 1), ([-2, 1], -1), ([2, -3], 1), ([-1, -1], -1)]:
            buffer[:] = x
            yield buffer, y
    copies = [([1, 2], 1), ([-2, 1], -1), ([2, -3], 1), ([-1, -1], -1)]
    for options in ({"epochs": 3}, {"pocket": True}, {"kernel": dot}, {"average": "after", "epochs": 2}):
        run, expected = train(refilled(), **options), train(copies, **options)
        assert (run.w, run.trace, run.pocket) == (expected.w, expected.trace, expected.pocket), options
    dual = DualPerceptron()
    dual.learn(buffer, -1)
    buffer[:] = [5, 5]
    assert dual.stored[0][0] == [-1, -1]  # a copy of what x was when it was stored


def big_integers(seed, n=40, d=4):
    """Integer data whose scores leave int64's range after a few updates."""
    examples, _ = separable(seed, n=n, d=d)
    return [([v * 3**37 for v in x], y) for x, y in examples]


def test_int64_features_are_used_as_python_ints_and_never_wrap():
    examples = big_integers(5)
    wrapped = [([Int64(v) for v in x], y) for x, y in examples]
    # What NumPy's own arithmetic would do: the first score out of range wraps silently.
    assert any(int(sum((Int64(w_i) * x_i for w_i, x_i in zip(w, x)), Int64(0))) != sum(map(mul, w, x))
               for w in [train(examples).w] for x, _ in wrapped)
    for bias in (False, True):
        run, plain = train(wrapped, bias=bias), train(examples, bias=bias)
        assert (run.w, run.trace, run.epochs) == (plain.w, plain.trace, plain.epochs)
        assert all(type(v) is int for v in run.w)
        learner = Perceptron(4, bias=bias)
        for x, y in wrapped:
            learner.learn(x, y)
        assert learner.w == train(examples, bias=bias, epochs=1).w


def test_int64_features_in_a_fraction_run_are_taken_by_value_too():
    """Fraction times an int64 is a Fraction, so the score's type cannot tell: the elements are checked.

    The first feature is a Fraction, so the run is a Fraction run; the second is a large
    integer, so its weight is a large int, whose product with an int64 would wrap."""
    rng = random.Random(9)
    plain = []
    while len(plain) < 40:
        a, b = rng.randint(-9, 9), rng.randint(-9, 9)
        if 2 * a != b:  # labelled by sign(2a - b): hard enough for many mistakes in 5 passes
            plain.append(([Fraction(a, 3), b * 3**37], 1 if 2 * a > b else -1))
    mixed = [([x[0], Int64(x[1]) if i % 2 else x[1]], y) for i, (x, y) in enumerate(plain)]
    run, expected = train(mixed, epochs=5), train(plain, epochs=5)
    assert (run.w, run.trace) == (expected.w, expected.trace) and run.mistakes > 3
    learner = Perceptron(2)
    for x, y in mixed:
        learner.learn(x, y)
    assert learner.w == train(plain, epochs=1).w and all(type(v) in (int, Fraction) for v in learner.w)


def test_float32_features_are_used_as_python_floats_of_their_value():
    examples, _ = separable(6, n=30, d=3)
    thirds = [([Float32(v / 3) for v in x], y) for x, y in examples]
    their_values = [([float(v) for v in x], y) for x, y in thirds]
    run, plain = train(thirds, rule="margin"), train(their_values, rule="margin")
    assert (run.w, run.trace) == (plain.w, plain.trace)
    assert all(type(v) is float for v in run.w) and all(type(m.score) is float for m in run.trace)
    as_arrays = [(tuple(x), y) for x, y in thirds]  # a NumPy row is a sequence of such scalars
    assert train(as_arrays, rule="margin", kernel=dot).trace == train(their_values, rule="margin", kernel=dot).trace


def int64_examples():
    big = 2 ** 62
    return [([Int64(big), Int64(3)], 1), ([Int64(-big), Int64(2)], -1), ([Int64(5), Int64(-big)], -1)]


def as_ints(examples):
    return [([int(v) for v in x], y) for x, y in examples]


def test_a_run_on_the_labels_true_and_1_counts_its_own_errors():
    examples = [([1, 2], True), ([-1, -2], 1), ([2, 1], True)]  # two labels, as the data's are read: True is not 1
    run = train(examples)
    assert run.labels == (True, 1) and type(run.labels[0]) is bool and run.w == [-1, -2]
    assert run.errors(examples) == 0 and run.predictions([[1, 1], [-1, -1]]) == [True, 1]
    assert train(examples, labels=(1, True)).w == [1, 2] and train(examples, labels=[True, 1]).w == run.w
    with pytest.raises(PerceptronError, match=r"^labels = \(1, 1\) is not two distinct labels"):
        train(examples, labels=(1, 1))


def test_numpy_s_ints_are_passes_as_a_grid_search_gives_them():
    np = pytest.importorskip("numpy")
    examples = [([1, 2], 1), ([-1, 0], -1), ([0, -1], -1), ([-1, 1], 1)]
    for given in ({"max_epochs": np.int64(1)}, {"epochs": np.int64(1)}, {"epochs": np.uint8(3), "average": "after"}):
        run = train(examples, **given)
        plain = train(examples, **{k: v if isinstance(v, str) else int(v) for k, v in given.items()})
        assert (run.w, run.epochs, run.converged, run.average) == (plain.w, plain.epochs, plain.converged, plain.average)
        assert type(run.epochs) is int
    model = P.Classifier(max_epochs=np.int64(1)).fit([x for x, _ in examples], [y for _, y in examples])
    assert model.run_.epochs == 1 and not model.run_.converged
    assert P.train_multiclass(examples, update="joint", max_epochs=np.int64(1)).epochs == 1
    with pytest.raises(PerceptronError, match=r"^epochs = np.float64\(2.0\) is not a whole number >= 1$"):
        train(examples, epochs=np.float64(2))


def test_labels_may_be_numpy_s_unique_labels():
    np = pytest.importorskip("numpy")
    X, y = np.array([[1, 2], [-1, -2], [2, 1]]), np.array(["no", "yes", "no"])
    run = train(X, y, labels=np.unique(y)[::-1])
    assert run.labels == ("yes", "no") and type(run.labels[0]) is str and run.w == [1, 2]
    assert train(X, y == "yes", labels=np.array([False, True])).labels == (False, True)
    with pytest.raises(PerceptronError, match=r"^labels = array\(\[\[0, 1\]\]\) is not two distinct labels"):
        train(X, y, labels=np.array([[0, 1]]))


def test_numpy_int64_is_taken_by_value_on_every_public_entry_point():
    data, plain = int64_examples(), as_ints(int64_examples())
    x, plain_x = data[0][0], plain[0][0]
    p, q = Perceptron(2), Perceptron(2)
    for (a, y), (b, _) in zip(data, plain):
        assert p.learn(a, y) == q.learn(b, y)
    assert p.w == q.w and all(type(v) is int for v in p.w)
    assert (p.score(x), p.predict(x)) == (q.score(plain_x), q.predict(plain_x)) and type(p.score(x)) is int
    d, e = DualPerceptron(), DualPerceptron()
    for (a, y), (b, _) in zip(data, plain):
        assert d.learn(a, y) == e.learn(b, y)
    assert d.score(x) == e.score(plain_x) and d.weights() == e.weights()
    m, n = MulticlassPerceptron(["a", "b"], 2), MulticlassPerceptron(["a", "b"], 2)
    for (a, y), (b, _) in zip(data, plain):
        assert m.learn(a, "a" if y > 0 else "b") == n.learn(b, "a" if y > 0 else "b")
    assert m.w == n.w and m.scores(x) == n.scores(plain_x)
    assert dot(x, x) == dot(plain_x, plain_x) and type(dot(x, x)) is int
    assert with_bias(x) == with_bias(plain_x) and is_mistake(1, Int64(-3)) is True and sign(Int64(-2)) == -1
    assert radius_squared([a for a, _ in data]) == radius_squared([b for b, _ in plain])
    w_star = [Int64(1), Int64(0)]
    sep = [([Int64(2), Int64(1)], 1), ([Int64(-3), Int64(1)], -1)]
    assert margin_squared(sep, w_star) == margin_squared(as_ints(sep), [1, 0])
    assert mistake_bound(sep, w_star) == mistake_bound(as_ints(sep), [1, 0])
    for options in ({}, {"pocket": True}, {"average": "after", "epochs": 2}, {"voted": True, "epochs": 2}):
        run, expected = train(data, max_epochs=20, **options), train(plain, max_epochs=20, **options)
        assert (run.w, run.trace) == (expected.w, expected.trace)
        assert run.predict(x) == expected.predict(plain_x) and run.score(x) == expected.score(plain_x)
        assert run.errors(data) == expected.errors(plain)


def test_a_float_subclass_is_taken_by_value_and_its_own_products_never_used():
    class Liar(float):
        def __init__(self, v):
            self.returns = None

        def __mul__(self, other):
            return self.returns

        __rmul__ = __add__ = __radd__ = __mul__
    made = []
    for returns in ("abc", None, 2j, float("nan")):
        v = Liar(3.0)
        v.returns = returns
        made.append(v)
    plain = [([1.0, 2.0], 1), ([3.0, 1.0], -1), ([-1.0, 1.0], 1), ([1.0, 3.0], -1)]
    for v in made:
        liars = [([1.0, 2.0], 1), ([v, 1.0], -1), ([-1.0, 1.0], 1), ([1.0, v], -1)]
        p, q = Perceptron(2), Perceptron(2)
        assert [p.learn(x, y) for x, y in liars] == [q.learn(x, y) for x, y in plain] and p.w == q.w
        assert all(type(w) is float for w in p.w) and p.score([v, v]) == q.score([3.0, 3.0])
        assert dot([v], [2.0]) == 6.0 and radius_squared([[v]]) == 9.0
        for options in ({"epochs": 1}, {"epochs": 1, "bias": True}, {"max_epochs": 5, "pocket": True}):
            run, expected = train(liars, **options), train(plain, **options)
            assert (run.w, run.trace, run.pocket) == (expected.w, expected.trace, expected.pocket)


@pytest.mark.parametrize("x, message", [
    ({0: 1, 1: 2}, "x is a dict, not a sequence of numbers in order"),
    ({1, 2}, "x is a set, not a sequence of numbers in order"),
    (frozenset((1, 2)), "x is a frozenset, not a sequence of numbers in order"),
    (Liar(), "x has length 2, expected 3"),
    ("ab", "x is str, not a sequence of numbers"),
    ((v for v in [1, 2]), "x is generator, not a sequence of numbers"),
])
@pytest.mark.parametrize("make", [lambda: Perceptron(3), lambda: DualPerceptron(), lambda: MulticlassPerceptron(["a", "b"], 3)])
def test_dicts_sets_and_lying_lengths_are_refused_and_leave_the_learner_unchanged(make, x, message):
    model = make()
    first = "a" if isinstance(model, MulticlassPerceptron) else -1
    model.learn([1, 2, 3], first)
    before = state(model)
    with pytest.raises(PerceptronError) as err:
        model.learn(x, "b" if first == "a" else 1)
    assert str(err.value) == message and state(model) == before
    with pytest.raises(PerceptronError, match="^example 1: " + re.escape(message)):
        train([([1, 2, 3], -1), (x, 1)])


def exactly(v):
    """v as a value to compare bit for bit: every number with its type (a float by repr, so that -0.0 is not 0.0;
    a Decimal by its text, so that 0E+1 is not 0), containers and objects field by field, functions by name."""
    if type(v) in (int, bool, str, type(None)):
        return type(v).__name__, v
    if type(v) is float:
        return "float", repr(v)
    if type(v) is Fraction:
        return "Fraction", v.numerator, v.denominator
    if type(v) is Decimal:
        return "Decimal", str(v)
    if isinstance(v, (tuple, list)):  # a namedtuple (Run, Mistake, Pocket) by its type and every field
        return type(v).__name__, [exactly(e) for e in v]
    if isinstance(v, dict):
        return "dict", [(exactly(k), exactly(e)) for k, e in v.items()]
    if callable(v):  # a rule, a kernel
        return "function", getattr(v, "__qualname__", repr(v))
    return type(v).__name__, exactly(vars(v))  # a learner, its whole state


def literal_and_fast(call):
    """exactly(call()) with Part I alone, then with the accelerators, in this process (the error, if it raised)."""
    results = []
    for literal in (True, False):
        token = P._LITERAL.set(literal)
        try:
            results.append(exactly(call()))
        except PerceptronError as err:
            results.append(("PerceptronError", str(err)))
        finally:
            P._LITERAL.reset(token)
    return results


ADVERSARIAL = {  # cells of every number type, as a hostile data set has them
    "int": lambda rng: rng.choice([0, 1, -1, rng.randint(-9, 9), rng.randint(-2 ** 70, 2 ** 70)]),
    "float": lambda rng: rng.choice([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e16, -1e16, 1.0, -1.0,
                                     0.1, 1e-300, rng.uniform(-3, 3), float(rng.randint(-9, 9))]),
    "overflow-sized": lambda rng: rng.choice([1.7e308, -1.7e308, 1e308, 8.9e307, 0.0, -0.0, 1.0, -1.0, 5e-324]),
    "int and float": lambda rng: rng.choice([rng.randint(-3, 3), rng.uniform(-3, 3), 2 ** 60 + 1, -0.0]),
    "Fraction": lambda rng: Fraction(rng.randint(-9, 9), rng.randint(1, 9)),
    "Decimal": lambda rng: rng.choice([Decimal(rng.randint(-10 ** 30, 10 ** 30)).scaleb(-28), Decimal("-0"),
                                       Decimal("0E+3"), Decimal("1E+30"), Decimal("0.1"), Decimal(rng.randint(-9, 9))]),
    "bits": lambda rng: rng.randint(0, 1),
}


def test_part_one_and_the_accelerators_give_the_same_runs_bit_for_bit():
    """Seeded, in this process: every number type, both rules, the bias, the pocket, the averages, the votes, the
    kernels of kernels.py, multiclass; every field of the run, and its errors under every predictor it kept."""
    rng = random.Random(81)
    kernel_choices = [None, None, dot, kernels.linear, kernels.polynomial(2), kernels.polynomial(3, c=0),
                      kernels.gaussian(1.5)]
    compared = 0
    for case in range(1500):
        kind = rng.choice(sorted(ADVERSARIAL))
        d, n = rng.randint(1, 4), rng.randint(1, 9)
        examples = [([ADVERSARIAL[kind](rng) for _ in range(d)], rng.choice([-1, 1])) for _ in range(n)]
        options = {"rule": rng.choice(RULES), "bias": rng.random() < 0.5, "pocket": rng.random() < 0.5,
                   "voted": rng.random() < 0.3, ("epochs" if rng.random() < 0.4 else "max_epochs"): rng.randint(1, 6)}
        if kind == "overflow-sized" and options["pocket"]:
            options["pocket"] = False  # the float pocket's fsum overflow: another helper's item of issue 28
        kernel = (rng.choice([kernels.monotone_conjunction, kernels.all_conjunction, kernels.monotone_conjunction_upto(2)])
                  if kind == "bits" and rng.random() < 0.5 else rng.choice(kernel_choices))
        if kernel is None:
            options["average"] = rng.choice([None, "after", "before"])
        else:
            options["kernel"] = kernel
        multiclass = kernel is None and rng.random() < 0.25
        if multiclass:
            options.pop("rule")
            options["update"] = rng.choice(["one-vs-rest", "joint"])
            examples = [(x, rng.choice("abc")) for x, _ in examples]

        def run_and_errors():
            run = P.train_multiclass(examples, **options) if multiclass else train(examples, **options)
            return run, {name: run.errors(examples, name) for name in P._kept_predictors(run)}
        literal, fast = literal_and_fast(run_and_errors)
        assert literal == fast, (case, kind, options, examples)
        compared += literal[0] != "PerceptronError"
    assert compared > 1250  # runs, not only refusals


FAMILY_EXAMPLES = [([1, 2], 1), ([-1, 1], -1), ([1, -2], 1), ([2, 1], -1), ([3, 1], 1), ([3, 1], -1)]


@pytest.mark.parametrize("number", [int, float])
@pytest.mark.parametrize("conventions", [{"rate": 0.5}, {"rate": 0.5, "falling": True}, {"step": "error"},
                                         {"threshold": 1, "step": "passive-aggressive"}])
def test_a_kernel_run_whose_update_is_not_y_x_keeps_its_literal_scores(number, conventions):
    """eq. (2)'s kept scores add f_j K(x_j, x): f_j the family's factor, not always +1 or -1."""
    examples = [([number(v) for v in x], y) for x, y in FAMILY_EXAMPLES]

    def run():
        run = train(examples, kernel=kernels.linear, epochs=4, pocket=True, **conventions)
        return run.w, [m.score for m in run.trace], run.pocket.errors
    literal, fast = literal_and_fast(run)
    assert literal == fast and literal[0] != "PerceptronError"


@pytest.mark.parametrize("number", [int, float])
@pytest.mark.parametrize("conventions", [{"threshold": 2}, {"threshold": 2, "rule": "margin"}, {"batch": "sum"},
                                         {"rate": 0.5, "falling": True, "update": "one-vs-rest"},
                                         {"abstain": True, "update": "joint"}, {"rate": 2, "update": "joint"},
                                         {"rate": 0.5, "falling": True, "update": "joint"}])
def test_the_pocket_of_a_run_beyond_the_notes_is_its_literal_recount(number, conventions):
    """The kept margins and argmax scores assume Part I's update and rule: another learner's pocket is recounted."""
    examples = [([number(v) for v in x], y) for x, y in FAMILY_EXAMPLES]
    if "update" in conventions:
        examples = [(x, "abc"[i % 3]) for i, (x, _) in enumerate(examples)]
    fit = P.train_multiclass if "update" in conventions else train
    literal, fast = literal_and_fast(lambda: fit(examples, epochs=4, pocket=True, **conventions).pocket)
    assert literal == fast and literal[0] != "PerceptronError"


@pytest.mark.parametrize("number", [int, Fraction, float])
@pytest.mark.parametrize("conventions", [{"rate": 0.5}, {"step": "error"}, {"batch": "sum"}, {"decay": 0.5},
                                         {"bias_first": True, "bias": True}, {"bias_rate": 3, "bias": True},
                                         {"bias_feature": -1, "bias": True}])
def test_the_vote_of_a_run_whose_update_is_not_y_x_is_the_literal_vote(number, conventions):
    """The vote's kept scores move by y x_i only where v_k is v_(k-1) + y x_i: else v_k.x is summed."""
    examples = [([number(v) / 2 for v in x], y) for x, y in FAMILY_EXAMPLES]
    X = [x for x, _ in examples] + [[number(1) / 3, number(-2)], [number(0), number(0)]]

    def vote():
        run = train(examples, epochs=4, voted=True, **conventions)
        return run.predictions(X, "voted"), run.errors(examples, "voted")
    literal, fast = literal_and_fast(vote)
    assert literal == fast and literal[0] != "PerceptronError"


def test_an_edit_to_part_one_runs_in_train_learn_and_the_command_line_and_is_said_once(tmp_path):
    source = open(P.__file__, encoding="utf-8").read()
    step = "self.w = [w_i + y * x_i for w_i, x_i in zip(self.w, x)]  # w <- w + y x"
    assert source.index(step) < source.index("\n# Part II: ")  # Perceptron._step's update, in Part I
    (tmp_path / "perceptron.py").write_text(source.replace(step, step.replace("y * x_i", "2 * y * x_i"), 1),
                                            encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PERCEPTRON_LITERAL"}
    said = "Part I was edited: running it literally; accelerators off\n"
    code = ("import perceptron as P; p = P.Perceptron(2); p.learn([1, 2], -1); "
            "print(P.train(P.EXAMPLE).w, P.train(P.EXAMPLE, epochs=1).w, p.w)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert (done.stdout, done.stderr) == ("[-12, 6] [-6, 0] [-2, -4]\n", said)  # each update doubled
    done = subprocess.run([sys.executable, str(tmp_path / "perceptron.py"), "--quiet"], env=env,
                          capture_output=True, text=True)
    assert done.stdout.startswith("    x1  x2\nw  -12   6\nmistakes: 5\n") and done.stderr == said
    as_shipped = subprocess.run([sys.executable, "-c", code], cwd=HERE, env=env, capture_output=True, text=True)
    assert (as_shipped.stdout, as_shipped.stderr) == ("[-6, 3] [-3, 0] [-1, -2]\n", "")


def test_part_one_digest_is_renewed_with_part_one():
    assert P._part_one_digest() == P._PART_I_DIGEST, (
        "Part I of perceptron.py changed and its digest did not, so every run now takes Part I alone: if the "
        f'change is meant, renew it in perceptron.py: _PART_I_DIGEST = "{P._part_one_digest()}" (printed by '
        'python3 -c "import perceptron; print(perceptron._part_one_digest())"; bench/README.md, maintainers)')
    assert P._PART_I_EDITED is False
    assert P._part_one_digest(P.__file__ + "c") is None and P._part_one_digest("no/such/file.py") is None


@pytest.mark.parametrize("examples", [
    [([2.0 ** -1070, 1.5], 1), ([1e-300, -2.0], -1), ([0.1, 3.0], 1), ([-5e-324, 0.3], -1)],  # the scale grows
    [([2 ** 60, 0.5], 1), ([-3, -0.25], -1), ([1, 2.0 ** -40], -1)],  # an int weight beyond 2^53 beside floats
    [([1e150, 0.0], -1), ([0.0, 2.0 ** -600], 1), ([1e-150, 1.0], 1)],  # w 2^k past the float range
    [([3, -2], 1), ([-1, 4], -1), ([2, 2], -1)],  # ints
])
def test_averages_kept_as_scaled_ints_are_the_exact_means_of_every_iterate(examples):
    W = literal_history(examples, "sign", True, 5)
    N = len(W) - 1
    kind = float if any(type(v) is float for v in W[-1]) else Fraction
    after = [kind(sum((Fraction(w[j]) for w in W[1:]), Fraction(0)) / N) for j in range(len(W[0]))]
    before = [kind(sum((Fraction(w[j]) for w in W[:-1]), Fraction(0)) / N) for j in range(len(W[0]))]
    runs = [train(examples, bias=True, epochs=5, average=a, voted=True) for a in ("after", "before")]
    assert runs[0].average == after and runs[1].average == before
    assert [type(v) for v in runs[0].average] == [kind] * len(after)
    assert runs[0].voted == runs[1].voted and sum(c for _, c in runs[0].voted) == N


def test_a_pocket_over_rows_whose_magnitudes_add_past_the_float_range_is_the_literal_pocket():
    examples = [([1.7e308, 1.7e308], 1), ([-1.0, 1.0], -1)]  # |x_0| + |x_1| is past the float range
    run = train(examples, pocket=True)
    assert run.converged and (run.pocket.errors, run.pocket.w, run.pocket.mistakes) == \
        literal_pocket(examples, run.trace, "sign", False)
    classes = P.train_multiclass(examples[::-1], pocket=True, rule="margin", epochs=1)  # one-vs-rest
    assert classes.pocket == {-1: P.Pocket([-1.0, 1.0], 1, 1), 1: P.Pocket([1.0, -1.0], 1, 1)}


@pytest.mark.parametrize("number", [int, Fraction, float, Decimal])
@pytest.mark.parametrize("bias", [False, True])
def test_the_votes_kept_scores_give_the_literal_vote_on_every_example(number, bias):
    examples, _ = noisy(76, n=40, d=3, flip=0.3)
    examples = [([number(v) / 3 if number is not int else v for v in x], y) for x, y in examples]
    examples += [([number(0)] * 3, 1), ([number(1) / 3 - number(1) / 3, number(-0.0) if number is float else 0, 0], -1)]
    run = train(examples, bias=bias, epochs=6, voted=True)
    X = [x for x, _ in examples]
    vote = [sign(sum(c * sign(dot(v, with_bias(x) if bias else x)) for v, c in run.voted)) for x in X]
    assert run.predictions(X, "voted") == vote and [run.predict(x, "voted") for x in X] == vote
    assert run.errors(examples, "voted") == sum(v != y for v, (_, y) in zip(vote, examples)) > 0
    with pytest.raises(PerceptronError, match="x has length 2, expected 3"):
        run.errors([(X[0], 1), ([1, 2], 1)], "voted")


@pytest.mark.parametrize("bias", [False, True])
def test_the_float_votes_kept_scores_give_the_literal_vote_where_scores_cancel(bias):
    """Floats whose scores cancel to 0 or near it (1e16 beside 1, subnormals, signed zeros), runs of more hypotheses
    than examples (the scores summed again every n), queries that are not training examples, and a vote loaded
    without its examples: the vote of every hypothesis, as Part I sums it."""
    rng, agreed = random.Random(79), 0
    for _ in range(60):
        n, d = rng.randint(2, 12), rng.randint(1, 4)
        cells = [1e16, -1e16, 1.0, -1.0, 0.5, -0.0, 5e-324, 0.1, 3.0]
        examples = [([rng.choice(cells) for _ in range(d)], rng.choice([-1, 1])) for _ in range(n)]
        run = train(examples, bias=bias, epochs=rng.randint(2, 8), voted=True)
        X = [x for x, _ in examples] + [[rng.choice(cells) for _ in range(d)] for _ in range(5)]
        vote = [sign(sum(c * sign(dot(v, with_bias(x) if bias else x)) for v, c in run.voted)) for x in X]
        assert run.predictions(X, "voted") == vote and len(run.voted.made) == len(run.voted) - 1
        assert list(map(sign, P._voted_signs(list(run.voted), bias, X))) == vote  # without ``made``
        agreed += len(run.voted) > n
    assert agreed > 10


@pytest.mark.parametrize("number", [int, Fraction, float, Decimal])
@pytest.mark.parametrize("bias", [False, True])
def test_the_joint_pockets_kept_scores_give_the_literal_argmax_errors(number, bias):
    rng = random.Random(78)
    centers = {c: [rng.randint(-3, 3) for _ in range(3)] for c in "abcd"}
    examples = [([n if number is int else number(n) / 7 for n in (v + rng.randint(-4, 4) for v in centers[c])],
                 c if rng.random() > 0.2 else rng.choice("abcd")) for c in rng.choices("abcd", k=60)]
    examples += [([number(0)] * 3, "d"), ([number(1), number(1), number(-2)], "c")]  # ties, at w = 0 and after
    run = P.train_multiclass(examples, classes=list("abcd"), update="joint", bias=bias, max_epochs=12, pocket=True)
    xs = [with_bias(x) if bias else x for x, _ in examples]

    def argmax_errors(w):
        return sum(1 for x, (_, y) in zip(xs, examples)
                   if max("abcd", key=lambda c: (dot(w[c], x), -"abcd".index(c))) != y)
    replay = {c: [0] * (3 + bias) for c in "abcd"}
    best = (argmax_errors(replay), dict(replay), 0)
    for k, m in enumerate(run.trace, 1):
        replay[m.y] = [a + b for a, b in zip(replay[m.y], xs[m.index])]
        replay[m.predicted] = [a - b for a, b in zip(replay[m.predicted], xs[m.index])]
        if argmax_errors(replay) < best[0]:
            best = (argmax_errors(replay), dict(replay), k)
    assert (run.pocket.errors, run.pocket.w, run.pocket.mistakes) == best and len(run.trace) > 60


def test_progress_on_a_terminal_counts_the_votes_training_errors_and_the_test(capsys, tmp_path, monkeypatch):
    clock = iter(range(0, 10**6, 7))
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    examples, _ = noisy(79, n=200, d=3, flip=0.3)
    path, held = write(tmp_path, csv_of(examples)), write(tmp_path, csv_of(examples[:130]), "held.csv")
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert P.main([path, "--voted", "--epochs", "3", "--test", held, "--quiet"]) == 0
    said = terminal.getvalue()
    assert "the vote's training errors: 64 of 200 examples" in said and "the vote's training errors: 200 of 200" in said
    assert f"{held}: 64 examples so far" in said and said.endswith("\r" + " " * 60 + "\r")


# ===========================================================================
# 3. Bad input: a clear PerceptronError naming the example, the model unchanged;
# on the command line one "error:" line, exit 2, no traceback, nothing left behind
# ===========================================================================

class Starts(str):
    """In a table of refusals: how the message begins (the rest may change: a list of fields,
    the system's reason, argparse's own words, which differ between Pythons)."""


class Says(str):
    """In a table of refusals: words the message says, anywhere in it."""


# ---------------------------------------------------------------------------
# The API: one table of every refusal
# ---------------------------------------------------------------------------

class Example(collections.namedtuple("Example", "x y")):
    """A row of API_REFUSED that is a bad example (x, y), not a call: learn(x, y) refuses it
    word for word and leaves the learner as it was; a run refuses it naming its index."""


class ReprFails:
    def __repr__(self):
        raise RecursionError("too deep")

    __hash__ = None


def trapping(f):
    with localcontext() as context:
        context.traps[decimal.Inexact] = True
        return f()


API_REFUSED = [  # (what is called, the call or a bad Example, how the message begins -- or Says: words in it)
    # A bad example (x, y).  learn() says the words below, exactly; a run says "example i: " and them.
    ("x = (nan, 1)", Example([float("nan"), 1], 1), "x[0] is nan; features must be finite, not NaN or inf"),
    ("x = (1, inf)", Example([1, float("inf")], 1), "x[1] is inf; features must be finite, not NaN or inf"),
    ("x = (1, Decimal('Infinity'))", Example([1, Decimal("Infinity")], 1),
     "x[1] is Decimal('Infinity'); features must be finite, not NaN or inf"),
    ("x = (1, 'abc')", Example([1, "abc"], 1), "x[1] is 'abc' (str), not a real number"),
    ("x = (None, 1)", Example([None, 1], 1), "x[0] is None (NoneType), not a real number: float() argument must be "
     "a string or a real number"),
    ("x = (1, 2j)", Example([1, 2j], 1), "x[1] is 2j (complex), not a real number: Complex data not supported"),
    ("x of length 3", Example([1, 2, 3], 1), "x has length 3, expected 2"),
    ("x of length 1", Example([1], 1), "x has length 1, expected 2"),
    ("x = 5", Example(5, 1), "x is int, not a sequence of numbers"),
    ("y = 0", Example([1, 2], 0), "label 0 is not -1 or +1"),
    ("y = 2", Example([1, 2], 2), "label 2 is not -1 or +1"),
    ("y = '1'", Example([1, 2], "1"), "label '1' is not -1 or +1"),
    ("y = None", Example([1, 2], None), "label None is not -1 or +1"),
    ("y = True", Example([1, 2], True), "label True is a bool; labels are -1 or +1 (map 0/1 labels first)"),
    ("y = False", Example([1, 2], False), "label False is a bool; labels are -1 or +1 (map 0/1 labels first)"),
    ("y = [1]", Example([1, 2], [1]), "label [1] is not -1 or +1"),
    # The examples of a run, as a whole and one by one.
    ("train(None)", lambda: train(None), "examples is NoneType, not a sequence"),
    ("train(5)", lambda: train(5), "examples is int, not a sequence"),
    ("train('ab')", lambda: train("ab"), "examples is str, not a sequence"),
    ("an item that is not a pair", lambda: train([([1], 1), (1, 2, 3)]), "example 1: (1, 2, 3) is not an (x, y) pair"),
    *[(f"a NumPy bool label {label!r}", lambda label=label: train([([1, 2], label)]),
       f"example 0: label {label!r} is a bool") for label in (bool_(True), bool_(False))],
    ("a huge label", lambda: train([([1], list(range(10**5)))]), "example 0: label [0, 1, 2, 3, 4, 5"),
    ("a label whose repr fails", lambda: train([([1], ReprFails())]), "example 0: label <a ReprFails> is not"),
    ("a 10**5-digit feature's message", lambda: train([([10**100000, "a"], 1)]),
     "example 0: x[1] is 'a' (str), not a real number"),
    ("a Decimal beside a float", lambda: train([([1.5, 2.0], 1), ([Decimal(1), 2.0], -1)], epochs=2),
     Says("example 1: floats and Decimals in one data set")),
    # The options of a run.
    *[(f"train(rule={rule!r})", lambda rule=rule: train([([1], 1)], rule=rule), Says("unknown rule"))
      for rule in ("Sign", "", None, "perceptron")],
    ("train(max_epochs=0)", lambda: train([([1], 1)], max_epochs=0), Says("max_epochs = 0 is not a whole number >= 1")),
    ("train(max_epochs=2.5)", lambda: train([([1], 1)], max_epochs=2.5), Says("max_epochs = 2.5")),
    ("train(max_epochs=None)", lambda: train([([1], 1)], max_epochs=None), Says("needs a bound")),
    ("train(epochs=0)", lambda: train([([1], 1)], epochs=0), Says("epochs = 0")),
    ("train(epochs=True)", lambda: train([([1], 1)], epochs=True), Says("epochs = True")),
    ("train(kernel=3)", lambda: train([([1], 1)], kernel=3), Says("kernel 3 is not callable")),
    ("train(trace=1)", lambda: train([([1], 1)], trace=1), "trace = 1 is not True or False"),
    ("train(pocket='yes')", lambda: train([([1], 1)], pocket="yes"), "pocket = 'yes' is not True or False"),
    ("on_mistake not callable", lambda: train([([1], 1)], on_mistake=3), Says("on_mistake = 3 is not callable")),
    ("average under a trapping context", lambda: trapping(lambda: train(
        [([Decimal(1), Decimal(2)], 1), ([Decimal(-1), Decimal(3)], -1)], epochs=3, average="after")),
     Says("the average cannot be computed")),
    # The learners.
    *[(f"Perceptron(1, rule={rule!r})", lambda rule=rule: Perceptron(1, rule=rule), Says("unknown rule"))
      for rule in ("Sign", "", None, "perceptron")],
    *[(f"Perceptron({d!r})", lambda d=d: Perceptron(d), Says("is not a whole number")) for d in (-1, 1.5, True, "2")],
    ("Perceptron(2**64)", lambda: Perceptron(2**64), Says("dimension d = 18446744073709551616 is more than")),
    ("Perceptron(2).score(None)", lambda: Perceptron(2).score(None), "x is NoneType, not a sequence of numbers"),
    ("MulticlassPerceptron(5, 2)", lambda: MulticlassPerceptron(5, 2), "classes is int, not a sequence"),
    ("classes as a set", lambda: MulticlassPerceptron(frozenset("a"), 2), "classes frozenset({'a'}) have no order"),
    ("a class twice", lambda: MulticlassPerceptron(["a", "a"], 2), Says("two or more distinct")),
    *[(f"a class {label!r}", lambda label=label: MulticlassPerceptron(["a", label], 1), Says("cannot be a class"))
      for label in (float("nan"), Decimal("NaN"))],
    # Multiclass runs.
    ("train_multiclass classes set", lambda: P.train_multiclass([([1], "a")], classes={"a"}),
     "classes {'a'} have no order"),
    ("a label that cannot be a class", lambda: P.train_multiclass([([1], "a"), ([2], [1])]),
     "example 1: label [1] cannot be a class"),
    ("a short x with the bias", lambda: P.train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([1], "a")], bias=True),
     "example 2: x has length 1, expected 2"),
    ("a multiclass x[0] = 'z'", lambda: P.train_multiclass([([1], "a"), (["z"], "b")]), "example 1: x[0] is 'z'"),
    *[(f"a class label {label!r}", lambda label=label: P.train_multiclass([([1], label), ([2], label), ([3], "a")]),
       f"example 0: label {label!r} cannot be a class: it is not equal to itself")
      for label in (float("nan"), Decimal("NaN"))],
    # The functions of the notes.
    ("dot(None, [1])", lambda: dot(None, [1]), "a is NoneType, not a sequence of numbers"),
    ("dot([1], [1, 2])", lambda: dot([1], [1, 2]), "vectors of lengths 1 and 2 have no inner product"),
    ("dot([1, 2], [1, 2, 3])", lambda: dot([1, 2], [1, 2, 3]), Says("lengths 2 and 3")),
    ("sign(None)", lambda: sign(None), "sign of None: not a real number"),
    ("sign('a')", lambda: sign("a"), "sign of 'a': not a real number"),
    ("is_mistake(1, None)", lambda: is_mistake(1, None), "w.x is None: not a finite real number"),
    *[(f"is_mistake(1, {score!r})", lambda score=score: is_mistake(1, score), Says("not a finite real number"))
      for score in (float("nan"), float("inf"), 1j)],
    ("with_bias(None)", lambda: with_bias(None), "x is NoneType, not a sequence of numbers"),
    ("radius_squared(None)", lambda: radius_squared(None), "xs is NoneType, not a sequence"),
    ("radius_squared([])", lambda: radius_squared([]), Says("R^2 of no examples")),
    ("R^2 of a nan", lambda: radius_squared([[1, float("nan")]]), Says("example 0: x[1] is nan")),
    ("R^2 that overflows", lambda: radius_squared([[1e200]]), "R^2 is inf: the sum overflowed"),
    ("margin_squared([], [1])", lambda: margin_squared([], [1]), Says("margin of no examples")),
    ("w_star[0] = 'a'", lambda: margin_squared([([1, 2], 1)], ["a", 1]), Says("w_star[0] is 'a'")),
    ("gamma^2 that underflows", lambda: margin_squared([([1e-200], 1)], [1.0]),
     "gamma^2 is 0.0: the arithmetic of float underflows (use exact numbers)"),
    ("mistake_bound, w_star too long", lambda: mistake_bound([([1, 2], 1)], [1, 2, 3]),
     Says("w_star has length 3, expected 2")),
    # A run's own methods, and its picture.
    ("predict(x, ['w'])", lambda: train([([1, 2], 1)]).predict([1, 2], ["w"]), Says("weights = ['w']: use 'w'")),
    ("svg(None, [])", lambda: P.svg(None, []), "svg draws a Run of train(), not None"),
    ("svg(run, junk)", lambda: P.svg(train([([1, 2], 1)]), [(["a", 1], 1)]),
     "example 0: x[0] is 'a' (str), not a real number"),
    ("svg upto 'a'", lambda: P.svg(train([([1, 2], 1)]), [([1, 2], 1)], upto="a"), Says("upto = 'a' is not between")),
    ("svg of examples the run was not trained on", lambda: P.svg(train([([2, 1], 1), ([-1, -2], -1), ([1, -1], 1)]),
                                                                 [([2, 1], -1), ([-1, -2], 1), ([1, -1], -1)]),
     Says("not those the run was trained on")),
]

BAD_EXAMPLES = [pytest.param(*call, message, id=what) for what, call, message in API_REFUSED
                if isinstance(call, Example)]
CALLS_REFUSED = [pytest.param(call, message, id=what) for what, call, message in API_REFUSED
                 if not isinstance(call, Example)]


@pytest.mark.parametrize("call, message", CALLS_REFUSED)
def test_every_public_function_refuses_with_the_modules_error(call, message):
    with pytest.raises(PerceptronError) as err:
        call()
    assert (message in str(err.value)) if isinstance(message, Says) else str(err.value).startswith(message)
    assert len(str(err.value)) < 200


@pytest.mark.parametrize("x, y, message", BAD_EXAMPLES)
@pytest.mark.parametrize("make", [lambda: Perceptron(2), lambda: DualPerceptron()])
def test_bad_example_raises_and_leaves_the_learner_unchanged(make, x, y, message):
    model = make()
    model.learn([1, 1], -1)
    model.learn([2, -1], 1)
    before = copy.deepcopy(vars(model))
    with pytest.raises(PerceptronError) as err:
        model.learn(x, y)
    assert str(err.value) == message and err.value.index is None
    assert vars(model) == before


@pytest.mark.parametrize("x, y, message", BAD_EXAMPLES)
@pytest.mark.parametrize("epochs", [1, None])
@pytest.mark.parametrize("kernel", [None, dot])
def test_a_run_meeting_a_bad_example_names_its_index(x, y, message, epochs, kernel):
    examples = [([1, 1], -1), ([2, -1], 1), ([0, 3], 1), (x, y), ([1, 0], 1)]
    with pytest.raises(PerceptronError) as err:
        train(examples, epochs=epochs, kernel=kernel)
    kept = kernel is not None or epochs is None  # a primal run of one pass streams its examples
    if kept and message.startswith("label") and isinstance(y, collections.abc.Hashable):  # a third label
        message += "; these examples have 3 labels: use train_multiclass for classes"
    assert str(err.value) == "example 3: " + message
    assert (err.value.index, err.value.reason) == (3, message)
    if kernel is None and epochs == 1:  # also through a generator, and with the bias
        with pytest.raises(PerceptronError, match="^example 3: "):
            train(iter(examples), epochs=1, bias=True)


def test_bad_examples_are_perceptron_errors_which_are_value_errors():
    assert issubclass(PerceptronError, ValueError)


@pytest.mark.parametrize("call", [lambda x: train([([1, 2], 1), (x, -1)]), lambda x: Perceptron(2).learn(x, 1),
                                  lambda x: train(iter([([1, 2], 1), (x, -1)]), epochs=1),
                                  lambda x: P.Classifier().fit([[1, 2], x], [0, 1])])
def test_a_feature_of_no_number_type_is_also_the_type_error_python_s_float_raises(call):
    # Python's habit, and scikit-learn's check_dtype_object: a dict is a TypeError, in float()'s words; a string is
    # a value that is no number, only a PerceptronError
    with pytest.raises(TypeError, match=r"x\[1\] is \{'a': 1\} \(dict\), not a real number: float\(\) argument "
                                        "must be a string or a real number$") as err:
        call([1, {"a": 1}])
    assert isinstance(err.value, PerceptronError)
    with pytest.raises(PerceptronError, match="'abc' \\(str\\), not a real number$") as err:
        call([1, "abc"])
    assert not isinstance(err.value, TypeError)


def test_w_star_that_does_not_separate_names_the_first_example():
    with pytest.raises(PerceptronError, match="example 1: w_star does not strictly separate") as err:
        margin_squared([([1, 0], 1), ([0, 1], 1), ([0, 2], -1)], [1, 0])
    assert err.value.index == 1


def test_floats_and_decimals_mixed_are_refused_clearly():
    p = Perceptron(2)
    p.learn([0.5, 1.5], -1)
    with pytest.raises(PerceptronError, match=r"inner product cannot be computed: .*'float' and '(decimal\.)?Decimal'"):
        p.learn([Decimal(1), Decimal(2)], 1)
    assert p.w == [-0.5, -1.5]


def test_a_float_overflow_is_reported_not_learned():
    examples = [([1e308, 1e308], -1), ([1, 1], 1)]
    with pytest.raises(PerceptronError, match="^example 1: w.x is -inf: the sum overflowed"):
        train(examples, epochs=1, rule="margin")
    p = Perceptron(2, rule="margin")
    p.learn(*examples[0])
    with pytest.raises(PerceptronError, match="^w.x is -inf: the sum overflowed"):
        p.learn(*examples[1])
    assert p.w == [-1e308, -1e308]


def test_a_label_that_is_not_a_class_is_refused_and_leaves_the_learner_unchanged():
    m = MulticlassPerceptron(["a", "b"], 1)
    with pytest.raises(PerceptronError, match="not one of the classes"):
        m.learn([1], "c")
    assert m.mistakes == 0 and m.w == {"a": [0], "b": [0]}


@pytest.mark.parametrize("make, x, y", [
    (lambda: Perceptron(2), [Decimal("1.2345"), Decimal(1)], 1),
    (lambda: DualPerceptron(), [Decimal("1.2345"), Decimal(1)], 1),
    (lambda: MulticlassPerceptron(["a", "b", "c"], 2), [Decimal("1.2345"), Decimal(1)], "b"),
    (lambda: MulticlassPerceptron(["a", "b", "c"], 2, update="joint"), [Decimal("1.2345"), Decimal(1)], "b"),
])
def test_an_update_is_all_or_nothing_under_a_trapping_decimal_context(make, x, y):
    model = make()
    model.learn([Decimal("1.5"), Decimal(2)], "a" if isinstance(model, MulticlassPerceptron) else -1)
    before = state(model)
    with localcontext() as context:
        context.prec, context.traps[decimal.Inexact] = 3, True
        with pytest.raises(PerceptronError, match="cannot be computed|failed"):
            model.learn(x, y)
        with pytest.raises(PerceptronError, match="^example 1: |the examples 0 and 1: "):
            P.train_multiclass([([Decimal("1.5"), Decimal(2)], "a"), (x, y)]) if y == "b" else train(
                [([Decimal("1.5"), Decimal(2)], -1), (x, y)], kernel=None if isinstance(model, Perceptron) else dot)
    assert state(model) == before


def test_a_one_vs_rest_step_whose_later_class_fails_takes_back_the_earlier_classes():
    m = MulticlassPerceptron(["a", "b"], 1)
    m.binary["b"].w = [Decimal("1.23456789")]  # class a's step is exact; class b's score is not, at 3 digits
    before = state(m)
    with localcontext() as context:
        context.prec, context.traps[decimal.Inexact] = 3, True
        assert Perceptron(1).learn([Decimal("1.5")], -1)  # what class a alone does: a mistake, and an update
        with pytest.raises(PerceptronError, match="cannot be computed"):
            m.learn([Decimal("1.5")], "b")
    assert state(m) == before


# ---------------------------------------------------------------------------
# The command line: one table of every refusal, each run in a child process with
# a timeout: nothing hangs, and nothing is left half done
# ---------------------------------------------------------------------------

CHECKED_CSV = csv_of(CHECKED[0][0]).encode()  # 30 examples of 3 features

CLI_REFUSED = [  # (kind, what, the files, argv, the line after "error: " -- or Starts, or Says)
    # The files are data.csv's text (str or bytes), or a dict of names and bytes.
    ("file", "a file that does not exist", {}, ["missing.csv"], "missing.csv: cannot read: No such file or directory"),
    ("file", "a name with a newline, in one line", {}, ["no\nsuch.csv"],
     "no\\nsuch.csv: cannot read: No such file or directory"),
    ("file", "/dev/zero, a device that never ends", {}, ["/dev/zero"],
     "/dev/zero: a device, not a regular file: inputs are read from regular files, or from standard input ('-')"),
    ("file", "an empty file", "", ["data.csv"], "data.csv: no examples: the file is empty"),
    ("file", "standard input twice", "1,2,1\n", ["-", "--test", "-"],
     "FILE and --test are both '-': standard input can be read once; give one of them a file"),
    ("file", "a header but no examples", "a,b,y\n\n", ["data.csv"], "data.csv: a header but no examples"),
    ("encoding", "invalid UTF-8 on line 1", b"\xff\xfe1,2\n", ["data.csv"],
     "data.csv:1: not UTF-8 text (invalid start byte at byte 1 of the line)"),
    ("encoding", "invalid UTF-8 on line 3", b"1,2,1\n-1,-2,-1\n\xff,1,1\n", ["data.csv"],
     Starts("data.csv:3: not UTF-8 text (invalid start byte at byte 1 of the line)")),
    ("encoding", "a NUL byte", b"1,2,1\n1,\x00,1\n", ["data.csv"],
     Starts("data.csv:2: the line holds a NUL byte, which no CSV text does")),
    ("cell", "a cell that is not a number", "a,b,y\n1,abc,1\n", ["data.csv"],
     "data.csv:2: column 2: 'abc' is not a number"),
    ("cell", "a decimal comma (under --delimiter ';')", "a;b;y\n1,6;2;1\n", ["data.csv", "--delimiter", ";"],
     "data.csv:2: column 1: '1,6' is not a number: write 1.6, with a decimal point"),
    ("usage", "an option's value that starts with '-', without '='", "1,2,1\n", ["data.csv", "--labels", "-1,1"],
     "argument --labels: expected one argument: did you mean --labels=-1,1 (a value that starts with '-' takes "
     "'=')? (see --help)"),
    ("file", "a .gz file cut short", {"data.csv.gz": gzip.compress(b"1,2,1\n" * 200)[:30]}, ["data.csv.gz"],
     "data.csv.gz: cannot read: Compressed file ended before the end-of-stream marker was reached"),
    ("cell", "a row shorter than the first", "1,2,1\n1,2\n", ["data.csv"],
     "data.csv:2: the row has 2 columns, the first has 3"),
    ("cell", "nan", "1,nan,1\n", ["data.csv"],
     "data.csv:1: column 2: 'nan' is not finite: NaN and infinity are not features"),
    ("cell", "-inf", "1,-inf,1\n", ["data.csv"],
     "data.csv:1: column 2: '-inf' is not finite: NaN and infinity are not features"),
    ("cell", "1e999 as a float", "1,1e999,1\n", ["data.csv"],
     "data.csv:1: column 2: '1e999' is too large for a float (use --exact)"),
    ("cell", "a fraction without --exact", "1/3,1\n", ["data.csv"],
     "data.csv:1: column 1: '1/3' is a fraction p/q: use --exact"),
    ("cell", "a label 3", "1,2,3\n", ["data.csv"], "data.csv:1: column 3: label '3' is not -1 or 1"),
    ("cell", "a label -1 with --labels=0,1", "1,2,-1\n", ["data.csv", "--labels=0,1"],
     "data.csv:1: column 3: label '-1' is not 0 or 1"),
    ("cell", "--label-column out of range", "1,2,1\n", ["data.csv", "--label-column", "3"],
     "data.csv: --label-column 3 is out of range for 3 columns"),
    ("bomb", "an exact exponent that would build 10**e", b"1e999999999,1,1\n", ["data.csv", "--exact"],
     Starts("data.csv:1: column 1: '1e999999999': an exponent beyond 4300")),
    ("bomb", "a label of 4,000 digits, cut in the message", b"1,1," + b"9" * 4000 + b"\n", ["data.csv"],
     Starts("data.csv:1: column 3: label '99999999999999999999999999999999999999999999999999999999..."
            + " is not -1 or 1")),
    ("bomb", "a label's exponent (labels are always read exactly)", b"1,1,1e999999999\n", ["data.csv"],
     Starts("data.csv:1: column 3: label '1e999999999' is not -1 or 1")),
    ("bomb", "a cell of 4,301 digits", b"-" + b"1" * 4301 + b",1\n", ["data.csv"],
     Starts("data.csv:1: column 1: '-1111111111111111111... has 4301 digits: a number here has at most 4300")),
    ("bomb", "a line longer than 1 MiB", b"1," * (1 << 19) + b"1\n", ["data.csv"],
     Starts("data.csv:1: the line is longer than 1048576 bytes")),
    ("edge", "R^2 beyond floats", b"1e200,0,1\n-1e200,0,-1\n", ["data.csv", "--w-star=1,0", "--epochs", "1"],
     Starts("data.csv: R^2 is inf: the sum overflowed")),
    ("edge", "a w.x beyond floats", b"1e308,1e308,-1\n1,1,1\n", ["data.csv", "--rule", "margin", "--epochs", "1"],
     Starts("data.csv:2: w.x is -inf: the sum overflowed")),
    ("usage", "--epochs 0", "1,2,1\n", ["data.csv", "--epochs", "0"],
     "argument --epochs: '0' is not a whole number >= 1 (see --help)"),
    ("usage", "--rule hinge", "1,2,1\n", ["data.csv", "--rule", "hinge"],
     Starts("argument --rule: invalid choice: 'hinge'")),
    ("usage", "--kernel with --multiclass", "1,2,1\n", ["data.csv", "--multiclass", "--kernel", "linear"],
     "--kernel does not apply to --multiclass"),
    ("usage", "a --w-star that is not a number", "1,2,1\n", ["data.csv", "--w-star=1,x"],
     "--w-star: 'x' is not a number"),
    ("usage", "--svg with no value", FOUR, ["data.csv", "--svg="], Starts("--svg needs a value (see --help)")),
    ("usage", "--w-star with no value", FOUR, ["data.csv", "--w-star="], Starts("--w-star needs a value (see --help)")),
    ("usage", "--kernel with no value", FOUR, ["data.csv", "--kernel="], Starts("--kernel needs a value (see --help)")),
    ("usage", "--labels with --multiclass", FOUR, ["data.csv", "--multiclass", "--labels=0,1"],
     Starts("--labels does not apply to --multiclass")),
    ("usage", "--rule with --multiclass joint", FOUR, ["data.csv", "--multiclass", "joint", "--rule", "margin"],
     Starts("--rule does not apply to --multiclass joint: an argmax has no zero-score question")),
    ("usage", "--average with --kernel", FOUR, ["data.csv", "--kernel", "linear", "--average", "after"],
     Starts("--average does not apply to --kernel")),
    ("usage", "--max-epochs with --epochs", FOUR, ["data.csv", "--epochs", "2", "--max-epochs", "9"],
     Starts("--max-epochs does not apply to --epochs")),
    ("usage", "--quiet with --json", FOUR, ["data.csv", "--json", "--quiet"],
     Starts("--quiet does not apply to --json")),
    *[("usage", f"--weights in the text report of {option[0]}, which has no column for them and ignored it", FOUR,
       ["data.csv", *option, "--weights"], f"--weights does not apply to {option[0]}'s text report: --json --weights "
       "writes w after each mistake") for option in (["--multiclass"], ["--kernel", "linear"])],
    ("usage", "--weights with --quiet", FOUR, ["data.csv", "--quiet", "--weights"],
     Starts("--weights does not apply to --quiet")),
    ("usage", "--label-column 0 without a FILE (0 is given, though falsy)", FOUR, ["--label-column", "0"],
     "--label-column applies to a FILE, not to the embedded example"),
    ("usage", "a label column written in other digits", FOUR, ["data.csv", "--label-column", "\u0661"],
     Starts("argument --label-column: '\u0661' is not a whole number (see --help)")),
    ("usage", "a kernel parameter with an underscore", FOUR, ["data.csv", "--kernel", "gaussian:1_0"],
     Starts("bad kernel parameter in 'gaussian:1_0': '1_0' is not a finite number")),
    ("usage", "a kernel parameter in other digits", FOUR, ["data.csv", "--kernel", "gaussian:\u0661"],
     Starts("bad kernel parameter in 'gaussian:\u0661': '\u0661' is not a finite number")),
    ("usage", "a sigma whose 2 sigma^2 underflows", FOUR, ["data.csv", "--kernel", "gaussian:1e-200"],
     Starts("bad kernel parameter in 'gaussian:1e-200': sigma = 1e-200: 2 sigma^2 is 0.0 as a float")),
    ("usage", "a --tolerance exponent that would build 10**e", FOUR,
     ["data.csv", "--check", "data.csv", "--tolerance", "1e999999999"], Says("an exponent beyond 4300")),
    ("usage", "a --tolerance with an underscore", FOUR, ["data.csv", "--check", "data.csv", "--tolerance", "1_0"],
     Says("is not a number")),
    ("usage", "a negative --tolerance", FOUR, ["data.csv", "--check", "data.csv", "--tolerance", "-1"], Says(">= 0")),
    ("usage", "a --predictor the run did not keep", FOUR, ["data.csv", "--test", "data.csv", "--predictor", "average"],
     "--predictor average: the run kept none: train with --average after"),
    ("model", "--model of one feature on a file of three columns",
     {"data.csv": FOUR.encode(),
      "m.json": b'{"perceptron": "0.4.0", "weights": [1], "bias": false, "rule": "sign", "labels": [-1, 1]}'},
     ["data.csv", "--model", "m.json"],
     "data.csv: 3 columns: the model has 1 feature, so a file for it has 1 column (2 with the labels)"),
    ("model", "a --predictor the model did not keep",
     {"data.csv": FOUR.encode(),
      "m.json": b'{"perceptron": "0.4.0", "weights": [1, 2], "bias": false, "rule": "sign", "labels": [-1, 1]}'},
     ["data.csv", "--model", "m.json", "--predictor", "pocket"],
     "--predictor pocket: the model kept none: train with --pocket"),
    ("usage", "a --rate of two numbers (a decimal comma?)", FOUR, ["data.csv", "--rate=0,5"],
     "--rate: '0,5' is not a number: write 0.5, with a decimal point"),
    ("usage", "a --start of two vectors", FOUR, ["data.csv", "--start=1,2;3,4"], "--start: '2;3' is not a number"),
    ("usage", "an --order index that is not whole", FOUR, ["data.csv", "--order=0,1.5"],
     "--order: '0,1.5' is not whole numbers"),
    ("usage", "a --shuffle seed that is not whole", FOUR, ["data.csv", "--shuffle=1.5"],
     "--shuffle: '1.5' is not a whole number"),
    ("edge", "a quote left open, named at the row it opens, not at the file's last line",
     b'a,b,y\n1,2,1\n"-1,-2,-1\n' + b"1,1,1\n" * 7, ["data.csv"], "data.csv:3: the row has 1 columns, the first has 3"),
    ("usage", "--drop-column of the label's column, which was silently not dropped", FOUR,
     ["data.csv", "--drop-column", "2"], "data.csv: --drop-column 2 is the label's column: name the label's with "
     "--label-column"),
    ("usage", "a --step not of FAMILY's, which named FILE as if the data were wrong", FOUR, ["data.csv", "--step=foo"],
     "step = 'foo': use 'label' or 'error' or 'passive-aggressive'"),
    ("usage", "--bias-first without --bias, refused before FILE is read", FOUR, ["missing.csv", "--bias-first"],
     "bias_first, bias_feature and bias_rate need bias=True"),
    ("model", "a convention beside --model, which it silently ignored",
     {"data.csv": FOUR.encode(),
      "m.json": b'{"perceptron": "0.4.0", "weights": [1, 2], "bias": false, "rule": "sign", "labels": [-1, 1]}'},
     ["data.csv", "--model", "m.json", "--zero=-1"], "--zero does not apply to --model"),
    ("write", "--svg into a folder that does not exist", FOUR, ["data.csv", "--svg", "missing/run.svg"],
     Starts("missing/run.svg: cannot write: No such file or directory")),
    ("write", "--svg-steps where a file stands", FOUR, ["data.csv", "--svg-steps", "data.csv"],
     Starts("data.csv: cannot make the folder: File exists")),
    ("write", "--svg of three features", b"1,2,3,1\n-1,-2,-3,-1\n",
     ["data.csv", "--svg", "run.svg", "--svg-steps", "steps"],
     Starts("svg draws examples with 2 features; these have 3")),
    ("write", "--vectors into a folder of other files", {"mine.txt": b"the user's"}, ["--vectors", "."],
     Says("holds other files")),
    ("model", "--model of a JSON that is not a run's", {"data.csv": b"1,2,1\n", "bad.json": b'{"a": 1}'},
     ["data.csv", "--model", "bad.json"],
     Starts("bad.json: 'a': not a field of a model (--save) or a run (--json); the fields are")),
    ("model", "--model of a run with no bias field", {"data.csv": b"1,2,1\n", "bad.json": b'{"perceptron": "0.2.0"}'},
     ["data.csv", "--model", "bad.json"], Starts("bad.json: bias: missing")),
    ("model", "--model of a file that is not JSON", {"data.csv": b"1,2,1\n", "bad.json": b"not json"},
     ["data.csv", "--model", "bad.json"], Starts("bad.json: not a model (--save) or a run (--json): ")),
    ("model", "--model of a kernel run",
     {"data.csv": b"1,2,1\n", "bad.json": b'{"perceptron": "0.2.0", "weights": null, "kernel": "polynomial(2, c=1)", '
                                         b'"bias": false, "rule": "sign"}'},
     ["data.csv", "--model", "bad.json"],
     Starts("bad.json: stored: missing, or not a list of [x..., y]: a kernel model holds its stored examples")),
    ("model", "--model of a weight that is not a number",
     {"data.csv": b"1,2,1\n", "bad.json": b'{"perceptron": "0.2.0", "weights": ["x"], "bias": false, "rule": "sign", '
                                          b'"labels": [-1, 1]}'},
     ["data.csv", "--model", "bad.json"], Starts("bad.json: weights[0]: 'x' is not a number")),
    *[(option[2:], f"{option} of JSON nested 100,000 deep",  # json's recursion, not a traceback
       {"data.csv": CHECKED_CSV, "theirs.json": b"[" * 100_000 + b"]" * 100_000}, ["data.csv", option, "theirs.json"],
       Says("nested too deeply")) for option in ("--check", "--model")],
    *[(option[2:], f"{option} of a weight of exponent 999999999",  # its exact value would never end
       {"data.csv": CHECKED_CSV, "theirs.json": b'{"perceptron": "0.3.0", "weights": ["1e999999999", 0, 0], '
                                                b'"bias": false, "rule": "sign", "labels": [-1, 1]}'},
       ["data.csv", option, "theirs.json"], Says("an exponent beyond 8600 is not read"))
      for option in ("--check", "--model")],
    *[(option[2:], f"{option} of a weight whose exponent has 5,000 digits",  # past int()'s digits: not an internal error
       {"data.csv": CHECKED_CSV, "theirs.json": b'{"perceptron": "0.3.0", "weights": ["1e' + b"9" * 5000 + b'", 0, 0], '
                                                b'"bias": false, "rule": "sign", "labels": [-1, 1]}'},
       ["data.csv", option, "theirs.json"], Says("an exponent beyond 8600 is not read"))
      for option in ("--check", "--model")],
    ("check", "--check of an int too long to read in linear time",
     {"data.csv": CHECKED_CSV, "theirs.json": b'{"weights": [1' + b"0" * 9000 + b", 0, 0]}"},
     ["data.csv", "--check", "theirs.json"], Says("an int of 9001 digits: at most 8600 are read")),
    *[("check", f"--check of {what}", {"data.csv": CHECKED_CSV, "theirs.json": json.dumps(theirs).encode()},
       ["data.csv", "--check", "theirs.json"], Says(said)) for what, theirs, said in [  # a careless form, said clearly
        ("no weights", {"trace": []}, "weights: missing: give the final weights"),
        ("2 weights for 3 features", {"weights": [1, 2]}, "2 numbers: the data has 3 features"),
        ("a mistake without its epoch", {"weights": [0, 0, 0], "trace": [{"index": 0}]},
         "each mistake needs an int 'epoch'"),
        ("an index out of range", {"weights": [0, 0, 0], "trace": [{"epoch": 1, "index": 31}]}, "out of range for 30"),
        ("a weight that is not a number", {"weights": [0, "abc", 0]}, "weights[1]: 'abc' is not a number"),
        ("a list, not an object", [1, 2, 3], "a JSON object is expected"),
        ("a field misspelt", {"weights": [0, 0, 0], "traces": []},
         "'traces': not a field of the JSON of a run (did you mean 'trace'?)")]],
]


@pytest.mark.parametrize("kind, what, files, argv, message", CLI_REFUSED, ids=[row[1] for row in CLI_REFUSED])
def test_cli_refuses_in_one_line_and_leaves_nothing(tmp_path, kind, what, files, argv, message):
    files = files if isinstance(files, dict) else {"data.csv": files}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data.encode() if isinstance(data, str) else data)
    status, out, err = cli_process(*argv, cwd=tmp_path, timeout=30)
    assert (status, out, files_in(tmp_path)) == (2, "", sorted(files))
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    if isinstance(message, Says):
        assert message in err
    elif isinstance(message, Starts):
        assert err.startswith("error: " + message)
    else:
        assert err == f"error: {message}\n"


def test_cli_closed_standard_input_is_one_error_line():
    done = subprocess.run(f"{sys.executable} {SCRIPT} - <&-", shell=True, capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (2, "error: <stdin>: cannot read: standard input is closed\n")


def test_cli_a_file_name_that_is_not_utf8_is_named_not_a_traceback(tmp_path):
    name = b"d\xff.csv"
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as f:
        f.write(b"1,x,1\n")
    status, _, err = cli_process(name, "--no-header", cwd=tmp_path, timeout=30, text=False)
    assert status == 2 and err == b"error: d\\udcff.csv:1: column 2: 'x' is not a number\n"
    _, _, err = cli_process(name, "--no-header", "--json", cwd=tmp_path, timeout=30, text=False)
    assert b"Traceback" not in err


@pytest.mark.parametrize("field, value, said", [
    ("weights", "63", "weights: '63' is not a list of one or more numbers"),
    ("weights", {"0": 1, "1": 2}, "weights: {'0': 1, '1': 2} is not a list"),
    ("bias", "yes", "bias: 'yes' is not true or false"),
    ("pocket", {"weights": "12", "errors": 0, "mistakes": 1}, "pocket.weights: '12' is not a list"),
    ("average", {"convention": "after", "weights": "12", "examples": 4}, "average.weights: '12' is not a list"),
    ("rule", "sigh", "rule: 'sigh' is not one of 'sign', 'margin'"),
    ("labels", [1, 1], "labels: [1, 1] is not two distinct labels"),
    ("wieghts", [1, 2], "'wieghts': not a field of a model (--save) or a run (--json) (did you mean 'weights'?)"),
])
def test_model_reads_every_field_strictly(capsys, tmp_path, field, value, said):
    data = write(tmp_path, "x1,x2,y\n1,2,1\n-1,-2,-1\n")
    _, doc = cli_json(capsys, data, "--pocket", "--average", "after", "--epochs", "2")
    doc[field] = value
    (tmp_path / "run.json").write_text(json.dumps(doc))
    status, out, err = cli(capsys, data, "--model", str(tmp_path / "run.json"))
    assert (status, out) == (2, "") and err.startswith(f"error: {tmp_path / 'run.json'}: {said}")


# ---------------------------------------------------------------------------
# Seeded fuzzing: no bad input escapes as anything but a PerceptronError, or
# on the command line as anything but a report or one error line
# ---------------------------------------------------------------------------

ATOMS = [0, 1, -1, 2, 1.5, -0.0, float("nan"), float("inf"), Fraction(1, 3), Decimal("1.5"), Decimal("NaN"),
         True, False, None, "a", "1", [1], (1,), 1j, 10 ** 400, 1e308, -1e308]


def test_random_bad_examples_only_ever_raise_perceptron_errors():
    rng = random.Random(0)

    def vector():
        if rng.random() < 0.1:
            return rng.choice(ATOMS)
        return [rng.choice(ATOMS) for _ in range(rng.choice([0, 1, 2, 2, 3]))]

    kernels = [dot, lambda a, b: (dot(a, b) + 1) ** 2]
    raised = 0
    for _ in range(3000):
        examples = [(vector(), rng.choice(ATOMS + [1, -1] * 4)) if rng.random() > 0.05 else rng.choice(ATOMS)
                    for _ in range(rng.randint(0, 5))]
        options = {"rule": rng.choice(RULES), "bias": rng.random() < 0.3, "epochs": rng.choice([None, 1, 2]),
                   "pocket": rng.random() < 0.2, "kernel": rng.choice([None, None] + kernels), "max_epochs": 5}
        try:
            train(iter(examples) if rng.random() < 0.3 else examples, **options)
        except PerceptronError:
            raised += 1
    assert raised > 1000  # the inputs were bad indeed


def test_random_option_combinations_on_the_api_raise_only_the_modules_error():
    rng = random.Random(10)
    values = [None, True, False, 0, 1, 2, -1, 1.5, "sign", "margin", "x", [], dot, 10**30]  # passes bounded below
    raised = 0
    for _ in range(1500):
        examples = [([rng.randint(-3, 3) for _ in range(2)], rng.choice([1, -1])) for _ in range(rng.randint(0, 6))]
        options = {name: rng.choice(values) for name in rng.sample(
            ["rule", "kernel", "bias", "epochs", "max_epochs", "pocket", "trace"], rng.randint(0, 4))}
        if options.get("max_epochs") == 10**30 or options.get("epochs") == 10**30:
            options["max_epochs"] = options["epochs"] = 10**30  # a bound this large is a user's to ask
            options["epochs"] = 3
        options.setdefault("max_epochs", 40)  # a bound the literal kernel dual, quadratic in its mistakes, meets soon
        try:
            train(examples, **options)
        except PerceptronError:
            raised += 1
    assert raised > 500


def test_random_csv_files_never_show_a_traceback(tmp_path):
    rng = random.Random(1)
    cells = ["1", "-1", "0", "2", "0.5", "1e3", "1/3", "nan", "inf", "", " ", "x", '"a,b"', "1e999", "+1",
             "\u0661", "0x10", "1_0", "3.", ".5"]
    options = [[], ["--exact"], ["--no-header"], ["--labels=0,1"], ["--rule", "margin"], ["--bias"], ["--epochs", "1"],
               ["--pocket"], ["--multiclass"], ["--w-star=1,1"], ["--label-column", "0"], ["--json"], ["--quiet"],
               ["--svg", str(tmp_path / "f.svg")]]
    statuses = set()
    for _ in range(400):
        rows = [",".join(rng.choice(cells) for _ in range(rng.choice([1, 2, 3, 3]))) for _ in range(rng.randint(0, 4))]
        path = write(tmp_path, "\n".join(rows) + "\n")
        argv = [path] + [word for _ in range(rng.randint(0, 3)) for word in rng.choice(options)]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = P.main(argv)
        statuses.add(status)
        if status == 2:
            assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1
    assert {0, 2} <= statuses <= {0, 1, 2}  # reports and errors both met (exit 1 has its own test)


@pytest.mark.slow
def test_random_bytes_and_options_on_the_command_line_never_hang_or_show_a_traceback(tmp_path):
    rng = random.Random(11)
    options = [[], ["--exact"], ["--no-header"], ["--labels=0,1"], ["--rule", "margin"], ["--bias"],
               ["--epochs", "1"], ["--epochs", "2"], ["--pocket"], ["--multiclass"], ["--w-star=1,1"], ["--json"],
               ["--quiet"], ["--svg", "p.svg"], ["--svg-steps", "s"], ["--kernel", "polynomial:2"], ["--svg="]]
    alphabet = b"0123456789-+.,eE/ \n\r\"x\xef\xbb\xbf\xff\x00"
    for case in range(40):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        argv = [word for _ in range(rng.randint(0, 3)) for word in rng.choice(options)]
        folder = tmp_path / str(case)
        folder.mkdir()
        (folder / "data.csv").write_bytes(data)
        status, out, err = cli_process("data.csv", *argv, cwd=folder, timeout=30)
        assert "Traceback" not in err and status in (0, 1, 2)
        if status == 2:
            assert err.startswith("error: ") and err.count("\n") == 1 and out == "" and files_in(folder) == ["data.csv"]


def mutated(rng, doc):
    """doc with one to three of its values replaced, shifted, dropped, doubled or turned into text."""
    paths = []

    def walk(v, path):
        paths.append(path)
        for key in (v if isinstance(v, dict) else range(len(v)) if isinstance(v, list) else ()):
            walk(v[key], path + [key])
    walk(doc, [])
    for _ in range(rng.randint(1, 3)):
        *path, key = rng.choice(paths[1:])
        parent = doc
        try:
            for k in path:
                parent = parent[k]
            value, r = parent[key], rng.random()
            if r < 0.3:
                parent[key] = rng.choice([None, "x", 0, -1, 0.5, "1/3", "1/0", [], {}, True, 2 ** 70, -0.0])
            elif r < 0.5 and type(value) in (int, float):
                parent[key] = value * rng.choice([2, -1, 0.5]) + rng.choice([0, 1])
            elif r < 0.7:
                del parent[key]
            elif r < 0.85 and isinstance(parent, list):
                parent.insert(key, copy.deepcopy(value))
            else:
                parent[key] = str(value)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier change removed the path
    return doc


@pytest.mark.slow
def test_check_of_a_mutated_run_reports_or_refuses_in_every_mode(capsys, tmp_path):
    # Our own --json, damaged at random: a verdict (0, 1) or one error line (2), never a traceback.
    rng = random.Random(12)
    binary = write(tmp_path, csv_of(noisy(66, n=12, d=3, flip=0.2)[0]), "b.csv")
    classes = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n0,0,b\n", "m.csv")
    modes = [[binary, "--max-epochs", "6"], [binary, "--bias", "--rule", "margin", "--max-epochs", "6"],
             [binary, "--kernel", "polynomial:2", "--max-epochs", "6"], [binary, "--pocket", "--max-epochs", "3"],
             [binary, "--average", "before", "--epochs", "2"], [binary, "--voted", "--epochs", "2"],
             [classes, "--multiclass", "--pocket", "--max-epochs", "5"], [classes, "--multiclass", "joint"]]
    saved = {}
    for mode in modes:
        saved[tuple(mode)] = json.loads(cli(capsys, *mode, "--json", "--weights")[1])
    seen = set()
    for _ in range(160):
        mode = rng.choice(modes)
        (tmp_path / "theirs.json").write_text(json.dumps(mutated(rng, copy.deepcopy(saved[tuple(mode)]))))
        status, out, err = cli(capsys, *mode, "--check", str(tmp_path / "theirs.json"))
        assert status in (0, 1, 2) and (err.count("\n") == 1 if status == 2 else err == "" and out)
        seen.add(status)
    assert seen == {0, 1, 2}


@pytest.mark.slow
def test_a_damaged_model_file_predicts_or_is_one_error_line_for_every_predictor(capsys, tmp_path):
    # A model --save wrote, damaged at random: predictions (0) or one error line (2), never a traceback.
    rng = random.Random(13)
    binary = write(tmp_path, csv_of(noisy(67, n=12, d=2, flip=0.2)[0]), "b.csv")
    classes = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n0,0,b\n", "m.csv")
    modes = [[binary, "--bias", "--pocket", "--average", "after", "--voted"], [binary, "--kernel", "polynomial:2",
             "--voted"], [classes, "--multiclass", "--pocket", "--average", "after", "--voted"],
             [classes, "--multiclass", "joint", "--pocket", "--average", "before", "--voted"]]
    saved = {}
    for mode in modes:
        cli(capsys, *mode, "--max-epochs", "5", "--save", str(tmp_path / "model.json"), "--quiet")
        saved[tuple(mode)] = json.loads((tmp_path / "model.json").read_text())
    seen = set()
    for _ in range(300):
        mode = rng.choice(modes)
        (tmp_path / "damaged.json").write_text(json.dumps(mutated(rng, copy.deepcopy(saved[tuple(mode)]))))
        for predictor in PREDICTORS:
            status, out, err = cli(capsys, mode[0], "--model", str(tmp_path / "damaged.json"), "--predictor", predictor)
            assert status in (0, 2) and (err.count("\n") == 1 and out == "" if status == 2 else out)
            seen.add(status)
    assert seen == {0, 2}


# ---------------------------------------------------------------------------
# Hostile inputs and signals, each closed as a class: every file opened to read
# is a regular file (or standard input), every output of a run (the report on
# standard output included) is written with the others or none, and an input is
# a file by device and inode, whatever its name
# ---------------------------------------------------------------------------

def test_a_fifo_given_to_read_is_one_error_line_and_never_waited_for(tmp_path, capsys):
    (tmp_path / "data.csv").write_text(FOUR)
    cli(capsys, str(tmp_path / "data.csv"), "--save", str(tmp_path / "model.json"), "--quiet")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "corpus").mkdir()
    os.mkfifo(tmp_path / "corpus" / "index.json")
    said = ": a FIFO, not a regular file: inputs are read from regular files, or from standard input ('-')\n"
    for argv, named in ((["pipe"], "pipe"), (["data.csv", "--test", "pipe"], "pipe"),
                        (["data.csv", "--model", "pipe"], "pipe"), (["data.csv", "--check", "pipe"], "pipe"),
                        (["--vectors", "corpus"], os.path.join("corpus", "index.json"))):
        status, out, err = cli_process(*argv, cwd=tmp_path, timeout=20)  # a FIFO opened to read would wait for ever
        assert (status, out, err) == (2, "", f"error: {named}{said}"), argv


def test_standard_input_is_read_as_the_file_it_is_for_the_model_and_the_check(tmp_path, capsys):
    data = write(tmp_path, FOUR)
    cli(capsys, data, "--save", str(tmp_path / "model.json"), "--quiet")
    (tmp_path / "run.json").write_text(cli(capsys, data, "--json")[1])
    model = (tmp_path / "model.json").read_text()
    assert cli_process(data, "--model", "-", input=model, timeout=30)[:2] == (0, "1\n-1\n1\n1\n")
    assert cli_process(data, "--check", "-", input=(tmp_path / "run.json").read_text(), timeout=30)[0] == 0


def test_an_output_named_as_a_folder_is_a_usage_error_before_any_work(tmp_path):
    (tmp_path / "data.csv").write_text(FOUR)
    (tmp_path / "a-folder").mkdir()
    for argv, said in ((["--svg", "out/"], "--svg out/: a folder's name, not a file's: --svg names the file to write"),
                       (["--save", "out/"], "--save out/: a folder's name, not a file's: --save names the file to "
                                            "write"),
                       (["--save", "a-folder"], "a-folder: a folder, not a regular file: outputs are written to "
                                                "regular files only, and never replace anything else")):
        assert cli_process("data.csv", *argv, cwd=tmp_path, timeout=30) == (2, "", f"error: {said}\n"), argv
        assert files_in(tmp_path) == ["a-folder", "data.csv"]


def test_the_file_on_standard_input_is_an_input_and_never_replaced(tmp_path):
    (tmp_path / "data.csv").write_text(FOUR)
    (tmp_path / "held.csv").write_text(FOUR)
    (tmp_path / "steps").mkdir()
    os.link(tmp_path / "held.csv", tmp_path / "steps" / "step-1.svg")
    for argv, stdin, said in (
            (["-", "--save", "data.csv"], "data.csv", "--save data.csv is the input FILE (standard input)"),
            (["data.csv", "--test", "-", "--svg", "held.csv"], "held.csv",
             "--svg held.csv is the input --test (standard input)"),
            (["-", "--svg-steps", "steps"], "held.csv", "--svg-steps steps writes step-N.svg files, and its "
                                                        "step-1.svg is the FILE (standard input)")):
        with open(tmp_path / stdin) as f:  # the file itself on standard input, as the shell's < gives it
            done = subprocess.run([sys.executable, SCRIPT, *argv], cwd=tmp_path, stdin=f, capture_output=True,
                                  text=True, timeout=30)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {said}: it would be overwritten\n")
        assert (tmp_path / stdin).read_text() == FOUR and files_in(tmp_path) == ["data.csv", "held.csv", "steps",
                                                                               "steps/step-1.svg"]


@pytest.mark.parametrize("argv", [["data.csv", "--svg", "o.svg", "--save", "m.json", "--svg-steps", "steps", "--html",
                                   "p.html"],
                                  ["data.csv", "--json", "--save", "m.json"], ["--vectors", "corpus"]])
def test_a_report_that_cannot_be_written_leaves_none_of_the_run_s_files(tmp_path, argv):
    device = full_device(tmp_path)  # standard output is an output of the run: all of them, or none
    if device is None:
        pytest.skip("mknod is not allowed here")
    (tmp_path / "data.csv").write_text(EMBEDDED_CSV)
    with open(device, "w") as full:
        status, _, err = cli_process(*argv, stdout=full, cwd=tmp_path, timeout=60)
    assert (status, err) == (2, "error: cannot write the report: No space left on device\n")
    assert files_in(tmp_path) == ["data.csv", "full"]


def test_what_explains_an_error_is_in_its_line(tmp_path, capsys):
    data = write(tmp_path, "x1,x2,y\n1,2,1\n-1,-2,-1\n")
    wider = write(tmp_path, "p,q,r,y\n1,2,3,1\n", "wider.csv")
    renamed = write(tmp_path, "p,q,y\n1,2,1\n", "renamed.csv")
    note = "are not the model's features ['x1', 'x2']: applied by position"
    assert cli(capsys, data, "--test", wider, "--quiet") == (  # read as --model reads: 'x has length 3' at line 2
        2, "", f"error: {wider}: 4 columns: the model has 2 features, so a file for it has 2 columns (3 with the "
               "labels)\n")
    huge = write(tmp_path, "p,q,y\n1e308,1e308,1\n", "huge.csv")
    assert cli(capsys, data, "--test", huge, "--quiet") == (
        2, "", f"error: {huge}:2: w.x is inf: the sum overflowed; its columns ['p', 'q'] {note}\n")
    status, out, err = cli(capsys, data, "--test", renamed, "--quiet")  # no error: the note is said after the run
    assert status == 0 and "test: " in out and err == f"note: {renamed}: its columns ['p', 'q'] {note}\n"


# Ctrl-C at seeded moments: SIGINT raised, as a terminal raises it (through whatever handler is in place), at
# the k-th call of a function of perceptron.py or kernels.py, for k over a seeded range of a run's calls.
TRACED = {P.main.__code__.co_filename, kernels.linear.__code__.co_filename}


def ctrl_c_at(k, call):
    """(what call() returned or None, the KeyboardInterrupt that left it or None, lost, left) with Ctrl-C at the
    k-th call; k = 0 counts the calls instead: (the count, None, False, False).  ``lost``: the Ctrl-C landed in
    a finalizer (a generator closed as it is freed), where Python reports it as unraisable and goes on: a
    Ctrl-C no program sees.  ``left``: the signal handlers were not given back (they are, here, after)."""
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    if handlers[0] is not signal.default_int_handler:
        pytest.skip(f"Ctrl-C is not Python's default here: {handlers[0]}")
    count, lost, hook, returned, stop = 0, [], sys.unraisablehook, None, None

    def tracer(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_filename in TRACED:
            count += 1
            if count == k:
                sys.settrace(None)
                signal.raise_signal(signal.SIGINT)
    sys.unraisablehook = lambda unraisable: lost.append(unraisable.exc_type is KeyboardInterrupt)
    gc.collect()  # PyPy closes a dropped generator when it collects: not within the calls counted here
    sys.settrace(tracer)
    try:
        returned = call()
    except KeyboardInterrupt as interrupt:
        stop = interrupt
    finally:
        sys.settrace(None)
        sys.unraisablehook = hook
        left = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) != handlers
        signal.signal(signal.SIGINT, handlers[0])
        signal.signal(signal.SIGTERM, handlers[1])
    return (count if k == 0 else returned), stop, any(lost), left


def moments(call, n, seed):
    """n seeded moments (call numbers) of call(), in order."""
    total = ctrl_c_at(0, call)[0]
    return sorted(random.Random(seed).sample(range(1, total), min(n, total - 1)))


@pytest.mark.parametrize("fit", [  # every kind but the first: slow (150 interrupted runs each)
    pytest.param(lambda D: train(D, pocket=True, max_epochs=5), id="pocket"),
    *(pytest.param(fit, id=name, marks=pytest.mark.slow) for name, fit in [
        ("margin-bias-pocket", lambda D: train(D, rule="margin", bias=True, pocket=True, epochs=3)),
        ("average-voted", lambda D: train(D, average="after", voted=True, epochs=3)),
        ("kernel-pocket-voted", lambda D: train(D, kernel=kernels.polynomial(2), pocket=True, voted=True, epochs=3)),
        ("joint", lambda D: P.train_multiclass([(x, str(y)) for x, y in D], update="joint", pocket=True,
                                               average="before", epochs=3)),
        ("one-vs-rest", lambda D: P.train_multiclass([(x, str(y)) for x, y in D], pocket=True, voted=True,
                                                     epochs=3))])])
def test_ctrl_c_at_any_moment_of_a_run_carries_the_run_so_far(fit):
    examples, _ = noisy(76, n=12, d=2, flip=0.3)
    for k in moments(lambda: fit(examples), 150, 76):  # the pocket's first count and the averages' sums included
        _, stop, lost, _ = ctrl_c_at(k, lambda: fit(examples))
        if lost:
            continue
        assert stop is not None and hasattr(stop, "run"), k  # a Ctrl-C never lands after the run: it is noticed
        run = stop.run  # None before the learner exists; else the run so far, whole updates only
        assert run is None or (type(run) is P.Run and run.converged is False and run.mistakes == len(run.trace)), k


def test_ctrl_c_at_any_moment_gives_the_signal_handlers_back():
    examples, _ = noisy(80, n=8, d=2, flip=0.3)
    seeded = moments(lambda: train(examples, max_epochs=3), 10 ** 6, 80)  # every moment
    assert [k for k in seeded if ctrl_c_at(k, lambda: train(examples, max_epochs=3))[3]] == []


def corpus_files(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else None


def vectors_at_seeded_moments(tmp_path, capsys, n, seed):
    """--vectors with Ctrl-C at n seeded moments, into a new folder and over an older corpus: exit 130, and the
    folder holds none, the older corpus untouched, or the whole corpus of finished runs."""
    import shutil

    new, older = tmp_path / "new", tmp_path / "older"
    assert cli(capsys, "--vectors", str(new))[0] == 0
    expected = corpus_files(new)
    shutil.rmtree(new)
    cli(capsys, "--vectors", str(older))
    (older / "pocket.json").write_text("an older version's\n")
    before = corpus_files(older)
    seeded = moments(lambda: P.main(["--vectors", str(new)]), n, seed)
    capsys.readouterr()
    for k in seeded:
        shutil.rmtree(new, ignore_errors=True)
        for folder, was in ((new, None), (older, before)):
            status, _, lost, _ = ctrl_c_at(k, lambda: P.main(["--vectors", str(folder)]))
            out, err = capsys.readouterr()
            assert (status == 130 or lost and status == 0) and corpus_files(folder) in (was, expected), (k, folder.name)
            assert not [p for p in tmp_path.rglob("*.part")] and (out != "") == (corpus_files(folder) == expected)
            if corpus_files(folder) == expected:
                for name, text in before.items():
                    (older / name).write_bytes(text)


def test_ctrl_c_in_vectors_leaves_no_expected_output_of_an_interrupted_run(tmp_path, capsys):
    vectors_at_seeded_moments(tmp_path, capsys, 12, 77)


@pytest.mark.slow
def test_ctrl_c_at_many_moments_of_vectors_leaves_no_corpus_or_a_whole_one(tmp_path, capsys):
    vectors_at_seeded_moments(tmp_path, capsys, 200, 78)


@pytest.mark.parametrize("options", [["--max-epochs", "6", "--json", "--save", "m.json", "--svg", "o.svg"],
                                     ["--epochs", "1", "--pocket", "--bias", "--save", "m.json", "--svg-steps",
                                      "steps"]])
def test_ctrl_c_at_any_moment_of_a_run_writes_all_its_outputs_or_none(tmp_path, capsys, options):
    (tmp_path / "data.csv").write_text(csv_of(noisy(78, n=12, d=2, flip=0.3)[0]))
    (tmp_path / "o.svg").write_text("the user's picture")
    argv = [str(tmp_path / "data.csv"), *[str(tmp_path / v) if v in ("m.json", "o.svg", "steps") else v
                                          for v in options]]
    finished = cli(capsys, *argv)[0]
    expected = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    expected_out = capsys.readouterr().out or cli(capsys, *argv)[1]

    def outputs():
        return {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    seeded = moments(lambda: P.main(argv), 25, 79)
    capsys.readouterr()
    for k in seeded:
        for p in tmp_path.rglob("*"):
            if p.is_file() and p.name not in ("data.csv", "o.svg") and p in expected:
                p.unlink()
        (tmp_path / "o.svg").write_text("the user's picture")
        if (tmp_path / "steps").exists():
            os.rmdir(tmp_path / "steps")
        status, _, lost, _ = ctrl_c_at(k, lambda: P.main(argv))
        out, _ = capsys.readouterr()
        assert status == 130 or lost and status == finished, k
        if outputs() == expected:  # Ctrl-C while the outputs were put in place: held until all were
            assert out == expected_out, k
        else:  # none of them: the user's picture as it was, and the report of the run so far, if any
            assert outputs() == {tmp_path / "data.csv": expected[tmp_path / "data.csv"],
                                 tmp_path / "o.svg": b"the user's picture"}, k
            assert "picture" not in out and (out == "" or "--json" not in options or json.loads(out)["interrupted"])


STARTING = """import runpy, signal, sys
script, k, signum = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
count = 0
def tracer(frame, event, arg):
    global count
    if event == "call" and frame.f_code.co_filename == script:
        count += 1
        if count == k:
            sys.settrace(None)
            signal.raise_signal(signum)
sys.settrace(tracer)
sys.argv = [script, "--version"]
try:
    runpy.run_path(script, run_name="__main__")
finally:
    if k == 0:
        print("calls:", count, file=sys.stderr)
"""


def test_a_signal_while_the_script_starts_is_its_status_not_a_traceback():
    # The script's own start (its module body, before main()) at seeded moments; the interpreter's start before
    # it (site, the compilation) is Python's, beyond any script.
    for k in sorted(random.Random(82).sample(range(2, 60), 4)):
        for signum, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            done = subprocess.run([sys.executable, "-c", STARTING, SCRIPT, str(k), str(int(signum))],
                                  capture_output=True, text=True, timeout=60,
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            assert (done.returncode, done.stdout, "Traceback" in done.stderr) == (status, "", False), (k, signum)


@pytest.mark.slow
def test_a_signal_at_every_call_of_the_scripts_start_is_its_status_not_a_traceback():
    # Every call of the script's module body and of main() to --version's end: the start's handlers, then main's,
    # which takes them over with no moment between.  Not the first two: the module's own call (Python's, before any
    # line) and, before Python 3.12, the comprehension that keeps the handlers found, before the start sets its own.
    calls = subprocess.run([sys.executable, "-c", STARTING, SCRIPT, "0", "0"], capture_output=True, text=True)
    total = int(re.search(r"calls: ([0-9]+)", calls.stderr).group(1))
    assert total > 60
    for k in range(3, total + 1):
        for signum, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
            done = subprocess.run([sys.executable, "-c", STARTING, SCRIPT, str(k), str(int(signum))],
                                  capture_output=True, text=True, timeout=60,
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            assert (done.returncode, "Traceback" in done.stderr) == (status, False), (k, signum, done.stderr)


# Ctrl-C at every call: at each call of a function of perceptron.py or kernels.py, a child is forked and takes the
# Ctrl-C there (through the handler in place, as from a terminal), while this process goes on uninterrupted; after
# each child the folder is put back as it was (hard links keep every file's inode, which open files refer to).
def tree_of(folder):
    """{relative path: (inode, whether a folder)} of everything under folder."""
    found = {}
    for root, folders, names in os.walk(folder):
        for name in folders + names:
            path = os.path.join(root, name)
            found[os.path.relpath(path, folder)] = (os.lstat(path).st_ino, name in folders)
    return found


def ctrl_c_at_every_call(call, verdict, folder):
    """(the number of calls of call(), what it returned, [(k, the function called, the problem)]): at the k-th call
    of every k, a forked child takes Ctrl-C, then verdict(what call() returned or the exception that left it) says
    what is wrong with what it left (None: nothing)."""
    parent, problems, k, links = os.getpid(), [], 0, {}
    backup = tempfile.mkdtemp(dir=os.path.dirname(folder))

    def tracer(frame, event, arg):
        nonlocal k
        if event != "call" or frame.f_code.co_filename not in TRACED:
            return None
        k += 1
        before = tree_of(folder)
        for path, (inode, is_folder) in before.items():
            if not is_folder and inode not in links:
                links[inode] = os.path.join(backup, str(inode))
                os.link(os.path.join(folder, path), links[inode])
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # takes Ctrl-C as its next instruction; what it leaves is said on fd `write` (verdict)
            sys.settrace(None)
            os.close(read)
            os.environ["PERCEPTRON_TEST_VERDICT_FD"] = str(write)
            signal.raise_signal(signal.SIGINT)
            return None
        os.close(write)
        status = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        with os.fdopen(read) as said:
            problem = said.read() or (f"the child ended with {status}" if status else "")
        if problem:
            problems.append((k, frame.f_code.co_name, problem))
        after = tree_of(folder)
        for path in sorted(set(after) - set(before), reverse=True):  # the deepest first
            full = os.path.join(folder, path)
            os.rmdir(full) if after[path][1] else os.unlink(full)
        for path in sorted(before):
            full = os.path.join(folder, path)
            if after.get(path) != before[path] and before[path][1]:
                os.makedirs(full, exist_ok=True)
            elif after.get(path) != before[path]:
                if os.path.lexists(full):
                    os.unlink(full)
                os.link(links[before[path][0]], full)
        return None
    returned = None
    gc.collect()
    sys.settrace(tracer)
    try:
        returned = call()
    except BaseException as err:  # the child's KeyboardInterrupt, if it leaves call()
        returned = err
    finally:
        sys.settrace(None)
    if os.getpid() != parent:  # the child: its verdict, and no more (never back into pytest)
        try:
            problem = verdict(returned) or ""
        except BaseException as err:
            problem = f"the verdict failed: {err!r}"
        finally:
            os.write(int(os.environ["PERCEPTRON_TEST_VERDICT_FD"]), problem.encode()[:4000] if problem else b"")
            os._exit(0)
    shutil.rmtree(backup)
    return k, returned, problems


every_call = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks a child at every call")


@pytest.mark.slow
@every_call
@pytest.mark.parametrize("older", [False, True], ids=["new-folder", "over-an-older-corpus"])
def test_ctrl_c_at_every_call_of_vectors_leaves_the_corpus_whole_as_it_was_or_absent(tmp_path, capsys, older):
    corpus = tmp_path / "corpus"
    assert cli(capsys, "--vectors", str(corpus))[0] == 0
    whole = corpus_files(corpus)
    if older:
        (corpus / "pocket.json").write_text("an older version's\n")
    else:
        shutil.rmtree(corpus)
    was = corpus_files(corpus)

    def verdict(status):
        left = corpus_files(corpus)
        if status != 130:
            return f"status {status!r}"
        if left not in (was, whole) or [p for p in tmp_path.rglob("*.part")]:
            return f"the corpus holds {sorted(left or ())[:3]}, not the one it had or a whole one"
        return None
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        calls, status, problems = ctrl_c_at_every_call(lambda: P.main(["--vectors", str(corpus)]), verdict,
                                                       str(tmp_path))
    assert status == 0 and corpus_files(corpus) == whole and calls > 10_000
    assert problems == [(1, "main", "status KeyboardInterrupt()")]  # at main's call, before its first line


@pytest.mark.slow
@every_call
def test_ctrl_c_at_every_call_of_a_pocket_run_is_130_with_its_run_so_far_or_its_whole_report(tmp_path):
    (tmp_path / "data.csv").write_text(csv_of(noisy(78, n=12, d=2, flip=0.3)[0]))
    argv = [str(tmp_path / "data.csv"), "--pocket", "--json", "--max-epochs", "6"]
    out = io.StringIO()

    def verdict(status):
        if status != 130:
            return f"status {status!r}"
        if out.getvalue():  # the run so far, or the whole run's report when Ctrl-C came as it was written
            doc = json.loads(out.getvalue())
            w = list(replay([list(map(int, line.split(",")[:2])) for line in
                             (tmp_path / "data.csv").read_text().splitlines()], [Mistake(m["epoch"], m["index"],
                             1 if m["y"] == 1 else -1, m["score"]) for m in doc["trace"]]))
            if doc["mistakes"] != len(doc["trace"]) or doc["weights"] != (w[-1] if w else [0, 0]):
                return "a report whose weights are not its trace's"
            if doc.get("pocket", {"mistakes": 0})["mistakes"] > doc["mistakes"]:
                return "a pocket from after the run so far"
        return None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        calls, status, problems = ctrl_c_at_every_call(lambda: P.main(argv), verdict, str(tmp_path))
    assert status == 1 and calls > 2000
    assert problems == [(1, "main", "status KeyboardInterrupt()")]


def ctrl_c_raised_at(k, call):
    """KeyboardInterrupt raised by the k-th call of perceptron.py's functions itself, not through a handler: at a
    moment where no signal handler could hold it (in a step, between an update and its trace entry).  (The count
    for k = 0, or where it was lost in a finalizer (Python only reports it); the KeyboardInterrupt otherwise.)"""
    count, hook = 0, sys.unraisablehook

    def tracer(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_filename in TRACED:
            count += 1
            if count == k:
                sys.settrace(None)
                raise KeyboardInterrupt
    sys.unraisablehook = lambda unraisable: None
    sys.settrace(tracer)
    try:
        call()
    except KeyboardInterrupt as stop:
        return stop
    finally:
        sys.settrace(None)
        sys.unraisablehook = hook
    return count


@pytest.mark.parametrize("fit", [
    lambda D: train(D, pocket=True, max_epochs=5),
    lambda D: train(iter(D), rule="margin", bias=True, pocket=True, max_epochs=4),
    lambda D: train(D, average="after", voted=True, epochs=3),
    lambda D: train(D, kernel=dot, pocket=True, voted=True, epochs=3),
    lambda D: P.train_multiclass([(x, str(y)) for x, y in D], update="joint", pocket=True, epochs=3),
    lambda D: P.train_multiclass([(x, str(y)) for x, y in D], pocket=True, voted=True, epochs=3)],
    ids=["pocket", "generator-margin-bias", "average-voted", "kernel", "joint", "one-vs-rest"])
def test_ctrl_c_raised_at_every_call_of_a_run_leaves_the_run_at_its_last_whole_step(fit):
    examples, _ = noisy(76, n=12, d=2, flip=0.3)
    for k in range(2, ctrl_c_raised_at(0, lambda: fit(examples)) + 1):  # from the first line of train
        stop = ctrl_c_raised_at(k, lambda: fit(examples))
        if not isinstance(stop, KeyboardInterrupt) or stop.run is None:  # lost; or before the learner existed
            continue
        run = stop.run
        assert run.mistakes == len(run.trace) == run.model.mistakes and not run.converged, k
        if run.multiclass is None:
            xs = [[*x, 1] if run.bias else x for x, _ in examples]
            assert run.w == (list(replay(xs, run.trace)) or [[0] * len(xs[0])])[-1], k  # the replay of its trace
        pocket = run.pocket if isinstance(run.pocket, dict) else {None: run.pocket}
        assert all(p is None or p.mistakes <= run.mistakes for p in pocket.values()), k
        votes = run.voted if isinstance(run.voted, dict) else {None: run.voted}
        assert all(v is None or len(v) == run.mistakes for v in votes.values() if run.multiclass is None), k


def test_a_gzip_file_is_read_as_the_csv_it_holds_from_a_file_or_standard_input(tmp_path, capsys):
    text = csv_of(noisy(92, n=30, d=3)[0])
    (tmp_path / "data.csv").write_text(text)
    (tmp_path / "data.csv.gz").write_bytes(gzip.compress(text.encode()))
    plain = cli(capsys, str(tmp_path / "data.csv"), "--json", "--pocket")
    assert cli(capsys, str(tmp_path / "data.csv.gz"), "--json", "--pocket") == (
        plain[0], plain[1].replace(str(tmp_path / "data.csv"), str(tmp_path / "data.csv.gz")), "")
    status, out, _ = cli_process("-", "--json", "--pocket", input=(tmp_path / "data.csv.gz").read_bytes())
    assert (status, out) == (plain[0], plain[1].replace(str(tmp_path / "data.csv"), "<stdin>"))


def test_save_says_what_it_wrote_as_svg_does(tmp_path, capsys):
    data = write(tmp_path, FOUR)
    status, out, _ = cli(capsys, data, "--save", str(tmp_path / "m.json"), "--svg", str(tmp_path / "o.svg"))
    assert status == 0 and out.endswith(f"picture: {tmp_path / 'o.svg'}\nmodel: {tmp_path / 'm.json'} (apply it with "
                                        "--model)\n")
    assert cli(capsys, data, "--save", str(tmp_path / "m.json"), "--quiet")[1].endswith(
        f"model: {tmp_path / 'm.json'} (apply it with --model)\n")


def test_a_save_through_a_link_loop_is_refused_before_any_work_and_the_links_stay(tmp_path, capsys):
    (tmp_path / "data.csv").write_text(FOUR)
    os.symlink("b.json", tmp_path / "a.json")
    os.symlink("a.json", tmp_path / "b.json")
    status, out, err = cli(capsys, str(tmp_path / "data.csv"), "--save", str(tmp_path / "a.json"))
    assert (status, out) == (2, "") and err == f"error: {tmp_path / 'a.json'}: cannot write: Too many levels of " \
                                              "symbolic links\n"
    with pytest.raises(PerceptronError, match="cannot write: Too many levels of symbolic links"):
        train(XOR, max_epochs=2).save(tmp_path / "b.json")
    assert [os.readlink(tmp_path / name) for name in ("a.json", "b.json")] == ["b.json", "a.json"]
    assert sorted(os.listdir(tmp_path)) == ["a.json", "b.json", "data.csv"]


def test_a_corpus_never_writes_through_a_link_to_outside_its_folder(tmp_path, capsys):
    corpus, outside = tmp_path / "corpus", tmp_path / "mine.txt"
    assert cli(capsys, "--vectors", str(corpus))[0] == 0
    whole = corpus_files(corpus)
    outside.write_text("the user's own file")
    (corpus / "pocket.json").unlink()
    os.symlink(outside, corpus / "pocket.json")  # an older corpus's case file, a link to a file outside it
    assert cli(capsys, "--vectors", str(corpus))[0] == 0
    assert outside.read_text() == "the user's own file" and corpus_files(corpus) == whole
    assert not (corpus / "pocket.json").is_symlink()


def test_a_limit_of_the_machine_is_one_line_and_status_2_not_an_internal_error(tmp_path, capsys, monkeypatch):
    (tmp_path / "data.csv").write_text(FOUR)
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()  # the working folder deleted under the command
    for argv in (["--save", "m.json"], ["--svg-steps", "steps"], ["--svg", "o.svg"]):
        assert cli(capsys, str(tmp_path / "data.csv"), *argv) == (2, "", "error: the working folder: No such file "
                                                                         "or directory\n")
    assert cli(capsys, "--vectors", "corpus") == (2, "", "error: the working folder: No such file or directory\n")
    monkeypatch.chdir(tmp_path)
    for limit, said in ((MemoryError(), "out of memory"), (OSError(24, "Too many open files"), "Too many open files"),
                        (OSError(24, "Too many open files", "data.csv"), "data.csv: Too many open files")):
        def exhausted(*args, **kwargs):
            raise limit
        with monkeypatch.context() as patched:
            patched.setattr(P, "train", exhausted)
            assert cli(capsys, "data.csv", "--save", "m.json") == (2, "", f"error: {said}\n")
        assert sorted(os.listdir(tmp_path)) == ["data.csv"]  # nothing half-written


# ===========================================================================
# 4. The command line
# ===========================================================================

# ---------------------------------------------------------------------------
# The module as a vendorable file, and its main job
# ---------------------------------------------------------------------------

def test_main_runs_the_embedded_example(capsys):
    assert P.main([]) == 0
    out = capsys.readouterr().out
    run = train(P.EXAMPLE)
    assert "rule:   sign: a mistake iff sign(w.x) != y, sign(0) = +1 (Columbia §1.1)" in out
    assert f"mistakes: {run.mistakes}\npasses: {run.epochs}, converged" in out
    assert "w  -6   3" in out and run.w == [-6, 3]
    assert "gamma^2 = 9/5 for w* = (-2, 1): 5 mistakes, at most R^2/gamma^2 = 10" in out
    assert run.mistakes <= mistake_bound(P.EXAMPLE, P.W_STAR) == 10
    rows = [line.split() for line in out.splitlines() if re.match(r" +[0-9]+ +[0-9]+ ", line)]
    assert [(int(r[0]), int(r[1])) for r in rows] == [(m.epoch, m.index) for m in run.trace]


def test_readme_command_line_example_is_the_real_output(tmp_path):
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    block = readme.split("```console\n", 1)[1].split("```", 1)[0].splitlines()
    printf, command = block[0][2:], block[1][2:]
    subprocess.run(printf, shell=True, cwd=tmp_path, check=True)
    argv = command.split()[2:]  # after "python3 perceptron.py"
    _, out, _ = cli_process(*argv, cwd=tmp_path)
    assert out.splitlines() == block[2:]


def test_the_three_banners_are_the_only_lines_that_open_a_part():
    # a reflowed comment that begins a line with "# Part I" reads, to the tools that measure the parts, as a banner
    source = open(P.__file__, encoding="utf-8").read().splitlines()
    opened = [line.split(":")[0] for line in source if re.match(r"#\s*Part (I{1,3})\b", line)]
    assert opened == ["# Part I", "# Part II", "# Part III"]


def test_all_is_sorted_and_complete():
    assert P.__all__ == sorted(P.__all__)
    assert all(hasattr(P, name) for name in P.__all__)


def test_perceptron_imports_only_the_standard_library_and_kernels_only_inside_kernel():
    tree = ast.parse(open(P.__file__, encoding="utf-8").read())

    def imported(nodes):
        names = {a.name.split(".")[0] for n in nodes if isinstance(n, ast.Import) for a in n.names}
        return names | {n.module.split(".")[0] for n in nodes if isinstance(n, ast.ImportFrom) and n.module}

    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
    importing_kernels = [f.name for f in functions if "kernels" in imported(ast.walk(f))]
    assert importing_kernels == ["_kernel_of"]  # the one function that reads --kernel, and never at load time
    names = imported(ast.walk(tree)) - {"kernels"}
    stdlib = getattr(sys, "stdlib_module_names", None)  # 3.10+
    if stdlib is not None:
        assert names <= set(stdlib)


@pytest.mark.parametrize("module", [P, kernels])
def test_no_two_definitions_of_a_module_share_a_name(module):
    # A second def of a name replaces the first for every caller, silently.
    tree = ast.parse(open(module.__file__, encoding="utf-8").read())
    names = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    assert sorted(name for name in set(names) if names.count(name) > 1) == []


def test_importing_perceptron_imports_no_kernels():
    done = subprocess.run([sys.executable, "-c", "import sys, perceptron; print('kernels' in sys.modules)"],
                          capture_output=True, text=True, cwd=HERE)
    assert done.stdout == "False\n"


# ---------------------------------------------------------------------------
# Reports and exit statuses
# ---------------------------------------------------------------------------

def test_cli_exits_1_when_passes_until_convergence_stop_at_max_epochs(capsys, tmp_path):
    path = write(tmp_path, "0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")
    status, out, _ = cli(capsys, path, "--bias", "--max-epochs", "9")
    assert status == 1 and "passes: 9, not converged: stopped at --max-epochs 9" in out
    assert cli(capsys, path, "--bias", "--epochs", "9")[0] == 0  # the passes asked for were made


def test_cli_epochs_one_is_one_online_pass(capsys, tmp_path):
    status, doc = cli_json(capsys, write(tmp_path, EMBEDDED_CSV), "--epochs", "1")
    assert status == 0 and doc["epochs"] == 1 and doc["converged"] is False
    assert doc["trace"] == [{"epoch": 1, "index": m.index, "line": m.index + 2, "y": m.y, "score": m.score}
                            for m in train(P.EXAMPLE, epochs=1).trace]


def test_cli_pocket_reports_the_pocket(capsys, tmp_path):
    examples, _ = noisy(3, n=30, flip=0.3)
    path = write(tmp_path, "".join(f"{x[0]},{x[1]},{x[2]},{y}\n" for x, y in examples))
    status, doc = cli_json(capsys, path, "--pocket", "--max-epochs", "10")
    run = train(examples, pocket=True, max_epochs=10)
    assert doc["pocket"] == {"weights": run.pocket.w, "errors": run.pocket.errors, "mistakes": run.pocket.mistakes}
    assert status == (0 if run.converged else 1)


def test_cli_w_star_prints_and_checks_the_bound(capsys, tmp_path):
    path = write(tmp_path, EMBEDDED_CSV)
    status, doc = cli_json(capsys, path, "--w-star=-2,1")
    assert doc["bound"] == {"w_star": [-2, 1], "radius_squared": 18, "margin_squared": "9/5",
                            "bound": "10/1", "holds": True}
    status, out, _ = cli(capsys, path, "--w-star=-2,1,0", "--bias", "--quiet")
    run = train(P.EXAMPLE, bias=True)  # the bias feature makes R^2 = 18 + 1
    assert out.splitlines()[-1] == (f"bound: R^2 = 19, gamma^2 = 9/5 for w* = (-2, 1, 0): {run.mistakes} mistakes, "
                                    "at most R^2/gamma^2 = 95/9")
    status, _, err = cli(capsys, path, "--w-star=1,1")
    assert status == 2 and err == f"error: {path}:2: w_star does not strictly separate the examples: y w*.x = -6 <= 0\n"



def test_cli_w_star_is_read_where_the_run_reads_its_bias(capsys, tmp_path):
    # --bias-first and --bias-feature=-1 read (1, x) and (x, -1): w* is in the run's own order, its bound the run's
    path = write(tmp_path, EMBEDDED_CSV)
    status, doc = cli_json(capsys, path, "--bias", "--bias-first", "--w-star=0,-2,1")
    assert status == 0 and doc["bound"]["margin_squared"] == "9/5" and doc["bound"]["holds"] is True
    status, doc = cli_json(capsys, path, "--bias", "--bias-feature=-1", "--w-star=-2,1,1")
    assert status == 0 and doc["bound"]["margin_squared"] == "3/2"  # min y w*.(x, -1) = 3, w*.w* = 6
    run = train(P.EXAMPLE, bias=True, bias_first=True)
    assert "(1) at M = 1: w.w* = " in run.explain(P.EXAMPLE, w_star=[0, -2, 1])


def test_cli_weights_after_each_mistake_only_for_small_d_or_when_asked(capsys, tmp_path):
    examples, _ = separable(5, n=15, d=9)
    path = write(tmp_path, "".join(",".join(map(str, x)) + f",{y}\n" for x, y in examples))
    _, out, _ = cli(capsys, path)
    assert "w after" not in out.splitlines()[5]
    _, out, _ = cli(capsys, path, "--weights")
    assert "w after" in out.splitlines()[5]
    run = train(examples)
    last = out.splitlines()[5 + run.mistakes]
    assert last.endswith(P._num(run.w))


def test_cli_quiet_prints_only_the_summary(capsys):
    _, out, _ = cli(capsys, "--quiet")
    assert out.splitlines()[0] == "   x1  x2" and "pass  index" not in out and "mistakes: 5" in out


def test_cli_multiclass_orders_classes_by_first_appearance(capsys, tmp_path):
    path = write(tmp_path, "a,b,class\n1,0,cat\n0,1,dog\n-1,-1,eel\n1,0,cat\n")
    examples = [([1, 0], "cat"), ([0, 1], "dog"), ([-1, -1], "eel"), ([1, 0], "cat")]
    status, doc = cli_json(capsys, path, "--multiclass", "joint")
    run = P.train_multiclass(examples, update="joint")
    assert status == 0 and list(doc["weights"]) == ["cat", "dog", "eel"] and doc["multiclass"] == "joint"
    assert doc["weights"] == run.w and doc["trace"][0] == {"epoch": 1, "index": 1, "line": 3, "y": "dog",
                                                           "predicted": "cat"}
    status, doc = cli_json(capsys, path, "--multiclass", "--rule", "margin")
    run = P.train_multiclass(examples, rule="margin")
    assert doc["weights"] == run.w and doc["multiclass"] == "one-vs-rest" and doc["rule"] == "margin"
    assert doc["trace"][0] == {"class": "cat", "epoch": 1, "index": 0, "line": 2, "y": 1, "score": 0}
    status, out, _ = cli(capsys, path, "--multiclass")
    assert "w(dog)" in out and "multiclass: one-vs-rest" in out


def test_cli_average_voted_and_training_errors_are_the_apis(capsys, tmp_path):
    examples, _ = noisy(53, n=25, d=2)
    path = write(tmp_path, "".join(f"{x[0]},{x[1]},{y}\n" for x, y in examples))
    status, doc = cli_json(capsys, path, "--epochs", "4", "--bias", "--average", "before", "--voted", "--pocket")
    run = train(examples, epochs=4, bias=True, average="before", voted=True, pocket=True)
    assert doc["average"] == {"convention": "before", "weights": [f"{v.numerator}/{v.denominator}"
                                                                   for v in run.average], "examples": 100}
    assert doc["voted"] == [{"weights": v, "count": c} for v, c in run.voted]
    assert doc["training_errors"] == {name: run.errors(examples, name) for name in ("w", "pocket", "average", "voted")}
    _, out, _ = cli(capsys, path, "--epochs", "4", "--bias", "--average", "after", "--quiet")
    assert "averaged over 100 examples (4 passes)" in out and "training errors: w " in out


def test_cli_text_trace_is_bounded_and_a_stop_at_the_bound_says_what_to_try(capsys, tmp_path):
    examples, _ = noisy(61, n=40, d=2, flip=0.4)
    path = write(tmp_path, "".join(f"{x[0]},{x[1]},{y}\n" for x, y in examples))
    run = train(examples, max_epochs=6)
    status, out, _ = cli(capsys, path, "--max-epochs", "6")
    rows = [line for line in out.splitlines() if re.match(r" +[0-9]+ +[0-9]+ ", line)]
    assert status == 1 and run.mistakes > 25 and len(rows) == 25
    assert f"... {run.mistakes - 25:,} more mistakes ('--trace all' shows them)" in out
    assert f"training errors: w {run.errors(examples)} (of 40)" in out and "--pocket keeps the weights" in out
    _, out, _ = cli(capsys, path, "--max-epochs", "6", "--trace", "all")
    assert len([line for line in out.splitlines() if re.match(r" +[0-9]+ +[0-9]+ ", line)]) == run.mistakes
    assert len(cli_json(capsys, path, "--max-epochs", "6")[1]["trace"]) == run.mistakes


class Terminal(io.StringIO):
    def isatty(self):
        return True


@NO_TRACEMALLOC
def test_the_default_reports_memory_does_not_grow_with_the_passes(tmp_path):
    # The text report keeps the first 20 and the last 5 mistakes it prints, not every mistake and w after it
    path = write(tmp_path, csv_of(noisy(94, n=1000, d=3, flip=0.3)[0]))

    def peak(passes):
        tracemalloc.start()
        with contextlib.redirect_stdout(io.StringIO()) as out:
            status = P.main([path, "--epochs", str(passes)])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert status == 0 and f"more mistakes ('--trace all' shows them)" in out.getvalue()
        return peak
    few, many = peak(3), peak(30)  # some 1,000 mistakes, and 10,000
    assert many < few + (100 << 10)


def test_progress_on_a_terminal_counts_the_examples_read_and_the_bias_hints_passes(tmp_path, monkeypatch):
    clock = iter(range(0, 10**6, 7))
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    path = write(tmp_path, csv_of([([x[0] + 20, x[1] + 20], y) for x, y in separable(95, n=9000, d=2)[0]]))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with contextlib.redirect_stdout(io.StringIO()):
        assert P.main([path, "--quiet", "--max-epochs", "3"]) == 1
    assert f"{path}: 8,192 examples read" in terminal.getvalue() and "with --bias: pass 1, " in terminal.getvalue()


def test_progress_on_a_terminal_counts_the_mistakes(capsys, tmp_path, monkeypatch):
    clock = iter(range(0, 10**6, 7))
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    examples, _ = noisy(3, n=60, d=3, flip=0.3)
    path = write(tmp_path, csv_of(examples))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert P.main([path, "--max-epochs", "20", "--quiet"]) == 1
    assert "mistakes so far" in terminal.getvalue()


def test_cli_an_ascii_only_output_gets_ascii_forms(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    (tmp_path / "data.csv").write_bytes("é,b,y\n1,2,1\n".encode())
    status, out, err = cli_process("data.csv", cwd=tmp_path, env=env, timeout=30, text=False)
    assert (status, err) == (0, b"") and "(Columbia sec. 1.1)" in out.decode("ascii") and "\\xe9" in out.decode()
    status, out, err = cli_process("data.csv", "--json", cwd=tmp_path, env=env, timeout=30, text=False)
    assert status == 0 and json.loads(out.decode("ascii"))["features"] == ["é", "b"]


def test_an_internal_error_is_one_line_with_its_own_status(capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("a bug")
    monkeypatch.setattr(P, "_MODES", ((None, broken),))
    assert P.main([]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err == "error: internal error (please report it): RuntimeError: a bug\n"


# ---------------------------------------------------------------------------
# JSON: the API's numbers, exactly, and w after each mistake the learner's own
# ---------------------------------------------------------------------------

def test_cli_json_weights_and_trace_are_the_apis(capsys, tmp_path):
    path = write(tmp_path, EMBEDDED_CSV)
    status, doc = cli_json(capsys, path, "--rule", "margin", "--bias")
    run = train(P.EXAMPLE, rule="margin", bias=True)
    assert status == 0 and doc["weights"] == run.w and doc["features"] == ["x1", "x2"]
    assert doc["trace"] == [{"epoch": m.epoch, "index": m.index, "line": m.index + 2, "y": m.y, "score": m.score}
                            for m in run.trace]
    assert (doc["rule"], doc["bias"], doc["labels"], doc["kernel"]) == ("margin", True, [-1, 1], None)
    assert (doc["mistakes"], doc["epochs"], doc["converged"]) == (run.mistakes, run.epochs, True)


def test_cli_exact_reads_decimals_as_fractions_and_round_trips(capsys, tmp_path):
    path = write(tmp_path, "0.1,2/3,1\n-0.25,1e-2,-1\n0.3,-1/3,-1\n")
    status, doc = cli_json(capsys, path, "--exact", "--no-header")
    examples = [([Fraction(1, 10), Fraction(2, 3)], 1), ([Fraction(-1, 4), Fraction(1, 100)], -1),
                ([Fraction(3, 10), Fraction(-1, 3)], -1)]
    run = train(examples)
    assert [exact(v) for v in doc["weights"]] == run.w and all(type(v) is Fraction for v in run.w)
    assert all(isinstance(v, str) and "/" in v for v in doc["weights"])
    assert [exact(m["score"]) for m in doc["trace"]] == [m.score for m in run.trace]


def test_cli_floats_round_trip_to_the_same_bits(capsys, tmp_path):
    rng = random.Random(8)
    rows = [[repr(rng.uniform(-1, 1) * 10 ** rng.randint(-5, 5)) for _ in range(3)] + [rng.choice(["-1", "1"])]
            for _ in range(30)]
    path = write(tmp_path, "".join(",".join(r) + "\n" for r in rows))
    _, doc = cli_json(capsys, path, "--max-epochs", "7")
    run = train([([float(v) for v in r[:3]], int(r[3])) for r in rows], max_epochs=7)
    assert doc["weights"] == run.w and [m["score"] for m in doc["trace"]] == [m.score for m in run.trace]


def test_cli_writes_ints_of_any_size_it_accepted(tmp_path, capsys):
    limit = getattr(sys, "get_int_max_str_digits", lambda: None)()
    if limit is not None:  # a Python reader of such JSON must lift int <-> str's limit too
        sys.set_int_max_str_digits(0)
    try:
        check_big_ints(tmp_path, capsys)
    finally:
        if limit is not None:
            sys.set_int_max_str_digits(limit)


def check_big_ints(tmp_path, capsys):
    big = "9" * 4300
    doc = cli_json(capsys, write(tmp_path, f"{big},1,1\n-{big},-1,-1\n1,{big},-1\n"), "--rule", "margin")[1]
    run = train([([int(big), 1], 1), ([-int(big), -1], -1), ([1, int(big)], -1)], rule="margin")
    assert doc["weights"] == run.w and [m["score"] for m in doc["trace"]] == [m.score for m in run.trace]
    assert any(abs(m.score) >= 10**4300 for m in run.trace)  # 4,301 digits: beyond int <-> str's own limit


def test_cli_json_is_byte_identical_under_any_hash_seed(tmp_path):
    path = write(tmp_path, "a,b,class\n1,0,cat\n0,1,dog\n-1,-1,eel\n")
    outputs = set()
    for seed in ("0", "1", "12345", "random"):
        for argv in (["--json"], [path, "--json", "--multiclass"], ["--json", "--pocket", "--bias"]):
            env = dict(os.environ, PYTHONHASHSEED=seed)
            status, out, _ = cli_process(*argv, env=env, text=False)
            assert status == 0
            outputs.add((tuple(argv), out))
    assert len(outputs) == 3


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("rule", RULES)
def test_json_weights_after_each_mistake_are_the_learners_own(capsys, tmp_path, rule, bias):
    for seed in range(6):
        examples, _ = noisy(seed, n=25, d=3, flip=0.1)
        path = write(tmp_path, csv_of(examples))
        options = ["--rule", rule, "--max-epochs", "5", "--weights"] + (["--bias"] if bias else [])
        _, doc = cli_json(capsys, path, *options)
        run = train(examples, rule=rule, bias=bias, max_epochs=5)
        expected = list(replay([with_bias(x) if bias else x for x, _ in examples], run.trace))
        assert [entry["weights"] for entry in doc["trace"]] == expected
        assert expected[-1] == run.w


def test_json_weights_of_both_multiclass_updates(capsys, tmp_path):
    path = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n")
    _, joint = cli_json(capsys, path, "--multiclass", "joint", "--weights")
    assert joint["trace"][-1]["weights"] == joint["weights"]
    _, ovr = cli_json(capsys, path, "--multiclass", "--weights")
    for c, w in ovr["weights"].items():
        mine = [entry["weights"] for entry in ovr["trace"] if entry["class"] == c]
        assert mine[-1] == w


# ---------------------------------------------------------------------------
# Labels and real CSV files: label names, pandas' index column, other separators
# ---------------------------------------------------------------------------

def test_cli_labels_zero_one_give_the_weights_of_minus_one_one(capsys, tmp_path):
    plus_minus = write(tmp_path, "x,y\n1,2,1\n-2,1,-1\n0,-3,-1\n2,2,1\n".replace("x,y", "a,b,y"), "pm.csv")
    zero_one = write(tmp_path, "a,b,y\n1,2,1\n-2,1,0\n0,-3,0\n2,2,1\n", "zo.csv")
    _, a = cli_json(capsys, plus_minus)
    _, b = cli_json(capsys, zero_one, "--labels=0,1")
    assert a["weights"] == b["weights"] and a["mistakes"] == b["mistakes"]
    assert b["labels"] == [0, 1] and {m["y"] for m in b["trace"]} <= {0, 1}
    assert [m["y"] for m in a["trace"]] == [2 * m["y"] - 1 for m in b["trace"]]


def test_cli_labels_by_name_give_the_run_of_minus_one_and_one(capsys, tmp_path):
    examples, _ = noisy(60, n=20, d=2)
    named = write(tmp_path, "a,b,diagnosis\n" + "".join(f"{x[0]},{x[1]},{'M' if y == 1 else 'B'}\n"
                                                        for x, y in examples), "bm.csv")
    status, doc = cli_json(capsys, named, "--labels=B,M", "--max-epochs", "5")
    run = train(examples, max_epochs=5)
    assert doc["weights"] == run.w and doc["labels"] == ["B", "M"]
    assert [(m["index"], m["y"]) for m in doc["trace"]] == [(m.index, "M" if m.y == 1 else "B") for m in run.trace]
    status, _, err = cli(capsys, named)
    assert status == 2 and re.fullmatch(f"error: {re.escape(named)}:2: column 3: label '[BM]' is not -1 or 1: labels B "
                                        r"and M are read with --labels=B,M\n", err)


def test_cli_label_column_zero_based_or_negative(capsys, tmp_path):
    first = write(tmp_path, "y,a,b\n1,1,2\n-1,-2,1\n", "first.csv")
    last = write(tmp_path, "a,b,y\n1,2,1\n-2,1,-1\n", "last.csv")
    _, a = cli_json(capsys, first, "--label-column", "0")
    _, b = cli_json(capsys, last, "--label-column", "-1")
    _, c = cli_json(capsys, first, "--label-column=-3")
    assert a["weights"] == b["weights"] == c["weights"] and a["features"] == ["a", "b"]


def test_cli_blank_lines_are_skipped_and_lines_are_the_files(capsys, tmp_path):
    path = write(tmp_path, "a,b,y\n\n1,1,-1\n   \n2,-1,-1\n")
    _, doc = cli_json(capsys, path)
    assert [m["line"] for m in doc["trace"]] == [3] and doc["examples"] == 2


def test_cli_no_header_reads_a_numeric_first_row(capsys, tmp_path):
    path = write(tmp_path, "1,1,-1\n2,-1,1\n")
    _, with_detection = cli_json(capsys, path)
    _, without = cli_json(capsys, path, "--no-header")
    assert with_detection == without and without["features"] is None and without["examples"] == 2


def test_cli_multiclass_a_first_row_that_names_classes_that_are_numbers_is_a_header(capsys, tmp_path):
    # pandas' integer column names over a numbered target: "0,1,target" was an example of a class 'target'
    path = write(tmp_path, "0,1,target\n1,2,0\n-1,-2,1\n3,1,0\n")
    status, doc = cli_json(capsys, path, "--multiclass")
    assert (status, doc["examples"], doc["features"], list(doc["weights"])) == (0, 3, ["0", "1"], ["0", "1"])
    names = write(tmp_path, "1,2,a\n-1,-2,b\n3,1,a\n", "named.csv")  # classes that are names: data, as before
    status, doc = cli_json(capsys, names, "--multiclass")
    assert (status, doc["examples"], doc["features"], list(doc["weights"])) == (0, 3, None, ["a", "b"])


def test_cli_test_of_a_file_with_no_labels_gives_predictions_only(capsys, tmp_path):
    # --test read FILE2's last column as its labels: 'label '2' is not -1 or 1: labels -2 and 2 are read with ...'
    data, unlabeled = write(tmp_path, FOUR), write(tmp_path, "a,b\n1,2\n-1,-2\n", "new.csv")
    status, doc = cli_json(capsys, data, "--test", unlabeled)
    assert (status, doc["test"]) == (0, {"examples": 2, "predictor": "w", "errors": None, "predictions": [1, -1]})
    status, out, err = cli(capsys, data, "--test", unlabeled)
    assert (status, err) == (0, "") and "test: " + unlabeled + ": 2 examples, no labels: predictions only (--json)" in out


def test_cli_a_dropped_column_of_text_does_not_make_the_first_row_a_header(capsys, tmp_path):
    # the first row's id was read as a header's cell: the first example silently lost, its numbers the features' names
    path = write(tmp_path, "id7,1,2,1\nid8,-1,-2,-1\nid9,3,1,1\n")
    status, doc = cli_json(capsys, path, "--drop-column", "0")
    assert (status, doc["examples"], doc["features"]) == (0, 3, None)


def test_cli_a_first_row_whose_label_is_not_one_of_the_names_is_a_header(capsys, tmp_path):
    # pandas' integer column names: "0,1,target" was read as data, and refused with a hint to --multiclass
    path = write(tmp_path, "0,1,target\n1,2,B\n-1,-2,M\n")
    status, doc = cli_json(capsys, path, "--labels=M,B")
    assert (status, doc["examples"], doc["features"]) == (0, 2, ["0", "1"])
    assert doc["weights"] == train([([1, 2], 1), ([-1, -2], -1)]).w


def test_cli_reads_standard_input(tmp_path):
    status, out, _ = cli_process("-", "--json", input=EMBEDDED_CSV)
    doc = json.loads(out)
    assert status == 0 and doc["input"] == "<stdin>" and doc["weights"] == [-6, 3]


def test_cli_refuses_pandas_row_index_and_drops_it_when_asked(capsys, tmp_path):
    path = write(tmp_path, ",a,b,y\n0,1,2,1\n1,-1,-2,-1\n2,3,1,1\n", "pandas.csv")
    status, _, err = cli(capsys, path)
    assert status == 2 and "it is the row index pandas writes" in err and "--drop-column 0" in err
    status, doc = cli_json(capsys, path, "--drop-column", "0")
    assert doc["features"] == ["a", "b"] and doc["weights"] == train([([1, 2], 1), ([-1, -2], -1), ([3, 1], 1)]).w


@pytest.mark.parametrize("text, option, name", [("a;b;y\n1;2;1\n", ";", "';'"), ("a\tb\ty\n1\t2\t1\n", "tab", "tab")])
def test_cli_names_another_separator_and_reads_it_with_delimiter(capsys, tmp_path, text, option, name):
    path = write(tmp_path, text)
    status, _, err = cli(capsys, path)
    assert status == 2 and err.endswith(f"read it with --delimiter {name}\n")
    status, doc = cli_json(capsys, path, "--delimiter", option)
    assert status == 0 and doc["features"] == ["a", "b"]


def test_cli_a_byte_order_mark_is_a_mark_not_data(tmp_path, capsys):
    plain = cli_json(capsys, write(tmp_path, FOUR, "plain.csv"))[1]
    (tmp_path / "bom.csv").write_bytes(b"\xef\xbb\xbf" + FOUR.encode())
    marked = cli_json(capsys, str(tmp_path / "bom.csv"))[1]
    assert marked["examples"] == 4 and (marked["weights"], marked["trace"]) == (plain["weights"], plain["trace"])
    (tmp_path / "head.csv").write_bytes(b"\xef\xbb\xbfa,b,y\n" + FOUR.encode())
    assert cli_json(capsys, str(tmp_path / "head.csv"))[1]["features"] == ["a", "b"]


def test_a_file_with_cr_line_ends_is_read_as_lines(capsys, tmp_path):
    for end in ("\r", "\r\n", "\n"):
        (tmp_path / "d.csv").write_bytes(("x1,x2,y" + end + FOUR.replace("\n", end)).encode())
        status, doc = cli_json(capsys, str(tmp_path / "d.csv"))
        assert status == 0 and doc["examples"] == 4 and [m["line"] for m in doc["trace"]] == [3]


@pytest.mark.slow
@NO_TRACEMALLOC
def test_cli_one_pass_streams_the_file_in_constant_memory(tmp_path):
    rng = random.Random(4)
    with open(tmp_path / "long.csv", "w") as f:
        for _ in range(60000):
            x = [rng.randint(-9, 9) for _ in range(4)]
            f.write(",".join(map(str, x)) + f",{1 if x[0] - 2 * x[1] + x[3] >= 0 else -1}\n")

    def peak(*argv):
        tracemalloc.start()
        with contextlib.redirect_stdout(io.StringIO()):
            status = P.main([str(tmp_path / "long.csv"), *argv])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert status == 0
        return peak

    streamed, kept = peak("--epochs", "1", "--quiet"), peak("--epochs", "2", "--quiet")
    assert streamed < 1 << 20 < 8 * (1 << 20) < kept  # under 1 MiB, where keeping 60,000 examples takes more


# ---------------------------------------------------------------------------
# A trained model in use: --test on held-out data, --model to apply a saved run
# ---------------------------------------------------------------------------

def held_out(tmp_path, seed, name):
    examples, _ = noisy(seed, n=30, d=2, flip=0.1)
    path = write(tmp_path, "a,b,y\n" + "".join(f"{x[0]},{x[1]},{'M' if y == 1 else 'B'}\n" for x, y in examples),
                 name)
    return examples, path


@pytest.mark.parametrize("update", [None, "one-vs-rest", "joint"])
def test_cli_test_counts_are_recomputed_and_model_gives_the_runs_predictions(capsys, tmp_path, update):
    train_examples, train_path = held_out(tmp_path, 70, "train.csv")
    test_examples, test_path = held_out(tmp_path, 71, "test.csv")
    options = ["--multiclass", update] if update else ["--labels=B,M", "--bias", "--pocket", "--average", "after"]
    status, doc = cli_json(capsys, train_path, *options, "--max-epochs", "7", "--test", test_path)
    if update:
        named = [(x, "M" if y == 1 else "B") for x, y in train_examples]
        run = P.train_multiclass(named, update=update, max_epochs=7)
        truth = [(x, "M" if y == 1 else "B") for x, y in test_examples]
        expected = {"w": sum(1 for x, y in truth if run.predict(x) != y)}
        predictions = [run.predict(x) for x, _ in truth]
    else:
        run = train(train_examples, bias=True, pocket=True, average="after", max_epochs=7)
        expected = {name: sum(1 for x, y in test_examples if sign(dot(with_bias(x), w)) != y)
                    for name, w in (("w", run.w), ("pocket", run.pocket.w), ("average", run.average))}
        predictions = ["M" if run.predict(x) == 1 else "B" for x, _ in test_examples]
    assert doc["test"] == {"examples": 30, "errors": expected, "predictor": "w", "predictions": predictions}
    (tmp_path / "run.json").write_text(json.dumps(doc))
    status, applied = cli_json(capsys, test_path, "--model", str(tmp_path / "run.json"))
    assert status == 0 and applied["test"] == doc["test"]


PREDICTORS = ["w", "pocket", "average", "voted"]


def bm_file(tmp_path, seed, name, labeled=True, n=40, d=3):
    """A CSV with a header, its labels B and M (or none): (examples as -1/+1, path)."""
    examples, _ = noisy(seed, n=n, d=d, flip=0.1)
    rows = [",".join(map(str, x)) + (f",{'M' if y == 1 else 'B'}" if labeled else "") for x, y in examples]
    header = ",".join(f"f{k}" for k in range(d)) + (",diagnosis" if labeled else "")
    return examples, write(tmp_path, header + "\n" + "\n".join(rows) + "\n", name)


@pytest.mark.parametrize("predictor", PREDICTORS)
def test_a_saved_model_predicts_a_file_with_or_without_labels_as_run_predict(capsys, tmp_path, predictor):
    examples, train_path = bm_file(tmp_path, 90, "train.csv")
    new, new_path = bm_file(tmp_path, 91, "new.csv", labeled=False)
    _, labeled_path = bm_file(tmp_path, 91, "labeled.csv")
    options = ["--labels=B,M", "--bias", "--pocket", "--average", "before", "--voted", "--max-epochs", "9"]
    model = str(tmp_path / "model.json")
    assert cli(capsys, train_path, *options, "--save", model, "--quiet")[2] == ""
    run = train([(x, "M" if y == 1 else "B") for x, y in examples], bias=True, pocket=True, average="before",
                voted=True, max_epochs=9)
    X, truth = [x for x, _ in new], [(x, "M" if y == 1 else "B") for x, y in new]
    expected = run.predictions(X, predictor)
    assert cli(capsys, new_path, "--model", model, "--predictor", predictor) == (0, "".join(f"{p}\n" for p in expected), "")
    _, doc = cli_json(capsys, new_path, "--model", model, "--predictor", predictor)
    assert doc["test"] == {"examples": 40, "predictor": predictor, "errors": None, "predictions": expected}
    _, doc = cli_json(capsys, labeled_path, "--model", model, "--predictor", predictor)  # with labels: errors too
    errors = {p: run.errors(truth, p) for p in PREDICTORS}
    assert doc["test"] == {"examples": 40, "predictor": predictor, "errors": errors, "predictions": expected}
    _, trained = cli_json(capsys, train_path, *options, "--test", labeled_path, "--predictor", predictor)
    assert trained["test"] == doc["test"]  # --test, in the run that trains, alike


def test_a_saved_model_is_kilobytes_and_holds_no_history(capsys, tmp_path):
    examples, _ = noisy(92, n=500, d=10, flip=0.05)
    path = write(tmp_path, csv_of(examples))
    model, whole = tmp_path / "model.json", tmp_path / "run.json"
    options = ["--bias", "--pocket", "--average", "after", "--max-epochs", "30"]
    cli(capsys, path, *options, "--save", str(model), "--quiet")
    status, out, _ = cli(capsys, path, *options, "--json")
    whole.write_text(out)
    doc = json.loads(model.read_text())
    assert model.stat().st_size < 4096 < whole.stat().st_size and "trace" not in doc
    assert doc["format"] == "perceptron-model/2" and doc["perceptron"] == P.__version__
    for predictor in ("w", "pocket", "average"):  # the model applies as the whole run does
        assert cli(capsys, path, "--model", str(model), "--predictor", predictor) == \
            cli(capsys, path, "--model", str(whole), "--predictor", predictor)


@pytest.mark.parametrize("voted", [False, True])
def test_a_kernel_model_is_saved_with_its_stored_examples_and_applied(capsys, tmp_path, voted):
    examples = [([0, 0], -1), ([1, 1], -1), ([0, 1], 1), ([1, 0], 1), ([2, 2], -1), ([2, 0], 1)]  # XOR-like
    path = write(tmp_path, csv_of(examples))
    model = str(tmp_path / "model.json")
    options = ["--kernel", "polynomial:2", "--max-epochs", "50"] + (["--voted"] if voted else [])
    cli(capsys, path, *options, "--save", model, "--quiet")
    run = train(examples, kernel=kernels.polynomial(2), max_epochs=50, voted=voted)
    new = [[0, 2], [3, 1], [1, 2], [-1, 0]]
    new_path = write(tmp_path, "".join(f"{a},{b}\n" for a, b in new), "new.csv")
    predictor = "voted" if voted else "w"
    status, out, err = cli(capsys, new_path, "--model", model, "--predictor", predictor, "--no-header")
    assert (status, err) == (0, "") and out.split() == [str(run.predict(x, predictor)) for x in new]
    assert len(json.loads(open(model).read())["stored"]) == len(run.model.stored)


def test_a_kernel_run_s_pocket_is_its_dual_after_so_many_mistakes_and_is_saved_and_applied(capsys, tmp_path):
    examples = [([0, 0], -1), ([0, 1], 1), ([1, 0], 1), ([1, 1], -1), ([2, 0], 1), ([0, 2], -1)]
    run = train(examples, kernel=kernels.polynomial(2), bias=True, pocket=True, max_epochs=4)
    k = run.pocket.mistakes
    prefix = DualPerceptron(kernels.polynomial(2), bias=True)
    prefix.stored, prefix.d = run.model.stored[:k], 2
    X = [x for x, _ in examples]
    assert run.predictions(X, "pocket") == [prefix.predict(x) for x in X]
    assert run.errors(examples, "pocket") == run.pocket.errors
    path, model = write(tmp_path, csv_of(examples)), str(tmp_path / "model.json")
    cli(capsys, path, "--kernel", "polynomial:2", "--bias", "--pocket", "--max-epochs", "4", "--save", model,
        "--quiet")
    assert json.loads(open(model).read())["pocket"] == {"weights": None, "errors": run.pocket.errors, "mistakes": k}
    status, out, err = cli(capsys, path, "--model", model, "--predictor", "pocket")
    assert (status, out.split()) == (0, [str(prefix.predict(x)) for x in X])


@pytest.mark.parametrize("change, said", [
    (lambda text: text.replace('"weights"', '"weights": [6, -1, 2], "weights"', 1),
     "not a model (--save) or a run (--json): the key 'weights' appears twice in one object"),
    (lambda text: text.replace('"features": ["x1", "x2"]', '"features": ["a", "b", "c"]'),
     "features: ['a', 'b', 'c'] is not 2 column names, or null"),
    (lambda text: text.replace('"perceptron-model/2"', '"perceptron-model/1"'),
     "format: 'perceptron-model/1': this version reads perceptron-model/2; save the model again"),
    (lambda text: text.replace('"weights"', '"stored": [[1, 2, 1, 1]], "weights"'),
     "stored: a model that is not a kernel model has none: null"),
])
def test_a_model_whose_fields_say_more_than_is_read_is_refused(capsys, tmp_path, change, said):
    path, model = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n"), tmp_path / "model.json"
    cli(capsys, path, "--bias", "--save", str(model), "--quiet")
    model.write_text(change(model.read_text()))
    assert cli(capsys, path, "--model", str(model)) == (2, "", f"error: {model}: {said}\n")


def test_a_file_whose_columns_are_the_model_s_in_another_order_is_refused(capsys, tmp_path):
    path, model = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n"), str(tmp_path / "model.json")
    cli(capsys, path, "--bias", "--save", model, "--quiet")
    swapped, renamed = write(tmp_path, "x2,x1\n3,1\n", "swapped.csv"), write(tmp_path, "a,b\n3,1\n", "renamed.csv")
    status, out, err = cli(capsys, swapped, "--model", model)
    assert (status, out) == (2, "") and "are the model's features ['x1', 'x2'] in another order" in err
    assert cli(capsys, path, "--bias", "--test", swapped, "--quiet")[0] == 2
    status, out, err = cli(capsys, renamed, "--model", model)  # other names: applied by position, and said so
    assert (status, out) == (0, "-1\n") and err.startswith("note: ") and "applied by position" in err


@pytest.mark.parametrize("labels, said", [
    ((0, 1), "labels 0 and 1 are read with --labels=0,1"),
    (("False", "True"), "labels False and True are read with --labels=False,True"),
    (("B", "M"), "labels B and M are read with --labels=B,M"),
])
def test_cli_labels_other_than_minus_one_and_one_hint_the_option_that_reads_them(capsys, tmp_path, labels, said):
    path = write(tmp_path, "a,b,y\n" + csv_of(separable(93, n=12, d=2)[0], labels=labels))
    status, out, err = cli(capsys, path)
    assert (status, out) == (2, "") and err.startswith(f"error: {path}:2: column 3: ") and err.endswith(said + "\n")
    assert cli(capsys, path, f"--labels={labels[0]},{labels[1]}", "--quiet")[0] == 0  # the hint, taken, runs


def test_cli_three_classes_hint_multiclass_and_a_run_that_needs_a_bias_is_told_so(capsys, tmp_path):
    path = write(tmp_path, "a,b,y\n" + "".join(f"{x[0]},{x[1]},{'abc'[i % 3]}\n"
                                               for i, (x, _) in enumerate(separable(94, n=9, d=2)[0])))
    said = ": the file has 3 labels or more (a, b, c): learn its classes with --multiclass\n"
    assert cli(capsys, path)[2].endswith(said)
    # separable, but not through the origin: every x in the positive quadrant, labelled by x_0 > 5
    rng = random.Random(95)
    examples = [([a, b], 1 if a > 5 else -1) for a, b in ((rng.randint(1, 9), rng.randint(1, 9)) for _ in range(30))]
    path = write(tmp_path, csv_of(examples), "origin.csv")
    status, out, _ = cli(capsys, path)
    lines = out.splitlines()
    assert status == 1 and lines[-2].startswith("  with --bias these examples converge, in ")
    assert lines[-2].endswith(": separable, but not by a hyperplane through the origin (Cornell §1)")
    assert lines[-1].startswith("  else: --pocket keeps the weights with the fewest training errors")
    assert cli(capsys, path, "--bias", "--quiet")[0] == 0
    # not separable at all: no word of --bias
    noisy_path = write(tmp_path, csv_of(noisy(96, n=30, d=2, flip=0.3)[0]), "noisy.csv")
    status, out, _ = cli(capsys, noisy_path, "--max-epochs", "20")
    assert status == 1 and "--bias" not in out and out.splitlines()[-1].startswith("  not separable, or not yet")


@pytest.mark.parametrize("update", ["one-vs-rest", "joint"])
def test_a_multiclass_model_predicts_with_each_of_its_predictors(capsys, tmp_path, update):
    examples = three_classes(97)
    path = write(tmp_path, "".join(",".join(map(str, x)) + f",{y}\n" for x, y in examples))
    model = str(tmp_path / "model.json")
    options = ["--multiclass", update, "--epochs", "3", "--average", "after", "--voted"]
    options += ["--pocket"] if update == "one-vs-rest" else []
    status, out, _ = cli(capsys, path, *options, "--save", model)
    assert "training errors: " in out  # a run that stops at its bound says them
    run = P.train_multiclass(examples, update=update, epochs=3, average="after", voted=True,
                             pocket=update == "one-vs-rest")
    for predictor in ["w", "average", "voted"] + (["pocket"] if update == "one-vs-rest" else []):
        status, doc = cli_json(capsys, path, "--model", model, "--predictor", predictor)
        assert doc["test"]["predictions"] == run.predictions([x for x, _ in examples], predictor)
        assert doc["test"]["errors"][predictor] == run.errors(examples, predictor)


# ---------------------------------------------------------------------------
# Ctrl-C and SIGTERM: the run so far, whole updates only; at seeded moments in
# every mode, a whole report or none, never a half-written file
# ---------------------------------------------------------------------------

def test_train_interrupted_carries_the_run_so_far():
    class Interrupting(list):
        def append(self, mistake):
            super().append(mistake)
            if len(self) == 7:
                raise KeyboardInterrupt
    examples, _ = noisy(63, n=20, d=2, flip=0.4)
    with pytest.raises(KeyboardInterrupt) as stop:
        train(examples, max_epochs=50, trace=Interrupting())
    run = stop.value.run  # interrupted inside the 7th mistake's trace entry, after its update was stored whole
    assert run.mistakes == len(run.trace) == 7 and not run.converged
    assert run.w == list(replay([x for x, _ in examples], run.trace))[-1]


class InterruptAt(list):
    """A trace that stops the run (as Ctrl-C would) inside its n-th entry."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def append(self, mistake):
        super().append(mistake)
        if len(self) == self.n:
            raise KeyboardInterrupt


@pytest.mark.parametrize("kind", ["kernel", "joint"])
def test_kernel_and_joint_runs_interrupted_carry_whole_updates_only(kind):
    examples, _ = noisy(65, n=20, d=2, flip=0.4)
    with pytest.raises(KeyboardInterrupt) as stop:
        if kind == "kernel":
            train(examples, kernel=dot, max_epochs=50, trace=InterruptAt(9))
        else:
            P.train_multiclass([(x, str(y)) for x, y in examples], update="joint", max_epochs=50, trace=InterruptAt(9))
    run = stop.value.run  # the 9th update was stored whole before its trace entry, which stopped the run
    assert run.mistakes == len(run.trace) == 9 and not run.converged and run.epochs >= 1
    if kind == "kernel":
        assert [x for x, _ in run.model.stored] == [examples[m.index][0] for m in run.trace]


def test_a_family_run_interrupted_in_its_trace_keeps_the_votes_of_its_whole_steps():
    examples, _ = noisy(66, n=20, d=2, flip=0.4)
    runs = []
    for given in ({}, {"order": [list(range(20))]}):  # Part I's pass, and the family's at the same order
        with pytest.raises(KeyboardInterrupt) as stop:
            train(examples, max_epochs=50, voted=True, trace=InterruptAt(5), **given)
        runs.append(stop.value.run)  # the 5th update whole (its entry in): its vote closed, as the 4 before
    part_one, family = runs
    assert type(family.model) is P._FamilyPerceptron and family.w == part_one.w and family.mistakes == 5
    assert family.voted == part_one.voted and len(family.voted) == len(family.voted.made) == 5


def signalled_child(args, **options):
    """A child that gets Ctrl-C as from a terminal even when this suite runs in the background: a shell
    starts a background job with SIGINT ignored, and Python then leaves it ignored in every child."""
    return subprocess.Popen(args, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **options)


def script_started(child, timeout=60):
    """Wait until the child's script has set its signal handlers (SIGTERM caught, says /proc's SigCgt): a signal
    before lands in the interpreter's own start (site, compiling the script), which no script can guard."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and child.poll() is None:
        try:
            with open(f"/proc/{child.pid}/status") as f:
                caught = int(next(line for line in f if line.startswith("SigCgt:")).split()[1], 16)
        except (OSError, StopIteration):  # it has ended meanwhile
            return
        if caught >> (signal.SIGTERM - 1) & 1:
            return
        time.sleep(0.005)


@pytest.mark.slow
def test_cli_ctrl_c_ends_a_long_run_with_130_and_the_report_so_far(tmp_path):
    rng = random.Random(62)
    (tmp_path / "noisy.csv").write_text("".join(f"{rng.randint(-9, 9)},{rng.randint(-9, 9)},{rng.choice([1, -1])}\n"
                                                for _ in range(2000)))
    child = signalled_child([sys.executable, SCRIPT, "noisy.csv", "--max-epochs", "1000000", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    time.sleep(1.5)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    doc = json.loads(out)
    assert child.returncode == 130 and err == ""  # standard error is a pipe: no progress line
    assert doc["interrupted"] is True and doc["converged"] is False and doc["mistakes"] == len(doc["trace"]) > 0
    w = [0, 0]
    examples = [[int(v) for v in line.split(",")] for line in (tmp_path / "noisy.csv").read_text().splitlines()]
    for m in doc["trace"]:  # the weights reported are those of the mistakes reported, whole updates only
        x, y = examples[m["index"]][:2], examples[m["index"]][2]
        w = [a + y * b for a, b in zip(w, x)]
    assert doc["weights"] == w


def long_noisy(tmp_path, n=600, seed=73):
    rng = random.Random(seed)
    (tmp_path / "noisy.csv").write_text("".join(f"{rng.randint(-9, 9)},{rng.randint(-9, 9)},{rng.choice([1, -1])}\n"
                                                for _ in range(n)))
    (tmp_path / "classes.csv").write_text("".join(f"{rng.randint(-9, 9)},{rng.randint(-9, 9)},{rng.choice('abc')}\n"
                                                  for _ in range(n)))


SIGNAL_MODES = [["noisy.csv"], ["noisy.csv", "--json", "--weights"], ["noisy.csv", "--pocket", "--bias"],
                ["noisy.csv", "--kernel", "polynomial:2", "--json"], ["classes.csv", "--multiclass"],
                ["classes.csv", "--multiclass", "joint", "--json"], ["noisy.csv", "--average", "after", "--epochs",
                                                                     "300"],
                ["noisy.csv", "--svg", "o.svg", "--svg-steps", "steps", "--max-epochs", "40"], ["--vectors", "corpus"]]


@pytest.mark.slow
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_at_a_seeded_moment_leaves_a_whole_report_or_none_and_no_half_file(tmp_path, signum, status):
    rng = random.Random(74 + signum)
    long_noisy(tmp_path)
    for argv in SIGNAL_MODES:
        for delay in (rng.uniform(0.05, 0.5), rng.uniform(0.5, 1.2)):  # from the script's start
            child = signalled_child([sys.executable, SCRIPT, *argv, "--max-epochs", "100000"] if "--epochs" not in argv
                                    and "--max-epochs" not in argv and "--vectors" not in argv else
                                    [sys.executable, SCRIPT, *argv], cwd=tmp_path, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            script_started(child)
            time.sleep(delay)
            child.send_signal(signum)
            out, err = child.communicate(timeout=60)
            assert "Traceback" not in err and "internal error" not in err, (argv, err)
            assert child.returncode in (0, 1, status), (argv, child.returncode, err)
            if "--json" in argv and out:
                json.loads(out)  # whole, or not written at all
            if child.returncode == status and signum == signal.SIGTERM:
                assert out == "", argv
            if child.returncode == status and ("interrupted" in out or out == ""):  # an interrupted run draws nothing
                assert "picture" not in out and not (tmp_path / "o.svg").exists(), argv
            leftovers = [p for p in tmp_path.rglob("*") if p.name.endswith(".part")]
            assert leftovers == [], argv
            corpus = tmp_path / "corpus"
            if corpus.exists():  # whole, with its index, or not there at all (a signal while the outputs were put
                assert len(os.listdir(corpus)) == 47  # in place is held until all are: whole, then the status)
            if (tmp_path / "steps").exists():  # only from a run that finished, which the report says
                assert "interrupted" not in out, argv
            subprocess.run(["rm", "-rf", str(tmp_path / "corpus"), str(tmp_path / "steps"), str(tmp_path / "o.svg")])


@pytest.mark.slow
def test_ctrl_c_in_a_one_vs_rest_run_prints_its_report(tmp_path):
    long_noisy(tmp_path, n=2000)
    child = signalled_child([sys.executable, SCRIPT, "classes.csv", "--multiclass", "--json", "--max-epochs",
                             "100000"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    doc = json.loads(out)
    assert child.returncode == 130 and err == "" and doc["interrupted"] is True and doc["multiclass"] == "one-vs-rest"
    assert sorted(doc["weights"]) == ["a", "b", "c"] and doc["mistakes"] == len(doc["trace"]) > 0


@pytest.mark.slow
def test_ctrl_c_on_a_blocked_pipe_waits_for_the_whole_report(tmp_path):
    long_noisy(tmp_path, n=3000)
    child = signalled_child([sys.executable, SCRIPT, "noisy.csv", "--json", "--weights", "--max-epochs", "20"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline:  # until the report fills the pipe, which no one reads yet
        with open(f"/proc/{child.pid}/wchan") as f:
            if "pipe_write" in f.read():
                break
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130 and b"Traceback" not in err
    assert json.loads(out)["mistakes"] > 0  # whole: the first Ctrl-C waited for the report


@pytest.mark.slow
def test_ctrl_c_in_a_voted_run_ends_it_at_once_without_counting_the_vote(tmp_path):
    rng = random.Random(77)
    (tmp_path / "noisy.csv").write_text("".join(f"{rng.randint(-9, 9) / 7},{rng.randint(-9, 9) / 7},"
                                                f"{rng.choice([1, -1])}\n" for _ in range(300)))
    child = signalled_child([sys.executable, SCRIPT, "noisy.csv", "--voted", "--epochs", "1000000"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    child.send_signal(signal.SIGINT)
    start = time.monotonic()
    try:
        out, err = child.communicate(timeout=60)  # the vote's training errors: every hypothesis on every example
    finally:
        child.kill()
    assert child.returncode == 130 and err == "" and time.monotonic() - start < 15
    assert "interrupted (Ctrl-C)" in out and re.search(r"\nvoted: [0-9]{4,} hypotheses", out)
    assert "training errors" not in out  # an interrupted run is answered at once: no count over the examples


# ---------------------------------------------------------------------------
# Writes: an output never replaces an input, another output, a device, a FIFO,
# a socket, a folder or a link
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("argv, said", [
    (["data.csv", "--svg", "data.csv"], "--svg data.csv is the input FILE: it would be overwritten"),
    (["data.csv", "--test", "held.csv", "--svg", "held.csv"], "--svg held.csv is the input --test"),
    (["data.csv", "--svg", "hard.csv"], "--svg hard.csv is the input FILE"),  # a hard link to the data
    (["steps/step-1.svg", "--svg-steps", "steps"], "and FILE steps/step-1.svg is one of those names"),
    (["data.csv", "--svg", "steps/step-2.svg", "--svg-steps", "steps"], "and --svg steps/step-2.svg is one"),
    (["data.csv", "--svg", "./s/../steps/step-03.svg", "--svg-steps", "steps/"], "is one of those names"),
])
def test_an_output_that_is_an_input_or_another_output_is_a_usage_error_before_any_work(tmp_path, argv, said):
    (tmp_path / "steps").mkdir()
    (tmp_path / "s").mkdir()
    for name in ("data.csv", "held.csv", "steps/step-1.svg"):
        (tmp_path / name).write_text(FOUR)
    os.link(tmp_path / "data.csv", tmp_path / "hard.csv")
    listed = files_in(tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in listed if (tmp_path / name).is_file()}
    status, out, err = cli_process(*argv, cwd=tmp_path, timeout=30)
    assert (status, out) == (2, "") and said in err and err.count("\n") == 1
    assert {name: (tmp_path / name).read_bytes() for name in before} == before and files_in(tmp_path) == listed


def special_files(tmp_path):
    """Outputs that exist and are not regular files, made here (never the machine's own /dev)."""
    made = {"folder": tmp_path / "a-folder"}
    made["folder"].mkdir()
    os.mkfifo(tmp_path / "a-fifo")
    made["FIFO"] = tmp_path / "a-fifo"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "a-socket"))
    made["socket"] = tmp_path / "a-socket"
    try:
        os.mknod(tmp_path / "a-device", 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a null device of our own
        made["device"] = tmp_path / "a-device"
    except (PermissionError, OSError):
        pass
    return made, server


def test_an_output_that_is_a_device_fifo_socket_or_folder_is_refused_and_stays_what_it_was(tmp_path):
    made, server = special_files(tmp_path)
    try:
        (tmp_path / "data.csv").write_text(FOUR)
        os.symlink(made["FIFO"], tmp_path / "link-to-fifo")
        for kind, path in [*made.items(), ("FIFO", tmp_path / "link-to-fifo")]:
            mode = os.lstat(os.path.realpath(path)).st_mode
            status, out, err = cli_process("data.csv", "--svg", str(path), cwd=tmp_path, timeout=30)
            assert (status, out) == (2, ""), kind
            assert err == f"error: {path}: a {kind}, not a regular file: outputs are written to regular " \
                                  "files only, and never replace anything else\n"
            assert os.lstat(os.path.realpath(path)).st_mode == mode  # still what it was
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    finally:
        server.close()


def test_a_symbolic_link_is_followed_and_never_replaced(tmp_path):
    (tmp_path / "data.csv").write_text(FOUR)
    (tmp_path / "old.svg").write_text("the user's")
    os.symlink("old.svg", tmp_path / "link.svg")
    os.symlink("new/target.svg", tmp_path / "dangling.svg")
    (tmp_path / "new").mkdir()
    for link, target in (("link.svg", "old.svg"), ("dangling.svg", "new/target.svg")):
        status, _, _ = cli_process("data.csv", "--svg", link, cwd=tmp_path, timeout=30)
        assert status == 0 and os.path.islink(tmp_path / link)
        assert (tmp_path / target).read_text().startswith("<svg")


def test_a_symbolic_link_beside_the_steps_folder_is_followed_and_never_replaced(tmp_path):
    (tmp_path / "data.csv").write_text(FOUR)
    (tmp_path / "old.svg").write_text("the user's")
    os.symlink("old.svg", tmp_path / "link.svg")  # --svg-steps writes its folder whole: --svg is no file of it
    status, _, _ = cli_process("data.csv", "--svg", "link.svg", "--svg-steps", "steps/", cwd=tmp_path, timeout=30)
    assert status == 0 and os.path.islink(tmp_path / "link.svg") and files_in(tmp_path / "steps")
    assert (tmp_path / "old.svg").read_text().startswith("<svg")


def test_cli_a_closed_pipe_is_not_a_traceback():
    done = subprocess.run(f"{sys.executable} {SCRIPT} --weights | head -n 1", shell=True,
                          capture_output=True, text=True)
    assert done.stderr == "" and done.stdout.startswith("perceptron ")


# ---------------------------------------------------------------------------
# A full disk: one error line, and only what the run made taken back
# ---------------------------------------------------------------------------

def test_a_failed_write_takes_back_only_what_it_made(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-1,-2,-1\n2,-1,1\n-2,1,-1\n1,-2,-1\n")
    (tmp_path / "o.svg").write_text("the user's picture")
    create, calls = os.open, []

    def failing(name, flags, *mode):  # the disk fills at the third file made
        if flags & os.O_CREAT:
            calls.append(name)
            if len(calls) == 3:
                raise OSError(28, "No space left on device")
        return create(name, flags, *mode)
    monkeypatch.setattr(os, "open", failing)
    status, out, err = cli(capsys, path, "--svg", str(tmp_path / "o.svg"), "--svg-steps", str(tmp_path / "x/y/z"))
    assert (status, out) == (2, "") and "No space left on device" in err and err.count("\n") == 1
    assert (tmp_path / "o.svg").read_text() == "the user's picture"  # replaced only when every file is whole
    assert files_in(tmp_path) == ["data.csv", "o.svg"]  # nor x/, x/y/, x/y/z/, nor a .part file


def small_tmpfs(tmp_path, size="24k"):
    """A small file system of our own, to fill; None where this machine does not let us mount one."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], capture_output=True)
    return mount if done.returncode == 0 else None


def test_a_full_disk_takes_back_the_pictures_written(tmp_path):
    mount = small_tmpfs(tmp_path)
    if mount is None:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        rng = random.Random(70)
        (tmp_path / "noisy.csv").write_text("".join(f"{rng.randint(-9, 9)},{rng.randint(-9, 9)},{rng.choice([1, -1])}\n"
                                                    for _ in range(40)))
        status, _, err = cli_process("noisy.csv", "--max-epochs", "5", "--svg-steps", str(mount / "steps"),
                                     cwd=tmp_path, timeout=60)
        assert status == 2 and "No space left on device" in err and err.count("\n") == 1
        assert os.listdir(mount) == []
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_cli_a_full_disk_is_one_error_line(tmp_path):
    with open("/dev/full", "w") as full:
        status, _, err = cli_process(stdout=full, timeout=30)
    assert (status, err) == (2, "error: cannot write the report: No space left on device\n")


def full_device(tmp_path):
    """A full device of our own (as /dev/full), never the machine's; None where mknod is not allowed."""
    try:
        os.mknod(tmp_path / "full", 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except (PermissionError, OSError):
        return None
    return tmp_path / "full"


@pytest.mark.parametrize("argv", [[], ["--json"], ["--vectors", "corpus"]])
def test_a_full_standard_output_is_one_error_line(tmp_path, argv):
    device = full_device(tmp_path)
    if device is None:
        pytest.skip("mknod is not allowed here")
    with open(device, "w") as full:
        status, _, err = cli_process(*argv, stdout=full, cwd=tmp_path, timeout=60)
    assert (status, err) == (2, "error: cannot write the report: No space left on device\n")


# ---------------------------------------------------------------------------
# Process-wide state and threads
# ---------------------------------------------------------------------------

def test_main_leaves_nothing_process_wide_changed(tmp_path, capsys):
    limit = getattr(sys, "get_int_max_str_digits", lambda: None)()
    here, out = os.getcwd(), sys.stdout
    handlers = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    big = "9" * 4300
    path = write(tmp_path, f"{big},1,1\n-{big},-1,-1\n1,{big},-1\n")
    for argv in ([path, "--json", "--rule", "margin"], ["--vectors", str(tmp_path / "corpus")], [path, "--literal"]):
        P.main(argv)
        assert getattr(sys, "get_int_max_str_digits", lambda: None)() == limit
        assert (os.getcwd(), sys.stdout) == (here, out)
        assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
        assert P._LITERAL.get() is (os.environ.get("PERCEPTRON_LITERAL", "") not in ("", "0"))
    capsys.readouterr()


def test_threads_calling_main_beside_each_other_each_get_their_own_report(tmp_path, capsys):
    path = write(tmp_path, csv_of(noisy(75, n=40, d=3, flip=0.2)[0]))
    argvs = [[path, "--json", "--max-epochs", "30"], [path, "--json", "--pocket", "--max-epochs", "20", "--literal"],
             [path, "--json", "--average", "after", "--epochs", "9"], [path, "--json", "--bias", "--max-epochs", "9"]]
    expected = []
    for argv in argvs:
        P.main(argv)
        expected.append(capsys.readouterr().out)
    threads = [threading.Thread(target=P.main, args=(argv,)) for argv in argvs * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out = capsys.readouterr().out
    assert sorted(out.split("\n}\n")) == sorted("".join(expected * 3).split("\n}\n"))  # each report whole


# ---------------------------------------------------------------------------
# One model document: a run's --json and its model (--save, Run.save), read by one reader
# (--model, load); every predictor of every kind round-trips
# ---------------------------------------------------------------------------

MODEL_KINDS = {  # kind: (options, the predictors such a run keeps)
    "binary": (["--bias", "--pocket", "--average", "after", "--voted"], PREDICTORS),
    "one-vs-rest": (["--multiclass", "one-vs-rest", "--pocket", "--average", "before", "--voted"], PREDICTORS),
    "joint": (["--multiclass", "joint", "--pocket", "--average", "after", "--voted"], PREDICTORS),
    "kernel": (["--kernel", "polynomial:2", "--bias", "--pocket", "--voted"], ["w", "pocket", "voted"]),
    "kernel-linear": (["--kernel", "linear", "--pocket", "--voted"], ["w", "pocket", "voted"]),
}


def model_data(kind, seed):
    """Seeded float examples of the kind: two labels B and M, or three classes a, b, c."""
    if kind in ("one-vs-rest", "joint"):
        return [([v / 3 for v in x], c) for x, c in three_classes(seed)]
    return [([v / 3 for v in x], "M" if y == 1 else "B") for x, y in noisy(seed, n=30, d=2, flip=0.2)[0]]


def api_run(kind, examples):
    """The run the kind's options ask for, through the API."""
    if kind in ("one-vs-rest", "joint"):
        return P.train_multiclass(examples, update=kind, pocket=True, average="before" if kind == "one-vs-rest"
                                  else "after", voted=True, max_epochs=5)
    if kind == "binary":
        return train(examples, bias=True, pocket=True, average="after", voted=True, max_epochs=5)
    return train(examples, kernel=kernels.polynomial(2) if kind == "kernel" else kernels.linear,
                 bias=kind == "kernel", pocket=True, voted=True, max_epochs=5)


def test_the_text_says_an_average_over_updates_is_over_the_run_s_mistakes_not_its_examples(capsys):
    # it said "averaged over 32 examples (4 passes)" of the mean of w after each of the embedded example's 5 updates
    out = cli(capsys, "--average", "updates")[1]
    doc = cli_json(capsys, "--average", "updates", "--weights")[1]
    afters = [[Fraction(v) for v in entry["weights"]] for entry in doc["trace"]]
    assert "averaged over w after each of its 5 mistakes" in out and len(afters) == 5
    assert [Fraction(v) for v in doc["average"]["weights"]] == [sum(column) / 5 for column in zip(*afters)]


@pytest.mark.parametrize("kind, predictor", [(kind, p) for kind, (_, kept) in MODEL_KINDS.items() for p in kept])
def test_every_predictor_of_every_kind_round_trips_through_save_and_model_and_run_save_and_load(
        capsys, tmp_path, kind, predictor):
    options = MODEL_KINDS[kind][0] + ["--max-epochs", "5"] + ([] if kind in ("one-vs-rest", "joint") else
                                                               ["--labels=B,M"])
    examples, new = model_data(kind, 130), model_data(kind, 131)
    header = ",".join(f"x{i}" for i in range(len(examples[0][0]))) + ",y\n"
    path, new_path = (write(tmp_path, header + "".join(",".join(map(repr, x)) + f",{y}\n" for x, y in data), name)
                      for data, name in ((examples, "train.csv"), (new, "new.csv")))
    model = str(tmp_path / "model.json")
    status, trained = cli_json(capsys, path, *options, "--test", new_path, "--predictor", predictor, "--save", model)
    applied = cli_json(capsys, new_path, "--model", model, "--predictor", predictor)[1]["test"]
    assert applied == trained["test"] and len(set(applied["predictions"])) > 1  # the run's predictions, every error
    if not kind.startswith("kernel"):  # a run's --json is a model too (a kernel run's holds no stored examples)
        (tmp_path / "run.json").write_text(json.dumps(trained))
        assert cli_json(capsys, new_path, "--model", str(tmp_path / "run.json"), "--predictor", predictor)[1][
            "test"] == trained["test"]
    if kind in ("one-vs-rest", "joint"):  # in Python, classes that are not text: they come back as they were
        examples, new = ([(x, "abc".index(c)) for x, c in data] for data in (examples, new))
    run = api_run(kind, examples)
    run.save(tmp_path / "api.json")
    loaded = P.load(tmp_path / "api.json")
    X = [x for x, _ in new]
    assert loaded.predictions(X, predictor) == run.predictions(X, predictor)
    assert loaded.errors(new, predictor) == run.errors(new, predictor) and loaded.labels == run.labels
    if predictor != "voted" and not run.multiclass:
        assert [loaded.score(x, predictor) for x in X] == [run.score(x, predictor) for x in X]
    for field in ("w", "pocket", "average", "voted"):
        assert getattr(loaded, field) == getattr(run, field)
    assert (loaded.rule, loaded.bias, loaded.kernel, loaded.multiclass) == (run.rule, run.bias, run.kernel,
                                                                            run.multiclass)


def test_a_multiclass_run_s_start_by_class_is_saved_and_loaded_back_as_it_ran(tmp_path):
    data = [([1, 2], 0), ([2, -1], 1), ([0, 1], 2), ([-1, -1], 0)]
    for update in ("one-vs-rest", "joint"):
        start = {0: [1, 0], 1: [0, Fraction(1, 2)], 2: [0, 0]}
        run = P.train_multiclass(data, update=update, start=start, max_epochs=5)
        run.save(tmp_path / f"{update}.json")
        loaded = P.load(tmp_path / f"{update}.json")
        assert loaded.conventions == run.conventions and loaded.conventions.start == start, update
        assert type(loaded.conventions.start[1][1]) is Fraction and loaded.w == run.w
        assert loaded.predictions([x for x, _ in data]) == run.predictions([x for x, _ in data])


@pytest.mark.parametrize("given", [{"rate": Fraction(1, 2)}, {"step": "error"}, {"rate": 0.1, "zero": 0}])
def test_a_kernel_run_at_a_point_of_the_family_is_saved_and_loaded_back_storing_its_factors(tmp_path, given):
    # its dual stores (x, f), f the update's factor (eta y, 2 y, ...): load refused the model Run.save wrote
    run = train(P.EXAMPLE, kernel=kernels.polynomial(2), bias=True, max_epochs=5, **given)
    assert any(f not in (-1, 1) for _, f in run.model.stored)
    run.save(tmp_path / "model.json")
    loaded = P.load(tmp_path / "model.json")
    X = [x for x, _ in P.EXAMPLE] + [[1, -2], [0, 0], [-3, 1], [2, 2]]
    assert loaded.model.stored == run.model.stored and loaded.conventions == run.conventions
    assert [loaded.score(x) for x in X] == [run.score(x) for x in X] and loaded.predictions(X) == run.predictions(X)


def test_a_joint_run_s_start_not_a_vector_for_each_class_says_what_start_a_joint_run_takes():
    data = [([1, 0], "a"), ([0, 1], "b")]
    for start in ([1, 0], {"a": [1, 0]}):  # one vector, not {class: w}; a class without its vector
        with pytest.raises(P.PerceptronError) as caught:
            P.train_multiclass(data, update="joint", start=start)
        assert str(caught.value) == (f"start = {start}: a joint run starts at {{class: w}}, a vector for each of "
                                     "the classes ['a', 'b']")
    assert P.train_multiclass(data, update="joint", start={"a": [1, 0], "b": [0, 1]}, max_epochs=1).w == {
        "a": [1, 0], "b": [0, 1]}


def test_a_linear_kernel_run_s_json_with_votes_is_refused_by_load_saying_to_save_its_model(tmp_path, capsys):
    # its votes are counts of stored examples, which --json does not write; its --save model holds them
    assert P.main(["--kernel", "linear", "--voted", "--json"]) == 0
    (tmp_path / "run.json").write_text(capsys.readouterr().out)
    with pytest.raises(P.PerceptronError, match=r"run.json: voted: a kernel run's votes count its stored examples, "
                                                r"which its --json does not hold: save its model with --save"):
        P.load(tmp_path / "run.json")
    run = P.train(P.EXAMPLE, kernel=P.dot, voted=True)
    run.save(tmp_path / "model.json")
    assert P.load(tmp_path / "model.json").predict([1, 1], "voted") == run.predict([1, 1], "voted")


def test_the_votes_and_averages_count_each_visit_of_an_order_a_shuffle_and_a_batch_s_end(tmp_path, capsys):
    # Freund and Schapire's c_k counts the visits v_k stood for: under an order, visit t is not (epoch - 1) n + index + 1
    # (before: c = [1, 4, -1, 2], a negative vote), and a batch moves w at its end, a mistake there or not
    examples = [([1, 0], 1), ([0, 1], -1), ([1, 1], 1)]
    run = P.train(examples, epochs=2, voted=True, average="after", order=[[2, 1, 0]])
    assert [c for _, c in run.voted] == [1, 2, 1, 2] and run.average == [Fraction(1, 2), Fraction(-2, 3)]
    assert P.train(examples, epochs=2, average="after", batch="sum").average == [Fraction(1, 6), Fraction(-1, 2)]
    shuffled = P.train(examples, epochs=3, voted=True, shuffle=5)
    assert all(c >= 1 for _, c in shuffled.voted[1:]) and sum(c for _, c in shuffled.voted) == 3 * 3
    path = write(tmp_path, csv_of(examples))
    assert P.main([path, "--epochs", "2", "--order", "2,1,0", "--average", "after", "--json",
                   "--save", str(tmp_path / "m.json")]) == 0
    (tmp_path / "run.json").write_text(capsys.readouterr().out)
    assert P.main([path, "--epochs", "2", "--order", "2,1,0", "--average", "after", "--check",
                   str(tmp_path / "run.json")]) == 0


def test_a_kernel_model_s_votes_count_by_their_mistakes_and_none_beyond_its_stored_examples(capsys, tmp_path):
    examples, new = model_data("kernel", 132), model_data("kernel", 133)
    path, new_path = (write(tmp_path, "x1,x2,y\n" + "".join(f"{x[0]!r},{x[1]!r},{y}\n" for x, y in data), name)
                      for data, name in ((examples, "train.csv"), (new, "new.csv")))
    model = tmp_path / "model.json"
    cli(capsys, path, "--kernel", "polynomial:2", "--voted", "--labels=B,M", "--max-epochs", "5", "--save",
        str(model), "--quiet")
    doc = json.loads(model.read_text())
    status, predicted, said = cli(capsys, new_path, "--model", str(model), "--predictor", "voted")
    assert status == 0 and len(doc["voted"]) > 2 and len(set(predicted.split())) == 2
    doc["voted"].reverse()  # the votes, in any order, are those of the same hypotheses
    model.write_text(json.dumps(doc))
    assert cli(capsys, new_path, "--model", str(model), "--predictor", "voted") == (0, predicted, said)
    doc["voted"][0]["mistakes"] = 10 ** 6
    model.write_text(json.dumps(doc))
    assert cli(capsys, new_path, "--model", str(model), "--predictor", "voted") == (
        2, "", f"error: {model}: voted[0].mistakes: 1000000: the model stored {len(doc['stored'])} examples\n")


@pytest.mark.parametrize("weights, field, value, said", [
    (["-6", "3/1"], None, None, None),  # a Decimal's text and a Fraction's: read as one kind, exact
    ([-6, 3], "multiclass", "one-vs-rest", "weights: [-6, 3] is not an object of the classes ['-1', '1']"),
    ({"a": [1, 0], "b": [0, 1]}, "labels", ["a", "b"], "kernel: 'polynomial:2' is not a kernel of this module or "
                                                        "kernels.py: a multiclass model has none: null"),
    ([-6, 3], "kernel", "polynomial:2", "kernel: 'polynomial:2' is not a kernel of this module or kernels.py"),
    ([-6, 3], "kernel", "polynomial(2, c=1)", "stored: missing, or not a list of [x..., y]"),
    ([-6, 3], "average", {"weights": [1, 2], "convention": "sideways"},
     "average.convention: 'sideways' is not one of 'after', 'before'"),
])
def test_a_model_written_by_hand_is_read_exactly_or_refused_naming_its_file_and_field(capsys, tmp_path, weights,
                                                                                   field, value, said):
    doc = {"perceptron": P.__version__, "format": "perceptron-model/2", "rule": "sign", "bias": False,
           "multiclass": None, "labels": [-1, 1], "kernel": None, "features": None, "weights": weights}
    if field == "labels":  # a multiclass model naming a kernel spec
        doc.update(multiclass="one-vs-rest", labels=value, kernel="polynomial:2")
    elif field is not None:
        doc[field] = value
    model, data = tmp_path / "model.json", write(tmp_path, "3,3\n-3,1\n")
    model.write_text(json.dumps(doc))
    if said is None:
        assert cli(capsys, data, "--model", str(model), "--no-header") == (0, "-1\n1\n", "")
        assert [type(v) for v in P.load(model).w] == [Fraction, Fraction] and P.load(str(model)).w == [-6, 3]
    else:
        status, out, err = cli(capsys, data, "--model", str(model), "--no-header")
        assert (status, out) == (2, "") and err.startswith(f"error: {model}: {said}") and err.count("\n") == 1
        with pytest.raises(PerceptronError, match=re.escape(f"{model}: {said}")):
            P.load(model)


@pytest.mark.parametrize("field, value, said", [
    ("weights", ["1.5", 2.5], "weights: '1.5' beside the float 2.5: a model's numbers are of one kind"),
    ("weights", ["-6", 2.5], "weights: '-6' beside the float 2.5"),
    ("pocket", {"weights": ["1/2", 0.5], "errors": 0, "mistakes": 0}, "pocket: '1/2' beside the float 0.5"),
    ("average", {"weights": [0.5, "1/3"]}, "average: '1/3' beside the float 0.5"),
])
def test_a_models_numbers_are_of_one_kind_an_exact_text_beside_a_float_is_refused(capsys, tmp_path, field, value, said):
    doc = {"perceptron": P.__version__, "rule": "sign", "bias": False, "labels": [-1, 1], "weights": [1, 2.5]}
    doc[field] = value
    model, data = tmp_path / "model.json", write(tmp_path, "3,3\n-3,1\n")
    model.write_text(json.dumps(doc))
    status, out, err = cli(capsys, data, "--model", str(model), "--no-header")
    assert (status, out) == (2, "") and err.startswith(f"error: {model}: {said}") and err.count("\n") == 1
    with pytest.raises(PerceptronError, match=re.escape(f"{model}: {said}")):
        P.load(model)
    model.write_text(json.dumps({**doc, field: [1, 2.5] if field == "weights" else None}))  # an int beside a float
    assert cli(capsys, data, "--model", str(model), "--no-header") == (0, "1\n-1\n", "")  # 3 + 7.5, -3 + 2.5


def test_a_linear_kernel_runs_json_is_applied_by_model_as_the_weights_it_writes(capsys, tmp_path):
    examples, _ = noisy(91, n=16, d=2, flip=0.2)
    data = write(tmp_path, csv_of(examples))
    status, out, _ = cli(capsys, data, "--kernel", "linear", "--pocket", "--max-epochs", "5", "--json")
    (tmp_path / "run.json").write_text(out)
    run = train(examples, kernel=kernels.linear, pocket=True, max_epochs=5)
    assert json.loads(out)["weights"] == run.w and P.load(tmp_path / "run.json").w == run.w
    for predictor in ("w", "pocket"):
        status, out, err = cli(capsys, data, "--model", str(tmp_path / "run.json"), "--predictor", predictor)
        assert status == 0 and out.split() == [str(v) for v in run.predictions([x for x, _ in examples], predictor)]
        errors = f"w {run.errors(examples)}, pocket {run.errors(examples, 'pocket')}"
        assert err == f"{data}: 16 examples; errors: {errors}\n"


@pytest.mark.parametrize("average", ["after", "before", "updates"])
def test_a_runs_json_with_each_average_is_read_back_with_its_average(capsys, tmp_path, average):
    data = write(tmp_path, "1,1,1\n-1,0,-1\n0,-1,-1\n2,1,1\n")
    status, out, _ = cli(capsys, data, "--no-header", "--average", average, "--epochs", "2", "--json")
    (tmp_path / "run.json").write_text(out)
    run = train([([1, 1], 1), ([-1, 0], -1), ([0, -1], -1), ([2, 1], 1)], epochs=2, average=average)
    assert status == 0 and P.load(tmp_path / "run.json").average == run.average and type(run.average[0]) is Fraction
    assert cli(capsys, data, "--no-header", "--model", str(tmp_path / "run.json"), "--predictor", "average")[0] == 0


def test_the_text_and_explain_name_the_bias_where_it_ran_first_or_last_on_1_or_on_minus_1(capsys, tmp_path):
    data = write(tmp_path, "a,b,y\n1,1,1\n-1,0,-1\n0,-1,-1\n2,1,1\n")
    status, out, _ = cli(capsys, data, "--bias", "--bias-first", "--explain")
    assert status == 0 and "bias: yes (the first weight)" in out
    assert "mistake 1: pass 1, index 1, x = (1, -1, 0) (the bias's 1 first), y = -1\n" in out
    assert out.endswith("   bias  a  b\nw    -1  1  0\nmistakes: 1\npasses: 2, converged\n")  # w = (b, w_a, w_b)
    status, out, _ = cli(capsys, data, "--bias", "--bias-feature", "-1", "--explain")
    assert status == 0 and "bias: yes (the last weight)" in out
    assert "mistake 1: pass 1, index 1, x = (-1, 0, -1) (the bias's -1 last), y = -1\n" in out


def test_a_model_on_a_file_whose_columns_do_not_fit_is_one_error_naming_both_counts(capsys, tmp_path):
    path, model = write(tmp_path, "a,b,y\n3,3,B\n-3,1,M\n0,-3,B\n"), str(tmp_path / "model.json")
    cli(capsys, path, "--labels=B,M", "--bias", "--save", model, "--quiet")
    wide = write(tmp_path, "p,q,r,s\n1,2,3,4\n", "wide.csv")  # other names, another count: no note, one line
    assert cli(capsys, wide, "--model", model) == (
        2, "", f"error: {wide}: 4 columns: the model has 2 features, so a file for it has 2 columns (3 with the "
               "labels)\n")


def test_model_s_hints_name_only_options_that_apply_to_it(capsys, tmp_path):
    path, model = write(tmp_path, "a,b,y\n3,3,-1\n-3,1,1\n0,-3,-1\n"), str(tmp_path / "model.json")
    cli(capsys, path, "--save", model, "--quiet")
    for label in ("0", "M"):  # training would hint --labels=0,1 and --multiclass, which --model refuses
        other = write(tmp_path, f"a,b,y\n3,3,{label}\n", "other.csv")
        assert cli(capsys, other, "--model", model) == (
            2, "", f"error: {other}:2: column 3: label '{label}' is not -1 or 1, the model's labels\n")


def test_run_save_writes_whole_or_not_at_all_and_only_what_load_reads_back(tmp_path):
    run = train([([1, 2], "no"), ([2, -1], "yes"), ([-1, 1], "no")], bias=True)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(PerceptronError, match="a FIFO, not a regular file"):
        run.save(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and files_in(tmp_path) == ["fifo"]
    unsaved = [(train([([1, 2], 1), ([2, -1], -1)], kernel=lambda a, b: dot(a, b) ** 2),
                "a run with the kernel '<lambda>' cannot be saved"),
               (train([([1, 2], Fraction(1, 2)), ([2, -1], Fraction(3, 2))]), "labels [Fraction(1, 2), Fraction(3, "
                                                                             "2)] cannot be saved"),
               (P.train_multiclass([([1, 2], 1), ([2, -1], "1"), ([0, 1], 2)]), "labels [1, '1', 2] cannot be saved")]
    for other, said in unsaved:
        with pytest.raises(PerceptronError, match=re.escape(said)):
            other.save(tmp_path / "model.json")
    with pytest.raises(PerceptronError, match="path = 3 is not a file name"):
        run.save(3)
    assert files_in(tmp_path) == ["fifo"]
    run.save(tmp_path / "model.json")
    loaded = P.load(tmp_path / "model.json")
    assert loaded == run._replace(mistakes=0, epochs=0, converged=None, trace=None, model=loaded.model)


EXPLAINED_FIRST_MISTAKE = """\
mistake 1: pass 1, index 0, x = (3, 3), y = -1
  w.x = (0)(3) + (0)(3) = 0
  sign(0) = +1 != y = -1: a mistake (Columbia §1.1)
  w <- w + y x = (0, 0) + (-1)(3, 3) = (-3, -3)
  (1) at M = 1: w.w* = (-3)(-2) + (-3)(1) = 3 >= 0 and (w.w*)^2 = 9 >= M^2 gamma^2 ||w*||^2 = (1^2)(9/5)(5) = \
9: holds, tight
  (2) at M = 1: ||w||^2 = (-3)(-3) + (-3)(-3) = 18 <= M R^2 = (1)(18) = 18: holds, tight"""

EXPLAINED_HEADER = """\
w* = (-2, 1): ||w*||^2 = 5, gamma^2 = 9/5, R^2 = 18; after M mistakes (the Perceptron Algorithm notes' proof):
  (1) w.w* >= M gamma ||w*||  (Kalyanakrishnan §3, strict; Columbia's Claim 1.2 is w.v >= delta M for ||v|| = 1)
  (2) ||w||^2 <= M R^2  (Kalyanakrishnan §3's (2); Columbia's Claim 1.3 is ||w||^2 <= M for ||x|| = 1)"""

EXPLAINED_THEOREM = """\
the theorem, M = 5 (Perceptron Algorithm notes; Kalyanakrishnan §3, Theorem 3; Columbia §1.2, Theorem 1.1, for \
||w*|| = R = 1):
  M gamma ||w*|| <= w.w* <= ||w|| ||w*|| <= sqrt(M) R ||w*||, by (1), Cauchy-Schwarz and (2); squared, each side >= 0:
  (5^2)(9/5)(5) = 225 <= (15)^2 = 225 <= (45)(5) = 225 <= (5)(18)(5) = 450: holds
  so M <= R^2/gamma^2: 5 <= (18)/(9/5) = 10: holds"""


def test_explain_writes_the_embedded_examples_five_mistakes_with_the_proof_checked_at_each_and_whole(capsys):
    status, out, err = cli(capsys, "--explain")
    run = train(P.EXAMPLE)
    text = run.explain(P.EXAMPLE, P.W_STAR)
    assert (status, err) == (0, "") and "\n\n" + text + "\n\n   x1  x2\nw  -6   3\n" in out  # in place of the table
    blocks = text.split("\n\n")
    assert blocks[0] == EXPLAINED_HEADER and blocks[-1] == EXPLAINED_THEOREM  # each claim in the form it prints
    assert blocks[1] == EXPLAINED_FIRST_MISTAKE and len(blocks) == 1 + 5 + 1
    learner = Perceptron(2)
    for M, (block, m) in enumerate(zip(blocks[1:-1], run.trace), 1):
        before = learner.w
        learner.learn(*P.EXAMPLE[m.index])
        a, n = dot(learner.w, P.W_STAR), dot(learner.w, learner.w)
        lines = block.splitlines()
        x = P._num(P.EXAMPLE[m.index][0])
        assert lines[0] == f"mistake {M}: pass {m.epoch}, index {m.index}, x = {x}, y = -1"
        assert lines[1].endswith(f" = {m.score}") and lines[3].startswith(f"  w <- w + y x = {P._num(before)} + (-1)")
        # every mistake here is on an example at the margin, y w*.x = 3: (1) is tight all along
        assert lines[4].endswith(f"(w.w*)^2 = {a * a} >= M^2 gamma^2 ||w*||^2 = ({M}^2)(9/5)(5) = {9 * M * M}: "
                                 "holds, tight")
        assert lines[5].endswith(f" = {n} <= M R^2 = ({M})(18) = {18 * M}: holds" + (", tight" if n == 18 * M else ""))
    assert (a, n) == (15, 45) and [M for M in range(1, 6) if "holds, tight" in blocks[M].splitlines()[5]] == [1]


def test_explain_writes_the_notes_arithmetic_under_each_rule_with_the_bias(capsys):
    _, out, _ = cli(capsys, "--explain", "--bias")
    assert ("mistake 2: pass 1, index 2, x = (0, -3, 1) (the bias's 1 last), y = -1\n"
            "  w.x = (-3)(0) + (-3)(-3) + (-1)(1) = 8\n"
            "  sign(8) = +1 != y = -1: a mistake (Columbia §1.1)\n"
            "  w <- w + y x = (-3, -3, -1) + (-1)(0, -3, 1) = (-3, 0, -2)\n\n") in out
    _, out, _ = cli(capsys, "--explain", "--bias", "--rule", "margin")
    assert "  y (w.x) = (-1)(8) = -8 <= 0: a mistake (Cornell §3)\n" in out
    assert "  y (w.x) = (+1)(-2) = -2 <= 0: a mistake (Cornell §3)\n" in out


def test_explain_writes_a_kernel_runs_eq_2_as_its_terms(capsys):
    status, out, err = cli(capsys, "--explain", "--kernel", "polynomial:2")
    text = train(P.EXAMPLE, kernel=kernels.polynomial(2)).explain(P.EXAMPLE)
    assert (status, err) == (0, "") and "\n\n" + text + "\n\nw: not written down" in out
    assert text.split("\n\n")[2] == (
        "mistake 3: pass 1, index 4, x = (-3, -1), y = +1\n"
        "  w.x = sum_j y_j K(x_j, x) = (-1)(121) + (1)(81) = -40 (Columbia §2.3, eq. (2), K = polynomial(2, c=1))\n"
        "  sign(-40) = -1 != y = +1: a mistake (Columbia §1.1)\n"
        "  stored <- stored + [(x, y)]: 3 stored, w = sum_j y_j Phi(x_j) (Columbia §2.3)")  # (1 + x_j.x)^2
    assert text.startswith("mistake 1: pass 1, index 0, x = (3, 3), y = -1\n"
                           "  w.x = sum_j y_j K(x_j, x) = 0 (none stored) (Columbia §2.3, eq. (2), K = polynomial")
    linear = train(P.EXAMPLE, kernel=dot).explain(P.EXAMPLE, P.W_STAR)  # the linear dual checks the claims on its w
    claims = [line for line in linear.splitlines() if line.startswith(("  (1) at", "  (2) at"))]
    assert claims == [line for line in train(P.EXAMPLE).explain(P.EXAMPLE, P.W_STAR).splitlines()
                      if line.startswith(("  (1) at", "  (2) at"))] and len(claims) == 10


def test_explain_names_labels_other_than_minus_one_and_plus_one_as_the_input_does(tmp_path, capsys):
    examples = [([1, 2], "M"), ([-1, -2], "B"), ([2, 1], "M")]
    first = "mistake 1: pass 1, index 1, x = (-1, -2), y = -1 (label B)\n  w.x = (0)(-1) + (0)(-2) = 0\n"
    assert train(examples).explain(examples).startswith(first)
    _, out, _ = cli(capsys, write(tmp_path, "a,b,y\n1,2,M\n-1,-2,B\n2,1,M\n"), "--labels", "B,M", "--explain")
    assert "\n\n" + first in out and "(label" not in train(P.EXAMPLE).explain(P.EXAMPLE)


MULTICLASS_CSV = "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n2,1,a\n"


def test_explain_writes_a_multiclass_runs_binary_steps_or_its_argmax(tmp_path, capsys):
    path = write(tmp_path, MULTICLASS_CSV)
    examples = [([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c"), ([2, 1], "a")]
    _, out, _ = cli(capsys, path, "--multiclass", "--explain")
    text = P.train_multiclass(examples).explain(examples)
    assert "\n\n" + text + "\n\n" in out and text.count(": a mistake (") == P.train_multiclass(examples).mistakes == 19
    assert text.split("\n\n")[5] == (
        "mistake 6: class b's run, pass 1, index 0, x = (1, 0), y = -1 (not b)\n"
        "  w(b).x = (0)(1) + (0)(0) = 0\n"
        "  sign(0) = +1 != y = -1: a mistake (Columbia §1.1)\n"
        "  w(b) <- w(b) + y x = (0, 0) + (-1)(1, 0) = (-1, 0)")
    _, out, _ = cli(capsys, path, "--multiclass", "joint", "--explain")
    text = P.train_multiclass(examples, update="joint").explain(examples)
    assert "\n\n" + text + "\n\n" in out
    assert text.split("\n\n") == [
        "mistake 1: pass 1, index 1, x = (0, 1), y = b\n"
        "  w(a).x = (0)(0) + (0)(1) = 0\n  w(b).x = (0)(0) + (0)(1) = 0\n  w(c).x = (0)(0) + (0)(1) = 0\n"
        "  argmax_l w(l).x = a (a tie, to the class listed first) != y = b: a mistake (Kalyanakrishnan §4)\n"
        "  w(b) <- w(b) + x = (0, 0) + (0, 1) = (0, 1)\n"
        "  w(a) <- w(a) - x = (0, 0) - (0, 1) = (0, -1) (Collins 2002)",
        "mistake 2: pass 1, index 2, x = (-1, -1), y = c\n"
        "  w(a).x = (0)(-1) + (-1)(-1) = 1\n  w(b).x = (0)(-1) + (1)(-1) = -1\n  w(c).x = (0)(-1) + (0)(-1) = 0\n"
        "  argmax_l w(l).x = a != y = c: a mistake (Kalyanakrishnan §4)\n"
        "  w(c) <- w(c) + x = (0, 0) + (-1, -1) = (-1, -1)\n"
        "  w(a) <- w(a) - x = (0, -1) - (-1, -1) = (1, 0) (Collins 2002)"]


def test_explain_of_a_long_run_writes_the_first_and_last_mistakes_as_the_trace_does(tmp_path, capsys):
    examples, _ = noisy(29, n=60, d=2, flip=0.3)
    run = train(examples, max_epochs=5)
    short, every = run.explain(examples), run.explain(examples, every=True)
    blocks = every.split("\n\n")
    assert len(blocks) == run.mistakes > 40
    assert short.split("\n\n") == blocks[:20] + [f"... {run.mistakes - 25:,} more mistakes ('--trace all' shows "
                                                 "them; in Python, every=True)"] + blocks[-5:]
    w = [0, 0]
    for block, m in zip(blocks, run.trace):
        x = examples[m.index][0]
        w = [w_i + m.y * x_i for w_i, x_i in zip(w, x)]
        assert block.splitlines()[3].endswith(f" = {P._num(w)}")
    path = write(tmp_path, csv_of(examples))
    _, out, _ = cli(capsys, path, "--explain", "--max-epochs", "5", "--trace", "all")
    assert "\n\n" + every + "\n\n" in out


def test_explain_ends_with_the_theorem_s_chain_its_numbers_exact_and_squared():
    for seed in range(5):
        examples, w_star = separable(seed, n=20, d=3)
        examples, w_star = [([Fraction(v, 3) for v in x], y) for x, y in examples], [Fraction(v, 2) for v in w_star]
        run = train(examples)
        theorem = run.explain(examples, w_star).split("\n\n")[-1].splitlines()
        M, w, ww = run.mistakes, run.w, dot(w_star, w_star)
        g2, r2 = P.margin_squared(examples, w_star), P.radius_squared(x for x, _ in examples)
        a, n = dot(w, w_star), dot(w, w)
        chain = [M * M * g2 * ww, a * a, n * ww, M * r2 * ww]  # (M gamma ||w*||)^2 <= (w.w*)^2 <= ... squared
        assert chain == sorted(chain) and a > 0 and {type(v) for v in chain} == {Fraction}
        assert theorem[0].startswith(f"the theorem, M = {M} (Perceptron Algorithm notes; Kalyanakrishnan §3, ")
        assert theorem[2] == (f"  ({M}^2)({P._num(g2)})({P._num(ww)}) = {P._num(chain[0])} <= ({P._num(a)})^2 = "
                              f"{P._num(chain[1])} <= ({P._num(n)})({P._num(ww)}) = {P._num(chain[2])} <= "
                              f"({M})({P._num(r2)})({P._num(ww)}) = {P._num(chain[3])}: holds")
        assert theorem[3] == f"  so M <= R^2/gamma^2: {M} <= ({P._num(r2)})/({P._num(g2)}) = {P._num(r2 / g2)}: holds"
    assert "the theorem" not in train(P.EXAMPLE).explain(P.EXAMPLE)  # no w*, no proof


def test_explain_refuses_what_it_cannot_explain(capsys):
    run = train(P.EXAMPLE)
    with pytest.raises(PerceptronError, match=r"^mistake 2: example 2 is not the run's"):
        run.explain([([2 * v for v in x], y) for x, y in P.EXAMPLE])
    with pytest.raises(PerceptronError, match=r"^the run has mistakes on examples up to 2, and 2 examples were given"):
        run.explain(P.EXAMPLE[:2])
    with pytest.raises(PerceptronError, match=r"^w_star: the proof's \(1\) and \(2\) need explicit weights"):
        train(P.EXAMPLE, kernel=kernels.polynomial(2)).explain(P.EXAMPLE, P.W_STAR)
    with pytest.raises(PerceptronError, match=r"^this run kept no trace"):
        train(P.EXAMPLE, trace=False).explain(P.EXAMPLE)
    assert train([([1], 1)]).explain([([1], 1)]) == "no mistakes"
    for other in ("--json", "--quiet"):
        assert cli(capsys, "--explain", other) == (2, "", f"error: {other} does not apply to --explain\n")


# ---------------------------------------------------------------------------
# Hints that lead to the fix: the labels of the file, --quiet's short summary,
# --help in groups, the option nearest a misspelled one
# ---------------------------------------------------------------------------

def test_cli_three_labels_or_more_name_multiclass_from_the_first_error(capsys, tmp_path):
    examples = sorted(three_classes(96), key=lambda e: e[1])  # as iris's file: the 0s, the 1s, then the 2s
    path = write(tmp_path, "a,b,c,y\n" + "".join(f"{x[0]},{x[1]},{x[2]},{'abc'.index(c)}\n" for x, c in examples))
    first = 2 + [c for _, c in examples].index("c")  # the line of the first label 2
    status, out, err = cli(capsys, path)
    multiclass = "the file has 3 labels or more (0, 1, 2): learn its classes with --multiclass\n"
    assert (status, out, err) == (2, "", f"error: {path}:2: column 4: label '0' is not -1 or 1: {multiclass}")
    status, out, err = cli(capsys, path, "--labels=0,1")
    assert (status, out, err) == (2, "", f"error: {path}:{first}: column 4: label '2' is not 0 or 1: {multiclass}")
    assert cli(capsys, path, "--multiclass", "--quiet", "--max-epochs", "3")[0] == 1  # the hint, taken, runs


def test_cli_quiet_is_one_short_summary_whatever_the_features(capsys, tmp_path):
    examples, _ = noisy(97, n=40, d=30)
    path = write(tmp_path, ",".join(f"f{j}" for j in range(30)) + ",y\n" + csv_of(examples))
    status, out, err = cli(capsys, path, "--quiet", "--bias", "--max-epochs", "4", "--pocket", "--average", "after",
                           "--voted")
    run = train(examples, bias=True, max_epochs=4, pocket=True, average="after")
    lines = out.splitlines()
    assert status == 1 and err == "" and max(map(len, lines)) <= 200 and len(lines) <= 12
    assert lines[:3] == ["w: 30 feature weights, and a bias (shown without --quiet, or with --json)",
                         f"mistakes: {run.mistakes}", "passes: 4, not converged: stopped at --max-epochs 4"]
    assert f"pocket: {run.pocket.errors} training errors, the weights after {run.pocket.mistakes} mistakes" in lines


def test_cli_help_is_in_groups_with_examples(capsys):
    status, out, err = cli(capsys, "--help")
    titles = ["input:", "training:", "predictors:", "model:", "oracle:", "output:", "examples:"]
    at = [out.splitlines().index(title) for title in titles]
    assert status == 0 and err == "" and at == sorted(at)
    groups = dict(zip(titles, (out.split("\n" + title + "\n")[1].split("\n\n")[0] for title in titles)))
    for title, options in (("input:", "--labels --delimiter"), ("training:", "--bias --kernel --multiclass"),
                           ("predictors:", "--pocket --average --voted"), ("model:", "--save --model --test"),
                           ("oracle:", "--check --vectors --w-star"), ("output:", "--quiet --json --svg")):
        assert all(f"\n  {option} " in "\n" + groups[title] for option in options.split())
    assert "  perceptron data.csv --bias " in groups["examples:"]


@pytest.mark.parametrize("typed, nearest", [("--bais", "--bias"), ("--qiuet", "--quiet"), ("--pockets", "--pocket"),
                                            ("--multi-class", "--multiclass"), ("--labels-column=0", "--label-column"),
                                            ("--zzz", None)])
def test_cli_a_misspelled_option_is_answered_with_the_nearest(capsys, typed, nearest):
    status, out, err = cli(capsys, typed)
    said = f": did you mean {nearest}?" if nearest else ""
    assert (status, out, err) == (2, "", f"error: unrecognized arguments: {typed}{said} (see --help)\n")


def test_cli_lines_past_the_readers_buffer_keep_their_numbers_and_standard_input_stays_open(capsys, tmp_path,
                                                                                            monkeypatch):
    # Every line end (a \r\n may straddle a block read), and a byte that is not UTF-8 20 KB in, named by its line.
    rows = [f"{k % 7 - 3},{k % 5 - 2},{1 if k % 7 > 3 else -1}" for k in range(3000)]
    path = tmp_path / "d.csv"
    for end in (b"\r\n", b"\r", b"\n"):
        data = end.join(row.encode() for row in rows) + end
        path.write_bytes(data)
        status, doc = cli_json(capsys, str(path), "--epochs", "1")
        assert status == 0 and doc["examples"] == 3000 and doc["trace"]
        assert all(m["line"] == m["index"] + 1 for m in doc["trace"])
        at = data.index(end, 20000) + len(end)  # where a line starts, 20 KB in
        path.write_bytes(data[:at + 2] + b"\xc3" + data[at + 2:])
        assert cli(capsys, str(path)) == (2, "", f"error: {path}:{data[:at].count(end) + 1}: not UTF-8 text (invalid "
                                                  "continuation byte at byte 3 of the line)\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FOUR.encode())))
    assert cli_json(capsys, "-")[1]["examples"] == 4 and not sys.stdin.buffer.closed


@pytest.mark.parametrize("cell, said", [('"abc"', "'abc' is not a number"), ('"1/0"', "'1/0' is not a number"),
                                        ("1e400", "inf is not a finite number")])
def test_a_kernel_model_s_stored_number_is_named_once_by_its_field(capsys, tmp_path, cell, said):
    # a stored example's bad number is that field's error, the file named once (it was "weights: FILE: stored...")
    path = write(tmp_path, "x1,x2,y\n0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")
    model = tmp_path / "model.json"
    cli(capsys, path, "--kernel", "polynomial:2", "--save", str(model), "--quiet")
    doc = json.loads(model.read_text())
    doc["stored"][0][0] = "cell"
    model.write_text(json.dumps(doc).replace('"cell"', cell))  # the JSON text as written
    status, out, err = cli(capsys, path, "--model", str(model))
    assert (status, out) == (2, "") and err.startswith(f"error: {model}: stored[0][0]: {said}"), err
    assert err.count(str(model)) == 1


# ===========================================================================
# 5. The oracle
# ===========================================================================

# ---------------------------------------------------------------------------
# --check: another implementation's run, each with one planted convention or fault
# ---------------------------------------------------------------------------

def their_run(examples, zero_is_mistake=False, rate=1, bias=False, bias_first=False, skip=None,
              by_prediction=False, stale=False, epoch_base=1, index_base=0, summed=None, passes=100):
    """An independent Perceptron as another project would write it, with what is planted in it."""
    summed = summed or (lambda terms: sum(terms))
    w = [0] * (len(examples[0][0]) + bias)
    previous, trace = w, []
    for epoch in range(passes):
        made = 0
        for i, (x, y) in enumerate(examples):
            x = ([1] + x if bias_first else x + [1]) if bias else x
            s = summed([a * b for a, b in zip(previous if stale else w, x)])
            guess = 1 if s >= 0 else -1
            if (y * s <= 0) if zero_is_mistake else guess != y:
                made += 1
                step = guess if by_prediction else y
                previous = w
                if len(trace) != skip:
                    w = [a + rate * step * b for a, b in zip(w, x)]
                trace.append({"epoch": epoch + epoch_base, "index": i + index_base, "score": s, "weights": w})
        if made == 0:
            break
    return {"weights": w, "trace": trace, "epochs": epoch + 1, "converged": made == 0}


def check(capsys, tmp_path, examples, theirs, *options):
    path = write(tmp_path, csv_of(examples))
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    return cli(capsys, path, "--check", str(tmp_path / "theirs.json"), *options)


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("rule", RULES)
def test_check_a_faithful_implementation_agrees(capsys, tmp_path, rule, bias):
    for examples in CHECKED:
        examples = examples[0]
        theirs = their_run(examples, zero_is_mistake=rule == "margin", bias=bias)
        options = ["--rule", rule] + (["--bias"] if bias else [])
        status, out, err = check(capsys, tmp_path, examples, theirs, *options)
        assert (status, err) == (0, "") and "agrees" in out


@pytest.mark.parametrize("planted, options, said, option", [
    ({"zero_is_mistake": True}, [], "--rule=margin: a mistake iff y (w.x) <= 0", "--rule=margin"),
    ({"rate": Fraction(1, 2)}, [], "--rate=1/2: every update times eta", "--rate=1/2"),
    ({"rate": 0.5}, [], "--rate=0.5: every update times eta", "--rate=0.5"),
    ({"rate": 0.1}, [], "--rate=0.1: every update times eta", "--rate=0.1"),
    ({"bias": True, "bias_first": True}, ["--bias"], "--bias-first: x read as (1, x)", "--bias-first"),
    ({"bias": True}, [], "--bias: x read as (x, 1)", "--bias"),
])
def test_check_names_a_convention_and_the_options(capsys, tmp_path, planted, options, said, option):
    # every convention the check names is an option of this project, and the command it prints agrees when run
    examples = CHECKED[1][0]
    theirs = their_run(examples, **planted)
    if isinstance(planted.get("rate"), Fraction):
        theirs = json.loads(json.dumps(theirs, default=lambda q: f"{q.numerator}/{q.denominator}"))
    status, out, err = check(capsys, tmp_path, examples, theirs, *options)
    assert (status, err) == (1, "")
    assert "diagnosis: a convention, not a bug" in out and said in out, out
    assert re.search(f"reproduce it: python3 perceptron.py .*{option} ", out)
    command = shlex.split(out.split("reproduce it: python3 perceptron.py ", 1)[1].splitlines()[0])
    assert cli(capsys, *command)[0] == 0


@pytest.mark.parametrize("planted, said", [({"epoch_base": 0}, "its epochs count from 0 (read as written)"),
                                           ({"index_base": 1}, "its indexes count from 1 (read as written)")])
def test_check_reads_a_way_of_writing_the_numbers_as_written_and_agrees(capsys, tmp_path, planted, said):
    # epochs from 0 or indexes from 1 are how THEIRS writes the notes' run, not another run: read, said, agreed
    examples = CHECKED[1][0]
    status, out, err = check(capsys, tmp_path, examples, their_run(examples, **planted))
    assert (status, err) == (0, "") and said in out.splitlines()[0], out


@pytest.mark.parametrize("keep", ["trace", "average"])
def test_check_counts_their_bias_from_any_vector_they_give(capsys, tmp_path, keep):
    # weights may be null beside an average or a trace; a length of d + 1 still says "a bias"
    examples = CHECKED[2][0]
    theirs = dict(their_run(examples, bias=True), weights=None)
    options = []
    if keep == "average":
        average = [f"{q.numerator}/{q.denominator}" for q in train(examples, bias=True, average="after").average]
        theirs, options = {"weights": None, "average": average}, ["--average", "after"]
    status, out, err = check(capsys, tmp_path, examples, theirs, *options)
    assert (status, err) == (1, "") and "--bias: x read as (x, 1)" in out


def test_check_a_np_sign_implementation_is_the_margin_rule(capsys, tmp_path):
    # `if np.sign(w @ x) != y`: np.sign(0) == 0 is never a label, so every zero score is a mistake
    examples = CHECKED[0][0]
    np_sign = lambda s: (s > 0) - (s < 0)  # noqa: E731
    w, trace = [0, 0, 0], []
    for epoch in range(1, 100):
        made = 0
        for i, (x, y) in enumerate(examples):
            if np_sign(sum(a * b for a, b in zip(w, x))) != y:
                w, made = [a + y * b for a, b in zip(w, x)], made + 1
                trace.append({"epoch": epoch, "index": i})
        if not made:
            break
    status, out, _ = check(capsys, tmp_path, examples, {"weights": w, "trace": trace})
    assert status == 1 and "--rule=margin: a mistake iff y (w.x) <= 0" in out
    assert check(capsys, tmp_path, examples, {"weights": w, "trace": trace}, "--rule", "margin")[0] == 0


@pytest.mark.parametrize("planted, said", [
    ({"skip": 2}, "THEIRS skipped the update"),
    ({"by_prediction": True}, "every update is by the prediction sign(w.x)"),
    ({"stale": True}, "every score is stale"),
])
def test_check_diagnoses_a_planted_bug(capsys, tmp_path, planted, said):
    examples = CHECKED[2][0]
    theirs = their_run(examples, passes=3, **planted)
    status, out, err = check(capsys, tmp_path, examples, theirs)
    assert (status, err) == (1, "")
    assert "a bug" in out and said in out


def test_check_a_zero_score_flipped_by_summing_in_another_order_is_rounding(capsys, tmp_path):
    # w = (-1e16, -1, 1e16) after the first mistake; on (1, 1, 1) the left-to-right sum
    # is (-1e16 + -1) + 1e16 = 0.0 (no mistake for y = +1), the exact score -1 (a mistake).
    examples = [([1e16, 1.0, -1e16], -1), ([1.0, 1.0, 1.0], 1)]
    theirs = their_run(examples, summed=lambda terms: math.fsum(terms), passes=1)
    status, out, err = check(capsys, tmp_path, examples, theirs, "--epochs", "1")
    assert (status, err) == (1, "")
    assert "a tie broken by rounding, not a bug" in out and "exact score w.x (from Fractions of the same floats) is -1" in out


def test_check_a_rounded_tie_with_the_bias_first_shows_the_exact_score_of_x_as_the_run_read_it(capsys, tmp_path):
    # --bias-first reads x as (1, x): w = (-1, -1e16, 2e16) after the first mistake; on (1, 2, 1) the left-to-right
    # sum is (-1 + -2e16) + 2e16 = 0.0, the exact score -1 (read as (2, 1, 1), the bias last, it would be 1e16 - 2)
    examples = [([1e16, -2e16], -1), ([2.0, 1.0], 1)]
    theirs = {"weights": [0.0, -9999999999999998.0, 2e16], "trace": [
        {"epoch": 1, "index": 0, "score": 0, "weights": [-1.0, -1e16, 2e16]},
        {"epoch": 1, "index": 1, "score": -1.0, "weights": [0.0, -9999999999999998.0, 2e16]}]}
    status, out, err = check(capsys, tmp_path, examples, theirs, "--epochs", "1", "--bias", "--bias-first")
    assert (status, err) == (1, "")
    assert "(primal, rule sign, bias first, 1 pass): a tie broken by rounding, not a bug" in out
    assert "exact score w.x (from Fractions of the same floats) is -1:" in out


def test_check_a_rounded_tie_at_the_first_step_shows_the_exact_score_from_the_start(tmp_path):
    # w = the start (-1e16, -1, 1e16) on (1, 1, 1): 0.0 left to right, exactly -1; it showed no exact score
    w = [-9999999999999999.0, 0.0, 1.0000000000000002e16]
    doc = {"weights": w, "start": [-1e16, -1.0, 1e16], "epochs": 1, "converged": False,
           "trace": [{"epoch": 1, "index": 0, "score": -1.0, "weights": w}]}
    status, out, err = check_in_process(tmp_path, [([1.0, 1.0, 1.0], 1)], doc, "--start=-1e16,-1,1e16", "--epochs=1")
    assert (status, err) == (1, "") and "a tie broken by rounding, not a bug" in out.splitlines()[0], out
    assert "the exact score w.x (from Fractions of the same floats) is -1:" in out, out


def test_check_a_convention_that_agrees_up_to_a_rounded_tie_is_named_then_the_tie(capsys, tmp_path):
    # the run of the test above, checked without --bias-first: the bias first agrees up to the tie rounding breaks
    examples = [([1e16, -2e16], -1), ([2.0, 1.0], 1)]
    theirs = {"weights": [0.0, -9999999999999998.0, 2e16], "trace": [
        {"epoch": 1, "index": 0, "score": 0, "weights": [-1.0, -1e16, 2e16]},
        {"epoch": 1, "index": 1, "score": -1.0, "weights": [0.0, -9999999999999998.0, 2e16]}]}
    status, out, err = check(capsys, tmp_path, examples, theirs, "--epochs", "1", "--bias")
    assert (status, err) == (1, "") and "a convention, not a bug" in out and "reproduce it" not in out
    assert "  - --bias-first: x read as (1, x)" in out, out
    assert "  under them the rest of the run agrees, step by step, up to epoch 1, index 1\n" \
        "then at epoch 1, index 1: a tie broken by rounding, not a bug.  Our score there is 0" in out, out


def test_check_reads_zero_one_labels_as_a_convention(capsys, tmp_path):
    examples = CHECKED[3][0]
    path = write(tmp_path, csv_of(examples, labels=(0, 1)))
    theirs = their_run(examples)
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    status, out, _ = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert status == 1 and "--labels=0,1: labels 0 and 1, read as -1 and +1" in out
    assert cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--labels=0,1")[0] == 0


def test_check_tolerance_accepts_weights_summed_apart(capsys, tmp_path):
    examples = [([0.1, 0.2], 1), ([-0.3, 0.1], -1), ([0.2, -0.1], 1)]
    theirs = their_run(examples)
    theirs["weights"] = [v * (1 + 1e-15) for v in theirs["weights"]]
    del theirs["trace"]
    assert check(capsys, tmp_path, examples, theirs)[0] == 1
    assert check(capsys, tmp_path, examples, theirs, "--tolerance", "1e-12")[0] == 0


def test_check_multiclass_names_the_other_update(capsys, tmp_path):
    path = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n")
    _, out, _ = cli(capsys, path, "--json", "--weights", "--multiclass", "joint")
    (tmp_path / "theirs.json").write_text(out, encoding="utf-8")
    status, out, _ = cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--multiclass")
    assert status == 1 and "--multiclass=joint: on a mistake of the argmax" in out


@pytest.mark.parametrize("theirs, ours, said", [("before", "after", "before every example (met in nltk"),
                                                ("after", "before", "after every example (met in Collins 2002")])
def test_check_an_average_taken_at_the_other_moment_is_named(capsys, tmp_path, theirs, ours, said):
    path = write(tmp_path, csv_of(noisy(6, n=25, d=3, flip=0.2)[0]))
    _, out, _ = cli(capsys, path, "--json", "--epochs", "3", "--average", theirs)
    (tmp_path / "theirs.json").write_text(out, encoding="utf-8")
    status, out, _ = cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--epochs", "3", "--average", ours)
    assert status == 1 and f"--average={theirs}: the mean of w {said}" in out


@pytest.mark.parametrize("options", [[], ["--bias", "--rule", "margin"], ["--pocket", "--max-epochs", "4"],
                                     ["--average", "after", "--epochs", "3"], ["--average", "before", "--epochs", "2"],
                                     ["--kernel", "polynomial:2", "--max-epochs", "20"],
                                     ["--kernel", "linear", "--bias", "--max-epochs", "20"],
                                     ["--voted", "--epochs", "2"], ["--epochs", "1"]])
def test_check_our_own_json_agrees_in_every_binary_mode(capsys, tmp_path, options):
    examples = noisy(5, n=30, d=3, flip=0.1)[0]
    path = write(tmp_path, csv_of(examples))
    for weights in ([], ["--weights"]):
        _, out, _ = cli(capsys, path, "--json", *weights, *options)
        (tmp_path / "ours.json").write_text(out, encoding="utf-8")
        status, out, err = cli(capsys, path, "--check", str(tmp_path / "ours.json"), *options)
        assert (status, err) == (0, "") and "agrees" in out


def test_check_of_our_own_json_agrees_on_ints_beyond_a_float(capsys, tmp_path):
    path = write(tmp_path, f"a,b,y\n{'9' * 310},1,1\n-1,{'9' * 310},-1\n")
    _, out, _ = cli(capsys, path, "--json")
    (tmp_path / "ours.json").write_text(out)
    for bitwise in ([], ["--bitwise"]):
        status, out, err = cli(capsys, path, "--check", str(tmp_path / "ours.json"), *bitwise)
        assert (status, err) == (0, "") and "agrees" in out


@pytest.mark.parametrize("theirs, said", [
    ('{"weights": [2, 1], "rate": 1e308}', 'it declares a rate ("rate": 1e+308), under which no run gives them'),
    ('{"weights": [2, 1], "rate": "1e400"}', "it declares a rate"),
    ('{"weights": [2, 1], "start": ["1e400", 0]}', "it declares a start"),
    ('{"weights": [2, 1], "start": [1e308, 1e308]}', 'it declares a start ("start": (1e+308, 1e+308))'),
    ('{"weights": [1e308, 1e308]}', "theirs: (1e+308, 1e+308)"),
])
def test_check_of_numbers_beyond_a_float_s_range_is_a_verdict(capsys, tmp_path, theirs, said):
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n")
    (tmp_path / "theirs.json").write_text(theirs)
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and said in out and "diagnosis: " in out


def test_check_of_weights_whose_rate_would_pass_a_float_s_range_is_a_verdict(capsys, tmp_path):
    # a rate read off 1e308 against a weight of ours below 1 passes binary64's range: that reading is no reading
    path = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n1,1,1\n2,-1,1\n-1,-2,-1\n1,2,-1\n")
    (tmp_path / "theirs.json").write_text('{"weights": [1e308, -1e308, 5]}')
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith(": unexplained"), out


@pytest.mark.parametrize("theirs", [  # found by random documents of extreme numbers: each was exit 3
    '{"weights": [5e-324, 1]}',  # a rate read as 5e-324 / a weight of ours, past a float
    '{"weights": [5e-324, -1e308], "trace": [{"epoch": 1, "index": 1, "score": 1e16, "weights": [-2147483653, 1e308]}, '
    '{"epoch": 1, "index": 5, "score": -1e308, "weights": [-1, 1e16]}, {"epoch": 1, "index": 6, "score": 3, '
    '"weights": [1e308, -1]}]}',  # a law's c and f inf or nan
    '{"weights": [5e-324, -2147483653], "trace": [{"epoch": 1, "index": 1, "score": 5e-324, "weights": [-1e308, 1]}]}',
])
def test_check_of_extreme_numbers_in_a_trace_or_weights_is_a_verdict_never_an_internal_error(capsys, tmp_path,
                                                                                               theirs):
    path = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n1,1,1\n2,-1,1\n-1,-2,-1\n1,2,-1\n")
    (tmp_path / "theirs.json").write_text(theirs)
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and "diagnosis: " in out, out


def test_check_of_a_zero_start_is_the_notes_start(capsys, tmp_path):
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n")
    (tmp_path / "theirs.json").write_text('{"weights": [2, 1], "start": [0, 0]}')
    assert cli(capsys, path, "--check", str(tmp_path / "theirs.json"))[0] == 0


@pytest.mark.parametrize("field, change, said", [
    ("mistakes", lambda d: dict(d, mistakes=3), "mistakes: 3, but the trace lists 4"),
    ("y", lambda d: dict(d, trace=[dict(d["trace"][0], y=0)] + d["trace"][1:]),
     "trace[0].y: 0 is not the label of example 0 (-1)"),
    ("y", lambda d: dict(d, trace=[dict(d["trace"][0], y=1)] + d["trace"][1:]),
     "trace[0].y: 1 is not the label of example 0 (-1)"),
    ("line", lambda d: dict(d, trace=[dict(d["trace"][0], line=99)] + d["trace"][1:]),
     "trace[0].line: 99: example 0 is on line 2"),
    ("kernel", lambda d: dict(d, kernel="polynomial:2"),
     "kernel: THEIRS is a kernel polynomial:2 run: check with --kernel polynomial:2"),
    ("multiclass", lambda d: dict(d, multiclass="joint"),
     "multiclass: THEIRS is a multiclass joint run: check with --multiclass joint"),
])
def test_check_reads_every_field_theirs_gives_and_refuses_one_that_is_not_this_run_s(capsys, tmp_path, field,
                                                                                      change, said):
    path = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n2,0,-1\n-3,-1,1\n0,4,1\n")
    _, doc = cli_json(capsys, path, "--bias")
    (tmp_path / "theirs.json").write_text(json.dumps(change(doc)))
    status, out, err = cli(capsys, path, "--bias", "--check", str(tmp_path / "theirs.json"))
    assert (status, out, err) == (2, "", f"error: {tmp_path / 'theirs.json'}: {said}\n")


@pytest.mark.parametrize("options", [["--multiclass"], ["--multiclass", "joint"], ["--multiclass", "--pocket"],
                                     ["--multiclass", "joint", "--pocket", "--bias"]])
def test_check_our_own_json_agrees_in_both_multiclass_modes(capsys, tmp_path, options):
    path = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n")
    _, out, _ = cli(capsys, path, "--json", "--weights", "--max-epochs", "6", *options)
    (tmp_path / "ours.json").write_text(out, encoding="utf-8")
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "ours.json"), "--max-epochs", "6", *options)
    assert (status, err) == (0, "") and "agrees" in out


@pytest.mark.parametrize("mode", ["one-vs-rest", "joint"])
def test_check_multiclass_classes_written_as_json_ints_are_the_files_labels(capsys, tmp_path, mode):
    """Integer labels written by json.dumps of ints ("class": 0, "predicted": 2) are the file's classes "0" and "2",
    as its "y" already was (once an error: '0 is not one of the classes')."""
    path = write(tmp_path, "a,b,y\n1,0,0\n0,1,1\n-1,-1,2\n2,0,0\n0,2,1\n")
    _, out, _ = cli(capsys, path, "--json", "--multiclass", mode)
    doc = json.loads(out)
    trace = [{k: int(v) if k in ("class", "predicted", "y") else v for k, v in step.items()} for step in doc["trace"]]
    (tmp_path / "theirs.json").write_text(json.dumps({"weights": doc["weights"], "trace": trace}))
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--multiclass", mode)
    assert (status, err) == (0, "") and "agrees" in out, err


def test_check_our_own_json_agrees_on_exact_and_float_data(capsys, tmp_path):
    for text, options in [("x1,x2,y\n1/2,0.1,1\n-1/3,0.25,-1\n2/3,-0.5,1\n-0.2,-1/7,-1\n", ["--exact", "--bias"]),
                          ("x1,x2,y\n0.1,0.2,1\n-0.3,0.1,-1\n0.2,-0.1,1\n1e-300,-2e300,-1\n", ["--rule", "margin"])]:
        path = write(tmp_path, text)
        _, out, _ = cli(capsys, path, "--json", "--weights", *options)
        (tmp_path / "ours.json").write_text(out, encoding="utf-8")
        status, out, err = cli(capsys, path, "--check", str(tmp_path / "ours.json"), *options)
        assert (status, err) == (0, "") and "agrees" in out


HOSTILE_THEIRS = [  # (mode, THEIRS as JSON text): a verdict (1) or one error line (2), never a traceback
    ([], '{"weights": [0, 0, 0], "trace": [{"class": "a", "epoch": 1, "index": 0}]}'),
    (["--multiclass", "joint"], '{"weights": {"a": [0, 0], "b": [0, 0], "c": [0, 0]}, "trace": [{"class": "a", '
                                '"epoch": 1, "index": 0, "y": "a", "predicted": "b"}]}'),
    (["--multiclass"], '{"weights": {"a": [0, 0], "b": [0, 0], "c": [0, 0]}, "trace": [{"epoch": 1, "index": 0}]}'),
    (["--multiclass"], '{"weights": {"a": [0, 0], "b": [0, 0], "c": [0, 0]}, "trace": [{"class": "a", "epoch": 1, '
                       '"index": 0, "weights": {"a": [0, 0]}}]}'),
    ([], '{"weights": [0, 0, 0], "trace": [{"epoch": 1, "index": 6}]}'),  # an index equal to n
    ([], '{"weights": [0, 0, 0], "trace": [{"epoch": true, "index": 0}]}'),
    ([], '{"weights": "000"}'),
    ([], '{"weights": {"0": 1, "1": 2, "2": 3}}'),
    ([], '{"weights": [0, 0, 0], "voted": 3, "trace": []}'),
]


@pytest.mark.parametrize("mode, text", HOSTILE_THEIRS)
def test_a_hostile_theirs_gets_a_verdict_or_one_error_line_never_a_traceback(capsys, tmp_path, mode, text):
    data = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n0,0,b\n" if mode else
                 "x1,x2,x3,y\n1,0,1,1\n0,1,0,-1\n-1,-1,0,-1\n1,1,1,1\n2,-1,0,1\n0,0,1,-1\n")
    (tmp_path / "theirs.json").write_text(text)
    status, out, err = cli(capsys, data, *mode, "--check", str(tmp_path / "theirs.json"))
    assert status in (1, 2) and "internal error" not in err
    assert (err.count("\n") == 1 and out == "") if status == 2 else (err == "" and out)


MODES = [[], ["--bias", "--rule", "margin"], ["--pocket", "--max-epochs", "4"], ["--average", "after", "--epochs", "2"],
         ["--voted", "--epochs", "2"], ["--kernel", "polynomial:2", "--max-epochs", "4"],
         ["--kernel", "linear", "--max-epochs", "4"]]
MULTI_MODES = [["--multiclass"], ["--multiclass", "joint"], ["--multiclass", "--pocket", "--max-epochs", "4"]]


@pytest.mark.slow
def test_every_modes_json_fed_to_every_other_mode_is_a_verdict_or_one_error_line(capsys, tmp_path):
    binary = write(tmp_path, csv_of(noisy(71, n=10, d=2, flip=0.2)[0]), "b.csv")
    classes = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n0,0,b\n", "m.csv")
    saved = []
    for mode in MODES + MULTI_MODES:
        data = classes if mode in MULTI_MODES else binary
        _, out, _ = cli(capsys, data, "--json", "--weights", *mode)
        (tmp_path / f"{len(saved)}.json").write_text(out)
        saved.append(tmp_path / f"{len(saved)}.json")
    for mode in MODES + MULTI_MODES:
        for theirs in saved:
            for data in (binary, classes):
                for option in ("--check", "--model"):
                    argv = [data, *mode, option, str(theirs)] if option == "--check" else [data, option, str(theirs)]
                    status, out, err = cli(capsys, *argv)
                    assert status in (0, 1, 2) and "internal error" not in err, (argv, err)
                    summary = option == "--model" and "examples; errors: " in err  # a labeled file's errors
                    assert err.count("\n") == 1 if status == 2 or summary else err == "", (argv, err)


def test_readme_check_example_prints_what_the_readme_shows(tmp_path):
    text = open(os.path.join(os.path.dirname(SCRIPT), "README.md"), encoding="utf-8").read()
    section = text[text.index("### `--check THEIRS.json`"):]
    commands = section.split("```sh\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    commands = commands.replace("python3 perceptron.py", f"{sys.executable} {SCRIPT}")
    done = subprocess.run(["bash", "-c", commands], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (1, shown, "")


def test_check_of_a_one_vs_rest_run_with_votes_from_a_run_without_them_is_a_verdict(tmp_path, capsys):
    # one-vs-rest votes are {class: [(v_k, c_k), ...]}: the search of conventions once read them as one list of
    # pairs and ended in an internal error (exit 3); as a binary run's votes, they are now told apart
    classes = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n0,0,b\n", "m.csv")
    _, out, _ = cli(capsys, classes, "--multiclass", "--voted", "--epochs", "2", "--json")
    (tmp_path / "theirs.json").write_text(out)
    status, out, err = cli(capsys, classes, "--multiclass", "--epochs", "2", "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and "they differ in the votes" in out, (out, err)
    assert cli(capsys, classes, "--multiclass", "--voted", "--epochs", "2", "--check",
               str(tmp_path / "theirs.json"))[0] == 0



def test_check_blames_no_step_theirs_never_made(tmp_path, capsys):
    # THEIRS stopped after one pass; ours goes on to a 5th mistake.  "Skipped the update at mistake 5" with "all -1
    # later mistakes agree" blamed a step THEIRS's trace does not have: a faulty step must be one THEIRS made.
    rows = ["-5,-1,-1", "2,1,1", "-1,2,1", "-2,3,1", "-3,-4,-1", "-1,3,1", "4,-3,1", "-4,5,1", "3,-4,-1", "0,4,1"]
    data = write(tmp_path, "x0,x1,y\n" + "\n".join(rows) + "\n")
    _, out, _ = cli(capsys, data, "--voted", "--epochs", "1", "--json")
    (tmp_path / "theirs.json").write_text(out)
    status, out, err = cli(capsys, data, "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and "bug in THEIRS" not in out and "-1 later" not in out, out
    # what it is, in the words a careful reader uses: one pass, with votes; the command printed agrees
    assert "  - --max-epochs=1: " in out and "  - --voted: " in out, out
    command = shlex.split(out.split("reproduce it: python3 perceptron.py ", 1)[1].splitlines()[0])
    assert cli(capsys, *command)[0] == 0


def test_check_of_a_kernel_run_with_weights_says_what_to_give(tmp_path, capsys):
    data = write(tmp_path, "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n")
    (tmp_path / "theirs.json").write_text('{"weights": [1, 2]}')
    status, out, err = cli(capsys, data, "--kernel", "polynomial:2", "--check", str(tmp_path / "theirs.json"))
    assert (status, out) == (2, "") and err.endswith("has no explicit weights: give null and the trace\n"), err

# ---------------------------------------------------------------------------
# --check against perceptrons written the way they are met in the wild, each
# with one convention, precision or fault planted: the verdict a careful reader
# of its source would give, its exit status, and where this project's options
# reproduce it, the printed command, run, agrees
# ---------------------------------------------------------------------------

def f32(v):
    """v rounded to binary32, as NumPy's float32 stores it."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


def pairwise(terms, add=lambda a, b: a + b):
    """NumPy's pairwise summation: blocks of 8 summed in order, then halves added."""
    if len(terms) <= 8:
        s = 0.0
        for t in terms:
            s = add(s, t)
        return s
    h = len(terms) // 2
    return add(pairwise(terms[:h], add), pairwise(terms[h:], add))


def wild_run(examples, passes=100, rule="sign", rate=1, start=None, bias=None, batch=None, order=None,
           number=lambda v: v, summed=None, fault=None, average=None, voted=False, batch_weights=None):
    """A binary perceptron as other projects write it.

    rule: "sign" (sign(0) = +1 != y), "margin" (y s <= 0), "negative" (np.where(s > 0, 1, -1)), "t-o"
    (o = np.sign(s), w += (t - o) x); bias: None, "last", "first" or "minus" (a threshold on a constant -1);
    batch: None, "sum", "mean"; order: a list of index lists, one per pass; number: the storage precision;
    summed: the order of a dot product's sum; fault: ("skip" | "twice" | "prediction", mistake number);
    batch_weights: a batch run's "w after" each mistake, "force" (the w in force) or "running" (w + delta)."""
    summed = summed or (lambda terms: sum(terms))
    d = len(examples[0][0])
    w = list(start) if start is not None else [number(0.0) if number is not int else 0] * (d + (bias is not None))
    if start is None and number(0.5) == 0.5 and number is not f32:
        w = [0] * (d + (bias is not None))
    trace, made_all, after_updates = [], 0, []
    history = []  # (w, since): for averages and votes
    t = 0
    for epoch in range(passes):
        made, delta = 0, None
        for position, i in enumerate(order[epoch % len(order)] if order else range(len(examples))):
            t += 1
            x, y = examples[i]
            x = [number(v) for v in x]
            x = {"last": x + [1], "first": [1] + x, "minus": x + [-1], None: x}[bias]
            s = summed([number(a * b) for a, b in zip(w, x)])
            if rule == "margin":
                o, wrong = (1 if s >= 0 else -1), y * s <= 0
            elif rule == "negative":
                o = 1 if s > 0 else -1
                wrong = o != y
            elif rule == "t-o":
                o = 1 if s > 0 else -1 if s < 0 else 0
                wrong = o != y
            else:
                o = 1 if s >= 0 else -1
                wrong = o != y
            if not wrong:
                continue
            f = (y - o) if rule == "t-o" else y
            if fault is not None and fault[1] in (made_all, "always"):
                f = {"skip": 0, "twice": 2 * f, "prediction": o}[fault[0]]
            f = rate * f
            made, made_all = made + 1, made_all + 1
            if batch:
                delta = [number(f * v) for v in x] if delta is None else [number(a + f * v) for a, v in zip(delta, x)]
                trace.append({"epoch": epoch + 1, "index": i, "score": s})
                if batch_weights:
                    trace[-1]["weights"] = w if batch_weights == "force" else [number(a + b) for a, b in zip(w, delta)]
            else:
                w = [number(a + f * v) for a, v in zip(w, x)]
                after_updates.append(w)
                history.append((w, t))
                trace.append({"epoch": epoch + 1, "index": i, "score": s, "weights": w})
        if batch and delta is not None:
            if batch == "mean":
                delta = [v / len(examples) for v in delta]
            w = [number(a + b) for a, b in zip(w, delta)]
        if made == 0:
            break
    run = {"weights": w, "trace": trace, "epochs": epoch + 1, "converged": made == 0}
    if average == "updates":
        run["average"] = [sum(column) / len(after_updates) for column in zip(*after_updates)]
    return run


def planted_data(seed, n=30, d=3, positive_first=True):
    rng = random.Random(seed)
    w_star = [rng.randint(-9, 9) for _ in range(d)]
    examples = []
    while len(examples) < n:
        x = [rng.randint(-9, 9) for _ in range(d)]
        s = sum(a * b for a, b in zip(w_star, x))
        if s:
            examples.append((x, 1 if s > 0 else -1))
    return sorted(examples, key=lambda e: -e[1]) if positive_first else examples


def check_in_process(tmp_path, examples, doc, *options, labels=(-1, 1)):
    """(status, standard output, standard error) of --check of doc against examples, in process."""
    data = tmp_path / "data.csv"
    data.write_text("".join(",".join(map(repr, x)) + f",{labels[0] if y < 0 else labels[1]}\n" for x, y in examples))
    (tmp_path / "theirs.json").write_text(json.dumps(doc, default=lambda q: f"{q.numerator}/{q.denominator}"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = P.main([str(data), "--check", str(tmp_path / "theirs.json"), *options])
    return status, out.getvalue(), err.getvalue()


def wild_kernel_run(xs, ys, K, passes=5):
    """A kernel perceptron in binary32 as NumPy writes it: the Gram matrix of inputs stored as float32, each
    score alpha * y * G[:, i] summed in float32; mistakes counted in alpha (the margin rule)."""
    X = [[f32(v) for v in x] for x in xs]
    G = [[K(a, b) for b in X] for a in X]
    alpha, trace, epochs = [0] * len(X), [], 0
    for epoch in range(1, passes + 1):
        epochs, m = epoch, 0
        for i in range(len(X)):
            s = 0.0
            for j in range(len(X)):
                s = f32(s + f32(alpha[j] * ys[j] * G[j][i]))
            if ys[i] * s <= 0:
                alpha[i], m = alpha[i] + 1, m + 1
                trace.append({"epoch": epoch, "index": i, "score": s})
        if m == 0:
            break
    return {"weights": None, "trace": trace, "epochs": epochs, "precision": "binary32"}


def f32_dot(a, b):
    s = 0.0
    for p, q in zip(a, b):
        s = f32(s + f32(p * q))
    return s


@pytest.mark.parametrize("spec, K", [
    ("polynomial:2", lambda a, b: f32(f32(f32_dot(a, b) + 1) ** 2)),
    ("gaussian:1", lambda a, b: f32(math.exp(-f32(f32_dot(*[[f32(p - q) for p, q in zip(a, b)]] * 2) / 2)))),
])
def test_check_of_a_binary32_kernel_run_on_decimal_inputs_is_rounding_and_of_a_wrong_kernel_unexplained(tmp_path, spec,
                                                                                                       K):
    rng = random.Random(17)
    for seed in range(3):
        xs = [[round(rng.uniform(-2, 2), 3) for _ in range(3)] for _ in range(30)]  # not binary32 values
        ys = [1 if a * a - b + 0.3 * c > 0 else -1 for a, b, c in xs]
        examples = list(zip(xs, ys))
        options = ("--kernel", spec, "--rule", "margin", "--epochs", "5")
        status, out, _ = check_in_process(tmp_path, examples, wild_kernel_run(xs, ys, K), *options)
        assert status == 0 and "up to binary32 rounding" in out, out
        wrong = wild_kernel_run(xs, ys, lambda a, b: f32(K(a, b) * 1.001))  # a kernel 0.1% off
        status, out, _ = check_in_process(tmp_path, examples, wrong, *options)
        assert status == 1 and out.splitlines()[0].endswith("): unexplained") and "a bug" not in out, out


def reproduced(tmp_path, out):
    """Run the report's "reproduce it" command: it must agree."""
    line = next(line for line in out.splitlines() if line.startswith("reproduce it: "))
    argv = shlex.split(line[len("reproduce it: python3 perceptron.py "):])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = P.main(argv)
    return status, out.getvalue()


PLANTED = [  # (name, their run's switches, the options, what the report must say: each convention named)
    ("the margin rule", {"rule": "margin"}, [], ["--rule=margin: a mistake iff y (w.x) <= 0"]),
    ("sign(0) = -1", {"rule": "negative"}, ["--rule", "margin"],
     ["--rule=sign: a mistake iff", "--zero=-1: a zero score predicts -1"]),
    ("the (t - o) update", {"rule": "t-o"}, [],
     ["--zero=0: a zero score predicts 0", "--step=error: w <- w + eta (y - o) x"]),
    ("a bias, last", {"bias": "last"}, [], ["--bias: x read as (x, 1)"]),
    ("a bias, first", {"bias": "first"}, ["--bias"], ["--bias-first: x read as (1, x)"]),
    ("a threshold on -1", {"bias": "minus"}, ["--bias"], ["--bias-feature=-1: the bias's constant feature is -1"]),
    ("a rate of 1/2", {"rate": Fraction(1, 2)}, [], ["--rate=1/2: every update times eta"]),
    ("a rate of 0.1", {"rate": 0.1}, [], ["--rate=0.1: every update times eta"]),
    ("the batch rule, summed", {"batch": "sum"}, [], ["--batch=sum: a batch's updates summed and applied at its end"]),
    ("the batch rule, the mean", {"batch": "mean"}, [],
     ["--batch=mean: a batch's updates summed, divided by its size"]),
    ("the batch rule, w in force after each mistake", {"batch": "sum", "batch_weights": "force"}, [],
     ["--batch=sum: a batch's updates summed"]),
    ("the batch rule, w and the updates so far after each", {"batch": "sum", "batch_weights": "running"}, [],
     ["--batch=sum: a batch's updates summed"]),
    ("the notes' start, under --start", {}, ["--start=1,-2,3"], ["--start=0,0,0: w starts at (0, 0, 0)"]),
    ("the notes' threshold, under --threshold", {}, ["--threshold=2"], ["--threshold=0: a mistake iff y (w.x) <= 0"]),
    ("no decay, under --decay", {}, ["--decay=0.1"], ["--decay=0: w <- (1 - 0) w at each example"]),
]


@pytest.mark.parametrize("name, planted, options, said", PLANTED, ids=[p[0] for p in PLANTED])
def test_check_names_each_convention_and_the_command_that_runs_it(tmp_path, name, planted, options, said):
    # every convention named is an option of this project: the printed command agrees when run
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, wild_run(examples, **planted), *options)
    assert (status, err) == (1, ""), out
    many = "a convention" if len(said) == 1 else f"{len(said)} conventions"
    assert f"diagnosis: {many}, not a bug" in out and all(f"  - {words}" in out for words in said), out
    assert reproduced(tmp_path, out)[0] == 0


def test_check_names_the_passes_theirs_made_under_epochs_given_not_max_epochs(capsys, tmp_path):
    xor = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    status, theirs = cli_json(capsys, write(tmp_path, csv_of(xor)), "--bias", "--epochs", "7")
    status, out, err = check(capsys, tmp_path, xor, theirs, "--bias", "--epochs", "5")
    assert (status, err) == (1, "") and "  - --epochs=7: the run stops after 7 passes" in out, out


def test_check_a_start_vector_and_a_rate_declared_agree_with_exit_0_and_undeclared_they_differ(tmp_path):
    examples = planted_data(32)
    start = [1, -2, 3]
    run = wild_run(examples, start=start, rate=Fraction(1, 4))
    status, out, err = check_in_process(tmp_path, examples, dict(run, start=start, rate="1/4"))
    assert (status, err) == (0, "") and out.startswith(f"check: {tmp_path / 'theirs.json'} agrees with this run")
    assert "under what it declares (\"rate\": 0.25, \"start\": (1, -2, 3)), confirmed at every step" in out
    assert "  - --start=1,-2,3: w starts at (1, -2, 3), not 0" in out and "  - --rate=1/4: every update" in out
    status, out, err = check_in_process(tmp_path, examples, dict(run, start=start, rate="1/2"))  # declared wrongly
    assert (status, err) == (1, "") and "agrees" not in out


@pytest.mark.parametrize("mistaken, status, said", [
    (False, 0, "under what it declares (\"order\": [0, 1]), "),  # example 2 makes no mistake; its order shown whole
    (True, 1, "its declaration does not describe its run")])  # example 2 makes one: its weights are the notes'
def test_check_of_the_notes_numbers_under_an_order_leaving_an_example_out_is_a_verdict(tmp_path, mistaken, status,
                                                                                      said):
    examples = [([1, 2], 1), ([-2, -1], -1), ([3, 3] if not mistaken else [-3, 1], 1)]
    run = wild_run(examples)  # the notes' numbers, declared under an order without example 2
    assert any(s["index"] == 2 for s in run["trace"]) is mistaken
    doc = {"weights": run["weights"], "order": [0, 1]} if mistaken else dict(run, order=[0, 1])
    result, out, err = check_in_process(tmp_path, examples, doc)  # (was exit 3: no difference to read a bug from)
    assert (result, err) == (status, "") and said in out, out


def test_check_an_order_per_pass_declared_agrees_with_exit_0(tmp_path):
    examples = planted_data(33)
    rng = random.Random(33)
    order = [rng.sample(range(len(examples)), len(examples)) for _ in range(5)]
    doc = dict(wild_run(examples, order=order), order=order)
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, err) == (0, "") and "agrees with this run" in out and "pass p visits the examples in" in out
    notes = dict(wild_run(examples), order=list(range(len(examples))))  # the notes' own order, declared
    status, out, err = check_in_process(tmp_path, examples, notes)
    assert (status, err) == (0, "") and "under what it declares (\"order\": [0, 1, 2, ..., 29])" \
        in out, out


@pytest.mark.parametrize("declared, option, said", [({"start": [0, 0]}, "--start=1,1", "--start=0,0: w starts at"),
                                                    ({"rate": 1}, "--rate=2", "--rate=1: every update times eta")])
def test_check_of_a_run_declaring_the_notes_value_under_another_option_is_a_convention(capsys, tmp_path, declared,
                                                                                       option, said):
    # THEIRS declares w = 0 or eta = 1, the notes' own: checked under --start or --rate it read "unexplained"
    theirs = {"weights": [2, 1], "trace": [{"epoch": 1, "index": 1, "score": 0, "weights": [2, 1]}], **declared}
    status, out, err = check(capsys, tmp_path, [([1, 2], 1), ([-2, -1], -1), ([1, -1], 1)], theirs, option)
    assert (status, err) == (1, "") and "diagnosis: a convention, not a bug" in out and f"  - {said}" in out, out
    assert reproduced(tmp_path, out)[0] == 0


def test_check_says_the_other_reading_as_options_alone_where_theirs_writes_its_epochs_from_0(capsys, tmp_path):
    # the README's run, its epochs from 0: the other reading is --zero=-1, not the words of a way of writing
    theirs = {"weights": [2, 1], "trace": [{"epoch": 0, "index": 0, "score": 0, "weights": [1, 2]},
                                           {"epoch": 0, "index": 2, "score": -1, "weights": [2, 1]}]}
    status, out, err = check(capsys, tmp_path, [([1, 2], 1), ([-2, -1], -1), ([1, -1], 1)], theirs)
    assert (status, err) == (1, "") and "\n  (or equally: --zero=-1)\n" in out, out
    assert reproduced(tmp_path, out)[0] == 0


@pytest.mark.parametrize("option, said", [(["--average", "after"], "--average=after: the mean"),
                                          (["--average", "before"], "--average=before: the mean"),
                                          (["--voted"], "--voted: every w kept")])
def test_check_a_run_of_more_passes_than_its_clean_one_checked_without_epochs_is_two_conventions(capsys, tmp_path,
                                                                                                option, said):
    # it converged at pass 2 and made 3: --epochs=3 is named with what it kept (was "unexplained")
    examples = [([1, 2], 1), ([-2, -1], -1), ([1, -1], 1)]
    status, theirs = cli_json(capsys, write(tmp_path, csv_of(examples)), *option, "--epochs", "3")
    status, out, err = check(capsys, tmp_path, examples, theirs)
    assert (status, err) == (1, "") and "diagnosis: 2 conventions, not a bug" in out, out
    assert f"  - {said}" in out and "  - --epochs=3: the run stops after 3 passes" in out, out
    assert reproduced(tmp_path, out)[0] == 0


def test_check_an_average_over_updates(tmp_path):
    examples = planted_data(34)
    doc = wild_run(examples, average="updates")
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert status == 1 and "the mean of w after every update" in out, out


def test_check_of_a_pocket_alone_is_refused_for_a_pocket_is_not_compared(tmp_path):
    # it agreed at exit 0, "compared: nothing but the form", whatever the pocket held
    doc = {"weights": None, "pocket": {"weights": [5, 5], "errors": 3}}
    status, out, err = check_in_process(tmp_path, [([1, 0], 1), ([0, 1], -1), ([1, 1], 1)], doc)
    assert (status, out) == (2, "") and "weights: null, and nothing else to compare" in err, err


@pytest.mark.parametrize("rows, options", [
    ("1,0,a\n0,1,b\n1,1,c\n-1,0,a\n", ["--multiclass", "joint"]),  # the replay had no joint mean of updates
    ("1,0,1\n0,1,-1\n1,1,1\n-1,0,-1\n", ["--batch", "sum"])])  # nor train's: w after each mistake's step
def test_check_of_this_project_s_own_average_over_updates_agrees(tmp_path, capsys, rows, options):
    data, saved = tmp_path / "data.csv", tmp_path / "saved.json"
    data.write_text(rows)
    options = [str(data), "--epochs", "2", "--average", "updates", *options]
    assert P.main([*options, "--save", str(saved)]) == 0
    capsys.readouterr()
    assert P.main([*options, "--check", str(saved)]) == 0, capsys.readouterr().out
    assert "compared: average, weights; exactly" in capsys.readouterr().out


@pytest.mark.parametrize("average", ["after", "before", "updates"])
def test_check_of_this_project_s_own_float_average_agrees_bit_for_bit(tmp_path, capsys, average):
    # the replay's mean over updates was the exact one, not train's float of it: --bitwise read its own run as "not
    # bit for bit"
    rng = random.Random(3)
    xs = [[round(rng.uniform(-1, 1), 3) for _ in range(3)] for _ in range(30)]
    path = write(tmp_path, csv_of([(x, 1 if x[0] + 0.3 * x[1] - 0.2 * x[2] + rng.uniform(-0.3, 0.3) > 0 else -1)
                                   for x in xs]))
    options = [path, "--epochs", "5", "--average", average]
    _, out, _ = cli(capsys, *options, "--json")
    (tmp_path / "ours.json").write_text(out, encoding="utf-8")
    status, out, err = cli(capsys, *options, "--bitwise", "--check", str(tmp_path / "ours.json"))
    assert (status, err) == (0, "") and "compared: average, " in out and out.rstrip().endswith("bit for bit"), out


@pytest.mark.parametrize("fault, said", [("skip", "THEIRS skipped the update at mistake 3"),
                                         ("twice", "THEIRS made the update twice at mistake 3"),
                                         ("prediction", "updated by the prediction sign(w.x), not by the label at "
                                                        "mistake 3")])
def test_check_finds_the_one_step_that_explains_the_rest(tmp_path, fault, said):
    examples = planted_data(35)
    doc = wild_run(examples, fault=(fault, 2))
    del doc["weights"]  # the trace's positions alone: where they part is after the fault
    doc["weights"] = None
    for entry in doc["trace"]:
        entry.pop("weights")
        entry.pop("score")
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, err) == (1, "") and said in out, out


def test_check_a_float_zero_score_at_w_zero_is_a_convention_not_a_tie(tmp_path):
    examples = [([0.5, 1.25], 1), ([-1.5, 0.25], -1), ([0.75, -0.5], 1)]
    status, out, err = check_in_process(tmp_path, examples, wild_run(examples, rule="margin"))
    assert status == 1 and "--rule=margin" in out and "rounding" not in out


def test_check_numpy_pairwise_sums_agree_up_to_rounding(tmp_path):
    rng = random.Random(36)
    w_star = [rng.uniform(-1, 1) for _ in range(30)]
    examples = []
    for _ in range(150):
        x = [rng.uniform(-10, 10) * 10 ** rng.randint(-2, 3) for _ in range(30)]
        examples.append((x, 1 if sum(a * b for a, b in zip(w_star, x)) >= 0 else -1))
    status, out, err = check_in_process(tmp_path, examples, wild_run(examples, rule="margin", summed=pairwise), "--rule", "margin")
    assert (status, err) == (0, "") and "agrees" in out and "up to binary64 rounding" in out


def test_check_float32_storage_and_sums_agree_up_to_binary32_rounding(tmp_path):
    rng = random.Random(37)
    w_star = [rng.uniform(-1, 1) for _ in range(20)]
    examples = []
    for _ in range(150):
        x = [f32(rng.uniform(-10, 10)) for _ in range(20)]
        examples.append((x, 1 if sum(a * b for a, b in zip(w_star, x)) >= 0 else -1))
    doc = wild_run(examples, rule="margin", number=f32, summed=lambda t: pairwise(t, lambda a, b: f32(a + b)))
    status, out, err = check_in_process(tmp_path, examples, doc, "--rule", "margin")
    assert (status, err) == (0, "") and "up to binary32 rounding" in out


def test_check_float32_weights_scored_in_binary64_agree_up_to_binary32_rounding_undeclared(tmp_path):
    """array('f') weights (or NumPy's float32 w beside float64 x): each score a binary64 sum, so its scores hold
    no binary32 value; the weights it writes tell the format (once "unexplained": guessed binary64 from its scores)."""
    rng = random.Random(3)
    examples = [(x, 1 if 0.7 * x[0] - x[1] + 0.5 > 0 else -1)
                for x in ([round(rng.uniform(-3, 3), 2) for _ in range(2)] for _ in range(12))]
    w, trace = array.array("f", [0.0, 0.0]), []
    for epoch in range(1, 101):
        made = len(trace)
        for i, (x, y) in enumerate(examples):
            s = sum(a * b for a, b in zip(w, x))
            if (1 if s >= 0 else -1) != y:
                for k, v in enumerate(x):
                    w[k] += y * v
                trace.append({"epoch": epoch, "index": i, "score": s, "weights": list(w)})
        if len(trace) == made:
            break
    status, out, err = check_in_process(tmp_path, examples, {"weights": list(w), "trace": trace})
    assert (status, err) == (0, "") and "up to binary32 rounding" in out, out


def test_check_float32_sums_of_integers_past_2_to_the_24(tmp_path):
    rng = random.Random(38)
    examples = []
    for _ in range(60):
        x = [rng.randint(-3000, 3000) for _ in range(4)]
        examples.append((x, 1 if 3 * x[0] - 2 * x[1] + x[2] - 5 * x[3] >= 0 else -1))
    doc = wild_run(examples, rule="margin", number=f32, summed=lambda t: pairwise(t, lambda a, b: f32(a + b)),
                 passes=200)
    for declared in (True, False):
        status, out, err = check_in_process(tmp_path, examples, dict(doc, precision="binary32") if declared else doc,
                                 "--rule", "margin", "--max-epochs", "200")
        assert (status, err) == (0, "") and "up to binary32 rounding" in out


def test_check_a_misspelled_key_is_one_error_line_with_the_nearest(tmp_path):
    examples = planted_data(39)
    doc = wild_run(examples)
    doc["traces"] = doc.pop("trace")
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, out) == (2, "") and "'traces': not a field of the JSON of a run (did you mean 'trace'?)" in err
    doc = wild_run(examples)
    doc["extra"] = {"anything": [1, 2, 3]}  # kept beside, never read
    assert check_in_process(tmp_path, examples, doc)[0] == 0


@pytest.mark.slow
def test_check_never_calls_random_summation_orders_a_bug(tmp_path):
    """Seeded fuzzing of the float model: random data, random orders of summing, binary64 and binary32."""
    rng = random.Random(40)
    verdicts = set()
    for case in range(40):
        d, n = rng.randint(2, 12), rng.randint(5, 40)
        examples = [([rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3) for _ in range(d)], rng.choice([1, -1]))
                    for _ in range(n)]
        number = f32 if case % 2 else (lambda v: v)

        def shuffled(terms, add=(lambda a, b: f32(a + b)) if case % 2 else (lambda a, b: a + b)):
            terms = list(terms)
            rng.shuffle(terms)
            s = 0.0
            for t in terms:
                s = add(s, t)
            return s
        doc = wild_run(examples, rule="margin", number=number, summed=shuffled, passes=20)
        if case % 2:
            doc["precision"] = "binary32"
        status, out, err = check_in_process(tmp_path, examples, doc, "--rule", "margin", "--max-epochs", "20")
        assert err == "" and "a bug," not in out and "a bug in" not in out, out
        verdicts.add(status if status == 0 else "tie" if "a tie broken by rounding" in out else out)
    assert verdicts <= {0, "tie"} and 0 in verdicts


def wild_joint(examples, classes, passes=50, empty=False, ties="first"):
    """The joint multiclass update as other projects write it: argmax over the classes' scores, w(y) += x and
    w(guess) -= x on a mistake; ``empty``: no guess while every vector is 0; ties to the first or last class."""
    d = len(examples[0][0])
    w = {c: [0] * d for c in classes}
    trace = []
    for epoch in range(passes):
        made = 0
        for i, (x, y) in enumerate(examples):
            if empty and not any(v for vector in w.values() for v in vector):
                guess = None
            else:
                scores = {c: sum(a * b for a, b in zip(w[c], x)) for c in classes}
                order = classes[::-1] if ties == "last" else classes
                guess = max(order, key=lambda c: scores[c])  # max keeps the first of equals
            if guess != y:
                w = dict(w)
                w[y] = [a + b for a, b in zip(w[y], x)]
                if guess is not None:
                    w[guess] = [a - b for a, b in zip(w[guess], x)]
                made += 1
                trace.append({"epoch": epoch + 1, "index": i, "y": y, "predicted": guess, "weights": w})
        if made == 0:
            break
    return {"weights": w, "trace": [dict(t, predicted=t["predicted"] or classes[0]) for t in trace],
            "epochs": epoch + 1, "converged": made == 0}


CLASSES = [([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "c"), ([1, 1], "a"), ([2, -1], "c"), ([0, 2], "b"),
           ([-2, -1], "c"), ([3, 1], "a")]


@pytest.mark.parametrize("planted, said", [({"empty": True}, "--abstain: while every class's vector is 0 no class is "
                                                             "predicted"),
                                           ({"ties": "last"}, "--ties=last: an argmax tie goes to the class listed last")])
def test_check_names_the_joint_updates_conventions(tmp_path, planted, said):
    classes = ["a", "b", "c"]
    doc = wild_joint(CLASSES, classes, **planted)
    for entry in doc["trace"]:
        entry.pop("predicted")
    status, out, err = check_classes(tmp_path, CLASSES, doc, "--multiclass", "joint")
    assert (status, err) == (1, "") and said in out and "diagnosis: a convention, not a bug" in out, out
    assert reproduced(tmp_path, out)[0] == 0


def check_classes(tmp_path, examples, doc, *options):
    data = tmp_path / "classes.csv"
    data.write_text("".join(",".join(map(repr, x)) + f",{y}\n" for x, y in examples))
    (tmp_path / "theirs.json").write_text(json.dumps(doc, default=lambda q: f"{q.numerator}/{q.denominator}"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = P.main([str(data), "--check", str(tmp_path / "theirs.json"), *options])
    return status, out.getvalue(), err.getvalue()


def test_check_one_vs_rest_averages_class_by_class_are_reproduced_by_the_options(tmp_path):
    # scikit-learn's SGDClassifier(average=True) averages each class's binary run: --multiclass --average after
    classes = ["a", "b", "c"]
    runs = {c: P.train([(x, 1 if y == c else -1) for x, y in CLASSES], rule="margin", epochs=3, average="after")
            for c in classes}
    doc = {"weights": {c: [float(v) for v in r.w] for c, r in runs.items()},
           "average": {c: [float(v) for v in r.average] for c, r in runs.items()}}
    status, out, err = check_classes(tmp_path, CLASSES, doc, "--multiclass", "--rule", "margin", "--epochs", "3")
    assert status == 1 and "--average=after" in out
    assert reproduced(tmp_path, out)[0] == 0


def test_check_compares_the_votes_when_given(tmp_path):
    examples = planted_data(41)
    run = P.train(examples, epochs=3, voted=True)
    doc = {"weights": run.w, "voted": [{"weights": v, "count": c} for v, c in run.voted]}
    assert check_in_process(tmp_path, examples, doc, "--voted", "--epochs", "3")[0] == 0
    doc["voted"][1]["count"] += 1
    status, out, err = check_in_process(tmp_path, examples, doc, "--voted", "--epochs", "3")
    assert status == 1 and "they differ in the votes" in out
    kernel = P.train(examples, kernel=P.dot, epochs=3, voted=True)
    doc = {"weights": kernel.w, "trace": [{"epoch": m.epoch, "index": m.index} for m in kernel.trace],
           "voted": [{"mistakes": k, "count": c} for k, c in kernel.voted]}
    assert check_in_process(tmp_path, examples, doc, "--voted", "--epochs", "3", "--kernel", "linear")[0] == 0


def test_check_tolerance_is_relative_to_the_sums_scale_and_bitwise_to_nothing(tmp_path):
    rng = random.Random(42)
    examples = [([rng.uniform(-1, 1) for _ in range(6)], rng.choice([1, -1])) for _ in range(30)]
    exact = wild_run(examples, rule="margin", passes=10)
    noisy = json.loads(json.dumps(exact))
    for entry in noisy["trace"]:
        entry["score"] *= 1 + 1e-9  # their numbers are off by a billionth, far beyond rounding
        entry["weights"] = [v * (1 + 1e-9) for v in entry["weights"]]
    noisy["weights"] = [v * (1 + 1e-9) for v in noisy["weights"]]
    options = ["--rule", "margin", "--max-epochs", "10"]
    assert check_in_process(tmp_path, examples, noisy, *options)[0] == 1
    assert check_in_process(tmp_path, examples, noisy, *options, "--tolerance", "1e-7")[0] == 0
    paired = wild_run(examples, rule="margin", passes=10, summed=pairwise)
    assert check_in_process(tmp_path, examples, paired, *options)[0] == 0
    status, out, err = check_in_process(tmp_path, examples, paired, *options, "--bitwise")
    assert status in (0, 1) and (status == 0 or "not bit for bit (--bitwise), but alike up to binary64 rounding" in out)


# ---------------------------------------------------------------------------
# --vectors: the conformance corpus
# ---------------------------------------------------------------------------

# The corpus's bytes: a change of them is a change every implementation tested
# against the corpus sees, so it is made on purpose, here, with the version.
VECTORS_DIGEST = "a9fd70c6a50e57bf96a730fda0423a3f766776ff18bb1eeedad60ae2b84dd965"  # 0.4.0: only the version changed


def corpus_digest(folder):
    digest = hashlib.sha256()
    for name in sorted(os.listdir(folder)):
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return digest.hexdigest()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("vectors")
    assert P.main(["--vectors", str(folder)]) == 0
    return folder


def test_vectors_are_the_same_bytes_on_every_run(corpus, tmp_path, capsys):
    assert P.main(["--vectors", str(tmp_path)]) == 0
    assert corpus_digest(tmp_path) == corpus_digest(corpus) == VECTORS_DIGEST


def test_vectors_cover_what_the_issue_lists(corpus):
    cases = json.loads((corpus / "index.json").read_text(encoding="utf-8"))["cases"]
    names = {case["name"] for case in cases}
    assert {"zero-score-sign", "zero-score-margin", "sign-of-zero", "bias", "labels-0-1", "exact-fractions",
            "float-summation-order", "not-separable", "pocket", "multiclass-one-vs-rest", "multiclass-joint",
            "average-after", "average-before", "voted", "dual"} <= names
    kernels_used = {option.split(":")[0] for case in cases for option in case["options"] if "--kernel" in
                    case["options"] and case["options"].index(option) == case["options"].index("--kernel") + 1}
    assert kernels_used == {"linear", "polynomial", "monotone-conjunction", "all-conjunction", "conjunction",
                            "gaussian"}
    for case in cases:
        assert set(case) == {"name", "about", "data", "options", "expected"} and "\n" not in case["about"]


def test_every_vector_runs_to_its_expected_json_and_checks_equal(corpus, capsys, monkeypatch):
    monkeypatch.chdir(corpus)
    for case in json.loads((corpus / "index.json").read_text(encoding="utf-8"))["cases"]:
        P.main([case["data"], "--json", *case["options"]])
        out = capsys.readouterr().out
        assert out == (corpus / case["expected"]).read_text(encoding="utf-8"), case["name"]
        status, out, err = cli(capsys, case["data"], *case["options"], "--check", case["expected"])
        assert (status, err) == (0, "") and "agrees" in out, case["name"]
        doc = json.loads((corpus / case["expected"]).read_text(encoding="utf-8"))
        if doc["kernel"] is None:  # w after every mistake, so that a fault is found at its step
            assert all("weights" in entry for entry in doc["trace"]), case["name"]


@pytest.mark.parametrize("stop", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_vectors_stopped_part_way_leave_no_half_corpus(capsys, tmp_path, monkeypatch, stop):
    create, calls = os.open, []

    def failing(name, flags, *mode):  # a disk that fills, or Ctrl-C, at the 7th file made
        if flags & os.O_CREAT:
            calls.append(name)
            if len(calls) == 7:
                raise stop
        return create(name, flags, *mode)

    monkeypatch.setattr(os, "open", failing)
    (tmp_path / "old").mkdir()
    older = '{"perceptron": "0.3.0", "cases": []}'  # an older corpus's index
    (tmp_path / "old" / "index.json").write_text(older, encoding="utf-8")
    for folder, left in [(tmp_path / "a" / "b" / "new", None), (tmp_path / "old", ["index.json"])]:
        calls.clear()
        status = P.main(["--vectors", str(folder)])
        _, err = capsys.readouterr()
        if isinstance(stop, OSError):
            assert status == 2 and "No space left on device" in err and err.count("\n") == 1
        else:
            assert status == 130
        assert (sorted(os.listdir(folder)) if folder.exists() else None) == left
        assert not (tmp_path / "a").exists()  # nor the folders made above it
    assert (tmp_path / "old" / "index.json").read_text(encoding="utf-8") == older  # the older corpus, as it was


def test_vectors_never_writes_over_a_folder_whose_index_json_is_not_a_corpus_s(capsys, tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    mine = {"index.json": '{"app": 1}', "bias.csv": "mine", "pocket.json": "mine"}
    for name, text in mine.items():
        (folder / name).write_text(text)
    status, out, err = cli(capsys, "--vectors", str(folder))
    assert (status, out) == (2, "") and "the folder holds other files" in err
    assert {p.name: p.read_text() for p in folder.iterdir()} == mine
    assert cli(capsys, "--vectors", str(tmp_path / "corpus"))[0] == 0  # a corpus is one: written again
    assert cli(capsys, "--vectors", str(tmp_path / "corpus"))[0] == 0


def test_vectors_to_a_folder_name_the_output_cannot_encode(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    status, out, err = cli_process("--vectors", "corpus-é", cwd=tmp_path, env=env, timeout=60, text=False)
    assert status == 0 and err == b"" and b"corpus-\\xe9" in out
    assert "index.json" in os.listdir(tmp_path / "corpus-é")


def law_run(examples, passes=60, rate=1, threshold=0, decay=0, passive=False, order=None, start=None,
            broken=None):
    """A perceptron as hinge, passive-aggressive or weight-decay code writes it, with w after each update:
    decay at every example (w *= 1 - decay), an update while y w.x <= threshold, by rate y x or by the
    passive-aggressive step (threshold - y w.x) / x.x; order: one list per pass; broken: (mistake, how)."""
    w = list(start) if start else [0.0] * len(examples[0][0])
    trace, made = [], 0
    for epoch in range(passes):
        m = 0
        for i in (order[epoch % len(order)] if order else range(len(examples))):
            x, y = examples[i]
            if decay:
                w = [(1 - decay) * a for a in w]
            s = sum(a * b for a, b in zip(w, x))
            if y * s <= threshold and (threshold or s or y < 0):
                eta = (threshold - y * s) / sum(v * v for v in x) if passive else rate
                step = {None: 1, "skip": 0, "twice": 2, "one weight": 1}[broken[1] if broken and broken[0] == made
                                                                        else None]
                w = [a + step * eta * y * b for a, b in zip(w, x)]
                if broken and broken[0] == made and broken[1] == "one weight":
                    w[0] += 1
                trace.append({"epoch": epoch + 1, "index": i, "score": s, "weights": w})
                m, made = m + 1, made + 1
        if m == 0:
            break
    return {"weights": w, "trace": trace, "epochs": epoch + 1, "converged": m == 0}


SHUFFLED = [random.Random(k).sample(range(30), 30) for k in range(60)]
LAWS = [  # (what is planted, law_run's arguments, the words each law is read in)
    ("a rate and a margin threshold", {"rate": 0.1, "threshold": 1}, ["--rate=0.1: every update times eta",
                                                                     "--threshold=1: a mistake iff y (w.x) <= 1"]),
    ("weight decay at each example", {"decay": 0.01, "passes": 20},
     ["--decay=0.01: w <- (1 - 0.01) w at each example"]),
    ("passive-aggressive", {"passive": True, "threshold": 1, "passes": 20},
     ["--step=passive-aggressive: w <- w + ((T - y w.x) / x.x) y x", "--threshold=1: a mistake iff y (w.x) <= 1"]),
    ("a shuffle each pass, undeclared", {"order": SHUFFLED}, ["a shuffle: each pass visits a new permutation"]),
    ("a decay and a rate", {"decay": 0.001, "rate": 0.5, "passes": 20},
     ["--decay=0.001: w <- (1 - 0.001) w at each example", "--rate=0.5: every update times eta"]),
    ("a rate, a threshold and a shuffle", {"rate": 0.25, "threshold": 2, "order": SHUFFLED},
     ["--rate=0.25: every update times eta", "--threshold=2: a mistake iff y (w.x) <= 2", "a shuffle: "]),
    ("a start, undeclared, and a rate", {"start": [3, -1, 2], "rate": 0.5},
     ["--rate=0.5: every update times eta", "--start=3,-1,2: w starts at (3, -1, 2), not 0"]),
]


@pytest.mark.parametrize("name, planted, said", LAWS, ids=[law[0] for law in LAWS])
def test_check_reads_a_law_off_their_trace_alone_or_combined_as_outside_the_notes_not_a_bug(tmp_path, name,
                                                                                              planted, said):
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, law_run(examples, **planted))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert "a law read from THEIRS's own trace holds at every one of its" in out and "bug in" not in out
    for words in said:
        assert words in out, (words, out)


def test_check_runs_a_law_with_the_order_theirs_declares(tmp_path):
    # a decay read under a declared order: its run visited the file's order, did not agree, and asked for "order"
    examples, order = planted_data(31), [random.Random(k).sample(range(30), 30) for k in range(20)]
    run = dict(law_run(examples, decay=0.01, passes=20, order=order), order=order)
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert "  - --decay=0.01: " in out and "the run with them agrees step by step" in out, out


@pytest.mark.parametrize("placed", [["--bias-first"], ["--bias-feature=-1"], ["--bias-first", "--bias-feature=-1"]])
def test_check_reads_a_law_with_the_bias_where_the_options_place_it(capsys, tmp_path, placed):
    path = write(tmp_path, "x1,x2,y\n2,1,1\n-1,-2,-1\n1,-1,1\n-2,1,-1\n1,2,-1\n3,1,1\n-1,-3,-1\n")
    status, theirs = cli_json(capsys, path, "--bias", *placed, "--decay=0.1", "--weights")
    theirs = {field: theirs[field] for field in ("weights", "trace", "epochs", "converged")}  # the decay undeclared
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    status, out, err = cli(capsys, path, "--bias", *placed, "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert "  - --decay=0.1: w <- (1 - 0.1) w at each example" in out and "the run with them agrees" in out, out


@pytest.mark.parametrize("planted, given, said", [
    (["--decay=0.1"], ["--rate=0.5"], ["  - --rate=1: every update times eta", "  - --decay=0.1: "]),
    (["--rate=0.5", "--threshold=1"], ["--decay=0.2"], ["  - --rate=0.5: ", "  - --threshold=1: "]),
    (["--decay=0.1"], ["--threshold=1", "--step=error"], ["  - --decay=0.1: "])])
def test_check_reads_a_law_against_the_notes_not_the_options_given(capsys, tmp_path, planted, given, said):
    path = write(tmp_path, "x1,x2,y\n2,1,1\n-1,-2,-1\n1,-1,1\n-2,1,-1\n1,2,-1\n3,1,1\n-1,-3,-1\n")
    status, theirs = cli_json(capsys, path, "--bias", *planted, "--weights")  # undeclared
    theirs = {field: theirs[field] for field in ("weights", "trace", "epochs", "converged")}
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    status, out, err = cli(capsys, path, "--bias", *given, "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert all(words in out for words in said) and "the run with them agrees" in out, out
    reproduce = next(line for line in out.splitlines() if line.startswith("reproduce it: "))
    assert all(option in reproduce for option in planted) and not any(option in reproduce for option in given), out


@pytest.mark.parametrize("broken, planted, did", [
    ((5, "one weight"), {}, "made an update other than the law's (the notes' w <- w + y x) at mistake 6"),
    ((4, "skip"), {"rate": 0.1}, "skipped the update at mistake 5"),
    ((4, "twice"), {"rate": 0.1, "threshold": 1}, "made the update twice at mistake 5"),
    ((7, "one weight"), {"decay": 0.01, "passes": 20}, "made an update other than the law's (--decay=0.01: w <- (1 - 0.01) w at each example)"),
])
def test_check_names_one_step_that_breaks_the_law_every_other_step_keeps_a_bug_in_theirs(tmp_path, broken, planted,
                                                                                        did):
    examples = planted_data(31)
    run = law_run(examples, broken=broken, **planted)
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): a bug in THEIRS, at one step"), out
    assert did in out, out


def test_check_of_integer_data_counts_one_ulp_as_a_difference_not_rounding(tmp_path):
    examples = planted_data(31)
    run = law_run(examples, passes=100)
    for entry in run["trace"]:
        entry["weights"] = [float(v) for v in entry["weights"]]
    assert check_in_process(tmp_path, examples, run)[:2] == (0, mock_agrees(tmp_path, run))
    last = run["trace"][-1]["weights"]
    last[0] = math.nextafter(last[0], math.inf)  # one ulp: no rounding can make it on whole numbers below 2^53
    run["weights"] = last
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and "rounding" not in out and "a bug in THEIRS, at one step" in out, out


def mock_agrees(tmp_path, run):
    mistakes = len(run["trace"])
    return (f"check: {tmp_path / 'theirs.json'} agrees with this run of {tmp_path / 'data.csv'}: {mistakes} mistakes; "
            "compared: converged, epochs, scores, trace, w after, weights; bit for bit\n")


def test_check_a_rate_declared_on_float_data_agrees_with_exit_0(tmp_path):
    examples = [([v + 0.5 for v in x], y) for x, y in planted_data(35)]
    doc = dict(wild_run(examples, rule="margin", rate=0.01), rate=0.01)
    status, out, err = check_in_process(tmp_path, examples, doc, "--rule", "margin")
    assert (status, err) == (0, "") and "under what it declares (\"rate\": 0.01), confirmed at every step" in out, out


@pytest.mark.parametrize("field, value, said", [
    ("precision", ["binary32"], "precision: ['binary32'] is not one of"),
    ("order", [0.0] + list(range(1, 30)), "order: one list of the indexes 0..29 (ints)"),
    ("order", [True, False], "order: one list of the indexes 0..29"),
    ("order", list(range(29, -1, -1)), "not the order \"order\" declares for that pass"),
    ("index", 30, "trace[0].index: 30: the data has 30 examples, indexed 0..29"),
])
def test_check_of_a_bad_field_is_one_error_line_and_exit_2(tmp_path, field, value, said):
    examples = planted_data(31)
    doc = wild_run(examples, rule="margin")
    if field == "index":
        doc["trace"][0]["index"] = value
    else:
        doc[field] = value
    status, out, err = check_in_process(tmp_path, examples, doc, "--rule", "margin")
    assert (status, out) == (2, "") and err.count("\n") == 1 and said in err, err


def test_check_of_a_mistake_at_an_example_its_declared_order_does_not_visit_is_one_error_line_and_exit_2(tmp_path):
    examples = planted_data(31)
    doc = wild_run(examples, rule="margin")
    first = doc["trace"][0]
    doc["order"] = [i for i in range(len(examples)) if i != first["index"]]  # exit 3 (a ValueError) before
    status, out, err = check_in_process(tmp_path, examples, doc, "--rule", "margin")
    assert (status, out) == (2, "") and err.count("\n") == 1, err
    assert f"trace[0].index: {first['index']}: epoch {first['epoch']} does not visit that example" in err, err


def test_check_epochs_from_0_with_an_order_a_pass_read_each_pass_against_its_own_order(tmp_path):
    """for epoch in range(K) beside a shuffle written down: epoch 1 is the second pass, whose order is order[1] (once
    read against order[0]: a valid THEIRS refused, exit 2, 'not the order "order" declares for that pass')."""
    examples, rng = planted_data(31, n=40, positive_first=False), random.Random(31)
    orders = [rng.sample(range(40), 40) for _ in range(6)]
    doc = wild_run(examples, rule="margin", order=orders)
    assert len({step["epoch"] for step in doc["trace"]}) > 2
    doc["trace"] = [dict(step, epoch=step["epoch"] - 1) for step in doc["trace"]]
    del doc["epochs"]
    status, out, err = check_in_process(tmp_path, examples, dict(doc, order=orders), "--rule", "margin")
    assert (status, err) == (0, "") and "its epochs count from 0 (read as written)" in out, err


def test_check_of_a_tie_under_a_declared_order_that_visits_some_examples_is_a_verdict_not_exit_3(tmp_path):
    """Its order skips example 2, and its only other difference is a tie rounding breaks (1e16 - 1 + ... summed in
    another order): the conventions end at the tie (no names), once a TypeError, exit 3."""
    examples = [([1, 1, 1], -1), ([1e16, 1, -1e16], 1), ([0, 0, 1], 1)]
    w = [-1, -1, -1]
    after = [a + b for a, b in zip(w, examples[1][0])]
    doc = {"weights": after, "order": [0, 1],
           "trace": [{"epoch": 1, "index": 0, "weights": w}, {"epoch": 1, "index": 1, "weights": after}]}
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, err) == (1, "") and "a tie broken by rounding, not a bug" in out, err


def test_check_refuses_a_trace_beyond_its_size_policy_at_once(tmp_path, monkeypatch):
    examples = planted_data(31)
    doc = wild_run(examples)
    monkeypatch.setattr(P, "_TRACE_LIMIT", len(doc["trace"]) - 1)
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, out) == (2, "") and f"trace: {len(doc['trace'])} mistakes: more than the" in err
    monkeypatch.undo()
    assert P._TRACE_LIMIT < 10 ** 6  # a million mistakes are refused before a single one is read


def test_check_names_three_conventions_at_once_a_start_the_batch_rule_and_a_bias_on_minus_one(tmp_path):
    examples, start = planted_data(31), [2, -3, 0, 1]
    doc = dict(wild_run(examples, start=start, batch="sum", bias="minus"), start=start)
    status, out, err = check_in_process(tmp_path, examples, doc, "--bias")
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): 3 conventions, not a bug"), out
    for said in ("--start=2,-3,0,1: w starts at (2, -3, 0, 1)", "--bias-feature=-1", "--batch=sum"):
        assert said in out, (said, out)
    assert reproduced(tmp_path, out)[0] == 0


@pytest.mark.parametrize("batch", ["sum", "mean"])
def test_check_reads_a_rate_against_the_run_of_the_same_conventions(tmp_path, batch):
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, wild_run(examples, rate=0.5, batch=batch))
    assert (status, err) == (1, "") and "2 conventions, not a bug" in out and "batch" in out, out
    assert "--rate=0.5" in out, out  # of the readings alike (a mean at 1/2, a sum at 1/60), the simplest number
    assert reproduced(tmp_path, out)[0] == 0


REPLAYED = [[], ["--rule", "margin"], ["--bias"], ["--epochs", "4", "--average", "after"],
            ["--epochs", "4", "--average", "before", "--voted"], ["--multiclass"], ["--multiclass", "--rule", "margin"],
            ["--multiclass", "joint"], ["--multiclass", "joint", "--epochs", "3", "--average", "before", "--voted"],
            ["--kernel", "polynomial:2", "--rule", "margin"], ["--kernel", "linear", "--max-epochs", "40"]]


@pytest.mark.parametrize("options", REPLAYED, ids=" ".join)
def test_the_checks_replay_of_the_notes_run_is_trains_run_mistake_by_mistake(options):
    # The check's replay (Part I's steps with no convention layered on them) and train must be one run.
    multiclass = "--multiclass" in options
    for examples in ([(list(x), c) for x, c in CLASSES],) if multiclass else \
            (planted_data(31), [([v + 0.25 for v in x], -y if k % 9 == 4 else y)  # floats, not separable
                                for k, (x, y) in enumerate(planted_data(36, n=20, positive_first=False))]):
        args = P._arguments(["data.csv", *options])
        kernel = P._kernel_of(args.kernel) if args.kernel else None
        classes = list(dict.fromkeys(y for _, y in examples)) if multiclass else None
        nothing = P._Theirs(*[None] * 11, floats=[])
        side = P._replay(examples, P._settings(args, kernel, classes), P._Rounding(args, nothing, examples))
        run = P._fit(args, examples, kernel, trace=True, on_mistake=None)
        assert [(s.cls, s.epoch, s.index, s.score) for s in side.steps] == [
            (getattr(m, "cls", None), m.epoch, m.index, getattr(m, "score", getattr(m, "predicted", None)))
            for m in run.trace]
        assert (side.epochs, side.converged, side.average, side.voted) == (run.epochs, run.converged, run.average,
                                                                           run.voted)
        assert side.weights == (run.w if kernel is None or args.kernel == "linear" else None)
        assert len(run.trace) > 2


# ---------------------------------------------------------------------------
# The family: one table of conventions (FAMILY), one step and pass for it, Part I's at the notes' point; every
# convention an option of train, Classifier and the command line; the check's bugs in the words a reader uses
# ---------------------------------------------------------------------------

def family_run(examples, point, passes=1000, kernel=None):
    """A run by the family's own learner and pass at ``point``, even at the notes' point (which train gives Part I)."""
    d, xs = len(examples[0][0]), [x for x, _ in examples]
    learner = P._FamilyPerceptron(d, point) if kernel is None else P._FamilyDual(kernel, point, xs)
    run = P._run_cornell(learner, P._Data(examples, keep=True), (passes, None, False, None, False, [], None, False),
                         kernel=None)
    return learner, run.trace, run.epochs, run.converged


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
def test_the_family_at_the_notes_point_is_part_one(rule, bias):
    # the family's step and pass, at the notes' point, are Part I's: the same mistakes, scores and weights, of the
    # same types, on ints, Fractions, floats and Decimals, with and without the bias; and so is the family's dual
    for examples in (CHECKED[0][0], as_fractions(CHECKED[1][0], 1), noisy(3, n=25)[0],
                     [([v / 7 for v in x], y) for x, y in noisy(4, n=25)[0]],
                     [([decimal.Decimal(v) / 3 for v in x], y) for x, y in CHECKED[2][0]]):
        point = P.Conventions(rule=rule, bias=bias)
        learner, trace, epochs, converged = family_run(examples, point, passes=30)
        run = train(examples, rule=rule, bias=bias, max_epochs=30)
        assert (trace, epochs, converged) == (run.trace, run.epochs, run.converged)
        assert learner.w == run.w and list(map(type, learner.w)) == list(map(type, run.w))
        dual, dual_trace, *_ = family_run(examples, point, passes=30, kernel=P.dot)
        assert dual_trace == train(examples, rule=rule, bias=bias, max_epochs=30, kernel=P.dot).trace
    joint = P._FamilyJoint(["a", "b", "c"], 2, P.Conventions(bias=bias))
    D = P._Data(CLASSES, keep=True, label=lambda label: label)
    log = P._run_cornell(joint, D, (20, None, False, None, False, [], None, False), kernel=None).trace
    run = P.train_multiclass(CLASSES, update="joint", bias=bias, max_epochs=20)
    assert (log, joint.w) == (run.trace, run.w)


FAMILY_VALUES = {"threshold": 1, "rate": Fraction(1, 2), "bias_rate": Fraction(1, 3), "start": [1, -1, 2, 0],
                 "order": [[3, 2, 1, 0, 5, 4]], "shuffle": 7, "batch_size": 2, "decay": Fraction(1, 100),
                 "max_epochs": 3}


def test_every_convention_of_the_family_runs_from_train_the_classifier_and_the_command_line(capsys, tmp_path):
    # one row a convention: each runs (its fields checked), alone, from the API and the command line, to the same w
    data = [([3, 3, 1], -1), ([-3, 1, 2], 1), ([0, -3, 1], -1), ([2, 0, -1], -1), ([-3, -1, 2], 1), ([0, 4, 1], 1)]
    path = write(tmp_path, csv_of(data))
    binary = [row for row in P.FAMILY if row.field in P.Conventions._fields and row.field not in ("ties", "abstain")]
    assert {row.field for row in P.FAMILY} >= set(P.Conventions._fields) - {"ties", "abstain"}
    for row in binary:
        value = FAMILY_VALUES.get(row.field, row.value)
        given = {row.field: value, "bias": True}
        given.update({"batch": "sum"} if row.field == "batch_size" else {})
        given.update({"decay": 0.5} if row.field == "decay_at" else {})
        given.update({"threshold": 1} if value == "passive-aggressive" else {})
        run = train(data, max_epochs=20, **given)
        assert run.conventions == P._point(**given) and run.w is not None, row
        flags = [P._option(field, v) for field, v in given.items() if field != "bias"]
        status, out, err = cli(capsys, path, "--bias", "--max-epochs=20", "--json", *flags)
        assert status in (0, 1) and err == "", (row, err)
        written = [P._num(v, ratio=True) if isinstance(v, Fraction) else v for v in run.w]  # JSON's "p/q"
        assert P._model_of("-", json.loads(out))[0].w == run.w or json.loads(out)["weights"] == written, row
    model = P.Classifier(conventions={"rate": Fraction(1, 2), "zero": -1}).fit([x for x, _ in data], [y for _, y in data])
    assert model.run_.w == train(data, bias=True, rate=Fraction(1, 2), zero=-1).w
    for field, value in (("ties", "last"), ("abstain", True)):
        run = P.train_multiclass(CLASSES, update="joint", max_epochs=10, **{field: value})
        assert getattr(run.conventions, field) == value


@pytest.mark.parametrize("given, said", [
    ({"rate": 0}, "rate = 0 is not a number 0 < rate"), ({"zero": 2}, "zero = 2: use 1 or -1 or 0"),
    ({"step": "hinge"}, "step = 'hinge': use 'label' or 'error' or 'passive-aggressive'"),
    ({"decay": 1}, "decay = 1 is not a number 0 <= decay < 1"), ({"bias_first": True}, "need bias=True"),
    ({"batch_size": 3}, "batch_size goes with batch='sum' or 'mean'"), ({"order": [[0, "a"]]}, "order = "),
    ({"shuffle": 1, "order": [0, 1]}, "an order and a seeded shuffle: give one"), ({"sped": 1}, "unknown convention"),
    ({"step": "passive-aggressive"}, "needs a threshold T > 0"), ({"start": [1]}, "start has 1 numbers, and w has 2"),
    ({"order": [[0, 9]]}, "order: index 9 in pass 1, and the examples are 0..3"),
])
def test_a_bad_convention_is_one_clear_error(given, said):
    with pytest.raises(PerceptronError, match=re.escape(said)):
        train(XOR, **given)


@pytest.mark.parametrize("order", [5, [[0, 1], 2], {1: [0]}])
def test_an_order_that_is_not_lists_of_indexes_is_one_clear_error(order):
    with pytest.raises(PerceptronError, match="order = "):
        train(XOR, order=order)


@pytest.mark.parametrize("given", [{"rate": 2}, {"rate": Fraction(1, 2)}, {"falling": True}])
def test_the_passive_aggressive_step_refuses_a_rate_it_would_not_use(given):
    # its step is (T - y w.x) / x.x: a rate given would be silently ignored
    with pytest.raises(PerceptronError, match="needs a threshold T > 0"):
        train(XOR, step="passive-aggressive", threshold=1, **given)


@pytest.mark.parametrize("kernel", [kernels.polynomial(2), kernels.linear])
def test_a_kernel_passive_aggressive_step_divides_by_k_of_x_and_x(kernel):
    # Crammer et al.'s step in the kernel's space: once taken, y w.x is the threshold T exactly
    run = train([([1, 2], 1)], kernel=kernel, step="passive-aggressive", threshold=Fraction(3), epochs=1)
    assert run.mistakes == 1 and run.model.score([1, 2]) == 3


def test_numpy_conventions_and_dimensions_are_read_by_value_or_refused_in_one_clear_error():
    # an array's == is elementwise (its truth refused): a start, an order or a d from NumPy is read, not compared
    np = pytest.importorskip("numpy")
    assert train(XOR, start=np.array([1, -1]), max_epochs=3).w == train(XOR, start=[1, -1], max_epochs=3).w
    with pytest.raises(PerceptronError, match="^order = .* is not a list of example indexes"):
        train(XOR, order=np.array([3, 2, 1, 0]))
    p = Perceptron(np.int64(2))
    assert type(p.d) is int and p.w == [0, 0]
    # NumPy's ints as a shuffle's seed, a batch's size and an order's indexes: read by value, as Python's ints
    for given, same in (({"shuffle": np.int64(3)}, {"shuffle": 3}), ({"order": [[np.int64(3), 2, 1, 0]]},
                        {"order": [[3, 2, 1, 0]]}), ({"batch": "sum", "batch_size": np.int64(2)},
                                                     {"batch": "sum", "batch_size": 2})):
        assert train(XOR, max_epochs=3, **given).w == train(XOR, max_epochs=3, **same).w, given
    with pytest.raises(PerceptronError, match="^shuffle = True is not a whole number"):
        train(XOR, shuffle=True)


@pytest.mark.parametrize("multiclass", [False, True])
@pytest.mark.parametrize("given, said", [({"ties": "last"}, "ties = 'last' does not apply to a binary run"),
                                         ({"abstain": True}, "abstain = True does not apply to a binary run"),
                                         ({"decay_at": "update"}, "decay_at goes with a decay C > 0")])
def test_a_convention_that_would_not_run_is_refused_not_claimed(multiclass, given, said):
    # a binary or one-vs-rest run has no argmax of its own to break ties or abstain at, and no decay to time
    with pytest.raises(PerceptronError, match=re.escape(said)):
        P.train_multiclass(CLASSES, **given) if multiclass else train(XOR, **given)


def course_run(examples, rate, falling=False, bias_rate=None, passes=100):
    """A perceptron as course code writes it: eta_p = eta_0 / p (falling), and the bias by its own rate."""
    w, b, trace = [0.0] * len(examples[0][0]), 0.0, []
    for epoch in range(1, passes + 1):
        eta, made = rate / epoch if falling else rate, 0
        for i, (x, y) in enumerate(examples):
            s = sum(a * v for a, v in zip(w, x)) + b
            if (1 if s >= 0 else -1) != y:
                w = [a + eta * y * v for a, v in zip(w, x)]
                b += (bias_rate if bias_rate is not None else eta) * y
                made += 1
                trace.append({"epoch": epoch, "index": i, "score": s, "weights": w + [b]})
        if not made:
            break
    return {"weights": w + [b], "trace": trace, "epochs": epoch, "converged": made == 0}


@pytest.mark.parametrize("planted, said", [
    ({"rate": 0.5, "falling": True}, ["--rate=0.5", "--falling: the rate of pass p is eta / p"]),
    ({"rate": 0.1, "bias_rate": 0.01}, ["--rate=0.1", "--bias-rate=0.01: the bias moves by 0.01"]),
    ({"rate": 1, "bias_rate": 0.5}, ["--bias-rate=0.5"]),
])
def test_check_names_the_two_new_conventions_a_falling_rate_and_a_rate_for_the_bias(tmp_path, planted, said):
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, course_run(examples, **planted))
    assert (status, err) == (1, "") and "conventions, not a bug" in out.splitlines()[0], out
    assert all(f"  - {words}" in out for words in said) and reproduced(tmp_path, out)[0] == 0, out


@pytest.mark.parametrize("planted, options, said", [
    ({"rate": 0.1, "bias": "first"}, ["--bias"], ["--bias-first", "--rate=0.1"]),
    ({"rule": "t-o", "rate": 0.5}, [], ["--zero=0", "--step=error", "--rate=0.5"]),
    ({"rule": "margin", "batch": "mean", "bias": "last"}, [], ["--rule=margin", "--bias", "--batch=mean"]),
])
def test_check_names_two_or_three_conventions_at_once_and_their_command_agrees(tmp_path, planted, options, said):
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, wild_run(examples, **planted), *options)
    assert (status, err) == (1, "") and f"{len(said)} conventions, not a bug" in out.splitlines()[0], out
    assert all(f"  - {words}" in out for words in said) and reproduced(tmp_path, out)[0] == 0, out


def loop_run(examples, visits=None, strict=False, previous_x=False, passes=50, declare=False, bits=None):
    """A perceptron written with a bug a careful reader calls one: examples left out of its loop (`for i in range(1,
    n)`), a rule that never fires from w = 0 (`y w.x < 0`), the x of the example before (`x[i - 1]`), or integers of
    ``bits`` bits that wrap (C's int32_t, NumPy's int32)."""
    keep = (lambda v: (v + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)) if bits else (lambda v: v)
    n, w, trace = len(examples), [0] * len(examples[0][0]), []
    visits = visits or list(range(n))
    for epoch in range(1, passes + 1):
        made = 0
        for i in visits:
            x, y = examples[i]
            s = keep(sum(a * b for a, b in zip(w, x)))
            if y * s < 0 if strict else (1 if s >= 0 else -1) != y:
                w = [keep(a + y * b) for a, b in zip(w, examples[i - 1][0] if previous_x else x)]
                made += 1
                trace.append({"epoch": epoch, "index": i, "score": s, "weights": w})
        if not made:
            break
    return dict({"weights": w, "trace": trace, "epochs": epoch, "converged": made == 0},
                **({"order": visits} if declare else {}))


@pytest.mark.parametrize("declare", [False, True])
@pytest.mark.parametrize("planted, said", [
    ({"visits": list(range(1, 30))}, "a bug in THEIRS: example 0 is never visited"),
    ({"previous_x": True}, "adds the x of the example visited before its own (x[i - 1] for x[i], an off-by-one)"),
    ({"strict": True}, "its rule never fires from w = 0, where every score is 0"),
])
def test_check_names_each_bug_shape_a_bug_in_theirs_with_or_without_an_order(tmp_path, planted, said, declare):
    # a declared order that leaves examples out is evidence for the verdict, never bad input
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, loop_run(examples, declare=declare, **planted))
    assert (status, err) == (1, "") and ": a bug in THEIRS" in out.splitlines()[0] and said in out, out


@pytest.mark.parametrize("bits", [32, 64])
def test_check_names_integers_that_wrap_a_bug_in_theirs_and_the_same_loop_unwrapped_agrees(tmp_path, bits):
    big = 2 ** (bits - 1) - 1  # the largest int of its bits: its first update already wraps a product's sum
    examples = [([big, 1], -1), ([1, big], 1), ([3, -5], -1)]
    status, out, err = check_in_process(tmp_path, examples, loop_run(examples, bits=bits))
    assert (status, err) == (1, "") and out.splitlines()[1] == (
        f"diagnosis: a bug in THEIRS: its integers wrap: every score and weight is kept in {bits} bits and wraps "
        f"past 2^{bits - 1} (two's complement: C's int{bits}_t, NumPy's int{bits}); the notes' arithmetic is exact.  "
        "Wrapped so, the whole run agrees."), out
    assert check_in_process(tmp_path, examples, loop_run(examples))[0] == 0


def test_check_reads_the_passes_of_a_run_that_writes_its_weights_alone_and_its_command_agrees(tmp_path, capsys):
    # scikit-learn's Perceptron(max_iter=K, tol=None) and `for epoch in range(K)` loops write w alone: K is read off it
    examples = [(x, -y) if k % 7 == 0 else (x, y) for k, (x, y) in enumerate(planted_data(5, n=20))]  # not separable
    doc = loop_run(examples, passes=3)
    assert doc["converged"] is False and loop_run(examples, passes=2)["weights"] != doc["weights"]
    status, out, err = check_in_process(tmp_path, examples, {"weights": doc["weights"]})
    assert (status, err) == (1, "") and "\n  - --max-epochs=3: the run stops after 3 passes" in out, out
    command = next(line for line in out.splitlines() if line.startswith("reproduce it: "))
    assert P.main(shlex.split(command)[4:]) == 0, command
    assert " agrees with this run of " in capsys.readouterr().out


def test_the_readmes_conventions_table_is_the_family_row_for_row():
    text = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    table = text[text.index("| convention | command line |"):].split("\n\n", 1)[0].splitlines()[2:]
    expected = []
    for row in P.FAMILY:
        placeholder = isinstance(row.value, str) and row.value.isupper()
        option = f"--{row.field.replace('_', '-')}={row.value}" if placeholder else P._option(row.field, row.value)
        option = "(no --bias)" if row.field == "bias" and row.value is False else f"`{option}`"
        api = f"{row.field}={row.value if placeholder else repr(row.value)}"
        expected.append(f"| {row.name} | {option} | `{api}` | {row.source} | {row.changes} |")
    assert table == expected


def test_the_header_names_the_conventions_that_ran(capsys, tmp_path):
    path = write(tmp_path, csv_of(CHECKED[0][0]))
    _, out, _ = cli(capsys, path, "--bias", "--rate=1/10", "--zero=-1", "--bias-first")
    head = out.split("\n\n", 1)[0]
    assert "sign(0) = -1 (see conventions)" in head and "conventions: --zero=-1: a zero score predicts -1" in head
    assert "--rate=1/10: every update times eta" in head and "--bias-first: x read as (1, x)" in head
    _, out, _ = cli(capsys, path, "--rule", "margin", "--threshold=2")
    assert "rule:   margin: a mistake iff y (w.x) <= 2" in out


def edited_copy(tmp_path, old, new):
    """perceptron.py with one edit of Part I, as a student makes it, beside a copy of kernels.py."""
    text = open(P.__file__, encoding="utf-8").read()
    assert text.count(old) == 1
    (tmp_path / "edited.py").write_text(text.replace(old, new), encoding="utf-8")
    return str(tmp_path / "edited.py")


@pytest.mark.parametrize("old, new, said", [
    ("    return 1 if t >= 0 else -1", "    return 1 if t > 0 else -1",
     "rule:   sign: a mistake iff sign(w.x) != y, sign(0) = -1 (Part I as it stands, edited: Columbia §1.1 has +1)"),
    ("    return y * s <= 0    # Cornell", "    return y * s < 0    # Cornell",
     "rule:   margin: a mistake iff y (w.x) < 0 (Part I as it stands, edited: Cornell §3 has <= 0)"),
    ("self.w = [w_i + y * x_i for w_i, x_i in zip(self.w, x)]", "self.w = [w_i + 2 * y * x_i for w_i, x_i in zip(self.w, x)]",
     "  w <- w + 2 y x = (0, 0) + (-2)(3, 3) = (-6, -6)"),
])
def test_a_student_s_one_character_edit_of_part_one_runs_and_is_described_as_it_ran(tmp_path, old, new, said):
    script = edited_copy(tmp_path, old, new)
    rule = ["--rule", "margin"] if "y * s" in old else []
    done = subprocess.run([sys.executable, script, "--explain", *rule], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode in (0, 1) and "Part I was edited: running it literally" in done.stderr, done.stderr
    assert said in done.stdout and sums_are_true(done.stdout), done.stdout


@pytest.mark.parametrize("old, new, said", [
    ("w[y] = [w_i + x_i for w_i, x_i in zip(w[y], x)]", "w[y] = [w_i + 2 * x_i for w_i, x_i in zip(w[y], x)]",
     "  w(b) <- (4, -2) (not w(b) + x: Part I's update as it stands)\n  w(a) <- w(a) - x = (0, 0) - (2, -1) = (-2, 1)"),
    ("if scores[c] > scores[best]:", "if scores[c] >= scores[best]:",
     "  argmax_l w(l).x = c (a tie, to the class listed last) != y = a: a mistake"),
])
def test_an_edit_of_part_one_s_joint_update_or_argmax_is_explained_as_it_ran(tmp_path, old, new, said):
    # --explain wrote "w(b) <- w(b) + x = (0, 0) + (2, -1) = (4, -2)" and "a tie, to the class listed first"
    script, path = edited_copy(tmp_path, old, new), write(tmp_path, "a,b,y\n1,2,a\n2,-1,b\n0,1,c\n-1,-1,a\n")
    done = subprocess.run([sys.executable, script, path, "--multiclass", "joint", "--explain"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1) and said in done.stdout, done.stdout + done.stderr


def test_an_edit_of_part_one_s_reading_of_the_bias_is_explained_where_it_put_the_bias(tmp_path):
    # Part I's Perceptron._read edited to prepend the 1: --explain said "(the bias's 1 last)" of x = (1, 3, 3)
    script = edited_copy(tmp_path, "        return [*x, 1] if self.bias else x  # Cornell", "        return [1, *x] if "
                         "self.bias else x  # Cornell")
    done = subprocess.run([sys.executable, script, "--bias", "--explain"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert "mistake 1: pass 1, index 0, x = (1, 3, 3) (the bias's 1 first), y = -1" in done.stdout, done.stdout


def sums_are_true(text):
    """Every sum --explain prints is the sum of its terms: w.x = (a)(b) + ... = s, and w <- ... = u + (f)(x) = v."""
    def vector(t):
        return [Fraction(v) for v in t.strip("()").split(", ")]
    for line in text.splitlines():
        if re.match(r"  w(\(\w+\))?\.x = \(", line) and " = sum_j" not in line:
            terms, total = line.split(" = ", 1)[1].rsplit(" = ", 1)
            products = re.findall(r"\(([^()]+)\)\(([^()]+)\)", terms)
            assert sum(Fraction(a) * Fraction(b) for a, b in products) == Fraction(total), line
        elif line.startswith("  w <- w + ") and "the bias by" not in line:
            match = re.fullmatch(r".* = (\([^)]*\)) \+ \(([^)]+)\)(\([^)]*\)) = (\([^)]*\))", line)
            u, f, x, v = vector(match.group(1)), Fraction(match.group(2)), vector(match.group(3)), vector(match.group(4))
            assert [a + f * b for a, b in zip(u, x)] == v, line
    return True


@pytest.mark.parametrize("given", [{"rate": Fraction(1, 10)}, {"zero": 0, "step": "error"}, {"zero": -1},
                                   {"step": "passive-aggressive", "threshold": 1, "max_epochs": 3},
                                   {"rule": "margin", "threshold": 2}, {"bias": True, "bias_first": True},
                                   {"start": [1, -1], "falling": True, "rate": Fraction(1, 2)}])
def test_explain_prints_the_arithmetic_each_convention_computed(given):
    # under any convention that ran, --explain's sums are the run's: the update read off what the step computed
    run = train(P.EXAMPLE, **given)
    text = run.explain(P.EXAMPLE, every=True)
    assert sums_are_true(text) and text.count("\nmistake ") + text.startswith("mistake ") == run.mistakes, text


@pytest.mark.parametrize("given", [{"step": "error"}, {"bias_feature": -1}, {"decay": Fraction(1, 2), "decay_at": "update"},
                                   {"bias_first": True, "rate": 3, "falling": True}, {"zero": 0, "step": "error"}])
def test_explain_writes_a_bias_rate_s_step_as_it_ran_under_each_convention(given):
    # the bias moves by R y x_b (R (y - o) x_b under --step error; x_b = -1 on -1), w by c w under a decay: the words
    # say what the step computed, and the sums are its (they said "the bias by R y", and no decay)
    run = train(P.EXAMPLE, bias=True, bias_rate=Fraction(1, 2), **given)
    text, b, checked = run.explain(P.EXAMPLE, every=True), 0 if given.get("bias_first") else -1, 0
    def vector(t):
        return [Fraction(v) for v in t.strip("()").split(", ")]
    for line in text.splitlines():
        if line.startswith("mistake "):
            x, y = re.search(r"x = (\([^)]*\)).*, y = ([+-]1)", line).groups()
            x, y = vector(x), int(y)
        elif line.startswith("  sign("):
            o = int(line.split(" = ")[1].split(" ")[0])
        elif line.startswith("  w <- "):
            match = re.fullmatch(r"  w <- (?:\((\S+)\) )?w \+ (?:(\S+) )?y x, the bias by (\S+) (y|\(y - o\)) x_b = "
                                 r"(?:\(\S+\) )?(\([^)]*\)) \+ (\([^)]*\)) = (\([^)]*\))", line)
            assert match, line
            c, k, r, label, u, d, v = match.groups()
            c, k, u, d, v = Fraction(c or 1), Fraction(k or 1), vector(u), vector(d), vector(v)
            assert [c * a + e for a, e in zip(u, d)] == v and c == 1 - given.get("decay", 0), line
            assert d[b] == Fraction(r) * (y - o if label == "(y - o)" else y) * x[b], line
            assert [e for i, e in enumerate(d) if i != b % len(d)] == [k * y * e for i, e in enumerate(x)
                                                                        if i != b % len(x)], line
            checked += 1
    assert checked == run.mistakes > 1, text


def test_check_of_final_weights_alone_on_data_that_never_converges_searches_within_a_bound(tmp_path, monkeypatch):
    rng = random.Random(5)
    examples = [([rng.randint(-5, 5) for _ in range(3)], rng.choice([-1, 1])) for _ in range(20)]
    visits, replay = [], P._replay
    monkeypatch.setattr(P, "_replay", lambda examples, st, *rest, **kw: visits.append(st.passes) or replay(
        examples, st, *rest, **kw))
    status, out, err = check_in_process(tmp_path, examples, {"weights": [1, 2, 3], "epochs": 10 ** 4,
                                                             "converged": False})
    assert (status, err) == (1, "") and "give THEIRS's trace" in out
    assert len(visits) < P._SEARCHED  # cut by the bound on visits, not by the number of sets tried
    assert (sum(visits) - 2 * max(visits)) * len(examples) <= P._SEARCH_VISITS


def test_check_names_the_textbook_perceptron_of_0_1_labels_a_bias_first_a_rate_and_a_strict_step(tmp_path):
    """The textbook loop (0/1 labels, w[0] the bias, o = 1 if s > 0 else 0, w += eta (t - o) x, for epoch in
    range(K)) is six conventions: found within _SEARCHED sets (once 48: 'unexplained')."""
    rng = random.Random(3)
    examples = []
    while len(examples) < 40:
        x = [round(rng.uniform(-3, 3), 2) for _ in range(2)]
        if abs(0.7 * x[0] - x[1] + 0.3) > 0.05:
            examples.append((x, 1 if 0.7 * x[0] - x[1] + 0.3 > 0 else -1))
    w, trace = [0.0, 0.0, 0.0], []
    for epoch in range(1000):
        before = len(trace)
        for i, (x, y) in enumerate(examples):
            x, t = [1.0, *x], (y + 1) // 2
            s = sum(a * b for a, b in zip(w, x))
            o = 1 if s > 0 else 0
            if o != t:
                w = [a + 0.1 * (t - o) * b for a, b in zip(w, x)]
                trace.append({"epoch": epoch, "index": i, "score": s, "weights": w})
        if len(trace) == before:
            break
    status, out, err = check_in_process(tmp_path, examples, {"weights": w, "trace": trace}, labels=(0, 1))
    assert (status, err) == (1, "") and "6 conventions, not a bug" in out, out
    assert "--labels=0,1 --bias --zero=-1 --rate=0.1 --bias-first" in out, out


def test_check_reports_numbers_as_decimals(tmp_path):
    examples = planted_data(31)
    status, out, _ = check_in_process(tmp_path, examples, law_run(examples, rate=Fraction(1, 3)))
    assert status == 1 and "--rate=0.3333333333333333" in out and not re.search(r"\d/\d", out), out


@pytest.mark.parametrize("field", ["start", "trace"])
def test_check_of_vectors_of_two_lengths_in_one_run_is_one_error_line_and_exit_2(tmp_path, field):
    examples = planted_data(31)
    doc = wild_run(examples, bias="last")  # 4 weights: 3 features and a bias
    if field == "start":
        doc["start"] = [1, 2, 3]
    else:
        doc["trace"][2]["weights"] = doc["trace"][2]["weights"][:3]
    status, out, err = check_in_process(tmp_path, examples, doc, "--bias")
    assert (status, out) == (2, "") and err.count("\n") == 1, err
    assert ("start: 3 numbers" if field == "start" else "trace[2].weights: 3 numbers") in err
    assert "and its other vectors have 4" in err


@pytest.mark.slow
@pytest.mark.parametrize("name, planted, said", [pytest.param(*law, id=law[0]) for law in LAWS
                                                  if "order" not in law[1] and "passive" not in law[1]])
def test_check_reads_a_law_off_a_trace_with_updates_on_a_zero_example(tmp_path, name, planted, said):
    examples = planted_data(31)
    examples.insert(4, ([0, 0, 0], -1))  # a mistake at every visit under the margin rule: w + y 0 = w
    run = law_run(examples, **planted)
    assert any(examples[t["index"]][0] == [0, 0, 0] for t in run["trace"])
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    for words in said:
        assert words in out, (words, out)


def test_check_law_on_two_features_allows_the_rounding_of_its_own_solve_for_the_step(tmp_path):
    # w after = c w before + f x has as many equations as unknowns: c and f are solved, with an error of
    # their condition (here 23) times u, which is no step of THEIRS's breaking its law
    examples = [([1.25, 8.3], 1), ([9.25, -9.0], 1), ([-0.75, 1.1], 1), ([-1.9, -6.75], -1)]
    run = dict(law_run(examples, start=[-1, 1], rate=0.25), start=[-1, 1])
    assert run["trace"][1]["weights"] == [1.3125 + 0.25 * -0.75, -1.25 + 0.25 * 1.1]  # the law's, to the bit
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert "--rate=0.25: every update times eta" in out


def test_check_law_calls_no_step_a_bug_where_no_other_step_shares_its_law(tmp_path):
    # 3 updates: the first from w = 0 reads no decay, so two read one: two values, neither shared, are no law
    # that one of them breaks; each example's factor, the same at both, is
    examples = planted_data(7, n=12)
    run = law_run(examples, decay=0.001, passes=20)
    assert len(run["trace"]) == 3
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert "--decay=0.001: w <- (1 - 0.001) w at each example" in out


@pytest.mark.parametrize("seed, rule", [(33, "margin"), (15, "sign")])
def test_check_law_reads_its_numbers_past_the_rounding_of_reading_them_as_floats(tmp_path, seed, rule):
    # exact thirds, read as floats: a score of exactly 0 reads as 1e-16 or -1e-16 (which had read as a threshold
    # "y w.x <= 1" or "<= -0.667"), and the start as (1, -8.9e-16, ...)
    examples = planted_data(seed, n=20, d=4)
    run = wild_run(examples, rule=rule, rate=Fraction(1, 3), bias="last", start=[1, 0, 0, 0, 0])
    status, out, err = check_in_process(tmp_path, examples, run, "--rule", rule, "--bias")
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): outside the notes, not a bug"), out
    assert "--rate=0.333" in out and "--start=1,0,0,0,0: w starts at (1, 0, 0, 0, 0), not 0" in out
    assert "--threshold" not in out


@pytest.mark.parametrize("rate", [Fraction(1, 3), Fraction(1, 10)])
def test_check_names_an_exact_rate_it_was_not_told_as_the_rate_convention(tmp_path, rate):
    # THEIRS exact ("p/q"): its eta is the exact ratio of its numbers to ours, not the nearest short decimal
    examples = planted_data(0, n=20, d=4)
    run = wild_run(examples, rule="margin", rate=rate, bias="last")
    status, out, err = check_in_process(tmp_path, examples, run, "--rule", "margin", "--bias")
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): a convention, not a bug"), out
    assert f"  - --rate={rate}: every update times eta" in out, out
    assert reproduced(tmp_path, out)[0] == 0


def test_check_of_a_declaration_its_numbers_do_not_follow_says_so_on_its_first_line(tmp_path):
    examples = planted_data(31)
    doc = dict(wild_run(examples), start=[0, 0, 1])  # the notes' run from 0, declared from another start
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): its declaration does not describe its run")
    assert "declares a start (\"start\": (0, 0, 1)), under which no run gives them" in out


@pytest.mark.parametrize("rule", ["sign", "margin"])
def test_check_a_start_declared_alone_is_the_notes_run_from_it_with_exit_0(tmp_path, rule):
    examples = planted_data(31)
    run = dict(wild_run(examples, rule=rule, start=[-2, -3, 1]), start=[-2, -3, 1])
    status, out, err = check_in_process(tmp_path, examples, run, "--rule", rule)
    assert (status, err) == (0, "") and "  - --start=-2,-3,1: w starts at (-2, -3, 1), not 0" in out, out
    assert "under what it declares (\"start\": (-2, -3, 1)), confirmed at every step" in out


def test_check_law_calls_no_decay_a_bug_where_a_reshuffle_hides_the_examples_between_updates(tmp_path):
    examples = planted_data(32)
    run = law_run(examples, decay=0.001, order=SHUFFLED, passes=20)  # 4, 4 and 1 examples between its updates
    assert len(run["trace"]) == 4
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and "bug" not in out.splitlines()[0], out


def test_check_shows_w_before_the_parting_as_the_start_the_options_give(capsys, tmp_path):
    # w before the first mistake is the start: under --start=1,1 it read "w before it: 0, as at the start"
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n-1,3,-1\n")
    (tmp_path / "theirs.json").write_text(json.dumps(cli_json(capsys, path)[1]), encoding="utf-8")
    status, out, err = cli(capsys, path, "--start=1,1", "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and out.endswith("  w before it: (1, 1), as at the start\n"), out


def test_check_names_the_notes_sign_of_zero_where_the_options_give_another(capsys, tmp_path):
    # the notes' run (sign(0) = +1) checked under --zero=-1: it read "unexplained", for the search tried every
    # sign(0) but +1; with its final weights changed it is unexplained, in words of the run's sign(0), not the notes'
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n-1,3,-1\n")
    theirs = cli_json(capsys, path)[1]
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    status, out, err = cli(capsys, path, "--zero=-1", "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): a convention, not a bug"), out
    assert "  - --zero=1: a zero score predicts +1" in out and reproduced(tmp_path, out)[0] == 0, out
    theirs["weights"][0] += 100
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    status, out, err = cli(capsys, path, "--zero=-1", "--check", str(tmp_path / "theirs.json"))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): unexplained"), out
    assert "the notes require an update here: the score is 0 and sign(0) = -1 != y = +1" in out, out


@pytest.mark.parametrize("planted", [{}, {"decay": 0.01, "passes": 20}, {"passive": True, "threshold": 1}])
def test_check_of_one_step_that_breaks_the_law_shows_the_law_s_w_after_it(tmp_path, planted):
    examples = planted_data(31)
    run = law_run(examples, broken=(7, "one weight"), **planted)
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and "a bug in THEIRS, at one step" in out.splitlines()[0], out
    law = [float(v) for v in re.search(r"the law's: \(([^)]*)\)", out).group(1).split(", ")]
    theirs = run["trace"][7]["weights"]
    assert law[1:] == pytest.approx(theirs[1:], rel=1e-9) and law[0] == pytest.approx(theirs[0] - 1, rel=1e-9)


def test_check_of_weights_that_part_after_an_agreeing_trace_asks_for_no_trace(tmp_path):
    examples = planted_data(31)
    doc = wild_run(examples)
    doc["weights"] = [doc["weights"][0] + 1] + doc["weights"][1:]  # changed after the last mistake
    status, out, err = check_in_process(tmp_path, examples, doc)
    assert (status, err) == (1, "") and "their trace agrees with it at every mistake: they part after its last." in out
    assert "give THEIRS's trace" not in out, out


@pytest.mark.parametrize("epoch", [10 ** 9, 10 ** 700])
def test_check_law_of_a_trace_whose_last_mistake_is_in_a_far_pass_is_bounded_and_a_verdict(tmp_path, epoch):
    # the passes between two mistakes that make no update give the same margins: walked once, not 10^9 times;
    # visits beyond a float's whole numbers are no decay's to read
    examples = planted_data(31)
    run = law_run(examples, rate=0.1, threshold=1)
    run["trace"][-1]["epoch"] = epoch
    del run["epochs"]
    start = time.perf_counter()
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (1, "") and time.perf_counter() - start < 10, out


@pytest.mark.parametrize("field, value, said", [
    ("pocket", {"weights": [1, "x"], "errors": 0, "mistakes": 1}, "pocket.weights[1]: 'x' is not a number"),
    ("pocket", {"weights": [1, 2], "errors": -1}, "pocket.errors: -1 is not a whole number >= 0"),
    ("voted", [{"weights": [1, 2], "count": "3"}], "voted[0].count: '3' is not a whole number >= 0"),
    ("average", {"weights": [1, 2], "convention": "sideways"}, "average.convention: 'sideways' is not one of"),
    ("format", "perceptron-model/1", "format: 'perceptron-model/1': this version reads"),
])
def test_check_reads_what_a_run_shares_with_its_model_as_model_reads_it(capsys, tmp_path, field, value, said):
    # one reader: THEIRS's predictors are checked by the model reader's rules, one error line naming the field
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-2,-1,-1\n1,-1,1\n")
    (tmp_path / "theirs.json").write_text(json.dumps({"weights": [2, 1], field: value}))
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert (status, out) == (2, "") and err.count("\n") == 1, err
    assert err.startswith(f"error: {tmp_path / 'theirs.json'}: {said}"), err
    model = str(tmp_path / "model.json")
    assert cli(capsys, path, "--pocket", "--save", model)[0] == 0  # a model is a run without its history
    status, out, err = cli(capsys, path, "--pocket", "--check", model)
    assert (status, err) == (0, "") and "agrees" in out


def test_vectors_reads_an_index_json_nested_too_deeply_as_some_other_program_s(capsys, tmp_path):
    (tmp_path / "index.json").write_text("[" * 100000)  # json's recursion limit: not a corpus, not a traceback
    (tmp_path / "mine.txt").write_text("the user's")
    status, out, err = cli(capsys, "--vectors", str(tmp_path))
    assert (status, out) == (2, "") and "the folder holds other files ('index.json', ...)" in err
    assert sorted(os.listdir(tmp_path)) == ["index.json", "mine.txt"]


def minibatch_run(examples, size=3, rate=1, passes=100):
    """A minibatch rule as gradient code writes it: each batch of ``size`` examples scored by the w in force, its
    updates summed and applied at its end at the rate / size (the batch's mean): w after each batch's last mistake."""
    w, trace = [0] * len(examples[0][0]), []
    for epoch in range(passes):
        made, delta = 0, None
        for i, (x, y) in enumerate(examples):
            s = sum(a * b for a, b in zip(w, x))
            if (1 if s >= 0 else -1) != y:
                made += 1
                delta = [y * v for v in x] if delta is None else [a + y * v for a, v in zip(delta, x)]
                trace.append({"epoch": epoch + 1, "index": i, "score": s})
            if (i + 1) % size == 0 or i == len(examples) - 1:
                if delta is not None:
                    w = [a + rate / size * b for a, b in zip(w, delta)]
                    trace[-1]["weights"] = w
                delta = None
        if made == 0:
            break
    return {"weights": w, "trace": trace, "epochs": epoch + 1, "converged": made == 0}


@pytest.mark.parametrize("size, rate, named", [(3, 1, "--batch=mean"), (4, 4, "--batch=sum"), (5, 1, "--batch=mean")])
def test_check_a_minibatch_rule_is_named_with_its_size_read_off_the_trace(tmp_path, size, rate, named):
    # a batch of `size` applied at its end, at lr/size (the mean) or lr (the sum): the size is read off the first
    # pass, whose scores stay 0 until the first batch ends
    examples = planted_data(31)
    status, out, err = check_in_process(tmp_path, examples, minibatch_run(examples, size, rate))
    assert (status, err) == (1, "") and out.splitlines()[0].endswith("): 2 conventions, not a bug"), out
    assert f"  - {named}: " in out and f"  - --batch-size={size}: a batch is {size} examples" in out, out
    assert reproduced(tmp_path, out)[0] == 0


def test_check_float32_on_values_of_1e16_is_binary32_rounding_not_the_batch_rule(tmp_path):
    # NumPy's float32 storage and sums on whole numbers near 1e16: its whole numbers say nothing of their format,
    # so the check tries binary32 and names it (once named the batch rule)
    examples = [([v * 1e16 for v in x], y) for x, y in planted_data(31)]
    run = wild_run(examples, number=f32, summed=lambda terms: pairwise(terms, add=lambda a, b: f32(a + b)))
    status, out, err = check_in_process(tmp_path, examples, run)
    assert (status, err) == (0, "") and "agrees with this run" in out and "up to binary32 rounding" in out, out
    assert "batch" not in out and "declare \"precision\" to be sure" in out, out


# ===========================================================================
# 6. The picture (--svg) as Columbia §1.1 draws it, a kernel run's regions, the page (--html), notebooks
# ===========================================================================

SVG = "{http://www.w3.org/2000/svg}"


def svg_groups(text, cls):
    root = ET.fromstring(text)
    return [g for g in root.iter(SVG + "g") if g.get("class") == cls]


def point(text):
    return [Fraction(v) for v in text.split(",")]


def legend_of(text):
    return " · ".join(t.text for t in ET.fromstring(text).iter(SVG + "text") if t.get("class") == "legend")


def text_boxes(text, cls):
    """The boxes of the picture's texts of a class, as the picture measures them (6.5 pixels a character)."""
    return [(float(t.get("x")) - 1, float(t.get("y")) - 10, float(t.get("x")) + 6.5 * len(t.text) + 1,
             float(t.get("y")) + 2) for t in ET.fromstring(text).iter(SVG + "text") if t.get("class") == cls]


def mark_boxes(text):
    """The box of every example's mark (+ or o) and of every ring."""
    root = ET.fromstring(text)
    boxes = []
    for g in svg_groups(text, "example"):
        shape = g.find(SVG + "circle")
        if shape is not None:
            cx, cy = float(shape.get("cx")), float(shape.get("cy"))
        else:
            cx, cy = (float(v) for v in g.find(SVG + "path").get("d").split()[0][1:].split(","))
            cx += 5
        boxes.append((cx - 6, cy - 6, cx + 6, cy + 6))
    boxes += [(float(c.get("cx")) - 10, float(c.get("cy")) - 10, float(c.get("cx")) + 10, float(c.get("cy")) + 10)
              for c in root.iter(SVG + "circle") if c.get("class") == "ring"]
    return boxes


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def rings_of(text):
    return [(int(c.get("data-index")), c.get("stroke")) for c in ET.fromstring(text).iter(SVG + "circle")
            if c.get("class") == "ring"]


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("rule", RULES)
def test_svg_after_mistake_k_draws_w_dashed_and_the_ten_hypotheses_before_it_numbered(bias, rule):
    for seed in range(6):
        examples, _ = noisy(seed, n=20, d=2, flip=0.1)
        run = train(examples, rule=rule, bias=bias, max_epochs=6)
        after = list(replay([(with_bias(x) if bias else x) for x, _ in examples], run.trace))
        for k in sorted({1, 2, run.mistakes // 2, run.mistakes}):
            picture = P.svg(run, examples, upto=k)
            earlier = {int(g.get("data-mistake")): point(g.get("data-w")) for g in svg_groups(picture, "hypothesis")}
            assert set(earlier) <= set(range(max(1, k - 10), k)) and all(earlier[n] == after[n - 1] for n in earlier)
            finals = svg_groups(picture, "hypothesis final")
            assert all(point(g.get("data-w")) == after[k - 1] and g.get("data-mistake") == str(k) for g in finals)
            assert all(g.find(SVG + "line").get("stroke-dasharray") for g in finals)  # the hypothesis dashed
            if not bias:  # every line through the origin crosses the picture: each is drawn unless w = 0
                assert set(earlier) == {n for n in range(max(1, k - 10), k) if any(after[n - 1])}
                assert len(finals) == bool(any(after[k - 1]))
            assert ("(the last 10)" in legend_of(picture)) == (k > 11)
        assert P.svg(run, examples) == P.svg(run, examples, upto=run.mistakes)


@pytest.mark.parametrize("bias", [False, True])
def test_svg_final_line_lies_exactly_on_w_and_is_perpendicular_to_it(bias):
    for seed in range(10):
        examples, _ = noisy(seed, n=15, d=2, flip=0.0)
        run = train(examples, bias=bias)
        finals = svg_groups(P.svg(run, examples), "hypothesis final")
        if not any(run.w[:2]):
            assert finals == []
            continue
        line = finals[0].find(SVG + "line")
        a, b = point(line.get("data-from")), point(line.get("data-to"))
        w = run.w + ([] if bias else [0])
        for X, Y in (a, b):
            assert w[0] * X + w[1] * Y + w[2] == 0
        assert w[0] * (b[0] - a[0]) + w[1] * (b[1] - a[1]) == 0 and a != b


def test_svg_draws_the_target_solid_and_w_dashed_as_columbia_and_the_target_shows_where_they_coincide():
    run = train(P.EXAMPLE)
    text = P.svg(run, P.EXAMPLE, w_star=P.W_STAR)
    groups = [g.get("class") for g in ET.fromstring(text).iter(SVG + "g")]
    [target], [final] = svg_groups(text, "target"), svg_groups(text, "hypothesis final")
    line, over = target.find(SVG + "line"), final.find(SVG + "line")
    assert run.w == [-6, 3] and point(target.get("data-w")) == [-2, 1]  # w is 3 w*: one line
    assert [line.get(a) for a in ("x1", "y1", "x2", "y2")] == [over.get(a) for a in ("x1", "y1", "x2", "y2")]
    assert groups.index("target") < groups.index("hypothesis final")  # under it, wider and solid: both show
    assert line.get("stroke-dasharray") is None and over.get("stroke-dasharray")
    assert float(line.get("stroke-width")) > float(over.get("stroke-width"))
    v, w = (svg_groups(text, name)[0].find(SVG + "line") for name in ("v-vector", "w-vector"))
    assert w.get("stroke-dasharray") and v.get("stroke-dasharray") is None  # Columbia: w dashed, v solid
    x0, y0 = float(w.get("x1")), float(w.get("y1"))
    vx, vy = float(v.get("x2")) - x0, float(v.get("y2")) - y0
    wx, wy = float(w.get("x2")) - x0, float(w.get("y2")) - y0
    assert abs(3 * vx - wx) < 0.05 and abs(3 * vy - wy) < 0.05  # one scale for the arrows: v ends a third along w
    assert groups.index("v-vector") > groups.index("w-vector")  # drawn over w, so both heads show
    legend = legend_of(text)
    assert "solid blue: the target, w*.x = 0" in legend and "black dashes: w after mistake 5 (the last)" in legend
    assert "arrows (scaled alike): w dashed · the move w -> w - x red · v = w* blue" in legend


def test_svg_rings_the_example_of_its_mistake_and_draws_the_move_w_to_w_plus_y_x():
    run = train(P.EXAMPLE)
    for k, m in enumerate(run.trace, 1):
        text = P.svg(run, P.EXAMPLE, upto=k)
        assert rings_of(text) == [(m.index, "#d33")]  # this mistake's example alone
        assert f"red ring: x of mistake {k} (index {m.index})" in legend_of(text)
        moves = svg_groups(text, "move")
        if k == 1:  # from w = 0 the move is w itself
            assert moves == []
            continue
        line, x = moves[0].find(SVG + "line"), P.EXAMPLE[m.index][0]
        dx, dy = float(line.get("x2")) - float(line.get("x1")), float(line.get("y1")) - float(line.get("y2"))
        assert abs(dx * x[1] - dy * x[0]) < 0.05 and m.y * (dx * x[0] + dy * x[1]) > 0  # along y x
        assert moves[0].find(SVG + "text").text == "-x" and m.y == -1
        w = svg_groups(text, "w-vector")[0].find(SVG + "line")
        assert (line.get("x2"), line.get("y2")) == (w.get("x2"), w.get("y2"))  # it ends at w's head


def test_svg_step_0_is_the_run_at_w_0_and_svg_steps_draws_it_first(tmp_path, capsys):
    run = train(P.EXAMPLE)
    text = P.svg(run, P.EXAMPLE, upto=0, w_star=P.W_STAR)
    for cls in ("hypothesis", "hypothesis final", "w-vector", "move"):
        assert svg_groups(text, cls) == [], cls
    assert rings_of(text) == [] and len(svg_groups(text, "target")) == len(svg_groups(text, "v-vector")) == 1
    assert "w = 0, no mistake yet: no hyperplane (Columbia §1.1)" in legend_of(text)
    status = P.main(["--svg-steps", str(tmp_path / "steps"), "--quiet"])
    assert status == 0 and f"pictures: 6 in {tmp_path / 'steps'}, w = 0 and each mistake" in capsys.readouterr().out
    files = sorted(os.listdir(tmp_path / "steps"))
    assert files == [f"step-{k}.svg" for k in range(run.mistakes + 1)]
    for k, name in enumerate(files):
        assert (tmp_path / "steps" / name).read_text(encoding="utf-8") == P.svg(run, P.EXAMPLE, w_star=P.W_STAR,
                                                                                 upto=k)


def test_svg_with_json_writes_the_picture_and_only_json_on_standard_output(tmp_path, capsys):
    out = tmp_path / "run.svg"
    status, doc = cli_json(capsys, "--svg", str(out))
    assert status == 0 and doc["weights"] == [-6, 3] and "picture" not in doc
    assert out.read_text(encoding="utf-8").startswith("<svg ")


def test_svg_is_the_same_bytes_every_time(tmp_path):
    outputs = set()
    for seed in ("0", "99"):
        out = tmp_path / f"{seed}.svg"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        status, _, _ = cli_process("--svg", str(out), "--quiet", env=env)
        assert status == 0
        outputs.add(out.read_bytes())
    assert len(outputs) == 1


# The pictures' bytes, the same on every Python (CI runs this on 3.9 to 3.13 and PyPy): the embedded run at each
# step, XOR under two kernels, a long noisy run with its pocket and average.  A change of the picture renews it here,
# deliberately: python3 -c "import test_perceptron as t; print(t.pictures_digest())"
PICTURES_DIGEST = "f8633455b95f408888cd7c96067c7d8847007a63dd335bda856fee4315ecff8e"


def pictures_digest():
    digest, run = hashlib.sha256(), train(P.EXAMPLE)
    for k in range(run.mistakes + 1):
        digest.update(P.svg(run, P.EXAMPLE, w_star=P.W_STAR, upto=k).encode())
    for spec in ("polynomial:2", "monotone-conjunction"):
        digest.update(P.svg(train(XOR, kernel=kernels.from_spec(spec)), XOR).encode())
    examples, _ = noisy(64, n=60, d=2, flip=0.3)
    run = train(examples, bias=True, max_epochs=30, pocket=True, average="after")
    digest.update(P.svg(run, examples, names=["sepal", "petal"]).encode())
    return digest.hexdigest()


def test_the_pictures_are_the_same_bytes_on_every_python():
    assert pictures_digest() == PICTURES_DIGEST


@pytest.mark.skipif(platform.python_implementation() == "PyPy", reason="PyPy's decimal is _pydecimal, which "
                    "converts through int <-> str and so meets the 4300-digit limit Decimal has no part in on CPython")
def test_svg_draws_cells_of_4300_digits_beyond_a_float_s_range(tmp_path, capsys):
    big = 10 ** 4300 - 1  # 4300 digits, the most a cell may have: its grid reaches 10^4300
    examples = [([big, 1], 1), ([-1, 1], -1)]
    assert P.svg(train(examples), examples).startswith("<svg")
    path = write(tmp_path, f"a,b,y\n{big},1,1\n-1,1,-1\n")
    status, out, err = cli(capsys, path, "--svg", str(tmp_path / "big.svg"))
    assert (status, err) == (0, "") and "data-from" in (tmp_path / "big.svg").read_text()


def test_svg_refuses_three_features_a_multiclass_run_and_a_run_without_its_trace(tmp_path, capsys):
    path = write(tmp_path, "1,2,3,1\n-1,0,2,-1\n")
    status, out, err = cli(capsys, path, "--svg", str(tmp_path / "x.svg"))
    assert (status, out) == (2, "") and err == "error: svg draws examples with 2 features; these have 3\n"
    assert not (tmp_path / "x.svg").exists()
    with pytest.raises(PerceptronError, match="^svg draws a binary run that kept its trace"):
        P.svg(P.train_multiclass([([1, 0], 1), ([0, 1], -1)]), [([1, 0], 1), ([0, 1], -1)])
    with pytest.raises(PerceptronError, match="^svg draws a binary run that kept its trace"):
        P.svg(train(P.EXAMPLE, trace=False), P.EXAMPLE)
    with pytest.raises(PerceptronError, match="^svg: w_star is drawn beside explicit weights"):
        P.svg(train(XOR, kernel=kernels.polynomial(2)), XOR, w_star=[1, 1])
    with pytest.raises(PerceptronError, match="^svg: names = 'ab' is not two strings"):
        P.svg(train(P.EXAMPLE), P.EXAMPLE, names="ab")


@pytest.mark.parametrize("conventions", [{"zero": -1}, {"rate": Fraction(1, 2)}, {"bias_first": True},
                                         {"bias_feature": -1}, {"step": "error"}])
def test_the_picture_draws_a_run_under_the_conventions_it_ran(conventions):
    # the run is made again under its own conventions (before: the notes', so a run with sign(0) = -1 or a rate was
    # "not trained on these examples"), and each hyperplane is w.(x, y as the run reads them) = 0
    run = P.train(P.EXAMPLE, bias=True, **conventions)
    picture = P.svg(run, P.EXAMPLE)
    field, value = next(iter(conventions.items()))  # the legend names it by its option
    assert f"conventions: --{field.replace('_', '-')}" in picture and "conventions:" not in P.svg(P.train(P.EXAMPLE),
                                                                                                P.EXAMPLE)
    final = re.search(r'class="hypothesis final"[^>]*><line ([^>]*)>', picture)[1]
    w = run.w if not run.conventions.bias_first else [*run.w[1:], run.w[0]]
    a, b, c = w[0], w[1], w[2] * run.conventions.bias_feature
    ends = [[Fraction(v) for v in re.search(f'data-{end}="([^"]*)"', final)[1].split(",")] for end in ("from", "to")]
    assert all(a * x + b * y + c == 0 for x, y in ends)
    if "rate" in conventions or "step" in conventions:  # a move that is not y x is not named so
        assert "the move w -> w" not in picture and "the move of w at the update" in picture and run.mistakes > 1
    else:
        assert "the move of w at the update" not in picture


def test_the_picture_and_the_page_start_at_the_start_a_run_ran_from(tmp_path, capsys):
    # before: step 0 said "w = 0, no mistake yet: no hyperplane" under --start, and mistake 1 drew no move from it
    run = P.train(P.EXAMPLE, bias=True, start=[1, 2, 3])
    first = P.svg(run, P.EXAMPLE, upto=0)
    assert "w = 0" not in first and "w = (1, 2, 3), the start (--start): no mistake yet" in first
    assert 'class="hypothesis final" data-w="1/1,2/1,3/1"' in first
    assert re.search(r'class="move"><line x1="([^"]*)" y1="([^"]*)"', P.svg(run, P.EXAMPLE, upto=1)).groups() == \
        re.search(r'class="w-vector"><line x1="[^"]*" y1="[^"]*" x2="([^"]*)" y2="([^"]*)"', first).groups()
    assert 'class="move"' not in P.svg(P.train(P.EXAMPLE, bias=True), P.EXAMPLE, upto=1)  # from 0: w's own arrow
    path = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n")
    status, out, err = cli(capsys, path, "--start=1,2", "--html", str(tmp_path / "run.html"))
    page = (tmp_path / "run.html").read_text()
    assert (status, err) == (0, "") and "w = 0" not in page and 'data-title="w at the start (--start)"' in page
    status, out, _ = cli(capsys, path, "--start=1,2", "--svg-steps", str(tmp_path / "steps"))
    assert status == 0 and f"pictures: 5 in {tmp_path / 'steps'}, the start and each mistake" in out, out


def test_the_legend_names_grey_dashes_only_where_an_earlier_hypothesis_is_drawn():
    # before: earlier hypotheses all off the picture (here w = 0: the batch moves w at its end) still put
    # "grey dashes n" in the legend and blank lines in the picture
    examples = [([3, 3], -1), ([-3, 1], 1), ([0, -3], -1), ([2, 0], -1), ([-3, -1], 1), ([0, 4], 1)]
    run = P.train(examples, bias=True, batch="sum")
    picture = P.svg(run, examples, upto=3)
    assert 'class="hypothesis"' not in picture and "grey dashes" not in picture and "\n\n" not in picture
    assert "grey dashes" in P.svg(P.train(examples, bias=True), examples, upto=3)


def test_a_kernel_run_s_regions_colour_a_zero_score_by_the_run_s_sign_of_zero():
    # before: a cell scoring 0 was blue (sign(0) = +1) under --zero=-1, where the run predicts -1
    run = P.train(XOR, kernel=kernels.from_spec("monotone-conjunction"), zero=-1)
    assert [run._prefix_scores(x)[2] for x, _ in XOR] == [0, 0, -1, -2]  # after mistake 2: nowhere above 0
    picture = P.svg(run, XOR, upto=2)
    assert re.findall(r'width="([0-9.]*)" height="11" fill="#fbe0c4"', picture) == ["440"] * 40  # all orange
    assert "blue: sum_j y_j K(x_j, x) &gt; 0 (Columbia §2.3, eq. (2)), orange: &lt;= 0," in picture


def test_svg_takes_a_w_star_of_numpy_numbers_by_value():
    # before: a NumPy array as w_star raised NumPy's own ValueError (its truth value), np.int64's a TypeError
    np = pytest.importorskip("numpy")
    run = train(P.EXAMPLE)
    picture = P.svg(run, P.EXAMPLE, w_star=P.W_STAR)
    assert P.svg(run, P.EXAMPLE, w_star=np.array(P.W_STAR)) == picture
    assert P.svg(run, P.EXAMPLE, w_star=[np.int64(v) for v in P.W_STAR]) == picture


def test_the_page_s_proof_chart_starts_at_the_start_a_run_ran_from(tmp_path, capsys):
    # before: its first points were (1) = (2) = 0 at M = 0 whatever --start gave w there; from w = (1, 1, 1),
    # (1) is w.w* / (gamma ||w*||) = -2/3 and (2) is ||w||^2 / R^2 = 3/19 there
    path = write(tmp_path, "x1,x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n2,0,-1\n-3,-1,1\n0,4,1\n")
    pages = []
    for start in ("0,0,0", "1,1,1"):
        status, out, err = cli(capsys, path, "--bias", "--w-star=-2,1,-1", f"--start={start}", "--html",
                               str(tmp_path / "p.html"))
        chart = (tmp_path / "p.html").read_text().split('<div class="proof">')[1]
        pages.append([float(re.search(f'class="\\({n}\\)" points="[^,]*,([^ ]*)', chart)[1]) for n in (1, 2)])
    assert status == 0 and pages[0][0] == pages[0][1] and pages[1][0] > pages[1][1]  # (pixels grow downwards)


def test_readme_pictures_are_what_their_commands_draw(tmp_path):
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    (tmp_path / "xor.csv").write_text("x1,x2,y\n0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")
    assert "printf 'x1,x2,y\\n0,0,-1\\n0,1,1\\n1,0,1\\n1,1,-1\\n' > xor.csv" in readme
    for command in ("python3 perceptron.py --svg perceptron.svg",
                    "python3 perceptron.py xor.csv --kernel polynomial:2 --svg xor-polynomial.svg",
                    "python3 perceptron.py xor.csv --kernel monotone-conjunction --svg xor-conjunction.svg"):
        argv = command.split()[2:]
        assert command in readme and f"]({argv[-1]})" in readme, command
        argv[-1] = str(tmp_path / argv[-1])
        assert P.main([str(tmp_path / a) if a == "xor.csv" else a for a in argv] + ["--quiet"]) == 0
        committed = open(os.path.join(HERE, os.path.basename(argv[-1])), encoding="utf-8").read()
        assert open(argv[-1], encoding="utf-8").read() == committed, command
    assert readme.index("![") < readme.index("## Reading it beside the notes")  # the example and its picture, early


@pytest.mark.parametrize("case", ["embedded", "long", "kept", "iris-like", "xor-pocket", "kernel"])
def test_svg_legend_lists_only_what_is_drawn_and_labels_avoid_the_points(case):
    rng = random.Random(7)
    w_star = None
    if case == "embedded":
        examples, run, w_star = P.EXAMPLE, train(P.EXAMPLE), P.W_STAR
    elif case == "iris-like":  # two tight clusters far from the origin: w (scaled) used to cover them
        examples = [([Fraction(round(rng.gauss(1.46, 0.17), 1)), Fraction(round(rng.gauss(0.25, 0.1), 1))], -1)
                    for _ in range(50)] + [([Fraction(round(rng.gauss(4.26, 0.47), 1)),
                                             Fraction(round(rng.gauss(1.33, 0.2), 1))], 1) for _ in range(50)]
        rng.shuffle(examples)
        run = train(examples, bias=True)
    elif case == "xor-pocket":  # the pocket stays at w = 0, which has no line: the legend does not list it
        examples, run = XOR, train(XOR, bias=True, pocket=True, max_epochs=30)
        assert run.pocket.w == [0, 0, 0]
    elif case == "kernel":
        examples, run = XOR, train(XOR, kernel=kernels.polynomial(2))
    else:
        examples, _ = noisy(64, n=60 if case == "kept" else 25, d=2, flip=0.3)
        run = train(examples, bias=case == "kept", max_epochs=30, pocket=case == "kept",
                    average="after" if case == "kept" else None)
    text = P.svg(run, examples, w_star=w_star)
    legend = legend_of(text)
    for t in ET.fromstring(text).iter(SVG + "text"):
        kind = t.get("class")
        assert kind in ("tick", "axis-name", "caption", "legend", "step", "index", "name"), t.text
        assert kind != "step" or "grey dashes n: w after mistake n" in legend
        assert kind != "index" or "numbered by index (from 0)" in legend
        assert kind != "name" or "arrows" in legend and t.text in ("w", "v", "+x", "-x")
    for cls, named in (("target", "the target"), ("pocket", "the pocket's w"), ("average", "the average"),
                       ("hypothesis", "grey dashes"), ("hypothesis final", "black dashes"), ("w-vector", "w dashed"),
                       ("v-vector", "v = w* blue"), ("move", "the move"), ("regions", "sum_j y_j K(x_j, x)")):
        assert bool(svg_groups(text, cls)) == (named in legend), (cls, legend)
    assert (case == "xor-pocket") == ("pocket" not in legend and run.pocket is not None)
    names = text_boxes(text, "name")
    assert len(names) == len(svg_groups(text, "w-vector") + svg_groups(text, "v-vector") + svg_groups(text, "move"))
    assert not any(overlap(a, b) for a in names for b in mark_boxes(text))


def test_svg_numbers_the_last_ten_hypotheses_legibly_on_thousands_of_mistakes():
    examples, _ = noisy(11, n=300, d=2, flip=0.3)
    run = train(examples, max_epochs=30)
    text = P.svg(run, examples)
    drawn = [int(g.get("data-mistake")) for g in svg_groups(text, "hypothesis")]
    steps = text_boxes(text, "step")
    assert run.mistakes > 3000 and drawn == list(range(run.mistakes - 10, run.mistakes))
    assert "grey dashes n: w after mistake n (the last 10)" in legend_of(text) and 5 <= len(steps) <= 10
    assert not any(overlap(a, b) for n, a in enumerate(steps) for b in steps[n + 1:] + text_boxes(text, "name"))
    assert not any(overlap(a, b) for a in steps for b in mark_boxes(text))


@pytest.mark.parametrize("spec", ["polynomial:2", "monotone-conjunction"])
def test_svg_of_xor_under_a_kernel_draws_the_sign_of_eq_2_and_rings_the_stored_mistakes(tmp_path, capsys, spec):
    run = train(XOR, kernel=kernels.from_spec(spec))
    assert run.converged and run.w is None
    text = P.svg(run, XOR)
    [regions] = svg_groups(text, "regions")
    orange = set()  # the cells (column, row) of the 40 x 40 grid the picture paints orange, from its rectangles
    for r in regions.iter(SVG + "rect"):
        if r.get("fill") == "#fbe0c4":
            i, j = (round((float(r.get(a)) - 30) / 11) for a in ("x", "y"))
            orange |= {(i + c, j) for c in range(round(float(r.get("width")) / 11))}
    x0, x1, y0, y1 = P._axes([[Fraction(c) for c in x] for x, _ in XOR], ("", ""))[0]
    bits = spec == "monotone-conjunction"  # a kernel of bits takes each cell at its nearest point of {0,1}^2
    for j in range(40):
        for i in range(40):
            centre = [x0 + (x1 - x0) * (2 * i + 1) / 80, y1 - (y1 - y0) * (2 * j + 1) / 80]
            centre = [int(2 * c >= 1) for c in centre] if bits else centre
            assert ((i, j) in orange) == (run.score(centre) < 0), (i, j)
    for x, label in XOR:  # the regions of XOR: orange at (0, 0) and (1, 1), blue at (0, 1) and (1, 0)
        i, j = math.floor((x[0] - x0) / (x1 - x0) * 40), math.floor((y1 - x[1]) / (y1 - y0) * 40)
        assert ((i, j) in orange) == (label == -1)
    stored = {m.index for m in run.trace}
    assert sorted(rings_of(text)) == sorted((i, "#d33" if i == run.trace[-1].index else "#999") for i in stored)
    assert "blue: sum_j y_j K(x_j, x) >= 0 (Columbia §2.3, eq. (2)), orange: < 0," in legend_of(text)
    assert f"grey rings: the stored x_j · red ring: x of mistake {run.mistakes}" in legend_of(text)
    assert svg_groups(P.svg(run, XOR, upto=0), "regions") == []  # at w = 0 nothing is stored
    path = write(tmp_path, "x1,x2,y\n0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")
    status, _, err = cli(capsys, path, "--kernel", spec, "--svg", str(tmp_path / "k.svg"))
    assert (status, err) == (0, "") and (tmp_path / "k.svg").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("examples", [[([0, 1], 1), ([0, -1], -1)], [([2, 0], 1), ([-3, 0], -1)],
                                      [([0, 0], 1), ([0, 0], -1)]])
def test_svg_draws_examples_whose_feature_is_0_throughout(tmp_path, capsys, examples):
    run = train(examples, max_epochs=3)  # a box whose centre is 0 on that axis: exact, as every other
    root = ET.fromstring(P.svg(run, examples))
    assert [g.get("data-index") for g in root.iter(SVG + "g") if g.get("class") == "example"] == ["0", "1"]
    for line in root.iter(SVG + "line"):
        assert all(re.fullmatch(r"-?[0-9]+/[0-9]+,-?[0-9]+/[0-9]+", line.get(end) or "0/1,0/1")
                   for end in ("data-from", "data-to"))
    path = write(tmp_path, "".join(f"{x[0]},{x[1]},{y}\n" for x, y in examples))
    status, _, err = cli(capsys, path, "--max-epochs", "3", "--svg", str(tmp_path / "o.svg"))
    assert status in (0, 1) and err == "" and (tmp_path / "o.svg").read_text().startswith("<svg")
    run.save(tmp_path / "model.json")
    loaded = P.load(tmp_path / "model.json")
    assert loaded == run._replace(mistakes=0, epochs=0, converged=None, trace=None, model=loaded.model)


# Issue 38's "pictures that are not XML": every text of a picture and a page is XML 1.0, whatever a header holds.
HOSTILE_NAMES = ["x\x01", "\x1b[31m<b>&\ufffe"]


def test_every_text_of_a_picture_and_a_page_is_xml_1_0_whatever_the_header_holds(tmp_path, capsys):
    path = write(tmp_path, ",".join(HOSTILE_NAMES) + ",y\n" + EMBEDDED_CSV.split("\n", 1)[1])
    status, _, err = cli(capsys, path, "--svg", str(tmp_path / "o.svg"), "--svg-steps", str(tmp_path / "steps"),
                         "--html", str(tmp_path / "o.html"), "--quiet")
    assert (status, err) == (0, "")
    shown = ["x\\x01", "\\x1b[31m<b>&\\ufffe"]  # each character XML cannot hold, as its escape
    for picture in [tmp_path / "o.svg", *sorted((tmp_path / "steps").iterdir())]:
        root = ET.parse(picture).getroot()  # XML 1.0: the parse fails on a control character or U+FFFE
        assert [t.text for t in root.iter(SVG + "text") if t.get("class") == "axis-name"] == shown
    page = (tmp_path / "o.html").read_text(encoding="utf-8")
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]", page)
    assert "\\x1b[31m&lt;b&gt;&amp;\\ufffe" in page and "<b>&" not in page
    text = P.svg(train(P.EXAMPLE), P.EXAMPLE, names=["\x00\x1b", "\ud800\U0010ffff\ufdd0"])
    assert [t.text for t in ET.fromstring(text).iter(SVG + "text") if t.get("class") == "axis-name"] == [
        "\\x00\\x1b", "\\ud800\\U0010ffff\\ufdd0"]


# --html: the run as one page for a class.
def page_of(tmp_path, capsys, *argv, data=None, name="data.csv"):
    out = tmp_path / "run.html"
    status, _, err = cli(capsys, *([write(tmp_path, data, name)] if data else []), *argv, "--html", str(out),
                         "--quiet")
    assert err == "" and status in (0, 1)
    return out.read_text(encoding="utf-8")


def test_a_header_cell_with_a_blank_line_is_escaped_in_the_report_and_the_pages_sections_keep_their_text(
        tmp_path, capsys):
    # a quoted header cell "a<LF><LF>b": printed raw, it broke the report's table and moved the page's sections
    # (the trace table under "The run"); each line of the report is now printable, as _say's
    data = '"a\n\nb",x2,y\n3,3,-1\n-3,1,1\n0,-3,-1\n'
    status, out, _ = cli(capsys, write(tmp_path, data))
    assert status == 0 and "2 features (a\\n\\nb, x2)" in out and "   a\\n\\nb  x2\nw      -6   3\n" in out, out
    page = page_of(tmp_path, capsys, data=data)
    run = html.unescape(page.split("<h2>The run</h2>", 1)[1].split("<h2>", 1)[0])
    trace = html.unescape(page.split("<h2>The trace</h2>", 1)[1])
    assert "pass  index" not in run and "mistakes: 5" in run, run
    assert "pass  index" in trace and "mistakes: 5" not in trace, trace


def frames(page):
    """The stepper's frames: (title, picture or "", text) each."""
    return [(title, picture, html.unescape(text)) for title, picture, text in re.findall(
        r'<div class="frame" data-title="([^"]*)">(.*?)<pre>(.*?)</pre></div>', page, re.S)]


class Tags(html.parser.HTMLParser):
    """The elements a browser would make of a page."""
    def __init__(self, page):
        super().__init__()
        self.tags = collections.Counter()
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags[tag] += 1


def test_a_page_holds_the_header_a_stepper_through_each_mistake_the_proof_and_the_trace(tmp_path, capsys):
    page = page_of(tmp_path, capsys)
    run = train(P.EXAMPLE)
    assert page.startswith("<!DOCTYPE html>") and "<h1>The Perceptron on the embedded example</h1>" in page
    assert "<pre>perceptron 0.4.0 on the embedded example: 8 examples, 2 features (x1, x2)\nrule:   sign:" in page
    blocks = run.explain(P.EXAMPLE, P.W_STAR).split("\n\n")
    shown = frames(page)
    assert [title for title, _, _ in shown] == ["w = 0"] + [f"mistake {k} of 5" for k in range(1, 6)]
    assert shown[0][2] == "w = 0: no mistake yet (Columbia §1.1)\n\n" + blocks[0]  # the w* and (1), (2)
    for k, (_, picture, text) in enumerate(shown):
        assert picture == P.svg(run, P.EXAMPLE, w_star=P.W_STAR, upto=k)  # each mistake's picture beside its text
        assert k == 0 or text == blocks[k]
    proof = page.split("<h2>The proof</h2>", 1)[1].split("<h2>", 1)[0]
    assert [g.get("class") for g in ET.fromstring(proof[proof.index("<svg"):proof.index("</svg>") + 6]).iter(
        SVG + "polyline")] == ["(1)", "(2)"]
    assert html.unescape(proof).count(blocks[-1]) == 1 and blocks[-1].startswith("the theorem, M = 5")
    trace = page.split("<h2>The trace</h2>", 1)[1]
    assert "<pre>pass  index        x   y  score   w after\n   1      0   (3, 3)  -1      0  (-3, -3)" in trace
    assert "passes: 4, converged" in page and Tags(page).tags["script"] == 1
    assert page.count("<script>") == 1 and P._SCRIPT in page


def test_a_page_refers_to_nothing_outside_it(tmp_path, capsys):
    for argv, data in (((), None), (("--kernel", "polynomial:2"), "x1,x2,y\n0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")):
        page = page_of(tmp_path, capsys, *argv, data=data)
        assert set(re.findall(r"[a-z]+:[^\s\"'<>]*//[^\s\"'<>]*", page)) == {"http://www.w3.org/2000/svg"}
        assert not re.search(r"\b(src|href|srcset|action|xlink:href)\s*=|@import|url\((?!#head\))", page)
        assert "default-src 'none'" in page  # and the browser is told to fetch nothing, should anything ask


@pytest.mark.parametrize("header", ["<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>"])
def test_a_page_shows_every_text_from_the_data_as_text_and_runs_no_script_but_its_own(tmp_path, capsys, header):
    data = f"{header},x2,y\n3,3,</script>\n-3,1,<b>\n0,-3,</script>\n-3,-1,<b>\n"
    page = page_of(tmp_path, capsys, "--labels=</script>,<b>", data=data, name="<i>.csv")
    tags = Tags(page).tags
    assert tags["script"] == 1 and not tags["img"] and not tags["i"] and not set(tags) - {
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "pre", "p", "input", "b", "div", "script", "svg",
        "defs", "marker", "path", "rect", "line", "text", "g", "circle", "polyline"}
    assert html.escape(header, quote=False) in page and "&lt;i&gt;.csv" in page and "(label &lt;/script&gt;)" in page


def test_a_page_of_a_kernel_run_steps_through_its_regions(tmp_path, capsys):
    page = page_of(tmp_path, capsys, "--kernel", "polynomial:2", data="x1,x2,y\n0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")
    run = train(XOR, kernel=kernels.polynomial(2))
    shown = frames(page)
    assert run.mistakes == 21 and [title for title, _, _ in shown] == ["w = 0"] + [f"mistake {k} of 21" for k in
                                                                              range(1, 22)]
    after = P._weights_after(run, XOR, 2)  # as svg(run, XOR, upto=k) draws it, its regions computed once
    assert shown[-1][1] == P.svg(run, XOR)
    for title, picture, text in shown[1:]:
        k = int(title.split()[1])
        assert picture == P._draw(run, XOR, after, upto=k) and text.startswith(f"mistake {k}: pass ")
        assert "(Columbia §2.3, eq. (2), K = polynomial(2, c=1))" in text
    assert "<h2>The proof</h2>" not in page  # no w*: no chart


def test_a_page_of_a_multiclass_run_or_of_three_features_has_no_picture_but_its_steps_and_trace(tmp_path, capsys):
    page = page_of(tmp_path, capsys, "--multiclass", data=MULTICLASS_CSV)
    shown = frames(page)
    assert len(shown) == 1 + 19 and all(picture == "" for _, picture, _ in shown)
    assert "<h2>The proof</h2>" not in page and "class  pass  index" in page
    data = "a,b,c,y\n1,2,3,1\n-1,0,-2,-1\n2,1,0,1\n-2,-2,1,-1\n"
    page = page_of(tmp_path, capsys, "--w-star=1,1,0", data=data)
    assert all(picture == "" for _, picture, _ in frames(page)) and "<h2>The proof</h2>" in page
    floats = "a,b,y\n0.5,1.5,1\n-1.25,-0.5,-1\n2.0,0.25,1\n-0.75,-1.5,-1\n"  # R^2 and gamma^2 floats: the chart too
    page = page_of(tmp_path, capsys, "--w-star=1,1", data=floats)
    assert all(picture.startswith("<svg") for _, picture, _ in frames(page)) and "<h2>The proof</h2>" in page


def test_html_is_an_output_refused_where_it_would_replace_an_input_or_another_output(tmp_path):
    (tmp_path / "data.csv").write_text(FOUR)
    for argv, said in ((["data.csv", "--html", "data.csv"], "--html data.csv is the input FILE"),
                       (["data.csv", "--svg", "o.x", "--html", "o.x"], "--html o.x is the output --svg"),
                       (["data.csv", "--save", "./o.x", "--html", "o.x"], "--html o.x is the output --save"),
                       (["data.csv", "--html", "o/"], "--html o/: a folder's name, not a file's")):
        status, out, err = cli_process(*argv, cwd=tmp_path, timeout=30)
        assert status == 2 and out == "" and err.startswith(f"error: {said}"), argv
        assert files_in(tmp_path) == ["data.csv"]
    for other in ("--model", "--check"):
        status, _, err = cli_process("data.csv", other, "m.json", "--html", "o.html", cwd=tmp_path, timeout=30)
        assert (status, err) == (2, f"error: --html does not apply to {other}\n")


# Notebooks: every run shows itself as a table, its trace if short, its picture if it has one.
def test_a_run_shows_in_a_notebook_as_a_table_its_trace_and_its_picture():
    run = train(P.EXAMPLE)
    shown = run._repr_html_()
    assert shown.startswith('<table class="perceptron-run">') and shown.endswith(P.svg(run, P.EXAMPLE))
    assert "<tr><td>w</td><td>(-6, 3)</td></tr><tr><td>mistakes</td><td>5</td></tr><tr><td>passes</td>" in shown
    assert "<tr><td>pass</td><td>index</td><td>y</td><td>score</td></tr><tr><td>1</td><td>0</td><td>-1</td>" in shown
    kernel = train(XOR, kernel=kernels.polynomial(2))
    assert kernel._repr_html_().endswith(P.svg(kernel, XOR)) and "sum_j y_j Phi(x_j)" in kernel._repr_html_()
    classes = P.train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([-1, -1], "<c>")])
    shown = classes._repr_html_()
    assert "<td>w(&lt;c&gt;)</td><td>(-1, -1)</td>" in shown and "<td>class</td><td>pass</td>" in shown
    assert "<svg" not in shown and "<c>" not in shown
    three = train([([1, 2, 3], 1), ([-1, 0, 2], -1)])
    assert f"<td>w</td><td>{P._num(three.w)}</td>" in three._repr_html_() and "<svg" not in three._repr_html_()
    online = train(P.EXAMPLE, epochs=1)  # one online pass keeps no examples: no picture, its trace
    assert "<svg" not in online._repr_html_() and "<td>pass</td>" in online._repr_html_()
    examples, _ = noisy(29, n=60, d=2, flip=0.3)
    long = train(examples, max_epochs=5)  # more than 25 mistakes: no trace table
    assert long.mistakes > 25 and "<td>pass</td>" not in long._repr_html_()
    assert "<svg" not in train(P.EXAMPLE, trace=False)._repr_html_()




# ===========================================================================
# 7. --conform: the oracle drives another implementation, a command, over designed and seeded random cases; what
# it is on every case (the options under which it agrees, its arithmetic), each bug shrunk to a witness CSV
# ===========================================================================

# A dozen implementations in one small program, as implementers write them: `python3 loop.py KIND DATA`, THEIRS on
# standard output.  Cells are read as ints where they are whole, else as floats.
CONFORMING = r'''
import csv, json, struct, sys
kind, path = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(path)))[1:]
X = [[int(t) if t.lstrip("-").isdigit() and kind != "rate" else float(t) for t in r[:-1]] for r in rows]
Y = [int(r[-1]) for r in rows]
if kind == "bias":
    X = [x + [1] for x in X]
if kind == "crash":  # x / |x|_1 * |x|_1: a normalisation that divides by zero on an all-zero example
    X = [[v / sum(map(abs, x)) * sum(map(abs, x)) for v in x] for x in X]
keep = {"float32": lambda v: struct.unpack("f", struct.pack("f", v))[0],
        "int32": lambda v: (v + 2 ** 31) % 2 ** 32 - 2 ** 31}.get(kind, lambda v: v)
eta, w, trace, epoch, made = 0.1 if kind == "rate" else 1, [0] * len(X[0]), [], 0, 1
while made and (kind == "forever" or epoch < (10 if kind == "epochs" else 1000)):
    epoch, made = epoch + 1, 0
    for i in range(1 if kind == "skip" else 0, len(X)):
        x, y, s = X[i], Y[i], 0
        for a, b in zip(w, x):
            s = keep(s + keep(a * b))
        rules = {"margin": y * s <= 0, "zero": (1 if s > 0 else -1) != y, "never": y * s < 0}
        if rules.get(kind, (1 if s >= 0 else -1) != y):
            w = [keep(a + eta * y * b) for a, b in zip(w, X[i - 1] if kind == "other" else x)]
            made += 1
            trace.append({"epoch": epoch, "index": i + (kind == "from1"), "score": s, "weights": w})
print(json.dumps(dict({"weights": w, "trace": trace, "epochs": epoch, "converged": not made},
                      **({"precision": "binary32"} if kind == "float32" else {}))))
'''


def conform(tmp_path, monkeypatch, capsys, kind, *options, cases=9, command=None):
    """--conform on a kind of CONFORMING, in process, from tmp_path: (its status, its report)."""
    loop = tmp_path / "loop.py"
    loop.write_text(CONFORMING)
    monkeypatch.chdir(tmp_path)
    command = command or f"{shlex.quote(sys.executable)} loop.py {kind} {{data}}"
    status = P.main(["--conform", command, f"--conform-cases={cases}", "--conform-seed=1", *options])
    out, err = capsys.readouterr()
    assert err == "", err
    return status, out


def test_conform_of_the_notes_loop_agrees_on_every_case_with_exit_0(tmp_path, monkeypatch, capsys):
    status, out = conform(tmp_path, monkeypatch, capsys, "notes", cases=12)
    first = out.splitlines()[0]
    assert status == 0 and " on 12 cases (9 designed, 3 random, seed 1) in " in first, out
    assert first.endswith("s: agrees on every case") and "THEIRS, on every case: this project's run" in out
    assert "its arithmetic: exactly (" in out and not list(tmp_path.glob("conform-*")), out


@pytest.mark.parametrize("kind, option", [("margin", "--rule=margin"), ("zero", "--zero=-1"), ("bias", "--bias"),
                                          ("rate", "--rate=0.1"), ("epochs", "--max-epochs=10")])
def test_conform_names_each_common_convention_and_its_command_agrees_on_every_case(tmp_path, monkeypatch, capsys,
                                                                                     kind, option):
    # case 1 tells --zero=-1 from --rule=margin: a zero score on a negative example is a mistake under one only;
    # case 3 needs a bias: without one it never converges, and a loop of 10 passes shows them
    status, out = conform(tmp_path, monkeypatch, capsys, kind, cases=3)
    assert status == 1 and out.splitlines()[0].endswith(": differs: a convention, not a bug"), out
    assert f"THEIRS, on every case: a convention, not a bug." in out and f"\n  - {option}: " in out, out
    command = next(line for line in out.splitlines() if line.startswith("reproduce it: "))
    assert status == 1 and P.main(shlex.split(command)[4:]) == 0, command
    assert capsys.readouterr().out.splitlines()[0].endswith("agrees on every case")


def test_check_of_an_empty_trace_is_a_rule_that_never_fires_not_an_example_never_visited(tmp_path):
    examples = [([1, 0], 1), ([0, 1], -1), ([1, 1], 1)]  # example 0 is no mistake at w = 0; example 1 is
    status, out, err = check_in_process(tmp_path, examples, loop_run(examples, strict=True))
    assert (status, err) == (1, "") and "its rule never fires from w = 0" in out and "never visited" not in out, out


def test_conform_of_a_loop_that_numbers_its_examples_from_1_agrees_read_as_written(tmp_path, monkeypatch, capsys):
    # a difference at once, agreement when diagnosed: the case agrees, as --check reads it (it ended in exit 3)
    status, out = conform(tmp_path, monkeypatch, capsys, "from1", cases=4)
    assert status == 0 and out.splitlines()[0].endswith("agrees on every case"), out
    assert "its arithmetic: " in out and "under what it declares (" in out, out


def test_conform_of_a_float32_loop_agrees_up_to_binary32_rounding(tmp_path, monkeypatch, capsys):
    status, out = conform(tmp_path, monkeypatch, capsys, "float32")
    assert status == 0 and "its arithmetic:" in out and "up to binary32 rounding (" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("kind, said, case", [  # (the designed case that shows it: the cases up to it are run)
    ("skip", "a bug in THEIRS: example 0 is never visited", 2),
    ("other", "adds the x of the example visited before its own", 1),
    ("never", "its rule never fires from w = 0", 1),
    ("int32", "a bug in THEIRS: its integers wrap: every score and weight is kept in 32 bits", 7),
])
def test_conform_shrinks_each_bug_shape_to_a_witness_whose_check_shows_it(tmp_path, monkeypatch, capsys, kind, said,
                                                                           case):
    status, out = conform(tmp_path, monkeypatch, capsys, kind, cases=case)
    lines = out.splitlines()
    assert status == 1 and ": differs: " in lines[0] and said in out, out
    bug = next(k for k, line in enumerate(lines) if line.startswith(("a bug in THEIRS", "unexplained")))
    assert f", on case {case} (" in lines[bug] and lines[bug + 1].startswith("  shrunk from "), out
    sizes = [int(n) for n in re.match(r"  shrunk from (\d+) examples? of (\d+) features? to (\d+) examples? of (\d+) "
                                      "features?: ", lines[bug + 1]).groups()]
    assert sizes[2] <= sizes[0] and sizes[3] <= sizes[1] and sizes[2:] < sizes[:2], lines[bug + 1]
    witness = lines[bug + 1].split(": ")[1].split(" ")[0]
    assert witness == "conform-1.csv" and (tmp_path / witness).is_file() and (tmp_path / "conform-1.json").is_file()
    shown = next(line for line in lines[bug:] if line.startswith("  show it: "))
    assert shown == "  show it: python3 perceptron.py conform-1.csv --check conform-1.json", shown
    assert P.main(shlex.split(shown)[4:]) == 1 and "\n" + lines[bug + 2][2:] + "\n" in capsys.readouterr().out


def test_conform_reads_a_case_whose_data_fits_two_bugs_as_the_bug_of_the_other_cases(tmp_path, monkeypatch, capsys):
    # case 9's skipped example is its only mistake: an empty trace, alike "its rule never fires from w = 0"; the
    # other cases show example 0 never visited, and so does case 9 under that reading
    status, out = conform(tmp_path, monkeypatch, capsys, "skip", cases=9)
    first = out.splitlines()[0]
    assert status == 1 and re.search(r": differs: a bug in THEIRS on (\d+) cases$", first), out
    assert ", and on " in out and ", 9\n" in out and "never fires" not in out and "never visited" in out, out


def test_conform_reports_a_crash_with_its_case_its_data_and_its_standard_error_and_judges_on(tmp_path, monkeypatch,
                                                                                               capsys):
    status, out = conform(tmp_path, monkeypatch, capsys, "crash", cases=6)
    lines = out.splitlines()
    assert status == 1 and lines[0].endswith("differs: no run on 1 case") and "THEIRS, on 5 of the 6 cases" in out
    assert lines[4] == ("no run on case 5 (repeated and all-zero examples): it wrote nothing, exit status 1; its data: "
                        "conform-1.csv") and lines[-1].startswith("  its standard error: ZeroDivisionError"), out
    assert (tmp_path / "conform-1.csv").read_text() == "x1,x2,y\n1,2,1\n1,2,1\n0,0,1\n-1,-1,-1\n1,2,1\n0,0,1\n"


@pytest.mark.slow
def test_conform_stops_a_loop_that_never_ends_at_its_time_limit_and_judges_on(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(P, "_CONFORM_LIMIT", 1.0)  # the first case's limit; then 20 times the median, at least 2 s
    status, out = conform(tmp_path, monkeypatch, capsys, "forever", cases=4)
    assert status == 1 and re.search(r"\nno run on case 3 \(a bias that matters\): past the time limit of [0-9.]+ s: "
                                     "stopped; its data: conform-1.csv\n", out), out
    assert "THEIRS, on 3 of the 4 cases: this project's run" in out and not list(tmp_path.glob("perceptron-conform*"))


@pytest.mark.parametrize("command, said", [
    ("echo '{not json' # {data}", "--check refuses it: not the JSON of a run: Expecting property name"),
    ("true {data}", "it wrote nothing"),
    ("cat {data} > /dev/null; true {out}", "it wrote nothing to {out}"),
    ("echo '{\"weights\": [1]}' # {data}", "--check refuses it: weights: 1 numbers: the data has 2 features"),
    ("kill -9 $$ # {data}", "it ended by signal 9"),
])
def test_conform_reports_each_run_it_cannot_judge_and_exits_1(tmp_path, monkeypatch, capsys, command, said):
    status, out = conform(tmp_path, monkeypatch, capsys, None, cases=2, command=command)
    assert status == 1 and out.splitlines()[0].endswith("differs: no run on 2 cases"), out
    assert out.splitlines()[1].startswith(f"no run on case 1 (a zero score on each label at w = 0): {said}"), out


def test_conform_reads_theirs_from_out_and_labels_as_they_are_named(tmp_path, monkeypatch, capsys):
    names = ("import sys; open(sys.argv[3], 'w').write(open(sys.argv[2]).read().replace(',B', ',-1')"
             ".replace(',M', ',1'))")
    (tmp_path / "names.py").write_text(names)
    command = f"{shlex.quote(sys.executable)} names.py x {{data}} mine.csv && {shlex.quote(sys.executable)} loop.py " \
              "notes mine.csv > {out}"
    status, out = conform(tmp_path, monkeypatch, capsys, None, "--labels=B,M", cases=4, command=command)
    assert status == 0 and "agrees on every case" in out.splitlines()[0], out


def test_conform_never_replaces_a_file_the_user_has(tmp_path, monkeypatch, capsys):
    (tmp_path / "conform-1.csv").write_text("mine")
    os.symlink(tmp_path / "target", tmp_path / "conform-2.csv")  # a link to no file: not followed, not replaced
    status, out = conform(tmp_path, monkeypatch, capsys, None, cases=1, command="true {data}")
    assert status == 1 and out.endswith("its data: conform-3.csv\n") and (tmp_path / "conform-1.csv").read_text() \
        == "mine" and os.path.islink(tmp_path / "conform-2.csv") and not (tmp_path / "target").exists(), out


def test_conform_on_ctrl_c_prints_the_report_so_far_and_exits_130(tmp_path, monkeypatch, capsys):
    run, calls = P._conform_run, []
    def interrupted(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return run(*args)
    monkeypatch.setattr(P, "_conform_run", interrupted)
    status, out = conform(tmp_path, monkeypatch, capsys, "notes")
    assert status == 130 and out.splitlines()[0].endswith("s: differs: interrupted after 2 cases"), out
    assert "THEIRS, on every case: this project's run" in out and not list(tmp_path.glob("perceptron-conform*"))


def test_conform_repeats_its_cases_with_their_seed_and_prints_a_new_one_by_default(tmp_path, monkeypatch, capsys):
    args = P._arguments(["--conform", "x {data}"])
    cases = [list(P._conform_cases(args, seed, 40)) for seed in (1, 1, 2)]
    assert cases[0] == cases[1] != cases[2] and len(cases[0]) == 40 and cases[0][:9] == cases[2][:9]
    assert all(type(cell) is str for _, rows in cases[0] for row in rows for cell in row)
    status, out = conform(tmp_path, monkeypatch, capsys, "notes", cases=1)
    assert status == 0 and "(1 designed, 0 random, seed 1) in " in out, out
    assert P.main(["--conform", f"{shlex.quote(sys.executable)} loop.py notes {{data}}", "--conform-cases=1"]) == 0
    assert re.search(r"\(1 designed, 0 random, seed \d+\) in ", capsys.readouterr().out)


def test_conform_removes_its_temporary_folder_and_runs_with_no_standard_input(tmp_path, monkeypatch, capsys):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    status, out = conform(tmp_path, monkeypatch, capsys, None, cases=1, command="cat > /dev/null; true {data}")
    assert status == 1 and "it wrote nothing" in out and not list(tmp_path.glob("perceptron-conform*")), out


@pytest.mark.parametrize("argv, said", [
    (["--conform", "loop {out}"], "--conform: COMMAND has no {data}, the path of the CSV file it reads"),
    (["data.csv", "--conform", "loop {data}"], "a FILE does not apply to --conform"),
    (["--conform-seed=3"], "--conform-seed applies to --conform only"),
    (["--conform", "loop {data}", "--check", "t.json"], "--check does not apply to --conform"),
    (["--conform", "loop {data}", "--conform-cases=0"], "argument --conform-cases: '0' is not a whole number >= 1"),
])
def test_conform_of_bad_usage_is_one_error_line_and_exit_2(capsys, argv, said):
    assert P.main(argv) == 2 and capsys.readouterr().err.startswith(f"error: {said}")


def test_readme_conform_producer_in_plain_python_agrees_on_every_case(tmp_path, monkeypatch, capsys):
    # CI runs all four producers (NumPy, node and C too); the standard library's one runs here
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    section = readme[readme.index("### `--conform 'COMMAND'`"):readme.index("### `--vectors DIR`")]
    (tmp_path / "readme_loop.py").write_text(section.split("```python\n")[1].split("```")[0])
    status, out = conform(tmp_path, monkeypatch, capsys, None, cases=12,
                          command=f"{shlex.quote(sys.executable)} readme_loop.py {{data}}")
    assert status == 0 and out.splitlines()[0].endswith("agrees on every case"), out


@pytest.mark.slow
def test_conform_with_multiclass_adds_ties_between_classes_and_reads_a_one_vs_rest_convention(tmp_path, monkeypatch,
                                                                                                capsys):
    command = f"{shlex.quote(sys.executable)} {shlex.quote(P.__file__)} {{data}} --multiclass --zero=-1 --json " \
              "> {out}"
    status, out = conform(tmp_path, monkeypatch, capsys, None, "--multiclass", cases=12, command=command)
    assert status == 1 and "THEIRS, on every case: a convention, not a bug." in out and "\n  - --zero=-1: " in out
    assert "(12 designed, 0 random, seed 1)" in out, out
    args = P._arguments(["--multiclass", "--conform", "x {data}"])
    assert [name for name, _ in P._conform_cases(args, 1, 12)][9:] == [
        "ties between classes", "classes", "classes that are not separable"]
    assert all(len({row[-1] for row in rows}) > 1 for _, rows in P._conform_cases(args, 1, 60))
