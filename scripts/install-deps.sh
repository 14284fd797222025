#!/usr/bin/env bash
# Installs the Debian 12 packages brrr builds and tests with. Idempotent:
# packages already installed are skipped, and apt is not touched at all when
# nothing is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  libgtest-dev
  python3 python3-onnx python3-numpy python3-venv zlib1g-dev
  clang-22 libclang-rt-22-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
