# Runs COMMAND and passes when it exits with a non-zero status (EXIT_CODE
# when given) and its standard error holds the line EXPECTED. Usage:
#   cmake -DCOMMAND=<program>[^<arg>...] -DEXPECTED=<line> [-DEXIT_CODE=<n>] -P expect_failure.cmake
# (arguments separated by ^; "<semicolon>" in EXPECTED stands for ;).
string(REPLACE "<semicolon>" ";" EXPECTED "${EXPECTED}")
string(REPLACE "^" ";" COMMAND "${COMMAND}")
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${COMMAND} exited with 0, expected a failure reporting:\n  ${EXPECTED}\nstdout:\n${out}")
endif()
if(DEFINED EXIT_CODE AND NOT rc STREQUAL "${EXIT_CODE}")
  message(FATAL_ERROR "${COMMAND} exited with ${rc}, expected ${EXIT_CODE}\nstderr:\n${err}")
endif()
string(FIND "${err}" "${EXPECTED}\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${COMMAND} failed (exit ${rc}) without the expected report:\n  ${EXPECTED}\nstderr:\n${err}")
endif()
message(STATUS "exit ${rc}, reported:\n  ${EXPECTED}")
