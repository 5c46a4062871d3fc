# ctest `builtins.registry`: tools/check_builtins.py checks the builtin registry
# (compiler/sema/builtins.def) against the stdlib's re-exports and that every
# row is exercised by some test. Reports "Skipped" without python3.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME builtins.registry COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_builtins.py)
else()
  add_test(NAME builtins.registry COMMAND sh -c "echo 'builtins.registry: skipped: python3 not found'; exit 77")
endif()
set_tests_properties(builtins.registry PROPERTIES LABELS "golden" TIMEOUT 60 SKIP_RETURN_CODE 77)
