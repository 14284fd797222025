import os
import stat
import sys

import brrr

real, tmp = sys.argv[1], sys.argv[2]
os.makedirs(tmp, exist_ok=True)

# A brrrc that logs each compile (not --version) before running the real one.
log = os.path.join(tmp, "calls.log")
wrapper = os.path.join(tmp, "brrrc")
with open(wrapper, "w") as f:
    f.write("#!/bin/sh\n"
            f'[ "$1" = --version ] || echo "$@" >> {log}\n'
            f'exec {real} "$@"\n')
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IXUSR)


def compiles():
    return sum(1 for _ in open(log)) if os.path.exists(log) else 0


def model(path, op):
    with open(path, "w") as f:
        f.write('<ir_version: 8, opset_import: ["" : 13]>\n'
                f"g (float[2, 8] x) => (float[2, 8] y) {{ y = {op}(x) }}\n")
    return path


relu = model(os.path.join(tmp, "m.onnxtext"), "Relu")
print("dir:", brrr.cache_dir() == os.environ["BRRR_CACHE_DIR"])

m1 = brrr.compile(relu, brrrc=wrapper, device=None)
print("first:", compiles(), "compile(s)")
m2 = brrr.compile(relu, brrrc=wrapper, device=None)
print("second:", compiles(), "compile(s)")
print("same library:", m1.path == m2.path)

# A model file rewritten with the same bytes: hashed again, same entry.
model(relu, "Relu")
brrr.compile(relu, brrrc=wrapper, device=None)
print("same bytes rewritten:", compiles(), "compile(s)")

# Other flags, other bytes: new entries.
brrr.compile(relu, brrrc=wrapper, device=None, precision="tf32")
print("other flags:", compiles(), "compile(s)")
model(relu, "Sigmoid")
brrr.compile(relu, brrrc=wrapper, device=None)
print("other bytes:", compiles(), "compile(s)")
libs = sorted(n for n in os.listdir(brrr.cache_dir()) if n.endswith(".so"))
print("entries:", len(libs))

# External data: a file the model names, here in a subdirectory, is part of
# the key (its size and modification time).
ext_dir = os.path.join(tmp, "ext")
os.makedirs(os.path.join(ext_dir, "weights"), exist_ok=True)
ext_model = os.path.join(ext_dir, "m.onnxtext")
model(ext_model, "Relu")
with open(ext_model, "a") as f:
    f.write("# weights/w.bin\n")
with open(os.path.join(ext_dir, "weights", "w.bin"), "wb") as f:
    f.write(b"1234")
brrr.compile(ext_model, brrrc=wrapper, device=None)
brrr.compile(ext_model, brrrc=wrapper, device=None)
with open(os.path.join(ext_dir, "weights", "w.bin"), "wb") as f:
    f.write(b"123456")
brrr.compile(ext_model, brrrc=wrapper, device=None)
print("external data changed:", compiles(), "compile(s)")

# Disabled: compiles every time and adds nothing to the cache.
os.environ["BRRR_CACHE"] = "0"
brrr.compile(relu, brrrc=wrapper, device=None)
brrr.compile(relu, brrrc=wrapper, device=None)
print("disabled:", compiles(), "compile(s),",
      len([n for n in os.listdir(brrr.cache_dir()) if n.endswith(".so")]), "entries")
del os.environ["BRRR_CACHE"]

print("cleared:", brrr.cache_clear())
print("left:", os.listdir(brrr.cache_dir()))
brrr.compile(relu, brrrc=wrapper, device=None)
print("after clear:", compiles(), "compile(s)")
