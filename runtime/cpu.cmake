# libtileslc_rt_cpu: the runtime of the CPU emulation target (tileslc
# --target=cpu). The same host sources as libtileslc_rt (tensor views, Status,
# validation, launch, device buffers), compiled against the CUDA runtime shim
# in include/tileslc/cpu/cuda (first on the include path, so their
# <cuda_runtime.h> is the shim), plus the emulator: the CUDA runtime API on
# host memory, the fiber scheduler (thread-block clusters included), the bounds-check messages, and the sm_90
# atoms (tensor maps, mbarriers, TMA, wgmma). Needs no
# CUDA; needs Boost.Context (Debian: libboost-context-dev) for the fibers.
find_package(Boost 1.74 QUIET COMPONENTS context)
if(NOT Boost_CONTEXT_FOUND)
  message(STATUS "tileslc: Boost.Context not found (Debian: libboost-context-dev): the CPU emulation target "
                 "(libtileslc_rt_cpu, emu.* tests) is not built")
  return()
endif()

find_package(Threads REQUIRED)

set(_rt "${CMAKE_CURRENT_LIST_DIR}")
add_library(tileslc_rt_cpu STATIC
  ${_rt}/src/status.cpp
  ${_rt}/src/tensor_view.cpp
  ${_rt}/src/validate.cpp
  ${_rt}/src/launch.cpp
  ${_rt}/src/launch_cluster.cpp
  ${_rt}/src/device_buffer.cpp
  ${_rt}/src/tma.cpp
  ${_rt}/src/cpu/cuda_runtime.cpp
  ${_rt}/src/cpu/tensor_map.cpp
  ${_rt}/src/cpu/mbarrier.cpp
  ${_rt}/src/cpu/tma_copy.cpp
  ${_rt}/src/cpu/cluster.cpp
  ${_rt}/src/cpu/wgmma.cpp
  ${_rt}/src/cpu/racecheck.cpp
  ${_rt}/src/cpu/grid.cpp
  ${_rt}/src/cpu/fiber_stack.cpp
  ${_rt}/src/cpu/checked.cpp
  ${_rt}/src/cpu/occupancy.cpp)
target_include_directories(tileslc_rt_cpu BEFORE PUBLIC
  $<BUILD_INTERFACE:${_rt}/include/tileslc/cpu/cuda>
  $<BUILD_INTERFACE:${_rt}/include>)
target_link_libraries(tileslc_rt_cpu PRIVATE Boost::context Threads::Threads)
target_compile_features(tileslc_rt_cpu PUBLIC cxx_std_20)
target_compile_options(tileslc_rt_cpu PRIVATE -Wall -Wextra)
set_target_properties(tileslc_rt_cpu PROPERTIES POSITION_INDEPENDENT_CODE ON)
add_library(tileslc::rt_cpu ALIAS tileslc_rt_cpu)
set(TILESLC_HAVE_CPU_EMULATION ON)
