// Internal to codegen: a text buffer that tracks indentation and the current
// output line (for #line directives), and the C++ expression printer.
#pragma once

#include <string>
#include <vector>

#include "codegen/c_abi_names.h"
#include "ir/ir.h"
#include "ir/print.h"

namespace tileslc::codegen {

class Printer {
 public:
  void line(const std::string& s) {
    if (!s.empty()) out_.append(static_cast<size_t>(indent_) * 2, ' ');
    out_ += s;
    out_ += '\n';
    ++lines_;
  }
  /// A preprocessor directive, never indented.
  void directive(const std::string& s) {
    out_ += s;
    out_ += '\n';
    ++lines_;
  }
  void indent() { ++indent_; }
  void dedent() { --indent_; }
  /// 1-based number of the line the next line() call writes.
  int next_line() const { return lines_ + 1; }
  std::string& str() { return out_; }

 private:
  std::string out_;
  int indent_ = 0;
  int lines_ = 0;
};

/// Host-side names a host function's expressions refer to.
struct HostNames {
  const ir::HostFunction* fn = nullptr;
};

/// Prints `e` as a C++ expression; `host` is non-null inside host functions.
std::string print_expr(const ir::ExprRef& e, const HostNames* host);
/// The C++ function an intrinsic call of type `t` is written with (intrinsics.def, Space):
/// tileslc::dev::cp_async_wait_group_2, __shfl_sync, expf, tileslc::max_active_clusters. The
/// same for both targets: the CPU headers define the device names too.
std::string intrinsic_callee(ir::Intrinsic id, const std::vector<std::string>& imms, ir::ScalarType t);
/// `tileslc::Status NAME(tileslc::TensorView mA, float alpha, cudaStream_t stream)`;
/// with `header` the stream defaults to nullptr.
std::string host_signature(const ir::HostFunction& h, bool header);
/// `int tileslc_NAME(const tileslc_tensor_view* mA, ..., tileslc_stream stream)` (without extern "C"):
/// C11 as well (tileslc/c_api.h; tileslc_stream is cudaStream_t).
std::string c_abi_signature(const ir::HostFunction& h);

/// The packed C entry of host function `h`: `int tileslc_NAME_packed(void* const* args,
/// tileslc_stream stream)`, where args[i] points to parameter i (a `tileslc_tensor_view` for a
/// tensor, the scalar's own C type otherwise). One signature for every host function, so a
/// caller that knows the parameter list only at run time (the Python package's fast path)
/// needs no foreign-function library; same return value as the C twin.
std::string c_packed_signature(const ir::HostFunction& h);
/// A C string literal with escapes for `s` (shared with the IR printer).
using ir::c_string;

/// Float to integer saturates, as PTX's cvt.rzi documents (out-of-range values to the type's
/// limits, NaN to 0; docs/language.md). Whether a cast from `from` to `to` goes through
/// tileslc::dev::cvt_rzi (cvt_rzi_callee) instead of static_cast: every float-to-integer cast, on
/// both targets. Host C++ leaves out-of-range values undefined; on the GPU nvcc's static_cast to 8
/// or 16 bits converts to 32 keeping the low bits, and the H100 gave INT_MIN for NaN to Int32 and
/// 2^63 for NaN or a negative value to Int64 and Uint64 (tools/difffuzz.py's GPU half, 10,000
/// programs, 2026-12-05). The one place this is decided.
bool needs_cvt_rzi(ir::ScalarType from, ir::ScalarType to);
/// `tileslc::dev::cvt_rzi<int8_t>` ...: the saturating conversion to integer type `to`.
std::string cvt_rzi_callee(ir::ScalarType to);

/// CPU target (cpu_target.cpp): `e` with its element accesses and addresses
/// rewritten as TILESLC_AT / TILESLC_ADDR calls, and integer divisions that
/// may trap as tileslc::cpu::floordiv / mod / truncdiv / truncmod calls.
ir::ExprRef checked_accesses(const ir::ExprRef& e);
/// CPU target: `TILESLC_AT(base, offset)`, or TILESLC_ADDR with `address`.
std::string cpu_element(const std::string& base, const std::string& offset, bool address);
/// The CPU target's checked store `base[offset] = value`: TILESLC_SET(base, offset, value).
std::string cpu_store(const std::string& base, const std::string& offset, const std::string& value);

}  // namespace tileslc::codegen
