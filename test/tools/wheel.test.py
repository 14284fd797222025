import os
import sys

import brrr

so, onnx_model = sys.argv[1], sys.argv[2]
print("brrrc in the package:",
      brrr.find_brrrc().startswith(os.path.dirname(brrr.__file__)))
print("headers in the package:",
      brrr.include_dir().startswith(os.path.dirname(brrr.__file__)),
      os.path.isfile(os.path.join(brrr.include_dir(), "brrr_runtime.hpp")))
print("launches", len(brrr.load(so, device=None).launches))
print("compiled launches", len(brrr.compile(onnx_model, device=None).launches))
try:
    brrr.load(so)
except brrr.BrrrError as e:
    print("BrrrError:", e)
