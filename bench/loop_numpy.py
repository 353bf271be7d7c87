# loop_numpy.py: the same loop on NumPy arrays
import json, sys
import numpy as np
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, ndmin=2)
w, trace = np.zeros(data.shape[1] - 1), []
for epoch in range(1, 1001):
    before = len(trace)
    for i, (x, y) in enumerate(zip(data[:, :-1], data[:, -1])):
        s = w @ x
        if (1 if s >= 0 else -1) != y:
            w = w + y * x
            trace.append({"epoch": epoch, "index": i, "score": float(s), "weights": w.tolist()})
    if len(trace) == before:
        break
print(json.dumps({"weights": w.tolist(), "trace": trace, "epochs": epoch, "converged": len(trace) == before}))
