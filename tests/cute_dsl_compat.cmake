# compat.<example>: one of CuTe DSL's own examples (issue 14, docs/cute_dsl_compat.md) compiled
# unchanged through its wrapper tests/cute_dsl/<example>_aot.tpy by tools/cute_dsl_compat.sh
# --only <example>: tileslc for the GPU, nvcc where it is found, and the CPU emulator, whose run of
# tests/cute_dsl/<example>_aot_main.cpp checks the numerics against float64. The examples live in
# an NVIDIA/cutlass checkout, so the tests are registered only when one is given:
#   cmake --preset default -DTILESLC_CUTLASS_DIR=/path/to/cutlass
set(TILESLC_CUTLASS_DIR "" CACHE PATH "An NVIDIA/cutlass checkout for the compat.* tests (empty: not registered)")
if(TILESLC_CUTLASS_DIR)
  # dense_gemm_c21 / _c12 / _c22: dense_gemm with a (2, 1), (1, 2), (2, 2) cluster (multicast TMA).
  foreach(_example IN ITEMS elementwise_add elementwise_apply sgemm tensorop_gemm cta_norm dense_gemm dense_gemm_c21 dense_gemm_c12
                            dense_gemm_c22)
    add_test(NAME compat.${_example}
             COMMAND ${CMAKE_COMMAND} -E env TILESLC=$<TARGET_FILE:tileslc> BUILD=${PROJECT_BINARY_DIR}
                     ${PROJECT_SOURCE_DIR}/tools/cute_dsl_compat.sh ${TILESLC_CUTLASS_DIR} --only ${_example})
    # One at a time: each may build libtileslc_rt_cpu.a when it is missing.
    set_tests_properties(compat.${_example} PROPERTIES LABELS "compat;emu" TIMEOUT 900 RESOURCE_LOCK tileslc_rt_cpu)
  endforeach()
endif()
