# cmake --install: the compiler (bin/tileslc), its stdlib next to it
# (share/tileslc/stdlib, where tileslc looks relative to its own binary), the
# runtime libraries (static and shared, CUDA and CPU emulation where built),
# their headers (include/tileslc) and the CMake package (lib/cmake/tileslc:
# tileslcConfig.cmake exporting tileslc::tileslc, tileslc::rt,
# tileslc::rt_shared, tileslc::rt_cpu, tileslc::rt_cpu_shared and
# tileslc_add_kernels), and the Python package (share/tileslc/python, for pip).
# An outside project then needs
#
#   find_package(tileslc CONFIG REQUIRED)
#   tileslc_add_kernels(my_kernels SOURCES k.tpy)
#   target_link_libraries(app PRIVATE my_kernels)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TILESLC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tileslc")

set(_tileslc_installed tileslc)
foreach(_t tileslc_rt tileslc_rt_shared tileslc_rt_cpu tileslc_rt_cpu_shared)
  if(TARGET ${_t})
    list(APPEND _tileslc_installed ${_t})
  endif()
endforeach()
# A sanitized build's runtime archives reference ASan/UBSan's runtime: a consumer links it too
# (without it, find_package users of an asan build fail at link with __asan_* undefined).
if(TILESLC_SANITIZE)
  foreach(_t tileslc_rt tileslc_rt_cpu)
    if(TARGET ${_t})
      target_link_options(${_t} INTERFACE "$<INSTALL_INTERFACE:-fsanitize=address,undefined>")
    endif()
  endforeach()
endif()
# The installed compiler finds its stdlib and runtime headers relative to itself.
set_target_properties(tileslc PROPERTIES EXPORT_NAME tileslc)
install(TARGETS ${_tileslc_installed} EXPORT tileslcTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY runtime/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY stdlib/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tileslc/stdlib
        PATTERN "__pycache__" EXCLUDE)
# gdb support for emulated kernels (docs/debugging.md): `source PREFIX/share/tileslc/gdb/tileslc-gdb.py`.
install(FILES runtime/gdb/tileslc-gdb.py DESTINATION ${CMAKE_INSTALL_DATADIR}/tileslc/gdb)
# `tileslc tune` runs the tuner from share/tileslc/tools/tune (docs/tuning.md).
install(PROGRAMS tools/tune/tileslc_tune.py DESTINATION ${CMAKE_INSTALL_DATADIR}/tileslc/tools/tune)
install(FILES tools/tune/tune_runner.cpp DESTINATION ${CMAKE_INSTALL_DATADIR}/tileslc/tools/tune)
# The Python package, for `pip install PREFIX/share/tileslc/python`. _install_prefix.py, written
# at install time (so `cmake --install --prefix P` counts), tells the pip-installed package where
# the compiler and the runtime are (python/tileslc/_build.py).
install(DIRECTORY python/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tileslc/python
        PATTERN "__pycache__" EXCLUDE PATTERN "*.egg-info" EXCLUDE)
install(CODE "file(WRITE \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/tileslc/python/tileslc/_install_prefix.py\"
  \"# Written by cmake --install: the prefix this copy of the package was installed with.\\nPREFIX = r'\${CMAKE_INSTALL_PREFIX}'\\n\")")
install(EXPORT tileslcTargets NAMESPACE tileslc:: DESTINATION ${TILESLC_INSTALL_CMAKEDIR})

set(TILESLC_PACKAGE_HAS_CUDA_RUNTIME OFF)
if(TARGET tileslc_rt)
  set(TILESLC_PACKAGE_HAS_CUDA_RUNTIME ON)
endif()
set(TILESLC_PACKAGE_HAS_CPU_RUNTIME OFF)
if(TARGET tileslc_rt_cpu)
  set(TILESLC_PACKAGE_HAS_CPU_RUNTIME ON)
endif()
configure_package_config_file(cmake/tileslcConfig.cmake.in "${CMAKE_CURRENT_BINARY_DIR}/tileslcConfig.cmake"
                              INSTALL_DESTINATION ${TILESLC_INSTALL_CMAKEDIR})
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/tileslcConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/tileslcConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/tileslcConfigVersion.cmake"
              cmake/TileslcKernels.cmake cmake/TileslcEmulation.cmake cmake/TileslcTools.cmake
        DESTINATION ${TILESLC_INSTALL_CMAKEDIR})
