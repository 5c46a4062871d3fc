# tileslc_add_cpu_kernels: compile .tpy kernel sources with `tileslc
# --target=cpu` and build the generated C++ with the host compiler into a
# static library that runs the kernels in the CPU emulator (no GPU, no CUDA).
#
#   tileslc_add_cpu_kernels(<target>
#     SOURCES a.tpy [b.tpy ...]
#     [ARCH sm_80|sm_90a]         # the architecture whose atoms sema accepts
#     [DEFINES NAME=VALUE ...]
#     [INCLUDE_DIRS dir ...]      # tileslc -I
#     [PREFIX prefix]             # tileslc --host-prefix, and the files' names
#     [TUNED results.json]        # tileslc --tuned: dispatch on the shape bucket (docs/tuning.md)
#     [SHARED]                    # a shared library, linked to tileslc_rt_cpu_shared
#     [DEBUG])                    # tileslc --debug, compiled -g -O0: for gdb (docs/debugging.md)
#
# (tileslc_add_kernels(... TARGET cpu) calls this.) For each `<name>.tpy` it runs
#
#   tileslc <name>.tpy --target=cpu -o <gen>/<P><name>.cpp -H <gen>/<P><name>.h
#           --emit-metadata <gen>/<P><name>.json --depfile <gen>/<P><name>.d
#
# with <gen> = ${CMAKE_CURRENT_BINARY_DIR}/tileslc_cpu_gen/<target> and <P>
# the PREFIX, and links <target> PUBLIC against tileslc_rt_cpu, which puts the CUDA runtime shim
# (runtime/include/tileslc/cpu/cuda) first on consumers' include path: a host
# driver written for CUDA (cudaMalloc, cudaMemcpy, streams, events) compiles
# unchanged with the host compiler and runs against the emulator.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/TileslcTools.cmake)

function(tileslc_add_cpu_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TK "SHARED;DEBUG" "ARCH;PREFIX;TUNED" "SOURCES;DEFINES;INCLUDE_DIRS")
  if(TK_UNPARSED_ARGUMENTS OR NOT TK_SOURCES)
    message(FATAL_ERROR "tileslc_add_cpu_kernels(${target}): expected SOURCES a.tpy ... [ARCH arch] [DEFINES N=V ...] "
                        "[INCLUDE_DIRS dir ...] [PREFIX prefix] [SHARED] [DEBUG]")
  endif()
  set(_caller "tileslc_add_cpu_kernels(${target})")
  _tileslc_compiler("${_caller}" _exe _exe_dep)
  set(_why "it is built only when Boost.Context is found (Debian: libboost-context-dev)")
  if(TK_SHARED)
    _tileslc_pick_target("${_caller}" _rt "${_why}" tileslc_rt_cpu_shared tileslc::rt_cpu_shared)
  else()
    _tileslc_pick_target("${_caller}" _rt "${_why}" tileslc_rt_cpu tileslc::rt_cpu)
  endif()
  set(_args)
  if(TK_ARCH)
    list(APPEND _args --arch ${TK_ARCH})
  endif()
  foreach(_def IN LISTS TK_DEFINES)
    list(APPEND _args -D "${_def}")
  endforeach()
  foreach(_dir IN LISTS TK_INCLUDE_DIRS)
    get_filename_component(_dir_abs "${_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _args -I "${_dir_abs}")
  endforeach()
  if(TK_PREFIX)
    list(APPEND _args --host-prefix "${TK_PREFIX}")
  endif()
  if(TK_DEBUG)
    list(APPEND _args --debug)
  endif()
  # TUNED: the results database of `tileslc tune` (docs/tuning.md); regenerated when it changes.
  set(_tuned_dep)
  if(TK_TUNED)
    get_filename_component(_tuned_dep "${TK_TUNED}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _args --tuned "${_tuned_dep}")
  endif()
  set(_gen "${CMAKE_CURRENT_BINARY_DIR}/tileslc_cpu_gen/${target}")
  file(MAKE_DIRECTORY "${_gen}")
  set(_outputs)
  foreach(_src IN LISTS TK_SOURCES)
    get_filename_component(_src_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_name "${_src_abs}" NAME_WE)
    set(_name "${TK_PREFIX}${_name}")
    # Relative to the project when inside it, so reports read "samples/x/x.tpy:27: error: ...".
    file(RELATIVE_PATH _src_arg "${PROJECT_SOURCE_DIR}" "${_src_abs}")
    # DEBUG: absolute, so a debugger finds the .tpy from any directory and an editor's breakpoint
    # (which names the file by its absolute path) matches the #line directives.
    if(_src_arg MATCHES "^\\.\\./" OR TK_DEBUG)
      set(_src_arg "${_src_abs}")
    endif()
    add_custom_command(
      OUTPUT "${_gen}/${_name}.cpp" "${_gen}/${_name}.h" "${_gen}/${_name}.json"
      COMMAND ${_exe} "${_src_arg}" --target=cpu -o "${_gen}/${_name}.cpp" -H "${_gen}/${_name}.h"
              --emit-metadata "${_gen}/${_name}.json" --depfile "${_gen}/${_name}.d" ${_args}
      DEPENDS "${_src_abs}" ${_exe_dep} ${_tuned_dep}
      DEPFILE "${_gen}/${_name}.d"
      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
      COMMENT "tileslc --target=cpu ${_name}.tpy"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND _outputs "${_gen}/${_name}.cpp" "${_gen}/${_name}.h")
  endforeach()
  if(TK_SHARED)
    add_library(${target} SHARED ${_outputs})
  else()
    add_library(${target} STATIC ${_outputs})
  endif()
  target_include_directories(${target} PUBLIC "${_gen}")
  target_link_libraries(${target} PUBLIC ${_rt})
  # Run-time signed + - * wrap on both targets (docs/language.md, "Integer overflow"): C++ leaves
  # signed overflow undefined and the host compiler's optimizer may assume it never happens.
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-fwrapv>)
  if(TK_DEBUG)
    # Last, so they win over the build type's -O2: every .tpy local keeps its stack slot.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-g -O0>)
  endif()
endfunction()
