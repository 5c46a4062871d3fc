# gdb.* tests: gdb in batch mode on an emulated kernel built with `tileslc --debug`
# (tileslc_add_cpu_kernels(... DEBUG)) and runtime/gdb/tileslc-gdb.py loaded, as
# docs/debugging.md shows it: a breakpoint at a .tpy line in one emulated thread,
# the .tpy locals and the thread's indices, a tensor through the pretty-printer,
# `next` to the following .tpy line without entering the runtime's files. Each
# printed value is checked (tests/gdb/*.py). Skipped, saying so, where gdb is not
# installed (tools/bootstrap.sh installs it).
if(NOT TILESLC_HAVE_CPU_EMULATION OR TILESLC_SANITIZE)
  return()
endif()
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "tileslc: python3 not found: gdb.* tests are not run")
  return()
endif()
include(${PROJECT_SOURCE_DIR}/cmake/TileslcEmulation.cmake)

tileslc_add_cpu_kernels(gdb_vector_add_kernels SOURCES "${PROJECT_SOURCE_DIR}/samples/vector_add/vector_add.tpy" DEBUG)
add_executable(gdb_vector_add "${CMAKE_CURRENT_SOURCE_DIR}/gdb/vector_add_main.cpp")
target_link_libraries(gdb_vector_add PRIVATE gdb_vector_add_kernels)
target_compile_options(gdb_vector_add PRIVATE -g -O0)
add_test(NAME gdb.vector_add
         COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/vector_add_gdb.py"
                 --script "${PROJECT_SOURCE_DIR}/runtime/gdb/tileslc-gdb.py" $<TARGET_FILE:gdb_vector_add>
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")  # not the sources: the .tpy is found by its absolute path
set_tests_properties(gdb.vector_add PROPERTIES LABELS "gdb;emu" TIMEOUT 60 SKIP_RETURN_CODE 77)
# What VS Code's cppdbg sends gdb for the launch.json of docs/debugging.md (its MI commands).
add_test(NAME gdb.vscode_mi
         COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/vscode_mi.py"
                 --script "${PROJECT_SOURCE_DIR}/runtime/gdb/tileslc-gdb.py"
                 --tpy "${PROJECT_SOURCE_DIR}/samples/vector_add/vector_add.tpy" $<TARGET_FILE:gdb_vector_add>
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(gdb.vscode_mi PROPERTIES LABELS "gdb;emu" TIMEOUT 60 SKIP_RETURN_CODE 77)

# Layouts, tensor views and register fragments through the printers (tileslc --debug's
# debug views): samples/tiled_copy on an 18 x 136 matrix (tests/gdb/tiled_copy_main.cpp).
tileslc_add_cpu_kernels(gdb_tiled_copy_kernels SOURCES "${PROJECT_SOURCE_DIR}/samples/tiled_copy/tiled_copy.tpy" DEBUG)
add_executable(gdb_tiled_copy "${CMAKE_CURRENT_SOURCE_DIR}/gdb/tiled_copy_main.cpp")
target_link_libraries(gdb_tiled_copy PRIVATE gdb_tiled_copy_kernels)
target_compile_options(gdb_tiled_copy PRIVATE -g -O0)
add_test(NAME gdb.tiled_copy
         COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/tiled_copy_gdb.py"
                 --script "${PROJECT_SOURCE_DIR}/runtime/gdb/tileslc-gdb.py" $<TARGET_FILE:gdb_tiled_copy>
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(gdb.tiled_copy PROPERTIES LABELS "gdb;emu" TIMEOUT 60 SKIP_RETURN_CODE 77)

# Shared-memory views, a fragment's (8,8) table and `tileslc barrier` at a __syncthreads():
# samples/sgemm on 128 x 128 x 16 (tests/gdb/sgemm_main.cpp).
tileslc_add_cpu_kernels(gdb_sgemm_kernels SOURCES "${PROJECT_SOURCE_DIR}/samples/sgemm/sgemm.tpy" DEBUG)
add_executable(gdb_sgemm "${CMAKE_CURRENT_SOURCE_DIR}/gdb/sgemm_main.cpp")
target_link_libraries(gdb_sgemm PRIVATE gdb_sgemm_kernels)
target_compile_options(gdb_sgemm PRIVATE -g -O0)
add_test(NAME gdb.sgemm
         COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/sgemm_gdb.py"
                 --script "${PROJECT_SOURCE_DIR}/runtime/gdb/tileslc-gdb.py" $<TARGET_FILE:gdb_sgemm>
         WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
set_tests_properties(gdb.sgemm PROPERTIES LABELS "gdb;emu" TIMEOUT 60 SKIP_RETURN_CODE 77)
