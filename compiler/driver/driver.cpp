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
#include <optional>
#include <tuple>

#include "ast/ast.h"
#include "driver/nvcc.h"
#include "codegen/c_abi_names.h"
#include "codegen/codegen.h"
#include "diag/diag.h"
#include "diag/explain.h"
#include "driver/layout_cli.h"
#include "driver/log.h"
#include "driver/tuned.h"
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

/// True when `path` holds exactly `text`.
bool has_contents(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (fs::file_size(path, ec) != text.size() || ec) return false;
  std::ifstream in(path, std::ios::binary);
  std::string old(text.size(), '\0');
  return in.read(old.data(), static_cast<std::streamsize>(old.size())) && old == text;
}

/// Writes every (path, text) through a temporary file in the target's
/// directory, then renames them all: readers never see a partial file, and
/// when any write fails (disk full included) none of the outputs is replaced.
/// A file that already holds its text is left alone.
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
    // An unchanged output keeps its time stamp: what includes it (a main.cu including
    // the header) is not rebuilt when only an import of the .tpy was touched.
    if (fs::is_regular_file(st) && has_contents(target, text)) {
      log::info("unchanged, not rewritten: " + path);
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
    log::info("wrote " + st.target.string());
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

/// The command line as CLI11 parses it.
struct CommandLine {
  std::string input, out_cu, out_h, out_json, arch = "sm_90a", target = "cuda", depfile, diag_format = "human", color = "auto", stdlib_flag;
  std::string explain_code, kernel_namespace, host_prefix, tuned;
  std::vector<std::string> includes, defines, warning_flags;
  bool syntax_only = false, dump_ast = false, dump_ir = false, no_warnings = false, version = false, compile_only = false,
       verbose = false, debug = false;
  int max_errors = -1;
  CLI::Option* max_errors_opt = nullptr;
  /// --diagnostics-format as argv spells it, read before parsing: command-line errors are rendered in it.
  std::string early_format = "human";
};

void add_options(CLI::App& app, CommandLine& cl) {
  app.add_option("input", cl.input, "the .tpy file to compile");
  app.add_option("-o,--output", cl.out_cu, "write the generated CUDA C++ here (default: INPUT with .cu); with -c, the object file");
  app.add_flag("-c", cl.compile_only, "also compile the generated code with nvcc into an object file (-o), reporting nvcc's errors at .tpy lines");
  app.add_option("-H,--header", cl.out_h, "write the header declaring the host functions here");
  app.add_option("--emit-metadata", cl.out_json, "write metadata JSON (kernels, parameters, arch) here");
  app.add_option("--kernel-namespace", cl.kernel_namespace,
                 "C++ namespace of the generated kernels (default tileslc_kernels::<file stem>); give one to each of two "
                 ".tpy files with the same stem that are linked into one program");
  app.add_option("--host-prefix", cl.host_prefix,
                 "prepend PREFIX to every host function's name (and its C twin: tileslc_PREFIXname) and to the default "
                 "kernel namespace, so two instances of one .tpy (other -D values) link into one program");
  app.add_option("--arch", cl.arch, "target architecture: sm_80, sm_90 or sm_90a")->capture_default_str();
  app.add_option("--target", cl.target,
                 "cuda: CUDA C++ for nvcc; cpu: C++ for the host compiler that runs the kernels in the CPU emulator "
                 "(runtime/include/tileslc/cpu), every tensor access bounds-checked")
      ->capture_default_str();
  app.add_flag("-g,--debug", cl.debug,
               "code for a debugger (docs/debugging.md): every .tpy name a kernel binds to a number is a C++ local of "
               "that name, all locals kept; with --target=cpu each kernel frame also holds tl_thread_idx, tl_block_idx, "
               "tl_warp_idx and tl_lane_idx, and each name bound to a layout or a tensor view (a tensor parameter, a partition, a fragment) "
               "an object that runtime/gdb/tileslc-gdb.py prints with its layout and elements (compile with -g -O0)");
  // One value per occurrence: `-I dir file.tpy` must leave file.tpy positional.
  app.add_option("-I", cl.includes, "add a directory to the module search path")->allow_extra_args(false);
  app.add_option("-D", cl.defines, "set a Constexpr parameter: -D NAME=VALUE")->allow_extra_args(false);
  app.add_option("--depfile", cl.depfile, "write a Makefile-style depfile listing every .tpy read");
  app.add_option("--tuned", cl.tuned,
                 "a results database of 'tileslc tune': each host function it decides for dispatches on its shape "
                 "bucket to the best configuration's specialization (docs/tuning.md)");
  app.add_option("--diagnostics-format", cl.diag_format, "human, gcc, json or sarif")->capture_default_str();
  app.add_option("--color", cl.color, "auto, always or never")->capture_default_str();
  app.add_option("-W", cl.warning_flags, "-Werror: treat warnings as errors")->allow_extra_args(false);
  app.add_flag("-w", cl.no_warnings, "suppress warnings");
  cl.max_errors_opt = app.add_option("--max-errors", cl.max_errors,
                 "stop printing after N errors (0: no limit; default 50 for human and gcc output, no limit for json and sarif)");
  app.add_option("--stdlib", cl.stdlib_flag, "directory holding the tileslc stdlib (default: found next to the binary)");
  app.add_flag("--syntax-only", cl.syntax_only, "stop after parsing");
  app.add_flag("--dump-ast", cl.dump_ast, "print the AST and stop");
  app.add_flag("--dump-ir", cl.dump_ir, "print the IR after semantic analysis and stop (no outputs are written)");
  app.add_option("--explain", cl.explain_code, "explain a diagnostic code, e.g. --explain E0402");
  app.add_flag("--version", cl.version, "print the version and the git revision it was built from");
  app.add_flag("-v,--verbose", cl.verbose, "log the phases with their times, the files written and the nvcc command on stderr");
  app.footer(
      "Subcommands:\n"
      "  tileslc layout OP ARG...   CuTe's layout algebra on the command line ('tileslc layout --help')\n"
      "  tileslc tune KERNEL.tpy --shapes FILE   the autotuner ('tileslc tune --help', docs/tuning.md)\n"
      "  tileslc metrics summarize FILE.jsonl    a TILESLC_METRICS file per kernel and function; --prometheus\n"
      "  tileslc bench KERNEL.tpy --shapes ...   time one configuration as the tuner does (docs/tuning.md)\n"
      "\n"
      "Exit status: 0 success (warnings allowed); 1 errors in the program (diagnostics printed), or nvcc\n"
      "failed with -c; 2 usage errors and files that cannot be read or written; 3 an internal error\n"
      "(the IR failed its verifier: please report it).\n");
}

/// Command-line errors honor --diagnostics-format=json|sarif (CI reads them like any
/// other): the format is taken from argv before parsing, since parsing may be what fails.
std::string early_diagnostics_format(int argc, char** argv) {
  std::string format = "human";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--diagnostics-format=", 0) == 0) format = a.substr(21);
    else if (a == "--diagnostics-format" && i + 1 < argc) format = argv[i + 1];
  }
  return format;
}

/// Reports a command-line mistake, before any file is read; returns the exit status, 2.
int command_line_error(const std::string& format, diag::Kind kind, const std::string& msg, const std::string& help) {
  // Through the diagnostic engine in every format, so that a tool reading gcc, JSON or SARIF
  // output gets usage errors in that format too (with no location: "tileslc: error: ... [E0803]").
  source::SourceManager sm;
  diag::DiagnosticEngine diags(sm);
  auto& d = diags.report(kind, {}, msg);
  if (!help.empty()) d.help(help);
  diag::RenderOptions render;
  render.format = format == "json"    ? diag::Format::Json
                  : format == "sarif" ? diag::Format::Sarif
                  : format == "gcc"   ? diag::Format::Gcc
                                      : diag::Format::Human;
  render.color = false;
  render.tool_version = TILESLC_VERSION;
  diags.render_all(std::cerr, render);
  return 2;
}

/// What the options set up, once checked.
struct Settings {
  diag::RenderOptions render;
  sema::Options sema;
  bool werror = false;
};

// Each check below returns the first mistake it finds in its options ("" for none).

std::string check_file_options(const CLI::App& app, const CommandLine& cl) {
  // -D takes one value: `-D file.tpy` leaves no input, and the -D is what is wrong.
  for (const auto& d : cl.defines)
    if (d.find('=') == std::string::npos || d.find('=') == 0) return "-D expects NAME=VALUE, found '" + d + "'";
  for (const auto& [flag, value] : {std::pair<const char*, const std::string*>{"-o", &cl.out_cu}, {"-H", &cl.out_h}, {"--tuned", &cl.tuned},
                                    {"--emit-metadata", &cl.out_json}, {"--depfile", &cl.depfile}})
    if (app.count(flag) && value->empty()) return std::string(flag) + " needs a file name (or - for standard output)";
  if (cl.input.empty()) return "no input file; usage: tileslc FILE.tpy -o FILE.cu [-H FILE.h]";
  return "";
}

std::string render_settings(const CommandLine& cl, diag::RenderOptions& render) {
  if (cl.diag_format == "human") render.format = diag::Format::Human;
  else if (cl.diag_format == "gcc") render.format = diag::Format::Gcc;
  else if (cl.diag_format == "json") render.format = diag::Format::Json;
  else if (cl.diag_format == "sarif") render.format = diag::Format::Sarif;
  else return "unknown --diagnostics-format '" + cl.diag_format + "' (expected human, gcc, json or sarif)";
  if (cl.color == "always") render.color = true;
  else if (cl.color == "never") render.color = false;
  else if (cl.color == "auto") render.color = ::isatty(2) && !std::getenv("NO_COLOR");
  else return "unknown --color '" + cl.color + "' (expected auto, always or never)";
  return "";
}

std::string target_settings(const CommandLine& cl, bool& werror) {
  if (cl.target != "cuda" && cl.target != "cpu") return "unknown --target '" + cl.target + "' (expected cuda or cpu)";
  if (cl.target == "cpu" && cl.compile_only) return "-c compiles with nvcc: it cannot be combined with --target=cpu";
  for (const auto& w : cl.warning_flags) {
    if (w == "error") werror = true;
    else return "unknown warning flag '-W" + w + "' (expected -Werror)";
  }
  return "";
}

std::string sema_settings(const CommandLine& cl, const char* argv0, sema::Options& sopts) {
  sopts.arch = cl.arch;
  sopts.debug = cl.debug;
  if (!cl.kernel_namespace.empty()) {
    if (std::string why = sema::check_kernel_namespace(cl.kernel_namespace); !why.empty())
      return "--kernel-namespace '" + cl.kernel_namespace + "': " + why;
    sopts.kernel_namespace = cl.kernel_namespace;
  }
  if (!cl.host_prefix.empty()) {
    // The prefix starts C++ names: it must be able to start an identifier.
    if (std::string why = sema::check_kernel_namespace(cl.host_prefix);
        !why.empty() || cl.host_prefix.find("::") != std::string::npos)
      return "--host-prefix '" + cl.host_prefix +
             "': " + (why.empty() ? "'::' cannot be part of a function name" : why);
    if (sopts.kernel_namespace.empty()) {
      std::string ns = sema::default_kernel_namespace(cl.input);
      const size_t inner = ns.find("::") + 2;
      ns.insert(inner, cl.host_prefix);
      if (std::string why = sema::check_kernel_namespace(ns.substr(inner)); !why.empty())
        return "--host-prefix '" + cl.host_prefix + "' makes the kernel namespace '" + ns + "': " + why +
               "; give --kernel-namespace";
      sopts.kernel_namespace = ns;
    }
  }
  sopts.include_dirs = cl.includes;
  for (const auto& d : cl.defines) {
    auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0) return "-D expects NAME=VALUE, found '" + d + "'";
    sopts.defines[d.substr(0, eq)] = d.substr(eq + 1);
  }
  // An explicit stdlib (flag, else environment) must be one: falling back to the default
  // would hide a typo.
  for (const auto& [given, what] : {std::pair<std::string, const char*>{cl.stdlib_flag, "--stdlib"},
                                    {cl.stdlib_flag.empty() && std::getenv("TILESLC_STDLIB") ? std::getenv("TILESLC_STDLIB") : "",
                                     "TILESLC_STDLIB"}}) {
    std::error_code ec;
    if (!given.empty() && !fs::is_regular_file(fs::path(given) / "tileslc" / "__init__.tpy", ec))
      return std::string(what) + " '" + given + "' is not a tileslc stdlib directory (no tileslc/__init__.tpy in it)";
  }
  sopts.stdlib_dir = find_stdlib(cl.stdlib_flag, argv0);
  if (sopts.stdlib_dir.empty()) return "cannot find the tileslc stdlib (tileslc/__init__.tpy); pass --stdlib DIR or set TILESLC_STDLIB";
  return "";
}

std::string max_errors_setting(const CommandLine& cl, diag::RenderOptions& render) {
  // Like clang's -ferror-limit: a person reads the first errors; machines get all of them.
  if (cl.max_errors_opt->count() && cl.max_errors < 0)
    return "--max-errors takes 0 (no limit) or a positive count, found " + std::to_string(cl.max_errors);
  int max_errors = cl.max_errors;
  if (max_errors < 0) max_errors = (render.format == diag::Format::Json || render.format == diag::Format::Sarif) ? 0 : 50;
  render.max_errors = static_cast<size_t>(max_errors);
  return "";
}

/// The settings the options make; on a mistake, it is reported and its exit status returned.
std::optional<int> settings_from(const CLI::App& app, const CommandLine& cl, const char* argv0, Settings& s) {
  auto usage_error = [&](const std::string& msg) { return command_line_error(cl.early_format, diag::Kind::BadCommandLine, msg, ""); };
  if (auto why = check_file_options(app, cl); !why.empty()) return usage_error(why);
  if (auto why = render_settings(cl, s.render); !why.empty()) return usage_error(why);
  if (cl.arch != "sm_80" && cl.arch != "sm_90a" && cl.arch != "sm_90")
    return command_line_error(cl.early_format, diag::Kind::UnsupportedArch,
                              "unknown --arch '" + cl.arch + "' (expected sm_80, sm_90 or sm_90a)", "");
  if (auto why = target_settings(cl, s.werror); !why.empty()) return usage_error(why);
  if (auto why = sema_settings(cl, argv0, s.sema); !why.empty()) return usage_error(why);
  if (auto why = max_errors_setting(cl, s.render); !why.empty()) return usage_error(why);
  s.render.tool_version = TILESLC_VERSION;
  return std::nullopt;
}

/// One compilation's diagnostics, rendered when it ends.
struct Session {
  explicit Session(const Settings& s, bool no_warnings) : render(s.render) {
    diags.set_warnings_as_errors(s.werror);
    diags.set_suppress_warnings(no_warnings);
  }
  source::SourceManager sm;
  diag::DiagnosticEngine diags{sm};
  diag::RenderOptions render;

  /// Renders the diagnostics (human output ends with the error count); returns `code`, the exit status.
  int finish(int code) {
    diags.render_all(std::cerr, render);
    if (render.format == diag::Format::Human && diags.error_count() > 0)
      std::cerr << diags.error_count() << " error" << (diags.error_count() == 1 ? "" : "s") << " generated.\n";
    return code;
  }
};

/// Where the outputs go. With -c, the generated code is a temporary beside the object,
/// and nvcc writes a temporary object that replaces the target only when it succeeds.
struct OutputPlan {
  std::string cu;           ///< the generated CUDA C++
  std::string object_path;  ///< -c: the object file as named
  fs::path object_target, object_tmp;
};

/// An output that names the input, a module it imports or another output would destroy it
/// (several outputs may go to one device, such as /dev/null, or to `-`). Outputs are
/// compared where writing them lands (links followed), sources as files; hard links too.
/// False after reporting the first such output (or one whose place cannot be resolved).
bool outputs_are_distinct(const CommandLine& cl, const std::string& main_output, const std::vector<std::string>& deps,
                          diag::DiagnosticEngine& diags) {
  std::vector<std::pair<std::string, std::string>> paths = {{"the input", cl.input}};
  for (const auto& d : deps) paths.emplace_back("the imported module", d);
  const size_t sources = paths.size();
  paths.emplace_back("-o", main_output);
  if (!cl.out_h.empty()) paths.emplace_back("-H", cl.out_h);
  if (!cl.out_json.empty()) paths.emplace_back("--emit-metadata", cl.out_json);
  if (!cl.depfile.empty()) paths.emplace_back("--depfile", cl.depfile);
  std::vector<fs::path> where;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::error_code ec;
    fs::path w;
    std::string why;
    if (i >= sources && paths[i].second != "-" && !resolve_output(paths[i].second, &w, &why)) {
      diags.report(diag::Kind::CannotWriteFile, {}, why);
      return false;
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
        return false;
      }
    }
  return true;
}

/// The outputs' places; on a mistake, it is reported and its exit status returned.
std::optional<int> plan_outputs(const CommandLine& cl, const std::vector<std::string>& deps, Session& ses, OutputPlan& plan) {
  if (cl.compile_only) {
    plan.object_path = cl.out_cu.empty() ? fs::path(cl.input).filename().replace_extension(".o").string() : cl.out_cu;
    if (plan.object_path == "-")
      return command_line_error(cl.early_format, diag::Kind::BadCommandLine,
                                "-c writes an object file: -o - (standard output) is not supported with it", "");
  }
  plan.cu = cl.out_cu.empty() ? fs::path(cl.input).filename().replace_extension(".cu").string() : cl.out_cu;
  if (!outputs_are_distinct(cl, cl.compile_only ? plan.object_path : plan.cu, deps, ses.diags)) return ses.finish(2);
  if (cl.compile_only) {
    // A failure of nvcc then leaves whatever was there (the input, a device) untouched.
    std::string why;
    resolve_output(plan.object_path, &plan.object_target, &why);
    const std::string stem = ".tileslc." + std::to_string(::getpid());
    plan.cu = (plan.object_target.parent_path() / (stem + ".cu")).string();
    plan.object_tmp = plan.object_target.parent_path() / (stem + ".o");
  }
  return std::nullopt;
}

/// --target=cpu: E0710 for each operation the emulator does not have; true if there is none.
bool check_emulated(const ir::Program& program, diag::DiagnosticEngine& diags) {
  bool first = true;
  for (const auto& n : codegen::not_emulated(program)) {
    auto& d = diags.report(diag::Kind::NotEmulated, n.loc, "the CPU emulation target cannot run " + n.what + " yet");
    if (first) d.help("compile this kernel with --target=cuda (the default) and run it on a GPU");
    first = false;
  }
  return !diags.has_errors();
}

/// The generated files, (path, text), in the order they are written.
std::vector<std::pair<std::string, std::string>> generate(const ir::Program& program, const CommandLine& cl, const OutputPlan& plan,
                                                          const std::vector<std::string>& deps, const source::SourceManager& sm) {
  codegen::Options copts;
  copts.cu_path = plan.cu;
  copts.header_name = cl.out_h;
  copts.version = TILESLC_VERSION;
  copts.sm = &sm;
  copts.target = cl.target == "cpu" ? codegen::Target::Cpu : codegen::Target::Cuda;
  copts.debug = cl.debug;
  std::vector<std::pair<std::string, std::string>> outputs;
  outputs.emplace_back(plan.cu, codegen::emit_cuda(program, copts));
  if (!cl.out_h.empty()) outputs.emplace_back(cl.out_h, codegen::emit_header(program, copts));
  if (!cl.out_json.empty()) outputs.emplace_back(cl.out_json, codegen::emit_metadata(program, copts));
  if (!cl.depfile.empty()) {
    // Absolute: the build tool reads the paths from its own directory, not from ours.
    std::error_code ec;
    std::string text = depfile_escape(plan.cu) + ":";
    for (const auto& d : deps) text += " \\\n  " + depfile_escape(fs::absolute(d, ec).lexically_normal().string());
    outputs.emplace_back(cl.depfile, text + "\n");
  }
  return outputs;
}

/// -c: nvcc compiles the generated .cu (then removed) into the temporary object, which goes onto
/// the target: renamed over a regular file, written into a device (/dev/null). Returns the exit status.
int compile_object(const CommandLine& cl, const OutputPlan& plan, Session& ses, const char* argv0) {
  NvccJob job{plan.cu, plan.object_tmp.string(), cl.arch, find_runtime_include(argv0), {}};
  std::string unmapped;
  int rc = 0;
  {
    log::PhaseTimer timer("nvcc");
    rc = run_nvcc(job, ses.sm, ses.diags, &unmapped);
  }
  std::error_code ec;
  fs::remove(plan.cu, ec);
  // nvcc's own lines that name no .tpy line: only in human output, where they help.
  if (rc != 0 && !unmapped.empty() && ses.render.format == diag::Format::Human) std::cerr << unmapped;
  if (rc != 0) {
    fs::remove(plan.object_tmp, ec);
    return ses.finish(1);
  }
  const fs::file_status st = fs::status(plan.object_target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    std::ifstream in(plan.object_tmp, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove(plan.object_tmp, ec);
    std::string why;
    if (!write_in_place(plan.object_path, plan.object_target, bytes, &why)) {
      ses.diags.report(diag::Kind::CannotWriteFile, {}, why);
      return ses.finish(2);
    }
  } else {
    fs::rename(plan.object_tmp, plan.object_target, ec);
    if (ec) {
      ses.diags.report(diag::Kind::CannotWriteFile, {}, "cannot move the object file to '" + plan.object_path + "': " + ec.message());
      fs::remove(plan.object_tmp, ec);
      return ses.finish(2);
    }
  }
  return ses.finish(ses.diags.has_errors() ? 1 : 0);
}

/// Host functions' C names (their C twins and packed entries) must be new: a collision with the
/// runtime's C API or with each other would otherwise be an nvcc or linker error in generated
/// code. Reports each at the host function; false when there is one.
bool check_c_names(const ir::Program& program, diag::DiagnosticEngine& diags) {
  const auto conflicts = codegen::c_abi_conflicts(program);
  for (const auto& c : conflicts) {
    const ir::HostFunction& h = program.host_functions[c.host];
    std::string with = c.other < 0 ? "the runtime's C API (tileslc/c_api.h, tileslc/dlpack.h) declares it already"
                                   : "host function '" + program.host_functions[c.other].name + "' defines it too";
    diags.report(diag::Kind::HostNameCollision, h.loc,
                 "host function '" + h.name + "' would define the C function '" + c.name + "', but " + with)
        .help(std::string("rename the @cute.jit function") + (c.other < 0 ? " (or give --host-prefix)" : "") +
              ": each host function defines tileslc_NAME and tileslc_NAME_packed for C callers");
  }
  return conflicts.empty();
}

/// --tuned: the program's tuned host functions become dispatchers over specializations, each
/// compiled with its configuration's -D values on top of the command line's. On a problem, it is
/// reported and the exit status returned: 2 for a database that cannot be read or does not fit
/// the program, 1 for a specialization that does not compile.
std::optional<int> apply_tuned_results(const CommandLine& cl, const Settings& settings, source::FileId fid, Session& ses, ir::Program& program) {
  std::vector<TunedDecision> decisions;
  std::string err;
  if (!read_tuned_decisions(cl.tuned, &decisions, &err)) {
    ses.diags.report(diag::Kind::CannotReadFile, {}, err).help("--tuned takes the database 'tileslc tune' writes (docs/tuning.md)");
    return 2;
  }
  auto compile_variant = [&](const std::vector<std::pair<std::string, std::string>>& config) -> std::optional<ir::Program> {
    sema::Options opts = settings.sema;
    for (const auto& [name, value] : config) opts.defines[name] = value;
    log::PhaseTimer timer("sema (tuned specialization)");
    ses.diags.set_suppress_warnings(true);  // the base compilation reported them once
    auto p = sema::analyze(ses.sm, fid, opts, ses.diags, nullptr);
    ses.diags.set_suppress_warnings(cl.no_warnings);
    if (!p || ses.diags.has_errors()) return std::nullopt;
    return p;
  };
  if (!apply_tuned(program, decisions, compile_variant, &err)) {
    if (err.empty()) return 1;
    ses.diags.report(diag::Kind::BadCommandLine, {}, "--tuned " + cl.tuned + ": " + err);
    return 2;
  }
  return std::nullopt;
}

/// `tileslc tune ...`, `tileslc metrics ...` and `tileslc bench ...`: runs the tuner
/// (tools/tune/tileslc_tune.py, installed under share/tileslc/tools/tune) with python3, telling
/// it which tileslc to use (`metrics` and `bench` are its subcommands). Returns only on failure.
int run_tuner(int argc, char** argv) {
  fs::path dir = exe_dir(argv[0]);
  std::vector<fs::path> candidates = {dir / ".." / ".." / "tools" / "tune" / "tileslc_tune.py",
                                      dir / ".." / "share" / "tileslc" / "tools" / "tune" / "tileslc_tune.py",
                                      fs::path(TILESLC_SOURCE_STDLIB) / ".." / "tools" / "tune" / "tileslc_tune.py"};
  std::string script;
  for (const auto& c : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(c, ec)) {
      script = fs::weakly_canonical(c, ec).string();
      break;
    }
  }
  const std::string format = early_diagnostics_format(argc, argv);
  if (script.empty())
    return command_line_error(format, diag::Kind::BadCommandLine, "cannot find the tuner (tools/tune/tileslc_tune.py)",
                              "reinstall tileslc, or run tools/tune/tileslc_tune.py from a source tree");
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  ::setenv("TILESLC_EXE", ec ? argv[0] : self.c_str(), 1);
  std::vector<char*> args = {const_cast<char*>("python3"), script.data()};
  if (std::string(argv[1]) == "metrics" || std::string(argv[1]) == "bench") args.push_back(argv[1]);
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execvp("python3", args.data());
  return command_line_error(format, diag::Kind::BadCommandLine, std::string("cannot run python3 for 'tileslc tune': ") + std::strerror(errno),
                            "the tuner needs Python 3 (only while tuning: the generated code does not)");
}

/// Source to outputs: parse, analyze, verify, generate, write (and with -c, nvcc). Returns the exit status.
int compile(const CommandLine& cl, const Settings& settings, const char* argv0) {
  Session ses(settings, cl.no_warnings);
  std::string err;
  auto fid = ses.sm.load_file(cl.input, &err);
  if (!fid) {
    ses.diags.report(diag::Kind::CannotReadFile, {}, err);
    return ses.finish(2);
  }
  if (cl.syntax_only || cl.dump_ast) {
    auto mod = parse::parse_file(ses.sm, *fid, ses.diags);
    if (cl.dump_ast && !ses.diags.has_errors()) std::cout << ast::dump(mod) << "\n";
    return ses.finish(ses.diags.has_errors() ? 1 : 0);
  }
  std::vector<std::string> deps;
  log::info("compiling " + cl.input + " for " + cl.arch + " (target " + cl.target + ")");
  std::optional<ir::Program> program;
  {
    log::PhaseTimer timer("parse and sema");
    program = sema::analyze(ses.sm, *fid, settings.sema, ses.diags, &deps);
  }
  if (!program || ses.diags.has_errors()) return ses.finish(1);
  // The dump comes first: it is what shows an invalid IR.
  if (cl.dump_ir) std::cout << ir::print(*program) << std::flush;
  if (verify_ir_enabled() && !verify_ir(*program, ses.diags)) return ses.finish(3);
  if (cl.dump_ir) return ses.finish(0);
  if (!cl.tuned.empty())
    if (auto rc = apply_tuned_results(cl, settings, *fid, ses, *program)) return ses.finish(*rc);
  // Host functions are global C++ (and C) names: the prefix keeps two instances apart.
  for (auto& h : program->host_functions) {
    h.name = cl.host_prefix + h.name;
    for (auto& callee : h.dispatch.callees) callee = cl.host_prefix + callee;  // --tuned's specializations
  }
  if (!check_c_names(*program, ses.diags)) return ses.finish(1);

  OutputPlan plan;
  if (auto rc = plan_outputs(cl, deps, ses, plan)) return *rc;
  if (cl.target == "cpu" && !check_emulated(*program, ses.diags)) return ses.finish(1);
  std::vector<std::pair<std::string, std::string>> outputs;
  {
    log::PhaseTimer timer("codegen");
    outputs = generate(*program, cl, plan, deps, ses.sm);
  }
  if (!write_outputs(outputs, &err)) {
    ses.diags.report(diag::Kind::CannotWriteFile, {}, err);
    return ses.finish(2);
  }
  if (cl.compile_only) return compile_object(cl, plan, ses, argv0);
  return ses.finish(ses.diags.has_errors() ? 1 : 0);
}

}  // namespace

int run(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "layout") return run_layout_cli(argc - 1, argv + 1);
  if (argc > 1 && (std::string(argv[1]) == "tune" || std::string(argv[1]) == "metrics" || std::string(argv[1]) == "bench"))
    return run_tuner(argc, argv);
  CLI::App app{"tileslc: compiles .tpy kernels (Python syntax, CuTe's model of the GPU) to CUDA C++", "tileslc"};
  CommandLine cl;
  add_options(app, cl);
  cl.early_format = early_diagnostics_format(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return command_line_error(cl.early_format, diag::Kind::BadCommandLine, e.what(), "run 'tileslc --help' for usage");
  }
  if (cl.version) {
    std::cout << "tileslc " << TILESLC_VERSION << " (git " << TILESLC_GIT_REVISION << ")\n";
    return 0;
  }
  if (cl.verbose) log::enable();
  if (!cl.explain_code.empty()) return explain(cl.explain_code);
  Settings settings;
  if (auto rc = settings_from(app, cl, argv[0], settings)) return *rc;
  return compile(cl, settings, argv[0]);
}

}  // namespace tileslc::driver
