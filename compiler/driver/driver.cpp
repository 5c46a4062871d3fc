// The tileslc command line: parses options (CLI11), runs the pipeline
// source -> tokens -> AST -> sema/IR -> CUDA C++, renders diagnostics, and
// writes outputs atomically (a temporary file renamed into place, only when
// the whole compilation succeeded). Exit codes: 0 ok, 1 compile errors,
// 2 usage or I/O errors, 3 an internal compiler error (the IR verifier).
#include "driver/driver.h"

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <tuple>

#include "ast/ast.h"
#include "driver/nvcc.h"
#include "codegen/codegen.h"
#include "diag/diag.h"
#include "diag/explain.h"
#include "driver/layout_cli.h"
#include "ir/print.h"
#include "ir/verify.h"
#include "parse/parse.h"
#include "sema/sema.h"

namespace tileslc::driver {

namespace fs = std::filesystem;

namespace {

/// Where writing `path` lands: symbolic links followed (relative ones from their
/// own directory, a dangling one to the file it names), made absolute. False
/// with `error` set for a loop of links.
bool resolve_output(const std::string& path, fs::path* out, std::string* error) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = path;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    if (hops == 40) {
      *error = "cannot write '" + path + "': too many levels of symbolic links";
      return false;
    }
    fs::path next = fs::read_symlink(p, ec);
    if (ec) break;
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  fs::path canon = fs::weakly_canonical(p, ec);
  *out = ec ? p.lexically_normal() : canon;
  return true;
}

/// Writes `text` in place into a device or FIFO (a FIFO nobody reads is an
/// error, not a wait); false with `error` set.
bool write_in_place(const std::string& path, const fs::path& target, const std::string& text, std::string* error) {
  std::error_code ec;
  const bool fifo = fs::is_fifo(target, ec);
  int fd = ::open(target.c_str(), O_WRONLY | (fifo ? O_NONBLOCK : 0));
  if (fd < 0) {
    *error = "cannot write '" + path + "': " + (errno == ENXIO ? std::string("no process is reading the FIFO") : std::strerror(errno));
    return false;
  }
  if (fifo) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a reader is there: block as usual
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = "cannot write '" + path + "': " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

/// Writes every (path, text) through a temporary file in the target's
/// directory, then renames them all: readers never see a partial file, and
/// when any write fails (disk full included) none of the outputs is replaced.
/// Devices, FIFOs and `-` (standard output) are written in place; symbolic
/// links are followed, also dangling ones.
bool write_outputs(const std::vector<std::pair<std::string, std::string>>& outputs, std::string* error) {
  struct Staged {
    fs::path tmp, target;
  };
  std::vector<Staged> staged;
  std::vector<std::tuple<std::string, fs::path, const std::string*>> direct;  // (path, target, text)
  auto discard = [&] {
    std::error_code ec;
    for (const auto& st : staged) fs::remove(st.tmp, ec);
  };
  auto fail = [&](const std::string& msg) {
    *error = msg;
    discard();
    return false;
  };
  int index = 0;
  for (const auto& [path, text] : outputs) {
    if (path == "-") {
      direct.emplace_back(path, fs::path(), &text);
      continue;
    }
    fs::path target;
    std::string why;
    if (!resolve_output(path, &target, &why)) return fail(why);
    std::error_code ec;
    const fs::file_status st = fs::status(target, ec);
    if (fs::is_directory(st)) return fail("cannot write '" + path + "': it is a directory");
    if (fs::exists(st) && !fs::is_regular_file(st)) {
      direct.emplace_back(path, target, &text);
      continue;
    }
    // A short temporary name: the target's own may be as long as a name can be.
    fs::path tmp = target.parent_path() / (".tileslc." + std::to_string(::getpid()) + "." + std::to_string(index++) + ".tmp");
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return fail("cannot write '" + path + "': " + std::strerror(errno));
    staged.push_back({tmp, target});
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (out.fail()) return fail("cannot write '" + path + "': " + std::strerror(errno));
  }
  for (const auto& [path, target, text] : direct) {
    if (path == "-") {
      std::cout.write(text->data(), static_cast<std::streamsize>(text->size()));
      std::cout.flush();
      if (!std::cout) return fail(std::string("cannot write the output to standard output: ") + std::strerror(errno));
      continue;
    }
    std::string why;
    if (!write_in_place(path, target, *text, &why)) return fail(why);
  }
  for (const auto& st : staged) {
    std::error_code ec;
    fs::rename(st.tmp, st.target, ec);
    if (ec) return fail("cannot move '" + st.tmp.string() + "' to '" + st.target.string() + "': " + ec.message());
  }
  return true;
}

std::string exe_dir(const char* argv0) {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) return p.parent_path().string();
  return fs::absolute(argv0, ec).parent_path().string();
}

std::string find_stdlib(const std::string& flag, const char* argv0) {
  std::vector<fs::path> candidates;
  if (!flag.empty()) candidates.push_back(flag);
  if (const char* env = std::getenv("TILESLC_STDLIB")) candidates.push_back(env);
  fs::path dir = exe_dir(argv0);
  candidates.push_back(dir / ".." / ".." / "stdlib");          // build tree: build/bin/tileslc
  candidates.push_back(dir / ".." / "share" / "tileslc" / "stdlib");  // installed
  candidates.push_back(TILESLC_SOURCE_STDLIB);
  for (const auto& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c / "tileslc" / "__init__.tpy", ec)) return fs::weakly_canonical(c, ec).string();
  }
  return "";
}

std::string find_runtime_include(const char* argv0) {
  fs::path dir = exe_dir(argv0);
  for (const auto& c : {dir / ".." / ".." / "runtime" / "include", dir / ".." / "include", fs::path(TILESLC_SOURCE_RUNTIME_INCLUDE)}) {
    std::error_code ec;
    if (fs::is_regular_file(c / "tileslc" / "runtime.h", ec)) return fs::weakly_canonical(c, ec).string();
  }
  return "";
}

std::string depfile_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

int explain(const std::string& code) {
  auto k = diag::find_code_for_explain(code);
  if (!k) {
    std::cerr << "tileslc: error[E0803]: unknown diagnostic code '" << code
              << "', expected a code such as E0404 or W0701\n";
    std::cerr << "  = help: docs/diagnostics.md lists every code\n";
    return 2;
  }
  std::cout << diag::render_explanation(*k);
  return 0;
}

/// Whether sema's IR is verified: TILESLC_VERIFY_IR=1 or 0 decides, else
/// builds with assertions verify and release builds do not.
bool verify_ir_enabled() {
  if (const char* env = std::getenv("TILESLC_VERIFY_IR"); env && *env) return std::string(env) != "0";
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

/// Reports each problem the verifier finds in `program` as E0712; true when there is none.
bool verify_ir(const ir::Program& program, diag::DiagnosticEngine& diags) {
  const auto problems = ir::verify(program);
  for (const auto& p : problems) {
    auto& d = diags.report(diag::Kind::InvalidIr, p.loc,
                           "internal compiler error: invalid IR" + (p.function.empty() ? "" : " in " + p.function) + ": " + p.message);
    d.help("this is a bug in tileslc, not in the program; --dump-ir shows the IR");
  }
  return problems.empty();
}

}  // namespace

int run(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "layout") return run_layout_cli(argc - 1, argv + 1);
  CLI::App app{"tileslc: compiles .tpy kernels (Python syntax, CuTe's model of the GPU) to CUDA C++", "tileslc"};
  std::string input, out_cu, out_h, out_json, arch = "sm_90a", target = "cuda", depfile, diag_format = "human", color = "auto", stdlib_flag;
  std::string explain_code, kernel_namespace;
  std::vector<std::string> includes, defines, warning_flags;
  bool syntax_only = false, dump_ast = false, dump_ir = false, no_warnings = false, version = false, compile_only = false;
  int max_errors = -1;
  app.add_option("input", input, "the .tpy file to compile");
  app.add_option("-o,--output", out_cu, "write the generated CUDA C++ here (default: INPUT with .cu); with -c, the object file");
  app.add_flag("-c", compile_only, "also compile the generated code with nvcc into an object file (-o), reporting nvcc's errors at .tpy lines");
  app.add_option("-H,--header", out_h, "write the header declaring the host functions here");
  app.add_option("--emit-metadata", out_json, "write metadata JSON (kernels, parameters, arch) here");
  app.add_option("--kernel-namespace", kernel_namespace,
                 "C++ namespace of the generated kernels (default tileslc_kernels::<file stem>); give one to each of two "
                 ".tpy files with the same stem that are linked into one program");
  app.add_option("--arch", arch, "target architecture: sm_80, sm_90 or sm_90a")->capture_default_str();
  app.add_option("--target", target,
                 "cuda: CUDA C++ for nvcc; cpu: C++ for the host compiler that runs the kernels in the CPU emulator "
                 "(runtime/include/tileslc/cpu), every tensor access bounds-checked")
      ->capture_default_str();
  // One value per occurrence: `-I dir file.tpy` must leave file.tpy positional.
  app.add_option("-I", includes, "add a directory to the module search path")->allow_extra_args(false);
  app.add_option("-D", defines, "set a Constexpr parameter: -D NAME=VALUE")->allow_extra_args(false);
  app.add_option("--depfile", depfile, "write a Makefile-style depfile listing every .tpy read");
  app.add_option("--diagnostics-format", diag_format, "human, gcc, json or sarif")->capture_default_str();
  app.add_option("--color", color, "auto, always or never")->capture_default_str();
  app.add_option("-W", warning_flags, "-Werror: treat warnings as errors")->allow_extra_args(false);
  app.add_flag("-w", no_warnings, "suppress warnings");
  CLI::Option* max_errors_opt = app.add_option("--max-errors", max_errors,
                 "stop printing after N errors (0: no limit; default 50 for human and gcc output, no limit for json and sarif)");
  app.add_option("--stdlib", stdlib_flag, "directory holding the tileslc stdlib (default: found next to the binary)");
  app.add_flag("--syntax-only", syntax_only, "stop after parsing");
  app.add_flag("--dump-ast", dump_ast, "print the AST and stop");
  app.add_flag("--dump-ir", dump_ir, "print the IR after semantic analysis and stop (no outputs are written)");
  app.add_option("--explain", explain_code, "explain a diagnostic code, e.g. --explain E0402");
  app.add_flag("--version", version, "print the version");
  // Command-line errors honor --diagnostics-format=json|sarif (CI reads them like any
  // other): the format is taken from argv before parsing, since parsing may be what fails.
  std::string early_format = "human";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--diagnostics-format=", 0) == 0) early_format = a.substr(21);
    else if (a == "--diagnostics-format" && i + 1 < argc) early_format = argv[i + 1];
  }
  auto command_line_error = [&early_format](diag::Kind kind, const std::string& msg, const std::string& help) {
    if (early_format == "json" || early_format == "sarif") {
      source::SourceManager sm;
      diag::DiagnosticEngine diags(sm);
      auto& d = diags.report(kind, {}, msg);
      if (!help.empty()) d.help(help);
      diag::RenderOptions render;
      render.format = early_format == "json" ? diag::Format::Json : diag::Format::Sarif;
      render.color = false;
      render.tool_version = TILESLC_VERSION;
      diags.render_all(std::cerr, render);
    } else {
      std::cerr << "tileslc: error[" << diag::info(kind).code << "]: " << msg << "\n";
      if (!help.empty()) std::cerr << "  = help: " << help << "\n";
    }
    return 2;
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return command_line_error(diag::Kind::BadCommandLine, e.what(), "run 'tileslc --help' for usage");
  }
  if (version) {
    std::cout << "tileslc " << TILESLC_VERSION << "\n";
    return 0;
  }
  if (!explain_code.empty()) return explain(explain_code);
  auto usage_error = [&](const std::string& msg) { return command_line_error(diag::Kind::BadCommandLine, msg, ""); };
  // -D takes one value: `-D file.tpy` leaves no input, and the -D is what is wrong.
  for (const auto& d : defines)
    if (d.find('=') == std::string::npos || d.find('=') == 0) return usage_error("-D expects NAME=VALUE, found '" + d + "'");
  for (const auto& [flag, value] : {std::pair<const char*, const std::string*>{"-o", &out_cu}, {"-H", &out_h},
                                    {"--emit-metadata", &out_json}, {"--depfile", &depfile}})
    if (app.count(flag) && value->empty()) return usage_error(std::string(flag) + " needs a file name (or - for standard output)");
  if (input.empty()) return usage_error("no input file; usage: tileslc FILE.tpy -o FILE.cu [-H FILE.h]");
  diag::RenderOptions render;
  if (diag_format == "human") render.format = diag::Format::Human;
  else if (diag_format == "gcc") render.format = diag::Format::Gcc;
  else if (diag_format == "json") render.format = diag::Format::Json;
  else if (diag_format == "sarif") render.format = diag::Format::Sarif;
  else return usage_error("unknown --diagnostics-format '" + diag_format + "' (expected human, gcc, json or sarif)");
  if (color == "always") render.color = true;
  else if (color == "never") render.color = false;
  else if (color == "auto") render.color = ::isatty(2) && !std::getenv("NO_COLOR");
  else return usage_error("unknown --color '" + color + "' (expected auto, always or never)");
  if (arch != "sm_80" && arch != "sm_90a" && arch != "sm_90")
    return command_line_error(diag::Kind::UnsupportedArch, "unknown --arch '" + arch + "' (expected sm_80, sm_90 or sm_90a)", "");
  if (target != "cuda" && target != "cpu") return usage_error("unknown --target '" + target + "' (expected cuda or cpu)");
  if (target == "cpu" && compile_only) return usage_error("-c compiles with nvcc: it cannot be combined with --target=cpu");
  bool werror = false;
  for (const auto& w : warning_flags) {
    if (w == "error") werror = true;
    else return usage_error("unknown warning flag '-W" + w + "' (expected -Werror)");
  }
  sema::Options sopts;
  sopts.arch = arch;
  if (!kernel_namespace.empty()) {
    if (std::string why = sema::check_kernel_namespace(kernel_namespace); !why.empty())
      return usage_error("--kernel-namespace '" + kernel_namespace + "': " + why);
    sopts.kernel_namespace = kernel_namespace;
  }
  sopts.include_dirs = includes;
  for (const auto& d : defines) {
    auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0) return usage_error("-D expects NAME=VALUE, found '" + d + "'");
    sopts.defines[d.substr(0, eq)] = d.substr(eq + 1);
  }
  // An explicit stdlib (flag, else environment) must be one: falling back to the default
  // would hide a typo.
  for (const auto& [given, what] : {std::pair<std::string, const char*>{stdlib_flag, "--stdlib"},
                                    {stdlib_flag.empty() && std::getenv("TILESLC_STDLIB") ? std::getenv("TILESLC_STDLIB") : "",
                                     "TILESLC_STDLIB"}}) {
    std::error_code ec;
    if (!given.empty() && !fs::is_regular_file(fs::path(given) / "tileslc" / "__init__.tpy", ec))
      return usage_error(std::string(what) + " '" + given + "' is not a tileslc stdlib directory (no tileslc/__init__.tpy in it)");
  }
  sopts.stdlib_dir = find_stdlib(stdlib_flag, argv[0]);
  if (sopts.stdlib_dir.empty())
    return usage_error("cannot find the tileslc stdlib (tileslc/__init__.tpy); pass --stdlib DIR or set TILESLC_STDLIB");

  source::SourceManager sm;
  diag::DiagnosticEngine diags(sm);
  diags.set_warnings_as_errors(werror);
  diags.set_suppress_warnings(no_warnings);
  render.tool_version = TILESLC_VERSION;
  // Like clang's -ferror-limit: a person reads the first errors; machines get all of them.
  if (max_errors_opt->count() && max_errors < 0)
    return usage_error("--max-errors takes 0 (no limit) or a positive count, found " + std::to_string(max_errors));
  if (max_errors < 0) max_errors = (render.format == diag::Format::Json || render.format == diag::Format::Sarif) ? 0 : 50;
  render.max_errors = static_cast<size_t>(max_errors);
  auto finish = [&](int code) {
    diags.render_all(std::cerr, render);
    if (render.format == diag::Format::Human && diags.error_count() > 0)
      std::cerr << diags.error_count() << " error" << (diags.error_count() == 1 ? "" : "s") << " generated.\n";
    return code;
  };
  std::string err;
  auto fid = sm.load_file(input, &err);
  if (!fid) {
    diags.report(diag::Kind::CannotReadFile, {}, err);
    return finish(2);
  }
  if (syntax_only || dump_ast) {
    auto mod = parse::parse_file(sm, *fid, diags);
    if (dump_ast && !diags.has_errors()) std::cout << ast::dump(mod) << "\n";
    return finish(diags.has_errors() ? 1 : 0);
  }
  std::vector<std::string> deps;
  auto program = sema::analyze(sm, *fid, sopts, diags, &deps);
  if (!program || diags.has_errors()) return finish(1);
  // The dump comes first: it is what shows an invalid IR.
  if (dump_ir) std::cout << ir::print(*program) << std::flush;
  if (verify_ir_enabled() && !verify_ir(*program, diags)) return finish(3);
  if (dump_ir) return finish(0);

  std::string object_path;
  if (compile_only) {
    object_path = out_cu.empty() ? fs::path(input).filename().replace_extension(".o").string() : out_cu;
    if (object_path == "-") return usage_error("-c writes an object file: -o - (standard output) is not supported with it");
  }
  if (out_cu.empty()) out_cu = fs::path(input).filename().replace_extension(".cu").string();
  {
    // An output that names the input, a module it imports or another output would destroy it
    // (several outputs may go to one device, such as /dev/null, or to `-`). Outputs are
    // compared where writing them lands (links followed), sources as files; hard links too.
    std::vector<std::pair<std::string, std::string>> paths = {{"the input", input}};
    for (const auto& d : deps) paths.emplace_back("the imported module", d);
    const size_t sources = paths.size();
    paths.emplace_back("-o", compile_only ? object_path : out_cu);
    if (!out_h.empty()) paths.emplace_back("-H", out_h);
    if (!out_json.empty()) paths.emplace_back("--emit-metadata", out_json);
    if (!depfile.empty()) paths.emplace_back("--depfile", depfile);
    std::vector<fs::path> where;
    for (size_t i = 0; i < paths.size(); ++i) {
      std::error_code ec;
      fs::path w;
      std::string why;
      if (i >= sources && paths[i].second != "-" && !resolve_output(paths[i].second, &w, &why)) {
        diags.report(diag::Kind::CannotWriteFile, {}, why);
        return finish(2);
      }
      if (i < sources) w = fs::weakly_canonical(fs::absolute(paths[i].second, ec), ec);
      where.push_back(w);
    }
    auto shareable = [](const std::string& p, const fs::path& w) {
      std::error_code ec;
      const fs::file_status st = fs::status(w, ec);
      return p == "-" || (fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st));
    };
    for (size_t j = sources; j < paths.size(); ++j)
      for (size_t i = 0; i < j; ++i) {
        if (paths[j].second == "-" || (i >= sources && shareable(paths[j].second, where[j]))) continue;
        std::error_code ec;
        if (where[i] == where[j] || (fs::exists(where[i], ec) && fs::exists(where[j], ec) && fs::equivalent(where[i], where[j], ec))) {
          diags.report(diag::Kind::BadCommandLine, {},
                       paths[j].first + " '" + paths[j].second + "' is the same file as " + paths[i].first +
                           (i > 0 ? " '" + paths[i].second + "'" : ""));
          return finish(2);
        }
      }
  }
  fs::path object_target, object_tmp;
  if (compile_only) {
    // nvcc writes a temporary object beside the target, moved onto it only when nvcc succeeds:
    // a failure leaves whatever was there (the input, a device) untouched.
    std::string why;
    resolve_output(object_path, &object_target, &why);
    const std::string stem = ".tileslc." + std::to_string(::getpid());
    out_cu = (object_target.parent_path() / (stem + ".cu")).string();
    object_tmp = object_target.parent_path() / (stem + ".o");
  }
  if (target == "cpu") {
    bool first = true;
    for (const auto& n : codegen::not_emulated(*program)) {
      auto& d = diags.report(diag::Kind::NotEmulated, n.loc, "the CPU emulation target cannot run " + n.what + " yet");
      if (first) d.help("compile this kernel with --target=cuda, or use the sm_80 atoms the emulator runs (cp.async, mma.sync)");
      first = false;
    }
    if (diags.has_errors()) return finish(1);
  }
  codegen::Options copts;
  copts.cu_path = out_cu;
  copts.header_name = out_h;
  copts.version = TILESLC_VERSION;
  copts.sm = &sm;
  copts.target = target == "cpu" ? codegen::Target::Cpu : codegen::Target::Cuda;
  std::vector<std::pair<std::string, std::string>> outputs;
  outputs.emplace_back(out_cu, codegen::emit_cuda(*program, copts));
  if (!out_h.empty()) outputs.emplace_back(out_h, codegen::emit_header(*program, copts));
  if (!out_json.empty()) outputs.emplace_back(out_json, codegen::emit_metadata(*program, copts));
  if (!depfile.empty()) {
    std::string text = depfile_escape(out_cu) + ":";
    for (const auto& d : deps) text += " \\\n  " + depfile_escape(d);
    outputs.emplace_back(depfile, text + "\n");
  }
  if (!write_outputs(outputs, &err)) {
    diags.report(diag::Kind::CannotWriteFile, {}, err);
    return finish(2);
  }
  if (compile_only) {
    NvccJob job{out_cu, object_tmp.string(), arch, find_runtime_include(argv[0]), {}};
    std::string unmapped;
    int rc = run_nvcc(job, sm, diags, &unmapped);
    std::error_code ec;
    fs::remove(out_cu, ec);
    // nvcc's own lines that name no .tpy line: only in human output, where they help.
    if (rc != 0 && !unmapped.empty() && render.format == diag::Format::Human) std::cerr << unmapped;
    if (rc != 0) {
      fs::remove(object_tmp, ec);
      return finish(1);
    }
    // Onto the target: renamed over a regular file, written into a device (/dev/null).
    const fs::file_status st = fs::status(object_target, ec);
    if (fs::exists(st) && !fs::is_regular_file(st)) {
      std::ifstream in(object_tmp, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      fs::remove(object_tmp, ec);
      std::string why;
      if (!write_in_place(object_path, object_target, bytes, &why)) {
        diags.report(diag::Kind::CannotWriteFile, {}, why);
        return finish(2);
      }
    } else {
      fs::rename(object_tmp, object_target, ec);
      if (ec) {
        diags.report(diag::Kind::CannotWriteFile, {}, "cannot move the object file to '" + object_path + "': " + ec.message());
        fs::remove(object_tmp, ec);
        return finish(2);
      }
    }
  }
  return finish(diags.has_errors() ? 1 : 0);
}

}  // namespace tileslc::driver
