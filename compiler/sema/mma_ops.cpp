// MMA atoms and tiled MMAs (CuTe's MMA_Atom / TiledMMA, CuTe DSL's
// make_tiled_mma), cute.gemm, and cp.async with its commit/wait groups.
//
// An atom is one instruction with a (thread, value) layout per operand. The
// warp-level mma.sync.aligned.m16n8k16.row.col.f32.{bf16,f16} (PTX ISA,
// "Matrix Fragments for mma.m16n8k16 with floating point type"): with
// g = lane / 4 and t = lane % 4, A holds (row g [+8], col 2t [+1] [+8]), B
// (col g, row 2t [+1] [+8]), C (row g [+8], col 2t [+1]); these are CuTe's
// SM80_16x8x16 ALayout ((4,8),(2,2,2)):((32,1),(16,8,128)), BLayout
// ((4,8),(2,2)):((16,1),(8,64)) and CLayout ((4,8),(2,2)):((32,1),(16,8)).
// make_tiled_mma lays atoms out (AM, AN) over warps; partition_A/B/C give a
// thread's (V, REST_M|N, REST_K|N) values, and cute.gemm issues one
// instruction per (m, n, k) of the register fragments. The TF32 (m16n8k8) and
// 8-bit integer (m16n8k32) atoms follow the same scheme with their own layouts.
#include "sema/evaluator.h"

namespace tileslc::sema {

using ir::ScalarType;

namespace {

layout::Layout parse(const char* text) { return layout::parse_layout(text); }

/// An atom stride s (column-major over an atom tile of `rows` rows) as a
/// stride of the tiled tile with `tiled_rows` rows.
layout::IntTuple widen(const layout::IntTuple& stride, int64_t rows, int64_t tiled_rows) {
  if (stride.is_leaf()) {
    int64_t s = stride.value().value();
    return layout::IntTuple(layout::Int(s % rows + (s / rows) * tiled_rows));
  }
  std::vector<layout::IntTuple> xs;
  for (const auto& e : stride.elems()) xs.push_back(widen(e, rows, tiled_rows));
  return layout::IntTuple::tuple(std::move(xs));
}

/// The tiled TV layout: thread = (atom thread, warp_m, warp_n), value = the atom's.
layout::Layout tiled_tv(const layout::Layout& atom_tv, int64_t rows, int64_t tiled_rows, const layout::Layout& warp_m,
                        const layout::Layout& warp_n) {
  layout::Layout thr = layout::get(atom_tv, 0), val = layout::get(atom_tv, 1);
  layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, rows, tiled_rows));
  layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, rows, tiled_rows));
  return layout::make_layout(std::vector<layout::Layout>{layout::make_layout(std::vector<layout::Layout>{thr_w, warp_m, warp_n}), val_w});
}

MmaAtom universal_fma(ScalarType t) {
  MmaAtom a;
  a.name = "MmaUniversalOp";
  a.ab = a.acc = t;
  a.a_tv = a.b_tv = a.c_tv = parse("(1,1):(0,0)");
  return a;
}

}  // namespace

layout::Layout mma_tv_over_tile(const TiledMma& tm, int operand, int64_t rows, int64_t cols) {
  // CuTe's TiledMMA::get_layoutA_TV / get_layoutB_TV / get_layoutC_TV over a
  // (rows, cols) tile of the operand (operand 0: A, 1: B, 2: C): thread (atom thread, warp_m, warp_n), value (atom
  // value, rest_rows, rest_cols), where the atom tiles beyond one per warp
  // repeat every m*AM (n*AN) rows and every k columns.
  const MmaAtom& a = tm.atom;
  auto L = [](int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); };
  if (operand == 2) {
    // C over a (rows, cols) tile: atoms repeat every m*AM rows and n*AN columns.
    layout::Layout thr = layout::get(a.c_tv, 0), val = layout::get(a.c_tv, 1);
    layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, a.m, rows));
    layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, a.m, rows));
    layout::Layout rest_rows = L(rows / (a.m * tm.am), a.m * tm.am), rest_cols = L(cols / (a.n * tm.an), a.n * tm.an * rows);
    return layout::make_layout(std::vector<layout::Layout>{
        layout::make_layout(std::vector<layout::Layout>{thr_w, L(tm.am, a.m), L(tm.an, a.n * rows)}),
        layout::make_layout(std::vector<layout::Layout>{val_w, rest_rows, rest_cols})});
  }
  const bool is_a = operand == 0;
  const int64_t atom_rows = is_a ? a.m : a.n, warps = is_a ? tm.am : tm.an;
  const layout::Layout& atom_tv = is_a ? a.a_tv : a.b_tv;
  layout::Layout thr = layout::get(atom_tv, 0), val = layout::get(atom_tv, 1);
  layout::Layout thr_w = layout::make_layout(thr.shape, widen(thr.stride, atom_rows, rows));
  layout::Layout val_w = layout::make_layout(val.shape, widen(val.stride, atom_rows, rows));
  layout::Layout warp_m = is_a ? L(tm.am, a.m) : L(tm.am, 0), warp_n = is_a ? L(tm.an, 0) : L(tm.an, a.n);
  layout::Layout rest_rows = L(rows / (atom_rows * warps), atom_rows * warps), rest_cols = L(cols / a.k, a.k * rows);
  return layout::make_layout(std::vector<layout::Layout>{layout::make_layout(std::vector<layout::Layout>{thr_w, warp_m, warp_n}),
                                                         layout::make_layout(std::vector<layout::Layout>{val_w, rest_rows, rest_cols})});
}

Value Evaluator::call_mma_builtin(BuiltinId id, std::vector<Value>& args, std::vector<std::pair<std::string, Value>>& kwargs,
                                  const ast::Call& site) {
  auto arg_range = [&](size_t i) { return arg_range_of(site, i); };
  auto kwarg = [&](const std::string& name) { return kwarg_of(kwargs, name); };
  auto type_arg = [&](const Value& v, source::SourceRange at) {
    if (v.kind != Value::Kind::Type) fail(diag::Kind::TypeMismatch, at, "expected an element type such as cutlass.Float32, found " + describe(v));
    return v.type;
  };
  auto mma_value = [](MmaAtom a) {
    Value v;
    v.kind = Value::Kind::MmaAtom;
    v.mma = std::make_shared<MmaAtom>(std::move(a));
    return v;
  };
  // The warp's m16n8kK mma.sync atoms: 32 threads, the C fragment of the PTX ISA's
  // m16n8 figures ("Matrix Fragments for mma.m16n8k*": c0..c3 at rows g, g + 8, columns 2t, 2t + 1).
  auto warp_m16n8_atom = [](const char* name, const char* device_fn, ScalarType ab, ScalarType acc, int64_t k, const char* a_tv,
                            const char* b_tv) {
    MmaAtom a;
    a.name = name;
    a.device_fn = device_fn;
    a.ab = ab;
    a.acc = acc;
    a.m = 16, a.n = 8, a.k = k, a.threads = 32;
    a.a_tv = layout::parse_layout(a_tv);
    a.b_tv = layout::parse_layout(b_tv);
    a.c_tv = layout::parse_layout("((4,8),(2,2)):((32,1),(16,8))");
    return a;
  };
  // An input/accumulator pair the m16n8kK instruction has no form for.
  auto no_form = [&](int k, ScalarType ab, ScalarType acc, const char* supported) {
    auto& d = error(diag::Kind::BadCopyAtom, site.range,
                    "mma.sync m16n8k" + std::to_string(k) + " has no " + ir::type_name(ab) + " x " + ir::type_name(ab) + " -> " + ir::type_name(acc) + " form");
    d.note(std::string("supported here: ") + supported);
    abort_entry();
  };
  auto need_kernel = [&](const char* what) {
    if (!fn_ || !fn_->is_kernel)
      fail(diag::Kind::UnsupportedOperation, site.range, std::string(what) + " is only available inside a @cute.kernel");
  };
  switch (id) {
    case BuiltinId::MmaUniversalOp: {
      ScalarType t = args.empty() ? ScalarType::Float32 : type_arg(args[0], arg_range(0));
      if (!ir::is_float(t) && !ir::is_integer(t))
        fail(diag::Kind::BadCopyAtom, arg_range(0), std::string("MmaUniversalOp accumulates in a number type, found ") + ir::type_name(t));
      return mma_value(universal_fma(t));
    }
    case BuiltinId::MmaF16BF16Op: {
      // CuTe DSL: cute.nvgpu.warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)
      if (args.size() != 3)
        fail(diag::Kind::WrongArity, site.range, "MmaF16BF16Op(ab_dtype, acc_dtype, (16, 8, 16)) takes 3 arguments, " +
                                                     std::to_string(args.size()) + " given");
      ScalarType ab = type_arg(args[0], arg_range(0)), acc = type_arg(args[1], arg_range(1));
      Value shape = args[2];
      bool m16n8k16 = shape.kind == Value::Kind::Tuple && shape.elts->size() == 3 && static_equal(shape, Value::tuple({Value::integer(16), Value::integer(8), Value::integer(16)}));
      if (!m16n8k16)
        fail(diag::Kind::BadCopyAtom, arg_range(2), "MmaF16BF16Op supports the (16, 8, 16) shape, found " + repr(shape));
      if ((ab != ScalarType::BFloat16 && ab != ScalarType::Float16) || acc != ScalarType::Float32)
        no_form(16, ab, acc, "Float16 or BFloat16 inputs accumulating in Float32");
      return mma_value(warp_m16n8_atom("MmaF16BF16Op",
                                       ab == ScalarType::BFloat16 ? "tileslc::dev::mma_m16n8k16_f32_bf16" : "tileslc::dev::mma_m16n8k16_f32_f16",
                                       ab, acc, 16, "((4,8),(2,2,2)):((32,1),(16,8,128))", "((4,8),(2,2)):((16,1),(8,64))"));
    }
    case BuiltinId::MmaTF32Op: {
      // CuTe DSL (4.6): cute.nvgpu.warp.MmaTF32Op(shape_mnk): mma.sync.aligned.m16n8k8.row.col
      // .f32.tf32.tf32.f32. Fragments hold Float32; the device function rounds each A and B value
      // to TF32 (cvt.rna.tf32.f32) as it packs the registers. Fragments per PTX ISA "Matrix
      // Fragments for mma.m16n8k8" (.tf32), CuTe's SM80_16x8x8_F32TF32TF32F32_TN: A (row g [+8],
      // col t [+4]), B (row t [+4], col g), C as m16n8k16's.
      if (args.size() != 1)
        fail(diag::Kind::WrongArity, site.range, "MmaTF32Op((16, 8, 8)) takes 1 argument, " + std::to_string(args.size()) + " given");
      if (!static_equal(args[0], Value::tuple({Value::integer(16), Value::integer(8), Value::integer(8)})))
        fail(diag::Kind::BadCopyAtom, arg_range(0), "MmaTF32Op supports the (16, 8, 8) shape, found " + repr(args[0]));
      return mma_value(warp_m16n8_atom("MmaTF32Op", "tileslc::dev::mma_m16n8k8_f32_tf32", ScalarType::Float32, ScalarType::Float32, 8,
                                       "((4,8),(2,2)):((16,1),(8,64))", "((4,8),2):((8,1),32)"));
    }
    case BuiltinId::MmaI8Op: {
      // tileslc's name (CuTe DSL has no warp-level integer op; tcgen05's is MmaI8Op):
      // cute.nvgpu.warp.MmaI8Op(ab_dtype, acc_dtype, (16, 8, 32)) is mma.sync.aligned.m16n8k32
      // .row.col.s32.{s8,u8}.{s8,u8}.s32. PTX ISA "Matrix Fragments for mma.m16n8k32": A (row
      // g [+8], col 4t + (0..3) [+16]), B (row 4t + (0..3) [+16], col g), C as m16n8k16's;
      // CuTe's SM80_16x8x32_S32S8S8S32_TN layouts.
      if (args.size() != 3)
        fail(diag::Kind::WrongArity, site.range, "MmaI8Op(ab_dtype, acc_dtype, (16, 8, 32)) takes 3 arguments, " +
                                                     std::to_string(args.size()) + " given");
      ScalarType ab = type_arg(args[0], arg_range(0)), acc = type_arg(args[1], arg_range(1));
      if (!static_equal(args[2], Value::tuple({Value::integer(16), Value::integer(8), Value::integer(32)})))
        fail(diag::Kind::BadCopyAtom, arg_range(2), "MmaI8Op supports the (16, 8, 32) shape, found " + repr(args[2]));
      if ((ab != ScalarType::Int8 && ab != ScalarType::Uint8) || acc != ScalarType::Int32)
        no_form(32, ab, acc, "Int8 or Uint8 inputs accumulating in Int32");
      return mma_value(warp_m16n8_atom("MmaI8Op", ab == ScalarType::Int8 ? "tileslc::dev::mma_m16n8k32_s32_s8" : "tileslc::dev::mma_m16n8k32_s32_u8",
                                       ab, acc, 32, "((4,8),(4,2,2)):((64,1),(16,8,256))", "((4,8),(4,2)):((32,1),(8,128))"));
    }
    case BuiltinId::MakeMmaAtom: {
      if (args.size() != 1 || args[0].kind != Value::Kind::MmaAtom)
        fail(diag::Kind::BadCopyAtom, site.range, "cute.make_mma_atom() takes an MMA operation such as cute.nvgpu.warp.MmaF16BF16Op(...)");
      return args[0];
    }
    case BuiltinId::MakeTiledMma: {
      if (args.empty() || args[0].kind != Value::Kind::MmaAtom)
        fail(diag::Kind::BadCopyAtom, site.range, "cute.make_tiled_mma() takes an MMA atom or operation first");
      std::optional<Value> al = args.size() >= 2 ? std::optional<Value>(args[1]) : kwarg("atom_layout_mnk");
      int64_t am = 1, an = 1;
      if (al) {
        Value v = *al;
        if (v.kind == Value::Kind::Layout) v = from_int_tuple(v.layout->shape, site.range);
        std::vector<Value> xs = v.kind == Value::Kind::Tuple ? *v.elts : std::vector<Value>{v};
        if (xs.size() < 2 || xs.size() > 3) fail(diag::Kind::BadLayoutArgument, site.range, "atom_layout_mnk must be (AM, AN) or (AM, AN, 1), found " + repr(v));
        am = require_static_int(xs[0], site.range, "atom_layout_mnk");
        an = require_static_int(xs[1], site.range, "atom_layout_mnk");
        if (xs.size() == 3 && require_static_int(xs[2], site.range, "atom_layout_mnk") != 1)
          fail(diag::Kind::BadLayoutArgument, site.range, "atoms along K (atom_layout_mnk[2] > 1) are not supported");
        if (am < 1 || an < 1) fail(diag::Kind::BadLayoutArgument, site.range, "atom_layout_mnk must be positive");
      }
      auto tm = std::make_shared<TiledMma>();
      tm->atom = *args[0].mma;
      tm->am = am;
      tm->an = an;
      if (auto perm = kwarg("permutation_mnk")) set_permutation(*tm, *perm, site.range);
      const MmaAtom& a = tm->atom;
      try {
        auto L = [](int64_t n, int64_t s) { return layout::make_layout(layout::IntTuple(n), layout::IntTuple(s)); };
        tm->a_tv = tiled_tv(a.a_tv, a.m, a.m * am, L(am, a.m), L(an, 0));
        tm->b_tv = tiled_tv(a.b_tv, a.n, a.n * an, L(am, 0), L(an, a.n));
        tm->c_tv = tiled_tv(a.c_tv, a.m, a.m * am, L(am, a.m), L(an, a.m * am * a.n));
      } catch (const layout::LayoutError& e) {
        fail(diag::Kind::LayoutAlgebraError, site.range, e.what());
      }
      Value v;
      v.kind = Value::Kind::TiledMma;
      v.tiled_mma = tm;
      return v;
    }
    case BuiltinId::Gemm: {
      need_kernel("cute.gemm");
      if (args.size() != 5)
        fail(diag::Kind::WrongArity, site.range, "cute.gemm(tiled_mma, d, a, b, c) takes 5 arguments, " + std::to_string(args.size()) + " given");
      TiledMma tm;
      if (args[0].kind == Value::Kind::TiledMma) tm = *args[0].tiled_mma;
      else if (args[0].kind == Value::Kind::MmaAtom) tm.atom = *args[0].mma;
      else fail(diag::Kind::BadCopyAtom, arg_range(0), "cute.gemm() needs a tiled MMA or MMA atom first, found " + describe(args[0]));
      for (size_t i = 1; i < 5; ++i)
        if (args[i].kind != Value::Kind::Tensor)
          fail(diag::Kind::TypeMismatch, arg_range(i), "cute.gemm() needs register tensors for d, a, b and c, found " + describe(args[i]));
      if (tm.atom.wgmma) wgmma_gemm(tm, args[1], args[2], args[3], args[4], site.range);
      else gemm(tm, args[1], args[2], args[3], args[4], site.range);
      return Value::none();
    }
    case BuiltinId::CopyG2SOp: {
      Value v;
      v.kind = Value::Kind::Marker;
      v.s = "CopyG2SOp";
      return v;
    }
    case BuiltinId::CpAsyncCommitGroup: case BuiltinId::CpAsyncWaitGroup: {
      need_kernel(id == BuiltinId::CpAsyncCommitGroup ? "cute.arch.cp_async_commit_group" : "cute.arch.cp_async_wait_group");
      auto s = ir::make_stmt(ir::StmtKind::Eval, stmt_loc_.valid() ? stmt_loc_ : site.range);
      if (id == BuiltinId::CpAsyncCommitGroup) {
        if (!args.empty()) fail(diag::Kind::WrongArity, site.range, "cute.arch.cp_async_commit_group() takes no arguments");
        s->a = ir::call("tileslc::dev::cp_async_commit_group", {}, ScalarType::Int32);
      } else {
        if (args.size() != 1) fail(diag::Kind::WrongArity, site.range, "cute.arch.cp_async_wait_group(n) takes the number of groups that may stay in flight");
        int64_t n = require_static_int(args[0], arg_range(0), "the number of pending groups");
        if (n < 0 || n > 7) fail(diag::Kind::BadLaunch, arg_range(0), "cp.async.wait_group takes 0 to 7 pending groups, found " + std::to_string(n));
        s->a = ir::call("tileslc::dev::cp_async_wait_group_" + std::to_string(n), {}, ScalarType::Int32);
      }
      emit(std::move(s));
      return Value::none();
    }
    default: break;
  }
  fail(diag::Kind::NotCallable, site.range, "unknown MMA builtin");
}

Value Evaluator::call_mma_method(const Value& callee, std::vector<Value>& args, const ast::Call& site) {
  const TiledMma& tm = *callee.self->tiled_mma;
  const char* names[] = {"partition_A", "partition_B", "partition_C", "make_fragment_A", "make_fragment_B", "make_fragment_C"};
  int which = static_cast<int>(callee.builtin) - static_cast<int>(BuiltinId::MethodPartitionA);
  std::string name = std::string(".") + names[which];
  if (args.size() != 1 || args[0].kind != Value::Kind::Tensor)
    fail(diag::Kind::WrongArity, site.range, name + "() takes one tensor");
  const MmaAtom& a = tm.atom;
  int op = which % 3;  // 0: A, 1: B, 2: C
  if (which >= 3) {
    // A compact register tensor of the partition's shape, in the operand's type.
    ScalarType t = op == 2 ? a.acc : a.ab;
    // wgmma reads B, and A unless it comes from registers (RS), through descriptors of the shared-memory tile itself.
    if (a.wgmma && (op == 1 || (op == 0 && !a.a_rmem))) return args[0];
    Value frag = make_rmem(layout::make_layout(args[0].tensor->layout.shape), t, site.range);
    if (a.wgmma && op == 2) {
      int64_t count = layout::size(frag.tensor->layout).require_value("accumulators");
      fn_->wgmma_accumulators.emplace_back(frag.tensor->ptr, count);
    }
    return frag;
  }
  if (!tm.thread) fail(diag::Kind::UnsupportedOperation, site.range, name + "() needs one thread's slice: tiled_mma.get_slice(tidx)" + name + "(t)");
  layout::IntTuple tile = op == 0   ? layout::IntTuple::tuple({layout::Int(a.m * tm.am), layout::Int(a.k)})
                          : op == 1 ? layout::IntTuple::tuple({layout::Int(a.n * tm.an), layout::Int(a.k)})
                                    : layout::IntTuple::tuple({layout::Int(a.m * tm.am), layout::Int(a.n * tm.an)});
  const layout::Layout& tv = op == 0 ? tm.a_tv : op == 1 ? tm.b_tv : tm.c_tv;
  return thread_partition(args[0], tile, tv, *tm.thread, 0, "a tiled MMA", site.range);
}

void Evaluator::gemm(const TiledMma& tm, const Value& dv, const Value& av, const Value& bv, const Value& cv, source::SourceRange r) {
  const MmaAtom& atom = tm.atom;
  const TensorValue &d = *dv.tensor, &a = *av.tensor, &b = *bv.tensor, &c = *cv.tensor;
  for (const TensorValue* t : {&d, &a, &b, &c}) {
    if (t->space != MemSpace::Rmem) {
      auto& e = error(diag::Kind::BadCopyAtom, r, "cute.gemm() reads and writes register fragments; one operand is a " +
                                                      std::string(t->space == MemSpace::Smem ? "shared-memory" : t->space == MemSpace::Gmem ? "global-memory" : "coordinate") + " tensor");
      e.help("copy it into a fragment first: tCrA = tiled_mma.make_fragment_A(tCsA); cute.copy(atom, tCsA, tCrA)");
      abort_entry();
    }
  }
  auto want_type = [&](const TensorValue& t, ScalarType want, const char* which) {
    if (t.dtype != want) {
      auto& e = error(diag::Kind::TensorDtypeMismatch, r, std::string("cute.gemm()'s ") + which + " is " + ir::type_name(t.dtype) +
                                                              ", the MMA atom takes " + ir::type_name(want));
      e.note("the atom is " + atom.name + " with " + ir::type_name(atom.ab) + " inputs and " + ir::type_name(atom.acc) + " accumulators");
      abort_entry();
    }
  };
  // The TF32 atom reads Float32 storage; fragments declared TFloat32 hold the same 32 bits.
  auto input_type = [&](const TensorValue& t) { return atom.name == "MmaTF32Op" && t.dtype == ScalarType::TFloat32 ? atom.ab : t.dtype; };
  TensorValue a_in = a, b_in = b;
  a_in.dtype = input_type(a);
  b_in.dtype = input_type(b);
  want_type(a_in, atom.ab, "A");
  want_type(b_in, atom.ab, "B");
  want_type(c, atom.acc, "C");
  want_type(d, atom.acc, "D");
  auto modes = [&](const TensorValue& t, const char* which, int64_t values) {
    // (V, X, Y) with V this atom's values per thread, contiguous in the register array;
    // a (V, X) slice (one k-block) counts as (V, X, 1), as in CuTe.
    if (t.layout.rank() != 3 && t.layout.rank() != 2) {
      fail(diag::Kind::TensorShapeMismatch, r,
           std::string("cute.gemm()'s ") + which + " must be (V, M, K)-shaped as partition_* makes it, found " + shape_text(t.layout.shape));
    }
    int64_t v = layout::size(layout::get(t.layout, 0)).require_value("values");
    if (v != values) {
      auto& e = error(diag::Kind::TensorShapeMismatch, r,
                      std::string("cute.gemm()'s ") + which + " holds " + std::to_string(v) + " values per thread per atom, the atom " + std::to_string(values));
      e.note("the fragment's shape is " + shape_text(t.layout.shape));
      abort_entry();
    }
    return std::pair<int64_t, int64_t>{layout::size(layout::get(t.layout, 1)).require_value("mode 1"),
                                       t.layout.rank() == 2 ? 1 : layout::size(layout::get(t.layout, 2)).require_value("mode 2")};
  };
  int64_t va = layout::size(layout::get(atom.a_tv, 1)).require_value("A values");
  int64_t vb = layout::size(layout::get(atom.b_tv, 1)).require_value("B values");
  int64_t vc = layout::size(layout::get(atom.c_tv, 1)).require_value("C values");
  auto [am, ak] = modes(a, "A", va);
  auto [bn, bk] = modes(b, "B", vb);
  auto [cm, cn] = modes(c, "C", vc);
  auto [dm, dn] = modes(d, "D", vc);
  if (am != cm || bn != cn || ak != bk || dm != cm || dn != cn) {
    auto& e = error(diag::Kind::TensorShapeMismatch, r,
                    "cute.gemm() operands do not agree: A " + shape_text(a.layout.shape) + ", B " + shape_text(b.layout.shape) + ", C " +
                        shape_text(c.layout.shape) + ", D " + shape_text(d.layout.shape));
    e.note("A is (V, M, K), B (V, N, K), C and D (V, M, N) with equal M, N and K");
    abort_entry();
  }
  auto off = [&](const TensorValue& t, int64_t x, int64_t y) {
    Value o = t.layout.rank() == 2 ? layout_offset(t.layout, Value::tuple({Value::integer(0), Value::integer(x)}), r)
                                   : layout_offset(t.layout, Value::tuple({Value::integer(0), Value::integer(x), Value::integer(y)}), r);
    // A slice of a fragment (tCrA[None, None, k]) keeps its origin in t.offset, static for registers.
    std::optional<int64_t> base = t.offset ? ir::as_int_const(t.offset) : std::optional<int64_t>(0);
    if (!base) fail(diag::Kind::FragmentNotStatic, r, "cute.gemm() needs register fragments at static offsets");
    return ir::int_const(*base + o.i, ScalarType::Int64);
  };
  const source::SourceRange loc = stmt_loc_.valid() ? stmt_loc_ : r;
  for (int64_t k = 0; k < ak; ++k) {
    for (int64_t m = 0; m < am; ++m) {
      for (int64_t nn = 0; nn < bn; ++nn) {
        int64_t n = (m % 2) ? bn - 1 - nn : nn;  // serpentine, as CuTe: B fragments stay in registers longer
        if (atom.device_fn.empty()) {
          // Universal FMA: d = a * b + c on one value.
          auto prod = ir::binary(ir::Op::Mul, ir::load(a.ptr, off(a, m, k), a.dtype), ir::load(b.ptr, off(b, n, k), b.dtype), atom.acc);
          auto s = ir::make_stmt(ir::StmtKind::Store, loc);
          s->name = d.ptr;
          s->a = off(d, m, n);
          s->b = ir::binary(ir::Op::Add, prod, ir::load(c.ptr, off(c, m, n), c.dtype), atom.acc);
          emit(std::move(s));
          continue;
        }
        auto s = ir::make_stmt(ir::StmtKind::Eval, loc);
        s->a = ir::call(atom.device_fn,
                        {ir::address_of(d.ptr, off(d, m, n), d.dtype), ir::address_of(a.ptr, off(a, m, k), a.dtype),
                         ir::address_of(b.ptr, off(b, n, k), b.dtype), ir::address_of(c.ptr, off(c, m, n), c.dtype)},
                        ScalarType::Int32);
        emit(std::move(s));
      }
    }
  }
}

}  // namespace tileslc::sema
