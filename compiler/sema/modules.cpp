// Module loading: resolves dotted names to .tpy files (the importing file's
// directory, -I directories, then the stdlib), parses them, and runs their
// bodies at compile time. `tileslc._builtins` is native: its names are the
// builtin functions and types the stdlib .tpy files re-export.
#include <filesystem>

#include "parse/parse.h"
#include "sema/evaluator.h"

namespace tileslc::sema {

namespace fs = std::filesystem;

std::shared_ptr<ModuleValue> Evaluator::builtins_module() {
  if (builtins_) return builtins_;
  auto m = std::make_shared<ModuleValue>();
  m->name = "tileslc._builtins";
  auto add = [&](const char* name, Value v) { m->globals[name] = Binding{std::move(v), "", {}}; };
  for (size_t i = 0; i < static_cast<size_t>(ir::ScalarType::Count_); ++i) {
    auto t = static_cast<ir::ScalarType>(i);
    add(ir::type_name(t), Value::scalar_type(t));
  }
  struct Row { const char* name; BuiltinId id; };
  static const Row rows[] = {
      {"range", BuiltinId::Range}, {"len", BuiltinId::Len}, {"min", BuiltinId::Min},
      {"max", BuiltinId::Max}, {"abs", BuiltinId::Abs}, {"print", BuiltinId::Print},
      {"int", BuiltinId::Int}, {"float", BuiltinId::Float}, {"bool", BuiltinId::Bool},
      {"isinstance", BuiltinId::Isinstance},
      {"range_constexpr", BuiltinId::RangeConstexpr}, {"const_expr", BuiltinId::ConstExpr},
      {"Constexpr", BuiltinId::ConstexprMarker},
      {"Tensor", BuiltinId::TensorType}, {"kernel", BuiltinId::KernelDecorator},
      {"jit", BuiltinId::JitDecorator}, {"size", BuiltinId::Size}, {"sym_int", BuiltinId::SymInt},
      {"printf", BuiltinId::Printf},
      {"thread_idx", BuiltinId::ThreadIdx}, {"block_idx", BuiltinId::BlockIdx},
      {"block_dim", BuiltinId::BlockDim}, {"grid_dim", BuiltinId::GridDim},
      {"sync_threads", BuiltinId::SyncThreads}, {"barrier", BuiltinId::NamedBarrier},
      {"atomic_add", BuiltinId::AtomicAdd}, {"atomic_min", BuiltinId::AtomicMin}, {"atomic_max", BuiltinId::AtomicMax},
      {"atomic_and", BuiltinId::AtomicAnd}, {"atomic_or", BuiltinId::AtomicOr}, {"atomic_xor", BuiltinId::AtomicXor},
      {"atomic_exch", BuiltinId::AtomicExch}, {"atomic_cas", BuiltinId::AtomicCas},
      {"shuffle_sync", BuiltinId::ShuffleSync}, {"shuffle_sync_up", BuiltinId::ShuffleSyncUp},
      {"shuffle_sync_down", BuiltinId::ShuffleSyncDown}, {"shuffle_sync_bfly", BuiltinId::ShuffleSyncBfly},
      {"vote_ballot_sync", BuiltinId::VoteBallotSync}, {"vote_any_sync", BuiltinId::VoteAnySync},
      {"vote_all_sync", BuiltinId::VoteAllSync}, {"warp_redux_sync", BuiltinId::WarpReduxSync},
      {"fence_acq_rel_cta", BuiltinId::FenceBlock}, {"fence_acq_rel_gpu", BuiltinId::FenceGpu},
      {"fence_acq_rel_sys", BuiltinId::FenceSys},
      {"lane_idx", BuiltinId::LaneIdx}, {"warp_idx", BuiltinId::WarpIdx},
      {"exp", BuiltinId::MathExp}, {"exp2", BuiltinId::MathExp2}, {"log", BuiltinId::MathLog},
      {"log2", BuiltinId::MathLog2}, {"sqrt", BuiltinId::MathSqrt}, {"rsqrt", BuiltinId::MathRsqrt},
      {"sin", BuiltinId::MathSin}, {"cos", BuiltinId::MathCos}, {"tanh", BuiltinId::MathTanh},
      {"erf", BuiltinId::MathErf}, {"floor", BuiltinId::MathFloor}, {"ceil", BuiltinId::MathCeil},
      {"fabs", BuiltinId::MathFabs}, {"fma", BuiltinId::MathFma},
      {"make_layout", BuiltinId::MakeLayout}, {"make_ordered_layout", BuiltinId::MakeOrderedLayout},
      {"cosize", BuiltinId::Cosize}, {"rank", BuiltinId::Rank}, {"depth", BuiltinId::Depth},
      {"coalesce", BuiltinId::Coalesce}, {"filter", BuiltinId::Filter}, {"composition", BuiltinId::Composition},
      {"complement", BuiltinId::Complement}, {"right_inverse", BuiltinId::RightInverse},
      {"left_inverse", BuiltinId::LeftInverse}, {"logical_divide", BuiltinId::LogicalDivide},
      {"zipped_divide", BuiltinId::ZippedDivide}, {"tiled_divide", BuiltinId::TiledDivide},
      {"flat_divide", BuiltinId::FlatDivide}, {"logical_product", BuiltinId::LogicalProduct},
      {"zipped_product", BuiltinId::ZippedProduct}, {"tiled_product", BuiltinId::TiledProduct},
      {"flat_product", BuiltinId::FlatProduct}, {"blocked_product", BuiltinId::BlockedProduct},
      {"raked_product", BuiltinId::RakedProduct}, {"tile_to_shape", BuiltinId::TileToShape},
      {"make_layout_tv", BuiltinId::MakeLayoutTv}, {"max_common_vector", BuiltinId::MaxCommonVector},
      {"recast_layout", BuiltinId::RecastLayout}, {"crd2idx", BuiltinId::Crd2Idx}, {"idx2crd", BuiltinId::Idx2Crd},
      {"flatten", BuiltinId::FlattenLayout}, {"select", BuiltinId::SelectModes}, {"group_modes", BuiltinId::GroupModes},
      {"get", BuiltinId::GetMode},
      {"make_identity_tensor", BuiltinId::MakeIdentityTensor},
      {"make_identity_layout", BuiltinId::MakeIdentityLayout}, {"make_swizzle", BuiltinId::MakeSwizzle},
      {"make_composed_layout", BuiltinId::MakeComposedLayout}, {"elem_less", BuiltinId::ElemLess},
      {"make_fragment", BuiltinId::MakeFragment}, {"make_fragment_like", BuiltinId::MakeFragmentLike},
      {"make_rmem_tensor", BuiltinId::MakeRmemTensor}, {"make_copy_atom", BuiltinId::MakeCopyAtom},
      {"CopyUniversalOp", BuiltinId::CopyUniversalOp}, {"make_tiled_copy_tv", BuiltinId::MakeTiledCopyTv},
      {"copy", BuiltinId::Copy}, {"local_tile", BuiltinId::LocalTile}, {"local_partition", BuiltinId::LocalPartition},
      {"SmemAllocator", BuiltinId::SmemAllocatorNew},
      {"cp_async_commit_group", BuiltinId::CpAsyncCommitGroup}, {"cp_async_wait_group", BuiltinId::CpAsyncWaitGroup},
      {"MmaUniversalOp", BuiltinId::MmaUniversalOp}, {"MmaF16BF16Op", BuiltinId::MmaF16BF16Op},
      {"MmaTF32Op", BuiltinId::MmaTF32Op}, {"MmaI8Op", BuiltinId::MmaI8Op},
      {"make_mma_atom", BuiltinId::MakeMmaAtom}, {"make_tiled_mma", BuiltinId::MakeTiledMma}, {"gemm", BuiltinId::Gemm},
      {"CopyG2SOp", BuiltinId::CopyG2SOp},
      {"mbarrier_init", BuiltinId::MbarrierInit}, {"mbarrier_init_fence", BuiltinId::MbarrierInitFence},
      {"mbarrier_arrive", BuiltinId::MbarrierArrive}, {"mbarrier_arrive_and_expect_tx", BuiltinId::MbarrierArriveExpectTx},
      {"mbarrier_wait", BuiltinId::MbarrierWait}, {"fence_proxy_async", BuiltinId::FenceProxyAsync},
      {"warpgroup_reg_alloc", BuiltinId::WarpgroupRegAlloc}, {"warpgroup_reg_dealloc", BuiltinId::WarpgroupRegDealloc},
      {"elect_one", BuiltinId::ElectOne}, {"make_warp_uniform", BuiltinId::MakeWarpUniform},
      {"CopyBulkTensorTileG2SOp", BuiltinId::CopyBulkTensorTileG2SOp}, {"make_tiled_tma_atom", BuiltinId::MakeTiledTmaAtom},
      {"WarpgroupMmaF16BF16Op", BuiltinId::WarpgroupMmaF16BF16Op}, {"WarpgroupMmaF8Op", BuiltinId::WarpgroupMmaF8Op},
      {"warpgroup_fence", BuiltinId::WarpgroupFence},
      {"warpgroup_commit_group", BuiltinId::WarpgroupCommitGroup}, {"warpgroup_wait_group", BuiltinId::WarpgroupWaitGroup},
      {"get_device_multiprocessor_count", BuiltinId::MultiprocessorCount},
      {"get_max_active_clusters", BuiltinId::MaxActiveClusters},
      {"CopyBulkTensorTileS2GOp", BuiltinId::CopyBulkTensorTileS2GOp},
      {"CopyReduceBulkTensorTileS2GOp", BuiltinId::CopyReduceBulkTensorTileS2GOp},
      {"cp_async_bulk_commit_group", BuiltinId::BulkCommitGroup}, {"cp_async_bulk_wait_group", BuiltinId::BulkWaitGroup},
      {"LdMatrix8x8x16bOp", BuiltinId::LdMatrix8x8x16bOp}, {"make_tiled_copy_A", BuiltinId::MakeTiledCopyA},
      {"make_tiled_copy_B", BuiltinId::MakeTiledCopyB}, {"StMatrix8x8x16bOp", BuiltinId::StMatrix8x8x16bOp},
      {"make_tiled_copy_C", BuiltinId::MakeTiledCopyC},
      {"cluster_idx", BuiltinId::ClusterIdx}, {"cluster_dim", BuiltinId::ClusterDim},
      {"block_in_cluster_idx", BuiltinId::BlockInClusterIdx}, {"block_in_cluster_dim", BuiltinId::BlockInClusterDim},
      {"block_idx_in_cluster", BuiltinId::BlockIdxInCluster}, {"cluster_arrive", BuiltinId::ClusterArrive},
      {"cluster_arrive_relaxed", BuiltinId::ClusterArriveRelaxed}, {"cluster_wait", BuiltinId::ClusterWait},
      {"CopyBulkTensorTileG2SMulticastOp", BuiltinId::CopyBulkTensorTileG2SMulticastOp},
  };
  for (const auto& r : rows) add(r.name, Value::make_builtin(r.id));
  builtins_ = m;
  return m;
}

std::shared_ptr<ModuleValue> Evaluator::import_module(const std::string& dotted, source::SourceRange at, bool quiet) {
  if (dotted == "tileslc._builtins") return builtins_module();
  if (auto it = modules_.find(dotted); it != modules_.end()) return it->second;  // loading: partial, as Python

  // Parents first, as Python does: `import a.b` runs a/__init__ then a/b.
  std::shared_ptr<ModuleValue> parent;
  auto dot = dotted.rfind('.');
  if (dot != std::string::npos) {
    parent = import_module(dotted.substr(0, dot), at, quiet);
    if (!parent) return nullptr;  // already reported for the parent
  }

  fs::path rel;
  {
    std::string p = dotted;
    for (auto& ch : p)
      if (ch == '.') ch = '/';
    rel = p;
  }
  std::vector<fs::path> roots;
  if (at.valid()) roots.push_back(fs::path(sm_.file(at.file).path()).parent_path());
  for (const auto& d : opts_.include_dirs) roots.push_back(d);
  if (!opts_.stdlib_dir.empty()) roots.push_back(opts_.stdlib_dir);
  fs::path found;
  for (const auto& root : roots) {
    for (const auto& cand : {root / rel.string().append(".tpy"), root / rel / "__init__.tpy"}) {
      std::error_code ec;
      if (fs::is_regular_file(cand, ec)) {
        found = cand;
        break;
      }
    }
    if (!found.empty()) break;
  }
  if (found.empty()) {
    if (quiet) return nullptr;
    auto& d = error(diag::Kind::ModuleNotFound, at, "no module named '" + dotted + "'");
    std::string where;
    for (const auto& r : roots) where += (where.empty() ? "" : ", ") + (r.empty() ? std::string(".") : r.string());
    d.note("searched " + where);
    if (dotted.rfind("cutlass", 0) == 0)
      d.help("tileslc provides CuTe DSL's API as `import tileslc as cutlass` and `import tileslc.cute as cute`");
    return nullptr;
  }
  std::string err;
  auto fid = sm_.load_file(found.lexically_normal().string(), &err);
  if (!fid) {
    error(diag::Kind::CannotReadFile, at, err);
    return nullptr;
  }
  if (deps_) deps_->push_back(found.lexically_normal().string());
  auto m = std::make_shared<ModuleValue>();
  m->name = dotted;
  m->file = *fid;
  modules_[dotted] = m;
  size_t errors_before = diags_.error_count();
  m->ast = std::make_unique<ast::Module>(parse::parse_file(sm_, *fid, diags_));
  if (diags_.error_count() == errors_before) exec_module_body(m);
  if (parent) parent->globals[dotted.substr(dot + 1)] = Binding{[&] {
    Value v; v.kind = Value::Kind::Module; v.module = m; return v; }(), "", at};
  return m;
}

void Evaluator::exec_module_body(const std::shared_ptr<ModuleValue>& m) {
  Frame f;
  f.module = m;
  f.is_module = true;
  m->loading = true;
  frames_.push_back(&f);
  FnCtx* saved_fn = fn_;
  fn_ = nullptr;  // no run-time code at module level
  try {
    exec_body(m->ast->body);
  } catch (const AbortEntry&) {
  }
  flush_context();
  fn_ = saved_fn;
  frames_.pop_back();
  m->loading = false;
}

}  // namespace tileslc::sema
