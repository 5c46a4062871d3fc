/* A C11 program that calls a generated host function through its C ABI twin
 * (tileslc_axpy, declared in the generated axpy.h) with tensor views made
 * from DLPack tensors (tileslc/dlpack.h), on the CPU emulation target.
 * Prints "PASS: c_api" when every check holds. */
#include <stdio.h>
#include <string.h>

#include "axpy.h"
#include "tileslc/dlpack.h"

static int failures = 0;

static void expect(int ok, const char* what) {
  if (!ok) {
    printf("FAIL: %s (last error: '%s')\n", what, tileslc_last_error());
    ++failures;
  }
}

static DLTensor host_vector(float* data, int64_t* shape) {
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = data;
  t.device.device_type = kDLCPU;
  t.ndim = 1;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = NULL; /* compact */
  return t;
}

int main(void) {
  enum { n = 100 };
  float x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  int64_t shape = n;
  DLTensor dx = host_vector(x, &shape), dy = host_vector(y, &shape);
  tileslc_tensor_view vx, vy;
  expect(tileslc_tensor_view_from_dltensor(&dx, &vx) == TILESLC_OK, "view of x");
  expect(tileslc_tensor_view_from_dltensor(&dy, &vy) == TILESLC_OK, "view of y");
  expect(vx.dtype == TILESLC_FLOAT32 && vx.rank == 1 && vx.shape[0] == n && vx.stride[0] == 1, "x's view");

  expect(tileslc_axpy(2.0f, &vx, &vy, NULL) == TILESLC_OK, "tileslc_axpy");
  expect(strcmp(tileslc_last_error(), "") == 0, "no error after a successful call");
  for (int i = 0; i < n; ++i) expect(y[i] == 2.0f * (float)i + 1.0f, "y = 2 x + 1");

  /* A short y: the host function's message comes back through tileslc_last_error. */
  int64_t short_shape = n - 1;
  DLTensor dshort = host_vector(y, &short_shape);
  tileslc_tensor_view vshort;
  expect(tileslc_tensor_view_from_dltensor(&dshort, &vshort) == TILESLC_OK, "view of a short y");
  expect(tileslc_axpy(2.0f, &vx, &vshort, NULL) == TILESLC_ERROR, "tileslc_axpy refuses a short y");
  expect(strcmp(tileslc_last_error(), "axpy: mY.shape[0] is 99, expected N = 100 (from mX.shape[0])") == 0,
         "the extent message");

  /* DLPack tensors tileslc cannot describe. */
  DLTensor complex = dx;
  complex.dtype.code = kDLComplex;
  complex.dtype.bits = 64;
  expect(tileslc_tensor_view_from_dltensor(&complex, &vx) == TILESLC_ERROR, "complex64 is refused");
  expect(strstr(tileslc_last_error(), "dtype code 5 (complex) with 64 bits is not supported") != NULL, "dtype message");
  if (failures == 0) printf("PASS: c_api\n");
  return failures == 0 ? 0 : 1;
}
