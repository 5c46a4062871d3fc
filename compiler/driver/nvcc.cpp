// Running nvcc for `tileslc -c` and mapping its messages back to .tpy lines.
#include "driver/nvcc.h"
#include "driver/log.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>

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

  // nvcc (EDG front end): "file(LINE): error: message" or "file(LINE): warning #177-D: message".
  static const std::regex line_re(R"(^(.*)\((\d+)\): (error|warning)( #[0-9]+-D)?: (.*)$)");
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (std::regex_match(line, m, line_re)) {
      std::string file = m[1].str();
      uint32_t lineno = static_cast<uint32_t>(std::stoul(m[2].str()));
      bool is_error = m[3].str() == "error";
      source::SourceRange where;
      for (source::FileId id = 1; id <= sm.file_count(); ++id) {
        const source::SourceFile* f = &sm.file(id);
        if (f->path() == file && lineno >= 1 && lineno <= f->line_count()) {
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
          where = {id, static_cast<uint32_t>(lo + indent), static_cast<uint32_t>(lo + text.size())};
          break;
        }
      }
      if (where.valid()) {
        diags.report(is_error ? diag::Kind::NvccError : diag::Kind::NvccWarning, where, "nvcc: " + m[5].str());
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
