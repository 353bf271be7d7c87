"""How fast is the pure-Python Perceptron, against the interpreter's own floor?

Run as ``python3 bench/bench.py`` (about two minutes), or with ``--quick``
(under 30 seconds; CI runs it so that the benchmark cannot rot).  Standard
library only.  Data comes from seeded generators and times from
time.perf_counter.  Every figure is a ratio of two times taken in this one
process: the median of the ratios of runs timed back to back, so that a
noisy machine's drift and outliers touch it least (an absolute time is the
best of several runs).  Each line prints the figure, the ratio and its goal.
Timing goals are reported, never enforced (machines differ); the goals that
are counts, not times (kernel calls, memory), make the run exit 1 when missed.
"""

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from operator import add, mul, sub

try:
    import tracemalloc
except ImportError:  # PyPy has none
    tracemalloc = None

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import kernels  # noqa: E402
import perceptron as P  # noqa: E402

MISSED = []


def bests(repeats, *fns):
    """The best time of each fn() in seconds, the fns timed in turn so that
    the machine's drift touches them all alike."""
    times = [[] for _ in fns]
    for _ in range(repeats):
        for fn, kept in zip(fns, times):
            start = time.perf_counter()
            fn()
            kept.append(time.perf_counter() - start)
    return [min(kept) for kept in times]


def best(fn, repeats):
    return bests(repeats, fn)[0]


def ratio(fn, base, repeats):
    """time of fn() / time of base(): the median of the ratios of runs timed
    back to back, so that a machine's drift and its outliers touch it least."""
    ratios = []
    for _ in range(repeats):
        t_fn, t_base = bests(1, fn, base)
        ratios.append(t_fn / t_base)
    return statistics.median(ratios)


def report(figure, value, goal, ok, detail="", enforced=False):
    mark = "ok" if ok else ("MISSED" if enforced else "missed")
    if not ok and enforced:
        MISSED.append(figure)
    print(f"{figure:<44} {value:>10}   goal {goal:<10} {mark:<7} {detail}".rstrip(), flush=True)


# ---------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------

def linear_data(n, d, seed, number=int):
    """n examples of d features labelled by a fixed w*; few mistakes after the first ones."""
    rng = random.Random(seed)
    w_star = [rng.randint(-9, 9) for _ in range(d)]
    examples = []
    for _ in range(n):
        x = [rng.randint(-99, 99) for _ in range(d)]
        y = 1 if sum(map(mul, w_star, x)) >= 0 else -1
        if number is float:
            x = [v / 7 for v in x]
        elif number is Fraction:
            x = [Fraction(v, 7) for v in x]
        examples.append((x, y))
    return examples


def dnf_data(n, seed):
    """n random 20-bit examples labelled by (x0 and x1) or (x2 and not x3) or (x4 and x5 and x6)."""
    rng = random.Random(seed)
    examples = []
    for _ in range(n):
        x = [rng.randint(0, 1) for _ in range(20)]
        positive = (x[0] and x[1]) or (x[2] and not x[3]) or (x[4] and x[5] and x[6])
        examples.append((x, 1 if positive else -1))
    return examples


# ---------------------------------------------------------------------------
# P1: one primal pass against the fastest dot product that keeps the order
#
# The floor is the fastest way this Python has to compute the plain loop's
# sum ``s = 0; for a, b in zip(w, x): s = s + a * b`` bit for bit: for ints
# math.sumprod on 3.12+ and sum(map(mul)) before; for floats a plain loop on
# 3.12+ (sum() is compensated there, sumprod extended-precision) and
# sum(map(mul)) before.  valid_floor() checks it on the cases where the
# other methods give other bits before it is used.
# ---------------------------------------------------------------------------

def plain_loop(a, b):
    s = 0
    for a_i, b_i in zip(a, b):
        s = s + a_i * b_i
    return s


def floor_method(number):
    """(name, f) of the fastest valid dot product for this Python and number type."""
    if sys.version_info >= (3, 12):
        from math import sumprod
        return ("math.sumprod", sumprod) if number is int else ("plain loop", plain_loop)
    return "sum(map(mul))", lambda a, b: sum(map(mul, a, b))


def valid_floor(number):
    """The floor's method, after checking it gives the plain loop's bits where others do not."""
    name, f = floor_method(number)
    tiny = 5e-324  # the smallest subnormal
    if number is float:  # cancellation (the 1e16 case), signed zeros, subnormals, rounding in every term
        cases = [([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]), ([-0.0, -0.0], [1.0, 1.0]), ([0.0, -0.0], [-1.0, 1.0]),
                 ([tiny, tiny, -tiny], [1.0, 3.0, 1.0]), ([0.1] * 10, [0.3] * 10)]
    else:
        cases = [([2**70, 3, -2**70], [1, 1, 1]), ([-5, 7], [3, 2])]
    for a, b in cases:
        got, want = f(a, b), plain_loop(a, b)
        if repr(got) != repr(want):
            sys.exit(f"the floor {name} gives {got!r} where the plain loop gives {want!r} on {a}, {b}")
    return name, f


def learn_loop(examples, d):
    model = P.Perceptron(d)
    learn = model.learn
    for x, y in examples:
        learn(x, y)


def updates(examples, trace):
    """The run's own updates, w <- w + y x, alone: the work a pass adds to its dot products.  Their fastest
    valid form for ints and floats, w + x or w - x by map (y x_i is x_i or -x_i exactly, and a - b is
    a + (-b) in IEEE 754), as the accelerated pass makes them."""
    w = [0] * len(examples[0][0])
    for m in trace:
        x = examples[m.index][0]
        w = list(map(add if m.y > 0 else sub, w, x))


def p1(n, repeats):
    for number in (int, float):
        name, dot = valid_floor(number)
        examples = linear_data(n, 50, seed=1, number=number)
        xs = [x for x, _ in examples]
        w = P.train(examples, epochs=1).w
        bare = lambda: [dot(w, x) for x in xs]  # noqa: E731
        for bias in (False, True):
            def one_pass():
                return P.train(examples, epochs=1, trace=False, rule="margin", bias=bias)
            trace = P.train(examples, epochs=1, rule="margin", bias=bias).trace
            r_train = ratio(one_pass, bare, repeats)
            r_work = ratio(one_pass, lambda: (bare(), updates(examples, trace)), repeats)
            per_second = n / best(one_pass, repeats)
            label = f"P1 primal pass, {number.__name__}{', bias' if bias else ''}"
            report(f"{label} ({n} x 50)", f"{r_train:.2f}x", "<= 1.3", r_train <= 1.3,
                   f"against {name}; {per_second:,.0f} examples/s, {len(trace)} mistakes")
            report(f"{label}, per dots + updates", f"{r_work:.2f}x", "(none)", True,
                   "the same, against the dot products and the run's own updates")
        r_learn = ratio(lambda: learn_loop(examples, 50), bare, repeats)
        report(f"P1 learn() loop, {number.__name__}", f"{r_learn:.2f}x", "(none)", True,
               "Perceptron.learn per example: the cost of the API")


def peers(n, repeats):
    """One pass of scikit-learn's and river's perceptrons, where installed (never a dependency)."""
    examples = linear_data(n, 50, seed=1, number=float)
    ours = best(lambda: P.train(examples, epochs=1, trace=False, rule="margin"), repeats)
    try:
        import numpy as np
        from sklearn.linear_model import Perceptron
        X, y = np.array([x for x, _ in examples]), np.array([y for _, y in examples])
        fit = Perceptron(max_iter=1, tol=None, shuffle=False, eta0=1.0, penalty=None, fit_intercept=False).fit
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = best(lambda: fit(X, y), repeats)
        report("P1 scikit-learn fit, one pass, faster by", f"{ours / theirs:.1f}x", "<= 10", ours / theirs <= 10,
               "Perceptron(max_iter=1, tol=None, shuffle=False), its C loop")
    except ImportError:
        report("P1 scikit-learn fit, one pass", "-", "(none)", True, "scikit-learn is not installed here")
    try:
        from river.linear_model import Perceptron as RiverPerceptron
        rows = [({j: v for j, v in enumerate(x)}, y == 1) for x, y in examples]

        def river_pass():
            model = RiverPerceptron()
            for x, y in rows:
                model.learn_one(x, y)
        theirs = best(river_pass, 1)
        report("P1 river learn_one, one pass, slower by", f"{theirs / ours:.1f}x", ">= 4", theirs / ours >= 4)
    except ImportError:
        report("P1 river learn_one, one pass", "-", "(none)", True, "river is not installed here")


def p13(n, passes, repeats):
    """The pass under PyPy (pypy3 on PATH, timed in a child around train() alone, the best of repeats)
    against scikit-learn's compiled fit in this process, on the same seeded floats, where both are here."""
    import shutil
    label = f"P13 PyPy / scikit-learn fit ({n:,} x 50, {passes} passes)"
    try:
        import numpy as np
        from sklearn.linear_model import Perceptron
    except ImportError:
        return report(label, "-", "<= 3", True, "scikit-learn is not installed here")
    if shutil.which("pypy3") is None:
        return report(label, "-", "<= 3", True, "pypy3 is not on PATH")
    child = (f"import sys, time; sys.path.insert(0, {HERE!r}); import bench\n"
             f"examples = bench.linear_data({n}, 50, seed=1, number=float); times = []\n"
             f"for _ in range({repeats}):\n"
             f"    start = time.perf_counter()\n"
             f"    bench.P.train(examples, epochs={passes}, trace=False, rule='margin')\n"
             f"    times.append(time.perf_counter() - start)\n"
             f"print(min(times))")
    ours = float(subprocess.run(["pypy3", "-c", child], check=True, capture_output=True, text=True).stdout)
    examples = linear_data(n, 50, seed=1, number=float)
    X, y = np.array([x for x, _ in examples]), np.array([y for _, y in examples])
    fit = Perceptron(max_iter=passes, tol=None, shuffle=False, eta0=1.0, penalty=None, fit_intercept=False).fit
    theirs = best(lambda: fit(X, y), repeats)
    report(label, f"{ours / theirs:.1f}x", "<= 3", ours / theirs <= 3,
           f"the pass on pypy3 in a child, {ours * 1000:.0f} ms; Perceptron(max_iter={passes}, tol=None).fit here")


def exact_cost(n, repeats):
    ints = linear_data(n, 50, seed=1, number=int)
    fractions = linear_data(n, 50, seed=1, number=Fraction)
    r = ratio(lambda: P.train(fractions, epochs=1, trace=False), lambda: P.train(ints, epochs=1, trace=False),
              repeats)
    report(f"Exact arithmetic: Fraction / int pass ({n})", f"{r:.1f}x", "(none)", True, "the price of exactness")


# ---------------------------------------------------------------------------
# P4: the kernel dual, fast against the literal stored-mistake form
# ---------------------------------------------------------------------------

def counting(K):
    def counted(a, b):
        counted.calls += 1
        return K(a, b)
    counted.calls = 0
    counted.__name__ = K.__name__
    return counted


def literal_dual(examples, K, max_epochs=1000):
    model = P.DualPerceptron(K)
    for _ in range(max_epochs):
        if not any([model.learn(x, y) for x, y in examples]):
            break
    return model


def p4(n, repeats, literal):
    examples = dnf_data(n, seed=4)
    xs = [x for x, _ in examples]
    K = kernels.monotone_conjunction
    counted = counting(K)
    run = P.train(examples, kernel=counted)
    distinct = sorted({m.index for m in run.trace})
    optimum = n * len(distinct)
    report(f"P4 kernel calls, n = {n}", f"{counted.calls:,}", f"{optimum:,}", counted.calls == optimum,
           f"n per distinct stored example; {run.mistakes} mistakes, {run.epochs} passes", enforced=True)
    before = counted.calls
    P.train(examples, kernel=counted, epochs=run.epochs)  # the same run again: the same calls, so
    clean_pass_calls = counted.calls - before - optimum   # the last, clean pass made none
    report(f"P4 kernel calls in the clean pass, n = {n}", f"{clean_pass_calls}", "0", clean_pass_calls == 0,
           enforced=True)
    t_fast = best(lambda: P.train(examples, kernel=K), repeats)
    r_rows = ratio(lambda: P.train(examples, kernel=K), lambda: [[K(xs[i], x) for x in xs] for i in distinct],
                   repeats)
    report(f"P4 fast / bare kernel rows, n = {n}", f"{r_rows:.2f}x", "<= 1.3", r_rows <= 1.3,
           "the bookkeeping beyond the kernel's calls (below 1: its gram_rows, at the sums' speed)")
    if literal:
        t_literal = best(lambda: literal_dual(examples, K), 1)
        report(f"P4 literal / fast, n = {n}", f"{t_literal / t_fast:.1f}x", ">= 5" if n == 1000 else "(grows)",
               t_literal / t_fast >= 5 or n != 1000, "DualPerceptron.learn re-sums every stored mistake")


def noisy_plane(n, seed):
    """n noisy two-feature floats (3 decimals), labelled by 2 x1 - x2 plus Gaussian noise: most examples are stored."""
    rng = random.Random(seed)
    examples = []
    for _ in range(n):
        x = [round(rng.gauss(0, 1), 3) for _ in range(2)]
        examples.append((x, 1 if 2 * x[0] - x[1] + rng.gauss(0, 3) > 0 else -1))
    return examples


BEFORE = "7e9b63c"  # the commit before the kernel dual computed its rows at the speed of its sums
RECORDED = 3.3  # literal dual / 7e9b63c's fast dual on noisy_plane(2000, 15), linear, 3 passes (3.11.7, this machine)


def before_module():
    """7e9b63c's perceptron.py as a module (git show), or None where this is no git checkout."""
    import importlib.util
    import tempfile
    done = subprocess.run(["git", "-C", os.path.dirname(HERE), "show", f"{BEFORE}:perceptron.py"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        return None
    path = os.path.join(tempfile.mkdtemp(), f"perceptron_{BEFORE}.py")
    with open(path, "w") as f:
        f.write(done.stdout)
    spec = importlib.util.spec_from_file_location(f"perceptron_{BEFORE}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def p15(n, repeats):
    """Columbia §2.3 on n noisy two-feature floats, --kernel=linear --epochs 3: 7e9b63c's train against this one's, in
    this process; without git, the literal dual against this one's and the ratio recorded for 7e9b63c."""
    examples, K = noisy_plane(n, 15), kernels.linear
    run = P.train(examples, kernel=K, epochs=3, trace=False)
    label = f"P15 kernel dual, {BEFORE} / now ({n:,} x 2 floats)"
    detail = f"linear, 3 passes, {run.mistakes:,} mistakes"
    old = before_module()
    if old is not None:
        r = ratio(lambda: old.train(examples, kernel=K, epochs=3, trace=False),
                  lambda: P.train(examples, kernel=K, epochs=3, trace=False), repeats)
        return report(label, f"{r:.1f}x", ">= 3", r >= 3, detail + f"; {BEFORE}'s perceptron.py by git show")
    token = P._LITERAL.set(True)
    try:
        t_literal = best(lambda: P.train(examples, kernel=K, epochs=3, trace=False), 1)
    finally:
        P._LITERAL.reset(token)
    r = t_literal / best(lambda: P.train(examples, kernel=K, epochs=3, trace=False), repeats) / RECORDED
    report(label, f"{r:.1f}x", ">= 3", r >= 3, detail + f"; literal / now, over {RECORDED} recorded")


# ---------------------------------------------------------------------------
# P7: the pocket (Gallant), on breast-cancer-sized data that is not separable
# ---------------------------------------------------------------------------

def noisy_data(n, d, seed, number=int):
    """n examples of d features, a few labels flipped: never separable (about 50 updates a pass
    at n = 569, d = 30, as on scikit-learn's breast-cancer data)."""
    rng = random.Random(seed)
    w_star = [rng.randint(-9, 9) for _ in range(d)]
    examples = []
    for _ in range(n):
        x = [rng.randint(0, 999) - 500 for _ in range(d)]
        y = 1 if sum(map(mul, w_star, x)) >= 0 else -1
        examples.append(([v / 7 for v in x] if number is float else x, -y if rng.random() < 0.015 else y))
    return examples


def p7(passes):
    for number in (int, float):
        examples = noisy_data(569, 30, seed=7, number=number)
        plain = best(lambda: P.train(examples, bias=True, max_epochs=passes, trace=False), 1)
        run = P.train(examples, bias=True, max_epochs=passes, pocket=True, trace=False)
        pocket = best(lambda: P.train(examples, bias=True, max_epochs=passes, pocket=True, trace=False), 1)
        goal = passes >= 1000
        report(f"P7 pocket / plain, {number.__name__} (569 x 30, {passes} passes)", f"{pocket / plain:.1f}x",
               "<= 5" if goal else "(none)", pocket / plain <= 5 or not goal,
               f"{run.mistakes / run.epochs:.0f} updates a pass; the margins kept up to date"
               + (", those within their rounding bound of 0 summed again" if number is float else ""))


# ---------------------------------------------------------------------------
# P9-P12: the refinements (averages, votes, the joint pocket) against a plain run
# ---------------------------------------------------------------------------

def classes_data(n, d, k, seed, number=int):
    """n examples of d features in k classes around integer centres (0 to 16, as digits' pixels), a tenth of
    the labels drawn at random: never separable."""
    rng = random.Random(seed)
    centres = [[rng.randint(0, 16) for _ in range(d)] for _ in range(k)]
    examples = []
    for _ in range(n):
        c = rng.randrange(k)
        x = [max(0, min(16, v + rng.randint(-6, 6))) for v in centres[c]]
        examples.append(([v / 4 for v in x] if number is float else x, c if rng.random() > 0.1 else rng.randrange(k)))
    return examples


def p16(n, passes, repeats):
    """Averages on big data: average="after" against a plain run on n x 50 noisy floats with a bias, every pass made."""
    examples = noisy_data(n, 50, seed=16, number=float)
    r = ratio(lambda: P.train(examples, bias=True, epochs=passes, average="after", trace=False),
              lambda: P.train(examples, bias=True, epochs=passes, trace=False), repeats)
    report(f"P16 averaged / plain ({n:,} x 50, {passes} passes)", f"{r:.2f}x", "<= 2", r <= 2,
           "floats, bias; sum_t W_t as ints over 2^k")


def p9_p12(passes, repeats):
    examples = noisy_data(569, 30, seed=7, number=float)

    def plain():
        P.train(examples, bias=True, epochs=passes, trace=False)
    size = f"{passes} passes"
    r = ratio(lambda: P.train(examples, bias=True, epochs=passes, average="after", trace=False), plain, repeats)
    report(f"P9 averaged / plain ({size})", f"{r:.2f}x", "<= 2.5", r <= 2.5,
           "569 x 30 floats, bias; sum_t W_t as ints over 2^k")
    r = ratio(lambda: P.train(examples, bias=True, epochs=passes, voted=True, trace=False), plain, repeats)
    report(f"P10 voted / plain ({size})", f"{r:.2f}x", "<= 2.5", r <= 2.5,
           "569 x 30 floats, bias; one copy of w a mistake")
    for number in (int, float):
        data = noisy_data(569, 30, seed=7, number=number)
        voted = P.train(data, bias=True, epochs=passes, voted=True, trace=False)
        r = ratio(lambda: voted.errors(data, "voted"), lambda: P.train(data, bias=True, epochs=passes, trace=False),
                  max(1, repeats // 2))
        report(f"P11 vote's errors / plain, {number.__name__} ({size})", f"{r:.1f}x", "<= 20", r <= 20,
               f"{len(voted.voted):,} hypotheses on 569 examples; a row per example of a mistake"
               + ("" if number is int else ", scores within their rounding bound of 0 summed again"))
    for number in (int, float):
        classes = classes_data(600, 20, 5, seed=12, number=number)
        r = ratio(lambda: P.train_multiclass(classes, update="joint", bias=True, epochs=30, pocket=True, trace=False),
                  lambda: P.train_multiclass(classes, update="joint", bias=True, epochs=30, trace=False),
                  max(1, repeats // 2))
        report(f"P12 joint pocket / plain, {number.__name__} (600 x 20)", f"{r:.1f}x", "<= 5", r <= 5,
               "every class's scores kept up to date")


# ---------------------------------------------------------------------------
# P8: the command line on a large CSV, against csv.reader + a number per cell
# + the API's pass
# ---------------------------------------------------------------------------

def p8(rows, repeats):
    import csv
    import tempfile
    rng = random.Random(8)
    d = 50
    w_star = [rng.uniform(-1, 1) for _ in range(d)]
    script = os.path.join(os.path.dirname(HERE), "perceptron.py")
    with tempfile.TemporaryDirectory() as folder:
        for name, number, options, cell in [("floats", float, [], lambda: repr(rng.uniform(-10, 10))),
                                            ("ints", int, [], lambda: str(rng.randint(-999, 999))),
                                            ("--exact", Fraction, ["--exact"], lambda: repr(rng.uniform(-10, 10)))]:
            path = os.path.join(folder, f"{name.strip('-')}.csv")
            with open(path, "w") as f:
                for _ in range(rows):
                    x = [cell() for _ in range(d)]
                    s = sum(a * float(b) for a, b in zip(w_star, x))
                    f.write(",".join(x) + (",1\n" if s >= 0 else ",-1\n"))

            def floor():  # the same process start (the interpreter, compiling the script), then the reading
                subprocess.run([sys.executable, script, "--version"], check=True, stdout=subprocess.DEVNULL)
                with open(path, newline="") as f:
                    examples = [([number(v) for v in row[:-1]], int(row[-1])) for row in csv.reader(f)]
                P.train(examples, epochs=1, trace=False, rule="margin")

            def command():
                subprocess.run([sys.executable, script, path,
                                "--epochs", "1", "--quiet", "--rule", "margin", *options],
                               check=True, stdout=subprocess.DEVNULL)
            r = ratio(command, floor, repeats)
            report(f"P8 command line / floor, {name} ({rows:,} x {d})", f"{r:.2f}x", "<= 1.5", r <= 1.5,
                   "perceptron.py --version + csv.reader + " + number.__name__ + "() per cell + the API's pass")


# ---------------------------------------------------------------------------
# P5: streaming memory; P6: import cost
# ---------------------------------------------------------------------------

def p5(n):
    def stream():
        rng = random.Random(5)
        for _ in range(n):
            x = [rng.randint(-9, 9) for _ in range(10)]
            yield x, 1 if 3 * x[0] - x[1] + x[2] >= 0 else -1

    if tracemalloc is None:
        report(f"P5 streamed pass, {n:,} examples, peak", "-", "< 1024 KiB", True, "this Python has no tracemalloc")
        return
    model_bytes = sys.getsizeof([0] * 11) + 11 * 28
    tracemalloc.start()
    P.train(stream(), epochs=1, trace=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    beyond = max(0, peak - model_bytes)
    report(f"P5 streamed pass, {n:,} examples, peak", f"{beyond / 1024:.0f} KiB", "< 1024 KiB", beyond < 1 << 20,
           "traced by tracemalloc, beyond the model", enforced=True)


def p6(repeats):
    """The import's CPU time (the child's, by getrusage: a loaded machine's waits do not count; wall time where
    there is no resource module), more than a bare start's."""
    # As a user's import is: from cached bytecode (this environment may say not to write it).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    try:
        import resource
    except ImportError:
        resource = None

    def cpu(code):
        if resource is None:
            return best(lambda: subprocess.run([sys.executable, "-c", code], check=True, cwd=os.path.dirname(HERE),
                                               env=env), 1)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True, cwd=os.path.dirname(HERE), env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    cpu("import perceptron")  # writes the bytecode
    extra = statistics.median(cpu("import perceptron") - cpu("pass") for _ in range(repeats))
    report("P6 import perceptron, more than pass", f"{extra * 1000:.1f} ms", "< 10 ms", extra < 0.010,
           "CPU time, from cached bytecode, the median of runs back to back"
           + ("" if resource else " (wall time: no resource module)"))


# P14: --check of a long trace with one weight changed at its last mistake (a bug at one step), CPU time;
# P17: --check of a run against its own --json --weights, at two lengths (linear in the trace?), and against the run

def traced_run(folder, mistakes):
    """(the data file, the run's --json --weights document, its epochs, the CPU time of that run) on 569 noisy
    Gaussian examples of 30 features, with about ``mistakes`` mistakes."""
    import contextlib
    import io
    import json

    rng = random.Random(14)
    w_star = [rng.gauss(0, 1) for _ in range(30)]
    rows = [[round(rng.gauss(0, 1), 3) for _ in range(30)] for _ in range(569)]
    labels = [1 if sum(map(mul, w_star, x)) + rng.gauss(0, 1.5) > 0 else -1 for x in rows]
    data = os.path.join(folder, "data.csv")
    with open(data, "w") as f:
        f.write("".join(",".join(map(repr, x)) + f",{y}\n" for x, y in zip(rows, labels)))
    epochs = max(1, mistakes * 1200 // 101_563)  # this data makes about 85 mistakes a pass
    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        P.main([data, "--no-header", "--epochs", str(epochs), "--json", "--weights"])
    took = time.process_time() - start
    return data, json.loads(out.getvalue()), epochs, took


def checked(data, epochs, run, folder):
    """(the exit status, the report, the CPU time) of --check of ``run`` written to a file."""
    import contextlib
    import io
    import json

    theirs = os.path.join(folder, "theirs.json")
    with open(theirs, "w") as f:
        json.dump(run, f)
    start = time.process_time()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        status = P.main([data, "--no-header", "--epochs", str(epochs), "--check", theirs])
    return status, out.getvalue(), time.process_time() - start


def p14(mistakes, goal=None):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        data, run, epochs, _ = traced_run(folder, mistakes)
        run["trace"][-1]["weights"][3] += 0.5
        run["weights"] = run["trace"][-1]["weights"]
        status, out, took = checked(data, epochs, run, folder)
    goal = goal or 10 * len(run["trace"]) / 100_000
    report(f"P14 --check, {len(run['trace']):,} mistakes x 30, one step off", f"{took:.1f} s", f"< {goal:.0f} s",
           took < goal and status == 1 and "a bug in THEIRS, at one step" in out, "CPU time")


def p17(mistakes):
    """--check of a run against its own --json --weights at mistakes / 10 and at mistakes: the time per mistake of
    the longer against the shorter (linear: 1), and the longer against the run that made it."""
    import tempfile

    times = []
    for size in (mistakes // 10, mistakes):
        with tempfile.TemporaryDirectory() as folder:
            data, run, epochs, made = traced_run(folder, size)
            status, out, took = checked(data, epochs, run, folder)
            assert status == 0, out
            times.append((len(run["trace"]), took, made))
    (m1, t1, _), (m2, t2, made) = times
    r = (t2 / m2) / (t1 / m1)
    report(f"P17 --check of its own --json, {m2:,} / {m1:,} mistakes", f"{r:.2f}x", "<= 1.3", r <= 1.3,
           f"the time per mistake, longer / shorter; {t1:.2f} s and {t2:.2f} s CPU")
    report(f"P17 --check of its own --json / the run, {m2:,} mistakes", f"{t2 / made:.2f}x", "<= 2", t2 / made <= 2,
           f"the run with --json --weights: {made:.2f} s CPU")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, under 30 seconds")
    args = parser.parse_args(argv)
    quick = args.quick
    print(f"perceptron {P.__version__}, {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores, {platform.machine()}{', --quick' if quick else ''}")
    print(f"{'figure':<44} {'value':>10}   {'goal':<15} {'':<7}")
    p1(4000 if quick else 20000, 9 if quick else 15)
    peers(4000 if quick else 20000, 3 if quick else 5)
    p4(300 if quick else 1000, 2 if quick else 5, literal=True)
    if not quick:
        p4(2000, 3, literal=True)
    p15(700 if quick else 2000, 2 if quick else 3)
    p7(100 if quick else 1000)
    p9_p12(20 if quick else 100, 3 if quick else 5)
    p16(4000 if quick else 20000, 10 if quick else 30, 2 if quick else 3)
    p8(10_000 if quick else 100_000, 3 if quick else 3)
    p5(100_000 if quick else 1_000_000)
    p6(5 if quick else 10)
    p13(4000 if quick else 20000, 5, 3)
    exact_cost(500 if quick else 5000, 2 if quick else 3)
    p14(10_000 if quick else 100_000)
    if not quick:
        p14(22_596, goal=10)
    p17(8_740 if quick else 87_400)
    if MISSED:
        print("missed:", ", ".join(MISSED))
    return 1 if MISSED else 0


if __name__ == "__main__":
    sys.exit(main())
