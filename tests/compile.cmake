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
                       -DIMPORT_DIR=${PROJECT_SOURCE_DIR}/samples/gemm_sm90
                       -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/compile/${_sample}.${_arch}
                       -P ${CMAKE_CURRENT_LIST_DIR}/compile/compile_sample.cmake)
      set_tests_properties(compile.${_sample}.${_arch} PROPERTIES LABELS "compile" TIMEOUT 300
                           REQUIRED_FILES $<TARGET_FILE:tileslc>)
      if(_sample MATCHES "_sm90$" AND _arch STREQUAL "sm_80")
        # TMA and wgmma do not exist on sm_80: tileslc must refuse with E0709.
        # (CMake's message() wraps long lines, so any white space between the words.)
        set_tests_properties(compile.${_sample}.${_arch} PROPERTIES PASS_REGULAR_EXPRESSION "error\\[E0709\\]:[ \t\r\n]+cute.nvgpu.cpasync.make_tiled_tma_atom\\(\\)[ \t\r\n]+needs")
      endif()
    endforeach()
  endforeach()
  # tileslc_membound --sweep's instances of the row samples (tools/bench/membound/membound_sweep.tpy).
  foreach(_arch sm_80 sm_90a)
    add_test(NAME compile.membound_sweep.${_arch}
             COMMAND ${CMAKE_COMMAND}
                     -DTILESLC=$<TARGET_FILE:tileslc> -DNVCC=${TILESLC_NVCC}
                     -DTPY=${PROJECT_SOURCE_DIR}/tools/bench/membound/membound_sweep.tpy -DARCH=${_arch}
                     -DRUNTIME_INCLUDE=${PROJECT_SOURCE_DIR}/runtime/include
                     "-DIMPORT_DIR=${PROJECT_SOURCE_DIR}/samples/softmax,${PROJECT_SOURCE_DIR}/samples/rmsnorm,${PROJECT_SOURCE_DIR}/samples/layernorm"
                     -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/compile/membound_sweep.${_arch}
                     -P ${CMAKE_CURRENT_LIST_DIR}/compile/compile_sample.cmake)
    set_tests_properties(compile.membound_sweep.${_arch} PROPERTIES LABELS "compile" TIMEOUT 300
                         REQUIRED_FILES $<TARGET_FILE:tileslc>)
  endforeach()
  # The GPU feature tests' kernels (tests/gpu/), so ptxas sees every atom they issue on every
  # architecture that has it (stmatrix and BFloat16 pairs are sm_90).
  foreach(_case IN ITEMS mma_sm80_ext:sm_80 mma_sm80_ext:sm_90a stmatrix:sm_90a wgmma_epilogue:sm_90a warp_redux:sm_90a named_barrier:sm_80)
    string(REPLACE ":" ";" _case "${_case}")
    list(GET _case 0 _name)
    list(GET _case 1 _arch)
    add_test(NAME compile.gpu.${_name}.${_arch}
             COMMAND ${CMAKE_COMMAND}
                     -DTILESLC=$<TARGET_FILE:tileslc> -DNVCC=${TILESLC_NVCC} -DTPY=${CMAKE_CURRENT_LIST_DIR}/gpu/${_name}.tpy -DARCH=${_arch}
                     -DRUNTIME_INCLUDE=${PROJECT_SOURCE_DIR}/runtime/include
                     -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/compile/gpu.${_name}.${_arch}
                     -P ${CMAKE_CURRENT_LIST_DIR}/compile/compile_sample.cmake)
    set_tests_properties(compile.gpu.${_name}.${_arch} PROPERTIES LABELS "compile" TIMEOUT 300 REQUIRED_FILES $<TARGET_FILE:tileslc>)
  endforeach()
endif()
