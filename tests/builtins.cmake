# Registry checks, each a python script that needs nothing built (each reports "Skipped" without
# python3):
#   builtins.registry  tools/check_builtins.py checks the builtin registry
#                      (compiler/sema/builtins.def) against the stdlib's re-exports and that every
#                      row is exercised by some test;
#   cute_dsl.names     tools/check_cute_dsl_compat.py checks docs/cute_dsl_compat.md's table of
#                      CuTe DSL names against the registry and the stdlib (same/differs names must
#                      exist, existing ones must not be "not yet"); no CUTLASS checkout needed.
find_package(Python3 COMPONENTS Interpreter QUIET)
foreach(_check IN ITEMS "builtins.registry:check_builtins.py:golden" "cute_dsl.names:check_cute_dsl_compat.py:cli")
  string(REPLACE ":" ";" _check "${_check}")
  list(GET _check 0 _name)
  list(GET _check 1 _script)
  list(GET _check 2 _label)
  if(Python3_Interpreter_FOUND)
    add_test(NAME ${_name} COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/${_script})
  else()
    add_test(NAME ${_name} COMMAND sh -c "echo '${_name}: skipped: python3 not found'; exit 77")
  endif()
  set_tests_properties(${_name} PROPERTIES LABELS "${_label}" TIMEOUT 60 SKIP_RETURN_CODE 77)
endforeach()
