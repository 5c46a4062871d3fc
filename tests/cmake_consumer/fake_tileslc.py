#!/usr/bin/env python3
"""Stand-in for tileslc in the CMake consumer test: checks the command line
tileslc_add_kernels builds and writes a small hand-written .cu/.h/.json/.d in
the shape the real compiler emits (host function + C ABI twin)."""
import json
import os
import sys

args = sys.argv[1:]
src = args[0]
opts = {}
i = 1
while i < len(args):
    a = args[i]
    if a in ("-o", "-H", "--emit-metadata", "--depfile", "--arch", "-I", "-D"):
        opts.setdefault(a, []).append(args[i + 1])
        i += 2
    else:
        sys.exit(f"fake_tileslc: unexpected argument {a}")
for required in ("-o", "-H", "--emit-metadata", "--depfile"):
    if required not in opts:
        sys.exit(f"fake_tileslc: missing {required}")
if opts.get("--arch") != ["sm_90a"] or opts.get("-D") != ["FACTOR=2"] or len(opts.get("-I", [])) != 1:
    sys.exit(f"fake_tileslc: unexpected options {opts}")
factor = opts["-D"][0].split("=")[1]
header = """#pragma once
#include "tileslc/runtime.h"
tileslc::Status scale(tileslc::TensorView mX, cudaStream_t stream = nullptr);
extern "C" int tileslc_scale(const tileslc_tensor_view* mX, cudaStream_t stream);
"""
cu = f"""#include "tileslc/runtime.h"
#include "scale.h"
__global__ void scale_kernel(float* x, int64_t n) {{
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= {factor}.0f;
}}
tileslc::Status scale(tileslc::TensorView mX, cudaStream_t stream) {{
  if (auto s = tileslc::check_tensor(mX, "scale", "mX", tileslc::DType::Float32, 1, 0); !s) return s;
  float* x = (float*)mX.data;
  int64_t n = mX.shape[0];
  void* args[] = {{&x, &n}};
  return tileslc::launch_kernel((const void*)&scale_kernel, "scale_kernel", dim3((unsigned)((n + 255) / 256)),
                                dim3(256), 0, stream, args);
}}
extern "C" int tileslc_scale(const tileslc_tensor_view* mX, cudaStream_t stream) {{
  tileslc::Status s = scale(tileslc::to_tensor_view(*mX), stream);
  tileslc::set_last_error(s);
  return s.ok() ? 0 : 1;
}}
"""
with open(opts["-o"][0], "w") as f:
    f.write(cu)
with open(opts["-H"][0], "w") as f:
    f.write(header)
with open(opts["--emit-metadata"][0], "w") as f:
    json.dump({"kernels": [{"name": "scale_kernel"}], "arch": "sm_90a"}, f)
helper = os.path.join(opts["-I"][0], "helper.tpy")
with open(opts["--depfile"][0], "w") as f:
    f.write(f"{opts['-o'][0]}: {os.path.abspath(src)} {os.path.abspath(helper)}\n")
