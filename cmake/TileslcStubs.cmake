# Editor stubs (issue 16 item 5, docs/editors.md): tools/gen_stubs.py writes
# `.pyi` stubs of the kernel-side stdlib (tileslc, tileslc.cute, ... and the
# `cutlass` alias) from compiler/sema/builtins.def and stdlib/**.tpy into
# <build>/stubs; `cmake --install` puts them in share/tileslc/stubs. Point
# pyright's or Pylance's stubPath there.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "tileslc: no Python 3 interpreter: the editor stubs are not generated")
  return()
endif()
file(GLOB_RECURSE _tileslc_stdlib_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/stdlib/*.tpy)
set(TILESLC_STUBS_DIR ${PROJECT_BINARY_DIR}/stubs)
add_custom_command(
  OUTPUT ${TILESLC_STUBS_DIR}/stamp
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tools/gen_stubs.py ${TILESLC_STUBS_DIR}
  COMMAND ${CMAKE_COMMAND} -E touch ${TILESLC_STUBS_DIR}/stamp
  DEPENDS ${PROJECT_SOURCE_DIR}/tools/gen_stubs.py ${PROJECT_SOURCE_DIR}/compiler/sema/builtins.def
          ${_tileslc_stdlib_sources}
  COMMENT "Generating the editor stubs (.pyi) of the stdlib"
  VERBATIM)
add_custom_target(tileslc_stubs ALL DEPENDS ${TILESLC_STUBS_DIR}/stamp)
if(TILESLC_INSTALL)
  install(DIRECTORY ${TILESLC_STUBS_DIR}/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tileslc/stubs
          FILES_MATCHING PATTERN "*.pyi")
endif()
