# GPU feature tests: a .tpy kernel per hardware feature with a small driver
# that checks exact results on the device (tests/gpu/<name>.tpy + <name>.cu),
# registered as ctest gpu.<name>; like the samples they exit 77 (skipped) when
# no suitable GPU is present. sm_90a features are built only for sm_90a.
if(TILESLC_HAVE_CUDA AND TILESLC_BUILD_SAMPLES AND COMMAND tileslc_add_kernels)
  set(_tileslc_gpu_tests mma_sm80_ext cute_dsl_api cute_dsl_sgemm_style cute_dsl_tile_remap named_barrier)
  if(TILESLC_SAMPLES_ARCH STREQUAL "sm_90a")
    list(APPEND _tileslc_gpu_tests tma_roundtrip tma_batched wgmma_fp8 wgmma_rs wgmma_epilogue stmatrix warp_redux cute_dsl_struct)
  endif()
  foreach(name IN LISTS _tileslc_gpu_tests)
    tileslc_add_kernels(${name}_gpu_kernels SOURCES ${CMAKE_CURRENT_LIST_DIR}/gpu/${name}.tpy ARCH ${TILESLC_SAMPLES_ARCH})
    add_executable(${name}_gpu_test ${CMAKE_CURRENT_LIST_DIR}/gpu/${name}.cu)
    target_link_libraries(${name}_gpu_test PRIVATE ${name}_gpu_kernels)
    target_include_directories(${name}_gpu_test PRIVATE ${PROJECT_SOURCE_DIR}/samples/common)
    set_target_properties(${name}_gpu_test PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                          RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
    add_test(NAME gpu.${name} COMMAND ${name}_gpu_test)
    set_tests_properties(gpu.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS gpu RUN_SERIAL ON)
  endforeach()
  # The emulator test's kernel and driver, built for the GPU (issue 15, item 3).
  tileslc_add_kernels(tile_divisibility_gpu_kernels SOURCES ${CMAKE_CURRENT_LIST_DIR}/emu/tile_divisibility.tpy
                      ARCH ${TILESLC_SAMPLES_ARCH})
  add_executable(tile_divisibility_gpu_test ${CMAKE_CURRENT_LIST_DIR}/gpu/tile_divisibility.cu)
  target_link_libraries(tile_divisibility_gpu_test PRIVATE tile_divisibility_gpu_kernels)
  set_target_properties(tile_divisibility_gpu_test PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  add_test(NAME gpu.tile_divisibility COMMAND tile_divisibility_gpu_test both)
  set_tests_properties(gpu.tile_divisibility PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS gpu RUN_SERIAL ON
                       PASS_REGULAR_EXPRESSION "M = 192 ran and checked, M = 100 refused before launching")
endif()
