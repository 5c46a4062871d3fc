# ctest `intrinsics.headers`: tools/check_intrinsics.py checks the intrinsic
# table (compiler/ir/intrinsics.def) against the runtime's headers: every
# spelling a row expands to is defined (device/, cpu/ when emulated,
# runtime.h for host queries), and every tileslc::dev:: function of the
# device headers is a row's or a listed helper. It runs the C++ compiler's
# preprocessor on the headers. Reports "Skipped" without python3.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME intrinsics.headers
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/check_intrinsics.py --cxx ${CMAKE_CXX_COMPILER})
else()
  add_test(NAME intrinsics.headers COMMAND sh -c "echo 'intrinsics.headers: skipped: python3 not found'; exit 77")
endif()
set_tests_properties(intrinsics.headers PROPERTIES LABELS "golden" TIMEOUT 60 SKIP_RETURN_CODE 77)
