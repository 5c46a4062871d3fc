// CuTe DSL's scalar API beyond constructing one (issue 14): the methods of a
// run-time scalar (CuTe DSL's Numeric: `x.to(cutlass.Float32)`). The abstract
// type names cutlass.Float / cutlass.Integer are type-name rows
// (compat_type_name, checked by type_name_accepts); the concrete ones
// (cutlass.Float32, ...) are scalar types, also exported from cute as CuTe DSL
// does (stdlib/tileslc/cute/__init__.tpy).
#include "sema/evaluator.h"
#include "sema/registry.h"

namespace tileslc::sema {

/// `x.to(dtype)` on a run-time scalar (CuTe DSL numeric.py's Numeric.to): `x` converted to
/// scalar type `dtype` as C++ converts (float to integer truncates toward zero). E0401 when
/// `dtype` is not a scalar type.
Value scalar_to(Evaluator& ev, BuiltinCall& c) {
  if (c[0].kind() != Value::Kind::Type)
    ev.fail(diag::Kind::TypeMismatch, c.range(0), c.name() + "() takes a scalar type (cutlass.Float32, ...), found " + describe(c[0]));
  const ir::ScalarType t = c[0].type();
  const Value& x = c.self();
  if (x.type() == t) return x;
  return Value::dyn(ir::cast(ev.to_expr(x, c.site.range), t), c.site.range);
}

}  // namespace tileslc::sema
