# The editor stubs (cmake/TileslcStubs.cmake; label stubs):
#   stubs.generate  tools/check_stubs.py: every stub parses, every stdlib module
#                   has one, every builtins.def row is public where it is bound;
#   stubs.pyright   pyright in basic mode over every sample with the stubs:
#                   0 errors (skipped, exit 77, without pyright).
if(NOT TARGET tileslc_stubs)
  return()
endif()
add_test(NAME stubs.generate COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_stubs.py ${TILESLC_STUBS_DIR})
add_test(NAME stubs.pyright COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_stubs.py ${TILESLC_STUBS_DIR}
                                    --pyright ${PROJECT_SOURCE_DIR}/samples)
set_tests_properties(stubs.generate stubs.pyright PROPERTIES LABELS stubs TIMEOUT 300)
set_tests_properties(stubs.pyright PROPERTIES SKIP_RETURN_CODE 77)
# stubs.ruff: ruff.toml's lint rules over every sample, 0 diagnostics (tools/check_ruff.py;
# skipped, exit 77, without node and ruff's wasm build).
add_test(NAME stubs.ruff COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_ruff.py ${PROJECT_SOURCE_DIR})
set_tests_properties(stubs.ruff PROPERTIES LABELS stubs TIMEOUT 120 SKIP_RETURN_CODE 77)
