// The intrinsic rows (intrinsics.h), their columns parsed once on first use.
// A malformed row is a compiler bug: it throws std::logic_error, which
// ir_test's table test meets before anything ships.
#include "ir/intrinsics.h"

#include <stdexcept>

#include "ir/ir.h"

namespace tileslc::ir {

namespace {

struct RawRow {
  const char* name;
  IntrinsicSpace space;
  const char* spelling;
  const char* immediates;
  const char* operands;
  const char* result;
  IntrinsicEffect effect;
  IntrinsicArch arch;
  bool emulated;
  const char* ptx;
};

constexpr RawRow kRows[] = {
// clang-format off
#define TILESLC_INTRINSIC(Id, Space, Spelling, Immediates, Operands, Result, Effect, Arch, Emulated, Ptx) \
  {#Id, IntrinsicSpace::Space, Spelling, Immediates, Operands, #Result, IntrinsicEffect::Effect, IntrinsicArch::Arch, \
   Emulated, Ptx},
// clang-format on
#include "ir/intrinsics.def"
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == static_cast<size_t>(Intrinsic::Count_));

[[noreturn]] void malformed(const RawRow& r, const std::string& why) {
  throw std::logic_error(std::string("intrinsics.def: row ") + r.name + ": " + why);
}

/// "a: x, b: y" as (name, rest) pairs.
std::vector<std::pair<std::string, std::string>> items(const RawRow& r, const std::string& column) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t at = 0;
  while (at < column.size()) {
    size_t end = column.find(", ", at);
    if (end == std::string::npos) end = column.size();
    const std::string item = column.substr(at, end - at);
    const size_t colon = item.find(": ");
    if (colon == std::string::npos || colon == 0) malformed(r, "'" + item + "' is not 'name: value'");
    out.emplace_back(item.substr(0, colon), item.substr(colon + 2));
    at = end + 2;
  }
  return out;
}

std::vector<ImmediateSpec> parse_immediates(const RawRow& r) {
  std::vector<ImmediateSpec> out;
  for (auto& [name, rest] : items(r, r.immediates)) {
    ImmediateSpec s{name, {}};
    for (size_t at = 0; at <= rest.size();) {
      size_t bar = rest.find('|', at);
      if (bar == std::string::npos) bar = rest.size();
      s.domain.push_back(rest.substr(at, bar - at));
      if (s.domain.back().empty()) malformed(r, "immediate '" + name + "' has an empty value");
      at = bar + 1;
    }
    out.push_back(std::move(s));
  }
  return out;
}

int immediate_named(const RawRow& r, const std::vector<ImmediateSpec>& imms, const std::string& name) {
  for (size_t i = 0; i < imms.size(); ++i)
    if (imms[i].name == name) return static_cast<int>(i);
  malformed(r, "no immediate named '" + name + "'");
}

std::vector<OperandSpec> parse_operands(const RawRow& r, const std::vector<ImmediateSpec>& imms) {
  std::vector<OperandSpec> out;
  for (auto& [role, type] : items(r, r.operands)) {
    OperandSpec s{role, type};
    if (role.back() == '?') {
      s.optional = true;
      s.role.pop_back();
    } else if (role.back() == ']' && role.find('[') != std::string::npos) {
      const size_t open = role.find('[');
      s.repeat = immediate_named(r, imms, role.substr(open + 1, role.size() - open - 2));
      s.role = role.substr(0, open);
    }
    if (type != "T" && type != "ptr" && type != "any" && !type_from_name(type))
      malformed(r, "operand '" + s.role + "' has no type '" + type + "'");
    out.push_back(std::move(s));
  }
  for (size_t i = 0; i + 1 < out.size(); ++i)
    if (out[i].optional || out[i].repeat >= 0) malformed(r, "only the last operand may be optional or repeated");
  return out;
}

IntrinsicInfo parse(Intrinsic id, const RawRow& r) {
  IntrinsicInfo info{id,       r.name, r.space,    r.spelling, parse_immediates(r), {}, std::nullopt,
                     r.effect, r.arch, r.emulated, r.ptx};
  info.operands = parse_operands(r, info.immediates);
  if (std::string(r.result) != "T") {
    info.result = type_from_name(r.result);
    if (!info.result) malformed(r, std::string("no result type '") + r.result + "'");
  }
  // Every {i} names an immediate, and every immediate appears.
  size_t seen = 0;
  for (const char* p = r.spelling; *p; ++p)
    if (*p == '{') {
      const size_t i = static_cast<size_t>(p[1] - '0');
      if (i >= info.immediates.size() || p[2] != '}') malformed(r, "the spelling names a missing immediate");
      seen |= size_t{1} << i;
    }
  if (seen != (size_t{1} << info.immediates.size()) - 1) malformed(r, "the spelling leaves out an immediate");
  return info;
}

const std::vector<IntrinsicInfo>& table() {
  static const std::vector<IntrinsicInfo> rows = [] {
    std::vector<IntrinsicInfo> out;
    for (size_t i = 0; i < static_cast<size_t>(Intrinsic::Count_); ++i)
      out.push_back(parse(static_cast<Intrinsic>(i), kRows[i]));
    return out;
  }();
  return rows;
}

}  // namespace

const IntrinsicInfo& intrinsic_info(Intrinsic id) { return table().at(static_cast<size_t>(id)); }

std::string intrinsic_spelling(Intrinsic id, const std::vector<std::string>& imms) {
  std::string out;
  for (const char* p = intrinsic_info(id).spelling; *p; ++p) {
    if (*p != '{') {
      out += *p;
      continue;
    }
    out += imms.at(static_cast<size_t>(p[1] - '0'));
    p += 2;
  }
  return out;
}

std::optional<size_t> immediate_index(Intrinsic id, size_t i, const std::string& value) {
  const auto& imms = intrinsic_info(id).immediates;
  if (i >= imms.size()) return std::nullopt;
  for (size_t k = 0; k < imms[i].domain.size(); ++k)
    if (imms[i].domain[k] == value) return k;
  return std::nullopt;
}

}  // namespace tileslc::ir
