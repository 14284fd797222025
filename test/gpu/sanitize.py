"""compute-sanitizer over the GPU check corpus, with initialized inputs.

Runs on the GPU machine. Every case of the corpus (kernel cases and the
bundled example models) runs once per tool (memcheck, racecheck,
synccheck, initcheck) under NVIDIA's compute-sanitizer through cpp_run,
with the inputs run_checks.py gives it (the ONNX test data or fresh random
values), so initcheck judges the kernels and not the harness. Prints one
line per case with findings, then per tool: cases run, clean, with errors.
Exit status 1 if any tool reports an error.

    python3 test/gpu/sanitize.py CORPUS CPP_RUN [--tools memcheck,...]
        [--shard K/N] [--jobs J]

--shard K/N runs every N-th case starting at K, so that each device call
stays within its time limit.
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_checks import case_inputs, write_inputs  # noqa: E402

SANITIZER = "/usr/local/cuda/bin/compute-sanitizer"
TOOLS = ["memcheck", "racecheck", "synccheck", "initcheck"]
# memcheck, synccheck and initcheck end with "ERROR SUMMARY: N errors";
# racecheck with "RACECHECK SUMMARY: H hazards displayed (N errors, ...".
SUMMARY = re.compile(r"ERROR SUMMARY: (\d+) error|"
                     r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) error")


def run_under(tool, argv):
    """(errors, excerpt) of one run of the command `argv` under
    compute-sanitizer's `tool`: errors -1 where the run failed (or exited
    non-zero with no error found, e.g. a result that did not match)."""
    cmd = [SANITIZER, "--tool", tool, "--print-limit", "10",
           "--error-exitcode", "86", "--nvtx", "no"]
    if tool == "racecheck":
        cmd += ["--racecheck-report", "hazard"]
    proc = subprocess.run(cmd + argv, capture_output=True, text=True,
                          timeout=600)
    text = proc.stdout + proc.stderr
    m = SUMMARY.search(text)
    errors = int(m.group(1) or m.group(2)) if m else -1
    if errors == 0 and proc.returncode != 0:
        errors = -1
    lines = [ln for ln in text.splitlines() if "MISMATCH" in ln or (
        "=========" in ln and
        ("Invalid" in ln or "Error" in ln or "Race" in ln or
         "Uninitialized" in ln or "Barrier" in ln or "at " in ln))]
    return errors, "\n    ".join(lines[:6]) or text[-400:]


def sanitize(tool, so, inputs, out_dir):
    """(errors, excerpt) of one run of cpp_run under `tool`."""
    return run_under(tool, [ARGS.cpp_run, so, out_dir] + inputs)


def run_case(case, tools, gen_seed):
    d = os.path.join(ARGS.corpus, case)
    meta = json.load(open(os.path.join(d, "case.json")))
    gen = torch.Generator().manual_seed(gen_seed)
    ins, _, _ = case_inputs(d, meta, gen)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_inputs(tmp, ins)
        for tool in tools:
            out = os.path.join(tmp, tool)
            os.mkdir(out)
            results[tool] = sanitize(tool, os.path.join(d, "model.so"), paths,
                                     out)
    return case, results


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("cpp_run")
    p.add_argument("--tools", default=",".join(TOOLS))
    p.add_argument("--shard", default="0/1")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    ARGS = p.parse_args()
    ARGS.cpp_run = os.path.abspath(ARGS.cpp_run)
    tools = ARGS.tools.split(",")
    k, n = (int(x) for x in ARGS.shard.split("/"))
    cases = sorted(os.listdir(ARGS.corpus))[k::n]
    seed = int.from_bytes(os.urandom(4), "little")
    totals = {t: [0, 0] for t in tools}  # runs, clean
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(ARGS.jobs) as pool:
        futures = [pool.submit(run_case, c, tools, seed + i)
                   for i, c in enumerate(cases)]
        for f in concurrent.futures.as_completed(futures):
            case, results = f.result()
            for tool, (errors, excerpt) in results.items():
                totals[tool][0] += 1
                totals[tool][1] += errors == 0
                if errors != 0:
                    bad += 1
                    what = "run failed" if errors < 0 else f"{errors} errors"
                    print(f"FAIL  {tool:9s} {case}: {what}\n    {excerpt}",
                          flush=True)
    for tool in tools:
        runs, clean = totals[tool]
        print(f"{tool}: {runs} cases, {clean} clean, {runs - clean} with errors")
    print(f"shard {ARGS.shard}: seed {seed}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
