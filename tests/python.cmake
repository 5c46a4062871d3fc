# The Python package (python/tileslc; label python):
#   python.cpu  tests/python/test_cpu.py: CPU-target kernels on NumPy arrays
#               and CPU torch tensors through DLPack (skipped, exit 77,
#               without NumPy; the torch case is skipped without PyTorch);
#   python.gpu  tests/python/test_gpu.py: CUDA kernels on torch CUDA tensors
#               on torch's current stream (skipped without a GPU).
# The interpreter is TILESLC_PYTHON: by default the one CMake found, or
# Debian's /usr/bin/python3 when only that one has NumPy (python3-numpy and
# python3-torch install there, not into a pyenv or venv interpreter).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_tileslc_python "${Python3_EXECUTABLE}")
execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import numpy" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _rc EQUAL 0 AND EXISTS /usr/bin/python3)
  execute_process(COMMAND /usr/bin/python3 -c "import numpy" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(_tileslc_python /usr/bin/python3)
  endif()
endif()
set(TILESLC_PYTHON "${_tileslc_python}" CACHE FILEPATH "The Python interpreter of the python.* tests")

set(_env TILESLC=$<TARGET_FILE:tileslc> TILESLC_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/python_cache)
if(TILESLC_SANITIZE)
  # The interpreter is not sanitized, the runtime it loads is (TILESLC_SANITIZER_PRELOAD, top-level
  # CMakeLists.txt); CPython's objects alive at exit are not leaks to report.
  list(APPEND _env LD_PRELOAD=${TILESLC_SANITIZER_PRELOAD} ASAN_OPTIONS=detect_leaks=0)
endif()
if(TILESLC_HAVE_CPU_EMULATION AND TILESLC_DLPACK_INCLUDE_DIR)
  add_test(NAME python.cpu COMMAND ${TILESLC_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/python/test_cpu.py)
  set_tests_properties(python.cpu PROPERTIES LABELS python TIMEOUT 600 SKIP_RETURN_CODE 77 ENVIRONMENT "${_env}")
endif()
if(TILESLC_HAVE_CUDA AND TILESLC_DLPACK_INCLUDE_DIR)
  add_test(NAME python.gpu COMMAND ${TILESLC_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/python/test_gpu.py)
  set_tests_properties(python.gpu PROPERTIES LABELS "python;gpu" TIMEOUT 600 SKIP_RETURN_CODE 77 ENVIRONMENT "${_env}")
endif()
