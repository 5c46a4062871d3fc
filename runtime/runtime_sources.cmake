# The sources libtileslc_rt and libtileslc_rt_cpu share (the CPU one compiles
# them against the CUDA runtime shim), and the usage requirements both give
# their consumers: the public include directory, in the build tree and
# installed.
set(TILESLC_RT_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/src/status.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/tensor_view.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/dlpack.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/validate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/launch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/launch_cluster.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/device_buffer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/tma.cpp)

# DLPack's header (Debian: libdlpack-dev). Without it the runtime builds
# without the DLPack import (tileslc/dlpack.h then says so at compile time).
find_path(TILESLC_DLPACK_INCLUDE_DIR dlpack/dlpack.h)

function(tileslc_runtime_usage target)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_FUNCTION_LIST_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  if(TILESLC_DLPACK_INCLUDE_DIR)
    target_include_directories(${target} PRIVATE ${TILESLC_DLPACK_INCLUDE_DIR})
    target_compile_definitions(${target} PRIVATE TILESLC_HAVE_DLPACK=1)
  endif()
  target_compile_features(${target} PUBLIC cxx_std_17)
endfunction()
