# ctest `python_syntax`: every .tpy under samples/, stdlib/, tests/golden/ and tests/cute_dsl/
# must parse with Python's own ast (DESIGN.md section 2), except golden tests
# marked `# PYTHON-SYNTAX: invalid` (lexer and parser error cases). Reports
# "Skipped" when no python3 is found.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME python_syntax
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_python_syntax.py
                   ${PROJECT_SOURCE_DIR}/samples ${PROJECT_SOURCE_DIR}/stdlib ${PROJECT_SOURCE_DIR}/tests/golden
                   ${PROJECT_SOURCE_DIR}/tests/cute_dsl)
else()
  add_test(NAME python_syntax
           COMMAND sh -c "echo 'python_syntax: skipped: python3 not found, cannot check .tpy files with Python ast'; exit 77")
endif()
set_tests_properties(python_syntax PROPERTIES LABELS "python_syntax" TIMEOUT 120 SKIP_RETURN_CODE 77)
