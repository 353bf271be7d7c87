"""Tests of perceptron.py, each named after the claim of the notes it checks.

Comparisons are exact (==) and types are checked with ``type(...) is``; data
comes from seeded generators, so every run tests the same cases.
"""

import collections.abc
import copy
import decimal
import io
import numbers
import re
import struct
import random
import sys
import tracemalloc
from decimal import Decimal, localcontext
from fractions import Fraction
from operator import mul

import pytest

import perceptron as P
from perceptron import (DualPerceptron, Mistake, MulticlassPerceptron, Perceptron,
                        PerceptronError, dot, is_mistake, margin_squared, mistake_bound,
                        radius_squared, sign, train, with_bias)

RULES = ["sign", "margin"]


# ---------------------------------------------------------------------------
# Seeded data and a tiny independent reference
# ---------------------------------------------------------------------------

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


XOR = [([0, 0], -1), ([0, 1], 1), ([1, 0], 1), ([1, 1], -1)]


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


def test_dot_of_vectors_of_different_lengths_raises():
    with pytest.raises(PerceptronError, match="lengths 2 and 3"):
        dot([1, 2], [1, 2, 3])


def test_decimal_uses_the_callers_context_left_to_right():
    a = [Decimal("1.00001"), Decimal("2.00001"), Decimal("-3")]
    with localcontext() as ctx:
        ctx.prec = 3
        expected = (Decimal(0) + a[0]) + a[1]
        expected = expected + a[2]
        assert dot(a, [1, 1, 1]) == expected


# ---------------------------------------------------------------------------
# Columbia §1.1 and the Perceptron Algorithm notes: the update
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


def test_is_mistake_refuses_a_score_that_is_not_a_finite_real():
    for score in (float("nan"), float("inf"), 1j):
        with pytest.raises(PerceptronError, match="not a finite real number"):
            is_mistake(1, score)


def test_w_star_that_does_not_separate_names_the_first_example():
    with pytest.raises(PerceptronError, match="example 1: w_star does not strictly separate") as err:
        margin_squared([([1, 0], 1), ([0, 1], 1), ([0, 2], -1)], [1, 0])
    assert err.value.index == 1


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
# train: every mode gives learn()'s trace
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


def test_a_run_of_no_examples_converges_at_once():
    run = train([])
    assert (run.w, run.mistakes, run.epochs, run.converged, run.trace) == ([], 0, 1, True, [])


def test_trace_false_keeps_none():
    examples, _ = separable(4, n=20)
    run = train(examples, trace=False)
    assert run.trace is None and run.w == train(examples).w


def test_a_million_streamed_examples_in_one_pass():
    def stream():
        rng = random.Random(5)
        for _ in range(10 ** 6):
            x = [rng.randint(-3, 3), rng.randint(-3, 3)]
            yield x, 1 if 2 * x[0] - x[1] >= 0 else -1
    run = train(stream(), epochs=1, trace=False)
    assert run.epochs == 1 and run.trace is None and run.mistakes > 0
    assert run.w[0] > 0 > run.w[1]


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
# Pocket and multiclass (Kalyanakrishnan §4)
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


def state(model):
    """What a learner holds, comparable after a deep copy."""
    if isinstance(model, MulticlassPerceptron):
        return copy.deepcopy((model.w, model.mistakes))
    return copy.deepcopy(vars(model))


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
# Bad input: a clear PerceptronError, naming the example; the model unchanged
# ---------------------------------------------------------------------------

BAD = [  # (x, y, the message, word for word)
    ([float("nan"), 1], 1, "x[0] is nan; features must be finite"),
    ([1, float("inf")], 1, "x[1] is inf; features must be finite"),
    ([1, Decimal("Infinity")], 1, "x[1] is Decimal('Infinity'); features must be finite"),
    ([1, "abc"], 1, "x[1] is 'abc' (str), not a real number"),
    ([None, 1], 1, "x[0] is None (NoneType), not a real number"),
    ([1, 2j], 1, "x[1] is 2j (complex), not a real number"),
    ([1, 2, 3], 1, "x has length 3, expected 2"),
    ([1], 1, "x has length 1, expected 2"),
    (5, 1, "x is int, not a sequence of numbers"),
    ([1, 2], 0, "label 0 is not -1 or +1"),
    ([1, 2], 2, "label 2 is not -1 or +1"),
    ([1, 2], "1", "label '1' is not -1 or +1"),
    ([1, 2], None, "label None is not -1 or +1"),
    ([1, 2], True, "label True is a bool; labels are -1 or +1 (map 0/1 labels first)"),
    ([1, 2], False, "label False is a bool; labels are -1 or +1 (map 0/1 labels first)"),
    ([1, 2], [1], "label [1] is not -1 or +1"),
]


@pytest.mark.parametrize("x, y, message", BAD)
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


@pytest.mark.parametrize("x, y, message", BAD)
@pytest.mark.parametrize("epochs", [1, None])
@pytest.mark.parametrize("kernel", [None, dot])
def test_a_run_meeting_a_bad_example_names_its_index(x, y, message, epochs, kernel):
    examples = [([1, 1], -1), ([2, -1], 1), ([0, 3], 1), (x, y), ([1, 0], 1)]
    with pytest.raises(PerceptronError) as err:
        train(examples, epochs=epochs, kernel=kernel)
    assert str(err.value) == "example 3: " + message
    assert (err.value.index, err.value.reason) == (3, message)
    if kernel is None and epochs == 1:  # also through a generator, and with the bias
        with pytest.raises(PerceptronError, match="^example 3: "):
            train(iter(examples), epochs=1, bias=True)


def test_bad_examples_are_perceptron_errors_which_are_value_errors():
    assert issubclass(PerceptronError, ValueError)


def test_an_item_that_is_not_a_pair_is_named():
    with pytest.raises(PerceptronError, match=r"^example 1: \(1, 2, 3\) is not an \(x, y\) pair"):
        train([([1], 1), (1, 2, 3)])


def test_floats_and_decimals_mixed_are_refused_clearly():
    p = Perceptron(2)
    p.learn([0.5, 1.5], -1)
    with pytest.raises(PerceptronError, match="the inner product cannot be computed: .*'float' and 'decimal"):
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


@pytest.mark.parametrize("rule", ["Sign", "", None, "perceptron"])
def test_unknown_rule_raises(rule):
    with pytest.raises(PerceptronError, match="unknown rule"):
        train([([1], 1)], rule=rule)
    with pytest.raises(PerceptronError, match="unknown rule"):
        Perceptron(1, rule=rule)


@pytest.mark.parametrize("options, message", [
    ({"max_epochs": 0}, "max_epochs = 0 is not a whole number >= 1"),
    ({"max_epochs": 2.5}, "max_epochs = 2.5"),
    ({"max_epochs": None}, "needs a bound"),
    ({"epochs": 0}, "epochs = 0"),
    ({"epochs": True}, "epochs = True"),
    ({"kernel": 3}, "kernel 3 is not callable"),
])
def test_bad_run_options_raise(options, message):
    with pytest.raises(PerceptronError, match=message):
        train([([1], 1)], **options)


def test_bound_quantities_refuse_bad_input():
    with pytest.raises(PerceptronError, match="R\\^2 of no examples"):
        radius_squared([])
    with pytest.raises(PerceptronError, match="margin of no examples"):
        margin_squared([], [1])
    with pytest.raises(PerceptronError, match="w_star has length 3, expected 2"):
        mistake_bound([([1, 2], 1)], [1, 2, 3])
    with pytest.raises(PerceptronError, match="example 0: x\\[1\\] is nan"):
        radius_squared([[1, float("nan")]])
    with pytest.raises(PerceptronError, match="w_star\\[0\\] is 'a'"):
        margin_squared([([1, 2], 1)], ["a", 1])


def test_multiclass_runs_name_bad_examples():
    with pytest.raises(PerceptronError, match=r"^example 1: label \[1\] cannot be a class"):
        P.train_multiclass([([1], "a"), ([2], [1])])
    with pytest.raises(PerceptronError, match="^example 2: x has length 1, expected 2"):
        P.train_multiclass([([1, 0], "a"), ([0, 1], "b"), ([1], "a")], bias=True)
    with pytest.raises(PerceptronError, match=r"^example 1: x\[0\] is 'z'"):
        P.train_multiclass([([1], "a"), (["z"], "b")])


def test_bad_dimensions_and_classes_raise():
    for d in (-1, 1.5, True, "2"):
        with pytest.raises(PerceptronError, match="is not a whole number"):
            Perceptron(d)
    with pytest.raises(PerceptronError, match="two or more distinct"):
        MulticlassPerceptron(["a", "a"], 2)
    m = MulticlassPerceptron(["a", "b"], 1)
    with pytest.raises(PerceptronError, match="not one of the classes"):
        m.learn([1], "c")
    assert m.mistakes == 0 and m.w == {"a": [0], "b": [0]}


# ---------------------------------------------------------------------------
# The module as a vendorable file, and its main job
# ---------------------------------------------------------------------------

def test_main_runs_the_embedded_example(capsys):
    assert P.main([]) == 0
    out = capsys.readouterr().out
    run = train(P.EXAMPLE)
    assert "rule:   sign: a mistake iff sign(w.x) != y, sign(0) = +1 (Columbia §1.1)" in out
    assert f"mistakes: {run.mistakes}\nepochs: {run.epochs}, converged" in out
    assert "w  -6   3" in out and run.w == [-6, 3]
    assert "gamma^2 = 9/5 for w* = (-2, 1): 5 mistakes, at most R^2/gamma^2 = 10" in out
    assert run.mistakes <= mistake_bound(P.EXAMPLE, P.W_STAR) == 10
    rows = [line.split() for line in out.splitlines() if line.startswith("    ")]
    assert [(int(r[0]), int(r[1])) for r in rows] == [(m.epoch, m.index) for m in run.trace]


def test_all_is_sorted_and_complete():
    assert P.__all__ == sorted(P.__all__)
    assert all(hasattr(P, name) for name in P.__all__)


def test_perceptron_imports_only_the_standard_library_and_kernels_only_inside_kernel():
    import ast
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


def test_importing_perceptron_imports_no_kernels():
    done = subprocess.run([sys.executable, "-c", "import sys, perceptron; print('kernels' in sys.modules)"],
                          capture_output=True, text=True, cwd=HERE)
    assert done.stdout == "False\n"


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "perceptron.py")


def cli(capsys, *argv):
    """main(argv): (exit status, standard output, standard error)."""
    status = P.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def cli_json(capsys, *argv):
    status, out, err = cli(capsys, *argv, "--json")
    assert err == ""
    return status, json.loads(out)


def write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def exact(v):
    """A JSON number back to the API's value: strings are Fractions "p/q"."""
    return Fraction(v) if isinstance(v, str) else v


EMBEDDED_CSV = "x1,x2,y\n" + "".join(f"{x[0]},{x[1]},{y}\n" for x, y in P.EXAMPLE)


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


def test_cli_fraction_without_exact_is_refused(capsys, tmp_path):
    status, out, err = cli(capsys, write(tmp_path, "1/3,1\n"))
    assert status == 2 and err == "error: " + str(tmp_path / "data.csv") + ":1: column 1: '1/3' is a fraction p/q: use --exact\n"


def test_cli_labels_zero_one_give_the_weights_of_minus_one_one(capsys, tmp_path):
    plus_minus = write(tmp_path, "x,y\n1,2,1\n-2,1,-1\n0,-3,-1\n2,2,1\n".replace("x,y", "a,b,y"), "pm.csv")
    zero_one = write(tmp_path, "a,b,y\n1,2,1\n-2,1,0\n0,-3,0\n2,2,1\n", "zo.csv")
    _, a = cli_json(capsys, plus_minus)
    _, b = cli_json(capsys, zero_one, "--labels=0,1")
    assert a["weights"] == b["weights"] and a["mistakes"] == b["mistakes"]
    assert b["labels"] == [0, 1] and {m["y"] for m in b["trace"]} <= {0, 1}
    assert [m["y"] for m in a["trace"]] == [2 * m["y"] - 1 for m in b["trace"]]


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


def test_cli_reads_standard_input(tmp_path):
    done = subprocess.run([sys.executable, SCRIPT, "-", "--json"], input=EMBEDDED_CSV,
                          capture_output=True, text=True, check=True)
    doc = json.loads(done.stdout)
    assert doc["input"] == "<stdin>" and doc["weights"] == [-6, 3]


def test_cli_epochs_one_is_one_online_pass(capsys, tmp_path):
    status, doc = cli_json(capsys, write(tmp_path, EMBEDDED_CSV), "--epochs", "1")
    assert status == 0 and doc["epochs"] == 1 and doc["converged"] is False
    assert doc["trace"] == [{"epoch": 1, "index": m.index, "line": m.index + 2, "y": m.y, "score": m.score}
                            for m in train(P.EXAMPLE, epochs=1).trace]


def test_cli_exits_1_when_passes_until_convergence_stop_at_max_epochs(capsys, tmp_path):
    path = write(tmp_path, "0,0,-1\n0,1,1\n1,0,1\n1,1,-1\n")
    status, out, _ = cli(capsys, path, "--bias", "--max-epochs", "9")
    assert status == 1 and "epochs: 9, not converged: stopped at --max-epochs 9" in out
    assert cli(capsys, path, "--bias", "--epochs", "9")[0] == 0  # the passes asked for were made


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


def test_cli_weights_after_each_mistake_only_for_small_d_or_when_asked(capsys, tmp_path):
    examples, _ = separable(5, n=15, d=9)
    path = write(tmp_path, "".join(",".join(map(str, x)) + f",{y}\n" for x, y in examples))
    _, out, _ = cli(capsys, path)
    assert "w after" not in out.splitlines()[5]
    _, out, _ = cli(capsys, path, "--weights")
    assert "w after" in out.splitlines()[5]
    run = train(examples)
    last = out.splitlines()[5 + run.mistakes]
    assert last.endswith(P._vec(run.w))


def test_cli_quiet_prints_only_the_summary(capsys):
    _, out, _ = cli(capsys, "--quiet")
    assert out.splitlines()[0] == "   x1  x2" and "epoch  index" not in out and "mistakes: 5" in out


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


def test_cli_json_is_byte_identical_under_any_hash_seed(tmp_path):
    path = write(tmp_path, "a,b,class\n1,0,cat\n0,1,dog\n-1,-1,eel\n")
    outputs = set()
    for seed in ("0", "1", "12345", "random"):
        for argv in (["--json"], [path, "--json", "--multiclass"], ["--json", "--pocket", "--bias"]):
            env = dict(os.environ, PYTHONHASHSEED=seed)
            done = subprocess.run([sys.executable, SCRIPT, *argv], capture_output=True, env=env, check=True)
            outputs.add((tuple(argv), done.stdout))
    assert len(outputs) == 3


@pytest.mark.parametrize("text, argv, message", [
    ("a,b,y\n1,abc,1\n", [], "data.csv:2: column 2: 'abc' is not a number"),
    ("1,2,1\n1,2\n", [], "data.csv:2: the row has 2 columns, the first has 3"),
    ("1,nan,1\n", [], "data.csv:1: column 2: 'nan' is not finite: NaN and infinity are not features"),
    ("1,-inf,1\n", [], "data.csv:1: column 2: '-inf' is not finite: NaN and infinity are not features"),
    ("1,1e999,1\n", [], "data.csv:1: column 2: '1e999' is too large for a float (use --exact)"),
    ("1,2,3\n", [], "data.csv:1: column 3: label '3' is not -1 or 1"),
    ("1,2,-1\n", ["--labels=0,1"], "data.csv:1: column 3: label '-1' is not 0 or 1"),
    ("1,2,1\n", ["--label-column", "3"], "data.csv: --label-column 3 is out of range for 3 columns"),
    ("", [], "data.csv: no examples: the file is empty"),
    ("a,b,y\n\n", [], "data.csv: a header but no examples"),
    ("1,2,1\n", ["--epochs", "0"], "argument --epochs: '0' is not a whole number >= 1 (see --help)"),
    ("1,2,1\n", ["--rule", "hinge"], "argument --rule: invalid choice: 'hinge' (choose from 'margin', 'sign') (see --help)"),
    ("1,2,1\n", ["--multiclass", "--kernel", "linear"], "--kernel does not apply to --multiclass"),
    ("1,2,1\n", ["--w-star=1,x"], "--w-star: 'x' is not a number"),
])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, text, argv, message):
    path = write(tmp_path, text)
    done = subprocess.run([sys.executable, SCRIPT, path, *argv], capture_output=True, text=True, cwd=tmp_path)
    expected = message.replace("data.csv", path) if message.startswith("data.csv") else message
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    if "invalid choice" not in message:
        assert done.stderr == f"error: {expected}\n"


def test_cli_unreadable_file_is_one_line(tmp_path):
    done = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "missing.csv")], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"error: {tmp_path / 'missing.csv'}: cannot read: No such file or directory\n"
    (tmp_path / "bin.csv").write_bytes(b"\xff\xfe1,2\n")
    done = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "bin.csv")], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == (f"error: {tmp_path / 'bin.csv'}:1: not UTF-8 text "
                                                    "(invalid start byte at byte 1 of the line)\n")


def test_cli_a_closed_pipe_is_not_a_traceback():
    done = subprocess.run(f"{sys.executable} {SCRIPT} --weights | head -n 1", shell=True,
                          capture_output=True, text=True)
    assert done.stderr == "" and done.stdout.startswith("perceptron ")


def test_readme_command_line_example_is_the_real_output(tmp_path):
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    block = readme.split("```console\n", 1)[1].split("```", 1)[0].splitlines()
    printf, command = block[0][2:], block[1][2:]
    subprocess.run(printf, shell=True, cwd=tmp_path, check=True)
    argv = command.split()[2:]  # after "python3 perceptron.py"
    done = subprocess.run([sys.executable, SCRIPT, *argv], cwd=tmp_path, capture_output=True, text=True)
    assert done.stdout.splitlines() == block[2:]


# ---------------------------------------------------------------------------
# The picture (--svg): Kalyanakrishnan's "tilting" hyperplane, Columbia's v and w
# ---------------------------------------------------------------------------

import xml.etree.ElementTree as ET  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def svg_groups(text, cls):
    root = ET.fromstring(text)
    return [g for g in root.iter(SVG + "g") if g.get("class") == cls]


def point(text):
    return [Fraction(v) for v in text.split(",")]


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("rule", RULES)
def test_svg_draws_one_hyperplane_per_mistake_and_the_final_one(bias, rule):
    for seed in range(8):
        examples, _ = noisy(seed, n=20, d=2, flip=0.1)
        run = train(examples, rule=rule, bias=bias, max_epochs=6)
        picture = P.svg(run, examples)
        earlier = svg_groups(picture, "hypothesis")
        first = max(1, run.mistakes - 39)  # the last 40 at most
        assert [int(g.get("data-mistake")) for g in earlier] == list(range(first, run.mistakes + 1))
        data = [(with_bias(x) if bias else x) for x, _ in examples]
        replayed = list(replay(data, run.trace))
        assert [point(g.get("data-w")) for g in earlier] == replayed[first - 1:]
        [final] = svg_groups(picture, "hypothesis final")
        assert point(final.get("data-w")) == run.w


@pytest.mark.parametrize("bias", [False, True])
def test_svg_final_line_lies_exactly_on_w_and_is_perpendicular_to_it(bias):
    for seed in range(10):
        examples, _ = noisy(seed, n=15, d=2, flip=0.0)
        run = train(examples, bias=bias)
        [final] = svg_groups(P.svg(run, examples), "hypothesis final")
        line = final.find(SVG + "line")
        if not any(run.w[:2]):
            assert line is None
            continue
        a, b = point(line.get("data-from")), point(line.get("data-to"))
        w = run.w + ([] if bias else [0])
        for X, Y in (a, b):
            assert w[0] * X + w[1] * Y + w[2] == 0
        assert w[0] * (b[0] - a[0]) + w[1] * (b[1] - a[1]) == 0 and a != b


def test_svg_marks_every_example_and_rings_exactly_the_mistakes():
    examples, _ = noisy(4, n=25, d=2, flip=0.2)
    run = train(examples, max_epochs=4)
    picture = P.svg(run, examples)
    marks = svg_groups(picture, "example")
    assert [(int(g.get("data-index")), int(g.get("data-y"))) for g in marks] == [(i, y) for i, (_, y) in enumerate(examples)]
    assert all((g.find(SVG + "path") is not None) == (y == 1) for g, (_, y) in zip(marks, examples))  # + or o
    rings = [c for c in ET.fromstring(picture).iter(SVG + "circle") if c.get("class") == "ring"]
    assert sorted(int(c.get("data-index")) for c in rings) == sorted({m.index for m in run.trace})
    assert "4 epochs" in picture and "rule: sign · bias: no" in picture


def test_svg_draws_the_target_only_when_asked():
    examples, w_star = separable(6, n=12, d=2)
    run = train(examples)
    assert svg_groups(P.svg(run, examples), "target") == []
    with_target = P.svg(run, examples, w_star=w_star)
    [target] = svg_groups(with_target, "target")
    assert point(target.get("data-w")) == w_star and len(svg_groups(with_target, "v-vector")) == 1


def test_svg_steps_draw_the_run_as_it_stood_after_each_mistake(tmp_path, capsys):
    status = P.main(["--svg-steps", str(tmp_path / "steps"), "--quiet"])
    assert status == 0 and f"pictures: 5 in {tmp_path / 'steps'}, one per mistake" in capsys.readouterr().out
    files = sorted(os.listdir(tmp_path / "steps"))
    run = train(P.EXAMPLE)
    assert files == [f"step-{k}.svg" for k in range(1, run.mistakes + 1)]
    for k, name in enumerate(files, 1):
        text = (tmp_path / "steps" / name).read_text(encoding="utf-8")
        assert len(svg_groups(text, "hypothesis")) == k
        assert point(svg_groups(text, "hypothesis final")[0].get("data-w")) == list(replay(
            [x for x, _ in P.EXAMPLE], run.trace))[k - 1]


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
        subprocess.run([sys.executable, SCRIPT, "--svg", str(out), "--quiet"], check=True, env=env,
                       capture_output=True)
        outputs.add(out.read_bytes())
    assert len(outputs) == 1


def test_svg_refuses_three_features_and_kernel_runs(tmp_path, capsys):
    path = write(tmp_path, "1,2,3,1\n-1,0,2,-1\n")
    status, out, err = cli(capsys, path, "--svg", str(tmp_path / "x.svg"))
    assert (status, out) == (2, "") and err == "error: svg draws examples with 2 features; these have 3\n"
    assert not (tmp_path / "x.svg").exists()
    with pytest.raises(PerceptronError, match="svg draws a binary run with explicit weights"):
        P.svg(train(XOR, kernel=lambda a, b: 1 + dot(a, b), max_epochs=20), XOR)


def test_readme_picture_is_what_its_command_draws(tmp_path):
    out = tmp_path / "perceptron.svg"
    assert P.main(["--svg", str(out), "--quiet"]) == 0
    committed = open(os.path.join(HERE, "perceptron.svg"), encoding="utf-8").read()
    assert out.read_text(encoding="utf-8") == committed
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    assert "python3 perceptron.py --svg perceptron.svg" in readme
    assert readme.index("![") < readme.index("## Reading it beside the notes")  # the example and its picture, early


# ---------------------------------------------------------------------------
# Seeded fuzzing: no bad input escapes as anything but a PerceptronError
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


def test_random_csv_files_never_show_a_traceback(tmp_path):
    import contextlib
    import io

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


# ---------------------------------------------------------------------------
# One implementation of each rule; numbers taken by value at the boundary
# ---------------------------------------------------------------------------

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

    def __repr__(self):
        return repr(self.v)


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


class Liar(collections.abc.Sequence):
    """A sequence whose len() says 3 but which holds 2 numbers."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i >= 2:
            raise IndexError(i)
        return 1


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


@pytest.mark.parametrize("label", [bool_(True), bool_(False)])
def test_numpy_bool_labels_are_refused_as_bools_are(label):
    with pytest.raises(PerceptronError, match=f"^example 0: label {label!r} is a bool"):
        train([([1, 2], label)])


# ---------------------------------------------------------------------------
# Every input from outside: nothing hangs, nothing is silently wrong, nothing
# is left half done.  Each command-line case runs in a subprocess with a
# timeout, and must end in one "error:" line, exit 2, no traceback, and no
# file left behind (or, where the input is good, in a whole report).
# ---------------------------------------------------------------------------

FOUR = "1,2,1\n-1,-2,-1\n3,1,1\n2,2,1\n"

CLI_REFUSED = [  # (class, name, the file's bytes, argv, what stderr says after "error: ")
    ("bomb", "an exact exponent that would build 10**e",
     b"1e999999999,1,1\n", ["--exact"], "data.csv:1: column 1: '1e999999999': an exponent beyond 4300"),
    ("bomb", "a label of 4,000 digits, cut in the message", b"1,1," + b"9" * 4000 + b"\n", [],
     "data.csv:1: column 3: label '99999999999999999999999999999999999999999999999999999999..." + " is not -1 or 1"),
    ("bomb", "a label's exponent (labels are always read exactly)",
     b"1,1,1e999999999\n", [], "data.csv:1: column 3: label '1e999999999' is not -1 or 1"),
    ("bomb", "a cell of 4,301 digits", b"-" + b"1" * 4301 + b",1\n", [],
     "data.csv:1: column 1: '-1111111111111111111... has 4301 digits: a number here has at most 4300"),
    ("bomb", "a line longer than 1 MiB", b"1," * (1 << 19) + b"1\n", [],
     "data.csv:1: the line is longer than 1048576 bytes"),
    ("encoding", "invalid UTF-8 on line 3", b"1,2,1\n-1,-2,-1\n\xff,1,1\n", [],
     "data.csv:3: not UTF-8 text (invalid start byte at byte 1 of the line)"),
    ("encoding", "a NUL byte", b"1,2,1\n1,\x00,1\n", [],
     "data.csv:2: the line holds a NUL byte, which no CSV text does"),
    ("edge", "R^2 beyond floats", b"1e200,0,1\n-1e200,0,-1\n", ["--w-star=1,0", "--epochs", "1"],
     "data.csv: R^2 is inf: the sum overflowed"),
    ("edge", "a w.x beyond floats", b"1e308,1e308,-1\n1,1,1\n", ["--rule", "margin", "--epochs", "1"],
     "data.csv:2: w.x is -inf: the sum overflowed"),
    ("usage", "--svg with no value", FOUR.encode(), ["--svg="], "--svg needs a value (see --help)"),
    ("usage", "--w-star with no value", FOUR.encode(), ["--w-star="], "--w-star needs a value (see --help)"),
    ("usage", "--kernel with no value", FOUR.encode(), ["--kernel="], "--kernel needs a value (see --help)"),
    ("usage", "--labels with --multiclass", FOUR.encode(), ["--multiclass", "--labels=0,1"],
     "--labels does not apply to --multiclass"),
    ("usage", "--rule with --multiclass joint", FOUR.encode(), ["--multiclass", "joint", "--rule", "margin"],
     "--rule does not apply to --multiclass joint: an argmax has no zero-score question"),
    ("usage", "--average with --kernel", FOUR.encode(), ["--kernel", "linear", "--average", "after"],
     "--average does not apply to --kernel"),
    ("usage", "--max-epochs with --epochs", FOUR.encode(), ["--epochs", "2", "--max-epochs", "9"],
     "--max-epochs does not apply to --epochs"),
    ("usage", "--quiet with --json", FOUR.encode(), ["--json", "--quiet"], "--quiet does not apply to --json"),
    ("usage", "--weights with --quiet", FOUR.encode(), ["--quiet", "--weights"], "--weights does not apply to --quiet"),
    ("usage", "a label column written in other digits", FOUR.encode(), ["--label-column", "\u0661"],
     "argument --label-column: '\u0661' is not a whole number (see --help)"),
    ("usage", "a kernel parameter with an underscore", FOUR.encode(), ["--kernel", "gaussian:1_0"],
     "bad kernel parameter in 'gaussian:1_0': '1_0' is not a finite number"),
    ("usage", "a kernel parameter in other digits", FOUR.encode(), ["--kernel", "gaussian:\u0661"],
     "bad kernel parameter in 'gaussian:\u0661': '\u0661' is not a finite number"),
    ("usage", "a sigma whose 2 sigma^2 underflows", FOUR.encode(), ["--kernel", "gaussian:1e-200"],
     "bad kernel parameter in 'gaussian:1e-200': sigma = 1e-200: 2 sigma^2 is 0.0 as a float"),
    ("write", "--svg into a folder that does not exist", FOUR.encode(), ["--svg", "missing/run.svg"],
     "missing/run.svg: cannot write: No such file or directory"),
    ("write", "--svg-steps where a file stands", FOUR.encode(), ["--svg-steps", "data.csv"],
     "data.csv: cannot make the folder: File exists"),
    ("write", "--svg of three features", b"1,2,3,1\n-1,-2,-3,-1\n", ["--svg", "run.svg", "--svg-steps", "steps"],
     "svg draws examples with 2 features; these have 3"),
]


def run_cli(tmp_path, data, argv, **options):
    """perceptron.py in a subprocess in tmp_path on data.csv: (status, stdout, stderr, files left)."""
    (tmp_path / "data.csv").write_bytes(data)
    done = subprocess.run([sys.executable, SCRIPT, "data.csv", *argv], capture_output=True, cwd=tmp_path,
                          timeout=30, **options)
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "backslashreplace"), sorted(
        p.name for p in tmp_path.iterdir())


@pytest.mark.parametrize("kind, name, data, argv, message", CLI_REFUSED, ids=[c[1] for c in CLI_REFUSED])
def test_cli_refuses_in_one_line_and_leaves_nothing(tmp_path, kind, name, data, argv, message):
    status, out, err, files = run_cli(tmp_path, data, argv)
    assert (status, out, files) == (2, b"", ["data.csv"])
    assert err.startswith("error: " + message) and err.count("\n") == 1 and "Traceback" not in err


def test_cli_reads_dev_zero_as_one_line_too_long(tmp_path):
    done = subprocess.run([sys.executable, SCRIPT, "/dev/zero"], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (2, "error: /dev/zero:1: the line is longer than 1048576 bytes\n")


def test_cli_a_full_disk_is_one_error_line(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, SCRIPT], stdout=full, stderr=subprocess.PIPE, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (2, "error: cannot write the report: No space left on device\n")


def test_cli_closed_standard_input_is_one_error_line():
    done = subprocess.run(f"{sys.executable} {SCRIPT} - <&-", shell=True, capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stderr) == (2, "error: <stdin>: cannot read: standard input is closed\n")


def test_cli_an_ascii_only_output_gets_ascii_forms(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    status, out, err, _ = run_cli(tmp_path, "é,b,y\n1,2,1\n".encode(), [], env=env)
    assert (status, err) == (0, "") and "(Columbia sec. 1.1)" in out.decode("ascii") and "\\xe9" in out.decode()
    status, out, err, _ = run_cli(tmp_path, "é,b,y\n1,2,1\n".encode(), ["--json"], env=env)
    assert status == 0 and json.loads(out.decode("ascii"))["features"] == ["é", "b"]


def test_cli_a_file_name_that_is_not_utf8_is_named_not_a_traceback(tmp_path):
    name = b"d\xff.csv"
    with open(os.path.join(os.fsencode(tmp_path), name), "wb") as f:
        f.write(b"1,x,1\n")
    done = subprocess.run([sys.executable, SCRIPT, name, "--no-header"], capture_output=True, cwd=tmp_path,
                          timeout=30)
    assert done.returncode == 2 and done.stderr == b"error: d\\udcff.csv:1: column 2: 'x' is not a number\n"
    done = subprocess.run([sys.executable, SCRIPT, name, "--no-header", "--json"], capture_output=True,
                          cwd=tmp_path, timeout=30, input=None)
    assert b"Traceback" not in done.stderr


def test_cli_a_byte_order_mark_is_a_mark_not_data(tmp_path, capsys):
    plain = cli_json(capsys, write(tmp_path, FOUR, "plain.csv"))[1]
    (tmp_path / "bom.csv").write_bytes(b"\xef\xbb\xbf" + FOUR.encode())
    marked = cli_json(capsys, str(tmp_path / "bom.csv"))[1]
    assert marked["examples"] == 4 and (marked["weights"], marked["trace"]) == (plain["weights"], plain["trace"])
    (tmp_path / "head.csv").write_bytes(b"\xef\xbb\xbfa,b,y\n" + FOUR.encode())
    assert cli_json(capsys, str(tmp_path / "head.csv"))[1]["features"] == ["a", "b"]


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


def test_cli_one_pass_streams_the_file_in_constant_memory(tmp_path):
    import contextlib
    import io

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


def test_a_run_whose_trace_is_not_shown_keeps_none(tmp_path):
    log: list = []
    run = train([([1], 1), ([-1], 1)], epochs=1, rule="margin", trace=log)
    assert run.trace is log and log == [Mistake(1, 0, 1, 0), Mistake(1, 1, 1, -1)]
    assert train([([1], 1), ([-1], 1)], epochs=1, rule="margin", trace=False).trace is None


# The API: every public function checks what it is given.

API_REFUSED = [
    ("train(None)", lambda: train(None), "examples is NoneType, not a sequence"),
    ("train(5)", lambda: train(5), "examples is int, not a sequence"),
    ("train('ab')", lambda: train("ab"), "examples is str, not a sequence"),
    ("dot(None, [1])", lambda: dot(None, [1]), "a is NoneType, not a sequence of numbers"),
    ("dot([1], [1, 2])", lambda: dot([1], [1, 2]), "vectors of lengths 1 and 2 have no inner product"),
    ("radius_squared(None)", lambda: radius_squared(None), "xs is NoneType, not a sequence"),
    ("sign(None)", lambda: sign(None), "sign of None: not a real number"),
    ("sign('a')", lambda: sign("a"), "sign of 'a': not a real number"),
    ("is_mistake(1, None)", lambda: is_mistake(1, None), "w.x is None: not a finite real number"),
    ("with_bias(None)", lambda: with_bias(None), "x is NoneType, not a sequence of numbers"),
    ("svg(None, [])", lambda: P.svg(None, []), "svg draws a Run of train(), not None"),
    ("svg(run, junk)", lambda: P.svg(train([([1, 2], 1)]), [(["a", 1], 1)]),
     "example 0: x[0] is 'a' (str), not a real number"),
    ("MulticlassPerceptron(5, 2)", lambda: MulticlassPerceptron(5, 2), "classes is int, not a sequence"),
    ("classes as a set", lambda: MulticlassPerceptron(frozenset("a"), 2), "classes frozenset({'a'}) have no order"),
    ("train_multiclass classes set", lambda: P.train_multiclass([([1], "a")], classes={"a"}),
     "classes {'a'} have no order"),
    ("Perceptron(2).score(None)", lambda: Perceptron(2).score(None), "x is NoneType, not a sequence of numbers"),
    ("train(trace=1)", lambda: train([([1], 1)], trace=1), "trace = 1 is not True or False"),
    ("train(pocket='yes')", lambda: train([([1], 1)], pocket="yes"), "pocket = 'yes' is not True or False"),
    ("gamma^2 that underflows", lambda: margin_squared([([1e-200], 1)], [1.0]),
     "gamma^2 is 0.0: the arithmetic of float underflows (use exact numbers)"),
    ("R^2 that overflows", lambda: radius_squared([[1e200]]), "R^2 is inf: the sum overflowed"),
    ("a huge label", lambda: train([([1], list(range(10**5)))]), "example 0: label [0, 1, 2, 3, 4, 5"),
    ("a label whose repr fails", lambda: train([([1], ReprFails())]), "example 0: label <a ReprFails> is not"),
    ("a 10**5-digit feature's message", lambda: train([([10**100000, "a"], 1)]),
     "example 0: x[1] is 'a' (str), not a real number"),
]


class ReprFails:
    def __repr__(self):
        raise RecursionError("too deep")

    __hash__ = None


@pytest.mark.parametrize("name, call, message", API_REFUSED, ids=[c[0] for c in API_REFUSED])
def test_every_public_function_refuses_with_the_modules_error(name, call, message):
    with pytest.raises(PerceptronError) as err:
        call()
    assert str(err.value).startswith(message) and len(str(err.value)) < 200


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
        status, out, err, files = run_cli(folder, data, argv)
        assert "Traceback" not in err and status in (0, 1, 2)
        if status == 2:
            assert err.startswith("error: ") and err.count("\n") == 1 and out == b"" and files == ["data.csv"]


# ---------------------------------------------------------------------------
# Beyond the notes, for data that is not separable: multiclass one-vs-rest and
# joint, the pocket (Gallant), averaged and voted perceptrons (Freund and
# Schapire; Collins) -- each against a literal reference written here.
# ---------------------------------------------------------------------------

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
    run = P.train_multiclass(examples, ["a", "b", "c"], update="joint", max_epochs=5)
    w, trace = joint_reference(examples, ["a", "b", "c"], 5)
    assert run.w == w and [tuple(m) for m in run.trace] == trace and run.rule == "argmax"
    with pytest.raises(PerceptronError, match="does not apply to the joint update"):
        P.train_multiclass(examples, update="joint", rule="margin")


def test_the_joint_pocket_counts_the_argmax_errors():
    examples = three_classes(43)
    run = P.train_multiclass(examples, ["a", "b", "c"], update="joint", max_epochs=5, pocket=True)
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


def test_run_errors_counts_the_predictors_mistakes_side_by_side():
    examples, _ = noisy(51, n=30, d=3)
    run = train(examples, bias=True, max_epochs=5, pocket=True, average="before", voted=True)
    for weights in ("w", "pocket", "average", "voted"):
        assert run.errors(examples, weights) == sum(1 for x, y in examples if run.predict(x, weights) != y)
    assert run.errors(examples, "pocket") == run.pocket.errors  # the sign rule's errors are the predictor's
    multi = P.train_multiclass(three_classes(52), max_epochs=3)
    assert multi.errors(three_classes(52)) == sum(1 for x, y in three_classes(52) if multi.predict(x) != y)


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


# ---------------------------------------------------------------------------
# Real CSV files: label names, pandas' index column, other separators
# ---------------------------------------------------------------------------

def test_cli_labels_by_name_give_the_run_of_minus_one_and_one(capsys, tmp_path):
    examples, _ = noisy(60, n=20, d=2)
    named = write(tmp_path, "a,b,diagnosis\n" + "".join(f"{x[0]},{x[1]},{'M' if y == 1 else 'B'}\n"
                                                        for x, y in examples), "bm.csv")
    status, doc = cli_json(capsys, named, "--labels=B,M", "--max-epochs", "5")
    run = train(examples, max_epochs=5)
    assert doc["weights"] == run.w and doc["labels"] == ["B", "M"]
    assert [(m["index"], m["y"]) for m in doc["trace"]] == [(m.index, "M" if m.y == 1 else "B") for m in run.trace]
    status, _, err = cli(capsys, named)
    assert status == 2 and re.fullmatch(f"error: {re.escape(named)}:2: column 3: label '[BM]' is not -1 or 1\n", err)


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


def test_cli_text_trace_is_bounded_and_a_stop_at_the_bound_says_what_to_try(capsys, tmp_path):
    examples, _ = noisy(61, n=40, d=2, flip=0.4)
    path = write(tmp_path, "".join(f"{x[0]},{x[1]},{y}\n" for x, y in examples))
    run = train(examples, max_epochs=6)
    status, out, _ = cli(capsys, path, "--max-epochs", "6")
    rows = [line for line in out.splitlines() if line.startswith("    ")]
    assert status == 1 and run.mistakes > 25 and len(rows) == 25
    assert f"... {run.mistakes - 25:,} more mistakes ('--trace all' shows them)" in out
    assert f"training errors: w {run.errors(examples)} (of 40)" in out and "--pocket keeps the weights" in out
    _, out, _ = cli(capsys, path, "--max-epochs", "6", "--trace", "all")
    assert len([line for line in out.splitlines() if line.startswith("    ")]) == run.mistakes
    assert len(cli_json(capsys, path, "--max-epochs", "6")[1]["trace"]) == run.mistakes


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
    assert doc["test"] == {"examples": 30, "errors": expected, "predictions": predictions}
    (tmp_path / "run.json").write_text(json.dumps(doc))
    status, applied = cli_json(capsys, test_path, "--model", str(tmp_path / "run.json"))
    assert status == 0 and applied["test"] == doc["test"]


@pytest.mark.parametrize("text, message", [
    ('{"a": 1}', "'a': not a field of the JSON of a run written by --json; the fields are"),
    ('{"perceptron": "0.2.0"}', "bias: missing"),
    ("not json", "not the JSON of a run written by --json: "),
    ('{"perceptron": "0.2.0", "weights": null, "kernel": "polynomial(2, c=1)", "bias": false, "rule": "sign"}',
     "kernel: a 'polynomial(2, c=1)' kernel run's JSON does not hold"),
    ('{"perceptron": "0.2.0", "weights": ["x"], "bias": false, "rule": "sign", "labels": [-1, 1]}',
     "weights[0]: 'x' is not a number"),
])
def test_cli_model_that_is_not_a_run_is_one_error_line(capsys, tmp_path, text, message):
    (tmp_path / "bad.json").write_text(text)
    status, out, err = cli(capsys, write(tmp_path, "1,2,1\n"), "--model", str(tmp_path / "bad.json"))
    assert status == 2 and out == "" and err.startswith(f"error: {tmp_path / 'bad.json'}: {message}")


def test_cli_ctrl_c_ends_a_long_run_with_130_and_the_report_so_far(tmp_path):
    import signal
    import time

    rng = random.Random(62)
    (tmp_path / "noisy.csv").write_text("".join(f"{rng.randint(-9, 9)},{rng.randint(-9, 9)},{rng.choice([1, -1])}\n"
                                                for _ in range(2000)))
    child = subprocess.Popen([sys.executable, SCRIPT, "noisy.csv", "--max-epochs", "1000000", "--json"],
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


def test_svg_of_a_long_run_draws_the_last_40_and_the_pocket_and_average_with_named_axes():
    examples, _ = noisy(64, n=60, d=2, flip=0.3)
    run = train(examples, bias=True, max_epochs=30, pocket=True, average="after")
    text = P.svg(run, examples, names=["sepal", "petal"])
    drawn = [int(g.get("data-mistake")) for g in svg_groups(text, "hypothesis")]
    assert run.mistakes > 40 and drawn == list(range(run.mistakes - 39, run.mistakes + 1))
    assert f"(the last 40 of {run.mistakes:,} drawn)" in text
    assert point(svg_groups(text, "pocket")[0].get("data-w")) == run.pocket.w
    assert point(svg_groups(text, "average")[0].get("data-w")) == run.average
    root = ET.fromstring(text)
    assert [t.text for t in root.iter(SVG + "text") if t.get("class") == "axis-name"] == ["sepal", "petal"]
    assert sum(1 for t in root.iter(SVG + "text") if t.get("class") == "tick") >= 6


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


# ---------------------------------------------------------------------------
# w after each mistake: the learner's own, kept by the command line's trace
# ---------------------------------------------------------------------------

def csv_of(examples, labels=(-1, 1)):
    rows = [",".join(map(str, x)) + f",{labels[0] if y < 0 else labels[1]}" for x, y in examples]
    return "\n".join(rows) + "\n"


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


def test_svg_refuses_examples_the_run_was_not_trained_on():
    examples = [([2, 1], 1), ([-1, -2], -1), ([1, -1], 1)]
    run = train(examples)
    with pytest.raises(PerceptronError, match="not those the run was trained on"):
        P.svg(run, [([2, 1], -1), ([-1, -2], 1), ([1, -1], -1)])


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_counts_the_mistakes(capsys, tmp_path, monkeypatch):
    import time

    clock = iter(range(0, 10**6, 7))
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    examples, _ = noisy(3, n=60, d=3, flip=0.3)
    path = write(tmp_path, csv_of(examples))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert P.main([path, "--max-epochs", "20", "--quiet"]) == 1
    assert "mistakes so far" in terminal.getvalue()


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


# Each data set starts with a positive example, so that the two rules part at w = 0.
CHECKED = [(sorted(separable(seed, n=30, d=3)[0], key=lambda e: -e[1]),) for seed in range(4)]


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("rule", RULES)
def test_check_a_faithful_implementation_agrees(capsys, tmp_path, rule, bias):
    for examples in CHECKED:
        examples = examples[0]
        theirs = their_run(examples, zero_is_mistake=rule == "margin", bias=bias)
        options = ["--rule", rule] + (["--bias"] if bias else [])
        status, out, err = check(capsys, tmp_path, examples, theirs, *options)
        assert (status, err) == (0, "") and "agrees" in out


@pytest.mark.parametrize("planted, options, said", [
    ({"zero_is_mistake": True}, [], "--rule margin: a zero score is a mistake (Cornell §3). np.sign-style code"),
    ({"rate": Fraction(1, 2)}, [], "a learning rate eta = 1/2"),
    ({"rate": 0.5}, [], "a learning rate eta = 1/2"),
    ({"bias": True, "bias_first": True}, ["--bias"], "their bias is their first weight"),
    ({"bias": True}, [], "--bias: they learn a bias"),
    ({"epoch_base": 0}, [], "their epochs count from 0"),
    ({"index_base": 1}, [], "their indexes count from 1"),
])
def test_check_names_a_convention_and_the_options(capsys, tmp_path, planted, options, said):
    examples = CHECKED[1][0]
    theirs = their_run(examples, **planted)
    if isinstance(planted.get("rate"), Fraction):
        theirs = json.loads(json.dumps(theirs, default=lambda q: f"{q.numerator}/{q.denominator}"))
    status, out, err = check(capsys, tmp_path, examples, theirs, *options)
    assert (status, err) == (1, "")
    assert "diagnosis: a convention, not a bug" in out and said in out
    assert "reproduce it: python3 perceptron.py" in out


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
    assert (status, err) == (1, "") and "--bias: they learn a bias" in out


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
    assert status == 1 and "--rule margin" in out and "--rule=margin" in out
    assert check(capsys, tmp_path, examples, {"weights": w, "trace": trace}, "--rule", "margin")[0] == 0


@pytest.mark.parametrize("planted, said", [
    ({"skip": 2}, "THEIRS skipped the update"),
    ({"by_prediction": True}, "as an update by the prediction sign(w.x)"),
    ({"stale": True}, "a stale score"),
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


def test_check_says_a_careless_form_clearly(capsys, tmp_path):
    examples = CHECKED[0][0]
    for theirs, said in [({"trace": []}, "no 'weights'"), ({"weights": [1, 2]}, "2 numbers: the data has 3 features"),
                         ({"weights": [0, 0, 0], "trace": [{"index": 0}]}, "each mistake needs an int 'epoch'"),
                         ({"weights": [0, 0, 0], "trace": [{"epoch": 1, "index": 31}]}, "out of range for 30"),
                         ({"weights": [0, "abc", 0]}, "weights[1]: 'abc' is not a number"),
                         ([1, 2, 3], "a JSON object is expected"), ({"weights": [0, 0, 0], "traces": []},
                                                                     "'traces': not a field of the JSON of a run (did you mean 'trace'?)")]:
        status, out, err = check(capsys, tmp_path, examples, theirs)
        assert (status, out) == (2, "") and said in err and err.count("\n") == 1


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


@pytest.mark.parametrize("options", [["--multiclass"], ["--multiclass", "joint"], ["--multiclass", "--pocket"],
                                     ["--multiclass", "joint", "--pocket", "--bias"]])
def test_check_our_own_json_agrees_in_both_multiclass_modes(capsys, tmp_path, options):
    path = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n")
    _, out, _ = cli(capsys, path, "--json", "--weights", "--max-epochs", "6", *options)
    (tmp_path / "ours.json").write_text(out, encoding="utf-8")
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "ours.json"), "--max-epochs", "6", *options)
    assert (status, err) == (0, "") and "agrees" in out


def test_check_multiclass_names_the_other_update(capsys, tmp_path):
    path = write(tmp_path, "x1,x2,y\n1,0,a\n0,1,b\n-1,-1,c\n1,1,a\n2,-1,c\n")
    _, out, _ = cli(capsys, path, "--json", "--weights", "--multiclass", "joint")
    (tmp_path / "theirs.json").write_text(out, encoding="utf-8")
    status, out, _ = cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--multiclass")
    assert status == 1 and "--multiclass joint: the joint update" in out


@pytest.mark.parametrize("theirs, ours, said", [("before", "after", "before each example (nltk)"),
                                                ("after", "before", "after each example (Collins 2002)")])
def test_check_an_average_taken_at_the_other_moment_is_named(capsys, tmp_path, theirs, ours, said):
    path = write(tmp_path, csv_of(noisy(6, n=25, d=3, flip=0.2)[0]))
    _, out, _ = cli(capsys, path, "--json", "--epochs", "3", "--average", theirs)
    (tmp_path / "theirs.json").write_text(out, encoding="utf-8")
    status, out, _ = cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--epochs", "3", "--average", ours)
    assert status == 1 and f"--average {theirs}: the mean of w {said}" in out


def test_check_tolerance_accepts_weights_summed_apart(capsys, tmp_path):
    examples = [([0.1, 0.2], 1), ([-0.3, 0.1], -1), ([0.2, -0.1], 1)]
    theirs = their_run(examples)
    theirs["weights"] = [v * (1 + 1e-15) for v in theirs["weights"]]
    del theirs["trace"]
    assert check(capsys, tmp_path, examples, theirs)[0] == 1
    assert check(capsys, tmp_path, examples, theirs, "--tolerance", "1e-12")[0] == 0


def test_check_reads_zero_one_labels_as_a_convention(capsys, tmp_path):
    examples = CHECKED[3][0]
    path = write(tmp_path, csv_of(examples, labels=(0, 1)))
    theirs = their_run(examples)
    (tmp_path / "theirs.json").write_text(json.dumps(theirs), encoding="utf-8")
    status, out, _ = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert status == 1 and "labels 0/1, read as -1/+1" in out and "--labels=0,1" in out
    assert cli(capsys, path, "--check", str(tmp_path / "theirs.json"), "--labels=0,1")[0] == 0


# ---------------------------------------------------------------------------
# --vectors: the conformance corpus
# ---------------------------------------------------------------------------

import hashlib  # noqa: E402
import os  # noqa: E402

# The corpus's bytes: a change of them is a change every implementation tested
# against the corpus sees, so it is made on purpose, here, with the version.
VECTORS_DIGEST = "61f690ad3a83c86c8f4b38f901f4d21d3070a73a468897f21469d230f4c5a5bd"  # 0.4.0: only the version changed


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


@pytest.mark.parametrize("stop", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_vectors_stopped_part_way_leave_no_half_corpus(capsys, tmp_path, monkeypatch, stop):
    create, calls = P._create_beside, []

    def failing(target):  # a disk that fills, or Ctrl-C, at the 7th file
        calls.append(target)
        if len(calls) == 7:
            raise stop
        return create(target)

    monkeypatch.setattr(P, "_create_beside", failing)
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "index.json").write_text("{}", encoding="utf-8")  # an older corpus's
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
    assert (tmp_path / "old" / "index.json").read_text(encoding="utf-8") == "{}"  # the older corpus, as it was


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


def test_readme_check_example_prints_what_the_readme_shows(tmp_path):
    text = open(os.path.join(os.path.dirname(SCRIPT), "README.md"), encoding="utf-8").read()
    section = text[text.index("### `--check THEIRS.json`"):]
    commands = section.split("```sh\n", 1)[1].split("```", 1)[0]
    shown = section.split("```text\n", 1)[1].split("```", 1)[0]
    commands = commands.replace("python3 perceptron.py", f"{sys.executable} {SCRIPT}")
    done = subprocess.run(["bash", "-c", commands], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (1, shown, "")


def test_check_our_own_json_agrees_on_exact_and_float_data(capsys, tmp_path):
    for text, options in [("x1,x2,y\n1/2,0.1,1\n-1/3,0.25,-1\n2/3,-0.5,1\n-0.2,-1/7,-1\n", ["--exact", "--bias"]),
                          ("x1,x2,y\n0.1,0.2,1\n-0.3,0.1,-1\n0.2,-0.1,1\n1e-300,-2e300,-1\n", ["--rule", "margin"])]:
        path = write(tmp_path, text)
        _, out, _ = cli(capsys, path, "--json", "--weights", *options)
        (tmp_path / "ours.json").write_text(out, encoding="utf-8")
        status, out, err = cli(capsys, path, "--check", str(tmp_path / "ours.json"), *options)
        assert (status, err) == (0, "") and "agrees" in out


@pytest.mark.parametrize("option", ["--check", "--model"])
@pytest.mark.parametrize("text, said", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # json's recursion, not a traceback
    ('{"perceptron": "0.3.0", "weights": ["1e999999999", 0, 0], "bias": false, "rule": "sign", "labels": [-1, 1]}',
     "an exponent beyond 8600 is not read"),  # its exact value would be 10**999999999: it would never end
])
def test_a_hostile_json_file_is_one_line_of_error_and_ends(capsys, tmp_path, option, text, said):
    path = write(tmp_path, csv_of(CHECKED[0][0]))
    (tmp_path / "theirs.json").write_text(text, encoding="utf-8")
    status, out, err = cli(capsys, path, option, str(tmp_path / "theirs.json"))
    assert (status, out) == (2, "") and said in err and err.count("\n") == 1


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


def test_check_refuses_a_json_int_too_long_to_read_in_linear_time(capsys, tmp_path):
    path = write(tmp_path, csv_of(CHECKED[0][0]))
    (tmp_path / "theirs.json").write_text('{"weights": [1' + "0" * 9000 + ', 0, 0]}', encoding="utf-8")
    status, out, err = cli(capsys, path, "--check", str(tmp_path / "theirs.json"))
    assert (status, out) == (2, "") and "an int of 9001 digits: at most 8600 are read" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------
# Reliability: no write replaces what it should not, no exit status lies, no
# silent misreading, numbers by value on every entry point, Ctrl-C and SIGTERM
# everywhere, nothing process-wide left changed.
# ---------------------------------------------------------------------------

import signal  # noqa: E402
import socket  # noqa: E402
import stat  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402


def files_in(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


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
    done = subprocess.run([sys.executable, SCRIPT, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=30)
    assert (done.returncode, done.stdout) == (2, "") and said in done.stderr and done.stderr.count("\n") == 1
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
            done = subprocess.run([sys.executable, SCRIPT, "data.csv", "--svg", str(path)], capture_output=True,
                                  text=True, cwd=tmp_path, timeout=30)
            assert (done.returncode, done.stdout) == (2, ""), kind
            assert done.stderr == f"error: {path}: a {kind}, not a regular file: outputs are written to regular " \
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
        done = subprocess.run([sys.executable, SCRIPT, "data.csv", "--svg", link], capture_output=True, cwd=tmp_path,
                              timeout=30)
        assert done.returncode == 0 and os.path.islink(tmp_path / link)
        assert (tmp_path / target).read_text().startswith("<svg")


def test_a_failed_write_takes_back_only_what_it_made(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "x1,x2,y\n1,2,1\n-1,-2,-1\n2,-1,1\n-2,1,-1\n1,-2,-1\n")
    (tmp_path / "o.svg").write_text("the user's picture")
    create, calls = P._create_beside, []

    def failing(target):  # the disk fills at the third file
        calls.append(target)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return create(target)
    monkeypatch.setattr(P, "_create_beside", failing)
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
        done = subprocess.run([sys.executable, SCRIPT, "noisy.csv", "--max-epochs", "5", "--svg-steps",
                               str(mount / "steps")], capture_output=True, text=True, cwd=tmp_path, timeout=60)
        assert done.returncode == 2 and "No space left on device" in done.stderr and done.stderr.count("\n") == 1
        assert os.listdir(mount) == []
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


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
        done = subprocess.run([sys.executable, SCRIPT, *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                              cwd=tmp_path, timeout=60)
    assert (done.returncode, done.stderr) == (2, "error: cannot write the report: No space left on device\n")


def test_vectors_to_a_folder_name_the_output_cannot_encode(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, SCRIPT, "--vectors", "corpus-é"], capture_output=True, cwd=tmp_path,
                          env=env, timeout=60)
    assert done.returncode == 0 and done.stderr == b"" and b"corpus-\\xe9" in done.stdout
    assert "index.json" in os.listdir(tmp_path / "corpus-é")


def test_vectors_refuse_a_folder_of_other_files(tmp_path, capsys):
    (tmp_path / "mine.txt").write_text("the user's")
    status, out, err = cli(capsys, "--vectors", str(tmp_path))
    assert status == 2 and "holds other files" in err and os.listdir(tmp_path) == ["mine.txt"]


def test_an_internal_error_is_one_line_with_its_own_status(capsys, monkeypatch):
    def broken(args):
        raise RuntimeError("a bug")
    monkeypatch.setattr(P, "_MODES", ((None, broken),))
    assert P.main([]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err == "error: internal error (please report it): RuntimeError: a bug\n"


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


@pytest.mark.parametrize("field, value, said", [
    ("weights", "63", "weights: '63' is not a list of one or more numbers"),
    ("weights", {"0": 1, "1": 2}, "weights: {'0': 1, '1': 2} is not a list"),
    ("bias", "yes", "bias: 'yes' is not true or false"),
    ("pocket", {"weights": "12", "errors": 0, "mistakes": 1}, "pocket.weights: '12' is not a list"),
    ("average", {"convention": "after", "weights": "12", "examples": 4}, "average.weights: '12' is not a list"),
    ("rule", "sigh", "rule: 'sigh' is not one of 'sign', 'margin'"),
    ("labels", [1, 1], "labels: [1, 1] is not two distinct labels"),
    ("wieghts", [1, 2], "'wieghts': not a field of the JSON of a run written by --json (did you mean 'weights'?)"),
])
def test_model_reads_every_field_strictly(capsys, tmp_path, field, value, said):
    data = write(tmp_path, "x1,x2,y\n1,2,1\n-1,-2,-1\n")
    _, doc = cli_json(capsys, data, "--pocket", "--average", "after", "--epochs", "2")
    doc[field] = value
    (tmp_path / "run.json").write_text(json.dumps(doc))
    status, out, err = cli(capsys, data, "--model", str(tmp_path / "run.json"))
    assert (status, out) == (2, "") and err.startswith(f"error: {tmp_path / 'run.json'}: {said}")


MODES = [[], ["--bias", "--rule", "margin"], ["--pocket", "--max-epochs", "4"], ["--average", "after", "--epochs", "2"],
         ["--voted", "--epochs", "2"], ["--kernel", "polynomial:2", "--max-epochs", "4"],
         ["--kernel", "linear", "--max-epochs", "4"]]
MULTI_MODES = [["--multiclass"], ["--multiclass", "joint"], ["--multiclass", "--pocket", "--max-epochs", "4"]]


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
                    assert err.count("\n") == 1 if status == 2 else err == "", (argv, err)


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


@pytest.mark.parametrize("label", [float("nan"), Decimal("NaN")])
def test_a_nan_cannot_be_a_class(label):
    with pytest.raises(PerceptronError, match="^example 0: label .* cannot be a class: it is not equal to itself"):
        P.train_multiclass([([1], label), ([2], label), ([3], "a")])
    with pytest.raises(PerceptronError, match="cannot be a class"):
        MulticlassPerceptron(["a", label], 1)


def int64_examples():
    big = 2 ** 62
    return [([Int64(big), Int64(3)], 1), ([Int64(-big), Int64(2)], -1), ([Int64(5), Int64(-big)], -1)]


def as_ints(examples):
    return [([int(v) for v in x], y) for x, y in examples]


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


@pytest.mark.parametrize("name, call, message", [
    ("Perceptron(2**64)", lambda: Perceptron(2**64), "dimension d = 18446744073709551616 is more than"),
    ("svg upto 'a'", lambda: P.svg(train([([1, 2], 1)]), [([1, 2], 1)], upto="a"), "upto = 'a' is not between"),
    ("predict(x, ['w'])", lambda: train([([1, 2], 1)]).predict([1, 2], ["w"]), "weights = ['w']: use 'w'"),
    ("a Decimal beside a float", lambda: train([([1.5, 2.0], 1), ([Decimal(1), 2.0], -1)], epochs=2),
     "example 1: floats and Decimals in one data set"),
    ("average under a trapping context", lambda: trapping(lambda: train(
        [([Decimal(1), Decimal(2)], 1), ([Decimal(-1), Decimal(3)], -1)], epochs=3, average="after")),
     "the average cannot be computed"),
    ("on_mistake not callable", lambda: train([([1], 1)], on_mistake=3), "on_mistake = 3 is not callable"),
])
def test_the_api_refuses_in_its_own_error(name, call, message):
    with pytest.raises(PerceptronError) as err:
        call()
    assert message in str(err.value)


def trapping(f):
    with localcontext() as context:
        context.traps[decimal.Inexact] = True
        return f()


def test_a_file_with_cr_line_ends_is_read_as_lines(capsys, tmp_path):
    for end in ("\r", "\r\n", "\n"):
        (tmp_path / "d.csv").write_bytes(("x1,x2,y" + end + FOUR.replace("\n", end)).encode())
        status, doc = cli_json(capsys, str(tmp_path / "d.csv"))
        assert status == 0 and doc["examples"] == 4 and [m["line"] for m in doc["trace"]] == [3]


def test_a_name_with_a_newline_is_named_in_one_line(tmp_path):
    done = subprocess.run([sys.executable, SCRIPT, "no\nsuch.csv"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=30)
    assert (done.returncode, done.stderr) == (2, "error: no\\nsuch.csv: cannot read: No such file or directory\n")


def test_tolerance_is_read_with_the_cells_grammar(capsys, tmp_path):
    path = write(tmp_path, FOUR)
    for text, said in (("1e999999999", "an exponent beyond 4300"), ("1_0", "is not a number"), ("-1", ">= 0")):
        status, out, err = cli(capsys, path, "--check", path, "--tolerance", text)
        assert status == 2 and said in err and err.count("\n") == 1


def test_a_linear_kernel_run_keeps_its_pocket_weights(capsys, tmp_path):
    examples = noisy(72, n=20, d=2, flip=0.3)[0]
    kernel, primal = train(examples, kernel=dot, pocket=True, max_epochs=5), train(examples, pocket=True, max_epochs=5)
    assert kernel.pocket == primal.pocket and kernel.pocket.w is not None
    status, out, err = cli(capsys, write(tmp_path, csv_of(examples)), "--kernel", "linear", "--pocket",
                           "--max-epochs", "5")
    assert status == 1 and err == "" and f"pocket: w = {P._vec(primal.pocket.w)}" in out


# Ctrl-C and SIGTERM at seeded moments, in every mode: a whole report or none, never a half-written file.

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
        for delay in (rng.uniform(0.1, 0.6), rng.uniform(0.6, 1.5)):
            child = subprocess.Popen([sys.executable, SCRIPT, *argv, "--max-epochs", "100000"] if "--epochs" not in argv
                                     and "--max-epochs" not in argv and "--vectors" not in argv else
                                     [sys.executable, SCRIPT, *argv], cwd=tmp_path, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
            time.sleep(delay)
            child.send_signal(signum)
            out, err = child.communicate(timeout=60)
            assert "Traceback" not in err and "internal error" not in err, (argv, err)
            assert child.returncode in (0, 1, status), (argv, child.returncode, err)
            if "--json" in argv and out:
                json.loads(out)  # whole, or not written at all
            if child.returncode == status and signum == signal.SIGTERM:
                assert out == "", argv
            leftovers = [p for p in tmp_path.rglob("*") if p.name.endswith(".part")]
            assert leftovers == [], argv
            corpus = tmp_path / "corpus"
            if corpus.exists():  # whole, with its index, or not there at all
                assert child.returncode == 0 and len(os.listdir(corpus)) == 47
            for folder in ("corpus", "steps"):
                if (tmp_path / folder).exists() and child.returncode != 0:
                    assert False, (argv, folder)
            subprocess.run(["rm", "-rf", str(tmp_path / "corpus"), str(tmp_path / "steps"), str(tmp_path / "o.svg")])


@pytest.mark.slow
def test_ctrl_c_in_a_one_vs_rest_run_prints_its_report(tmp_path):
    long_noisy(tmp_path, n=2000)
    child = subprocess.Popen([sys.executable, SCRIPT, "classes.csv", "--multiclass", "--json", "--max-epochs",
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
    child = subprocess.Popen([sys.executable, SCRIPT, "noisy.csv", "--json", "--weights", "--max-epochs", "20"],
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


def test_the_readmes_concordance_names_functions_of_part_one():
    import ast

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
    import kernels
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
