# ctest emu.compare.*: tools/emu_vs_gpu.py, which compares each sample's
# results under the CPU emulator with its results on a GPU (run it on a GPU
# machine; docs/cpu_emulation.md). Here it reads captured outputs: one pair
# that agrees within the documented tolerances and one with three planted
# disagreements (an error above its tolerance, a different count, a case the
# GPU run lacks), each of which it must report.
find_package(Python3 COMPONENTS Interpreter QUIET)
if(NOT Python3_Interpreter_FOUND)
  return()
endif()
set(_cmp ${PROJECT_SOURCE_DIR}/tools/emu_vs_gpu.py)
set(_logs ${CMAKE_CURRENT_SOURCE_DIR}/emu/compare)
add_test(NAME emu.compare.agree
         COMMAND ${Python3_EXECUTABLE} ${_cmp} --emu-log ${_logs}/emu.log --gpu-log ${_logs}/gpu_agree.log)
set_tests_properties(emu.compare.agree PROPERTIES LABELS emu TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "4 samples, 7 emulated cases, 0 disagreeing")
add_test(NAME emu.compare.differ
         COMMAND ${Python3_EXECUTABLE} ${_cmp} --emu-log ${_logs}/emu.log --gpu-log ${_logs}/gpu_differ.log)
set_tests_properties(emu.compare.differ PROPERTIES LABELS emu TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "DIFFER +512x128x1024 .*DIFFER +N=4097 skew 0.00 .*DIFFER +128x256x1024 \\(#2\\) .*3 disagreeing")
