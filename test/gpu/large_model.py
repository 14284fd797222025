#!/usr/bin/env python3
"""A model past 2 GiB of weights, end to end, on the GPU machine.

  large_model.py export DIR [--size 2.8b|8b|tiny]
      Builds a Llama-style decoder (random weights, seed 0, fp16) and
      exports it with torch's dynamo exporter, weights as external data:
      DIR/decoder.onnx + DIR/decoder.onnx.data. Sizes: 2.8b is 3072 wide,
      24 layers, 24 heads of 128 with 8 KV heads, MLP 8192, vocabulary
      128256 (5.6 GB); 8b is 4096 wide, 32 layers, MLP 14336 (16 GB).
  large_model.py run BRRRC DIR [--size ...] [--peers graphs,eager]
      Compiles DIR/decoder.onnx with BRRRC (time, peak RSS), opens the
      library (time, weights upload rate), runs prefill (batch 1, 128
      tokens) and checks the logits against torch in fp16 (relative L2
      error), and times brrr (CUDA graph replay) against torch eager and
      torch.compile(mode="reduce-overhead") in the same run: CUDA-event
      medians after warm-up. Prints one table.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

import torch

SIZES = {
    "tiny": dict(hidden_size=256, num_hidden_layers=2, num_attention_heads=4,
                 num_key_value_heads=2, intermediate_size=512, vocab_size=1000),
    "2.8b": dict(hidden_size=3072, num_hidden_layers=24, num_attention_heads=24,
                 num_key_value_heads=8, intermediate_size=8192, vocab_size=128256),
    "8b": dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
               num_key_value_heads=8, intermediate_size=14336, vocab_size=128256),
}
SEQ = 128


class Logits(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(input_ids=ids, use_cache=False).logits


def build(size):
    import transformers as tf
    torch.manual_seed(0)
    cfg = tf.LlamaConfig(**SIZES[size], max_position_embeddings=4096)
    with torch.device("cuda"):
        model = tf.LlamaForCausalLM(cfg).half().eval()
    return Logits(model)


def cmd_export(a):
    os.makedirs(a.dir, exist_ok=True)
    t0 = time.time()
    model = build(a.size)
    params = sum(p.numel() for p in model.parameters())
    ids = torch.zeros(1, SEQ, dtype=torch.int64, device="cuda")
    path = os.path.join(a.dir, "decoder.onnx")
    with torch.no_grad():
        torch.onnx.export(model, (ids,), path, input_names=["input_ids"],
                          output_names=["logits"], dynamo=True, external_data=True,
                          opset_version=20)
    data = sum(os.path.getsize(os.path.join(a.dir, f)) for f in os.listdir(a.dir))
    print(f"exported {a.size}: {params / 1e9:.2f}B parameters, {data / 1e9:.2f} GB "
          f"on disk, {time.time() - t0:.0f} s")


def gpu_ms(fn, iters=20, rounds=5):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        start, end = torch.cuda.Event(True), torch.cuda.Event(True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / iters)
    return statistics.median(times)


def cmd_run(a):
    import brrr
    path = os.path.join(a.dir, "decoder.onnx")
    so = os.path.join(a.dir, "decoder.so")
    t0 = time.time()
    proc = subprocess.run([a.brrrc, path, "-o", so, "--timing"], capture_output=True,
                          text=True)
    compile_s = time.time() - t0
    if proc.returncode:
        print(proc.stderr[-2000:])
        return 1
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    weights = os.path.getsize(path + ".data")
    lib = os.path.getsize(so)
    torch.cuda.synchronize()
    free0 = torch.cuda.mem_get_info()[0]
    t0 = time.time()
    m = brrr.load(so)
    load_s = time.time() - t0
    free1 = torch.cuda.mem_get_info()[0]
    ctx = m.context()
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, SIZES[a.size]["vocab_size"], (1, SEQ), generator=g).cuda()
    out = torch.empty(m.outputs[0].shape, dtype=torch.float16, device="cuda")
    ctx.run(ids, outputs=[out])
    torch.cuda.synchronize()
    ctx.check()
    free2 = torch.cuda.mem_get_info()[0]
    rows = [("compile", f"{compile_s:.1f} s"),
            ("brrrc peak RSS", f"{peak / 1e9:.2f} GB ({peak / weights:.2f}x the "
                               f"{weights / 1e9:.2f} GB of weights)"),
            ("model.so", f"{lib / 1e9:.2f} GB"),
            ("open (map, check, upload)", f"{load_s:.2f} s, "
                                          f"{m.weight_bytes / load_s / 1e9:.1f} GB/s "
                                          "of weights overall"),
            ("device memory", f"weights {m.weight_bytes / 1e9:.2f} GB (the open took "
                              f"{(free0 - free1) / 1e9:.2f} GB), context arena "
                              f"{m.arena_bytes / 1e9:.3f} GB (the first run took "
                              f"{(free1 - free2) / 1e9:.3f} GB)")]
    t_brrr = gpu_ms(lambda: ctx.run(ids, outputs=[out]))
    del ctx, m
    model = build(a.size)
    with torch.no_grad():
        ref = model(ids)
        err = ((out.float() - ref.float()).norm() / ref.float().norm()).item()
        rows.append(("logits vs torch fp16", f"relative L2 error {err:.2e}"))
        rows.append(("prefill, brrr (CUDA graph)", f"{t_brrr:.3f} ms"))
        if "eager" in a.peers:
            rows.append(("prefill, torch eager", f"{gpu_ms(lambda: model(ids)):.3f} ms"))
        if "graphs" in a.peers:
            t0 = time.time()
            compiled = torch.compile(model, mode="reduce-overhead")
            for _ in range(3):
                compiled(ids)
            torch.cuda.synchronize()
            rows.append(("torch.compile(reduce-overhead) warm-up",
                         f"{time.time() - t0:.0f} s"))
            t = gpu_ms(lambda: compiled(ids))
            rows.append(("prefill, torch.compile + CUDA graphs",
                         f"{t:.3f} ms (brrr {t_brrr / t:.2f}x)"))
    print(f"{torch.cuda.get_device_name()}, Llama-style {a.size}, batch 1 x {SEQ}")
    for k, v in rows:
        print(f"| {k} | {v} |")
    return 0 if err < 2e-2 else 1


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export")
    e.add_argument("dir")
    e.add_argument("--size", default="2.8b", choices=SIZES)
    r = sub.add_parser("run")
    r.add_argument("brrrc")
    r.add_argument("dir")
    r.add_argument("--size", default="2.8b", choices=SIZES)
    r.add_argument("--peers", default="eager,graphs")
    a = p.parse_args()
    return cmd_export(a) if a.cmd == "export" else cmd_run(a)


if __name__ == "__main__":
    sys.exit(main())
