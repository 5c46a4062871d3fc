// Parts of the SARIF 2.1.0 log (diag.cpp's render_sarif) that are not about
// the diagnostics themselves: artifact URIs and the rules' documentation.
// SARIF: https://docs.oasis-open.org/sarif/sarif/v2.1.0/ (3.4 URIs, 3.10
// artifactLocation, 3.49 reportingDescriptor).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "diag/diag.h"

namespace tileslc::diag::sarif {

/// The uriBaseId of artifacts under the working directory (run.originalUriBaseIds).
inline constexpr const char* kSrcRoot = "%SRCROOT%";

/// `s` percent-encoded as a URI path (RFC 3986): unreserved characters and '/'
/// stay, every other byte is %XX.
std::string percent_encode_path(std::string_view s);

/// An artifactLocation for a source file path as the user gave it: relative to
/// `cwd` with uriBaseId %SRCROOT% when the file lies under it (what code-scanning
/// services resolve against the checkout), else an absolute `file://` URI.
nlohmann::ordered_json artifact_location(const std::string& path, const std::filesystem::path& cwd);

/// `cwd` as the absolute `file://` URI, ending in '/', that %SRCROOT% stands for.
std::string directory_uri(const std::filesystem::path& cwd);

/// A rule's documentation from its --explain text (docs/diagnostics/CODE.md):
/// fullDescription (the first paragraph after the title) and help (the whole
/// text, plain and Markdown). Kinds without an explanation get their summary.
void add_rule_help(nlohmann::ordered_json& rule, Kind k);

}  // namespace tileslc::diag::sarif
