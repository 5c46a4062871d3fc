# CMake consumer test: builds tests/cmake_consumer, a small project that uses
# tileslc_add_kernels (with a stand-in compiler, so it does not depend on the
# real one), and runs its binary, which exercises the generated header, the C
# ABI twin and argument validation without a GPU. Needs nvcc.
if(TILESLC_HAVE_CUDA)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_Interpreter_FOUND)
    add_test(NAME cmake.tileslc_add_kernels
      COMMAND ${CMAKE_CTEST_COMMAND}
        --build-and-test ${CMAKE_CURRENT_LIST_DIR}/cmake_consumer ${CMAKE_CURRENT_BINARY_DIR}/cmake_consumer
        --build-generator ${CMAKE_GENERATOR}
        --build-options
          -DTILESLC_SOURCE_DIR=${PROJECT_SOURCE_DIR}
          -DTILESLC_EXECUTABLE=${CMAKE_CURRENT_LIST_DIR}/cmake_consumer/fake_tileslc.py
          -DCMAKE_BUILD_TYPE=Release
        --test-command ${CMAKE_CURRENT_BINARY_DIR}/cmake_consumer/consumer)
    set_tests_properties(cmake.tileslc_add_kernels PROPERTIES TIMEOUT 300 PASS_REGULAR_EXPRESSION "PASS: ")
  endif()
endif()
