// Driver of tests/cute_dsl/dense_gemm_c12_aot.tpy: dense_gemm_aot_main.cpp's checks (and its
// --bench) for the (1, 2) cluster, its shapes scaled to whole clusters.
#include "dense_gemm_c12_aot.h"
#define DENSE_GEMM_CLUSTER_M 1
#define DENSE_GEMM_CLUSTER_N 2
#include "dense_gemm_aot_main.cpp"
