# The generated CUDA of samples/tiled_copy is kept as a golden output
# (tests/golden/samples/tiled_copy.cu): a change in layout lowering or codegen
# shows up as a reviewed diff. Each test runs this file in script mode:
# tileslc on the sample (from the source root, so #line paths are relative),
# then a byte comparison. `cmake -DUPDATE=ON -P tests/golden_samples.cmake`
# from the source root with -DTILESLC=build/bin/tileslc -DOUT_DIR=/tmp rewrites the files.
set(_tileslc_golden_samples tiled_copy)
if(CMAKE_SCRIPT_MODE_FILE)
  foreach(name IN LISTS _tileslc_golden_samples)
    if(DEFINED ONLY AND NOT name STREQUAL ONLY)
      continue()
    endif()
    set(_expected tests/golden/samples/${name}.cu)
    file(MAKE_DIRECTORY ${OUT_DIR})
    set(_out ${OUT_DIR}/${name}.cu)
    execute_process(COMMAND "${TILESLC}" samples/${name}/${name}.tpy -o ${_out} --arch sm_90a RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "tileslc failed on samples/${name}/${name}.tpy:\n${_err}")
    endif()
    # #line directives back into the .cu name the output path: normalize it.
    file(READ ${_out} _text)
    string(REPLACE "\"${_out}\"" "\"${name}.cu\"" _text "${_text}")
    if(UPDATE)
      file(WRITE ${_expected} "${_text}")
      message("updated ${_expected}")
      continue()
    endif()
    file(READ ${_expected} _want)
    if(NOT _text STREQUAL _want)
      file(WRITE ${_out}.normalized "${_text}")
      message(FATAL_ERROR "generated CUDA of samples/${name} differs from ${_expected}:\n"
                          "  diff ${_expected} ${_out}.normalized\n"
                          "if the change is intended: cmake -DUPDATE=ON -DTILESLC=build/bin/tileslc -DOUT_DIR=/tmp -P tests/golden_samples.cmake")
    endif()
    message("samples/${name}: generated CUDA matches ${_expected}")
  endforeach()
  return()
endif()

foreach(name IN LISTS _tileslc_golden_samples)
  add_test(NAME golden_cu.${name}
           COMMAND ${CMAKE_COMMAND} -DTILESLC=$<TARGET_FILE:tileslc> -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/golden_cu
                   -DONLY=${name} -P ${CMAKE_CURRENT_SOURCE_DIR}/golden_samples.cmake
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/golden_cu)
endforeach()
