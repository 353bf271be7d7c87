"""Tests of kernels.py and of the kernel dual, each named after the claim it checks.

The identity K(a, b) = Phi(a).Phi(b) is checked exactly over whole cubes
{0,1}^n, and "the kernelized dual perfectly simulates the primal on Phi(x)"
(Columbia §2.3) mistake by mistake on seeded data.
"""

import json
import math
import os
import random
import shutil
import subprocess
import sys
from fractions import Fraction
from itertools import product

import pytest

import kernels as K
import perceptron as P
from perceptron import DualPerceptron, PerceptronError, dot, train, with_bias
from test_perceptron import reference_run  # DualPerceptron.learn example by example: eq. (2) re-summed each step

RULES = ["sign", "margin"]

BOOLEAN = [  # (kernel, its Phi)
    (K.monotone_conjunction, K.monotone_conjunction_features),
    (K.all_conjunction, K.all_conjunction_features),
    *[(K.monotone_conjunction_upto(k), K.monotone_conjunction_upto(k).features) for k in range(4)],
]
IDS = [kernel.__name__ for kernel, _ in BOOLEAN]
XOR = [([0, 0], -1), ([0, 1], 1), ([1, 0], 1), ([1, 1], -1)]


def cube(n):
    return [list(bits) for bits in product((0, 1), repeat=n)]


def boolean_data(seed, n, phi, count=30):
    """Random bit vectors x of length n labelled by a random integer target v: sign(v.phi(x))."""
    rng = random.Random(seed)
    v = [rng.randint(-3, 3) for _ in phi([0] * n)]
    examples = []
    for _ in range(count * 4):
        x = [rng.randint(0, 1) for _ in range(n)]
        m = dot(v, phi(x))
        if m != 0:
            examples.append((x, 1 if m > 0 else -1))
        if len(examples) == count:
            break
    return examples


# ---------------------------------------------------------------------------
# Columbia §2.1: K(a, b) = Phi(a).Phi(b)
# ---------------------------------------------------------------------------

def test_the_notes_n3_expansion_in_the_notes_order():
    """Phi(x1, x2, x3) = (1, x1, x2, x3, x1^x2, x1^x3, x2^x3, x1^x2^x3)."""
    for x1, x2, x3 in product((0, 1), repeat=3):
        assert K.monotone_conjunction_features([x1, x2, x3]) == [
            1, x1, x2, x3, x1 & x2, x1 & x3, x2 & x3, x1 & x2 & x3]


def test_claim_2_1_monotone_conjunction_kernel_is_two_to_the_ones():
    for n in range(5):
        for a in cube(n):
            for b in cube(n):
                ones = sum(1 for a_i, b_i in zip(a, b) if a_i == b_i == 1)
                assert K.monotone_conjunction(a, b) == 2 ** ones


@pytest.mark.parametrize("kernel, phi", BOOLEAN, ids=IDS)
def test_kernel_is_the_inner_product_of_its_features(kernel, phi):
    for n in range(5):
        for a in cube(n):
            for b in cube(n):
                value = kernel(a, b)
                assert value == dot(phi(a), phi(b)) and type(value) is int


def test_feature_counts_are_2_to_the_n_and_3_to_the_n():
    for n in range(6):
        assert len(K.monotone_conjunction_features([1] * n)) == 2 ** n
        assert len(K.all_conjunction_features([0] * n)) == 3 ** n
        assert len(K.monotone_conjunction_upto(2).features([1] * n)) == sum(math.comb(n, size) for size in range(3))


def test_all_conjunction_kernel_is_two_to_the_agreements():
    for a in cube(4):
        for b in cube(4):
            assert K.all_conjunction(a, b) == 2 ** sum(a_i == b_i for a_i, b_i in zip(a, b))


def test_bounded_conjunction_features_are_a_prefix_of_all_monotone_features():
    x = [1, 0, 1, 1]
    full = K.monotone_conjunction_features(x)
    assert K.monotone_conjunction_upto(2).features(x) == full[:1 + 4 + 6]
    assert K.monotone_conjunction_upto(4).features(x) == full
    assert K.monotone_conjunction_upto(9)([1, 1], [1, 1]) == 4


def test_from_features_is_the_definition():
    phi = K.all_conjunction_features
    kernel = K.from_features(phi)
    for a in cube(3):
        for b in cube(3):
            assert kernel(a, b) == K.all_conjunction(a, b)
    assert kernel.features is phi and kernel.__name__ == "from_features(all_conjunction_features)"


def test_linear_sums_like_perceptron_dot():
    rng = random.Random(1)
    for _ in range(100):
        a = [rng.uniform(-1, 1) * 10 ** rng.randint(-9, 9) for _ in range(12)]
        b = [rng.uniform(-1, 1) * 10 ** rng.randint(-9, 9) for _ in range(12)]
        assert K.linear(a, b) == dot(a, b)
    assert K.linear([1e16, 1.0, -1e16], [1, 1, 1]) == 0.0
    assert K.linear([Fraction(1, 3)], [3]) == 1 and type(K.linear([Fraction(1, 3)], [3])) is Fraction


@pytest.mark.parametrize("degree", [1, 2, 3])
@pytest.mark.parametrize("c", [0, 1, 2, Fraction(1, 2)])
def test_polynomial_kernel_is_its_weighted_expansion(degree, c):
    """(a.b + c)^d = sum over monomials m of multinomial(d; k) c^k0 m(a) m(b), exactly."""
    kernel = K.polynomial(degree, c)
    rng = random.Random(degree)
    for _ in range(30):
        a = [rng.randint(-3, 3) for _ in range(3)]
        b = [rng.randint(-3, 3) for _ in range(3)]
        terms_a, terms_b = K.polynomial_terms(a, degree, c), K.polynomial_terms(b, degree, c)
        expanded = sum(w * m_a * m_b for (w, m_a), (_, m_b) in zip(terms_a, terms_b))
        assert kernel(a, b) == expanded and type(kernel(a, b)) is type(expanded)
    assert all(type(w) is int for w, _ in K.polynomial_terms([1, 2], degree, 1))


def test_gaussian_is_symmetric_one_on_the_diagonal_and_in_zero_one():
    kernel = K.gaussian(1.5)
    rng = random.Random(2)
    xs = [[rng.randint(-4, 4) for _ in range(3)] for _ in range(12)]
    matrix = K.gram(kernel, xs)
    for i in range(len(xs)):
        assert matrix[i][i] == 1.0
        for j in range(len(xs)):
            assert matrix[i][j] == matrix[j][i] and 0 < matrix[i][j] <= 1
            assert type(matrix[i][j]) is float
    assert kernel([3, 0, 0], [0, 0, 0]) == math.exp(-9 / (2 * 1.5 * 1.5))


def test_gram_matrices_are_symmetric_with_int_entries():
    xs = cube(3)
    for kernel, _ in BOOLEAN:
        matrix = K.gram(kernel, xs)
        assert matrix == [list(row) for row in zip(*matrix)]
        assert all(type(v) is int for row in matrix for v in row)


# ---------------------------------------------------------------------------
# Columbia §2.3: the kernelized dual perfectly simulates the primal on Phi(x)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kernel, phi", BOOLEAN, ids=IDS)
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("bias", [False, True])
def test_kernelized_dual_perfectly_simulates_the_primal_on_phi(kernel, phi, rule, bias):
    for n in range(3, 9):
        expand = (lambda x: phi(with_bias(x))) if bias else phi
        examples = boolean_data(n * 7 + bias, n, expand, count=25)
        dual = train(examples, rule=rule, bias=bias, kernel=kernel, max_epochs=30)
        primal = train([(expand(x), y) for x, y in examples], rule=rule, max_epochs=30)
        assert dual.trace == primal.trace
        assert (dual.mistakes, dual.epochs, dual.converged) == (primal.mistakes, primal.epochs, primal.converged)
        assert dual.model.weights(phi) == primal.w  # w = sum_j y_j Phi(x_j), never written by the dual


def test_xor_is_learned_by_the_kernel_dual_and_not_by_the_primal():
    """Cornell: the Perceptron cannot learn XOR; with Phi = monotone conjunctions it can."""
    for rule, mistakes in [("sign", 17), ("margin", 29)]:
        primal = train(XOR, rule=rule, bias=True, max_epochs=200)
        assert primal.converged is False and primal.epochs == 200
        dual = train(XOR, rule=rule, kernel=K.monotone_conjunction)
        assert dual.converged is True and dual.mistakes == mistakes
        assert all(P.sign(dual.model.score(x)) == y for x, y in XOR)


# ---------------------------------------------------------------------------
# The fast kernel dual of train() against the literal DualPerceptron.learn
# ---------------------------------------------------------------------------

REAL = [K.linear, dot, K.polynomial(2), K.polynomial(3, Fraction(1, 2)), K.gaussian(2.0), K.gaussian(0.7),
        K.from_features(lambda x: [1, *x, *(a * b for a in x for b in x)])]


SEEDS = [pytest.param(range(1), id="seed 0"), pytest.param(range(1, 6), id="seeds 1-5", marks=pytest.mark.slow)]


@pytest.mark.parametrize("kernel", [k for k, _ in BOOLEAN] + REAL, ids=lambda k: k.__name__)
@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seeds", SEEDS)
def test_fast_kernel_run_gives_the_literal_trace(kernel, rule, seeds):
    for seed in seeds:
        rng = random.Random(seed)
        n = rng.randint(2, 6)
        if kernel in REAL:
            examples = [([rng.randint(-3, 3) for _ in range(n)], rng.choice([-1, 1])) for _ in range(20)]
        else:
            examples = boolean_data(seed, n, K.monotone_conjunction_features, count=20)
        trace, epochs, converged = reference_run(DualPerceptron(kernel, rule=rule), examples, 25)
        run = train(examples, rule=rule, kernel=kernel, max_epochs=25)
        assert run.trace == trace and (run.epochs, run.converged) == (epochs, converged)
        assert [type(m.score) for m in run.trace] == [type(m.score) for m in trace]


def counting(kernel):
    def counted(a, b):
        counted.calls += 1
        return kernel(a, b)
    counted.calls = 0
    return counted


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.skipif(P._LITERAL.get(), reason="a property of the accelerated kernel run, which the literal switch turns off")
def test_kernel_is_evaluated_once_per_pair_and_not_in_a_clean_pass(rule):
    for seed in range(5):
        examples = boolean_data(seed, 7, K.monotone_conjunction_features, count=40)
        kernel = counting(K.monotone_conjunction)
        run = train(examples, rule=rule, kernel=kernel)
        distinct = len({m.index for m in run.trace})
        assert run.converged and kernel.calls == len(examples) * distinct
        literal = counting(K.monotone_conjunction)
        reference_run(DualPerceptron(literal, rule=rule), examples, run.epochs)
        assert literal.calls > kernel.calls


GRAM_ROWS = [k for k, _ in BOOLEAN] + [k for k in REAL if k is not dot]


def float_vectors(seed, n, count):
    """Seeded floats with what sums can tell apart: cancellations (1e16), signed zeros, subnormals, Fractions."""
    rng = random.Random(seed)
    special = [1e16, -1e16, 1.0, -0.0, 0.0, 5e-324, 0.1, Fraction(1, 3)]
    return [[rng.choice(special) if rng.random() < 0.4 else rng.uniform(-9, 9) for _ in range(n)] for _ in range(count)]


@pytest.mark.parametrize("kernel", GRAM_ROWS, ids=lambda k: k.__name__)
def test_gram_rows_are_the_kernels_own_values_bit_for_bit(kernel):
    for seed in range(4):
        rng = random.Random(seed)
        n = rng.randint(1, 6)
        if kernel in REAL:
            sets = [[[rng.randint(-9, 9) for _ in range(n)] for _ in range(12)], float_vectors(seed, n, 12),
                    [[Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(n)] for _ in range(12)]]
        else:
            sets = [cube(n), [[True, 0] * n]]
        for xs in sets:
            row = kernel.gram_rows(xs)
            for a in xs:
                assert [(type(v), repr(v)) for v in row(a)] == [(type(v), repr(v)) for v in (kernel(a, b) for b in xs)]


@pytest.mark.parametrize("kernel", [K.linear, K.polynomial(2), K.gaussian(0.7)], ids=lambda k: k.__name__)
@pytest.mark.parametrize("rule", RULES)
def test_fast_kernel_run_on_floats_gives_the_literal_trace_bit_for_bit(kernel, rule):
    for seed in range(4):
        rng = random.Random(seed)
        examples = [(x, rng.choice([-1, 1])) for x in float_vectors(seed, 3, 25) if Fraction(1, 3) not in x]
        trace, epochs, converged = reference_run(DualPerceptron(kernel, rule=rule), examples, 4)
        run = train(examples, rule=rule, kernel=kernel, max_epochs=4)
        assert repr(run.trace) == repr(trace) and (run.epochs, run.converged) == (epochs, converged)


@pytest.mark.parametrize("xs, message", [([[1, 0], [0, 2]], "not a bit"), ([[1, 0], [0, 1, 1]], "lengths")])
def test_gram_rows_refuse_what_the_kernel_refuses(xs, message):
    with pytest.raises(K.KernelError, match=message):
        K.monotone_conjunction.gram_rows(xs)(xs[0])


def test_a_gaussian_whose_difference_overflows_is_refused_as_its_kernel_refuses_it():
    examples = [([1e308], 1), ([-1e308], -1)]
    with pytest.raises(K.KernelError, match="not finite"):
        K.gaussian(1).gram_rows([x for x, _ in examples])([1e308])
    with pytest.raises(PerceptronError, match=r"failed on K\(x_1, x_0\), the examples 1 and 0: .*not finite"):
        train(examples, kernel=K.gaussian(1))


@pytest.mark.skipif(P._LITERAL.get(), reason="a property of the accelerated kernel run, which the literal switch turns off")
def test_rows_beyond_the_memory_budget_are_computed_again_with_the_same_run(monkeypatch):
    examples = boolean_data(2, 7, K.monotone_conjunction_features, count=40)
    kept = counting(K.monotone_conjunction)
    run = train(examples, kernel=kept)
    monkeypatch.setattr(P._KernelScores, "KEPT", 3 * len(examples))  # three rows
    again = counting(K.monotone_conjunction)
    assert train(examples, kernel=again).trace == run.trace
    assert again.calls > kept.calls == len(examples) * len({m.index for m in run.trace}) > 3 * len(examples)


def test_streamed_kernel_pass_is_the_literal_one():
    examples = boolean_data(3, 5, K.monotone_conjunction_features, count=30)
    kept = train(examples, kernel=K.monotone_conjunction, epochs=1)
    streamed = train(iter(examples), kernel=K.monotone_conjunction, epochs=1)
    assert streamed.trace == kept.trace and streamed.model.stored == kept.model.stored


def test_a_linear_kernel_run_reports_explicit_weights():
    examples = [([2, 1], 1), ([-1, -3], -1), ([1, -2], 1)]
    assert train(examples, kernel=K.linear).w == train(examples).w == [2, 1]
    assert train(XOR, kernel=K.monotone_conjunction_upto(1), max_epochs=20).w is None
    assert train(examples, kernel=K.polynomial(2)).kernel == "polynomial(2, c=1)"


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [2, -1, 1.0, Fraction(1), "1", None, 0.5])
@pytest.mark.parametrize("kernel", [k for k, _ in BOOLEAN], ids=IDS)
def test_boolean_kernels_refuse_entries_that_are_not_bits(kernel, bad):
    with pytest.raises(K.KernelError, match=r"b\[1\] is .*, not a bit \(0 or 1\)"):
        kernel([1, 0], [1, bad])


def test_true_and_false_count_as_bits():
    assert K.monotone_conjunction([True, True], [True, False]) == 2
    assert K.all_conjunction_features([True]) == [1, 1, 0]


def test_kernels_refuse_vectors_of_different_lengths():
    for kernel in [K.linear, K.monotone_conjunction, K.all_conjunction, K.gaussian(1), K.polynomial(2)]:
        with pytest.raises(K.KernelError, match="lengths 2 and 3"):
            kernel([1, 0], [1, 0, 1])


@pytest.mark.parametrize("make, message", [
    (lambda: K.polynomial(0), "degree = 0"), (lambda: K.polynomial(1.5), "degree = 1.5"),
    (lambda: K.polynomial(True), "degree = True"), (lambda: K.polynomial(2, -1), "c = -1"),
    (lambda: K.polynomial(2, "1"), "c = '1'"), (lambda: K.gaussian(0), "sigma = 0"),
    (lambda: K.gaussian(-1.0), "sigma = -1.0"), (lambda: K.gaussian(float("inf")), "sigma = inf"),
    (lambda: K.gaussian(float("nan")), "sigma = nan"), (lambda: K.monotone_conjunction_upto(-1), "k = -1"),
    (lambda: K.from_features(3), "phi 3 is not callable"),
])
def test_bad_kernel_parameters_are_refused_when_the_kernel_is_made(make, message):
    with pytest.raises(K.KernelError, match=message):
        make()


def test_a_kernel_run_on_non_bits_names_the_examples():
    examples = [([1, 0], -1), ([0, 1], 1), ([2, 1], 1)]
    with pytest.raises(PerceptronError) as err:
        train(examples, kernel=K.monotone_conjunction)
    assert str(err.value) == ("kernel monotone_conjunction failed on K(x_0, x_2), the examples 0 and 2: "
                              "b[0] is 2, not a bit (0 or 1)")


# ---------------------------------------------------------------------------
# The module itself
# ---------------------------------------------------------------------------

def test_kernels_has_readable_names():
    names = [k.__name__ for k in [K.linear, K.monotone_conjunction, K.all_conjunction,
                                  K.monotone_conjunction_upto(2), K.polynomial(3, 2), K.gaussian(0.5)]]
    assert names == ["linear", "monotone_conjunction", "all_conjunction",
                     "monotone_conjunction_upto(2)", "polynomial(3, c=2)", "gaussian(0.5)"]


def test_importing_kernels_does_not_import_perceptron():
    code = "import sys, kernels; assert 'perceptron' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=K.__file__.rsplit("/", 1)[0])


def test_all_is_sorted_and_complete():
    assert K.__all__ == sorted(K.__all__)
    assert all(hasattr(K, name) for name in K.__all__)


def test_main_demonstrates_columbia_section_2(capsys):
    assert K.main([]) == 0
    out = capsys.readouterr().out
    assert "converged: no" in out and "converged: yes" in out and "[1, 1, 1]  [1, 1, 1]" in out


# ---------------------------------------------------------------------------
# --kernel on the command line
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("spec, kernel", [
    ("linear", K.linear), ("monotone-conjunction", K.monotone_conjunction), ("all-conjunction", K.all_conjunction),
    ("conjunction:2", K.monotone_conjunction_upto(2)), ("polynomial:2", K.polynomial(2)),
    ("polynomial:3:2", K.polynomial(3, 2)), ("gaussian:1.5", K.gaussian(1.5)),
])
def test_cli_kernel_runs_the_kernel_dual(capsys, tmp_path, spec, kernel):
    path = tmp_path / "xor.csv"
    path.write_text("a,b,y\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n")
    status = K.main([str(path), "--labels=0,1", "--kernel", spec, "--json", "--max-epochs", "50"])
    doc = json.loads(capsys.readouterr().out)
    run = train(XOR, kernel=kernel, max_epochs=50)
    assert doc["kernel"] == kernel.__name__ == run.kernel
    assert [(m["epoch"], m["index"], m["score"]) for m in doc["trace"]] == [(m.epoch, m.index, m.score) for m in run.trace]
    assert doc["weights"] == run.w and (doc["weights"] is None) == (spec != "linear")
    assert status == (0 if run.converged else 1)


@pytest.mark.parametrize("spec, message", [
    ("nope", "unknown kernel 'nope': use one of linear, monotone-conjunction, all-conjunction, conjunction:K, "
             "polynomial:D[:C], gaussian:SIGMA"),
    ("gaussian:0", "bad kernel parameter in 'gaussian:0': sigma = 0 is not a real number > 0"),
    ("gaussian:x", "bad kernel parameter in 'gaussian:x': 'x' is not a finite number"),
    ("gaussian:nan", "bad kernel parameter in 'gaussian:nan': 'nan' is not a finite number"),
    ("polynomial", "kernel 'polynomial': write polynomial:D or polynomial:D:C"),
    ("polynomial:1.5", "bad kernel parameter in 'polynomial:1.5': '1.5' is not a whole number"),
    ("conjunction:+-3", "bad kernel parameter in 'conjunction:+-3': '+-3' is not a whole number"),
    ("linear:2", "kernel 'linear:2': write linear"),
])
def test_cli_bad_kernel_is_one_line_and_exit_2(tmp_path, spec, message):
    path = tmp_path / "d.csv"
    path.write_text("1,0,1\n0,1,-1\n")
    done = subprocess.run([sys.executable, K.__file__, str(path), "--kernel", spec], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: {message}\n")


def test_perceptron_py_reads_kernel_from_kernels_py_beside_it(tmp_path):
    done = subprocess.run([sys.executable, P.__file__, "--kernel", "polynomial:2", "--json"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["kernel"] == "polynomial(2, c=1)"


@pytest.mark.parametrize("beside, found", [
    (None, "none"),
    ("def from_spec(spec):\n    return None\n", "another module of that name"),  # a kernels of someone else's
])
def test_perceptron_py_alone_refuses_kernel_in_one_line(tmp_path, beside, found):
    shutil.copy(P.__file__, tmp_path / "perceptron.py")
    if beside is not None:
        (tmp_path / "kernels.py").write_text(beside)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # -S: not the installed kernels.py either
    done = subprocess.run([sys.executable, "-S", "perceptron.py", "--kernel", "linear"], capture_output=True,
                          text=True, cwd=tmp_path, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: --kernel needs this project's kernels.py beside perceptron.py (found {found}")
    assert done.stderr.count("\n") == 1


def test_kernels_py_without_arguments_is_the_demonstration_and_with_them_the_command_line(capsys):
    assert K.main([]) == 0
    assert capsys.readouterr().out.startswith("Columbia notes §2.1: the monotone conjunction kernel, n = 3\n")
    assert K.main(["--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "bound: R^2 = 18, gamma^2 = 9/5 for w* = (-2, 1): 5 mistakes, at most R^2/gamma^2 = 10"


def test_cli_kernel_on_non_bits_is_one_line(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("1,2,1\n0,1,-1\n")
    done = subprocess.run([sys.executable, K.__file__, str(path), "--kernel", "monotone-conjunction"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == (f"error: {path}: kernel monotone_conjunction failed on K(x_1, x_0), the examples 1 and 0: "
                           "b[1] is 2, not a bit (0 or 1)\n")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1j])
def test_a_kernel_value_that_is_not_a_finite_real_is_refused_alike_by_both_forms(value):
    def constant(a, b):
        return value
    examples = [([1], -1), ([2], 1)]
    literal = DualPerceptron(constant)
    literal.learn(*examples[0])
    with pytest.raises(PerceptronError) as by_learn:
        literal.learn(*examples[1])
    with pytest.raises(PerceptronError) as by_train:
        train(examples, kernel=constant)
    assert str(by_train.value) == "example 1: " + str(by_learn.value)
    assert str(by_learn.value).endswith(": not a finite real number") and literal.mistakes == 1


# ---------------------------------------------------------------------------
# Every public function of kernels.py refuses what it cannot take with KernelError
# ---------------------------------------------------------------------------

KERNELS_REFUSED = [
    ("from_spec(None)", lambda: K.from_spec(None), "a kernel spec is a string such as 'polynomial:2', not None"),
    ("linear(None, [1])", lambda: K.linear(None, [1]), "a is NoneType, not a sequence of numbers"),
    ("linear([1], {1})", lambda: K.linear([1], {1}), "b is set, not a sequence of numbers"),
    ("linear(['a'], [1])", lambda: K.linear(["a"], [1]), "a[0] is 'a', not a real number"),
    ("monotone_conjunction(None, [1])", lambda: K.monotone_conjunction(None, [1]), "a is NoneType"),
    ("all_conjunction(None, [1])", lambda: K.all_conjunction(None, [1]), "a is NoneType"),
    ("monotone_conjunction_upto(2)(None, [1])", lambda: K.monotone_conjunction_upto(2)(None, [1]), "a is NoneType"),
    ("monotone_conjunction_features(None)", lambda: K.monotone_conjunction_features(None), "x is NoneType"),
    ("all_conjunction_features({1})", lambda: K.all_conjunction_features({1}), "x is set"),
    ("polynomial_terms(None, 2)", lambda: K.polynomial_terms(None, 2), "x is NoneType"),
    ("polynomial_terms([1], 'a')", lambda: K.polynomial_terms([1], "a"), "degree = 'a' is not a whole number >= 1"),
    ("polynomial(2)([1], [None])", lambda: K.polynomial(2)([1], [None]), "b[0] is None, not a real number"),
    ("linear([nan], [1])", lambda: K.linear([float("nan")], [1]), "a[0] is nan: not finite"),
    ("polynomial(10**9)", lambda: K.polynomial(10**9), "degree = 1000000000: at most 100"),
    ("from_spec('polynomial:999999999')", lambda: K.from_spec("polynomial:999999999"), "bad kernel parameter"),
    ("gaussian(1)(None, [1])", lambda: K.gaussian(1)(None, [1]), "a is NoneType"),
    ("gaussian(1e-200)", lambda: K.gaussian(1e-200), "sigma = 1e-200: 2 sigma^2 is 0.0 as a float"),
    ("gaussian(10**400)", lambda: K.gaussian(10**400), "sigma = <an int of 1329 bits>: 2 sigma^2 is inf"),
    ("from_features(len)(None, None)", lambda: K.from_features(len)(None, None), "phi(a) failed: "),
    ("gram(None, [[1]])", lambda: K.gram(None, [[1]]), "kernel None is not callable"),
    ("gram(linear, None)", lambda: K.gram(K.linear, None), "xs is NoneType, not a sequence of vectors"),
    ("from_spec('gaussian:1_0')", lambda: K.from_spec("gaussian:1_0"), "bad kernel parameter in 'gaussian:1_0'"),
    ("from_spec('gaussian:\u0661')", lambda: K.from_spec("gaussian:\u0661"), "bad kernel parameter in 'gaussian:\u0661'"),
    ("from_spec('conjunction:' + 30 digits)", lambda: K.from_spec("conjunction:" + "9" * 30), "bad kernel parameter"),
]


@pytest.mark.parametrize("name, call, message", KERNELS_REFUSED, ids=[c[0] for c in KERNELS_REFUSED])
def test_every_kernels_function_refuses_with_kernel_error(name, call, message):
    with pytest.raises(K.KernelError) as err:
        call()
    assert str(err.value).startswith(message) and len(str(err.value)) < 200


def test_the_smallest_and_largest_sigmas_whose_2_sigma_squared_is_a_float_still_work():
    for sigma in (1e-160, 1e150):
        assert 0 < K.gaussian(sigma)([0.0], [1e-160]) <= 1
