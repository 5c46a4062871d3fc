# ctest golden.coverage: every diagnostic code registered in compiler/diag/diag_kinds.def
# must be expected (a `# STDERR:`/`# STDOUT:` line naming it) by at least one golden test
# in tests/golden, unless its docs/diagnostics/CODE.md is marked `<!-- not-yet-produced -->`
# or `<!-- no-tpy-example -->`. It reads the recorded expectations only (tileslc is not
# run), so it takes well under a second: `python3 tools/golden.py --coverage --strict`
# lists what is missing.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME golden.coverage
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/golden.py --coverage --strict
                   ${CMAKE_CURRENT_LIST_DIR}/golden)
else()
  add_test(NAME golden.coverage COMMAND sh -c "echo 'golden: skipped: python3 not found'; exit 77")
endif()
set_tests_properties(golden.coverage PROPERTIES LABELS "golden" TIMEOUT 60 SKIP_RETURN_CODE 77)
