#!/usr/bin/env python3
"""Imports every model of the ONNX backend test data with brrrc.

Each model must either import or fail with a diagnostic: a signal, an
assertion, a hang or an exit without an `error:` line is a defect. Prints the
counts and the ops that most often stop an import; exits non-zero on any
defect. Usage: backend_sweep.py BRRRC DATA_DIR [--jobs N] [--timeout S]
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys


def run_one(brrrc, model, timeout):
    try:
        proc = subprocess.run(
            [brrrc, model, "--emit=brrr", "-o", os.devnull],
            capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return model, "hang", ""
    if proc.returncode == 0:
        return model, "imported", ""
    if proc.returncode == 1 and "error:" in proc.stderr:
        return model, "diagnosed", proc.stderr
    return model, "crash", f"exit {proc.returncode}\n{proc.stderr[-2000:]}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("brrrc")
    parser.add_argument("data_dir")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()

    models = sorted(
        os.path.join(root, "model.onnx")
        for root, _, files in os.walk(args.data_dir) if "model.onnx" in files)
    if not models:
        print(f"no models under {args.data_dir}", file=sys.stderr)
        return 1

    counts = collections.Counter()
    blockers = collections.Counter()
    defects = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_one, args.brrrc, m, args.timeout)
                   for m in models]
        for future in concurrent.futures.as_completed(futures):
            model, outcome, detail = future.result()
            counts[outcome] += 1
            if outcome in ("crash", "hang"):
                defects.append((model, outcome, detail))
            for op in set(re.findall(r"unsupported op '([^']+)'", detail)):
                blockers[op] += 1

    print(f"models: {len(models)}")
    for outcome in ("imported", "diagnosed", "crash", "hang"):
        print(f"{outcome}: {counts[outcome]}")
    print("most frequent unsupported ops:",
          ", ".join(f"{op} ({n})" for op, n in blockers.most_common(15)))
    for model, outcome, detail in sorted(defects):
        print(f"DEFECT {outcome}: {model}\n{detail}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
