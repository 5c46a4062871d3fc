// `tileslc layout OP ARG...` on text: each operation's arguments parsed from
// CuTe notation with the conformance file's conventions, the result printed in
// CuTe notation. Shared by the CLI and the conformance test so that both
// exercise exactly the same path.
#include <functional>
#include <map>

#include "layout/layout.h"

namespace tileslc::layout {

namespace {

struct Ctx {
  const std::vector<std::string>& args;
  const TextOpOptions& opts;

  template <class F>
  auto at(size_t i, F parse) const {
    try {
      return parse(std::string_view(args[i]), opts.parse);
    } catch (const ArgNotationError&) {
      throw;
    } catch (const NotationError& e) {
      throw ArgNotationError(e, i, args[i]);
    }
  }
  Layout layout(size_t i) const { return at(i, [](std::string_view t, const ParseOptions& o) { return parse_layout(t, o); }); }
  IntTuple tuple(size_t i) const {
    return at(i, [](std::string_view t, const ParseOptions& o) { return parse_int_tuple(t, o); });
  }
  Tiler tiler(size_t i) const { return at(i, [](std::string_view t, const ParseOptions& o) { return parse_tiler(t, o); }); }
  Int integer(size_t i) const {
    IntTuple t = tuple(i);
    if (!t.is_leaf()) throw ArgNotationError(NotationError("expected an integer", 1), i, args[i]);
    return t.value();
  }
  size_t index(size_t i) const {
    Int v = integer(i);
    if (!v.has_value() || v.value() < 0) throw ArgNotationError(NotationError("expected a non-negative integer", 1), i, args[i]);
    return static_cast<size_t>(v.value());
  }
  std::string print(const Layout& l) const { return l.to_string(opts.mark_static); }
  std::string print(const IntTuple& t) const { return t.to_string(opts.mark_static); }
  std::string print(const Int& v) const { return v.to_string(opts.mark_static); }
};

struct OpSpec {
  std::string synopsis;
  size_t min_args, max_args;
  std::function<std::string(const Ctx&)> run;
};

const std::map<std::string, OpSpec, std::less<>>& ops() {
  static const std::map<std::string, OpSpec, std::less<>> table = [] {
    std::map<std::string, OpSpec, std::less<>> m;
    auto divide = [&m](const char* name, Layout (*f)(const Layout&, const Tiler&), const char* syn) {
      m[name] = {syn, 2, 2, [f](const Ctx& c) { return c.print(f(c.layout(0), c.tiler(1))); }};
    };
    m["size"] = {"SHAPE|LAYOUT", 1, 1, [](const Ctx& c) {
                   if (looks_like_layout(c.args[0])) return c.print(size(c.layout(0)));
                   return c.print(size(c.tuple(0)));
                 }};
    m["cosize"] = {"LAYOUT", 1, 1, [](const Ctx& c) { return c.print(cosize(c.layout(0))); }};
    m["rank"] = {"SHAPE|LAYOUT", 1, 1, [](const Ctx& c) {
                   size_t r = looks_like_layout(c.args[0]) ? rank(c.layout(0)) : rank(c.tuple(0));
                   return std::to_string(r);
                 }};
    m["depth"] = {"SHAPE|LAYOUT", 1, 1, [](const Ctx& c) {
                    size_t d = looks_like_layout(c.args[0]) ? depth(c.layout(0)) : depth(c.tuple(0));
                    return std::to_string(d);
                  }};
    m["shape"] = {"LAYOUT", 1, 1, [](const Ctx& c) { return c.print(shape(c.layout(0))); }};
    m["stride"] = {"LAYOUT", 1, 1, [](const Ctx& c) { return c.print(stride(c.layout(0))); }};
    m["get"] = {"LAYOUT I", 2, 2, [](const Ctx& c) { return c.print(get(c.layout(0), c.index(1))); }};
    m["select"] = {"LAYOUT I...", 2, 64, [](const Ctx& c) {
                     std::vector<size_t> modes;
                     for (size_t i = 1; i < c.args.size(); ++i) modes.push_back(c.index(i));
                     return c.print(select(c.layout(0), modes));
                   }};
    m["group_modes"] = {"LAYOUT BEGIN END", 3, 3,
                        [](const Ctx& c) { return c.print(group_modes(c.layout(0), c.index(1), c.index(2))); }};
    m["flatten"] = {"LAYOUT|SHAPE", 1, 1, [](const Ctx& c) {
                      if (looks_like_layout(c.args[0])) return c.print(flatten(c.layout(0)));
                      return c.print(flatten(c.tuple(0)));
                    }};
    m["coalesce"] = {"LAYOUT [PROFILE]", 1, 2, [](const Ctx& c) {
                       if (c.args.size() == 2) return c.print(coalesce(c.layout(0), c.tuple(1)));
                       return c.print(coalesce(c.layout(0)));
                     }};
    m["filter"] = {"LAYOUT", 1, 1, [](const Ctx& c) { return c.print(filter(c.layout(0))); }};
    m["composition"] = {"LAYOUT TILER", 2, 2,
                        [](const Ctx& c) { return c.print(composition(c.layout(0), c.tiler(1))); }};
    m["complement"] = {"LAYOUT [COTARGET]", 1, 2, [](const Ctx& c) {
                         if (c.args.size() == 2) return c.print(complement(c.layout(0), product(c.tuple(1))));
                         return c.print(complement(c.layout(0)));
                       }};
    m["right_inverse"] = {"LAYOUT", 1, 1, [](const Ctx& c) { return c.print(right_inverse(c.layout(0))); }};
    m["left_inverse"] = {"LAYOUT", 1, 1, [](const Ctx& c) { return c.print(left_inverse(c.layout(0))); }};
    divide("logical_divide", logical_divide, "LAYOUT TILER");
    divide("zipped_divide", zipped_divide, "LAYOUT TILER");
    divide("tiled_divide", tiled_divide, "LAYOUT TILER");
    divide("flat_divide", flat_divide, "LAYOUT TILER");
    divide("logical_product", logical_product, "LAYOUT TILER");
    divide("zipped_product", zipped_product, "LAYOUT TILER");
    divide("tiled_product", tiled_product, "LAYOUT TILER");
    divide("flat_product", flat_product, "LAYOUT TILER");
    m["blocked_product"] = {"LAYOUT LAYOUT", 2, 2,
                            [](const Ctx& c) { return c.print(blocked_product(c.layout(0), c.layout(1))); }};
    m["raked_product"] = {"LAYOUT LAYOUT", 2, 2,
                          [](const Ctx& c) { return c.print(raked_product(c.layout(0), c.layout(1))); }};
    m["tile_to_shape"] = {"LAYOUT SHAPE [ORDER]", 2, 3, [](const Ctx& c) {
                            std::optional<IntTuple> order;
                            if (c.args.size() == 3) order = c.tuple(2);
                            return c.print(tile_to_shape(c.layout(0), c.tuple(1), order));
                          }};
    m["eval"] = {"LAYOUT COORD", 2, 2, [](const Ctx& c) { return c.print(c.layout(0)(c.tuple(1))); }};
    m["crd2idx"] = {"COORD SHAPE STRIDE | COORD LAYOUT | COORD SHAPE", 2, 3, [](const Ctx& c) {
                      // A shape alone has CuTe's compact column-major strides (CuTe DSL crd2idx(coord, shape)).
                      if (c.args.size() == 2 && !looks_like_layout(c.args[1])) return c.print(make_layout(c.tuple(1))(c.tuple(0)));
                      if (c.args.size() == 2) return c.print(c.layout(1)(c.tuple(0)));
                      IntTuple s = c.tuple(1), d = c.tuple(2);
                      if (!congruent(s, d))
                        throw LayoutError("crd2idx: stride " + d.to_string() + " is not congruent with shape " +
                                          s.to_string());
                      return c.print(crd2idx(c.tuple(0), s, d));
                    }};
    m["idx2crd"] = {"INDEX|COORD SHAPE", 2, 2, [](const Ctx& c) { return c.print(idx2crd(c.tuple(0), c.tuple(1))); }};
    m["slice"] = {"LAYOUT COORD", 2, 2, [](const Ctx& c) { return c.print(slice(c.tuple(1), c.layout(0))); }};
    m["shape_div"] = {"SHAPE SHAPE", 2, 2, [](const Ctx& c) { return c.print(shape_div(c.tuple(0), c.tuple(1))); }};
    m["shape_mod"] = {"SHAPE SHAPE", 2, 2, [](const Ctx& c) { return c.print(shape_mod(c.tuple(0), c.tuple(1))); }};
    m["make_layout"] = {"SHAPE [STRIDE]", 1, 2, [](const Ctx& c) {
                          if (c.args.size() == 2) return c.print(make_layout(c.tuple(0), c.tuple(1)));
                          return c.print(make_layout(c.tuple(0)));
                        }};
    m["make_ordered_layout"] = {"SHAPE ORDER", 2, 2,
                                [](const Ctx& c) { return c.print(make_ordered_layout(c.tuple(0), c.tuple(1))); }};
    m["make_layout_tv"] = {"THR_LAYOUT VAL_LAYOUT", 2, 2, [](const Ctx& c) {
                             auto [tiler, tv] = make_layout_tv(c.layout(0), c.layout(1));
                             return c.print(tiler) + " " + c.print(tv);
                           }};
    m["max_common_vector"] = {"LAYOUT LAYOUT", 2, 2,
                              [](const Ctx& c) { return c.print(max_common_vector(c.layout(0), c.layout(1))); }};
    m["max_common_layout"] = {"LAYOUT LAYOUT", 2, 2,
                              [](const Ctx& c) { return c.print(max_common_layout(c.layout(0), c.layout(1))); }};
    m["recast_layout"] = {"OLD_BITS NEW_BITS LAYOUT", 3, 3, [](const Ctx& c) {
                            return c.print(recast_layout(static_cast<int>(c.index(0)), static_cast<int>(c.index(1)),
                                                         c.layout(2)));
                          }};
    return m;
  }();
  return table;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& text_ops() {
  static const std::vector<std::pair<std::string, std::string>> list = [] {
    std::vector<std::pair<std::string, std::string>> v;
    for (const auto& [name, spec] : ops()) v.emplace_back(name, spec.synopsis);
    return v;
  }();
  return list;
}

std::string evaluate_op(std::string_view op, const std::vector<std::string>& args, const TextOpOptions& opts) {
  auto it = ops().find(op);
  if (it == ops().end()) throw UsageError("unknown layout operation '" + std::string(op) + "'");
  const OpSpec& spec = it->second;
  if (args.size() < spec.min_args || args.size() > spec.max_args)
    throw UsageError(std::string(op) + " expects " + spec.synopsis + ", found " + std::to_string(args.size()) +
                     " argument" + (args.size() == 1 ? "" : "s"));
  return spec.run(Ctx{args, opts});
}

}  // namespace tileslc::layout
