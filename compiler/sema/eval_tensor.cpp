// Tensor element access: an N-D coordinate maps to an element offset through
// the tensor's strides (offset = sum_k coord_k * stride_k, CuTe's crd2idx for
// a flat layout); a single integer index into a rank-N tensor is first turned
// into a coordinate colexicographically (CuTe's idx2crd). Offsets are Int64:
// global-memory offsets never wrap at 2^31.
#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

std::string dims_text(const TensorValue& t) {
  std::string s = "(";
  for (size_t i = 0; i < t.shape.size(); ++i) {
    s += i ? ", " : "";
    s += t.shape_symbols[i].empty() ? repr(*t.shape[i]) : t.shape_symbols[i];
  }
  return s + (t.shape.size() == 1 ? ",)" : ")");
}

}  // namespace

Value Evaluator::tensor_size(const TensorValue& t, source::SourceRange r) {
  if (t.shape.empty()) return Value::integer(1);
  Value acc = *t.shape[0];
  for (size_t m = 1; m < t.shape.size(); ++m) acc = eval_binop(ast::BinOpKind::Mul, acc, *t.shape[m], r, r);
  return acc;
}

Value Evaluator::tensor_attribute(const Value& tv, const std::string& attr, source::SourceRange r) {
  const auto& t = *tv.tensor;
  if (attr == "shape") {
    std::vector<Value> xs;
    for (const auto& d : t.shape) xs.push_back(*d);
    return Value::tuple(std::move(xs));
  }
  if (attr == "stride") {
    std::vector<Value> xs;
    for (const auto& s : t.stride) {
      if (auto c = ir::as_int_const(s)) xs.push_back(Value::integer(*c));
      else xs.push_back(Value::dyn(s, r));
    }
    return Value::tuple(std::move(xs));
  }
  if (attr == "element_type" || attr == "dtype") return Value::scalar_type(t.dtype);
  if (attr == "rank") return Value::integer(static_cast<int64_t>(t.shape.size()));
  fail(diag::Kind::NoSuchAttribute, r, "tensor has no attribute '" + attr + "' (available: shape, stride, element_type, rank)");
}

ir::ExprRef Evaluator::tensor_offset(const TensorValue& t, const Value& index, source::SourceRange r) {
  if (!fn_ || !fn_->is_kernel)
    fail(diag::Kind::UnsupportedOperation, r, "tensor elements can only be read or written inside a @cute.kernel");
  std::vector<Value> coord;
  size_t rank = t.shape.size();
  if (index.kind == Value::Kind::Tuple) {
    coord = *index.elts;
    if (coord.size() != rank) {
      auto& d = error(diag::Kind::RankMismatch, r,
                      "tensor of rank " + std::to_string(rank) + " indexed with " + std::to_string(coord.size()) +
                          " coordinates");
      d.note("the tensor's shape is " + dims_text(t));
      abort_entry();
    }
  } else if (index.kind == Value::Kind::Slice || index.kind == Value::Kind::None) {
    fail(diag::Kind::UnsupportedOperation, r, "slicing tensors is not supported yet; index single elements");
  } else {
    // A linear index: colexicographic idx2crd over the shape.
    if (rank == 1) {
      coord = {index};
    } else {
      Value rest = index;
      for (size_t k = 0; k < rank; ++k) {
        if (k + 1 == rank) {
          coord.push_back(rest);
        } else {
          coord.push_back(eval_binop(ast::BinOpKind::Mod, rest, *t.shape[k], r, r));
          rest = eval_binop(ast::BinOpKind::FloorDiv, rest, *t.shape[k], r, r);
        }
      }
    }
  }
  ir::ExprRef offset;
  for (size_t k = 0; k < rank; ++k) {
    Value c = resolve_symbol(coord[k], r);
    if (!(c.kind == Value::Kind::Int || c.kind == Value::Kind::Bool || c.kind == Value::Kind::Dyn))
      fail(diag::Kind::TypeMismatch, r, "tensor coordinates must be integers, found " + describe(c));
    if (c.kind == Value::Kind::Dyn && !ir::is_integer(c.type) && c.type != ScalarType::Boolean)
      fail(diag::Kind::TypeMismatch, r, "tensor coordinates must be integers, found " + describe(c));
    if (c.kind == Value::Kind::Int && t.shape[k]->kind == Value::Kind::Int && (c.i < 0 || c.i >= t.shape[k]->i)) {
      auto& d = error(diag::Kind::IndexOutOfRange, r,
                      "coordinate " + std::to_string(c.i) + " is out of range for mode " + std::to_string(k) +
                          " of extent " + std::to_string(t.shape[k]->i));
      d.note("the tensor's shape is " + dims_text(t));
      abort_entry();
    }
    auto ck = to_expr_as(c, ScalarType::Int64, r);
    ir::ExprRef term;
    auto ci = ir::as_int_const(ck), si = ir::as_int_const(t.stride[k]);
    if (ci && si) term = ir::int_const(*ci * *si, ScalarType::Int64);
    else if (ci && *ci == 0) continue;
    else if (si && *si == 1) term = ck;
    else if (ci && *ci == 1) term = t.stride[k];
    else term = ir::binary(ir::Op::Mul, ck, t.stride[k], ScalarType::Int64);
    if (auto z = ir::as_int_const(term); z && *z == 0) continue;
    offset = offset ? ir::binary(ir::Op::Add, offset, term, ScalarType::Int64) : term;
  }
  return offset ? offset : ir::int_const(0, ScalarType::Int64);
}

Value Evaluator::tensor_load(const Value& tv, const Value& index, source::SourceRange r) {
  const auto& t = *tv.tensor;
  auto off = tensor_offset(t, index, r);
  return Value::dyn(ir::load(t.ptr, off, t.dtype), r);
}

void Evaluator::tensor_store(const Value& tv, const Value& index, const Value& v, source::SourceRange r) {
  const auto& t = *tv.tensor;
  auto off = tensor_offset(t, index, r);
  Value val = resolve_symbol(v, r);
  if (!(val.is_number() || val.kind == Value::Kind::Dyn)) {
    auto& d = error(diag::Kind::TypeMismatch, r,
                    std::string("cannot store ") + describe(val) + " into an element of a " + ir::type_name(t.dtype) + " tensor");
    if (val.kind == Value::Kind::Tensor) d.help("index the source tensor too, e.g. gB[i] = gA[i]");
    abort_entry();
  }
  if (((val.kind == Value::Kind::Dyn && ir::is_float(val.type)) || val.kind == Value::Kind::Float) && !ir::is_float(t.dtype)) {
    auto& d = error(diag::Kind::LossyConversion, r,
                    std::string("storing a ") + (val.kind == Value::Kind::Float ? std::string("float") : ir::type_name(val.type)) +
                        " value into a " + ir::type_name(t.dtype) + " tensor would drop its fraction");
    d.help(std::string("convert explicitly: cutlass.") + ir::type_name(t.dtype) + "(value)");
    abort_entry();
  }
  auto s = ir::make_stmt(ir::StmtKind::Store, stmt_loc_.valid() ? stmt_loc_ : r);
  s->name = t.ptr;
  s->a = off;
  s->b = to_expr_as(val, t.dtype, r);
  fn_->stored_ptrs[t.ptr] += 1;
  emit(std::move(s));
}

}  // namespace tileslc::sema
