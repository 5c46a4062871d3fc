# Compiles one sample through tileslc and nvcc (run by the compile.* ctests,
# see tests/compile.cmake):
#   cmake -DTILESLC=... -DNVCC=... -DTPY=sample.tpy -DARCH=sm_80|sm_90a
#         -DRUNTIME_INCLUDE=<repo>/runtime/include -DOUT_DIR=<dir> [-DIMPORT_DIR=<dir>[,<dir>...]] -P compile_sample.cmake
# Fails when tileslc or nvcc fails, when ptxas reports no kernel, or when any
# kernel spills registers (ptxas -v must say "0 bytes spill stores, 0 bytes
# spill loads" for every function).
foreach(v TILESLC NVCC TPY ARCH RUNTIME_INCLUDE OUT_DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "compile_sample.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT ARCH MATCHES "^sm_([0-9]+a?)$")
  message(FATAL_ERROR "compile_sample.cmake: ARCH must look like sm_80 or sm_90a, found '${ARCH}'")
endif()
set(_cc "${CMAKE_MATCH_1}")

get_filename_component(_name "${TPY}" NAME_WE)
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
set(_cu "${OUT_DIR}/${_name}.cu")
set(_h "${OUT_DIR}/${_name}.h")

# IMPORT_DIR (optional): where imported .tpy modules live (gemm_fp8_sm90 imports gemm_sm90), a
# comma-separated list for several (tools/bench/membound/membound_sweep.tpy imports three samples).
set(_import)
if(DEFINED IMPORT_DIR)
  string(REPLACE "," ";" _import_dirs "${IMPORT_DIR}")
  foreach(_dir IN LISTS _import_dirs)
    list(APPEND _import -I "${_dir}")
  endforeach()
endif()
execute_process(
  COMMAND "${TILESLC}" "${TPY}" ${_import} --arch "${ARCH}" -o "${_cu}" -H "${_h}" --color=never
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "tileslc failed (${_rc}) on ${TPY} for ${ARCH}:\n${_out}${_err}")
endif()

execute_process(
  COMMAND "${NVCC}" -std=c++17 -c "${_cu}" -o "${OUT_DIR}/${_name}.o"
          "-I${RUNTIME_INCLUDE}" "-I${OUT_DIR}"
          "-gencode=arch=compute_${_cc},code=sm_${_cc}" -Xptxas -v
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
set(_log "${_out}${_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed (${_rc}) on ${_cu} for ${ARCH}:\n${_log}")
endif()

string(REGEX MATCHALL "[0-9]+ bytes spill stores, [0-9]+ bytes spill loads" _spills "${_log}")
if(NOT _spills)
  message(FATAL_ERROR "ptxas -v reported no kernel for ${_cu} (${ARCH}); expected spill statistics:\n${_log}")
endif()
foreach(s IN LISTS _spills)
  if(NOT s STREQUAL "0 bytes spill stores, 0 bytes spill loads")
    message(FATAL_ERROR "register spills in ${_name} for ${ARCH} (${s}):\n${_log}")
  endif()
endforeach()
list(LENGTH _spills _n)
message(STATUS "${_name} ${ARCH}: tileslc + nvcc ok, ${_n} function(s), 0 bytes spill")
