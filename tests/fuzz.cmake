# Fuzz regressions (tests/fuzz/README.md): ctest `fuzz.replay` feeds every
# committed crasher in tests/fuzz/regressions/, the golden tests and the
# samples through the fuzz target's logic (tests/fuzz/fuzz_compile.cpp: lex,
# parse, sema, codegen, diagnostic rendering), built here without libFuzzer
# by tests/fuzz/replay_main.cpp. It fails on any crash or uncaught exception;
# configure with -DTILESLC_SANITIZE=ON to have ASan/UBSan check it too.
# Unfixed crashers wait in tests/fuzz/pending/ and are not replayed.
add_executable(tileslc_fuzz_replay ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz_compile.cpp
                                   ${CMAKE_CURRENT_LIST_DIR}/fuzz/replay_main.cpp)
target_link_libraries(tileslc_fuzz_replay PRIVATE tileslc_sema tileslc_codegen tileslc_parse)
target_compile_definitions(tileslc_fuzz_replay PRIVATE TILESLC_FUZZ_STDLIB="${PROJECT_SOURCE_DIR}/stdlib")
file(GLOB _tileslc_fuzz_samples CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/samples/*/*.tpy)
add_test(NAME fuzz.replay
         COMMAND tileslc_fuzz_replay ${CMAKE_CURRENT_LIST_DIR}/fuzz/regressions
                 ${CMAKE_CURRENT_LIST_DIR}/golden ${_tileslc_fuzz_samples})
set_tests_properties(fuzz.replay PROPERTIES LABELS "fuzz" TIMEOUT 120)
