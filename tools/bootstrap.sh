#!/usr/bin/env bash
# bootstrap.sh: makes this machine ready to build tileslc. Idempotent: installs
# only the Debian packages that are missing (through apt-get, with sudo when
# not root), then reports where nvcc is. CUDA itself is not installed here: the
# compiler and its tests build without it; the runtime, samples and GPU tests
# need it. libboost-context-dev gives the CPU emulation target its fibers (one
# per emulated thread; runtime/src/cpu/grid.cpp). libdlpack-dev is DLPack's
# header (the runtime's DLPack import). libutf8proc-dev gives the lexer Python's
# Unicode identifier rule and diagnostics the display width of characters.
# python3-numpy and python3-torch (CPU only) are what the python.* tests call
# kernels with, and python3-dev the headers the Python package's C fast path
# builds against, python3-pip and python3-wheel what the packaging test pip-installs the
# package from an install prefix with; libspdlog-dev is the compiler's log (tileslc -v); gdb
# runs the gdb.* tests (stepping through an emulated kernel, docs/debugging.md).
set -euo pipefail

packages=(cmake ninja-build g++ python3 libcli11-dev nlohmann-json3-dev libspdlog-dev libgtest-dev libboost-context-dev
          libdlpack-dev libutf8proc-dev python3-numpy python3-torch python3-dev python3-pip python3-wheel gdb)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    installed "$p" || missing+=("$p")
  done
else
  echo "bootstrap: dpkg not found: not a Debian-based system; install these yourself: ${packages[*]}" >&2
fi

if ((${#missing[@]})); then
  echo "bootstrap: installing missing packages: ${missing[*]}"
  sudo=()
  if [[ "$(id -u)" -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "bootstrap: all build dependencies present (${packages[*]})"
fi

cmake_version="$(cmake --version | head -n1 | awk '{print $3}')"
if [[ "$(printf '%s\n' 3.25 "$cmake_version" | sort -V | head -n1)" != "3.25" ]]; then
  echo "bootstrap: cmake $cmake_version is too old: tileslc needs 3.25 or newer" >&2
  exit 1
fi

nvcc=""
if [[ -n "${CUDA_PATH:-}" && -x "$CUDA_PATH/bin/nvcc" ]]; then
  nvcc="$CUDA_PATH/bin/nvcc"
elif [[ -x /usr/local/cuda/bin/nvcc ]]; then
  nvcc=/usr/local/cuda/bin/nvcc
elif command -v nvcc >/dev/null 2>&1; then
  nvcc="$(command -v nvcc)"
fi
if [[ -n "$nvcc" ]]; then
  echo "bootstrap: CUDA: $nvcc ($("$nvcc" --version | grep -o 'release [0-9.]*' || echo 'unknown version'))"
else
  echo "bootstrap: CUDA: nvcc not found (looked in \$CUDA_PATH/bin, /usr/local/cuda/bin and PATH):" \
       "the compiler and its tests build; the runtime, samples and GPU tests are skipped"
fi

# npm_tool NAME PACKAGE@VERSION TEST: installs a pinned npm package into ~/.cache/tileslc/NAME
# (outside the tree) unless it is there; offline or without npm it says which ctest will be skipped
# (the test then reports itself skipped).
npm_tool() {
  local dir="${XDG_CACHE_HOME:-$HOME/.cache}/tileslc/$1" package="$2" test="$3"
  if [[ -d "$dir/node_modules/${package%@*}" ]]; then
    echo "bootstrap: $1: $dir ($package)"
  elif command -v npm >/dev/null 2>&1; then
    if timeout 300 npm install --silent --no-audit --no-fund --prefix "$dir" "$package" >/dev/null 2>&1; then
      echo "bootstrap: $1 ($package) installed in $dir"
    else
      echo "bootstrap: could not install $package from npm: ctest $test will be skipped"
    fi
  else
    echo "bootstrap: npm not found: ctest $test will be skipped"
  fi
}
# pyright, for ctest stubs.pyright (the editor stubs checked over every sample).
npm_tool pyright pyright@1.1.414 stubs.pyright
# cdt-gdb-adapter, a Debug Adapter Protocol server over gdb (VS Code's "CDT GDB Debug Adapter"
# extension), for ctest gdb.vscode_dap (a DAP session on a .tpy breakpoint; gdb 13 has no DAP of its own).
npm_tool dap cdt-gdb-adapter@1.7.0 gdb.vscode_dap
# ruff's WebAssembly build, for ctest stubs.ruff (ruff.toml over every sample): ruff itself is
# on PyPI, which this set-up does not use.
npm_tool ruff @astral-sh/ruff-wasm-nodejs@0.17.4 stubs.ruff
