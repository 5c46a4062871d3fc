# tileslc_add_cpu_kernels: compile .tpy kernel sources with `tileslc
# --target=cpu` and build the generated C++ with the host compiler into a
# static library that runs the kernels in the CPU emulator (no GPU, no CUDA).
#
#   tileslc_add_cpu_kernels(<target>
#     SOURCES a.tpy [b.tpy ...]
#     [ARCH sm_80|sm_90a]         # the architecture whose atoms sema accepts
#     [DEFINES NAME=VALUE ...])
#
# For each `<name>.tpy` it runs
#
#   tileslc <name>.tpy --target=cpu -o <gen>/<name>.cpp -H <gen>/<name>.h --depfile <gen>/<name>.d
#
# with <gen> = ${CMAKE_CURRENT_BINARY_DIR}/tileslc_cpu_gen/<target>, and links
# <target> PUBLIC against tileslc_rt_cpu, which puts the CUDA runtime shim
# (runtime/include/tileslc/cpu/cuda) first on consumers' include path: a host
# driver written for CUDA (cudaMalloc, cudaMemcpy, streams, events) compiles
# unchanged with the host compiler and runs against the emulator.
include_guard(GLOBAL)

function(tileslc_add_cpu_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TK "" "ARCH" "SOURCES;DEFINES")
  if(TK_UNPARSED_ARGUMENTS OR NOT TK_SOURCES)
    message(FATAL_ERROR "tileslc_add_cpu_kernels(${target}): expected SOURCES a.tpy ... [ARCH arch] [DEFINES N=V ...]")
  endif()
  if(NOT TARGET tileslc_rt_cpu OR NOT TARGET tileslc)
    message(FATAL_ERROR "tileslc_add_cpu_kernels(${target}): needs the tileslc and tileslc_rt_cpu targets")
  endif()
  set(_args)
  if(TK_ARCH)
    list(APPEND _args --arch ${TK_ARCH})
  endif()
  foreach(_def IN LISTS TK_DEFINES)
    list(APPEND _args -D "${_def}")
  endforeach()
  set(_gen "${CMAKE_CURRENT_BINARY_DIR}/tileslc_cpu_gen/${target}")
  file(MAKE_DIRECTORY "${_gen}")
  set(_outputs)
  foreach(_src IN LISTS TK_SOURCES)
    get_filename_component(_src_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_name "${_src_abs}" NAME_WE)
    # Relative to the project when inside it, so reports read "samples/x/x.tpy:27: error: ...".
    file(RELATIVE_PATH _src_arg "${PROJECT_SOURCE_DIR}" "${_src_abs}")
    if(_src_arg MATCHES "^\\.\\./")
      set(_src_arg "${_src_abs}")
    endif()
    add_custom_command(
      OUTPUT "${_gen}/${_name}.cpp" "${_gen}/${_name}.h"
      COMMAND tileslc "${_src_arg}" --target=cpu -o "${_gen}/${_name}.cpp" -H "${_gen}/${_name}.h"
              --depfile "${_gen}/${_name}.d" ${_args}
      DEPENDS "${_src_abs}" tileslc
      DEPFILE "${_gen}/${_name}.d"
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
      COMMENT "tileslc --target=cpu ${_name}.tpy"
      VERBATIM)
    list(APPEND _outputs "${_gen}/${_name}.cpp" "${_gen}/${_name}.h")
  endforeach()
  add_library(${target} STATIC ${_outputs})
  target_include_directories(${target} PUBLIC "${_gen}")
  target_link_libraries(${target} PUBLIC tileslc_rt_cpu)
endfunction()
