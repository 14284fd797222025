#!/usr/bin/env bash
# Writes the relocatable bundle dist/brrr-VERSION-linux-x86_64.tar.xz:
#   bin/brrrc, bin/brrr-run, lib/libbrrr_runtime.a, include/, python/, and in
#   lib/ every shared library brrrc needs that a plain glibc (>= 2.36) system
#   lacks, found through brrrc's $ORIGIN/../lib RPATH (no LD_LIBRARY_PATH).
# LLVM and MLIR are linked statically (BRRR_STATIC_LLVM). The bundle uses the
# target machine's ptxas (CUDA toolkit) and C++ compiler; brrrc says so when
# either is missing (--no-cubin needs no ptxas).
#
# With --wheel, also writes the pip-installable wheel
# dist/brrr-VERSION-py3-none-manylinux_2_36_x86_64.whl (scripts/make_wheel.py:
# the same files, the Python package on top, console scripts brrrc and
# brrr-run; VERSION is brrrc --version's).
#
# Usage: scripts/package.sh [--build DIR] [--out DIR] [--version V] [--wheel]
#   --build  an existing build tree (default: build/, configured if absent)
#   --out    where the .tar.xz (and .whl) go (default: dist/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build"
out="$root/dist"
version=""
wheel=0
while [ $# -gt 0 ]; do
  case "$1" in
    --wheel) wheel=1; shift ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --version) version="$2"; shift 2 ;;
    *) echo "package.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$version" ]; then
  version="$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo unknown)"
fi
name="brrr-$version-linux-x86_64"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
if ! grep -q '^BRRR_STATIC_LLVM:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "package.sh: $build links LLVM dynamically; configure it with -DBRRR_STATIC_LLVM=ON" >&2
  exit 1
fi
cmake --build "$build" -j "${BRRR_JOBS:-$(nproc)}" --target brrrc brrr_runtime

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dest="$stage/$name"
cmake --install "$build" --prefix "$dest" > /dev/null
# The compiler's own archives and the pass driver are for developing brrr,
# not for compiling models.
rm -f "$dest"/lib/libBrrr*.a "$dest/bin/brrr-opt"

# Shared libraries beyond glibc and the C++ runtime (which the C++ compiler
# that links model.so brings) travel in lib/.
ldd "$dest/bin/brrrc" | awk '/=> \// { print $1, $3 }' | while read -r soname path; do
  case "$soname" in
    libc.so.*|libm.so.*|libdl.so.*|librt.so.*|libpthread.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*) ;;
    *) cp -L "$path" "$dest/lib/$soname" ;;
  esac
done
strip --strip-unneeded "$dest/bin/brrrc" "$dest"/lib/*.so.*

# Nothing may still point into this machine's LLVM or build tree.
if ldd "$dest/bin/brrrc" | grep -E "llvm-|not found|$build"; then
  echo "package.sh: brrrc still needs libraries outside the bundle" >&2
  exit 1
fi

mkdir -p "$out"
tar -C "$stage" -cf - "$name" | xz -T0 -6 > "$out/$name.tar.xz"
echo "$out/$name.tar.xz ($(du -h "$out/$name.tar.xz" | cut -f1))"
if [ "$wheel" = 1 ]; then
  whl="$("${PYTHON:-python3}" "$root/scripts/make_wheel.py" "$dest" "$out")"
  echo "$whl ($(du -h "$whl" | cut -f1))"
fi
