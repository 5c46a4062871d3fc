// Pictures of layouts: CuTe's print_layout table (rows are mode 0, columns
// the remaining modes), an SVG of the same table, and thread-value layouts
// over a tile (CuTe's print_latex_tv) as a text table and as an SVG with each
// cell labelled T#/V# and colored by thread.
#include <algorithm>
#include <functional>
#include <sstream>

#include "layout/layout.h"

namespace tileslc::layout {

namespace {

constexpr int64_t kMaxCells = 1 << 16;

struct Grid {
  int64_t rows = 0, cols = 0;
  std::vector<std::string> cells;  // row-major
  const std::string& at(int64_t r, int64_t c) const { return cells[static_cast<size_t>(r * cols + c)]; }
};

/// Rows are mode 0; columns are the other modes taken together.
std::pair<int64_t, int64_t> table_extent(const Layout& l) {
  int64_t rows = size(l[0]).require_value("show");
  int64_t total = size(l).require_value("show");
  if (l.rank() == 1 || !l.shape.is_tuple()) return {total, 1};
  return {rows, rows == 0 ? 0 : total / rows};
}

Grid index_grid(const Layout& l, const std::function<Int(const Coord&)>& eval) {
  auto [rows, cols] = table_extent(l);
  if (rows * cols > kMaxCells) throw LayoutError("show: " + l.to_string() + " has too many elements to draw");
  Grid g{rows, cols, {}};
  std::vector<IntTuple> rest_modes;
  for (size_t i = 1; i < l.rank(); ++i) rest_modes.push_back(l.shape[i]);
  IntTuple rest = IntTuple::tuple(rest_modes);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      Coord crd(r);
      if (l.shape.is_tuple()) {
        std::vector<IntTuple> parts{IntTuple(r)};
        if (l.rank() > 1) {
          IntTuple cc = idx2crd(IntTuple(c), rest);
          for (const auto& e : cc.elems()) parts.push_back(e);
        }
        crd = IntTuple::tuple(parts);
      }
      g.cells.push_back(eval(crd).to_string());
    }
  return g;
}

std::string render_table(const std::string& title, const Grid& g) {
  size_t w = std::to_string(g.cols ? g.cols - 1 : 0).size();
  for (const auto& c : g.cells) w = std::max(w, c.size());
  size_t hw = std::to_string(g.rows ? g.rows - 1 : 0).size() + 1;
  auto pad = [](const std::string& s, size_t n) { return std::string(n > s.size() ? n - s.size() : 0, ' ') + s; };
  std::ostringstream o;
  o << title << "\n";
  o << std::string(hw + 3, ' ');
  for (int64_t c = 0; c < g.cols; ++c) o << pad(std::to_string(c), w) << (c + 1 < g.cols ? std::string(3, ' ') : "");
  o << "\n";
  std::string sep = std::string(hw + 1, ' ') + "+";
  for (int64_t c = 0; c < g.cols; ++c) sep += std::string(w + 2, '-') + "+";
  o << sep << "\n";
  for (int64_t r = 0; r < g.rows; ++r) {
    o << pad(std::to_string(r), hw) << " |";
    for (int64_t c = 0; c < g.cols; ++c) o << " " << pad(g.at(r, c), w) << " |";
    o << "\n" << sep << "\n";
  }
  return o.str();
}

const char* kPalette[8] = {"#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2"};

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

/// An SVG table: labels[r][c] with colors[r][c], row and column headers.
std::string render_svg(const std::string& title, const Grid& g, const std::vector<std::string>& colors, int cell_w) {
  const int cell_h = 28, left = 40, top = 56;
  int width = std::max(left + static_cast<int>(g.cols) * cell_w + 20, left + 9 * static_cast<int>(title.size()) + 20);
  int height = top + static_cast<int>(g.rows) * cell_h + 20;
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"monospace\" font-size=\"12\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">" << xml_escape(title) << "</text>\n";
  for (int64_t c = 0; c < g.cols; ++c)
    o << "<text x=\"" << left + c * cell_w + cell_w / 2 << "\" y=\"" << top - 8 << "\" text-anchor=\"middle\">" << c
      << "</text>\n";
  for (int64_t r = 0; r < g.rows; ++r) {
    o << "<text x=\"" << left - 8 << "\" y=\"" << top + r * cell_h + cell_h / 2 + 4 << "\" text-anchor=\"end\">" << r
      << "</text>\n";
    for (int64_t c = 0; c < g.cols; ++c) {
      int x = left + static_cast<int>(c) * cell_w, y = top + static_cast<int>(r) * cell_h;
      o << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell_w << "\" height=\"" << cell_h << "\" fill=\""
        << colors[static_cast<size_t>(r * g.cols + c)] << "\" stroke=\"black\"/>\n";
      o << "<text x=\"" << x + cell_w / 2 << "\" y=\"" << y + cell_h / 2 + 4 << "\" text-anchor=\"middle\">"
        << xml_escape(g.at(r, c)) << "</text>\n";
    }
  }
  o << "</svg>\n";
  return o.str();
}

std::vector<std::string> index_colors(const Grid& g) {
  std::vector<std::string> colors;
  for (const auto& c : g.cells) {
    int64_t v = 0;
    try {
      v = std::stoll(c);
    } catch (...) {
    }
    colors.push_back(kPalette[((v % 8) + 8) % 8]);
  }
  return colors;
}

Grid tv_grid(const Layout& tv, const Shape& tile, std::vector<std::string>* colors) {
  int64_t m = size(tile[0]).require_value("show-tv");
  int64_t n = tile.is_tuple() && tile.rank() > 1 ? size(tile).require_value("show-tv") / (m ? m : 1) : 1;
  if (!tile.is_tuple()) m = size(tile).require_value("show-tv");
  if (m < 0 || n < 0) throw LayoutError("show-tv: tile " + tile.to_string() + " has a negative extent");
  if (m * n > kMaxCells) throw LayoutError("show-tv: tile " + tile.to_string() + " has too many elements to draw");
  Grid g{m, n, std::vector<std::string>(static_cast<size_t>(m * n))};
  std::vector<int64_t> owner(static_cast<size_t>(m * n), -1);
  int64_t threads = size(tv[0]).require_value("show-tv");
  int64_t values = tv.rank() > 1 && tv.shape.is_tuple() ? size(tv[1]).require_value("show-tv") : 1;
  for (int64_t t = 0; t < threads; ++t)
    for (int64_t v = 0; v < values; ++v) {
      Coord crd = tv.shape.is_tuple() && tv.rank() > 1 ? IntTuple::tuple({IntTuple(t), IntTuple(v)}) : Coord(t);
      int64_t idx = tv(crd).require_value("show-tv");
      if (idx < 0 || idx >= m * n)
        throw LayoutError("show-tv: " + tv.to_string() + " maps (T" + std::to_string(t) + ",V" + std::to_string(v) +
                          ") to " + std::to_string(idx) + ", outside the tile " + tile.to_string());
      size_t r = static_cast<size_t>(idx % m), c = static_cast<size_t>(idx / m);
      size_t k = r * static_cast<size_t>(n) + c;
      if (owner[k] >= 0) continue;  // the first (thread, value) to reach a cell labels it
      owner[k] = t;
      g.cells[k] = "T" + std::to_string(t) + "/V" + std::to_string(v);
    }
  if (colors)
    for (size_t k = 0; k < owner.size(); ++k) colors->push_back(owner[k] < 0 ? "#ffffff" : kPalette[owner[k] % 8]);
  return g;
}

}  // namespace

std::string print_layout(const Layout& l) {
  return render_table(l.to_string(), index_grid(l, [&](const Coord& c) { return l(c); }));
}

std::string print_layout(const ComposedLayout& l) {
  return render_table(l.to_string(), index_grid(l.layout, [&](const Coord& c) { return l(c); }));
}

std::string layout_svg(const Layout& l) {
  Grid g = index_grid(l, [&](const Coord& c) { return l(c); });
  return render_svg(l.to_string(), g, index_colors(g), 36);
}

std::string layout_svg(const ComposedLayout& l) {
  Grid g = index_grid(l.layout, [&](const Coord& c) { return l(c); });
  return render_svg(l.to_string(), g, index_colors(g), 36);
}

std::string print_tv(const Layout& tv, const Shape& tile) {
  return render_table(tv.to_string() + " over " + tile.to_string(), tv_grid(tv, tile, nullptr));
}

std::string tv_svg(const Layout& tv, const Shape& tile) {
  std::vector<std::string> colors;
  Grid g = tv_grid(tv, tile, &colors);
  return render_svg(tv.to_string() + " over " + tile.to_string(), g, colors, 64);
}

}  // namespace tileslc::layout
