// Walking and rewriting the IR without a switch over expression or statement
// kinds. The child iterators below map each kind's named fields (ir.h) to its
// operand expressions, its nested blocks and the names it binds or writes, in
// one fixed order; passes that treat every operand alike (the verifier's
// expression checks, codegen's dead-local scan, the CPU target's rewrite)
// go through them. Expressions are immutable and shared: the mutator
// rebuilds the nodes on the path to a change and shares everything else.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tileslc::ir {

// ------------------------------------------------------------ child iterators

/// The operand expressions of `s` in a fixed order per kind, absent optional
/// ones skipped:
///   Assign: value; Store: offset, value; If, While: condition; For: begin, end, step;
///   Printf: the arguments; Check: condition, reported value; VecCopy: destination
///   offset, source offset; Eval: the expression; Launch: grid x/y/z, block x/y/z,
///   shared-memory bytes, cluster x/y/z, stream, then one per kernel parameter.
void for_each_operand(const Stmt& s, const std::function<void(const ExprRef&)>& f);
/// The same slots, writable: `f` may replace an operand (not remove it).
void for_each_operand(Stmt& s, const std::function<void(ExprRef&)>& f);

/// The operand expressions of `e` in a fixed order per kind, null ones skipped:
///   Unary: the operand; Binary: lhs, rhs; Select: cond, if_true, if_false; Cast: the value;
///   Call: the arguments; Load, AddressOf: the offset; Intrinsic: its operands; the leaves
///   (constants, names, hardware indices, host tensor fields) have none.
void for_each_operand(const Expr& e, const std::function<void(const ExprRef&)>& f);

/// The nested blocks of `s`: If: then, else (also when empty); For, While: the body.
void for_each_block(const Stmt& s, const std::function<void(const Block&)>& f);
void for_each_block(Stmt& s, const std::function<void(Block&)>& f);

/// How a statement uses a name it carries (not the names inside its operands).
enum class NameUse : uint8_t {
  Assigned,    ///< Assign: the local written
  LoopVar,     ///< For: the local the loop counts in
  StoredTo,    ///< Store, VecCopy: the pointer or array written through
  CopiedFrom,  ///< VecCopy: the pointer or array read
};
/// The names `s` binds or addresses, in the order Assign/For/Store/VecCopy
/// (destination, source). Printf's format and Check's message are text, not names.
void for_each_name(const Stmt& s, const std::function<void(const std::string&, NameUse)>& f);

// ------------------------------------------------------------------ visitors

/// `e` and every expression under it, parents before operands, left to right.
void for_each_expr(const ExprRef& e, const std::function<void(const Expr&)>& f);
/// Every statement of `b` and of the blocks nested in it, in program order
/// (a statement before its blocks).
void for_each_stmt(const Block& b, const std::function<void(const Stmt&)>& f);
/// Every expression of the statements of `b` (nested blocks included), with
/// the statement it belongs to.
void for_each_expr(const Block& b, const std::function<void(const Expr&, const Stmt&)>& f);

// ------------------------------------------------------------------- mutator

/// Rewrites `e` bottom-up: each node's operands are rewritten first, then
/// `f` sees the node (a copy holding the new operands where any changed) and
/// returns it or its replacement. A replacement is not visited again. Where
/// neither `f` nor any operand changed anything the original node is returned,
/// so an untouched tree comes back pointer-equal.
ExprRef mutate(const ExprRef& e, const std::function<ExprRef(const ExprRef&)>& f);
/// `mutate` on every operand of every statement of `b`, nested blocks included.
void mutate(Block& b, const std::function<ExprRef(const ExprRef&)>& f);

}  // namespace tileslc::ir
