# CPU emulation tests (tileslc --target=cpu; they need no GPU and no CUDA):
#   emu.<sample>      every sample's own driver (samples/<name>/main.cu, with
#                     --small) compiled by the host compiler against the CUDA
#                     runtime shim, its kernels emulated: the same float64
#                     reference checks as gpu.<sample>;
#   emu.cpu_prelude.* unit tests of the emulator (barriers, shuffles, votes,
#                     atomics, mma.sync fragments, cp.async groups);
#   emu.fail_*        planted bugs whose report (the .tpy line, thread and
#                     block) the test checks word for word.
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

# The samples the emulator runs; each has a --small option that skips large
# sizes and timing.
set(TILESLC_EMU_SAMPLES vector_add saxpy elementwise_2d tiled_copy transpose sgemm gemm_sm80 histogram splitk)
foreach(name IN LISTS TILESLC_EMU_SAMPLES)
  set(_dir "${PROJECT_SOURCE_DIR}/samples/${name}")
  tileslc_add_cpu_kernels(emu_${name}_kernels SOURCES "${_dir}/${name}.tpy" ARCH sm_90a)
  # The driver as it is, compiled as C++ (its name ends in .cu).
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/emu/${name}_main.cpp"
       CONTENT "// The ${name} sample's driver, built for the CPU emulator.\n#include \"${_dir}/main.cu\"\n")
  add_executable(emu_${name} "${CMAKE_CURRENT_BINARY_DIR}/emu/${name}_main.cpp")
  target_include_directories(emu_${name} PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
  target_link_libraries(emu_${name} PRIVATE emu_${name}_kernels)
  add_test(NAME emu.${name} COMMAND emu_${name} --small)
  set_tests_properties(emu.${name} PROPERTIES LABELS emu TIMEOUT 300
                       PASS_REGULAR_EXPRESSION "${name}: all checks passed")
endforeach()

# The same histogram with CTAs on two host threads: shared- and global-memory
# atomics from CTAs that really run side by side.
add_test(NAME emu.histogram.host_threads COMMAND emu_histogram --small)
set_tests_properties(emu.histogram.host_threads PROPERTIES LABELS emu TIMEOUT 300 ENVIRONMENT TILESLC_CPU_THREADS=2
                     PASS_REGULAR_EXPRESSION "histogram: all checks passed")

# The GPU feature tests of the sm_80 mma.sync shapes, stmatrix and redux.sync / packed atomics
# (tests/gpu/), their
# drivers as they are, under the emulator: the same float64/int64/bitwise checks.
foreach(name IN ITEMS mma_sm80_ext stmatrix warp_redux)
  tileslc_add_cpu_kernels(emu_${name}_kernels SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/gpu/${name}.tpy" ARCH sm_90a)
  file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/emu/gpu_${name}_main.cpp"
       CONTENT "// tests/gpu/${name}.cu, built for the CPU emulator.\n#include \"${CMAKE_CURRENT_SOURCE_DIR}/gpu/${name}.cu\"\n")
  add_executable(emu_gpu_${name} "${CMAKE_CURRENT_BINARY_DIR}/emu/gpu_${name}_main.cpp")
  target_include_directories(emu_gpu_${name} PRIVATE "${PROJECT_SOURCE_DIR}/samples/common")
  target_link_libraries(emu_gpu_${name} PRIVATE emu_${name}_kernels)
  add_test(NAME emu.gpu.${name} COMMAND emu_gpu_${name})
  set_tests_properties(emu.gpu.${name} PROPERTIES LABELS emu TIMEOUT 300 PASS_REGULAR_EXPRESSION "${name}: all checks passed")
endforeach()

# Unit tests of the emulator itself.
add_executable(cpu_prelude_test emu/cpu_prelude_test.cpp)
target_link_libraries(cpu_prelude_test PRIVATE tileslc_rt_cpu GTest::gtest GTest::gtest_main)
gtest_discover_tests(cpu_prelude_test TEST_PREFIX emu.cpu_prelude. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS emu)
add_executable(cpu_warp_ext_test emu/cpu_warp_ext_test.cpp)
target_link_libraries(cpu_warp_ext_test PRIVATE tileslc_rt_cpu GTest::gtest GTest::gtest_main)
gtest_discover_tests(cpu_warp_ext_test TEST_PREFIX emu.cpu_warp_ext. DISCOVERY_TIMEOUT 60 PROPERTIES LABELS emu)

# Planted bugs: each must stop the run (non-zero exit) with exactly this report.
function(tileslc_emu_planted name expected)
  tileslc_add_cpu_kernels(emu_${name}_kernels SOURCES emu/${name}.tpy ARCH sm_80)
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
tileslc_emu_planted(fail_barrier
  "tests/emu/fail_barrier.tpy:15: error: barrier deadlock: __syncthreads() waits for 128 threads but only 64 arrived; 64 exited without reaching it (first: thread (64,0,0)) (thread (0,0,0) block (0,0,0))")

# The command line: an unknown target is a usage error naming the choices.
add_test(NAME emu.cli_unknown_target
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^--target=gpu^${CMAKE_CURRENT_SOURCE_DIR}/emu/fail_oob.tpy
                 "-DEXPECTED=tileslc: error[E0803]: unknown --target 'gpu' (expected cuda or cpu)"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
set_tests_properties(emu.cli_unknown_target PROPERTIES LABELS emu TIMEOUT 60)
