# GPU tests: every sample binary runs as ctest `gpu.<name>`. A sample exits 77
# when no CUDA device is present, which ctest reports as skipped, so CI
# without a GPU still builds (and so compiles through tileslc and nvcc) every
# sample and shows the GPU tests as skipped.
if(TILESLC_HAVE_CUDA AND TILESLC_BUILD_SAMPLES)
  get_property(_tileslc_samples GLOBAL PROPERTY TILESLC_SAMPLE_TARGETS)
  foreach(name IN LISTS _tileslc_samples)
    if(TARGET ${name})
      add_test(NAME gpu.${name} COMMAND ${name})
      set_tests_properties(gpu.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS gpu RUN_SERIAL ON)
    endif()
  endforeach()
endif()
