// The IR as text, for people (tileslc --dump-ir, test failures, debugging a
// pass). The form is stable: goldens record it. A program prints its kernels
// (parameters, locals, register arrays, shared-memory buffers, body), then its
// host functions (parameters, bound symbols, locals, body); one statement a
// line, nested blocks indented two spaces under a line ending in ':'.
//
// Expressions are infix, fully parenthesized below the top of a statement:
// `(a + b)`, `(x < n)`, `(c ? a : b)`, `-x`, `!p`, `~m`; `//` and `%` are
// Python's floor division and modulo, `tdiv(a, b)`/`tmod(a, b)` C's truncating
// ones, `min`/`max`/`**` as written. `p[i]` is a load, `&p[i]` an address (`&p`: a whole TMA descriptor),
// `Int64(x)` a conversion, `mA.data`/`mA.shape[0]`/`mA.stride[1]` host tensor
// fields, `CpAsyncWaitGroup<n=2>()` an intrinsic (intrinsics.def) by its row
// and immediates. Types appear where nothing else declares them: a constant of a type
// other than Int32, Boolean or Float32 carries it (`4:Int64`) unless it is an
// operand beside a non-constant of its type (`(i + 4)`, i an Int64) or has
// the type its place implies (an Int64 element offset, launch dimension or
// shared-memory size; a loop bound of the loop's type), calls
// carry theirs (`Exp(x):Float32`), hardware indices any but Int32;
// variables, parameters and pointers are typed where the function declares them.
#pragma once

#include <string>

#include "ir/ir.h"

namespace tileslc::ir {

/// The whole program, ending in a newline.
std::string print(const Program& p);
/// One expression, unparenthesized at the top. `host` names host tensors
/// (`mA.data`); without it they print by index (`tensor0.data`).
std::string print(const ExprRef& e, const HostFunction* host = nullptr);
/// The statements of `b`, one a line, indented `indent` levels. Launches name
/// their kernel from `p` when given (`kernel1` without it).
std::string print(const Block& b, const HostFunction* host = nullptr, const Program* p = nullptr, int indent = 0);

/// `s` as a C string literal: quotes, backslashes and control characters
/// escaped (octal for those without a letter). The printer's strings and the
/// generated C++'s are spelled alike.
std::string c_string(const std::string& s);

}  // namespace tileslc::ir
