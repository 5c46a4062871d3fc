# gdb.* tests: gdb in batch mode on an emulated kernel built with `tileslc --debug`
# (tileslc_add_cpu_kernels(... DEBUG)) and runtime/gdb/tileslc-gdb.py loaded, as
# docs/debugging.md shows it: a breakpoint at a .tpy line in one emulated thread,
# the .tpy locals and the thread's indices, a tensor through the pretty-printer,
# `next` to the following .tpy line without entering the runtime's files. Each
# printed value is checked (tests/gdb/NAME.steps, run by tests/gdb/gdb_batch.py).
# Skipped, saying so, where gdb is not installed (tools/bootstrap.sh installs it).
if(NOT TILESLC_HAVE_CPU_EMULATION OR TILESLC_SANITIZE)
  return()
endif()
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "tileslc: python3 not found: gdb.* tests are not run")
  return()
endif()
include(${PROJECT_SOURCE_DIR}/cmake/TileslcEmulation.cmake)

# A gdb.NAME test: samples/NAME/NAME.tpy built with DEBUG into gdb_NAME with
# tests/gdb/NAME_main.cpp, debugged by the steps of tests/gdb/NAME.steps.
function(tileslc_gdb_test name)
  tileslc_add_cpu_kernels(gdb_${name}_kernels SOURCES "${PROJECT_SOURCE_DIR}/samples/${name}/${name}.tpy" DEBUG)
  # Not through ccache: with its base_dir, an object cached by another checkout is reused with
  # that checkout's .tpy paths in its line table, and a breakpoint set by absolute path (VS Code's,
  # gdb.vscode_*) does not resolve.
  set_target_properties(gdb_${name}_kernels PROPERTIES CXX_COMPILER_LAUNCHER "")
  add_executable(gdb_${name} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/${name}_main.cpp")
  target_link_libraries(gdb_${name} PRIVATE gdb_${name}_kernels)
  target_compile_options(gdb_${name} PRIVATE -g -O0)
  add_test(NAME gdb.${name}
           COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/gdb_batch.py"
                   --steps "${CMAKE_CURRENT_SOURCE_DIR}/gdb/${name}.steps"
                   --script "${PROJECT_SOURCE_DIR}/runtime/gdb/tileslc-gdb.py" $<TARGET_FILE:gdb_${name}>
           WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")  # not the sources: the .tpy is found by its absolute path
  set_tests_properties(gdb.${name} PROPERTIES LABELS "gdb;emu" TIMEOUT 60 SKIP_RETURN_CODE 77)
endfunction()

tileslc_gdb_test(vector_add)
# Layouts, tensor views and register fragments through the printers (tileslc --debug's
# debug views): samples/tiled_copy on an 18 x 136 matrix.
tileslc_gdb_test(tiled_copy)
# Shared-memory views, a fragment's (8,8) table and `tileslc barrier` at a __syncthreads():
# samples/sgemm on 128 x 128 x 16.
tileslc_gdb_test(sgemm)
# VS Code's side of a debug session on the same program, a .tpy breakpoint, the variables,
# the console, `next`: vscode_mi, the MI commands cppdbg sends gdb for the launch.json of
# docs/debugging.md; vscode_dap, a Debug Adapter Protocol session through cdt-gdb-adapter, which
# tools/bootstrap.sh installs with npm (skipped without it).
foreach(client IN ITEMS mi dap)
  add_test(NAME gdb.vscode_${client}
           COMMAND ${Python3_EXECUTABLE} "${CMAKE_CURRENT_SOURCE_DIR}/gdb/vscode_${client}.py"
                   --script "${PROJECT_SOURCE_DIR}/runtime/gdb/tileslc-gdb.py"
                   --tpy "${PROJECT_SOURCE_DIR}/samples/vector_add/vector_add.tpy" $<TARGET_FILE:gdb_vector_add>
           WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties(gdb.vscode_${client} PROPERTIES LABELS "gdb;emu" TIMEOUT 60 SKIP_RETURN_CODE 77)
endforeach()
