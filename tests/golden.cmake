# Golden tests: one ctest `golden.<name>` per tests/golden/**/*.tpy, each running
# tools/golden.py on that one file against the tileslc built here. The file's
# trailing comment block is the expected exit status, stdout, stderr and
# (optionally) generated kernels; `python3 tools/golden.py --tileslc
# build/bin/tileslc --update` regenerates them (docs/testing.md). Without
# python3 the tests report "Skipped". `golden_verify_ir` runs the whole suite
# once more with TILESLC_VERIFY_IR=1, so the IR of every golden goes through
# the IR verifier (an invalid IR exits 3, which the runner counts as a crash).
find_package(Python3 COMPONENTS Interpreter QUIET)
file(GLOB_RECURSE _tileslc_golden_files CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/golden/*.tpy)
list(SORT _tileslc_golden_files)
foreach(_golden IN LISTS _tileslc_golden_files)
  file(RELATIVE_PATH _golden_rel ${CMAKE_CURRENT_LIST_DIR}/golden ${_golden})
  string(REGEX REPLACE "\\.tpy$" "" _golden_name "${_golden_rel}")
  string(REPLACE "/" "." _golden_name "${_golden_name}")
  if(Python3_Interpreter_FOUND)
    add_test(NAME golden.${_golden_name}
             COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/golden.py
                     --tileslc $<TARGET_FILE:tileslc> ${_golden})
  else()
    add_test(NAME golden.${_golden_name}
             COMMAND sh -c "echo 'golden: skipped: python3 not found'; exit 77")
  endif()
  # REQUIRED_FILES: without a built tileslc ctest says "Not Run" and names the file.
  set_tests_properties(golden.${_golden_name} PROPERTIES LABELS "golden" TIMEOUT 120 SKIP_RETURN_CODE 77
                       REQUIRED_FILES $<TARGET_FILE:tileslc>)
endforeach()

if(Python3_Interpreter_FOUND)
  add_test(NAME golden_verify_ir
           COMMAND ${CMAKE_COMMAND} -E env TILESLC_VERIFY_IR=1
                   ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/golden.py
                   --tileslc $<TARGET_FILE:tileslc> ${CMAKE_CURRENT_LIST_DIR}/golden)
else()
  add_test(NAME golden_verify_ir COMMAND sh -c "echo 'golden: skipped: python3 not found'; exit 77")
endif()
set_tests_properties(golden_verify_ir PROPERTIES LABELS "golden" TIMEOUT 600 SKIP_RETURN_CODE 77
                     REQUIRED_FILES $<TARGET_FILE:tileslc>)
