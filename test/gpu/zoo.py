#!/usr/bin/env python3
"""The model zoo: many real models tried as a new user would, on the GPU
machine. Every torchvision classification and segmentation model, Hugging
Face architectures (encoders, decoders, the encoders of encoder-decoder
models, vision and audio towers) and timm families, with random weights:
each is exported by both of torch's exporters where torch can, compiled with
the given brrrc, checked against torch and timed against torch.compile
with CUDA graphs in the same run (test/gpu/models.py's `run`, whose rules
and tolerances apply), at batch 1 and 32 in fp16 and batch 1 in fp32.

  zoo.py list [--suite S,...]
      The zoo's models, one per line, with their suite and input kind.
  zoo.py run BRRRC OUT [--shard K/N] [--only NAME,...] [--suite S,...]
             [--exporters ...] [--timeout SECONDS] [--quick [--batch B]]
             [--jobs N] [--deadline SECONDS]
      Runs shard K of N (models dealt round-robin in list order) one model
      per subprocess, each under --timeout (default 240 s, so that a shard of
      a few models fits one device call), and appends every table row, and
      a TIMEOUT row (with the phase the model was in: its float64
      reference, an export, a compile, brrr's timing or the peers') or a
      CRASH row for a model that did not finish, to OUT/zoo.txt. --quick
      runs fp16 at batch --batch (default 1) from dynamo only. With --jobs
      N, N models run side by side: they export and compile at once and
      take turns on the GPU (gpu_turns.py), each timing (brrr's and the
      peers') with the card to itself, though not the host: the others'
      exports and compiles share its cores. No further model starts after
      --deadline seconds (UNREACHED rows). Shards time their peers: run
      them one after another, not side by side (six shards side by side
      stopped every DenseNet and EfficientNet at 200 s).
  zoo.py check BRRRC OUT [--jobs N] [--shard K/N] [--only ...] [--suite ...]
             [--dtype fp16|fp32|bf16] [--batch B] [--exporter dynamo|torchscript]
             [--timeout SECONDS] [--deadline SECONDS]
      Compiles and checks, without timing a peer: each model at one batch
      (default 1), dtype (default fp16) and exporter (default dynamo), N at a time (default 8; the peers' timings are
      what make `run` go one model at a time), each under --timeout. Rows
      go to OUT/check.txt as they finish; once --deadline seconds have
      passed no further model starts, and each one not started gets an
      UNREACHED row, so that a shard cut short still says what it covered.
  zoo.py one BRRRC DIR NAME [--dtypes fp16] [--batches 1] [--exporters dynamo]
             [--peers graphs] [--profile [--profile-top N]] [--variant NAME=FLAGS]
             [--baseline BRRRC2]
      One model in this process (what `run` and `check` start for each):
      models.py's run with the zoo's entry; --peers "" times no peer,
      --profile shows where brrr's time goes, kernel by kernel, and
      --baseline times another brrrc's build of the same export beside it.
  zoo.py launches BRRRC BRRRC2 OUT [--only ...] [--suite ...] [--jobs N]
      Which models two builds compile differently: each selected model is
      exported once (fp16, batch 1, dynamo; N exports side by side, default
      8; no GPU needed), then compiled by both builds with `--report`. One
      line a model (also in OUT/launches.txt) gives each build's kernel
      launches by family, marked where they differ: a fusion change's reach
      over the zoo, before `one --baseline` times the models it touches.
  zoo.py table FILE...
      One table of every timed row in the result files (zoo.txt or
      check.txt), the geometric mean of brrr / torch.compile + CUDA graphs
      over the rows that matched, overall and per suite, how many runs
      compiled and matched (rows of `check` count, untimed), and the
      failures.

The results of full runs are kept under test/gpu/notes/.
"""

import argparse
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# torchvision: every classification model (torchvision.models.list_models
# at run time) and every segmentation model; their input side.
TV_SIDE = {"inception_v3": 299}
TV_SKIP = {
    # 518 x 518 input and 632M parameters: minutes of float64 reference.
    "vit_h_14",
}

# Hugging Face: (zoo name, config class, model class, config keywords,
# input kind, sequence length). Default configs are the base sizes; the
# decoders are cut to a few layers of their real width.
HF = [
    ("hf_bert", "BertConfig", "BertModel", {}, "tokens+mask", 128),
    ("hf_roberta", "RobertaConfig", "RobertaModel", {}, "tokens+mask", 128),
    ("hf_distilbert", "DistilBertConfig", "DistilBertModel", {}, "tokens+mask", 128),
    ("hf_albert", "AlbertConfig", "AlbertModel", {}, "tokens+mask", 128),
    ("hf_electra", "ElectraConfig", "ElectraModel", {}, "tokens+mask", 128),
    ("hf_deberta_v2", "DebertaV2Config", "DebertaV2Model", {}, "tokens+mask", 128),
    ("hf_mpnet", "MPNetConfig", "MPNetModel", {}, "tokens+mask", 128),
    ("hf_xlm_roberta", "XLMRobertaConfig", "XLMRobertaModel", {}, "tokens+mask", 128),
    ("hf_gpt2", "GPT2Config", "GPT2Model", {}, "tokens", 512),
    ("hf_gpt_neo", "GPTNeoConfig", "GPTNeoModel",
     dict(hidden_size=768, num_layers=4, num_heads=12,
          attention_types=[[["global", "local"], 2]]), "tokens", 512),
    ("hf_opt", "OPTConfig", "OPTModel", {}, "tokens", 512),
    ("hf_llama", "LlamaConfig", "LlamaModel",
     dict(hidden_size=2048, num_hidden_layers=4, num_attention_heads=32,
          num_key_value_heads=4, intermediate_size=5632), "tokens", 512),
    ("hf_mistral", "MistralConfig", "MistralModel",
     dict(hidden_size=2048, num_hidden_layers=4, num_attention_heads=16,
          num_key_value_heads=8, intermediate_size=5632), "tokens", 512),
    ("hf_qwen2", "Qwen2Config", "Qwen2Model",
     dict(hidden_size=1536, num_hidden_layers=6, num_attention_heads=12,
          num_key_value_heads=2, intermediate_size=8960), "tokens", 512),
    ("hf_phi3", "Phi3Config", "Phi3Model",
     dict(hidden_size=2048, num_hidden_layers=4, num_attention_heads=32,
          num_key_value_heads=8, intermediate_size=5632), "tokens", 512),
    ("hf_phi", "PhiConfig", "PhiModel",
     dict(hidden_size=2048, num_hidden_layers=4, num_attention_heads=32,
          intermediate_size=8192), "tokens", 512),
    ("hf_t5_encoder", "T5Config", "T5EncoderModel", {}, "tokens", 128),
    ("hf_bart_encoder", "BartConfig", "BartModel", {}, "tokens", 128),
    ("hf_whisper_encoder", "WhisperConfig", "WhisperModel",
     dict(d_model=768, encoder_layers=12, encoder_attention_heads=12,
          encoder_ffn_dim=3072), "features@80,3000", None),
    ("hf_wav2vec2", "Wav2Vec2Config", "Wav2Vec2Model", {}, "waveform@16000", None),
    ("hf_vit", "ViTConfig", "ViTModel", {}, "image", None),
    ("hf_deit", "DeiTConfig", "DeiTModel", {}, "image", None),
    ("hf_beit", "BeitConfig", "BeitModel", {}, "image", None),
    ("hf_swin", "SwinConfig", "SwinModel", {}, "image", None),
    ("hf_convnext", "ConvNextConfig", "ConvNextModel", {}, "image", None),
    ("hf_clip_vision", "CLIPVisionConfig", "CLIPVisionModel",
     dict(patch_size=16), "image", None),
    ("hf_segformer", "SegformerConfig", "SegformerModel", {}, "image", None),
]

# timm families beyond torchvision's, one model each, pooled features.
TIMM = [
    "resnet50d", "seresnext50_32x4d", "regnety_016", "efficientnet_b0",
    "mobilenetv3_large_100", "ghostnet_100", "rexnet_100", "cspdarknet53",
    "dpn68", "xception41", "inception_v4", "res2net50_26w_4s",
    "mixer_b16_224", "resmlp_12_224", "poolformer_s12", "convnext_tiny",
    "vit_small_patch16_224", "deit_small_patch16_224", "swin_tiny_patch4_window7_224",
    "levit_128", "coat_lite_tiny", "efficientformer_l1", "fastvit_t8",
]


def _hf_builder(entry):
    def build(name, tiny):
        import transformers as tf
        _, config, cls, kwargs, _, _ = entry
        model = getattr(tf, cls)(getattr(tf, config)(**kwargs))
        # Encoder-decoder models: their encoder alone.
        return model.get_encoder() if hasattr(model, "get_encoder") and \
            cls in ("BartModel", "WhisperModel") else model
    return build


def _tv_builder(segmentation):
    def build(name, tiny):
        import torchvision
        if segmentation:
            return torchvision.models.get_model(name, weights=None, weights_backbone=None)
        return torchvision.models.get_model(name, weights=None)
    return build


def zoo():
    """[(name, suite, (builder, kind, seq))] in list order."""
    import torchvision

    from models import _timm

    cases = []
    for name in torchvision.models.list_models(module=torchvision.models):
        if name not in TV_SKIP:
            side = TV_SIDE.get(name)
            cases.append((name, "torchvision", (
                _tv_builder(False), f"image@{side}" if side else "image", None)))
    for name in torchvision.models.list_models(module=torchvision.models.segmentation):
        cases.append((name, "segmentation", (_tv_builder(True), "image@520", None)))
    for entry in HF:
        cases.append((entry[0], "huggingface", (_hf_builder(entry), entry[4], entry[5])))
    for name in TIMM:
        cases.append((f"timm_{name}", "timm", (
            lambda n, tiny, m=name: _timm(m, tiny), "image", None)))
    return cases


def select(opts):
    cases = zoo()
    if opts.suite:
        suites = set(opts.suite.split(","))
        cases = [c for c in cases if c[1] in suites]
    if opts.only:
        only = set(opts.only.split(","))
        cases = [c for c in cases if c[0] in only]
    if getattr(opts, "shard", None):
        k, n = (int(v) for v in opts.shard.split("/"))
        if not 0 <= k < n:
            sys.exit(f"--shard {opts.shard}: expected K/N with 0 <= K < N")
        cases = cases[k::n]
    return cases


def cmd_list(opts):
    for name, suite, (_, kind, seq) in select(opts):
        print(f"{name:40s} {suite:13s} {kind}{f' x {seq}' if seq else ''}")


def cmd_one(opts):
    """One model, in this process: models.py's run with the zoo's entry."""
    import models
    entry = {name: spec for name, _, spec in zoo()}[opts.name]
    models.MODELS[opts.name] = entry
    run = models.make_parser().parse_args(
        ["run", opts.brrrc, opts.dir, "--only", opts.name, "--exporters", opts.exporters,
         "--dtypes", opts.dtypes, "--batches", opts.batches, "--peers", opts.peers,
         "--profile-top", str(opts.profile_top)] + (["--profile"] if opts.profile else [])
        + [f"--variant={v}" for v in opts.variant]
        + (["--baseline", opts.baseline] if opts.baseline else []))
    try:
        models.cmd_run(run)  # exits with its status
    except SystemExit as e:
        # Leave at once, the rows printed: torch.compile's pool of compile
        # workers can hold a finishing interpreter past the model's time
        # limit (EfficientNet-B3 printed its timed row, then ran out its
        # 260 s in the phase after, 2026-12-04).
        if e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(e.code if isinstance(e.code, int) else (0 if e.code is None else 1))


def _run_model(cmd, name, timeout, env):
    """Runs one model's subprocess (zoo.py one): (its table rows, what went
    wrong or None, the detail). A timeout keeps the rows printed so far and
    says in which phase it stopped (models.py's last `phase:` line); a crash
    without rows gives stderr's last line."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              cwd=HERE, env=env)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
        phases = [ln for ln in err.splitlines() if ln.startswith("phase: ")]
        stopped_in = phases[-1][len("phase: "):] if phases else "start"
        rows = [ln for ln in out.splitlines() if ln.startswith(name + " ")]
        return rows, "TIMEOUT", f"{timeout} s, in {stopped_in}"
    rows = [ln for ln in proc.stdout.splitlines() if ln.startswith(name + " ")]
    if proc.returncode != 0 and not rows:
        tail = proc.stderr.strip().splitlines()[-1:]
        return rows, "CRASH", tail[0] if tail else str(proc.returncode)
    return rows, None, ""


def _run_one(opts, name, suite, dtypes, batches, exporters, env):
    """One model and pass of `run`, in a subprocess: the lines for zoo.txt."""
    cmd = [sys.executable, os.path.abspath(__file__), "one", opts.brrrc,
           os.path.join(opts.out, "work"), name, "--dtypes", dtypes,
           "--batches", batches, "--exporters", exporters]
    rows, why, detail = _run_model(cmd, name, opts.timeout, env)
    rows = [f"{suite} {ln}" for ln in rows]
    if why:
        rows.append(f"{suite} {name} {dtypes} {why} "
                    f"{detail if why == 'TIMEOUT' else detail[:200]}")
    return rows


def cmd_run(opts):
    import time
    from concurrent.futures import ThreadPoolExecutor, as_completed

    os.makedirs(opts.out, exist_ok=True)
    results = os.path.join(opts.out, "zoo.txt")
    passes = [("fp16", str(opts.batch) if opts.quick else "1,32"), ("fp32", "1")]
    if opts.quick:
        passes = passes[:1]
    exporters = "dynamo" if opts.quick else opts.exporters
    env = dict(os.environ)
    if opts.jobs > 1:
        # Models side by side export and compile at once, and take turns
        # on the GPU: each timing has the card alone (gpu_turns.py). Each
        # gets its share of the cores for torch's threads.
        env.update(BRRR_GPU_TURNS=os.path.join(opts.out, "gpu.turns"),
                   OMP_NUM_THREADS=str(max(1, (os.cpu_count() or 1) // opts.jobs)))
    start = time.time()
    items = [(name, suite, dtypes, batches) for name, suite, _ in select(opts)
             for dtypes, batches in passes]

    def one(item):
        name, suite, dtypes, batches = item
        if time.time() - start > opts.deadline:
            return name, dtypes, [f"{suite} {name} {dtypes} UNREACHED"]
        return name, dtypes, _run_one(opts, name, suite, dtypes, batches, exporters, env)

    with ThreadPoolExecutor(opts.jobs) as pool:
        for fut in as_completed([pool.submit(one, item) for item in items]):
            name, dtypes, rows = fut.result()
            with open(results, "a") as f:
                f.writelines(row + "\n" for row in rows)
            print("\n".join(rows) or f"{name} {dtypes}: no rows", flush=True)


def _check_one(args):
    """One model of `check`, in a subprocess: (name, suite, rows, failure)."""
    name, suite, brrrc, work, timeout, jobs, dtype, batch, exporter = args
    cmd = [sys.executable, os.path.abspath(__file__), "one", brrrc,
           os.path.join(work, name), name, "--dtypes", dtype, "--batches", str(batch),
           "--exporters", exporter, "--peers", ""]
    # Each model's share of the cores: torch's own default (every core, in
    # each of N processes) had the exports and references of ten models
    # side by side take minutes each.
    # Its timing of brrr with the card to itself (gpu_turns.py).
    env = dict(os.environ, OMP_NUM_THREADS=str(max(1, (os.cpu_count() or 1) // jobs)),
               BRRR_GPU_TURNS=os.path.join(work, "gpu.turns"))
    rows, why, detail = _run_model(cmd, name, timeout, env)
    if why == "TIMEOUT":
        return name, suite, [], f"TIMEOUT {detail}"
    if why:
        return name, suite, [], f"CRASH {detail[:300]}"
    return name, suite, rows, None


def cmd_check(opts):
    import time
    from concurrent.futures import ThreadPoolExecutor, as_completed

    os.makedirs(opts.out, exist_ok=True)
    results = os.path.join(opts.out, "check.txt")
    start = time.time()
    cases = select(opts)
    work = os.path.join(opts.out, "work")

    def one(case):
        name, suite = case
        if time.time() - start > opts.deadline:
            return name, suite, [], "UNREACHED"
        return _check_one((name, suite, opts.brrrc, work, opts.timeout, opts.jobs,
                           opts.dtype, opts.batch, opts.exporter))

    with ThreadPoolExecutor(opts.jobs) as pool:
        futures = [pool.submit(one, (name, suite)) for name, suite, _ in cases]
        for fut in as_completed(futures):
            name, suite, rows, failure = fut.result()
            with open(results, "a") as f:
                for row in rows:
                    f.write(f"{suite} {row}\n")
                if failure:
                    f.write(f"{suite} {name} {opts.exporter} {opts.dtype} {opts.batch} "
                            f"{failure}\n")
            print("\n".join(rows) or f"{name}: {failure}", flush=True)


def parse_rows(paths):
    """(timed rows [(suite, name, exporter, dtype, batch, brrr ms, graphs
    ms)], checked rows [(suite, name, exporter, dtype, batch, brrr ms)]
    (matched torch, no peer timed: `check`'s rows), failed lines, lines of
    models not reached)."""
    timed, checked, failed, unreached = [], [], [], []
    for path in paths:
        with open(path) as f:
            for line in f:
                if " note: " in line or not line.strip():
                    continue  # models.py's remark on the row before
                parts = line.split()
                numeric = parts[-1].replace(".", "", 1).isdigit()
                bad = any(w in line for w in ("FAIL", "TIMEOUT", "CRASH"))
                if "UNREACHED" in line:
                    unreached.append(line.rstrip())
                elif not bad and numeric and len(parts) >= 13:
                    suite, name, exporter, dtype, batch = parts[:5]
                    timed.append((suite, name, exporter, dtype, int(batch),
                                  float(parts[-3]), float(parts[-2])))
                elif not bad and numeric and len(parts) == 11:
                    suite, name, exporter, dtype, batch = parts[:5]
                    checked.append((suite, name, exporter, dtype, int(batch),
                                    float(parts[-1])))
                else:
                    failed.append(line.rstrip())
    # A model a later call reached is not unreached.
    reached = {r[1] for r in timed + checked} | {ln.split()[1] for ln in failed}
    unreached = [ln for ln in unreached if ln.split()[1] not in reached]
    return timed, checked, failed, unreached


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def cmd_table(opts):
    ok, checked, failed, unreached = parse_rows(opts.files)
    print(f"| model | suite | exporter | dtype | batch | brrr ms | torch.compile + graphs ms "
          f"| brrr / graphs |\n|---|---|---|---|---|---|---|---|")
    for suite, name, exporter, dtype, batch, ms, graphs in sorted(ok, key=lambda r: r[:5]):
        print(f"| {name} | {suite} | {exporter} | {dtype} | {batch} | {ms:.3f} | "
              f"{graphs:.3f} | {ms / graphs:.2f}x |")
    print()
    for suite in sorted({r[0] for r in ok}):
        ratios = [r[5] / r[6] for r in ok if r[0] == suite]
        print(f"{suite}: geometric mean {geomean(ratios):.3f}x over {len(ratios)} runs")
    print(f"all: geometric mean {geomean([r[5] / r[6] for r in ok]):.3f}x over {len(ok)} "
          f"runs; {len(failed)} failed")
    matched = len(ok) + len(checked)
    print(f"compiled and matched torch: {matched} of {matched + len(failed)} runs "
          f"({len(checked)} without a peer's timing); {len(unreached)} not reached")
    for line in failed:
        print("  " + line)


def _export_fp16(job):
    """Exports one zoo model at fp16, batch 1, with dynamo to `path`: (name,
    path or None, what went wrong). Runs in a worker process."""
    name, path = job
    os.environ["OMP_NUM_THREADS"] = "2"
    sys.path.insert(0, HERE)
    import models
    models.MODELS[name] = {n: spec for n, _, spec in zoo()}[name]
    try:
        model, args, inputs = models.build(name, batch=1)
        xs = tuple(a.half() if a.is_floating_point() else a for a in args)
        models.export(model.half().eval(), xs, inputs, path, "dynamo")
        return name, path, ""
    except Exception as err:  # report and go on with the others
        return name, None, f"{type(err).__name__}: {str(err).strip()[:160]}"


def _launches(brrrc, path):
    """Kernel launches by family in `brrrc --report`'s table, or why not."""
    import collections
    try:
        r = subprocess.run([brrrc, path, "--report", "--precision=fp16"],
                           capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "failed (compile past 600 s)"
    if r.returncode != 0:
        return f"failed ({r.stderr.strip().splitlines()[-1][:120] if r.stderr.strip() else r.returncode})"
    counts = collections.Counter(
        f[1] for f in (ln.split() for ln in r.stdout.splitlines())
        if len(f) > 2 and f[0].startswith("fusion_"))
    return " ".join(f"{k} {v}" for k, v in sorted(counts.items())) + \
        f" (all {sum(counts.values())})"


def cmd_launches(opts):
    from concurrent.futures import ProcessPoolExecutor

    os.makedirs(opts.out, exist_ok=True)
    jobs = [(name, os.path.join(opts.out, f"{name}.onnx")) for name, _, _ in select(opts)]
    with ProcessPoolExecutor(opts.jobs) as pool, \
            open(os.path.join(opts.out, "launches.txt"), "w") as log:
        for name, path, why in pool.map(_export_fp16, jobs):
            if not path:
                line = f"{name:28s} EXPORT FAILED {why}"
            else:
                a, b = _launches(opts.brrrc, path), _launches(opts.brrrc2, path)
                line = f"{name:28s} {a}  |  {b}" + ("" if a == b else "  <== differs")
            print(line, flush=True)
            log.write(line + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("list")
    s.add_argument("--suite")
    s.add_argument("--only")
    s = sub.add_parser("run")
    s.add_argument("brrrc")
    s.add_argument("out")
    s.add_argument("--shard")
    s.add_argument("--suite")
    s.add_argument("--only")
    s.add_argument("--exporters", default="dynamo,torchscript")
    s.add_argument("--timeout", type=int, default=240)
    s.add_argument("--quick", action="store_true")
    s.add_argument("--batch", type=int, default=1,
                   help="with --quick, the batch (default 1)")
    s.add_argument("--jobs", type=int, default=1)
    s.add_argument("--deadline", type=int, default=3600)
    s = sub.add_parser("check")
    s.add_argument("brrrc")
    s.add_argument("out")
    s.add_argument("--shard")
    s.add_argument("--suite")
    s.add_argument("--only")
    s.add_argument("--jobs", type=int, default=8)
    s.add_argument("--timeout", type=int, default=400)
    s.add_argument("--deadline", type=int, default=3600)
    s.add_argument("--dtype", default="fp16", choices=["fp16", "fp32", "bf16"])
    s.add_argument("--batch", type=int, default=1)
    s.add_argument("--exporter", default="dynamo", choices=["dynamo", "torchscript"])
    s = sub.add_parser("one")
    s.add_argument("brrrc")
    s.add_argument("dir")
    s.add_argument("name")
    s.add_argument("--dtypes", default="fp16")
    s.add_argument("--batches", default="1")
    s.add_argument("--exporters", default="dynamo")
    s.add_argument("--peers", default="graphs")
    s.add_argument("--profile", action="store_true",
                   help="where brrr's time goes, kernel by kernel (models.py --profile)")
    s.add_argument("--profile-top", type=int, default=12)
    s.add_argument("--variant", action="append", default=[],
                   help="also compile with these brrrc flags and time it against "
                        "the default build (models.py run's --variant)")
    s.add_argument("--baseline", metavar="BRRRC",
                   help="also time another brrrc's build against this one "
                        "(models.py run's --baseline)")
    s = sub.add_parser("launches")
    s.add_argument("brrrc")
    s.add_argument("brrrc2")
    s.add_argument("out")
    s.add_argument("--suite")
    s.add_argument("--only")
    s.add_argument("--jobs", type=int, default=8)
    s = sub.add_parser("table")
    s.add_argument("files", nargs="+")
    opts = p.parse_args()
    sys.path.insert(0, HERE)
    {"list": cmd_list, "run": cmd_run, "check": cmd_check, "one": cmd_one,
     "launches": cmd_launches, "table": cmd_table}[opts.cmd](opts)


if __name__ == "__main__":
    main()
