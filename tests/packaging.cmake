# Packaging tests (label `packaging`): tests/packaging/run_consumer.py builds
# tests/packaging/consumer, a project outside the tree, against `cmake
# --install` of this build with find_package(tileslc) (packaging.find_package:
# builds and runs it, then checks that touching an imported .tpy reruns only
# tileslc), and configures it with add_subdirectory (packaging.add_subdirectory:
# only the compiler and the runtime, no tests or samples). The consumer uses
# the CPU emulation target, so both run without CUDA; they need Boost.Context
# and Ninja.
find_package(Python3 COMPONENTS Interpreter QUIET)
find_program(TILESLC_NINJA ninja)
if(NOT Python3_Interpreter_FOUND OR NOT TILESLC_HAVE_CPU_EMULATION OR NOT TILESLC_NINJA)
  message(STATUS "tileslc: packaging.* tests need Python 3, Ninja and the CPU emulation target; not added")
  return()
endif()
foreach(_via install subdirectory)
  set(_name packaging.find_package)
  if(_via STREQUAL "subdirectory")
    set(_name packaging.add_subdirectory)
  endif()
  add_test(NAME ${_name}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/packaging/run_consumer.py --via ${_via}
                   --source ${PROJECT_SOURCE_DIR} --tileslc-build ${PROJECT_BINARY_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/packaging/${_via} --cmake ${CMAKE_COMMAND} --ninja ${TILESLC_NINJA})
  set_tests_properties(${_name} PROPERTIES LABELS packaging TIMEOUT 600 PASS_REGULAR_EXPRESSION "PASS: packaging via")
  if(TILESLC_SANITIZE)  # the pip check's interpreter loads the sanitized runtime (run_consumer.py)
    set_tests_properties(${_name} PROPERTIES ENVIRONMENT "TILESLC_TEST_PRELOAD=${TILESLC_SANITIZER_PRELOAD}")
  endif()
endforeach()
# packaging.docker_steps: deploy/docker/Dockerfile linted against install_steps.sh and the tree,
# and its install and kernels steps run on this build (CPU emulator kernels; no docker needed).
add_test(NAME packaging.docker_steps
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/packaging/docker_steps.py --source ${PROJECT_SOURCE_DIR}
                 --build ${PROJECT_BINARY_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/packaging/docker)
set_tests_properties(packaging.docker_steps PROPERTIES LABELS packaging TIMEOUT 600 PASS_REGULAR_EXPRESSION "PASS: docker steps")
