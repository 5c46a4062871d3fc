# ctest `explain.examples`: tools/check_explanations.py checks docs/diagnostics/:
# one CODE.md per registered diagnostic kind, titled with the registry's
# summary and listed in docs/diagnostics.md; each erroneous example, compiled
# with the tileslc built here, reports its code, and each fixed example
# compiles cleanly. Files marked <!-- bug: ... --> are expected failures.
# Reports "Skipped" without python3.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME explain.examples
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_explanations.py
                   --tileslc $<TARGET_FILE:tileslc> --stdlib ${PROJECT_SOURCE_DIR}/stdlib)
else()
  add_test(NAME explain.examples
           COMMAND sh -c "echo 'explain.examples: skipped: python3 not found'; exit 77")
endif()
set_tests_properties(explain.examples PROPERTIES LABELS "explain" TIMEOUT 600 SKIP_RETURN_CODE 77
                     REQUIRED_FILES $<TARGET_FILE:tileslc>)
