# CPU emulation tests (tileslc --target=cpu; they need no GPU and no CUDA):
#   emu.<sample>      every sample's own driver (samples/<name>/main.cu, with
#                     --small) compiled by the host compiler against the CUDA
#                     runtime shim, its kernels emulated: the same float64
#                     reference checks as gpu.<sample>;
#   emu.tma_roundtrip tests/gpu's TMA load/store/reduce-add driver, emulated;
#   emu.tma_batched   tests/gpu's TMA atoms of batched tensors' slices, emulated;
#   emu.cpu_prelude.* unit tests of the emulator (barriers, shuffles, votes,
#                     atomics, mma.sync fragments, cp.async groups);
#   emu.cuda_runtime.* unit tests of the CUDA runtime shim (allocations,
#                     frees, cudaMemGetInfo, CUDA's typed overloads);
#   emu.sm90.*        unit tests of the sm_90 atoms (mbarriers, tensor maps,
#                     TMA, wgmma, elect.sync);
#   emu.cluster.*     unit tests of thread-block clusters (cluster indices,
#                     barrier.cluster, a peer's mbarrier, TMA multicast);
#   emu.cluster_exchange  tileslc.reduction.cluster_reduce_pair over a run-time loop;
#   emu.racecheck.*   unit tests of the shared-memory race checker;
#   emu.fail_*        planted bugs whose report (the .tpy line, thread and
#                     block) the test checks word for word;
#   emu.semantics.*   run-time operators against their definitions (shifts,
#                     float // and %, range() at the type's limit);
#   emu.setting.*     bad TILESLC_CPU_STACK_KIB / TILESLC_CPU_THREADS values,
#                     each stopping the run with a report naming it.
if(NOT TILESLC_HAVE_CPU_EMULATION)
  return()
endif()
if(TILESLC_SANITIZE)
  # ASan cannot follow the fibers' stack switches (Debian's Boost.Context is
  # not built with BOOST_USE_ASAN): it would report the emulator, not tileslc.
  message(STATUS "tileslc: emu.* tests are not run under TILESLC_SANITIZE")
  return()
endif()
include(${PROJECT_SOURCE_DIR}/cmake/TileslcEmulation.cmake)

# emu.<name>: the CUDA driver `driver` (its name ends in .cu; compiled as C++)
# with the kernels of `tpy`, run with the arguments after them; passes when
# it prints "<name>: all checks passed".
function(tileslc_emu_driver name tpy driver)
  tileslc_add_cpu_kernels(emu_${name}_kernels SOURCES "${tpy}" ARCH sm_90a INCLUDE_DIRS ${TILESLC_EMU_IMPORTS_${name}})
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/emu/${name}_main.cpp"
       CONTENT "// ${name}'s driver, built for the CPU emulator.\n#include \"${driver}\"\n")
  add_executable(emu_${name} "${CMAKE_CURRENT_BINARY_DIR}/emu/${name}_main.cpp")
  target_include_directories(emu_${name} PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
  target_link_libraries(emu_${name} PRIVATE emu_${name}_kernels)
  add_test(NAME emu.${name} COMMAND emu_${name} ${ARGN})
  set_tests_properties(emu.${name} PROPERTIES LABELS emu TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "${name}: all checks passed")
endfunction()

# The samples the emulator runs; each has a --small option that skips large
# sizes and timing.
set(TILESLC_EMU_SAMPLES vector_add saxpy elementwise_2d tiled_copy transpose sgemm gemm_sm80 histogram splitk gemm_sm90 gemm_fp8_sm90
    softmax rmsnorm layernorm row_reduce attention_sm90 cross_entropy)
set(TILESLC_EMU_IMPORTS_gemm_fp8_sm90 "${PROJECT_SOURCE_DIR}/samples/gemm_sm90")  # it imports gemm_sm90.tpy
foreach(name IN LISTS TILESLC_EMU_SAMPLES)
  set(_dir "${PROJECT_SOURCE_DIR}/samples/${name}")
  tileslc_emu_driver(${name} "${_dir}/${name}.tpy" "${_dir}/main.cu" --small)
endforeach()

# GPU tests whose drivers also run under the emulator (sm_90a atoms: TMA
# loads, stores and reduce-adds on mbarriers).
tileslc_emu_driver(tma_roundtrip "${CMAKE_CURRENT_SOURCE_DIR}/gpu/tma_roundtrip.tpy"
                   "${CMAKE_CURRENT_SOURCE_DIR}/gpu/tma_roundtrip.cu")
# TMA atoms built from slices of batched tensors (issue 14: the maps cover the slices).
tileslc_emu_driver(tma_batched "${CMAKE_CURRENT_SOURCE_DIR}/gpu/tma_batched.tpy"
                   "${CMAKE_CURRENT_SOURCE_DIR}/gpu/tma_batched.cu")

# The same histogram with CTAs on two host threads: shared- and global-memory
# atomics from CTAs that really run side by side.
add_test(NAME emu.histogram.host_threads COMMAND emu_histogram --small)
set_tests_properties(emu.histogram.host_threads PROPERTIES LABELS emu TIMEOUT 300 ENVIRONMENT TILESLC_CPU_THREADS=2
                     PASS_REGULAR_EXPRESSION "histogram: all checks passed")

# The GPU feature tests of the sm_80 mma.sync shapes, stmatrix, redux.sync / packed atomics, named
# barriers with bar.arrive and
# the Float8 and register-A wgmma forms (tests/gpu/), their drivers as they are, under the
# emulator: the same float64/int64/bitwise checks.
foreach(name IN ITEMS mma_sm80_ext stmatrix warp_redux wgmma_fp8 wgmma_rs wgmma_epilogue cute_dsl_api cute_dsl_struct cute_dsl_sgemm_style cute_dsl_tile_remap named_barrier)
  tileslc_add_cpu_kernels(emu_${name}_kernels SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/gpu/${name}.tpy" ARCH sm_90a)
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/emu/gpu_${name}_main.cpp"
       CONTENT "// tests/gpu/${name}.cu, built for the CPU emulator.\n#include \"${CMAKE_CURRENT_SOURCE_DIR}/gpu/${name}.cu\"\n")
  add_executable(emu_gpu_${name} "${CMAKE_CURRENT_BINARY_DIR}/emu/gpu_${name}_main.cpp")
  target_include_directories(emu_gpu_${name} PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
  target_link_libraries(emu_gpu_${name} PRIVATE emu_${name}_kernels)
  add_test(NAME emu.gpu.${name} COMMAND emu_gpu_${name})
  set_tests_properties(emu.gpu.${name} PROPERTIES LABELS emu TIMEOUT 300 PASS_REGULAR_EXPRESSION "${name}: all checks passed")
endforeach()
# bar.arrive's release to the waiters, under the race checker.
add_test(NAME emu.gpu.named_barrier.racecheck COMMAND emu_gpu_named_barrier)
set_tests_properties(emu.gpu.named_barrier.racecheck PROPERTIES LABELS emu TIMEOUT 300 ENVIRONMENT TILESLC_CPU_RACECHECK=1
                     PASS_REGULAR_EXPRESSION "named_barrier: all checks passed")

# Unit tests of the emulator itself: each a GoogleTest executable, its tests named emu.<prefix>.*;
# extra arguments are ctest properties (e.g. ENVIRONMENT ...).
function(tileslc_emu_unit_test target source prefix)
  add_executable(${target} ${source})
  target_link_libraries(${target} PRIVATE tileslc_rt_cpu GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${target} TEST_PREFIX emu.${prefix}. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS emu ${ARGN})
endfunction()
tileslc_emu_unit_test(cpu_prelude_test emu/cpu_prelude_test.cpp cpu_prelude)
tileslc_emu_unit_test(cpu_cuda_runtime_test emu/cuda_runtime_test.cpp cuda_runtime)
tileslc_emu_unit_test(cpu_warp_ext_test emu/cpu_warp_ext_test.cpp cpu_warp_ext)
tileslc_emu_unit_test(cpu_sm90_test emu/sm90_test.cpp sm90)
tileslc_emu_unit_test(cpu_cluster_test emu/cluster_test.cpp cluster)
tileslc_emu_unit_test(cpu_racecheck_test emu/racecheck_test.cpp racecheck ENVIRONMENT TILESLC_CPU_RACECHECK=1)

# Planted bugs: each must stop the run (non-zero exit) with exactly this report.
function(tileslc_emu_planted name expected)
  tileslc_add_cpu_kernels(emu_${name}_kernels SOURCES emu/${name}.tpy ARCH sm_90a)
  add_executable(emu_${name} emu/${name}_main.cpp)
  target_link_libraries(emu_${name} PRIVATE emu_${name}_kernels)
  string(REPLACE ";" "<semicolon>" expected "${expected}")  # a test command is a list
  add_test(NAME emu.${name}
           COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:emu_${name}> "-DEXPECTED=${expected}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
  set_tests_properties(emu.${name} PROPERTIES LABELS emu TIMEOUT 60)
endfunction()
tileslc_emu_planted(fail_oob
  "tests/emu/fail_oob.tpy:19: error: out-of-bounds global access: gC[1000] but the tensor mC has 1000 elements (thread (232,0,0) block (3,0,0))")
tileslc_emu_planted(fail_oob_tile
  "tests/emu/fail_oob_tile.tpy:19: error: out-of-bounds global access: gA[64] but the tensor mA has 64 elements (thread (31,0,0) block (1,0,0))")
tileslc_emu_planted(fail_oob_shared
  "tests/emu/fail_oob_shared.tpy:12: error: out-of-bounds shared access: smem[32] but the shared tensor sBuf has 32 elements (thread (31,0,0) block (0,0,0))")
tileslc_emu_planted(fail_oob_register
  "tests/emu/fail_oob_register.tpy:13: error: out-of-bounds register access: frg[4] but the fragment acc has 4 elements (thread (3,0,0) block (0,0,0))")
tileslc_emu_planted(fail_barrier
  "tests/emu/fail_barrier.tpy:15: error: barrier deadlock: __syncthreads() waits for 128 threads but only 64 arrived; 64 exited without reaching it (first: thread (64,0,0)) (thread (0,0,0) block (0,0,0))")
tileslc_emu_planted(fail_mbarrier
  "tests/emu/fail_mbarrier.tpy:28: error: deadlock: mbarrier.try_wait.parity never completes (mbarrier smem_1[0], phase 0: 1 of 1 arrivals, 8192 transaction bytes still expected): every thread of the block waits or has exited (thread (0,0,0) block (0,0,0))")
tileslc_emu_planted(fail_tma
  "tests/emu/fail_tma.tpy:28: error: TMA load (cp.async.bulk.tensor.2d): the 64 x 64 box at row 64, column 0 of the 64 x 192 tensor lies entirely outside it (thread (0,0,0) block (0,1,0))")
tileslc_emu_planted(fail_race
  "tests/emu/fail_race.tpy:18: error: shared-memory race: this thread writes shared byte 4 (smem), which thread (0,0,0) read (smem) at tests/emu/fail_race.tpy:19 with no barrier in between (thread (1,0,0) block (0,0,0))")
set_tests_properties(emu.fail_race PROPERTIES ENVIRONMENT TILESLC_CPU_RACECHECK=1)
tileslc_emu_planted(fail_cluster_barrier
  "tests/emu/fail_cluster_barrier.tpy:19: error: cluster barrier deadlock: barrier.cluster.wait waits for the 128 threads of the cluster's 2 blocks but only 64 arrived; 64 exited without reaching it (first: thread (0,0,0) of block (1,0,0)) (thread (0,0,0) block (0,0,0))")
tileslc_emu_planted(fail_stack_overflow
  "tileslc emulator: error: emulated thread's stack overflowed (64 KiB): set TILESLC_CPU_STACK_KIB higher")
set_tests_properties(emu.fail_stack_overflow PROPERTIES ENVIRONMENT TILESLC_CPU_STACK_KIB=64)

# Planted run-time errors of one driver, picked by its argument: integer
# division by zero and overflow (SIGFPE on the host without the checks of
# tileslc/cpu/int_div.h) and a run-time range() step of 0.
tileslc_add_cpu_kernels(emu_fail_runtime_errors_kernels SOURCES emu/fail_runtime_errors.tpy ARCH sm_90a)
add_executable(emu_fail_runtime_errors emu/fail_runtime_errors_main.cpp)
target_link_libraries(emu_fail_runtime_errors PRIVATE emu_fail_runtime_errors_kernels)
function(tileslc_emu_runtime_error name argument expected)
  add_test(NAME emu.${name}
           COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:emu_fail_runtime_errors>^${argument} "-DEXPECTED=${expected}"
                   -DEXIT_CODE=1 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
  set_tests_properties(emu.${name} PROPERTIES LABELS emu TIMEOUT 60)
endfunction()
tileslc_emu_runtime_error(fail_int_div_zero div_zero
  "tests/emu/fail_runtime_errors.tpy:16: error: integer division by zero: 7 // 0 (thread (3,0,0) block (0,0,0))")
tileslc_emu_runtime_error(fail_int_mod_zero mod_zero
  "tests/emu/fail_runtime_errors.tpy:14: error: integer modulo by zero: 7 % 0 (thread (3,0,0) block (0,0,0))")
tileslc_emu_runtime_error(fail_int_div_overflow div_overflow
  "tests/emu/fail_runtime_errors.tpy:16: error: integer division overflows: -2147483648 // -1 does not fit in 32 bits (thread (3,0,0) block (0,0,0))")
tileslc_emu_runtime_error(fail_range_step_zero step_zero
  "tests/emu/fail_runtime_errors.tpy:28: error: range() step must not be zero (thread (0,0,0) block (0,0,0))")
tileslc_emu_runtime_error(fail_host_range_step_zero host_step_zero
  "fail_runtime_errors host_step_zero: tests/emu/fail_runtime_errors.tpy:40: range() step must not be zero")
tileslc_emu_runtime_error(fail_launch_grid_y grid_y
  "fail_runtime_errors grid_y: launch_config: cannot launch range_kernel_1: grid y is 70000, over the limit of 65535 for grid y and z")
tileslc_emu_runtime_error(fail_launch_smem smem_over
  "fail_runtime_errors smem_over: range_kernel_1: 300000 bytes of dynamic shared memory is over this GPU's limit of 232448 bytes per block (cudaDevAttrMaxSharedMemoryPerBlockOptin)")

# A run-time tile that the extent's declared divisibility does not cover, with
# no predicate (W0601 while compiling): the host function refuses the launch
# naming the tensor, mode, symbol and tile; a multiple runs and is checked.
tileslc_add_cpu_kernels(emu_tile_divisibility_kernels SOURCES emu/tile_divisibility.tpy ARCH sm_90a)
add_executable(emu_tile_divisibility emu/tile_divisibility_main.cpp)
target_link_libraries(emu_tile_divisibility PRIVATE emu_tile_divisibility_kernels)
add_test(NAME emu.tile_divisibility_multiple COMMAND emu_tile_divisibility multiple)
set_tests_properties(emu.tile_divisibility_multiple PROPERTIES LABELS emu TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "tile_divisibility multiple: all checks passed \\(192 values\\)")
add_test(NAME emu.fail_tile_divisibility
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:emu_tile_divisibility>^not_multiple
                 "-DEXPECTED=tile_divisibility not_multiple: scale: M (extent 0 of mA) must be a multiple of 64 for the tile of cute.local_tile at tests/emu/tile_divisibility.tpy:14, found 100"
                 -DEXIT_CODE=1 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
set_tests_properties(emu.fail_tile_divisibility PROPERTIES LABELS emu TIMEOUT 60)

# Run-time operators against their definitions (operator_semantics_main.cpp):
# PTX's clamping shifts, Python's float // and %, range() at the type's limit.
tileslc_add_cpu_kernels(emu_operator_semantics_kernels SOURCES emu/operator_semantics.tpy ARCH sm_90a)
add_executable(emu_operator_semantics emu/operator_semantics_main.cpp)
target_include_directories(emu_operator_semantics PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
target_link_libraries(emu_operator_semantics PRIVATE emu_operator_semantics_kernels)
foreach(group IN ITEMS shifts float_floordiv_mod range_limits)
  add_test(NAME emu.semantics.${group} COMMAND emu_operator_semantics ${group})
  set_tests_properties(emu.semantics.${group} PROPERTIES LABELS emu TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "semantics ${group}: all checks passed")
endforeach()

# The emulator's settings: a value it cannot run with stops the first launch
# with a report naming the variable and the range; the smallest stack runs a sample.
function(tileslc_emu_bad_setting name variable value expected)
  add_test(NAME emu.setting.${name}
           COMMAND ${CMAKE_COMMAND} -E env ${variable}=${value}
                   ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:emu_vector_add>^--small
                   "-DEXPECTED=tileslc emulator: error: ${variable} is `${value}`, expected ${expected}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
  set_tests_properties(emu.setting.${name} PROPERTIES LABELS emu TIMEOUT 60)
endfunction()
set(_stack_range "a whole number from 64 to 1048576 (KiB)")
tileslc_emu_bad_setting(stack_not_a_number TILESLC_CPU_STACK_KIB abc "${_stack_range}")
tileslc_emu_bad_setting(stack_zero TILESLC_CPU_STACK_KIB 0 "${_stack_range}")
tileslc_emu_bad_setting(stack_too_small TILESLC_CPU_STACK_KIB 1 "${_stack_range}")
tileslc_emu_bad_setting(stack_too_large TILESLC_CPU_STACK_KIB 99999999999 "${_stack_range}")
tileslc_emu_bad_setting(threads_negative TILESLC_CPU_THREADS -5 "a whole number from 1 to 1024")
tileslc_emu_bad_setting(threads_zero TILESLC_CPU_THREADS 0 "a whole number from 1 to 1024")
tileslc_emu_bad_setting(threads_trailing_text TILESLC_CPU_THREADS 2x "a whole number from 1 to 1024")
tileslc_emu_bad_setting(stack_plus_sign TILESLC_CPU_STACK_KIB +64 "${_stack_range}")
add_test(NAME emu.setting.smallest_stack COMMAND emu_vector_add --small)
set_tests_properties(emu.setting.smallest_stack PROPERTIES LABELS emu TIMEOUT 300 ENVIRONMENT TILESLC_CPU_STACK_KIB=64
                     PASS_REGULAR_EXPRESSION "vector_add: all checks passed")

# The command line: an unknown target is a usage error naming the choices.
add_test(NAME emu.cli_unknown_target
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^--target=gpu^${CMAKE_CURRENT_SOURCE_DIR}/emu/fail_oob.tpy
                 "-DEXPECTED=tileslc: error[E0803]: unknown --target 'gpu' (expected cuda or cpu)"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
set_tests_properties(emu.cli_unknown_target PROPERTIES LABELS emu TIMEOUT 60)

# Class-based kernels (class_kernels_main.cpp): instances configured by __init__, a @cute.jit
# __call__ launching a @cute.kernel method, one kernel per instance's tile; numerics checked.
tileslc_add_cpu_kernels(emu_class_kernels_kernels SOURCES emu/class_kernels.tpy ARCH sm_80)
add_executable(emu_class_kernels emu/class_kernels_main.cpp)
target_include_directories(emu_class_kernels PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
target_link_libraries(emu_class_kernels PRIVATE emu_class_kernels_kernels)
add_test(NAME emu.class_kernels COMMAND emu_class_kernels)
set_tests_properties(emu.class_kernels PROPERTIES LABELS emu TIMEOUT 60 PASS_REGULAR_EXPRESSION "class kernels: all checks passed")

# CuTe DSL's pipeline classes (pipeline_classes_main.cpp): PipelineTmaAsync / PipelineState with a
# whole producer warp (one elected TMA per stage), recast_ptr + make_tensor over shared memory,
# tma_partition; numerics checked exactly.
tileslc_add_cpu_kernels(emu_pipeline_classes_kernels SOURCES emu/pipeline_classes.tpy ARCH sm_90a)
add_executable(emu_pipeline_classes emu/pipeline_classes_main.cpp)
target_include_directories(emu_pipeline_classes PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
target_link_libraries(emu_pipeline_classes PRIVATE emu_pipeline_classes_kernels)
add_test(NAME emu.pipeline_classes COMMAND emu_pipeline_classes)
set_tests_properties(emu.pipeline_classes PROPERTIES LABELS emu TIMEOUT 60 PASS_REGULAR_EXPRESSION "pipeline classes: all checks passed")

# Multicast TMA atoms (tma_multicast_main.cpp): make_tiled_tma_atom(num_multicast=2) and
# tma_partition's per-CTA slice over a 2-CTA cluster, each CTA holding the whole tile; exact.
tileslc_emu_driver(tma_multicast "${CMAKE_CURRENT_SOURCE_DIR}/emu/tma_multicast.tpy"
                   "${CMAKE_CURRENT_SOURCE_DIR}/emu/tma_multicast_main.cpp")
# tileslc.reduction.cluster_reduce_pair in a run-time loop (cluster_exchange_main.cpp): clusters of
# 2, 4 and 16 blocks, 7 exchanges each, so both buffers and mbarriers are reused at later phases; exact.
tileslc_emu_driver(cluster_exchange "${CMAKE_CURRENT_SOURCE_DIR}/emu/cluster_exchange.tpy"
                   "${CMAKE_CURRENT_SOURCE_DIR}/emu/cluster_exchange_main.cpp")
