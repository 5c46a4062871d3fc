// The IR verifier: checks what codegen takes for granted about a Program
// (operands present and of the right types, intrinsic calls against their row of
// intrinsics.def, names declared before they are used, statements
// of the right function kind, launches that match their kernel) and returns
// every violation instead of throwing, so one run lists them all. A problem
// is a compiler bug, never the user's: the driver reports it as an internal
// error (E0712) when TILESLC_VERIFY_IR=1 or in a build without NDEBUG.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"
#include "source/source.h"

namespace tileslc::ir {

struct Problem {
  std::string function;     ///< "kernel add_kernel_0", "host add"; empty for the program itself
  source::SourceRange loc;  ///< the statement's, or the function's
  std::string message;      ///< "Binary Add: operand 1 is Int64, the node Int32"
};

std::vector<Problem> verify(const Program& p);

}  // namespace tileslc::ir
