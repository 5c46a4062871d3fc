# The autotuner (docs/tuning.md), label `tune`:
#   tune.merge_recorded  shards of a recorded database, merged, decide as the unsharded sweep
#                        (no compiler needed)
#   tune.cpu_flow        `tileslc tune` end to end on the CPU emulator (tests/tune/tiny_tune.tpy):
#                        pruning, compile failures, the correctness check, the database, the
#                        cache, shards and merge, --tuned's dispatcher, the metrics records of
#                        its calls (@cutlass.cost: bytes, FLOPs, GB/s, % of peak), `metrics
#                        summarize` (--json, --prometheus), --shapes-from-metrics, and
#                        `tileslc bench` (inline shapes, --metrics-overhead); about two minutes
#   tune.bad_shapes      a shapes file that is not JSON: a located error, exit 2
#   tune.sample_spaces   gemm_sm90 and softmax_8192_tuned: the spaces docs/tuning.md states
#   tune.runner_selftest_cpu  the runner's fill and check against recorded results (below)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
add_test(NAME tune.merge_recorded COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tune/test_tune_merge.py)
set_tests_properties(tune.merge_recorded PROPERTIES LABELS tune TIMEOUT 60 PASS_REGULAR_EXPRESSION "tune merge: 0 failed")
if(TARGET tileslc_rt_cpu)
  add_test(NAME tune.cpu_flow
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tune/test_tune_flow.py --tileslc $<TARGET_FILE:tileslc>
                   --runtime-lib $<TARGET_FILE_DIR:tileslc_rt_cpu> --work ${CMAKE_CURRENT_BINARY_DIR}/tune_flow)
  set_tests_properties(tune.cpu_flow PROPERTIES LABELS tune TIMEOUT 900 PASS_REGULAR_EXPRESSION "tune flow: 0 failed")
endif()
# tune.runner_selftest_cpu: the runner's fill and check (host loops on the CPU target) on two
# dtypes, against tests/tune/runner_selftest.expected.json; on a GPU machine the same script with
# --target cuda holds the GPU kernels to the same file, every dtype (docs/tuning.md).
if(TARGET tileslc_rt_cpu)
  add_test(NAME tune.runner_selftest_cpu
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tune/runner_selftest.py --target cpu
                   --runtime-include ${PROJECT_SOURCE_DIR}/runtime/include --runtime-lib $<TARGET_FILE_DIR:tileslc_rt_cpu>
                   --work ${CMAKE_CURRENT_BINARY_DIR}/tune_runner_selftest --dtypes Float16,Int64)
  set_tests_properties(tune.runner_selftest_cpu PROPERTIES LABELS tune TIMEOUT 300 PASS_REGULAR_EXPRESSION "runner selftest \\(cpu\\): 0 failed")
endif()
add_test(NAME tune.bad_shapes
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^tune^${CMAKE_CURRENT_SOURCE_DIR}/tune/tiny_tune.tpy^--shapes^${CMAKE_CURRENT_SOURCE_DIR}/tune/bad_shapes.json^--target^cpu^--work-dir^${CMAKE_CURRENT_BINARY_DIR}/tune_bad
                 "-DEXPECTED=tileslc tune: error: ${CMAKE_CURRENT_SOURCE_DIR}/tune/bad_shapes.json:3:3: the shape list is not valid JSON: Expecting ',' delimiter" -DEXIT_CODE=2
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
set_tests_properties(tune.bad_shapes PROPERTIES LABELS tune TIMEOUT 60)
# A database entry that is not a result, a --db in no directory and -j 0: usage errors naming them.
function(tune_usage_error name args expected)
  tileslc_expect_usage_error(tune.usage.${name} "$<TARGET_FILE:tileslc>^tune^${args}" "tileslc tune: error: ${expected}" tune)
endfunction()
tune_usage_error(bad_entry "verify^${CMAKE_CURRENT_SOURCE_DIR}/tune/tiny_tune.tpy^--db^${CMAKE_CURRENT_SOURCE_DIR}/tune/bad_entry_db.json"
                 "${CMAKE_CURRENT_SOURCE_DIR}/tune/bad_entry_db.json: entry 0 is not a result (an object with \"function\", \"shape\" and \"config\")")
tune_usage_error(db_no_dir "${CMAKE_CURRENT_SOURCE_DIR}/tune/tiny_tune.tpy^--shapes^${CMAKE_CURRENT_SOURCE_DIR}/tune/tiny_shapes.json^--target^cpu^--db^/nonexistent/dir/z.json"
                 "--db /nonexistent/dir/z.json: no directory '/nonexistent/dir' to write the results database in")
tune_usage_error(jobs_zero "${CMAKE_CURRENT_SOURCE_DIR}/tune/tiny_tune.tpy^--shapes^${CMAKE_CURRENT_SOURCE_DIR}/tune/tiny_shapes.json^-j^0"
                 "argument -j/--jobs: expected a whole number from 1, found 0")
add_test(NAME tune.sample_spaces COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tune/test_tune_spaces.py $<TARGET_FILE:tileslc>)
set_tests_properties(tune.sample_spaces PROPERTIES LABELS tune TIMEOUT 120 PASS_REGULAR_EXPRESSION "tune spaces: 0 failed")
# tune.cmake_tuned: tileslc_add_cpu_kernels(... TUNED db.json) on the recorded database: the
# runner linked with the dispatching scale() runs it on a bucket's shape and on an unseen one.
if(TARGET tileslc_rt_cpu)
  tileslc_add_cpu_kernels(tune_tuned_kernels SOURCES tune/tiny_tune.tpy TUNED tune/recorded_full.json)
  add_executable(tune_tuned_runner ${PROJECT_SOURCE_DIR}/tools/tune/tune_runner.cpp)
  target_compile_definitions(tune_tuned_runner PRIVATE TILESLC_TUNE_CPU TILESLC_TUNE_ENTRY=tileslc_scale_packed)
  target_link_libraries(tune_tuned_runner PRIVATE tune_tuned_kernels)
  foreach(n 4096 3000)
    add_test(NAME tune.cmake_tuned_${n} COMMAND tune_tuned_runner --param t:Float32:${n} --param t:Float32:${n}:w --iters 1 --warmup 0)
    set_tests_properties(tune.cmake_tuned_${n} PROPERTIES LABELS tune TIMEOUT 60 PASS_REGULAR_EXPRESSION "\"ok\": true")
  endforeach()
endif()
