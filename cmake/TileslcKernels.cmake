# tileslc_add_kernels: compile .tpy kernel sources with tileslc and build the
# generated CUDA C++ into a static library.
#
#   tileslc_add_kernels(<target>
#     SOURCES a.tpy [b.tpy ...]
#     [TARGET cuda|cpu]
#     [ARCH sm_80|sm_90a|sm_XX|sm_XXa]
#     [DEFINES NAME=VALUE ...]
#     [INCLUDE_DIRS dir ...]
#     [PREFIX prefix]
#     [TUNED results.json]
#     [SHARED]
#     [DEBUG])
#
# For each source `<name>.tpy` this adds a custom command that runs
#
#   tileslc <name>.tpy -o <gen>/<P><name>.cu -H <gen>/<P><name>.h --emit-metadata <gen>/<P><name>.json
#           --depfile <gen>/<P><name>.d [--arch ARCH] [-I dir ...] [-D NAME=VALUE ...] [--host-prefix P]
#
# with <gen> = ${CMAKE_CURRENT_BINARY_DIR}/tileslc_gen and <P> the PREFIX. It
# re-runs when the .tpy, any .tpy it imports (through the depfile) or the
# tileslc executable changes; tileslc leaves an output that did not change
# alone, so what includes the header is not rebuilt. Then <target> is a
# STATIC (or SHARED) library of the generated .cu files with <gen> as a PUBLIC
# include directory (so `#include "<P><name>.h"` works for consumers) and the
# runtime linked PUBLIC: tileslc_rt (tileslc::rt), or for SHARED the shared
# runtime (tileslc::rt_shared), whose C functions (the DLPack import) the
# Python package finds through the kernel library.
#
#   TARGET        cuda (default): CUDA C++ built by nvcc; cpu: C++ for the host
#                 compiler that runs the kernels in the CPU emulator
#                 (tileslc_add_cpu_kernels, cmake/TileslcEmulation.cmake).
#   TUNED         the results database of `tileslc tune` (tileslc --tuned): each
#                 host function it decides for dispatches on the shape bucket to the
#                 best configuration's specialization (docs/tuning.md).
#   DEBUG         tileslc --debug (every .tpy local a C++ local; docs/debugging.md);
#                 nvcc -G -g (device code for cuda-gdb), or -g -O0 on the CPU target.
#   PREFIX        prepended to the host functions' names (tileslc
#                 --host-prefix), the generated files' names and the kernels'
#                 default namespace: two instances of one .tpy (other DEFINES)
#                 or two sources with the same name link into one program.
#
#   ARCH          target architecture, passed to tileslc --arch and to nvcc:
#                 sm_80 -> CUDA_ARCHITECTURES 80; an arch-specific target such
#                 as sm_90a -> CUDA_ARCHITECTURES OFF and
#                 -gencode=arch=compute_90a,code=sm_90a. Without ARCH the
#                 library uses CMAKE_CUDA_ARCHITECTURES and tileslc its default.
#   DEFINES       Constexpr parameter values, passed to tileslc as -D NAME=VALUE
#                 (not to nvcc).
#   INCLUDE_DIRS  directories searched for imported .tpy modules (tileslc -I).
#
# The tileslc executable is the in-tree `tileslc` target when it exists, else
# the imported tileslc::tileslc of find_package(tileslc), else the cache
# variable TILESLC_EXECUTABLE. TARGET cuda needs the CUDA language enabled and
# the tileslc_rt target (or the imported tileslc::rt).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/TileslcTools.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/TileslcEmulation.cmake)

function(tileslc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TK "SHARED;DEBUG" "ARCH;TARGET;PREFIX;TUNED" "SOURCES;DEFINES;INCLUDE_DIRS")
  if(TK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tileslc_add_kernels(${target}): unexpected arguments: ${TK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TK_SOURCES)
    message(FATAL_ERROR "tileslc_add_kernels(${target}): no SOURCES given, expected at least one .tpy file")
  endif()
  if(TK_TARGET STREQUAL "cpu")
    set(_tk_forward)
    foreach(_kw ARCH PREFIX TUNED)
      if(TK_${_kw})
        list(APPEND _tk_forward ${_kw} "${TK_${_kw}}")
      endif()
    endforeach()
    foreach(_kw SHARED DEBUG)
      if(TK_${_kw})
        list(APPEND _tk_forward ${_kw})
      endif()
    endforeach()
    tileslc_add_cpu_kernels(${target} SOURCES ${TK_SOURCES} DEFINES ${TK_DEFINES} INCLUDE_DIRS ${TK_INCLUDE_DIRS}
                            ${_tk_forward})
    return()
  elseif(TK_TARGET AND NOT TK_TARGET STREQUAL "cuda")
    message(FATAL_ERROR "tileslc_add_kernels(${target}): TARGET is `${TK_TARGET}`, expected cuda or cpu")
  endif()
  get_property(_tk_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST _tk_languages)
    message(FATAL_ERROR "tileslc_add_kernels(${target}): the CUDA language is not enabled; "
                        "call enable_language(CUDA) (the tileslc build does so when it finds nvcc)")
  endif()

  _tileslc_compiler("tileslc_add_kernels(${target})" _tk_exe _tk_exe_dep)
  if(TK_SHARED)
    _tileslc_pick_target("tileslc_add_kernels(${target})" _tk_rt "it is built only when CUDA is found"
                         tileslc_rt_shared tileslc::rt_shared)
  else()
    _tileslc_pick_target("tileslc_add_kernels(${target})" _tk_rt "it is built only when CUDA is found"
                         tileslc_rt tileslc::rt)
  endif()

  # Architecture: tileslc flag and nvcc settings.
  set(_tk_arch_args)
  set(_tk_gencode)
  set(_tk_cuda_archs)
  if(TK_ARCH)
    if(NOT TK_ARCH MATCHES "^sm_([0-9]+)(a?)$")
      message(FATAL_ERROR "tileslc_add_kernels(${target}): ARCH is `${TK_ARCH}`, expected sm_80, sm_90a or "
                          "another sm_<number>[a]")
    endif()
    set(_tk_arch_num "${CMAKE_MATCH_1}")
    set(_tk_arch_suffix "${CMAKE_MATCH_2}")
    set(_tk_arch_args --arch ${TK_ARCH})
    if(_tk_arch_suffix STREQUAL "a")
      set(_tk_cuda_archs OFF)
      set(_tk_gencode "-gencode=arch=compute_${_tk_arch_num}a,code=sm_${_tk_arch_num}a")
    else()
      set(_tk_cuda_archs "${_tk_arch_num}")
    endif()
  endif()

  set(_tk_extra_args)
  foreach(_dir IN LISTS TK_INCLUDE_DIRS)
    get_filename_component(_dir_abs "${_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _tk_extra_args -I "${_dir_abs}")
  endforeach()
  foreach(_def IN LISTS TK_DEFINES)
    if(NOT _def MATCHES "^[A-Za-z_][A-Za-z0-9_]*=.+$")
      message(FATAL_ERROR "tileslc_add_kernels(${target}): DEFINES entry `${_def}` is not NAME=VALUE")
    endif()
    list(APPEND _tk_extra_args -D "${_def}")
  endforeach()
  if(TK_PREFIX)
    list(APPEND _tk_extra_args --host-prefix "${TK_PREFIX}")
  endif()
  if(TK_DEBUG)
    list(APPEND _tk_extra_args --debug)
  endif()
  # TUNED: the results database of `tileslc tune`; each host function it decides for dispatches on
  # the shape bucket (docs/tuning.md). The generated code is remade when the database changes.
  set(_tk_tuned_dep)
  if(TK_TUNED)
    get_filename_component(_tk_tuned_dep "${TK_TUNED}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND _tk_extra_args --tuned "${_tk_tuned_dep}")
  endif()

  set(_tk_gen_dir "${CMAKE_CURRENT_BINARY_DIR}/tileslc_gen")
  file(MAKE_DIRECTORY "${_tk_gen_dir}")
  set(_tk_generated)
  foreach(_src IN LISTS TK_SOURCES)
    get_filename_component(_src_abs "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_name "${_src_abs}" NAME_WE)
    set(_name "${TK_PREFIX}${_name}")
    # Two sources with the same base name in one directory would write the same files.
    get_property(_owner DIRECTORY PROPERTY "TILESLC_GENERATED_${_name}")
    if(_owner)
      message(FATAL_ERROR "tileslc_add_kernels(${target}): ${_src} generates tileslc_gen/${_name}.cu, which "
                          "${_owner} in this directory already generates; give one of them a PREFIX")
    endif()
    set_property(DIRECTORY PROPERTY "TILESLC_GENERATED_${_name}" "${_src_abs} (target ${target})")

    set(_cu "${_tk_gen_dir}/${_name}.cu")
    set(_h "${_tk_gen_dir}/${_name}.h")
    set(_json "${_tk_gen_dir}/${_name}.json")
    set(_d "${_tk_gen_dir}/${_name}.d")
    add_custom_command(
      OUTPUT "${_cu}" "${_h}" "${_json}"
      COMMAND ${_tk_exe} "${_src_abs}" -o "${_cu}" -H "${_h}" --emit-metadata "${_json}" --depfile "${_d}"
              ${_tk_arch_args} ${_tk_extra_args}
      DEPENDS "${_src_abs}" ${_tk_exe_dep} ${_tk_tuned_dep}
      DEPFILE "${_d}"
      WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      COMMENT "tileslc ${_name}.tpy"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND _tk_generated "${_cu}" "${_h}")
  endforeach()

  if(TK_SHARED)
    add_library(${target} SHARED ${_tk_generated})
    # One CUDA runtime with libtileslc_rt.so, which launches the kernels: a static
    # copy in the library would hold the kernels' registrations where the launch
    # does not look.
    set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
  else()
    add_library(${target} STATIC ${_tk_generated})
  endif()
  target_include_directories(${target} PUBLIC "${_tk_gen_dir}")
  target_link_libraries(${target} PUBLIC ${_tk_rt})
  # The generated code is C++17; -lineinfo keeps the #line mapping to .tpy
  # lines in profiler and sanitizer reports at no run-time cost.
  set_target_properties(${target} PROPERTIES
    CUDA_STANDARD 17
    CUDA_STANDARD_REQUIRED ON
    POSITION_INDEPENDENT_CODE ON)
  if(TK_DEBUG)
    # Device code for cuda-gdb (-G implies what -lineinfo gives; nvcc warns when both are given).
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-G -g>)
  else()
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  endif()
  if(DEFINED _tk_cuda_archs AND NOT _tk_cuda_archs STREQUAL "")
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${_tk_cuda_archs}")
  endif()
  if(_tk_gencode)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${_tk_gencode}>)
  endif()
endfunction()
