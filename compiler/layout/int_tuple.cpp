// Integers (static, dynamic with a known value, symbolic) and hierarchical
// integer tuples: arithmetic that folds whenever values are known, printing in
// CuTe's notation, and the tuple algorithms everything else builds on
// (size, flatten, compact strides, shape_div/shape_mod, crd2idx/idx2crd).
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "layout/layout.h"

namespace tileslc::layout {

// ---------------------------------------------------------------------------
// Int

Int Int::dynamic(int64_t v) {
  Int r(v);
  r.kind_ = Kind::Dynamic;
  return r;
}

Int Int::symbol(std::string name) { return make_symbolic(std::move(name), true); }

Int Int::basis(int mode) {
  if (mode < 0) throw LayoutError("internal: basis stride of the negative mode " + std::to_string(mode));
  Int r = make_symbolic("1@" + std::to_string(mode), true);
  r.basis_ = true;
  r.value_ = mode;
  return r;
}

int Int::basis_mode() const {
  if (!is_basis()) throw LayoutError("internal: basis_mode of " + to_string() + ", which is not a basis stride");
  return static_cast<int>(value_);
}

bool Int::has_basis() const {
  if (kind_ != Kind::Symbolic) return false;
  if (op_ == 0) return basis_;
  return lhs_->has_basis() || rhs_->has_basis();
}

Int Int::make_symbolic(std::string expr, bool atomic) {
  Int r;
  r.kind_ = Kind::Symbolic;
  r.expr_ = std::make_shared<const std::string>(std::move(expr));
  r.atomic_ = atomic;
  return r;
}

int64_t Int::value() const {
  if (kind_ == Kind::Symbolic) throw LayoutError("internal: value of the symbolic integer " + *expr_);
  return value_;
}

int64_t Int::require_value(std::string_view what) const {
  if (kind_ == Kind::Symbolic)
    throw LayoutError(std::string(what) + ": needs a static value, found the run-time value " + *expr_);
  return value_;
}

std::string Int::to_string(bool mark_static) const {
  switch (kind_) {
    case Kind::Static: return (mark_static ? "_" : "") + std::to_string(value_);
    case Kind::Dynamic: return std::to_string(value_);
    case Kind::Symbolic: return *expr_;
  }
  return "";
}

bool Int::identical(const Int& o) const {
  if (kind_ != o.kind_) return false;
  if (kind_ == Kind::Symbolic) return basis_ == o.basis_ && *expr_ == *o.expr_;
  return value_ == o.value_;
}

Int binary(const Int& a, const Int& b, char op) {
  if (a.has_value() && b.has_value()) {
    int64_t x = a.value_, y = b.value_, r = 0;
    bool overflow = false;
    switch (op) {
      case '+': overflow = __builtin_add_overflow(x, y, &r); break;
      case '-': overflow = __builtin_sub_overflow(x, y, &r); break;
      case '*': overflow = __builtin_mul_overflow(x, y, &r); break;
      case '/':
        if (y == 0) throw LayoutError("division by zero");
        overflow = x == INT64_MIN && y == -1;  // the one quotient that does not fit (and traps)
        r = overflow ? 0 : x / y;
        break;
      case '%':
        if (y == 0) throw LayoutError("modulo by zero");
        r = y == -1 ? 0 : x % y;  // INT64_MIN % -1 traps; the remainder is 0
        break;
    }
    if (overflow)
      throw LayoutError("integer overflow: " + std::to_string(x) + " " + op + " " + std::to_string(y) + " does not fit in 64 bits");
    return a.is_static() && b.is_static() ? Int(r) : Int::dynamic(r);
  }
  // At least one symbolic operand: a constant zero divisor is still an error
  // (it would otherwise become a division by zero in the generated code).
  if (op == '/' && b.is_constant(0)) throw LayoutError("division of " + a.to_string() + " by zero");
  if (op == '%' && b.is_constant(0)) throw LayoutError("modulo of " + a.to_string() + " by zero");
  // Fold the identities, else build C++ text.
  if (op == '*') {
    if (a.is_constant(0) || b.is_constant(0)) return Int(0);
    if (a.is_constant(1)) return b;
    if (b.is_constant(1)) return a;
  }
  if (op == '+' && a.is_constant(0)) return b;
  if ((op == '+' || op == '-') && b.is_constant(0)) return a;
  if (op == '/' && b.is_constant(1)) return a;
  if (op == '%' && b.is_constant(1)) return Int(0);
  auto wrap = [](const Int& x) {
    std::string s = x.to_string();
    if (x.kind_ == Int::Kind::Symbolic && !x.atomic_) return "(" + s + ")";
    if (x.has_value() && x.value_ < 0) return "(" + s + ")";
    return s;
  };
  Int r = Int::make_symbolic(wrap(a) + op + wrap(b), false);
  r.op_ = op;
  r.lhs_ = std::make_shared<const Int>(a);
  r.rhs_ = std::make_shared<const Int>(b);
  return r;
}

Int operator+(const Int& a, const Int& b) { return binary(a, b, '+'); }
Int operator-(const Int& a, const Int& b) { return binary(a, b, '-'); }
Int operator*(const Int& a, const Int& b) { return binary(a, b, '*'); }
Int operator/(const Int& a, const Int& b) { return binary(a, b, '/'); }
Int operator%(const Int& a, const Int& b) { return binary(a, b, '%'); }

Int ceil_div(const Int& a, const Int& b) {
  if (a.has_value() && b.has_value()) {
    int64_t x = a.value(), y = b.value();
    if (y == 0) throw LayoutError("ceil_div: division by zero");
    if (x == INT64_MIN && y == -1)
      throw LayoutError("integer overflow: ceil_div(" + std::to_string(x) + ", -1) does not fit in 64 bits");
    int64_t q = x / y;
    if (y != -1 && (x % y != 0) && ((x > 0) == (y > 0))) ++q;
    return a.is_static() && b.is_static() ? Int(q) : Int::dynamic(q);
  }
  if (b.is_constant(1)) return a;
  return (a + b - Int(1)) / b;
}

Int abs(const Int& a) {
  if (!a.has_value()) return a;  // run-time values in shapes and strides are taken as non-negative
  int64_t v = a.value() < 0 ? -a.value() : a.value();
  return a.is_static() ? Int(v) : Int::dynamic(v);
}

Int signum(const Int& a) {
  if (!a.has_value()) return Int(1);
  int64_t v = (a.value() > 0) - (a.value() < 0);
  return a.is_static() ? Int(v) : Int::dynamic(v);
}

Int min(const Int& a, const Int& b) {
  int64_t x = a.require_value("min"), y = b.require_value("min");
  const Int& r = x <= y ? a : b;
  return a.is_static() && b.is_static() ? r : Int::dynamic(r.value());
}

Int max(const Int& a, const Int& b) {
  int64_t x = a.require_value("max"), y = b.require_value("max");
  const Int& r = x >= y ? a : b;
  return a.is_static() && b.is_static() ? r : Int::dynamic(r.value());
}

// ---------------------------------------------------------------------------
// IntTuple

IntTuple IntTuple::tuple(std::vector<IntTuple> elems) {
  IntTuple t;
  t.kind_ = Kind::Tuple;
  t.elems_ = std::move(elems);
  return t;
}

IntTuple IntTuple::underscore() {
  IntTuple t;
  t.kind_ = Kind::Underscore;
  return t;
}

const IntTuple& IntTuple::operator[](size_t i) const {
  if (!is_tuple()) {
    if (i != 0) throw LayoutError("mode " + std::to_string(i) + " of " + to_string() + " does not exist");
    return *this;
  }
  if (i >= elems_.size())
    throw LayoutError("mode " + std::to_string(i) + " of " + to_string() + " does not exist");
  return elems_[i];
}

std::string IntTuple::to_string(bool mark_static) const {
  switch (kind_) {
    case Kind::Leaf: return leaf_.to_string(mark_static);
    case Kind::Underscore: return "_";
    case Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < elems_.size(); ++i) {
        if (i) s += ',';
        s += elems_[i].to_string(mark_static);
      }
      return s + ")";
    }
  }
  return "";
}

bool IntTuple::identical(const IntTuple& o) const {
  if (kind_ != o.kind_) return false;
  if (is_leaf()) return leaf_.identical(o.leaf_);
  if (is_underscore()) return true;
  if (elems_.size() != o.elems_.size()) return false;
  for (size_t i = 0; i < elems_.size(); ++i)
    if (!elems_[i].identical(o.elems_[i])) return false;
  return true;
}

size_t rank(const IntTuple& t) { return t.rank(); }

size_t depth(const IntTuple& t) {
  if (!t.is_tuple()) return 0;
  size_t d = 0;
  for (const auto& e : t.elems()) d = std::max(d, depth(e));
  return d + 1;
}

Int product(const IntTuple& t) {
  if (t.is_leaf()) return t.value();
  if (t.is_underscore()) throw LayoutError("size: `_` has no size");
  Int p(1);
  for (const auto& e : t.elems()) p = p * product(e);
  return p;
}

Int size(const IntTuple& t) { return product(t); }

IntTuple product_each(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> out;
  for (const auto& e : t.elems()) out.emplace_back(product(e));
  return IntTuple::tuple(std::move(out));
}

namespace {
void collect_leaves(const IntTuple& t, std::vector<IntTuple>& out) {
  if (t.is_tuple()) {
    for (const auto& e : t.elems()) collect_leaves(e, out);
  } else {
    out.push_back(t);
  }
}
}  // namespace

IntTuple flatten(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  std::vector<IntTuple> out;
  collect_leaves(t, out);
  return IntTuple::tuple(std::move(out));
}

std::vector<Int> flatten_leaves(const IntTuple& t) {
  std::vector<IntTuple> leaves;
  collect_leaves(t, leaves);
  std::vector<Int> out;
  for (const auto& l : leaves) {
    if (!l.is_leaf()) throw LayoutError("expected integers, found `_` in " + t.to_string());
    out.push_back(l.value());
  }
  return out;
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() != b.is_tuple()) return false;
  if (!a.is_tuple()) return true;
  if (a.rank() != b.rank()) return false;
  for (size_t i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

namespace {
IntTuple compact_impl(const IntTuple& shape, Int& current) {
  if (!shape.is_tuple()) {
    IntTuple r(current);
    current = current * shape.value();
    return r;
  }
  std::vector<IntTuple> out;
  for (const auto& e : shape.elems()) out.push_back(compact_impl(e, current));
  return IntTuple::tuple(std::move(out));
}

IntTuple unflatten_impl(const std::vector<Int>& leaves, size_t& pos, const IntTuple& like) {
  if (!like.is_tuple()) return IntTuple(leaves.at(pos++));
  std::vector<IntTuple> out;
  for (const auto& e : like.elems()) out.push_back(unflatten_impl(leaves, pos, e));
  return IntTuple::tuple(std::move(out));
}
}  // namespace

IntTuple compact_col_major(const IntTuple& shape, const Int& start) {
  Int current = start;
  return compact_impl(shape, current);
}

IntTuple unflatten(const std::vector<Int>& leaves, const IntTuple& like) {
  size_t pos = 0;
  return unflatten_impl(leaves, pos, like);
}

// ---------------------------------------------------------------------------
// shape_div / shape_mod

namespace {
void check_divides_either(const Int& a, const Int& b, std::string_view op) {
  int64_t x = a.require_value(op), y = b.require_value(op);
  if (x == 0 || y == 0) throw LayoutError(std::string(op) + ": zero in " + a.to_string() + " and " + b.to_string());
  // x % -1 is 0 but INT64_MIN % -1 traps, so a divisor of +-1 is tested first.
  auto divides = [](int64_t n, int64_t m) { return m == 1 || m == -1 || n % m == 0; };
  if (!divides(x, y) && !divides(y, x))
    throw LayoutError(std::string(op) + ": " + a.to_string() + " and " + b.to_string() +
                      " do not divide each other");
}

Int int_shape_div(const Int& a, const Int& b) {
  if (b.is_constant(1)) return a;
  check_divides_either(a, b, "shape_div");
  Int q = a / b;
  if (q.value() != 0) return q;
  Int s = signum(a) * signum(b);
  return s;
}

Int int_shape_mod(const Int& a, const Int& b) {
  if (b.is_constant(1)) return Int(1);
  check_divides_either(a, b, "shape_mod");
  Int r = min(abs(a), abs(b));
  return r;
}
}  // namespace

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    if (b.is_tuple()) {
      if (a.rank() != b.rank())
        throw LayoutError("shape_div: " + a.to_string() + " and " + b.to_string() + " have different ranks");
      std::vector<IntTuple> out;
      for (size_t i = 0; i < a.rank(); ++i) out.push_back(shape_div(a[i], b[i]));
      return IntTuple::tuple(std::move(out));
    }
    std::vector<IntTuple> out;
    IntTuple rest = b;
    for (const auto& e : a.elems()) {
      out.push_back(shape_div(e, rest));
      rest = shape_div(rest, IntTuple(product(e)));
    }
    return IntTuple::tuple(std::move(out));
  }
  if (b.is_tuple()) return shape_div(a, IntTuple(product(b)));
  return IntTuple(int_shape_div(a.value(), b.value()));
}

IntTuple shape_mod(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    std::vector<IntTuple> out;
    IntTuple rest = b.is_tuple() ? IntTuple(product(b)) : b;
    for (const auto& e : a.elems()) {
      out.push_back(shape_mod(e, rest));
      rest = shape_div(rest, IntTuple(product(e)));
    }
    return IntTuple::tuple(std::move(out));
  }
  if (b.is_tuple()) return shape_mod(a, IntTuple(product(b)));
  return IntTuple(int_shape_mod(a.value(), b.value()));
}

// ---------------------------------------------------------------------------
// crd2idx / idx2crd

Int crd2idx(const Coord& crd, const Shape& shape, const Stride& stride) {
  if (crd.is_underscore()) throw LayoutError("crd2idx: `_` is not a coordinate");
  if (crd.is_tuple()) {
    if (!shape.is_tuple() || shape.rank() != crd.rank())
      throw LayoutError("crd2idx: coordinate " + crd.to_string() + " does not match shape " + shape.to_string());
    Int idx(0);
    for (size_t i = 0; i < crd.rank(); ++i) idx = idx + crd2idx(crd[i], shape[i], stride[i]);
    return idx;
  }
  if (!shape.is_tuple()) return crd.value() * stride.value();
  // An integer coordinate into a tuple shape: split it colexicographically;
  // the last mode takes what remains.
  Int c = crd.value(), idx(0);
  for (size_t i = 0; i < shape.rank(); ++i) {
    if (i + 1 == shape.rank()) {
      idx = idx + crd2idx(Coord(c), shape[i], stride[i]);
    } else {
      Int s = product(shape[i]);
      if (s.has_value() && s.value() <= 0)
        throw LayoutError("crd2idx: mode " + std::to_string(i) + " of shape " + shape.to_string() + " has size " +
                          s.to_string() + "; an integer coordinate cannot be split over it");
      idx = idx + crd2idx(Coord(c % s), shape[i], stride[i]);
      c = c / s;
    }
  }
  return idx;
}

Coord idx2crd(const Coord& idx, const Shape& shape) {
  if (idx.is_tuple()) {
    if (!shape.is_tuple() || shape.rank() != idx.rank())
      throw LayoutError("idx2crd: coordinate " + idx.to_string() + " does not match shape " + shape.to_string());
    std::vector<IntTuple> out;
    for (size_t i = 0; i < idx.rank(); ++i) out.push_back(idx2crd(idx[i], shape[i]));
    return IntTuple::tuple(std::move(out));
  }
  if (idx.is_underscore()) throw LayoutError("idx2crd: `_` is not an index");
  if (!shape.is_tuple()) return idx;
  // Each leaf: (idx / compact_stride) % shape.
  IntTuple strides = compact_col_major(shape);
  std::vector<Int> s = flatten_leaves(shape), d = flatten_leaves(strides), out;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i].has_value() && s[i].value() <= 0)
      throw LayoutError("idx2crd: shape " + shape.to_string() + " has a mode of size " + s[i].to_string() +
                        "; an index cannot be split over it");
  for (size_t i = 0; i < s.size(); ++i) out.push_back((idx.value() / d[i]) % s[i]);
  return unflatten(out, shape);
}

}  // namespace tileslc::layout
