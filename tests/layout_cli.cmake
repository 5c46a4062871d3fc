# CLI tests for `tileslc layout` (a stable interface that scripts use): each
# test runs this same file in script mode, which runs tileslc, checks its exit
# code, prints its output for PASS_REGULAR_EXPRESSION, and optionally checks a
# file it wrote. Arguments are joined with '|' (CuTe notation has none).
if(CMAKE_SCRIPT_MODE_FILE)
  string(REPLACE "|" ";" _args "${ARGS}")
  if(DEFINED OUT_FILE)
    file(REMOVE "${OUT_FILE}")
  endif()
  execute_process(COMMAND "${EXE}" layout ${_args} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("${_out}${_err}")
  if(NOT "${_rc}" STREQUAL "${EXPECT_RC}")
    message(FATAL_ERROR "exit code ${_rc}, expected ${EXPECT_RC}")
  endif()
  if(DEFINED OUT_FILE)
    file(READ "${OUT_FILE}" _content)
    if(NOT _content MATCHES "${OUT_FILE_REGEX}")
      message(FATAL_ERROR "${OUT_FILE} does not match ${OUT_FILE_REGEX}")
    endif()
    message("file ok")
  endif()
  return()
endif()

function(tileslc_layout_cli_test name rc regex)
  cmake_parse_arguments(T "" "OUT_FILE;OUT_FILE_REGEX" "ARGS" ${ARGN})
  string(REPLACE ";" "|" _joined "${T_ARGS}")
  set(_defs -DEXE=$<TARGET_FILE:tileslc> "-DARGS=${_joined}" -DEXPECT_RC=${rc})
  if(T_OUT_FILE)
    list(APPEND _defs "-DOUT_FILE=${T_OUT_FILE}" "-DOUT_FILE_REGEX=${T_OUT_FILE_REGEX}")
  endif()
  add_test(NAME layout_cli.${name} COMMAND ${CMAKE_COMMAND} ${_defs} -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE})
  set_tests_properties(layout_cli.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}" TIMEOUT 60)
endfunction()

tileslc_layout_cli_test(composition 0 "^\\(\\(2,2\\),3\\):\\(\\(24,2\\),8\\)\n"
  ARGS composition "(6,2):(8,2)" "(4,3):(3,1)")
tileslc_layout_cli_test(by_mode_tiler 0 "^\\(3,\\(2,4\\)\\):\\(236,\\(26,1\\)\\)\n"
  ARGS composition "(12,(4,8)):(59,(13,1))" "<3:4,8:2>")
tileslc_layout_cli_test(marked_dynamic 0 "^\\(_32,1\\):\\(_1,_32\\)\n"
  ARGS --marked logical_divide "2:_1" "_32:_1")
tileslc_layout_cli_test(slice 0 "^\\(3,5\\):\\(4,13\\)\n"
  ARGS slice "((3,2),(2,5,2)):((4,1),(2,13,100))" "((_,1),(0,_,1))")
tileslc_layout_cli_test(show 0 " 1 \\| 3 \\| 4 \\| 5 \\|"
  ARGS show "(2,3):(3,1)")
tileslc_layout_cli_test(show_tv_svg 0 "wrote .*file ok"
  ARGS show-tv "((2,2),2):((4,1),2)" "(4,2)" --svg ${CMAKE_CURRENT_BINARY_DIR}/layout_cli_tv.svg
  OUT_FILE ${CMAKE_CURRENT_BINARY_DIR}/layout_cli_tv.svg OUT_FILE_REGEX "<svg.*T3/V1")
tileslc_layout_cli_test(notation_error 2 "expected ',' or '\\)' at column 5 of argument 1"
  ARGS coalesce "(4,3:(1,4)")
tileslc_layout_cli_test(swizzle_outside_show 2 "column 3 of argument 1.*note: swizzled layouts .* are taken only by 'tileslc layout show'; 'composition' takes plain layouts"
                         ARGS composition "Sw<3,4,3> o (8,64):(64,1)" "(8,8):(1,8)")
tileslc_layout_cli_test(not_divisible 1 "composition: stride 3 does not divide shape 4"
  ARGS composition "(4,3):(3,1)" "2:3")
tileslc_layout_cli_test(unknown_op 2 "unknown layout operation 'frob'"
  ARGS frob "8:1")
# crd2idx with a shape alone: CuTe's compact column-major strides (CuTe DSL's crd2idx(coord, shape)).
tileslc_layout_cli_test(crd2idx_shape 0 "^6\n" ARGS crd2idx "(2,1)" "(4,5)")
