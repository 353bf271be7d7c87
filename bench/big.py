"""A million rows as a user runs them: python3 bench/big.py [--rows N] [--folder DIR]

The default report (no option but --epochs) on N x 10 float rows (10^6 by default, about 96 MB, written once into
DIR, /tmp by default), for 3 and for 10 passes: the seconds and the maximum resident memory of each command, then
a run on a terminal (a pseudo-terminal for standard error) interrupted by Ctrl-C two seconds into its training,
with the seconds from its first progress line and from the Ctrl-C to its exit.  Not run by CI (minutes): the
figures are in bench/README.md.  Standard library only; Linux or macOS (wait4, a pseudo-terminal).
"""

import argparse
import os
import pty
import random
import select
import signal
import subprocess
import sys
import time

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "perceptron.py")


def data(path, rows, seed=0):
    """rows x 10 floats (6 decimals) and a label -1/1 of a noisy hyperplane: not separable, so every pass errs."""
    if os.path.exists(path) and sum(1 for _ in open(path)) == rows + 1:
        return
    rng = random.Random(seed)
    w = [rng.uniform(-1, 1) for _ in range(10)]
    with open(path + ".part", "w") as f:
        f.write(",".join(f"x{i}" for i in range(10)) + ",y\n")
        for _ in range(rows):
            x = [round(rng.uniform(-1, 1), 6) for _ in range(10)]
            s = sum(a * b for a, b in zip(w, x)) + rng.gauss(0, 0.3)
            f.write(",".join(f"{v:.6f}" for v in x) + f",{1 if s >= 0 else -1}\n")
    os.replace(path + ".part", path)


def measured(argv):
    """(seconds, maximum resident memory in MB, exit status, the report's last lines) of one command."""
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, SCRIPT, *argv], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return (time.monotonic() - start, usage.ru_maxrss * scale / 1e6, os.waitstatus_to_exitcode(status),
            out.decode().splitlines()[-3:])


def interrupted(argv, after=2.0):
    """(seconds to the first progress line on the terminal, to training's; from the Ctrl-C to the report so far, to
    the exit; the status)."""
    main, terminal = pty.openpty()
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, SCRIPT, *argv], stdout=subprocess.PIPE, stderr=terminal,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(terminal)
    said, first, training = b"", None, None
    while training is None or time.monotonic() < training + after:
        if select.select([main], [], [], 0.05)[0]:
            said += os.read(main, 4096)
            first = first or (time.monotonic() if said else None)
            training = training or (time.monotonic() if b"mistakes so far" in said else None)
    child.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    out = os.read(child.stdout.fileno(), 1 << 20)  # the report so far, written whole at once
    reported = time.monotonic() - stopped
    out += child.stdout.read()
    status = child.wait()
    ended = time.monotonic() - stopped  # the rest: Python freeing the examples kept (millions of objects)
    os.close(main)
    assert b"interrupted (Ctrl-C)" in out, out[-300:]
    return first - start, training - start, reported, ended, status


def main():
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rows", type=int, default=10 ** 6)
    options.add_argument("--folder", default="/tmp")
    args = options.parse_args()
    path = os.path.join(args.folder, f"perceptron-big-{args.rows}.csv")
    data(path, args.rows)
    print(f"{path}: {args.rows:,} rows x 10 features, {os.path.getsize(path) / 1e6:.0f} MB; Python "
          f"{sys.version.split()[0]}")
    print("| command | seconds | max RSS (MB) | status |\n|---|---|---|---|")
    for passes in (3, 10):
        seconds, memory, status, last = measured([path, "--epochs", str(passes)])
        print(f"| `perceptron.py big.csv --epochs {passes}` | {seconds:.0f} | {memory:.0f} | {status} |", flush=True)
    first, training, reported, ended, status = interrupted([path, "--epochs", "1000"])
    print(f"\nOn a terminal: the first progress line after {first:.1f} s (reading), training's after {training:.1f} s; "
          f"Ctrl-C 2 s into training: the report so far after {reported:.2f} s, the exit ({status}) after "
          f"{ended:.2f} s")


if __name__ == "__main__":
    main()
