"""Checks the rotary tables brrr-evaluate-constants stored for
rotary-positions.onnxtext: the printed module (brrrc --emit=kernels
--print-weights) holds two evaluated blobs of f16, cos and sin of
positions 0..N-1 times the model's 16 frequencies, each repeated twice
along the row, computed in float64 from the f32 products and rounded to
f32, then f16 (as the model's Cast). Prints the rows and whether each
matches bit for bit.

    check_rotary_tables.py MODULE.mlir ROWS
"""

import re
import sys

import numpy as np

text = open(sys.argv[1]).read()
rows = int(sys.argv[2])
inv = np.array([1.0, 0.562341325, 0.316227766, 0.177827941, 0.1, 0.0562341325,
                0.0316227766, 0.0177827941, 0.01, 0.00562341325, 0.00316227766,
                0.00177827941, 0.001, 0.000562341325, 0.000316227766,
                0.000177827941], np.float32)
freqs = (np.arange(rows, dtype=np.float32)[:, None] * inv[None, :]).astype(np.float32)
emb = np.concatenate([freqs, freqs], -1).astype(np.float64)
want = {"cos": np.cos(emb).astype(np.float32).astype(np.float16),
        "sin": np.sin(emb).astype(np.float32).astype(np.float16)}
blobs = re.findall(r'(evaluated\w*): "0x([0-9A-Fa-f]+)"', text)
print("tables:", len(blobs))
for name, hexdata in blobs:
    # A blob's first 4 bytes are its alignment.
    got = np.frombuffer(bytes.fromhex(hexdata)[4:], dtype=np.float16)
    print(name, "rows:", got.size // 32, " ".join(
        f"{k}: {'exact' if got.size == w.size and (got == w.ravel()).all() else 'differs'}"
        for k, w in want.items()))
