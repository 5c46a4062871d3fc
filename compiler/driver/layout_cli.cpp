// The `tileslc layout` subcommand: argument handling, output and exit codes
// around compiler/layout's text operations and renderers.
#include "driver/layout_cli.h"

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "layout/layout.h"

namespace tileslc::driver {

namespace {

namespace L = tileslc::layout;

void print_usage(std::ostream& o) {
  o << "usage: tileslc layout [--marked] OP ARG...\n"
       "       tileslc layout show LAYOUT [--svg FILE]\n"
       "       tileslc layout show-tv TV_LAYOUT TILE [--svg FILE]\n"
       "\n"
       "Evaluates CuTe's layout algebra on arguments in CuTe notation and prints the result in\n"
       "CuTe notation: layouts `((2,2),3):((24,2),8)`, shapes and coordinates `(3,(2,3))`,\n"
       "by-mode tilers `<3:4,8:2>`, `_` for a kept mode in slice coordinates, swizzled layouts\n"
       "`Sw<3,4,3> o 0 o (8,8):(8,1)` for show.\n"
       "Integers are static; with --marked, CuTe's printed convention applies instead: `_N` is\n"
       "static, `N` is a run-time value, and results print static integers as `_N`.\n"
       "\n"
       "operations:\n";
  for (const auto& [name, synopsis] : L::text_ops()) o << "  " << name << " " << synopsis << "\n";
  o << "\nexit codes: 0 ok, 1 the algebra's precondition failed, 2 usage error or malformed notation\n";
}

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

/// show / show-tv: positional arguments plus an optional `--svg FILE`.
int run_show(const std::string& op, const std::vector<std::string>& args, const L::ParseOptions& popts) {
  std::vector<std::string> pos;
  std::string svg;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--svg") {
      if (i + 1 >= args.size()) return usage_error("--svg needs a file name");
      svg = args[++i];
    } else {
      pos.push_back(args[i]);
    }
  }
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
  std::vector<std::string> args(argv + 1, argv + argc);
  L::TextOpOptions opts;
  while (!args.empty() && args.front().rfind("--", 0) == 0) {
    if (args.front() == "--help") {
      print_usage(std::cout);
      return 0;
    }
    if (args.front() == "--marked") {
      opts.parse.plain_ints_static = false;
      opts.mark_static = true;
      args.erase(args.begin());
      continue;
    }
    return usage_error("unknown option '" + args.front() + "'");
  }
  if (args.empty()) {
    print_usage(std::cerr);
    return 2;
  }
  std::string op = args.front();
  args.erase(args.begin());
  if (op == "help" || op == "-h") {
    print_usage(std::cout);
    return 0;
  }
  if (op == "show" || op == "show-tv") return run_show(op, args, opts.parse);
  try {
    std::cout << L::evaluate_op(op, args, opts) << "\n";
    return 0;
  } catch (const L::UsageError& e) {
    return usage_error(e.what());
  } catch (const L::ArgNotationError& e) {
    return notation_error(e, e.arg, e.arg_index);
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
