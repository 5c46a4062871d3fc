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
