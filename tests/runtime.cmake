# Runtime tests: libtileslc_rt's unit tests (validation messages, tensor views,
# Status, launch configuration checks). They need the CUDA runtime library but
# not a GPU; the GPU-dependent cases skip with a reason when none is present.
# The sources live in tests/runtime/ so that the tests/unit/*_test.cpp glob
# (built without cudart) does not pick them up.
if(TILESLC_HAVE_CUDA AND TARGET tileslc_rt)
  add_executable(runtime_test
    ${CMAKE_CURRENT_LIST_DIR}/runtime/runtime_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/runtime/runtime_test_kernels.cu)
  target_link_libraries(runtime_test PRIVATE tileslc_rt GTest::gtest GTest::gtest_main)
  set_target_properties(runtime_test PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
  gtest_discover_tests(runtime_test DISCOVERY_TIMEOUT 60 TEST_PREFIX "runtime.")
endif()
