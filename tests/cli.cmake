# Command-line errors that golden tests cannot express (golden runs pass their
# own --stdlib): an explicit stdlib directory that is not one is E0803, for the
# flag and for TILESLC_STDLIB, instead of a silent fall-back to the default.
add_test(NAME cli.stdlib_flag_not_a_stdlib
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^--stdlib^/nonexistent-tileslc-stdlib^${PROJECT_SOURCE_DIR}/samples/vector_add/vector_add.tpy^-o^${CMAKE_CURRENT_BINARY_DIR}/cli_stdlib.cu
                 "-DEXPECTED=tileslc: error[E0803]: --stdlib '/nonexistent-tileslc-stdlib' is not a tileslc stdlib directory (no tileslc/__init__.tpy in it)"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
add_test(NAME cli.stdlib_env_not_a_stdlib
         COMMAND ${CMAKE_COMMAND} -E env TILESLC_STDLIB=/nonexistent-tileslc-stdlib
                 ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^${PROJECT_SOURCE_DIR}/samples/vector_add/vector_add.tpy^-o^${CMAKE_CURRENT_BINARY_DIR}/cli_stdlib.cu
                 "-DEXPECTED=tileslc: error[E0803]: TILESLC_STDLIB '/nonexistent-tileslc-stdlib' is not a tileslc stdlib directory (no tileslc/__init__.tpy in it)"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
set_tests_properties(cli.stdlib_flag_not_a_stdlib cli.stdlib_env_not_a_stdlib PROPERTIES LABELS cli TIMEOUT 60)

# Usage errors come in the format asked for, like every other diagnostic: gcc's one line with the
# code last and the help as a note (tools that read gcc output see them).
add_test(NAME cli.usage_error_gcc_format
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^--diagnostics-format=gcc^--arch^sm_70^x.tpy
                 "-DEXPECTED=tileslc: error: unknown --arch 'sm_70' (expected sm_80, sm_90 or sm_90a) [E0703]" -DEXIT_CODE=2
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
add_test(NAME cli.unknown_flag_gcc_format
         COMMAND ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^--bogus^--diagnostics-format^gcc
                 "-DEXPECTED=tileslc: note: help: run 'tileslc --help' for usage" -DEXIT_CODE=2
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
set_tests_properties(cli.usage_error_gcc_format cli.unknown_flag_gcc_format PROPERTIES LABELS cli TIMEOUT 60)

# nvcc's and ptxas' messages come back at .tpy lines even where nvcc names a generated line with
# no #line of its own (the nearest construct) or ptxas names only a mangled kernel (its def):
# tileslc -c against a stand-in nvcc (tests/cli/fake_cuda/bin/nvcc, found through CUDA_PATH).
foreach(_case "unplaced_line|tests/cli/nvcc_messages.tpy:11:1: error: nvcc: identifier \"boom\" is undefined [E0704]"
              "ptxas_kernel|tests/cli/nvcc_messages.tpy:11:1: error: ptxas: Entry function '_ZN14tileslc_kernels14nvcc_messages11fill_kernelEPf' uses too much shared data (0x20000 bytes, 0xe300 max) [E0704]")
  string(REPLACE "|" ";" _case "${_case}")
  list(GET _case 0 _name)
  list(GET _case 1 _expected)
  add_test(NAME cli.nvcc_${_name}
           COMMAND ${CMAKE_COMMAND} -E env CUDA_PATH=${CMAKE_CURRENT_SOURCE_DIR}/cli/fake_cuda
                   ${CMAKE_COMMAND} -DCOMMAND=$<TARGET_FILE:tileslc>^-c^tests/cli/nvcc_messages.tpy^-o^${CMAKE_CURRENT_BINARY_DIR}/nvcc_messages.o^--diagnostics-format=gcc
                   "-DEXPECTED=${_expected}" -DEXIT_CODE=1 -P ${CMAKE_CURRENT_SOURCE_DIR}/emu/expect_failure.cmake)
  set_tests_properties(cli.nvcc_${_name} PROPERTIES LABELS cli TIMEOUT 60 WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# Where outputs go: symbolic links followed, devices written in place, a full device E0802,
# `-` standard output, an imported module refused (E0803), the kernels' namespace
# (tests/cli/outputs.py says what each case checks).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME cli.outputs
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/outputs.py $<TARGET_FILE:tileslc>
                   ${CMAKE_CURRENT_BINARY_DIR}/cli_outputs)
  set_tests_properties(cli.outputs PROPERTIES LABELS cli TIMEOUT 120 PASS_REGULAR_EXPRESSION "outputs: 0 failed")
endif()

# tileslc_tool_usage_error(TOOL NAME ARGS EXPECTED): test cli.TOOL.NAME runs tileslc_TOOL with ARGS
# (separated by ^) and passes when it exits 2 with the line "tileslc_TOOL: EXPECTED".
function(tileslc_tool_usage_error tool name args expected)
  tileslc_expect_usage_error(cli.${tool}.${name} "$<TARGET_FILE:tileslc_${tool}>^${args}" "tileslc_${tool}: ${expected}")
endfunction()

# tileslc_bench's command line (built where CUDA is): each bad argument is a
# usage error, exit 2, with a line that names it, before the bench looks for a
# GPU. The accepted forms are checked with --help last: it exits 0 only when
# everything before it parsed.
if(TARGET tileslc_bench)
  tileslc_tool_usage_error(bench unknown_option "--bogus" "unknown option --bogus")
  tileslc_tool_usage_error(bench unknown_option_with_value "--bogus=1" "unknown option --bogus")
  tileslc_tool_usage_error(bench positional "--reps^3^extra" "unexpected argument `extra`")
  tileslc_tool_usage_error(bench missing_value "--reps" "--reps needs a value")
  tileslc_tool_usage_error(bench empty_json_inline "--json=" "--json needs a file path, not an empty one")
  tileslc_tool_usage_error(bench zero_rounds "--rounds=0" "--rounds is `0`, expected a whole number from 1 to 1000000")
  tileslc_tool_usage_error(bench zero_reps "--reps^0" "--reps is `0`, expected a whole number from 1 to 1000000")
  tileslc_tool_usage_error(bench negative_warmup "--warmup=-1" "--warmup is `-1`, expected a whole number from 0 to 1000000")
  tileslc_tool_usage_error(bench bad_timing "--timing=fast" "--timing is `fast`, expected blocks or interleaved")
  tileslc_tool_usage_error(bench plus_sign "--reps=+5" "--reps is `+5`, expected a whole number from 1 to 1000000")
  tileslc_tool_usage_error(bench json_stdout "--json=-" "--json - : give a file path (the table goes to standard output)")
  tileslc_tool_usage_error(bench unknown_entry "--entries=gemm_sm90,gemm_sm9" "--entries: no entry named `gemm_sm9`")
  tileslc_tool_usage_error(bench empty_entry "--entries^gemm_sm90,,gemm_sm90_bn64" "--entries `gemm_sm90,,gemm_sm90_bn64` has an empty name")
  # An empty argument cannot travel through COMMAND's list: the message alone says it was refused.
  add_test(NAME cli.bench.empty_json COMMAND tileslc_bench --json "" --help)
  set_tests_properties(cli.bench.empty_json PROPERTIES LABELS cli TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "tileslc_bench: --json needs a file path, not an empty one")
  add_test(NAME cli.bench.accepted_forms
           COMMAND tileslc_bench --timing=blocks --rounds=2 --warmup 0 --settle-ms=0 --reps 1 --json=${CMAKE_CURRENT_BINARY_DIR}/cli_bench.json
                   --launch-calls=5 --entries gemm_sm90,gemm_sm90_splitk_fused --help)
  set_tests_properties(cli.bench.accepted_forms PROPERTIES LABELS cli TIMEOUT 60 PASS_REGULAR_EXPRESSION "usage: tileslc_bench")
endif()

# tileslc_membound's command line: a misspelt --ops or a --cols no case has is refused (exit 2)
# before the GPU check, so it cannot pass as an empty table on a GPU machine.
if(TARGET tileslc_membound)
  tileslc_tool_usage_error(membound unknown_op "--ops^softmax,sofmax" "--ops: no operation named `sofmax` (softmax, rmsnorm, layernorm, softmax_bwd, rmsnorm_bwd, xent)")
  tileslc_tool_usage_error(membound zero_cols "--cols^0" "--cols: expected a positive column count, found `0`")
  tileslc_tool_usage_error(membound text_cols "--cols^abc" "--cols: expected a positive column count, found `abc`")
  tileslc_tool_usage_error(membound no_such_cols "--ops^softmax^--cols^7" "no case has the columns 7 for the operations selected (8192, 262144; --sweep: 256, 1024, 4096, 16384, 65536)")
  tileslc_tool_usage_error(membound unknown_argument "--bogus" "unknown argument `--bogus`")
  tileslc_tool_usage_error(membound missing_value "--cols" "`--cols` needs a value")
  tileslc_tool_usage_error(membound zero_slots "--slots^0" "--slots: expected a positive slot count, found `0`")
  tileslc_tool_usage_error(membound missing_slots "--slots" "`--slots` needs a value")
  tileslc_tool_usage_error(membound sweep_no_xent "--sweep^--ops^softmax,xent" "--sweep has no xent")
  tileslc_tool_usage_error(membound sweep_no_variants "--sweep^--variants" "--sweep has no launch variants (--variants: the table's shapes)")
  tileslc_tool_usage_error(membound huge_cols "--cols^99999999999999999999" "--cols: `99999999999999999999` is out of range")
  tileslc_tool_usage_error(membound json_option_as_path "--json^--sweep" "--json needs a file path, found `--sweep`")
  tileslc_tool_usage_error(membound json_folder "--json^." "--json: `.` is a folder, not a file path")
  tileslc_tool_usage_error(membound json_no_folder "--json^no_such_folder/m.json" "--json: no folder `no_such_folder` to write no_such_folder/m.json in")
  tileslc_tool_usage_error(membound sweep_no_such_cols "--sweep^--cols^8192" "no case has the columns 8192 for the operations selected (--sweep: 256, 1024, 4096, 16384, 65536)")
endif()
