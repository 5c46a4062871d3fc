// The `tileslc layout` subcommand: argument handling, output and exit codes
// around compiler/layout's text operations and renderers.
#include "driver/layout_cli.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "layout/layout.h"

namespace tileslc::driver {

namespace {

namespace L = tileslc::layout;

constexpr const char* kDescription =
    "tileslc layout: CuTe's layout algebra on the command line.\n"
    "Evaluates an operation on arguments in CuTe notation and prints the result in CuTe notation:\n"
    "layouts `((2,2),3):((24,2),8)`, shapes and coordinates `(3,(2,3))`, by-mode tilers\n"
    "`<3:4,8:2>`, `_` for a kept mode in slice coordinates, swizzled layouts\n"
    "`Sw<3,4,3> o 0 o (8,8):(8,1)` for show. Integers are static; with --marked, CuTe's printed\n"
    "convention applies instead: `_N` is static, `N` is a run-time value, and results print static\n"
    "integers as `_N`.\n";

constexpr const char* kFooter =
    "Run 'tileslc layout OP --help' for one operation.\n"
    "Exit codes: 0 ok, 1 the algebra's precondition failed, 2 usage error or malformed notation.";

int usage_error(const std::string& message) {
  std::cerr << "tileslc layout: error: " << message << "\n"
            << "run 'tileslc layout --help' for the operations and their arguments\n";
  return 2;
}

int notation_error(const L::NotationError& e, const std::string& text, size_t arg_index) {
  std::cerr << "tileslc layout: error: " << e.bare_message() << " at column " << e.column() << " of argument "
            << arg_index + 1 << "\n  " << text << "\n  " << std::string(e.column() > 0 ? e.column() - 1 : 0, ' ')
            << "^\n";
  return 2;
}

int algebra_error(const L::LayoutError& e) {
  std::cerr << "tileslc layout: error: " << e.what() << "\n";
  return 1;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

/// show / show-tv: positional arguments; `svg` non-empty writes the picture there.
int run_show(const std::string& op, const std::vector<std::string>& pos, const std::string& svg,
             const L::ParseOptions& popts) {
  size_t want = op == "show" ? 1 : 2;
  if (pos.size() != want)
    return usage_error(op + (op == "show" ? " expects LAYOUT [--svg FILE]" : " expects TV_LAYOUT TILE [--svg FILE]"));
  size_t arg = 0;
  try {
    std::string text, picture;
    if (op == "show") {
      if (pos[0].rfind("Sw", 0) == 0) {
        L::ComposedLayout c = L::parse_composed_layout(pos[0], popts);
        text = L::print_layout(c);
        if (!svg.empty()) picture = L::layout_svg(c);
      } else {
        L::Layout l = L::parse_layout(pos[0], popts);
        text = L::print_layout(l);
        if (!svg.empty()) picture = L::layout_svg(l);
      }
    } else {
      L::Layout tv = L::parse_layout(pos[0], popts);
      arg = 1;
      L::IntTuple tile = L::parse_int_tuple(pos[1], popts);
      text = L::print_tv(tv, tile);
      if (!svg.empty()) picture = L::tv_svg(tv, tile);
    }
    if (!svg.empty()) {
      if (!write_file(svg, picture)) {
        std::cerr << "tileslc layout: error: cannot write " << svg << "\n";
        return 2;
      }
      std::cout << "wrote " << svg << "\n";
    } else {
      std::cout << text;
    }
    return 0;
  } catch (const L::NotationError& e) {
    return notation_error(e, pos[arg], arg);
  } catch (const L::LayoutError& e) {
    return algebra_error(e);
  }
}

}  // namespace

int run_layout_cli(int argc, char** argv) {
  CLI::App app{kDescription, "tileslc layout"};
  app.footer(kFooter);
  app.require_subcommand(1, 1);
  L::TextOpOptions opts;
  bool marked = false;
  app.add_flag("--marked", marked, "CuTe's printed convention: `_N` static, `N` a run-time value");
  std::vector<std::string> args;
  std::string svg;
  for (const auto& [name, synopsis] : L::text_ops()) {
    CLI::App* op = app.add_subcommand(name, synopsis);
    // The operation checks its own arity (its UsageError names what it expects).
    op->add_option("args", args, "arguments in CuTe notation");
  }
  CLI::App* show = app.add_subcommand("show", "LAYOUT: the layout as a table of its offsets");
  CLI::App* show_tv = app.add_subcommand("show-tv", "TV_LAYOUT TILE: which thread and value own each element of TILE");
  for (CLI::App* sub : {show, show_tv}) {
    sub->add_option("args", args, "arguments in CuTe notation");
    sub->add_option("--svg", svg, "write an SVG picture to FILE instead of printing text");
  }
  // The first word that is not an option names the operation: an unknown one gets the algebra's
  // own message rather than CLI11's generic one about an unexpected argument.
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.rfind("-", 0) == 0) continue;
    const auto subs = app.get_subcommands([&](const CLI::App* sub) { return sub->get_name() == word; });
    if (subs.empty()) return usage_error("unknown layout operation '" + word + "'");
    break;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError&) {  // no operation
    std::cerr << app.help();
    return 2;
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }
  if (marked) {
    opts.parse.plain_ints_static = false;
    opts.mark_static = true;
  }
  const std::string op = app.get_subcommands().front()->get_name();
  if (op == "show" || op == "show-tv") return run_show(op, args, svg, opts.parse);
  try {
    std::cout << L::evaluate_op(op, args, opts) << "\n";
    return 0;
  } catch (const L::UsageError& e) {
    return usage_error(e.what());
  } catch (const L::ArgNotationError& e) {
    const int rc = notation_error(e, e.arg, e.arg_index);
    // The algebra here is over plain layouts; a swizzle is read only by `show` (its picture).
    if (e.arg.find("Sw<") != std::string::npos)
      std::cerr << "  note: swizzled layouts (`Sw<B,M,S> o ...`) are taken only by 'tileslc layout show'; '" << op
                << "' takes plain layouts\n";
    return rc;
  } catch (const L::NotationError& e) {
    return usage_error(e.what());
  } catch (const L::LayoutError& e) {
    return algebra_error(e);
  } catch (const std::exception& e) {
    std::cerr << "tileslc layout: internal error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace tileslc::driver
