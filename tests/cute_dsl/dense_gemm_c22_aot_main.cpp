// Driver of tests/cute_dsl/dense_gemm_c22_aot.tpy: dense_gemm_aot_main.cpp's checks (and its
// --bench) for the (2, 2) cluster, its shapes scaled to whole clusters.
#include "dense_gemm_c22_aot.h"
#define DENSE_GEMM_CLUSTER_M 2
#define DENSE_GEMM_CLUSTER_N 2
#include "dense_gemm_aot_main.cpp"
