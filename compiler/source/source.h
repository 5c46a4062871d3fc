// Source manager: owns the text of every file the compiler reads, hands out
// stable FileIds, and maps byte offsets to 1-based line and column numbers
// through a per-file line table. Every later phase refers to source through
// SourceLoc/SourceRange (file id plus byte offsets), never through pointers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tileslc::source {

/// Index of a file in a SourceManager; 0 is reserved for "no file".
using FileId = uint32_t;
inline constexpr FileId kNoFile = 0;

/// A position: a file and a byte offset into its text.
struct SourceLoc {
  FileId file = kNoFile;
  uint32_t offset = 0;
  bool valid() const { return file != kNoFile; }
};

/// A half-open byte range [begin, end) in one file.
struct SourceRange {
  FileId file = kNoFile;
  uint32_t begin = 0;
  uint32_t end = 0;
  bool valid() const { return file != kNoFile; }
  SourceLoc start() const { return {file, begin}; }
  /// The smallest range covering both (same file assumed).
  static SourceRange join(SourceRange a, SourceRange b) {
    if (!a.valid()) return b;
    if (!b.valid()) return a;
    return {a.file, a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
  }
};

/// 1-based line and column; the column counts bytes, as clang's does.
struct LineCol {
  uint32_t line = 0;
  uint32_t column = 0;
};

/// One loaded file: its path as given, its text, and the offsets of line starts.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  LineCol line_col(uint32_t offset) const;
  /// Text of 1-based line `line`, without its newline.
  std::string_view line_text(uint32_t line) const;
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }

 private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
};

/// Owns all files of a compilation. Not thread-safe; one per compilation.
class SourceManager {
 public:
  /// Reads `path` from disk. Returns nullopt (and sets `error`) if it cannot be read.
  std::optional<FileId> load_file(const std::string& path, std::string* error);
  /// Adds an in-memory buffer (tests, fuzzers, -D values) under the name `path`.
  FileId add_buffer(std::string path, std::string text);

  const SourceFile& file(FileId id) const { return *files_.at(id - 1); }
  /// Number of files; valid ids are 1..file_count().
  size_t file_count() const { return files_.size(); }
  LineCol line_col(SourceLoc loc) const { return file(loc.file).line_col(loc.offset); }
  std::string_view text(SourceRange r) const {
    return std::string_view(file(r.file).text()).substr(r.begin, r.end - r.begin);
  }

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace tileslc::source
