// gpu.wgmma_epilogue: the hopper dense_gemm epilogue's tiled copies (wgmma_epilogue.tpy):
// make_tiled_copy_C_atom / make_tiled_copy_S with stmatrix, retile and partition_D of staged
// swizzled subtiles, and make_tiled_copy_C over a whole wgmma tile. A random Float32 tile goes through a warpgroup MMA's C fragments; the
// BFloat16 output (poisoned, with a guard) must equal the input rounded to BFloat16, bit for
// bit. Exit 77 without a compute capability 9.0 GPU; the CPU emulator runs it too.
#include <cstdio>
#include <string>

#include "sample_util.h"
#include "wgmma_epilogue.h"

namespace {

// D (poisoned before the launch) must be Acc rounded to BFloat16, bit for bit; prints one line.
bool check(const char* name, const sample::DeviceMatrix& acc, sample::Bf16Matrix& d, int64_t rows, int64_t cols) {
  const std::string what = std::string(name) + " " + std::to_string(rows) + "x" + std::to_string(cols);
  return sample::check_exact("wgmma_epilogue", what, d, rows, cols,
                             [&](int64_t m, int64_t n) { return d.bits()[m * cols + n] != sample::float_to_bf16(acc.at(m, n)); });
}

}  // namespace

int main() {
  sample::require_device_or_skip("wgmma_epilogue");
  sample::require_compute_capability_or_skip("wgmma_epilogue", 9, "stmatrix; built for sm_90a");
  return sample::run_sample("wgmma_epilogue", [](sample::Rng& rng, cudaStream_t stream) {
    using sample::Bf16Matrix;
    using sample::DeviceMatrix;
    using sample::Matrix2D;
    const DeviceMatrix acc1 = DeviceMatrix::random(Matrix2D::row_major(128, 256), -100.0f, 100.0f, rng);
    Bf16Matrix d1 = Bf16Matrix::poisoned(128, 256, 64);
    CHECK_OK(epilogue_128x256(acc1.view(), d1.view(), stream));
    const DeviceMatrix acc2 = DeviceMatrix::random(Matrix2D::row_major(64, 64), -100.0f, 100.0f, rng);
    Bf16Matrix d2 = Bf16Matrix::poisoned(64, 64, 64);
    CHECK_OK(epilogue_64x64(acc2.view(), d2.view(), stream));
    Bf16Matrix d3 = Bf16Matrix::poisoned(64, 64, 64);
    CHECK_OK(full_tile_64x64(acc2.view(), d3.view(), stream));
    CHECK(cudaStreamSynchronize(stream));
    bool ok = check("x4", acc1, d1, 128, 256);
    ok &= check("x2", acc2, d2, 64, 64);
    ok &= check("C x4", acc2, d3, 64, 64);
    return ok;
  });
}
