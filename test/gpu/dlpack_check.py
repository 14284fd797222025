#!/usr/bin/env python3
"""DLPack inputs and outputs on a real GPU.

  dlpack_check.py MODEL.so

Runs MODEL.so on host arrays (numpy), then on CUDA memory handed over only
through DLPack (objects with __dlpack__/__dlpack_device__ wrapping torch
tensors, as jax or any other producer would hand them), outputs included,
and requires the same results. Prints one line; exits non-zero on a
mismatch.
"""

import sys

import numpy as np
import torch

import brrr


class Producer:
    """Only DLPack: no __cuda_array_interface__, not a torch tensor."""

    def __init__(self, t):
        self.t = t

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)


m = brrr.load(sys.argv[1])
rng = np.random.default_rng(0)
xs = [rng.standard_normal(i.shape).astype(i.dtype) for i in m.inputs]
host = m.context().run(*xs)
dev_in = [Producer(torch.from_numpy(x).cuda()) for x in xs]
outs = [torch.full(o.shape, float("nan"), dtype=getattr(torch, o.dtype), device="cuda")
        for o in m.outputs]
ctx = m.context()
ctx.run(*dev_in, outputs=[Producer(o) for o in outs])
torch.cuda.synchronize()
err = max(float(np.max(np.abs(o.cpu().numpy().astype(np.float64) - h)))
          for o, h in zip(outs, host))
print(f"dlpack: {len(dev_in)} inputs, {len(outs)} outputs through DLPack, "
      f"max |dlpack - host| = {err:.3g}")
sys.exit(0 if err == 0 else 1)
