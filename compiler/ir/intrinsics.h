// The intrinsic table (intrinsics.def) as data: the Intrinsic enum generated
// from its rows, and each row's columns, parsed once (immediates with their
// domains, operands with their roles and types). The IR's intrinsic calls
// name a row (ir.h, IntrinsicCall); the verifier, the printer and
// codegen read the row; nothing else spells a device function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tileslc::ir {

enum class ScalarType : uint8_t;

enum class Intrinsic : uint16_t {
#define TILESLC_INTRINSIC(Id, ...) Id,
#include "ir/intrinsics.def"
  Count_
};

/// How a row's spelling becomes a C++ callee (intrinsics.def, Space).
enum class IntrinsicSpace : uint8_t { Dev, DevCast, Cuda, Math, Host };
/// What a call does besides computing its value (intrinsics.def, Effect).
enum class IntrinsicEffect : uint8_t { Pure, Index, Reads, Writes, Barrier, Async };
/// The oldest target with the instruction (intrinsics.def, Arch).
enum class IntrinsicArch : uint8_t { Any, Sm90, Sm90a };

/// An immediate: its name and the values it takes, as the spelling writes them.
struct ImmediateSpec {
  std::string name;
  std::vector<std::string> domain;
};

/// An operand: its role, its type ("Int32", "T", "ptr", "any"), and how many there are.
struct OperandSpec {
  std::string role;
  std::string type;
  bool optional = false;  ///< `role?`: may be left out (the last operand)
  int repeat = -1;        ///< `role[imm]`: the index of the immediate whose value counts them; -1: one
};

struct IntrinsicInfo {
  Intrinsic id;
  const char* name;  ///< the Id as written: "CpAsyncWaitGroup"
  IntrinsicSpace space;
  const char* spelling;  ///< the pattern: "cp_async_wait_group_{0}"
  std::vector<ImmediateSpec> immediates;
  std::vector<OperandSpec> operands;
  std::optional<ScalarType> result;  ///< none: T, the caller's type
  IntrinsicEffect effect;
  IntrinsicArch arch;
  bool emulated;
  const char* ptx;
};

/// The row of `id`.
const IntrinsicInfo& intrinsic_info(Intrinsic id);

/// The row's spelling with `imms` in place of {0}, {1}, ...: "cp_async_wait_group_2".
/// No namespace: codegen adds it (intrinsics.def, Space).
std::string intrinsic_spelling(Intrinsic id, const std::vector<std::string>& imms);

/// The index of `value` in immediate `i`'s domain, if it is there.
std::optional<size_t> immediate_index(Intrinsic id, size_t i, const std::string& value);

}  // namespace tileslc::ir
