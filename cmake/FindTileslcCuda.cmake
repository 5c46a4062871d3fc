# Locates the CUDA toolkit for the runtime, samples and GPU tests: nvcc from
# CUDA_PATH, /usr/local/cuda or PATH. Sets TILESLC_HAVE_CUDA and, when found,
# enables the CUDA language. The compiler itself never needs CUDA.
set(TILESLC_HAVE_CUDA OFF)
set(_tileslc_nvcc_hints)
if(DEFINED ENV{CUDA_PATH})
  list(APPEND _tileslc_nvcc_hints "$ENV{CUDA_PATH}/bin")
endif()
list(APPEND _tileslc_nvcc_hints /usr/local/cuda/bin)
find_program(TILESLC_NVCC nvcc HINTS ${_tileslc_nvcc_hints})
if(TILESLC_NVCC)
  if(NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER ${TILESLC_NVCC})
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # sm_80 and sm_90 machine code; sm_90a kernels set their own -gencode.
    set(CMAKE_CUDA_ARCHITECTURES 80 90)
  endif()
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  set(TILESLC_HAVE_CUDA ON)
  message(STATUS "tileslc: CUDA found: ${TILESLC_NVCC}")
else()
  message(WARNING "tileslc: nvcc not found (looked in $CUDA_PATH/bin, /usr/local/cuda/bin and PATH). "
                  "The compiler and its tests build, but the runtime, samples and GPU tests are skipped. "
                  "Install the CUDA Toolkit or set CUDA_PATH.")
endif()
