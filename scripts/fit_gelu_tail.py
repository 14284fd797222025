#!/usr/bin/env python3
"""The f16 GELU's tail polynomial (kGeluHalfTail in
compiler/CodeGen/PointwiseArithmetic.h): log2 Q(z), Q(z) = erfc(z / sqrt(2)) / 2
the normal tail's probability, fitted by a degree-8 polynomial on [0, 7]
(least squares reweighted towards the largest errors, Lawson's way, so the
fit approaches minimax), in float64, printed as f32 hex literals, highest
degree first. GeluArithmeticTest checks the result over every f16 input.

    /usr/bin/python3 scripts/fit_gelu_tail.py
"""

import math
import re

import numpy as np

CAP, DEGREE = 7.0, 8


def main():
    z = np.linspace(0.0, CAP, 4001)
    y = np.array([math.log2(0.5 * math.erfc(v / math.sqrt(2))) for v in z])
    v = np.vander(z, DEGREE + 1)
    w = np.ones_like(z)
    for _ in range(60):
        c, *_ = np.linalg.lstsq(v * w[:, None], y * w, rcond=None)
        err = np.abs(v @ c - y)
        w = w * (err / err.max() + 1e-3) ** 0.5
        w /= w.max()
    print(f"max |error| of log2 Q on [0, {CAP}]: {np.abs(v @ c - y).max():.2e}")
    print(", ".join(re.sub("0+p", "p", float(np.float32(x)).hex()) + "f"
                    for x in c))


if __name__ == "__main__":
    main()
