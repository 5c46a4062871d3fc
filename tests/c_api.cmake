# The C ABI from C11 (label c_api; CPU emulation target, so no CUDA needed):
#   c_api.c11_syntax  gcc -std=c11 -pedantic-errors -fsyntax-only on a program
#                     that includes tileslc/c_api.h, tileslc/dlpack.h and a
#                     generated header (tests/c_api/main.c);
#   c_api.c11_run     the same program built as C11, linked with the kernels of
#                     tests/c_api/axpy.tpy, run: DLPack import, the C twin's
#                     results and its error message.
if(NOT TILESLC_HAVE_CPU_EMULATION OR NOT TILESLC_DLPACK_INCLUDE_DIR)
  message(STATUS "tileslc: c_api.* tests need the CPU emulation target and DLPack (Debian: libdlpack-dev); not added")
  return()
endif()
include(${PROJECT_SOURCE_DIR}/cmake/TileslcEmulation.cmake)
enable_language(C)
tileslc_add_cpu_kernels(c_api_kernels SOURCES ${CMAKE_CURRENT_LIST_DIR}/c_api/axpy.tpy)
add_executable(c_api_c11 ${CMAKE_CURRENT_LIST_DIR}/c_api/main.c)
set_target_properties(c_api_c11 PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
target_compile_options(c_api_c11 PRIVATE -Wall -Wextra -pedantic-errors)
target_include_directories(c_api_c11 PRIVATE ${TILESLC_DLPACK_INCLUDE_DIR})
target_link_libraries(c_api_c11 PRIVATE c_api_kernels)
add_test(NAME c_api.c11_syntax
         COMMAND ${CMAKE_C_COMPILER} -std=c11 -pedantic-errors -Wall -Wextra -Werror -fsyntax-only
                 -I ${PROJECT_SOURCE_DIR}/runtime/include -I ${CMAKE_CURRENT_BINARY_DIR}/tileslc_cpu_gen/c_api_kernels
                 -I ${TILESLC_DLPACK_INCLUDE_DIR} ${CMAKE_CURRENT_LIST_DIR}/c_api/main.c)
add_test(NAME c_api.c11_run COMMAND c_api_c11)
set_tests_properties(c_api.c11_syntax c_api.c11_run PROPERTIES LABELS c_api TIMEOUT 60)
set_tests_properties(c_api.c11_run PROPERTIES PASS_REGULAR_EXPRESSION "PASS: c_api")

# dlpack.cpu.* / dlpack.cuda.*: the DLPack import's unit tests against each runtime.
add_executable(dlpack_test_cpu ${CMAKE_CURRENT_LIST_DIR}/runtime/dlpack_test.cpp)
target_link_libraries(dlpack_test_cpu PRIVATE tileslc_rt_cpu GTest::gtest GTest::gtest_main)
target_include_directories(dlpack_test_cpu PRIVATE ${TILESLC_DLPACK_INCLUDE_DIR})
gtest_discover_tests(dlpack_test_cpu DISCOVERY_TIMEOUT 60 TEST_PREFIX "dlpack.cpu." PROPERTIES LABELS c_api)
if(TARGET tileslc_rt)
  add_executable(dlpack_test_cuda ${CMAKE_CURRENT_LIST_DIR}/runtime/dlpack_test.cpp)
  target_link_libraries(dlpack_test_cuda PRIVATE tileslc_rt GTest::gtest GTest::gtest_main)
  target_include_directories(dlpack_test_cuda PRIVATE ${TILESLC_DLPACK_INCLUDE_DIR})
  gtest_discover_tests(dlpack_test_cuda DISCOVERY_TIMEOUT 60 TEST_PREFIX "dlpack.cuda." PROPERTIES LABELS c_api)
endif()
