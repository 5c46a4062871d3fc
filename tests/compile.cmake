# Compile tests (DESIGN.md section 7): every samples/*/*.tpy goes through tileslc
# and nvcc for sm_80 and sm_90a, as ctests compile.<sample>.<arch>. They fail on
# any tileslc or nvcc error and on register spills reported by ptxas -v; the
# driver is tests/compile/compile_sample.cmake. No GPU needed, but nvcc is:
# without it (TILESLC_HAVE_CUDA off) no compile.* tests are registered.
if(TILESLC_HAVE_CUDA AND TILESLC_NVCC)
  file(GLOB _tileslc_compile_samples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/*/*.tpy)
  list(SORT _tileslc_compile_samples)
  foreach(_tpy IN LISTS _tileslc_compile_samples)
    get_filename_component(_sample ${_tpy} NAME_WE)
    foreach(_arch sm_80 sm_90a)
      add_test(NAME compile.${_sample}.${_arch}
               COMMAND ${CMAKE_COMMAND}
                       -DTILESLC=$<TARGET_FILE:tileslc> -DNVCC=${TILESLC_NVCC} -DTPY=${_tpy} -DARCH=${_arch}
                       -DRUNTIME_INCLUDE=${PROJECT_SOURCE_DIR}/runtime/include
                       -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/compile/${_sample}.${_arch}
                       -P ${CMAKE_CURRENT_LIST_DIR}/compile/compile_sample.cmake)
      set_tests_properties(compile.${_sample}.${_arch} PROPERTIES LABELS "compile" TIMEOUT 300
                           REQUIRED_FILES $<TARGET_FILE:tileslc>)
      if(_sample MATCHES "_sm90$" AND _arch STREQUAL "sm_80")
        # TMA and wgmma do not exist on sm_80: tileslc must refuse with E0709. (Only the code: CMake
        # wraps the FATAL_ERROR text at a width, so the words after it move with the checkout's path.)
        set_tests_properties(compile.${_sample}.${_arch} PROPERTIES PASS_REGULAR_EXPRESSION "error\\[E0709\\]")
      endif()
    endforeach()
  endforeach()
endif()
