"""Which options of perceptron.py reproduce each peer, checked by ``--check``.

Run in a scratch environment that has the peers (never a dependency of the
project): ``pip install numpy scikit-learn river mlxtend nltk`` in a virtual
environment, then ``python bench/peers.py``.  Each peer is trained on two
seeded data sets, integer and float; its result is written as THEIRS.json
and checked with ``perceptron.py DATA OPTIONS --check THEIRS.json``.  Each
line prints the peer, the data, the options and the verdict's first line
(and the diagnosis, when they differ).  A peer that is not installed is
skipped.  This is the evidence behind the README's table of peers.
"""

import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(HERE), "perceptron.py")
EPOCHS = 5


def data_sets(n=60, d=4):
    """(name, X, y, csv text): integers labelled by a random w* (separable), and noisy floats."""
    rng = random.Random(7)
    w_star = [rng.randint(-3, 3) or 1 for _ in range(d)]
    ints = []
    while len(ints) < n:
        x = [rng.randint(-9, 9) for _ in range(d)]
        m = sum(a * b for a, b in zip(w_star, x))
        if m:
            ints.append((x, 1 if m > 0 else -1))
    floats = [([rng.gauss(0, 1) for _ in range(d)], rng.choice((-1, 1))) for _ in range(n)]
    wide = [([rng.gauss(0, 1) for _ in range(30)], rng.choice((-1, 1))) for _ in range(200)]
    for name, rows in (("int", ints), ("float", floats), ("float 200x30", wide)):
        text = "".join(",".join(map(repr, x)) + f",{y}\n" for x, y in rows)
        yield name, [x for x, _ in rows], [y for _, y in rows], text


def check(name, kind, text, theirs, options, folder):
    data, path = os.path.join(folder, f"{kind}.csv"), os.path.join(folder, "theirs.json")
    with open(data, "w") as f:
        f.write(text)
    with open(path, "w") as f:
        json.dump(theirs, f)
    done = subprocess.run([sys.executable, SCRIPT, data, *options, "--check", path], capture_output=True, text=True)
    lines = (done.stdout or done.stderr).splitlines()
    verdict = "agrees" if done.returncode == 0 else "differs" if done.returncode == 1 else "error"
    diagnosis = next((line for line in lines if line.startswith("diagnosis")), "")
    print(f"{name:36} {kind:12} {' '.join(options):48} {verdict:8} {diagnosis}")


def sklearn_perceptron(X, y):
    from sklearn.linear_model import Perceptron

    model = Perceptron(shuffle=False, tol=None, max_iter=EPOCHS, eta0=1.0).fit(X, y)
    return {"weights": [*map(float, model.coef_[0]), float(model.intercept_[0])]}


def sklearn_sgd(X, y):
    import warnings

    from sklearn.linear_model import SGDClassifier

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None, shuffle=False,
                              tol=None, max_iter=EPOCHS).fit(X, y)
    return {"weights": [*map(float, model.coef_[0]), float(model.intercept_[0])]}


def sklearn_sgd_averaged(X, y):
    import warnings

    from sklearn.linear_model import SGDClassifier

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = SGDClassifier(loss="perceptron", learning_rate="constant", eta0=1.0, penalty=None, shuffle=False,
                              tol=None, max_iter=EPOCHS, average=True).fit(X, y)
    w = [*map(float, model.coef_[0]), float(model.intercept_[0])]
    return {"weights": None, "average": w}  # coef_ is the average


def river_perceptron(X, y):
    from river import linear_model

    model = linear_model.Perceptron()
    for _ in range(EPOCHS):
        for x, label in zip(X, y):
            model.learn_one(dict(enumerate(x)), label == 1)
    return {"weights": [model.weights.get(i, 0.0) for i in range(len(X[0]))] + [model.intercept]}


def mlxtend_perceptron(X, y):
    """One epoch from w = 0 (its own start is random), in the order of its permutation."""
    import numpy as np
    from mlxtend.classifier import Perceptron

    model = Perceptron(eta=0.5, epochs=1, random_seed=1)
    model.w_, model.b_, model.cost_ = np.zeros((len(X[0]), 1)), np.zeros(1), []
    model.fit(np.array(X, dtype=float), np.array([(v + 1) // 2 for v in y]), init_params=False)
    order = np.random.RandomState(1).permutation(len(X))
    return {"weights": [*map(float, model.w_[:, 0]), float(model.b_[0])]}, order


def np_sign_code(X, y):
    """The most common course code: `if np.sign(w @ x) != y: w += y * x`."""
    import numpy as np

    X, y = np.array(X), np.array(y)
    w = np.zeros(X.shape[1], dtype=X.dtype)
    for _ in range(EPOCHS):
        for x, label in zip(X, y):
            if np.sign(w @ x) != label:
                w = w + label * x
    return {"weights": w.tolist()}


def kernel_gist(X, y):
    """The widely copied kernel perceptron: a Gram matrix, alpha counts, np.sign of sum(K[:, i] * alpha * y)."""
    import numpy as np

    X, y = np.array(X), np.array(y)
    K = (X @ X.T + 1) ** 2
    alpha, trace = np.zeros(len(X)), []
    for t in range(EPOCHS):
        for i in range(len(X)):
            if np.sign(np.sum(K[:, i] * alpha * y)) != y[i]:
                alpha[i] += 1.0
                trace.append({"epoch": t + 1, "index": i})
    return {"weights": None, "trace": trace}


def nltk_averaged(X, y):
    """nltk's AveragedPerceptron driven example by example, without averaging (see the README)."""
    from nltk.tag.perceptron import AveragedPerceptron

    model = AveragedPerceptron()
    model.classes = {"a", "b"}
    for _ in range(EPOCHS):
        for x, label in zip(X, y):
            features = {f"f{i}": 1 for i, v in enumerate(x) if v}
            guess, _ = model.predict(features)  # (label, confidence)
            model.update("b" if label == 1 else "a", guess, features)
    return {"weights": {c: [model.weights.get(f"f{i}", {}).get(c, 0.0) for i in range(len(X[0]))]
                        for c in ("b", "a")}}


def main():
    folder = tempfile.mkdtemp()
    epochs = ["--epochs", str(EPOCHS)]
    for kind, X, y, text in data_sets():
        peers = [("scikit-learn Perceptron", sklearn_perceptron, ["--rule", "margin", "--bias", *epochs]),
                 ("scikit-learn SGDClassifier", sklearn_sgd, ["--rule", "margin", "--bias", *epochs]),
                 ("scikit-learn SGDClassifier averaged", sklearn_sgd_averaged,
                  ["--rule", "margin", "--bias", "--average", "after", *epochs, "--tolerance", "1e-9"]),
                 ("river Perceptron", river_perceptron, ["--rule", "margin", "--bias", *epochs]),
                 ("np.sign course code", np_sign_code, ["--rule", "margin", *epochs]),
                 ("kernel perceptron gist", kernel_gist, ["--kernel", "polynomial:2", "--rule", "margin", *epochs])]
        for name, peer, options in peers:
            try:
                theirs = peer(X, y)
            except ImportError:
                print(f"{name:36} {kind:12} not installed")
                continue
            check(name, kind, text, theirs, options, folder)
        try:
            theirs, order = mlxtend_perceptron(X, y)
            rows = text.splitlines(keepends=True)
            check("mlxtend Perceptron (1 epoch)", kind, "".join(rows[i] for i in order), theirs,
                  ["--bias", "--epochs", "1"], folder)
        except ImportError:
            print(f"{'mlxtend Perceptron':36} {kind:12} not installed")
        bits = "".join(",".join("1" if v > 0 else "0" for v in x) + f",{'b' if label == 1 else 'a'}\n"
                       for x, label in zip(X, y))
        ordered = "".join(sorted(bits.splitlines(keepends=True), key=lambda r: r[-2] != "b"))
        try:
            theirs = nltk_averaged([[1 if v > 0 else 0 for v in x] for x in X], y)
        except ImportError:
            print(f"{'nltk AveragedPerceptron':36} {kind:12} not installed")
            continue
        # nltk's tie goes to the greatest label: "b" first in the file makes it ours too
        Xb = [[int(v) for v in r.split(",")[:-1]] for r in ordered.splitlines()]
        yb = [1 if r.endswith("b") else -1 for r in ordered.splitlines()]
        check("nltk AveragedPerceptron (no average)", kind, ordered, nltk_averaged(Xb, yb),
              ["--multiclass", "joint", *epochs], folder)


if __name__ == "__main__":
    main()
