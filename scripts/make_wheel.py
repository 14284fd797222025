#!/usr/bin/env python3
"""Writes the brrr wheel from an unpacked bundle (scripts/package.sh).

  make_wheel.py BUNDLE_DIR OUT_DIR

The wheel holds the Python package (BUNDLE_DIR/python/brrr) with the rest
of the bundle inside it as brrr/_bundle (bin/brrrc, bin/brrr-run, lib/,
include/), its version is what `brrrc --version` prints, and its metadata
and console scripts come from python/pyproject.toml. The tag is
manylinux_2_36_x86_64: brrrc links LLVM statically and needs glibc 2.36
(Debian 12) or newer. Prints the wheel's path.
"""

import base64
import hashlib
import os
import stat
import subprocess
import sys
import zipfile

try:
    import tomllib
except ImportError:  # Python < 3.11
    sys.exit("make_wheel: building the wheel needs Python 3.11 or newer "
             "(tomllib, to read python/pyproject.toml); set PYTHON=python3.11")

TAG = "py3-none-manylinux_2_36_x86_64"


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def main():
    bundle, out = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "python", "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    brrrc = os.path.join(bundle, "bin", "brrrc")
    first = subprocess.run([brrrc, "--version"], capture_output=True, text=True,
                           check=True).stdout.split("\n")[0].split()
    if len(first) != 2 or first[0] != "brrr":
        sys.exit(f"make_wheel: brrrc --version printed {' '.join(first)!r}")
    version = first[1]
    name = project["name"]
    dist_info = f"{name}-{version}.dist-info"

    # (path in the wheel, file on disk) of every file.
    files = []
    package = os.path.join(bundle, "python", "brrr")
    for d, dirs, names in os.walk(package):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for n in sorted(names):
            if not n.endswith(".pyc"):
                src = os.path.join(d, n)
                files.append(("brrr/" + os.path.relpath(src, package), src))
    for top in ("bin", "lib", "include"):
        for d, dirs, names in os.walk(os.path.join(bundle, top)):
            dirs.sort()
            for n in sorted(names):
                src = os.path.join(d, n)
                files.append(("brrr/_bundle/" + os.path.relpath(src, bundle), src))

    readme = open(os.path.join(root, project.get("readme", "README.md")), encoding="utf-8").read()
    metadata = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
                f"Summary: {project['description']}",
                f"Requires-Python: {project['requires-python']}"]
    metadata += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    for extra, reqs in project.get("optional-dependencies", {}).items():
        metadata.append(f"Provides-Extra: {extra}")
        metadata += [f"Requires-Dist: {r}; extra == \"{extra}\"" for r in reqs]
    metadata += ["Description-Content-Type: text/markdown", "", readme]
    generated = {
        f"{dist_info}/METADATA": "\n".join(metadata),
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: brrr make_wheel.py\n"
                              f"Root-Is-Purelib: false\nTag: {TAG}\n",
        f"{dist_info}/entry_points.txt": "[console_scripts]\n" + "".join(
            f"{k} = {v}\n" for k, v in project.get("scripts", {}).items()),
        "brrr/_version.py": f'"""The version of this build of brrr."""\n\n'
                            f'__version__ = "{version}"\n',
    }
    files = [(arc, src) for arc, src in files if arc not in generated]

    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"{name}-{version}-{TAG}.whl")
    records = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        def add(arc, data, mode):
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            records.append(f"{arc},{record_hash(data)},{len(data)}")
        for arc, src in files:
            with open(src, "rb") as f:
                data = f.read()
            mode = 0o755 if os.access(src, os.X_OK) else 0o644
            add(arc, data, mode)
        for arc, text in generated.items():
            if not arc.endswith("entry_points.txt") or text.count("\n") > 1:
                add(arc, text.encode(), 0o644)
        record = f"{dist_info}/RECORD"
        records.append(f"{record},,")
        z.writestr(zipfile.ZipInfo(record, date_time=(2020, 1, 1, 0, 0, 0)),
                   "\n".join(records) + "\n")
    print(path)


if __name__ == "__main__":
    main()
