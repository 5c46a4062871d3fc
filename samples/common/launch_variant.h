// launch_variant.h: a named launch variant of a sample's host function (the row kernels'
// <op>_variants.h tables: each variant is checked by the sample's driver like the default and
// timed by tileslc_membound --variants against it and a copy). Header-only.
#ifndef TILESLC_SAMPLES_LAUNCH_VARIANT_H
#define TILESLC_SAMPLES_LAUNCH_VARIANT_H

namespace sample {

// Fn: the host function's pointer type, e.g. tileslc::Status (*)(tileslc::TensorView, ..., cudaStream_t).
template <class Fn>
struct LaunchVariant {
  const char* name;  // the launch, e.g. "c16_t512_m2" (cluster blocks, threads, blocks per SM)
  Fn fn;
};

}  // namespace sample

#endif  // TILESLC_SAMPLES_LAUNCH_VARIANT_H
