// libFuzzer target over the whole front end: the input is one .tpy file, run
// through lex + parse + sema and, when sema succeeds, the IR verifier (a
// problem is an internal compiler error: the target aborts), the IR printer
// (--dump-ir) and codegen for both targets (the CUDA .cu, the CPU emulator's
// .cu and its not-emulated check, the header and the metadata JSON). Nothing
// is written to disk; sema's print()
// output (std::cout) goes to a null buffer. The stdlib directory is baked in
// at build time (-DTILESLC_FUZZ_STDLIB=...).
//
// Built two ways:
//  - tests/fuzz/build.sh: clang++ -fsanitize=fuzzer,address,undefined (libFuzzer main);
//  - tests/fuzz.cmake: with -DTILESLC_FUZZ_NO_LIBFUZZER and replay_main.cpp, a
//    plain driver that feeds the committed regression inputs (ctest fuzz.replay).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "diag/diag.h"
#include "ir/print.h"
#include "ir/verify.h"
#include "parse/parse.h"
#include "sema/sema.h"
#include "source/source.h"

#ifndef TILESLC_FUZZ_STDLIB
#error "define TILESLC_FUZZ_STDLIB to the repository's stdlib directory"
#endif

namespace {

class NullBuf : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tileslc;
  // Never destroyed: std::cout is flushed after static destructors run, so a
  // function-local static buffer would be used after its destruction at exit.
  static bool silenced = [] {
    std::cout.rdbuf(new NullBuf);
    return true;
  }();
  (void)silenced;

  std::string text(reinterpret_cast<const char*>(data), size);
  source::SourceManager sm;
  diag::DiagnosticEngine diags(sm);
  // A directory that does not exist: imports resolve only against the stdlib,
  // never against whatever lies in the fuzzer's working directory.
  source::FileId fid = sm.add_buffer("/nonexistent-tileslc-fuzz/input.tpy", std::move(text));

  sema::Options opts;
  opts.stdlib_dir = TILESLC_FUZZ_STDLIB;
  std::vector<std::string> deps;
  auto program = sema::analyze(sm, fid, opts, diags, &deps);
  if (program && !diags.has_errors()) {
    // The driver reports these as E0712 "internal compiler error" (debug
    // builds): whatever the input, sema must not build invalid IR.
    if (const auto problems = ir::verify(*program); !problems.empty()) {
      for (const auto& p : problems) std::cerr << "invalid IR in " << p.function << ": " << p.message << "\n";
      std::abort();
    }
    (void)ir::print(*program);
    codegen::Options copts;
    copts.cu_path = "fuzz.cu";
    copts.header_name = "fuzz.h";
    copts.version = "fuzz";
    copts.sm = &sm;
    (void)codegen::emit_cuda(*program, copts);
    (void)codegen::emit_header(*program, copts);
    (void)codegen::emit_metadata(*program, copts);
    // --target=cpu: the emulator's flavour of the .cu, generated (as the
    // driver does) only when every operation is emulated.
    if (codegen::not_emulated(*program).empty()) {
      copts.target = codegen::Target::Cpu;
      (void)codegen::emit_cuda(*program, copts);
    }
  }
  // Render the diagnostics too (into a string): spans and line tables are
  // exercised on whatever ranges the phases reported.
  std::ostringstream sink;
  diag::RenderOptions ro;
  diags.render_all(sink, ro);
#ifndef TILESLC_FUZZ_NO_JSON  // build.sh: NO_JSON=1 while the JSON renderer's crash is pending
  ro.format = diag::Format::Json;
  diags.render_all(sink, ro);
#endif
  return 0;
}
