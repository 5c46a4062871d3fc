# Differential fuzzing of the scalar semantics (tools/difffuzz.py, docs/fuzzing.md):
#   fuzz.difffuzz              a fixed seed range of random kernels, each result
#                              computed at run time under the CPU emulator, folded
#                              from constants while compiling, and by the
#                              documented semantics in Python: all must agree;
#   fuzz.difffuzz.inject_wrong the same tool with one expected value perturbed:
#                              it must report the disagreement (the test can fail).
#   fuzz.difffuzz.gpu          the GPU half (`difffuzz.py gpu`) over seed 3's 5 programs:
#                              gpu-prep's tileslc and nvcc -cubin must build them; then
#                              gpu-run compares on the GPU, or skips (77) without one.
#                              tools/device/difffuzz.sh runs 10,000 on the GPU machine;
#   fuzz.difffuzz.gpu_driver_abi gpu-run's driver calls against a stand-in libcuda.so.1.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND OR TILESLC_SANITIZE)
  return()
endif()
if(TILESLC_HAVE_CUDA AND TILESLC_NVCC)
  add_test(NAME fuzz.difffuzz.gpu
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/difffuzz.py gpu --seed 3 --count 5
                   --tileslc $<TARGET_FILE:tileslc> --nvcc ${TILESLC_NVCC} --jobs 2
                   --dir ${CMAKE_CURRENT_BINARY_DIR}/difffuzz_gpu)
  set_tests_properties(fuzz.difffuzz.gpu PROPERTIES LABELS "fuzz;gpu" TIMEOUT 120 SKIP_RETURN_CODE 77)
  # gpu-run's CUDA driver calls (ctypes) against a stand-in libcuda.so.1 over host memory that logs
  # each launch: no GPU needed (tests/difffuzz/check_gpu_run.py says what is checked).
  add_library(tileslc_fake_libcuda SHARED ${CMAKE_CURRENT_LIST_DIR}/difffuzz/fake_libcuda.cpp)
  set_target_properties(tileslc_fake_libcuda PROPERTIES OUTPUT_NAME cuda SOVERSION 1
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fake_libcuda)
  add_test(NAME fuzz.difffuzz.gpu_driver_abi
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/difffuzz/check_gpu_run.py
                   $<TARGET_FILE:tileslc> ${TILESLC_NVCC} $<TARGET_FILE_DIR:tileslc_fake_libcuda>
                   ${CMAKE_CURRENT_BINARY_DIR}/difffuzz_gpu_abi)
  set_tests_properties(fuzz.difffuzz.gpu_driver_abi PROPERTIES LABELS "fuzz" TIMEOUT 120)
endif()
if(NOT TILESLC_HAVE_CPU_EMULATION)
  return()
endif()
set(_difffuzz ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/difffuzz.py
    --tileslc $<TARGET_FILE:tileslc> --rt-cpu $<TARGET_FILE:tileslc_rt_cpu> --jobs 2)
add_test(NAME fuzz.difffuzz COMMAND ${_difffuzz} --seed 1 --count 50)
set_tests_properties(fuzz.difffuzz PROPERTIES LABELS "fuzz;emu" TIMEOUT 120
                     PASS_REGULAR_EXPRESSION " 0 disagreements")
add_test(NAME fuzz.difffuzz.inject_wrong COMMAND ${_difffuzz} --seed 2 --count 5 --inject-wrong)
set_tests_properties(fuzz.difffuzz.inject_wrong PROPERTIES LABELS "fuzz;emu" TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "the perturbed opinion was reported")

# Bad arguments are usage errors (exit 2) that name them, never a traceback.
function(difffuzz_usage_error name args expected)
  tileslc_expect_usage_error(fuzz.difffuzz.usage.${name} "${Python3_EXECUTABLE}^${PROJECT_SOURCE_DIR}/tools/difffuzz.py^${args}"
                             "${expected}" fuzz)
endfunction()
difffuzz_usage_error(per_bundle_zero "gpu-prep^--seed^1^--count^2^--per-bundle^0^--dir^difffuzz_bad"
                     "difffuzz.py gpu-prep: error: argument --per-bundle: expected a whole number from 1, found 0")
difffuzz_usage_error(negative_seed "gpu-prep^--seed^-1^--count^1^--dir^difffuzz_bad"
                     "difffuzz.py gpu-prep: error: argument --seed: expected a whole number from 0, found -1")
difffuzz_usage_error(jobs_zero "--jobs^0" "difffuzz.py: error: argument --jobs: expected a whole number from 1, found 0")
difffuzz_usage_error(no_nvcc "gpu-prep^--seed^1^--count^1^--nvcc^/nonexistent/nvcc^--dir^difffuzz_bad^--tileslc^$<TARGET_FILE:tileslc>"
                     "difffuzz gpu-prep: no nvcc at '/nonexistent/nvcc' (pass --nvcc PATH)")
