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
include(${_rt}/runtime_sources.cmake)
add_library(tileslc_rt_cpu_objects OBJECT
  ${TILESLC_RT_SOURCES}
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
target_compile_options(tileslc_rt_cpu_objects PRIVATE -Wall -Wextra)
target_link_libraries(tileslc_rt_cpu_objects PRIVATE Boost::context Threads::Threads)
set_target_properties(tileslc_rt_cpu_objects PROPERTIES POSITION_INDEPENDENT_CODE ON)
# Static (tileslc::rt_cpu) and shared (tileslc::rt_cpu_shared: what kernel
# libraries loaded from Python link) from the same objects.
add_library(tileslc_rt_cpu STATIC $<TARGET_OBJECTS:tileslc_rt_cpu_objects>)
add_library(tileslc_rt_cpu_shared SHARED $<TARGET_OBJECTS:tileslc_rt_cpu_objects>)
foreach(_lib tileslc_rt_cpu_objects tileslc_rt_cpu tileslc_rt_cpu_shared)
  tileslc_runtime_usage(${_lib})
  # The shim first, so a driver's <cuda_runtime.h> is the emulator's.
  target_include_directories(${_lib} BEFORE PUBLIC
    $<BUILD_INTERFACE:${_rt}/include/tileslc/cpu/cuda>
    $<INSTALL_INTERFACE:include/tileslc/cpu/cuda>)
  target_compile_features(${_lib} PUBLIC cxx_std_20)
endforeach()
target_link_libraries(tileslc_rt_cpu PRIVATE Boost::context Threads::Threads)
target_link_libraries(tileslc_rt_cpu_shared PRIVATE Boost::context Threads::Threads)
set_target_properties(tileslc_rt_cpu PROPERTIES EXPORT_NAME rt_cpu POSITION_INDEPENDENT_CODE ON)
set_target_properties(tileslc_rt_cpu_shared PROPERTIES OUTPUT_NAME tileslc_rt_cpu EXPORT_NAME rt_cpu_shared)
add_library(tileslc::rt_cpu ALIAS tileslc_rt_cpu)
add_library(tileslc::rt_cpu_shared ALIAS tileslc_rt_cpu_shared)
set(TILESLC_HAVE_CPU_EMULATION ON)
