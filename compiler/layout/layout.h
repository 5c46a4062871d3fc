// CuTe's layout algebra (CuTe's 01_layout.md and 02_layout_algebra.md), as a
// standalone library with no dependency on the rest of the compiler: integers
// that are static or dynamic (Int), hierarchical integer tuples (IntTuple:
// Shape, Stride, Coord), layouts (shape:stride), tilers (a layout or a tuple
// of tilers, `<3:4,8:2>`), swizzles and composed layouts, every algebra
// operation under CuTe's names with CuTe's rules for static size-1 modes, the
// printed notation (`((2,2),3):((24,2),8)`) and a parser for it, and the
// renderers behind `tileslc layout show` (print_layout tables, SVG pictures).
//
// Failures are reported by throwing: LayoutError for algebra preconditions
// (its message names the operation and the layouts involved), NotationError
// for malformed notation (with the column).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tileslc::layout {

/// An algebra precondition failed: "composition: ..." names the operation
/// first, then what was expected, then the operands in CuTe notation.
class LayoutError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Malformed notation. `column` is 1-based in the text that was parsed.
class NotationError : public std::runtime_error {
 public:
  NotationError(const std::string& message, size_t column)
      : std::runtime_error(message + " at column " + std::to_string(column)),
        message_(message),
        column_(column) {}
  const std::string& bare_message() const { return message_; }
  size_t column() const { return column_; }

 private:
  std::string message_;
  size_t column_;
};

// ---------------------------------------------------------------------------
// Int: a static integer (CuTe's Int<N>, printed `_N` in CuTe's marked form), a
// dynamic integer whose value is known (CuTe's `int`), or a dynamic symbolic
// expression over run-time values (a C++ arithmetic expression over names).
// Arithmetic folds whenever both values are known; the result is static only
// if both operands are. Operations that need a value (comparisons, min,
// divisibility checks) throw LayoutError on a symbolic Int.
class Int {
 public:
  /// Static 0.
  Int() = default;
  /// Static integer (implicit so that literals read naturally in code).
  Int(int64_t v) : value_(v) {}  // NOLINT(google-explicit-constructor)
  static Int constant(int64_t v) { return Int(v); }
  /// A run-time integer whose value is known (CuTe's dynamic `int`).
  static Int dynamic(int64_t v);
  /// A run-time integer named `name` (a symbolic leaf).
  static Int symbol(std::string name);
  /// CuTe's basis stride E<k>, printed `1@k`: the unit step along mode k of a
  /// coordinate codomain (the strides of an identity tensor, CuTe's
  /// make_identity_tensor and TMA coordinate tensors). A symbolic leaf with
  /// no integer value; arithmetic builds scaled sums of bases (`2*1@0`).
  /// @pre mode >= 0
  static Int basis(int mode);

  bool is_static() const { return kind_ == Kind::Static; }
  bool is_dynamic() const { return kind_ != Kind::Static; }
  bool has_value() const { return kind_ != Kind::Symbolic; }
  /// @pre has_value()
  int64_t value() const;
  /// The value, or LayoutError "`what`: needs a static value, found N".
  int64_t require_value(std::string_view what) const;
  /// True if this is static and equals v (CuTe's is_constant<v>).
  bool is_constant(int64_t v) const { return is_static() && value_ == v; }
  /// A leaf made by basis(k).
  bool is_basis() const { return kind_ == Kind::Symbolic && basis_; }
  /// k of basis(k). @pre is_basis()
  int basis_mode() const;
  /// A leaf made by symbol(name): a run-time integer known by its name.
  bool is_named() const { return kind_ == Kind::Symbolic && op_ == 0 && !basis_; }
  /// A basis leaf somewhere in this expression.
  bool has_basis() const;

  /// Plain form ("12", "N", "(N*4)"); with mark_static, static ints print as `_12`.
  std::string to_string(bool mark_static = false) const;
  /// Same value and the same static/dynamic kind (symbolic: same expression).
  bool identical(const Int& o) const;

  /// Symbolic integers are expression trees, so that a client (sema) can
  /// turn them into its own arithmetic: a leaf (symbolic_op() == 0) is a
  /// named run-time value (is_named(), symbol_name()) or a basis stride
  /// (is_basis(), basis_mode()); an inner node applies symbolic_op()
  /// ('+' '-' '*' '/' '%', '/' and '%' truncating) to lhs() and rhs().
  /// @pre !has_value()
  char symbolic_op() const { return op_; }
  /// A leaf's printed form: the name of a named leaf, `1@k` for basis(k).
  const std::string& symbol_name() const { return *expr_; }
  const Int& lhs() const { return *lhs_; }
  const Int& rhs() const { return *rhs_; }

  friend Int operator+(const Int& a, const Int& b);
  friend Int operator-(const Int& a, const Int& b);
  friend Int operator*(const Int& a, const Int& b);
  /// Truncating division; x / _1 is x; divisor 0 throws LayoutError.
  friend Int operator/(const Int& a, const Int& b);
  friend Int operator%(const Int& a, const Int& b);
  Int operator-() const { return Int(0) - *this; }

 private:
  enum class Kind : uint8_t { Static, Dynamic, Symbolic };
  Kind kind_ = Kind::Static;
  int64_t value_ = 0;
  std::shared_ptr<const std::string> expr_;  // Symbolic only: the printed form
  bool atomic_ = true;                       // expr_ needs no parentheses
  char op_ = 0;                              // Symbolic inner node: the operation
  bool basis_ = false;                       // Symbolic leaf made by basis(): value_ is the mode
  std::shared_ptr<const Int> lhs_, rhs_;     // Symbolic inner node: the operands

  static Int make_symbolic(std::string expr, bool atomic);
  friend Int binary(const Int& a, const Int& b, char op);
};

Int ceil_div(const Int& a, const Int& b);
Int abs(const Int& a);
Int signum(const Int& a);
/// @pre both have values (else LayoutError naming `what`)
Int min(const Int& a, const Int& b);
Int max(const Int& a, const Int& b);

// ---------------------------------------------------------------------------
// IntTuple: an integer or a tuple of IntTuples. Coordinates may also hold the
// underscore `_` (a kept mode in slice).
class IntTuple {
 public:
  IntTuple() : IntTuple(Int()) {}
  IntTuple(Int v) : kind_(Kind::Leaf), leaf_(std::move(v)) {}  // NOLINT
  IntTuple(int64_t v) : IntTuple(Int(v)) {}                     // NOLINT
  IntTuple(int v) : IntTuple(Int(v)) {}                         // NOLINT
  static IntTuple tuple(std::vector<IntTuple> elems);
  static IntTuple underscore();

  bool is_leaf() const { return kind_ == Kind::Leaf; }
  bool is_tuple() const { return kind_ == Kind::Tuple; }
  bool is_underscore() const { return kind_ == Kind::Underscore; }
  /// @pre is_leaf()
  const Int& value() const { return leaf_; }
  /// @pre is_tuple()
  const std::vector<IntTuple>& elems() const { return elems_; }
  /// Tuples: the number of elements; leaves and `_`: 1.
  size_t rank() const { return is_tuple() ? elems_.size() : 1; }
  /// Mode i: a tuple's element; a leaf's mode 0 is itself.
  const IntTuple& operator[](size_t i) const;

  std::string to_string(bool mark_static = false) const;
  /// Same structure and identical leaves.
  bool identical(const IntTuple& o) const;

 private:
  enum class Kind : uint8_t { Leaf, Tuple, Underscore };
  Kind kind_;
  Int leaf_;
  std::vector<IntTuple> elems_;
};

using Shape = IntTuple;
using Stride = IntTuple;
using Coord = IntTuple;

/// Number of modes (1 for a leaf).
size_t rank(const IntTuple& t);
/// Nesting depth: 0 for a leaf, 1 + max over elements for a tuple.
size_t depth(const IntTuple& t);
/// The product of all leaves (CuTe's size of a shape).
Int size(const IntTuple& t);
Int product(const IntTuple& t);
/// Per top-level mode products: (2,(3,4)) -> (2,12); a leaf stays a leaf.
IntTuple product_each(const IntTuple& t);
/// All leaves in order; a leaf stays a leaf, tuples become flat tuples.
IntTuple flatten(const IntTuple& t);
std::vector<Int> flatten_leaves(const IntTuple& t);
/// Same tuple structure (leaves anywhere match leaves).
bool congruent(const IntTuple& a, const IntTuple& b);
/// Colexicographic compact strides: (2,(3,4)) -> (1,(2,6)).
IntTuple compact_col_major(const IntTuple& shape, const Int& start = Int(1));
/// Rebuilds `like`'s structure from a flat list of leaves.
IntTuple unflatten(const std::vector<Int>& leaves, const IntTuple& like);

/// 'Divides out' the first b elements of shape a (composition's first step).
/// @pre for each leaf in order, the leaf divides the rest of b or the rest of b divides it
/// @post product(result) == ceil_div(product(a), product(b))
IntTuple shape_div(const IntTuple& a, const IntTuple& b);
/// 'Keeps' the first b elements of shape a (composition's second step).
/// @pre the same divisibility as shape_div
IntTuple shape_mod(const IntTuple& a, const IntTuple& b);

/// The index of a coordinate: an integer coordinate into a tuple shape is
/// first split colexicographically (the last mode takes the remainder).
/// @pre crd is an integer or congruent with shape (hierarchically)
Int crd2idx(const Coord& crd, const Shape& shape, const Stride& stride);
/// The natural (hierarchical) coordinate of an index or of a coarser coordinate.
Coord idx2crd(const Coord& idx, const Shape& shape);

// ---------------------------------------------------------------------------
// Layout: a shape and a congruent stride; a function from coordinates to indices.
struct Layout {
  Shape shape;
  Stride stride;

  Layout() : shape(Int(1)), stride(Int(0)) {}
  /// @pre congruent(shape, stride) (else LayoutError)
  Layout(Shape shape, Stride stride);

  size_t rank() const { return shape.rank(); }
  /// Mode i as a layout.
  Layout operator[](size_t i) const;
  /// layout(coord), coord an integer or a (hierarchical) coordinate.
  Int operator()(const Coord& coord) const { return crd2idx(coord, shape, stride); }
  Int operator()(int64_t i) const { return crd2idx(Coord(i), shape, stride); }
  std::string to_string(bool mark_static = false) const;
  bool identical(const Layout& o) const { return shape.identical(o.shape) && stride.identical(o.stride); }
  /// No symbolic (run-time) integer in the shape or the stride.
  bool is_static() const;
};

/// A column-major (compact colexicographic) layout of `shape`.
Layout make_layout(const Shape& shape);
Layout make_layout(const Shape& shape, const Stride& stride);
/// Concatenates layouts as the modes of a new one: make_layout(A, B) = (A,B):(dA,dB).
Layout make_layout(const std::vector<Layout>& modes);
/// A compact layout whose modes are ordered by `order` (the smallest order gets stride 1;
/// ties keep their position).
/// @pre congruent(shape, order), shape static
Layout make_ordered_layout(const Shape& shape, const IntTuple& order);

Int size(const Layout& l);
/// size of the codomain: 1 + sum((s_i - 1) * |d_i|).
Int cosize(const Layout& l);
size_t rank(const Layout& l);
size_t depth(const Layout& l);
const Shape& shape(const Layout& l);
const Stride& stride(const Layout& l);
/// get<i>(l): mode i.
Layout get(const Layout& l, size_t i);
/// select<I...>(l): the chosen modes, in that order.
Layout select(const Layout& l, const std::vector<size_t>& modes);
/// group_modes<b,e>(l): modes [b,e) become one mode.
/// @pre b <= e <= rank(l)
Layout group_modes(const Layout& l, size_t b, size_t e);
Layout flatten(const Layout& l);
/// Appends static 1:0 modes up to rank n (CuTe's append<N>).
Layout append(const Layout& l, size_t n);

/// The simplest layout with the same function from integers.
/// @post size(result) == size(l), depth(result) <= 1, result(i) == l(i) for all i
/// Only static size-1 modes are dropped and only statically equal products merge;
/// an empty result is `1:0`, a single mode is a leaf (`12:1`).
Layout coalesce(const Layout& l);
/// By-mode coalesce: where `profile` has a tuple recurse, where it has an
/// integer coalesce that mode fully; modes past the profile are kept.
Layout coalesce(const Layout& l, const IntTuple& profile);
/// coalesce after replacing stride-0 modes with size 1.
Layout filter(const Layout& l);

// ---------------------------------------------------------------------------
// Tilers: a layout, a tuple of tilers (applied by mode), or `_` (keep a mode).
// A shape used as a tiler is the tuple of n:1 layouts.
struct Tiler {
  enum class Kind : uint8_t { Layout, Tuple, Underscore };
  Kind kind = Kind::Layout;
  layout::Layout layout;
  std::vector<Tiler> modes;

  Tiler() = default;
  Tiler(layout::Layout l) : layout(std::move(l)) {}  // NOLINT
  static Tiler tuple(std::vector<Tiler> modes);
  static Tiler underscore();
  /// (3,8) -> <3:1,8:1>, nested tuples stay nested, 5 -> 5:1, `_` -> `_`.
  static Tiler from_shape(const IntTuple& shape);
  bool is_layout() const { return kind == Kind::Layout; }
  bool is_tuple() const { return kind == Kind::Tuple; }
  std::string to_string(bool mark_static = false) const;
};

/// Functional composition R = A o B: R(c) = A(B(c)), with shape compatible with B's.
/// @pre for each mode of B (flattened), CuTe's stride and shape divisibility
///      conditions against coalesce(A) hold (else LayoutError naming both)
/// @post compatible(B, result); result(i) == A(B(i)) for i < size(B)
Layout composition(const Layout& a, const Layout& b);
/// By-mode composition with a tiler; modes of A beyond the tiler are kept.
/// @pre rank(tiler) <= rank(a)
Layout composition(const Layout& a, const Tiler& tiler);

/// The layout of the elements `l` does not reach, up to `cotarget`.
/// @pre filter(l) is injective with strides that divide each other in sorted order
/// @post disjoint images, result ordered (increasing strides), size(l)*size(result) >= cotarget
Layout complement(const Layout& l, const Int& cotarget);
/// complement(l, cosize(l))
Layout complement(const Layout& l);

/// The layout R with l(R(i)) == i for the largest such contiguous prefix (1:0 if none).
Layout right_inverse(const Layout& l);
/// The layout R with R(l(i)) == i. @pre l injective
Layout left_inverse(const Layout& l);

/// composition(a, make_layout(t, complement(t, size(a)))), by mode for tuple tilers.
/// @post size(result) == size(a) when the tile divides a
Layout logical_divide(const Layout& a, const Tiler& tiler);
/// ((tiles...), (rests...)) from logical_divide.
Layout zipped_divide(const Layout& a, const Tiler& tiler);
/// ((tiles...), rest0, rest1, ...)
Layout tiled_divide(const Layout& a, const Tiler& tiler);
/// (tile modes..., rest modes...)
Layout flat_divide(const Layout& a, const Tiler& tiler);

/// make_layout(a, composition(complement(a, size(a)*cosize(b)), b)), by mode for tuples.
/// @post size(result) == size(a) * size(b)
Layout logical_product(const Layout& a, const Tiler& b);
Layout zipped_product(const Layout& a, const Tiler& b);
Layout tiled_product(const Layout& a, const Tiler& b);
Layout flat_product(const Layout& a, const Tiler& b);
/// Mode i = (a_i, b'_i) where (a, b') = logical_product padded to a common rank.
Layout blocked_product(const Layout& a, const Layout& b);
/// Mode i = (b'_i, a_i).
Layout raked_product(const Layout& a, const Layout& b);
/// Repeats `block` (blocked, in `order`, default column-major) to fill `target`.
/// @pre each mode of target is divisible by the block's mode
Layout tile_to_shape(const Layout& block, const Shape& target, const std::optional<IntTuple>& order = {});

/// CuTe DSL's make_layout_tv: (tiler_mn, layout_tv) for a thread layout and a value layout.
std::pair<IntTuple, Layout> make_layout_tv(const Layout& thr, const Layout& val);
/// The number of elements both layouts keep contiguous (stride 1) from index 0.
Int max_common_vector(const Layout& a, const Layout& b);
Layout max_common_layout(const Layout& a, const Layout& b);
/// The layout of the same memory seen through elements of new_bits instead of old_bits.
/// @pre the strides and the ratio divide each other
Layout recast_layout(int old_bits, int new_bits, const Layout& l);
Layout upcast(int n, const Layout& l);
Layout downcast(int n, const Layout& l);

/// slice(crd, t): the modes of t where crd has `_`, concatenated (CuTe's slice).
IntTuple slice(const Coord& crd, const IntTuple& t);
/// The sub-layout of the kept modes (`_` in crd).
Layout slice(const Coord& crd, const Layout& l);
/// The offset the fixed coordinates contribute (kept modes at 0).
Int slice_offset(const Coord& crd, const Layout& l);

// ---------------------------------------------------------------------------
// Swizzles: Sw<B,M,S>(x) = x ^ ((x & yyy) >> S), yyy = ((1<<B)-1) << (M+S).
struct Swizzle {
  int bits = 0, base = 0, shift = 0;
  int64_t operator()(int64_t x) const;
  /// 2^(base + bits + |shift|): the swizzle reads and writes only offset bits below this, so
  /// it maps each aligned block of `span()` elements onto itself and
  /// swizzle(x + k * span()) = swizzle(x) + k * span().
  int64_t span() const { return int64_t(1) << (base + bits + (shift < 0 ? -shift : shift)); }
  std::string to_string() const;
};

/// swizzle o offset o layout: i -> swizzle(offset + layout(i)).
struct ComposedLayout {
  Swizzle swizzle;
  Int offset;
  Layout layout;
  Int operator()(const Coord& c) const;
  std::string to_string(bool mark_static = false) const;
};

// ---------------------------------------------------------------------------
// Notation.
struct ParseOptions {
  /// CuTe's printed convention is `_N` static, `N` dynamic. By default plain
  /// integers are static too (the notation of the conformance file and docs).
  bool plain_ints_static = true;
};

IntTuple parse_int_tuple(std::string_view text, const ParseOptions& opts = {});
Layout parse_layout(std::string_view text, const ParseOptions& opts = {});
/// A layout, a by-mode tiler `<3:4,8:2>`, or a shape tuple used as a tiler.
Tiler parse_tiler(std::string_view text, const ParseOptions& opts = {});
/// `Sw<B,M,S> o OFFSET o LAYOUT` (offset optional) or `Sw<B,M,S>`.
ComposedLayout parse_composed_layout(std::string_view text, const ParseOptions& opts = {});
/// True if the text has a top-level ':' (a layout rather than a tuple).
bool looks_like_layout(std::string_view text);

// ---------------------------------------------------------------------------
// The `tileslc layout OP ARG...` operations on text, shared by the CLI and the
// conformance tests. Throws UsageError (unknown op, wrong argument count),
// NotationError (with arg_index set), or LayoutError.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ArgNotationError : NotationError {
  ArgNotationError(const NotationError& e, size_t arg_index, std::string arg)
      : NotationError(e), arg_index(arg_index), arg(std::move(arg)) {}
  size_t arg_index;  // 0-based
  std::string arg;
};

struct TextOpOptions {
  ParseOptions parse;
  bool mark_static = false;  ///< print static integers as `_N`
};
/// The names of the operations evaluate_op knows, with their argument synopsis.
const std::vector<std::pair<std::string, std::string>>& text_ops();
std::string evaluate_op(std::string_view op, const std::vector<std::string>& args,
                        const TextOpOptions& opts = {});

// ---------------------------------------------------------------------------
// Rendering.
/// CuTe's print_layout: the layout, then a rows x columns table of indices
/// (rank-1 layouts are one column; modes past the first are the columns).
std::string print_layout(const Layout& l);
std::string print_layout(const ComposedLayout& l);
/// An SVG picture of the same table, cells colored by index.
std::string layout_svg(const Layout& l);
std::string layout_svg(const ComposedLayout& l);
/// A thread-value layout over a (M,N) tile: each cell labelled T#/V# and colored by thread.
/// @pre tv is (thread, value) -> index < size(tile); tile rank 2 (or 1)
std::string print_tv(const Layout& tv, const Shape& tile);
std::string tv_svg(const Layout& tv, const Shape& tile);

}  // namespace tileslc::layout
