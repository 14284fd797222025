#!/usr/bin/env python3
"""Whole real models, exported there with torch's two ONNX exporters.

run_models.sh splits the whole suite into device calls of under 10 minutes.

Runs on the GPU machine (torch, torchvision, transformers, onnx). Each model
is built with random weights (seed 0) in eval mode and exported with the
TorchScript exporter at opset 17 and with `dynamo=True` at opset 20.

  models.py export DIR [--tiny] [--only NAME,...]
      Writes DIR/NAME.EXPORTER.onnx for every model and exporter that torch
      manages, and DIR/export.txt listing what was written or why not, with
      each model's op histogram. --tiny shrinks every model's widths and
      depths while keeping its graph's structure, so the exports are small
      enough to carry back to the build machine as importer test inputs.

  models.py run BRRRC DIR [--only ...] [--exporters ...] [--dtypes fp32,fp16]
                [--batches 1,32] [--peers eager,compile,graphs] [--tiny]
                [--profile [--profile-top N]] [--peer-profile] [--brrrc-flag=F ...]
                [--variant NAME=FLAG[,FLAG...] ...] [--baseline BRRRC2]
      For every model, exporter, dtype and batch: exports there (fp16 models
      are exported in half precision and compiled with --precision=fp16, so
      f32 stretches an exporter leaves in them multiply in f16 as torch
      does), compiles with BRRRC (compile time and
      the compiler's peak RSS recorded), checks the output against torch's in
      the same dtype on the GPU (relative L2 error; fp32 <= 1e-3 with TF32
      off, fp16 <= 2e-2; both are also shown against the model run in
      float64, and where torch itself misses the tolerance against float64,
      brrr passes within 25% of torch's own error), and times brrr against
      the peers in the same run (median of
      CUDA-event timings after warm-up, host overhead included on every
      side: brrr replays its CUDA graph per call, `graphs` is
      torch.compile(mode="reduce-overhead")). Prints one table row per case
      as it goes; exits non-zero if any case fails to compile or match.
      Each --variant compiles every export once more with extra brrrc
      flags (e.g. --variant serial=--serial-launches), checks it too, and
      times it in alternating rounds with the default build (the median of
      3 rounds' medians each), so that a compile option is compared on one
      export, one set of inputs and the same peers; its rows show the
      exporter as EXPORTER+NAME. --baseline BRRRC2 does the same with
      another compiler (an earlier build's bundle), as EXPORTER+base.
"""

import argparse
import collections
import math
import os
import sys
import tempfile
import traceback

import torch


def _vision(name, tiny):
    import torchvision
    from torchvision.models import convnext, swin_transformer, vision_transformer

    if not tiny:
        return getattr(torchvision.models, name)()
    if name == "resnet50":
        from torchvision.models.resnet import Bottleneck, ResNet
        return ResNet(Bottleneck, [1, 1, 1, 1], width_per_group=16)
    if name == "mobilenet_v2":
        return torchvision.models.mobilenet_v2(width_mult=0.25)
    if name == "efficientnet_b0":
        from torchvision.models import efficientnet
        setting, last = efficientnet._efficientnet_conf(
            "efficientnet_b0", width_mult=0.25, depth_mult=0.25)
        return efficientnet.EfficientNet(setting, 0.2, last_channel=last)
    if name == "convnext_tiny":
        cfg = convnext.CNBlockConfig
        return convnext.ConvNeXt([cfg(16, 32, 1), cfg(32, 64, 1), cfg(64, 128, 1),
                                  cfg(128, None, 1)])
    if name == "vit_b_16":
        return vision_transformer.VisionTransformer(
            image_size=224, patch_size=16, num_layers=2, num_heads=2,
            hidden_dim=64, mlp_dim=128)
    if name == "swin_t":
        return swin_transformer.SwinTransformer(
            patch_size=[4, 4], embed_dim=16, depths=[2, 2, 2, 2],
            num_heads=[1, 2, 4, 8], window_size=[7, 7])
    raise ValueError(name)


def _timm(name, tiny):
    """A timm model's pooled features (num_classes=0): a randomly initialized
    classifier may be zero, which would make every check pass."""
    import timm

    if tiny:
        raise ValueError(f"{name}: no tiny timm variant")
    return timm.create_model(name, pretrained=False, num_classes=0)


def _text(name, tiny):
    import transformers as tf

    small = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=128, vocab_size=1000)
    if name == "bert":
        cfg = tf.BertConfig(**small) if tiny else tf.BertConfig()
        return tf.BertModel(cfg)
    if name == "bert_cls":
        # The pooler reads the [CLS] token: x[:, 0] over the sequence.
        cfg = tf.BertConfig(**small) if tiny else tf.BertConfig()
        cfg.num_labels = 16
        return tf.BertForSequenceClassification(cfg)
    if name == "gpt2_next":
        # The next token's logits only, as generation's prefill computes
        # them: the LM head over x[:, -1:].
        cfg = (tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=1000)
               if tiny else tf.GPT2Config())
        return _LastLogits(tf.GPT2LMHeadModel(cfg))
    if name == "distilbert":
        cfg = (tf.DistilBertConfig(dim=64, n_layers=2, n_heads=4, hidden_dim=128,
                                   vocab_size=1000) if tiny else tf.DistilBertConfig())
        return tf.DistilBertModel(cfg)
    if name == "gpt2":
        cfg = (tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=1000)
               if tiny else tf.GPT2Config())
        return tf.GPT2Model(cfg)
    if name == "llama":
        cfg = tf.LlamaConfig(
            **(dict(small, num_key_value_heads=2) if tiny else dict(
                hidden_size=2048, num_hidden_layers=4, num_attention_heads=32,
                num_key_value_heads=4, intermediate_size=5632, vocab_size=32000)))
        return tf.LlamaModel(cfg)
    if name == "vit":
        cfg = (tf.ViTConfig(**{k: v for k, v in small.items() if k != "vocab_size"})
               if tiny else tf.ViTConfig())
        return tf.ViTModel(cfg)
    if name == "t5_encoder":
        cfg = (tf.T5Config(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4,
                           vocab_size=1000) if tiny else tf.T5Config())
        return tf.T5EncoderModel(cfg)
    raise ValueError(name)


class _LastLogits(torch.nn.Module):
    """A causal LM's logits at the last position only (`logits_to_keep=1`)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(ids, logits_to_keep=1).logits


class _Outputs(torch.nn.Module):
    """A model returning its first output as a plain tensor: a transformers
    model's first field, a segmentation model's "out"."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, *args):
        out = self.model(*args)
        if isinstance(out, torch.Tensor):
            return out
        if isinstance(out, dict) and "out" in out:
            return out["out"]
        return out[0]


# name: (builder, input kind, sequence length)
MODELS = {
    "resnet50": (_vision, "image", None),
    "mobilenet_v2": (_vision, "image", None),
    "efficientnet_b0": (_vision, "image", None),
    "convnext_tiny": (_vision, "image", None),
    "vit_b_16": (_vision, "image", None),
    "swin_t": (_vision, "image", None),
    # Architectures a new user found failing or slow (full size only).
    "densenet121": (_vision, "image", None),
    "resnext50_32x4d": (_vision, "image", None),
    "resnext101_32x8d": (_vision, "image", None),
    "regnet_y_1_6gf": (_vision, "image", None),
    "mixer_b16_224": (_timm, "image", None),
    "bert": (_text, "tokens+mask", 128),
    "distilbert": (_text, "tokens+mask", 128),
    "bert_cls": (_text, "tokens+mask", 128),
    "gpt2_next": (_text, "tokens", 512),
    "gpt2": (_text, "tokens", 512),
    "llama": (_text, "tokens", 512),
    "vit": (_text, "image", None),
    "t5_encoder": (_text, "tokens", 128),
}
EXPORTERS = {"torchscript": 17, "dynamo": 20}


def _image_size(kind):
    """The side of an "image" or "image@N" input (224 unless named)."""
    return int(kind.partition("@")[2] or 224)


def build(name, tiny=False, batch=1, seed=0):
    """(module in eval mode, example inputs, input names) for one model.
    Input kinds: "image" (3 x 224 x 224) or "image@N" (3 x N x N),
    "tokens" and "tokens+mask" (`seq` of them), "features@C,T" (C x T, an
    audio encoder's spectrogram) and "waveform@T"."""
    builder, kind, seq = MODELS[name]
    torch.manual_seed(seed)
    model = builder(name, tiny)
    side = _image_size(kind) if kind.startswith("image") else 0
    with torch.no_grad():
        # Batch norm statistics from random images: with the initial ones
        # (mean 0, variance 1) MobileNetV2's activations vanish, its output
        # is ~1e-8 and every comparison would pass.
        if any(isinstance(mod, torch.nn.BatchNorm2d) for mod in model.modules()):
            for mod in model.modules():
                if isinstance(mod, torch.nn.BatchNorm2d):
                    mod.reset_running_stats()
                    mod.momentum = None  # cumulative average
            # On the GPU where there is one: on the CPU, with other models
            # side by side (zoo.py check), the large ones took minutes.
            dev = "cuda" if torch.cuda.is_available() else "cpu"
            model.to(dev).train()
            for _ in range(4):
                model(torch.randn(8, 3, side or 224, side or 224, device=dev))
            model.cpu()
    model.eval()
    with torch.no_grad():
        # Zero-initialized heads (torchvision's ViT) would make every output
        # equal to its bias and the check vacuous.
        for param in model.parameters():
            if param.dim() >= 2 and not param.any():
                param.normal_(0, 0.02)
    if builder is not _vision:
        model = _Outputs(model).eval()
    if kind.startswith("image"):
        return model, (torch.randn(batch, 3, side, side),), ["pixels"]
    if kind.startswith("features@"):
        c, t = (int(v) for v in kind.partition("@")[2].split(","))
        return model, (torch.randn(batch, c, t),), ["features"]
    if kind.startswith("waveform@"):
        return model, (torch.randn(batch, int(kind.partition("@")[2])),), ["waveform"]
    vocab = 1000 if tiny else 30000
    ids = torch.randint(0, vocab, (batch, seq))
    if kind == "tokens":
        return model, (ids,), ["input_ids"]
    mask = torch.ones(batch, seq, dtype=torch.int64)
    mask[:, seq * 3 // 4:] = 0  # padded tail: the mask takes effect
    return model, (ids, mask), ["input_ids", "attention_mask"]


def export(model, args, names, path, exporter):
    # One file, unless the weights are near protobuf's 2 GiB: their data
    # then lies beside it (RegNetY-128GF's export failed to serialize).
    weights = sum(t.numel() * t.element_size()
                  for t in list(model.parameters()) + list(model.buffers()))
    extra = {"external_data": weights > 2 ** 30} if exporter == "dynamo" else {}
    with torch.no_grad():
        torch.onnx.export(model, args, path, input_names=names, output_names=["y"],
                          opset_version=EXPORTERS[exporter],
                          dynamo=exporter == "dynamo", **extra)


def op_histogram(path):
    import onnx

    m = onnx.load(path, load_external_data=False)
    ops = collections.Counter()

    def walk(graph):
        for node in graph.node:
            ops[node.op_type] += 1
            for attr in node.attribute:
                if attr.g.node:
                    walk(attr.g)
    walk(m.graph)
    for fn in m.functions:
        for node in fn.node:
            ops[fn.name + "/" + node.op_type] += 1
    return ops


def cmd_export(opts):
    os.makedirs(opts.dir, exist_ok=True)
    names = opts.only.split(",") if opts.only else list(MODELS)
    with open(os.path.join(opts.dir, "export.txt"), "w") as log:
        for name in names:
            model, args, inputs = build(name, tiny=opts.tiny)
            for exporter in EXPORTERS:
                path = os.path.join(opts.dir, f"{name}.{exporter}.onnx")
                try:
                    export(model, args, inputs, path, exporter)
                    ops = op_histogram(path)
                    line = f"OK    {name}.{exporter} " + " ".join(
                        f"{k}:{v}" for k, v in sorted(ops.items()))
                except Exception as err:  # report and go on with the others
                    msg = str(err).strip().splitlines()
                    line = f"FAIL  {name}.{exporter} {type(err).__name__}: " + (
                        msg[0][:300] if msg else "")
                    traceback.print_exc(file=sys.stderr)
                print(line, flush=True)
                log.write(line + "\n")


TOLERANCE = {"fp32": 1e-3, "fp16": 2e-2}


def compile_model(brrrc, onnx_path, so_path, flags=()):
    """(seconds, peak RSS in GiB, error text or None, kernel families) of one
    brrrc run."""
    import subprocess
    import threading
    import time

    start = time.time()
    proc = subprocess.Popen([brrrc, onnx_path, "-o", so_path, "--report", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # brrrc's own high-water mark, read while it runs: the rusage of a child
    # of this process is no use, as Linux keeps the largest RSS across exec
    # and the child starts as a copy of this (torch-sized) process.
    peak = [0]

    def watch():
        while proc.poll() is None:
            try:
                with open(f"/proc/{proc.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            peak[0] = max(peak[0], int(line.split()[1]))
            except OSError:
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out = proc.stdout.read()
    proc.wait()
    watcher.join()
    seconds = time.time() - start
    err = None
    if proc.returncode != 0:
        lines = [ln for ln in out.splitlines() if "error" in ln] or out.splitlines()[-1:]
        err = (lines[0] if lines else f"exit {proc.returncode}")[:300]
    # --report: "fusion_N  family  precision  flops  bytes ..." per kernel.
    families = {ln.split()[0]: ln.split()[1] for ln in out.splitlines()
                if ln.startswith("fusion_") and len(ln.split()) > 2}
    return seconds, peak[0] / 2**20, err, families


def print_profile(ctx, xs, y, families, top=6):
    """Where brrr's time goes: each kernel family's share of one run timed
    launch by launch (no graph), and its `top` busiest kernels (a kernel's
    launches summed: repeated layers launch one kernel many times)."""
    from bench import launch_ms
    per = {}  # kernel -> [info, ms summed over its launches, launches]
    for info, ms in launch_ms(ctx, *xs, outputs=[y]):
        entry = per.setdefault(info.kernel, [info, 0.0, 0])
        entry[1] += ms
        entry[2] += 1
    total = sum(ms for _, ms, _ in per.values())
    by_family = collections.defaultdict(lambda: [0, 0.0])
    for kernel, (_, ms, n) in per.items():
        fam = by_family[families.get(kernel, "?")]
        fam[0] += n
        fam[1] += ms
    print(f"    profile: {total:.3f} ms in {sum(n for _, _, n in per.values())} launches "
          f"of {len(per)} kernels (launch by launch) " + "  ".join(
        f"{f} {n}x {ms:.3f} ms ({100 * ms / total:.0f}%)"
        for f, (n, ms) in sorted(by_family.items(), key=lambda kv: -kv[1][1])))
    for kernel, (info, ms, n) in sorted(per.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"      {kernel:11s} {families.get(kernel, '?'):9s} {n:3d}x {ms:8.4f} ms "
              f"{n * info.flops / ms / 1e9:8.1f} TFLOP/s {n * info.bytes / ms / 1e6:8.1f} GB/s",
              flush=True)


def rel_err(y, ref):
    y, ref = y.double(), ref.double()
    if not torch.isfinite(y).all():
        return float("inf")
    return ((y - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def export_error(path, xs, ref):
    """The exported file's own error against the float64 reference: the
    export run by onnxruntime's CPU provider (optimizations off) with every
    f16 tensor widened to f32, so that only what the export holds (batch
    norms folded into f16 weights by the exporter, its op choices) differs
    from torch's model. None without onnxruntime."""
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    import numpy as np
    import onnx
    from onnx import TensorProto, numpy_helper

    half, single = TensorProto.FLOAT16, TensorProto.FLOAT
    model = onnx.load(path)

    def widen(t):
        if t.data_type == half:
            t.CopyFrom(numpy_helper.from_array(
                numpy_helper.to_array(t).astype(np.float32), t.name))

    def walk(graph):
        for t in graph.initializer:
            widen(t)
        for v in list(graph.input) + list(graph.output) + list(graph.value_info):
            if v.type.tensor_type.elem_type == half:
                v.type.tensor_type.elem_type = single
        for node in graph.node:
            for a in node.attribute:
                if a.name == "to" and a.i == half:
                    a.i = single
                if a.type == onnx.AttributeProto.TENSOR:
                    widen(a.t)
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)
    walk(model.graph)
    arrays = [(x.float() if x.is_floating_point() else x).cpu().numpy() for x in xs]
    want = ref.cpu()
    from gpu_turns import TURNS
    with TURNS.cpu():
        opts = ort.SessionOptions()
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        # From a file whose weights lie beside it: a widened model of more
        # than 2 GiB does not serialize into one protobuf.
        with tempfile.TemporaryDirectory() as tmp:
            wide = os.path.join(tmp, "wide.onnx")
            onnx.save(model, wide, save_as_external_data=True,
                      location="wide.onnx.data")
            sess = ort.InferenceSession(wide, opts,
                                        providers=["CPUExecutionProvider"])
            feeds = {i.name: a for i, a in zip(sess.get_inputs(), arrays)}
            got = sess.run(None, feeds)[0]
    return rel_err(torch.from_numpy(got), want)


def phase(what):
    """Says on stderr what a case is doing, so that a driver that stops it
    (zoo.py's --timeout) can tell where it was."""
    print(f"phase: {what}", file=sys.stderr, flush=True)


def print_peer_profile(fn, xs, top):
    """Where a torch.compile peer's time goes: its `top` busiest GPU kernels
    over 5 calls (torch.profiler), ms a call, beside brrr's --profile."""
    from torch.profiler import ProfilerActivity, profile
    calls = 5
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn(*xs)
        torch.cuda.synchronize()
    kernels = [e for e in prof.key_averages() if e.device_time_total > 0]
    total = sum(e.device_time_total for e in kernels) / 1e3 / calls
    print(f"    peer profile (torch.compile): {total:.3f} ms a call in "
          f"{len(kernels)} kernels", flush=True)
    for e in sorted(kernels, key=lambda e: -e.device_time_total)[:top]:
        print(f"      {e.count // calls:3d}x {e.device_time_total / 1e3 / calls:8.4f} ms "
              f"{e.key[:100]}", flush=True)


def peer_times(m, xs, peers, profile_top=0):
    """Median ms of torch eager, torch.compile and torch.compile with CUDA
    graphs on the same inputs; with `profile_top`, the compiled peer's
    busiest kernels too (print_peer_profile)."""
    from bench import median_ms
    from gpu_turns import TURNS

    times = {}
    with torch.no_grad():
        for p in peers:
            if p == "eager":
                fn = m
            else:
                torch._dynamo.reset()
                fn = torch.compile(m, mode="reduce-overhead" if p == "graphs" else None)
                for _ in range(3):
                    fn(*xs)
            with TURNS.exclusive():
                times[p] = median_ms(lambda: fn(*xs))
                if profile_top and p == "compile":
                    print_peer_profile(fn, xs, profile_top)
    torch._dynamo.reset()
    return times


def cmd_run(opts):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import brrr
    from bench import median_ms
    from gpu_turns import TURNS

    TURNS.start()

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.makedirs(opts.dir, exist_ok=True)
    names = opts.only.split(",") if opts.only else list(MODELS)
    peers = [p for p in opts.peers.split(",") if p]
    variants = []  # (label, compiler, extra flags)
    if opts.baseline:
        variants.append(("base", opts.baseline, []))
    for v in opts.variant:
        label, _, flags = v.partition("=")
        if not label or not flags:
            sys.exit(f"--variant {v!r}: expected NAME=FLAG[,FLAG...]")
        variants.append((label, opts.brrrc, flags.split(",")))
    print(f"device: {torch.cuda.get_device_name()}  torch {torch.__version__}", flush=True)
    head = (f"{'model':16s} {'exporter':11s} {'dtype':5s} {'b':>3s} {'compile s':>9s} "
            f"{'RSS GiB':>7s} {'vs torch':>9s} {'brrr/f64':>9s} {'torch/f64':>9s} "
            f"{'brrr ms':>8s}"
            + "".join(f" {p + ' ms':>11s}" for p in peers)
            + (f" {'brrr/graphs':>11s}" if "graphs" in peers else ""))
    print(head, flush=True)
    failures = 0
    for name in names:
        for batch in [int(b) for b in opts.batches.split(",")]:
            model, args, inputs = build(name, tiny=opts.tiny, batch=batch)
            with torch.no_grad():
                phase(f"{name} float64 reference")
                ref = model.double().cuda()(*[a.double() if a.is_floating_point() else a
                                              for a in (x.cuda() for x in args)])
            # timm's LeViT and EfficientFormer keep their attention biases
            # in a cache in eval mode, which .to() does not convert; a turn
            # in train mode empties it.
            model.train()
            model.eval()
            for dtype in opts.dtypes.split(","):
                dt = torch.float16 if dtype == "fp16" else torch.float32
                m = model.to(dt).cuda().eval()
                xs = [a.to(dt).cuda() if a.is_floating_point() else a.cuda() for a in args]
                with torch.no_grad():
                    same = m(*xs)
                torch_err = rel_err(same, ref)
                times = {}
                for exporter in opts.exporters.split(","):
                    case = f"{name:16s} {exporter:11s} {dtype:5s} {batch:3d}"
                    path = os.path.join(opts.dir, f"{name}.{exporter}.{dtype}.b{batch}.onnx")
                    try:
                        phase(f"{name} {exporter} {dtype} export")
                        with TURNS.cpu():
                            export(m, tuple(xs), inputs, path, exporter)
                    except Exception as err:  # torch could not export it
                        msg = str(err).strip().splitlines()
                        print(f"{case} EXPORT FAILED {type(err).__name__}: "
                              f"{msg[0][:160] if msg else ''}", flush=True)
                        continue
                    # An f16 model compiles with --precision=fp16: TorchScript's
                    # f16 exports upcast attention to f32 and never cast back,
                    # and without it those f32 products keep f32 accuracy
                    # (3xTF32) where torch multiplies in f16.
                    flags = ["--precision=fp16"] if dtype == "fp16" else []
                    flags += opts.brrrc_flag
                    builds = []  # (row start, context, output, failure note, profile)
                    for label, brrrc, extra in [("", opts.brrrc, [])] + variants:
                        built = exporter + ("+" + label if label else "")
                        vcase = f"{name:16s} {built:11s} {dtype:5s} {batch:3d}"
                        so = path[:-5] + (f".{label}" if label else "") + ".so"
                        phase(f"{name} {exporter} {dtype} compile")
                        with TURNS.cpu():
                            seconds, rss, err, families = compile_model(
                                brrrc, path, so, flags + extra)
                        if err:
                            failures += 1
                            print(f"{vcase} {seconds:9.1f} {rss:7.2f} COMPILE FAILED {err}",
                                  flush=True)
                            continue
                        lib = brrr.load(so)
                        ctx = lib.context()
                        # The exporter may declare another output type than
                        # torch returns (TorchScript's f16 layer norms end in
                        # f32).
                        out_dt = getattr(torch, lib.outputs[0].dtype)
                        y = torch.full(tuple(ref.shape), float("nan"), dtype=out_dt,
                                       device="cuda")
                        ctx.run(*xs, outputs=[y])
                        torch.cuda.synchronize()
                        e = rel_err(y, same)
                        e64 = rel_err(y, ref)
                        # Within the tolerance of torch in the same dtype, or,
                        # where torch itself misses it against float64 (f16
                        # MobileNetV2: 1.8e-2), within 25% of torch's own
                        # error. A zero reference would make any zero output
                        # pass.
                        ok = (e <= TOLERANCE[dtype] or
                              e64 <= max(TOLERANCE[dtype], 1.25 * torch_err)) and \
                            bool(same.double().norm() > 0)
                        # Otherwise, where the export itself is further from
                        # float64 than torch's model (an exporter folds
                        # batch norms into f16 weights): within 25% of the
                        # two errors combined, as independent errors add.
                        exported = None
                        if not ok and math.isfinite(torch_err) and \
                                bool(same.double().norm() > 0):
                            exported = export_error(path, xs, ref)
                            ok = exported is not None and \
                                e64 <= 1.25 * math.hypot(torch_err, exported)
                        failures += not ok
                        fail = "" if ok else (
                            f"  FAIL (norms: brrr {y.double().norm():.3g}, "
                            f"torch {same.double().norm():.3g}, f64 {ref.norm():.3g}"
                            + (f"; the export in f32 {exported:.2e} from f64"
                               if exported is not None else "") + ")")
                        if ok and exported is not None:
                            print(f"{vcase} note: within the export's own error, "
                                  f"{exported:.2e} from f64 (onnxruntime, f32)", flush=True)
                        profile = (lambda c=ctx, yy=y, fam=families: print_profile(
                            c, xs, yy, fam, opts.profile_top)) if opts.profile else None
                        os.remove(so)
                        builds.append((f"{vcase} {seconds:9.1f} {rss:7.2f} {e:9.2e} "
                                       f"{e64:9.2e} {torch_err:9.2e}", ctx, y, fail,
                                       profile))
                    # A failed case keeps its export, for a look at what failed.
                    if len(builds) == 1 + len(variants) and not any(b[3] for b in builds):
                        os.remove(path)
                    # One build: one timing, as before; several: alternating
                    # rounds, so that the card's drift falls on all alike.
                    phase(f"{name} {exporter} {dtype} time")
                    rounds = 3 if len(builds) > 1 else 1
                    samples = [[] for _ in builds]
                    for _ in range(rounds):
                        for k, (_, c, yy, _, _) in enumerate(builds):
                            with TURNS.exclusive():
                                samples[k].append(median_ms(
                                    lambda c=c, yy=yy: c.run(*xs, outputs=[yy])))
                    if builds and not times:  # the peers once per model, dtype and batch
                        phase(f"{name} {dtype} peers {','.join(peers)}")
                        times = peer_times(m, xs, peers,
                                           opts.profile_top if opts.peer_profile else 0)
                    for (start, _, _, fail, profile), ts in zip(builds, samples):
                        t = sorted(ts)[len(ts) // 2]
                        row = f"{start} {t:8.3f}"
                        row += "".join(f" {times[p]:11.3f}" for p in peers)
                        if "graphs" in times:
                            row += f" {t / times['graphs']:11.2f}"
                        print(row + fail, flush=True)
                        if profile:
                            profile()
                    builds = None
                del m
                torch.cuda.empty_cache()
    sys.exit(1 if failures else 0)


def make_parser():
    """The command line of `export` and `run` (zoo.py parses its runs with
    it too, so that every option has its default there)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("export")
    p.add_argument("dir")
    p.add_argument("--tiny", action="store_true")
    p.add_argument("--only")
    p = sub.add_parser("run")
    p.add_argument("brrrc")
    p.add_argument("dir")
    p.add_argument("--only")
    p.add_argument("--exporters", default="torchscript,dynamo")
    p.add_argument("--dtypes", default="fp32,fp16")
    p.add_argument("--batches", default="1")
    p.add_argument("--peers", default="eager,compile,graphs")
    p.add_argument("--tiny", action="store_true")
    p.add_argument("--profile", action="store_true",
                   help="after each row, where brrr's time goes by kernel family")
    p.add_argument("--profile-top", type=int, default=6,
                   help="how many of the busiest kernels --profile lists")
    p.add_argument("--peer-profile", action="store_true",
                   help="with the 'compile' peer, its busiest kernels too "
                        "(torch.profiler, --profile-top of them)")
    p.add_argument("--brrrc-flag", action="append", default=[],
                   help="an extra brrrc flag for every model (repeatable), "
                        "e.g. --brrrc-flag=--persistent")
    p.add_argument("--baseline", metavar="BRRRC",
                   help="also compile every export with this other brrrc (an "
                        "earlier build) and time it against BRRRC in "
                        "alternating rounds; its rows show EXPORTER+base")
    p.add_argument("--variant", action="append", default=[],
                   help="also compile every export with these brrrc flags and "
                        "time it against the default build in alternating "
                        "rounds (repeatable), e.g. --variant serial=--serial-launches")
    return parser


def main():
    opts = make_parser().parse_args()
    if opts.cmd == "export":
        cmd_export(opts)
    else:
        cmd_run(opts)


if __name__ == "__main__":
    main()
