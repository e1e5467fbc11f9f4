// `stat -tech cmos` parser (see yosys_stat.h).
#include "yosys_stat.h"

#include <cctype>
#include <sstream>

#include "error.h"

namespace arc::area {

const std::vector<CellWeight>& cell_weights() {
  // NAND2_X1 = 0.798 um^2 in the Nangate 45nm Open Cell Library; weights are X1 areas over it.
  static const std::vector<CellWeight> w = {
      {"$_BUF_", 1, 1.000, "BUF_X1 0.798"},         {"$_NOT_", 2, 0.667, "INV_X1 0.532"},
      {"$_NAND_", 4, 1.000, "NAND2_X1 0.798"},      {"$_NOR_", 4, 1.000, "NOR2_X1 0.798"},
      {"$_AND_", 6, 1.333, "AND2_X1 1.064"},        {"$_OR_", 6, 1.333, "OR2_X1 1.064"},
      {"$_ANDNOT_", 6, 1.333, "as AND2_X1 1.064"},  {"$_ORNOT_", 6, 1.333, "as OR2_X1 1.064"},
      {"$_XOR_", 12, 2.000, "XOR2_X1 1.596"},       {"$_XNOR_", 12, 2.000, "XNOR2_X1 1.596"},
      {"$_AOI3_", 6, 1.333, "AOI21_X1 1.064"},      {"$_OAI3_", 6, 1.333, "OAI21_X1 1.064"},
      {"$_AOI4_", 8, 1.667, "AOI22_X1 1.330"},      {"$_OAI4_", 8, 1.667, "OAI22_X1 1.330"},
      {"$_MUX_", 12, 2.333, "MUX2_X1 1.862"},       {"$_NMUX_", 10, 2.333, "as MUX2_X1 1.862"},
      {"$_DFF_P_", 16, 5.667, "DFF_X1 4.522"},      {"$_DFF_N_", 16, 5.667, "as DFF_X1 4.522"},
  };
  return w;
}

namespace {

const CellWeight* find_weight(const std::string& type) {
  for (const auto& w : cell_weights())
    if (type == w.type) return &w;
  return nullptr;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// A non-negative decimal integer, or an error naming what it is.
std::int64_t parse_count(const std::string& s, const std::string& origin, const std::string& what) {
  if (!s.empty() && s.back() == '+')
    throw Error(origin + ": " + what + " '" + s +
                "' ends in '+': Yosys has no CMOS transistor model for some cells (incomplete count)");
  if (s.empty() || s.size() > 15) throw Error(origin + ": " + what + " '" + s + "' is not a count");
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) throw Error(origin + ": " + what + " '" + s + "' is not a count");
  return std::stoll(s);
}

}  // namespace

CellStats parse_stat_cmos(std::string_view text, const std::string& origin) {
  CellStats st;
  int modules = 0;
  bool have_cells = false, have_transistors = false, in_cell_list = false;
  std::istringstream in{std::string(text)};
  std::string raw;
  while (std::getline(in, raw)) {
    const std::string line = trim(raw);
    if (line.rfind("===", 0) == 0) {
      if (++modules > 1)
        throw Error(origin + ": more than one module in the statistics (the area flow flattens; got '" + line + "')");
      st.module = trim(std::string_view(line).substr(3, line.size() >= 6 ? line.size() - 6 : 0));
      in_cell_list = false;
      continue;
    }
    if (line.rfind("Number of cells:", 0) == 0) {
      st.cells = parse_count(trim(std::string_view(line).substr(16)), origin, "cell count");
      have_cells = true;
      in_cell_list = true;
      continue;
    }
    if (line.rfind("Estimated number of transistors:", 0) == 0) {
      st.transistors = parse_count(trim(std::string_view(line).substr(32)), origin, "transistor count");
      have_transistors = true;
      in_cell_list = false;
      continue;
    }
    if (in_cell_list) {
      if (line.empty()) {
        in_cell_list = false;
        continue;
      }
      if (line[0] != '$')
        throw Error(origin + ": unexpected line in the cell list: '" + line + "' (only Yosys gate cells may remain)");
      const auto sp = line.find_first_of(" \t");
      if (sp == std::string::npos) throw Error(origin + ": cell line without a count: '" + line + "'");
      const std::string type = line.substr(0, sp);
      const std::int64_t n = parse_count(trim(std::string_view(line).substr(sp)), origin, "count of " + type);
      if (!st.by_type.emplace(type, n).second) throw Error(origin + ": cell type " + type + " listed twice");
    }
  }
  if (modules == 0) throw Error(origin + ": no '=== module ===' statistics found (not a Yosys stat report)");
  if (!have_cells) throw Error(origin + ": no 'Number of cells' line");
  if (!have_transistors)
    throw Error(origin + ": no 'Estimated number of transistors' line (was `stat -tech cmos` run?)");
  std::int64_t sum = 0, transistors = 0;
  for (const auto& [type, n] : st.by_type) {
    const CellWeight* w = find_weight(type);
    if (!w) throw Error(origin + ": cell type " + type + " has no transistor/NAND2 weight (uncounted cell)");
    sum += n;
    transistors += n * w->transistors;
    st.nand2_eq += static_cast<double>(n) * w->nand2_eq;
    if (type.rfind("$_DFF_", 0) == 0) st.flip_flops += n;
  }
  if (sum != st.cells)
    throw Error(origin + ": per-type cell counts sum to " + std::to_string(sum) + ", not the " +
                std::to_string(st.cells) + " cells reported");
  if (transistors != st.transistors)
    throw Error(origin + ": Yosys estimates " + std::to_string(st.transistors) + " transistors but the cell table gives " +
                std::to_string(transistors) + " (cell weights out of date?)");
  return st;
}

}  // namespace arc::area
