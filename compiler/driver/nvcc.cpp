// Running nvcc for `tileslc -c` and mapping its messages back to .tpy lines.
#include "driver/nvcc.h"
#include "driver/log.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>

namespace tileslc::driver {

namespace fs = std::filesystem;

std::string find_nvcc() {
  std::vector<fs::path> dirs;
  if (const char* cp = std::getenv("CUDA_PATH")) dirs.push_back(fs::path(cp) / "bin");
  dirs.push_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    size_t start = 0;
    while (start <= p.size()) {
      size_t end = p.find(':', start);
      if (end == std::string::npos) end = p.size();
      if (end > start) dirs.push_back(p.substr(start, end - start));
      start = end + 1;
    }
  }
  for (const auto& d : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(d / "nvcc", ec)) return (d / "nvcc").string();
  }
  return "";
}

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string gencode(const std::string& arch) {
  if (arch == "sm_90a") return "-gencode=arch=compute_90a,code=sm_90a";
  if (arch == "sm_90") return "-gencode=arch=compute_90,code=sm_90";
  return "-gencode=arch=compute_80,code=sm_80";
}

/// A `#line N "path"` directive of the generated code: the .cu line it is on, what it names.
struct LineDirective {
  uint32_t cu_line = 0;
  uint32_t tpy_line = 0;
  std::string path;
};

std::vector<LineDirective> line_directives(const std::string& cu_text) {
  static const std::regex directive(R"re(^\s*#line (\d+) "(.*)"\s*$)re");
  std::vector<LineDirective> out;
  uint32_t n = 0;
  size_t start = 0;
  while (start < cu_text.size()) {
    size_t end = cu_text.find('\n', start);
    if (end == std::string::npos) end = cu_text.size();
    ++n;
    std::string line = cu_text.substr(start, end - start);
    std::smatch m;
    if (line.rfind("#line", line.find_first_not_of(" \t")) != std::string::npos && std::regex_match(line, m, directive))
      out.push_back({n, static_cast<uint32_t>(std::stoul(m[1].str())), m[2].str()});
    start = end + 1;
  }
  return out;
}

/// The construct a message about generated line `cu_line` that nvcc could not place in a .tpy
/// file belongs to: the nearest #line before it, else the first one after it (the includes and
/// C declarations ahead of the first directive). Null when the code has no #line at all.
const LineDirective* nearest_directive(const std::vector<LineDirective>& dirs, uint32_t cu_line) {
  const LineDirective* best = nullptr;
  for (const auto& d : dirs) {
    if (d.cu_line <= cu_line) best = &d;
    else return best ? best : &d;
  }
  return best;
}

/// The kernel a ptxas message names (`Entry function '_ZN...12scale_kernelEPf' uses ...`): the
/// #line of the kernel's `__global__` definition, or null when it names none we know.
const LineDirective* kernel_directive(const std::vector<LineDirective>& dirs, const std::string& cu_text,
                                      const std::string& message) {
  static const std::regex global_def(
      R"((?:__global__|TILESLC_GLOBAL)\s+void\s+(?:TILESLC_LAUNCH_BOUNDS(?:_MIN)?\([^)]*\)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  uint32_t line = 1;
  size_t counted = 0;
  for (auto it = std::sregex_iterator(cu_text.begin(), cu_text.end(), global_def); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].str();
    // Itanium mangling writes an identifier as its length then its characters.
    if (message.find(std::to_string(name.size()) + name) == std::string::npos && message.find("'" + name + "'") == std::string::npos)
      continue;
    const size_t at = static_cast<size_t>(it->position(0));
    line += static_cast<uint32_t>(std::count(cu_text.begin() + counted, cu_text.begin() + at, '\n'));
    counted = at;
    return nearest_directive(dirs, line);  // the definition's own #line
  }
  return nullptr;
}

/// The range of line `lineno` (from its first non-blank character) of the loaded file `path`;
/// invalid when no loaded file has that path and line.
source::SourceRange line_range(const source::SourceManager& sm, const std::string& path, uint32_t lineno) {
  for (source::FileId id = 1; id <= sm.file_count(); ++id) {
    const source::SourceFile* f = &sm.file(id);
    if (f->path() != path || lineno < 1 || lineno > f->line_count()) continue;
    auto text = f->line_text(lineno);
    size_t indent = text.find_first_not_of(" \t");
    if (indent == std::string_view::npos) indent = 0;
    // Offset of the line start: the first byte whose line_col is (lineno, 1).
    uint32_t lo = 0, hi = static_cast<uint32_t>(f->text().size());
    while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (f->line_col(mid).line < lineno) lo = mid + 1;
      else hi = mid;
    }
    return {id, static_cast<uint32_t>(lo + indent), static_cast<uint32_t>(lo + text.size())};
  }
  return {};
}

}  // namespace

int run_nvcc(const NvccJob& job, const source::SourceManager& sm, diag::DiagnosticEngine& diags,
             std::string* unmapped_output) {
  std::string nvcc = find_nvcc();
  if (nvcc.empty()) {
    diags.report(diag::Kind::NvccNotFound, {}, "nvcc not found in $CUDA_PATH/bin, /usr/local/cuda/bin or PATH")
        .help("install the CUDA Toolkit or set CUDA_PATH; without -c, tileslc only writes the .cu");
    return 127;
  }
  std::string cmd = shell_quote(nvcc) + " -std=c++17 " + gencode(job.arch) + " -I" + shell_quote(job.include_dir) +
                    " -c " + shell_quote(job.cu_path) + " -o " + shell_quote(job.object_path);
  for (const auto& f : job.extra_flags) cmd += " " + shell_quote(f);
  log::info("nvcc: " + cmd);
  cmd += " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) {
    diags.report(diag::Kind::NvccNotFound, {}, "cannot run '" + nvcc + "'");
    return 127;
  }
  std::string output;
  std::array<char, 4096> buf;
  while (size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) output.append(buf.data(), n);
  int status = ::pclose(pipe);
  int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;

  std::string cu_text;
  {
    std::ifstream in(job.cu_path, std::ios::binary);
    cu_text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The directives that name .tpy lines; the others name the generated file itself (the glue
  // code between constructs), whose lines are the .cu's own.
  std::vector<LineDirective> dirs;
  std::set<std::string> generated_names = {fs::path(job.cu_path).filename().string()};
  for (auto& d : line_directives(cu_text)) {
    if (line_range(sm, d.path, d.tpy_line).valid()) dirs.push_back(std::move(d));
    else generated_names.insert(fs::path(d.path).filename().string());
  }
  auto at_directive = [&](const LineDirective* d) { return d ? line_range(sm, d->path, d->tpy_line) : source::SourceRange{}; };

  // nvcc (EDG front end): "file(LINE): error: message" or "file(LINE): warning #177-D: message";
  // ptxas: "ptxas error   : message" (no line; it may name a kernel).
  static const std::regex line_re(R"(^(.*)\((\d+)\): (error|warning)( #[0-9]+-D)?: (.*)$)");
  static const std::regex ptxas_re(R"(^ptxas (error|warning|fatal)\s*: (.*)$)");
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (std::regex_match(line, m, line_re)) {
      const std::string file = m[1].str();
      const uint32_t lineno = static_cast<uint32_t>(std::stoul(m[2].str()));
      const diag::Kind kind = m[3].str() == "error" ? diag::Kind::NvccError : diag::Kind::NvccWarning;
      if (source::SourceRange where = line_range(sm, file, lineno); where.valid()) {
        diags.report(kind, where, "nvcc: " + m[5].str());
        continue;
      }
      // A line of the generated file with no #line of its own (includes, the C twins).
      if (generated_names.count(fs::path(file).filename().string())) {
        if (source::SourceRange where = at_directive(nearest_directive(dirs, lineno)); where.valid()) {
          diags.report(kind, where, "nvcc: " + m[5].str())
              .note("nvcc reported line " + std::to_string(lineno) +
                    " of the generated code, which has no #line of its own: this is the nearest construct");
          continue;
        }
      }
    } else if (std::regex_match(line, m, ptxas_re)) {
      const diag::Kind kind = m[1].str() == "warning" ? diag::Kind::NvccWarning : diag::Kind::NvccError;
      const LineDirective* d = kernel_directive(dirs, cu_text, m[2].str());
      if (source::SourceRange where = at_directive(d ? d : (dirs.empty() ? nullptr : &dirs.front())); where.valid()) {
        auto& diag = diags.report(kind, where, "ptxas: " + m[2].str());
        if (!d) diag.note("ptxas names no kernel of this file: reported at the first construct");
        continue;
      }
    }
    // The generated line and caret nvcc quotes after a message, and its summary, say nothing in .tpy terms.
    bool quote = !line.empty() && (line[0] == ' ' || line[0] == '\t');
    if (!line.empty() && !quote && line.find("detected in the compilation of") == std::string::npos && unmapped_output)
      *unmapped_output += line + "\n";
  }
  if (rc != 0 && diags.error_count() == 0)
    diags.report(diag::Kind::NvccError, {}, "nvcc failed (exit " + std::to_string(rc) + ")");
  return rc;
}

}  // namespace tileslc::driver
