// `stat -tech cmos` parser (see yosys_stat.h).
#include "yosys_stat.h"

#include <cctype>
#include <sstream>

#include <nlohmann/json.hpp>

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
    if (line.rfind("Longest topological path in ", 0) == 0) {
      const auto a = line.find("(length="), b = line.find(')', a);
      if (a == std::string::npos || b == std::string::npos) throw Error(origin + ": unreadable ltp line '" + line + "'");
      st.logic_depth = parse_count(line.substr(a + 8, b - a - 8), origin, "ltp length");
      in_cell_list = false;
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

namespace {

// "$paramod$<hash>\\arc_addr_match" or "\\arc_subcore_top" -> the module's own name.
std::string plain_name(const std::string& yosys_name) {
  const auto bs = yosys_name.rfind('\\');
  return bs == std::string::npos ? yosys_name : yosys_name.substr(bs + 1);
}

// One module (or the design) of a `stat -json -tech cmos` report. Gate cells need a weight;
// other cell types are submodule instances, allowed only where `instances` is given (they are
// returned there, by plain name).
CellStats json_module(const nlohmann::json& m, const std::string& name, const std::string& origin,
                      std::map<std::string, std::int64_t>* instances) {
  CellStats st;
  st.module = name;
  st.cells = m.at("num_cells").get<std::int64_t>();
  std::int64_t gates = 0, transistors = 0;
  for (const auto& [type, n_json] : m.at("num_cells_by_type").items()) {
    const std::int64_t n = n_json.get<std::int64_t>();
    if (type.rfind("$_", 0) != 0) {
      if (!instances) throw Error(origin + ": " + name + ": unexpected cell type " + type);
      (*instances)[plain_name(type)] += n;
      continue;
    }
    const CellWeight* w = find_weight(type);
    if (!w) throw Error(origin + ": " + name + ": cell type " + type + " has no transistor/NAND2 weight (uncounted cell)");
    st.by_type[type] = n;
    gates += n;
    transistors += n * w->transistors;
    st.nand2_eq += static_cast<double>(n) * w->nand2_eq;
    if (type.rfind("$_DFF_", 0) == 0) st.flip_flops += n;
  }
  std::string est = m.at("estimated_num_transistors").get<std::string>();
  const bool plus = !est.empty() && est.back() == '+';
  const bool has_instances = instances && !instances->empty();
  if (plus && has_instances) est.pop_back();  // '+' = the submodule instances, counted below
  st.transistors = parse_count(est, origin, name + " transistor count");
  if (st.transistors != transistors)
    throw Error(origin + ": " + name + ": Yosys estimates " + std::to_string(st.transistors) +
                " transistors but the cell table gives " + std::to_string(transistors));
  std::int64_t instance_cells = 0;
  if (instances)
    for (const auto& kv : *instances) instance_cells += kv.second;
  if (gates + instance_cells != st.cells)
    throw Error(origin + ": " + name + ": per-type cell counts sum to " + std::to_string(gates + instance_cells) +
                ", not the " + std::to_string(st.cells) + " cells reported");
  st.cells = gates;  // own gates only: instances are counted in their own module
  return st;
}

}  // namespace

HierStats parse_stat_json(std::string_view text, const std::string& origin) {
  nlohmann::json j;
  const auto brace = text.find('{');
  if (brace == std::string_view::npos) throw Error(origin + ": not a Yosys `stat -json` report (no JSON object)");
  try {
    j = nlohmann::json::parse(text.substr(brace));
  } catch (const std::exception& e) {
    throw Error(origin + ": not a Yosys `stat -json` report (" + std::string(e.what()) + ")");
  }
  HierStats h;
  try {
    std::map<std::string, std::int64_t> used;  // kept module -> instances across the design
    for (const auto& [yname, m] : j.at("modules").items()) {
      std::map<std::string, std::int64_t> inst;
      CellStats st = json_module(m, plain_name(yname), origin, &inst);
      if (!inst.empty()) {
        if (!h.top.empty()) throw Error(origin + ": more than one module instantiates others (" + h.top + ", " + st.module + ")");
        h.top = st.module;
      }
      for (const auto& [k, n] : inst) used[k] += n;
      if (!h.modules.emplace(st.module, st).second) throw Error(origin + ": module " + st.module + " listed twice");
    }
    h.design = json_module(j.at("design"), "design", origin, nullptr);
    std::int64_t sum = 0;
    for (const auto& [name, st] : h.modules) {
      if (name != h.top && used[name] != 1)
        throw Error(origin + ": kept module " + name + " is instantiated " + std::to_string(used[name]) +
                    " times (expected once)");
      sum += st.transistors;
    }
    if (h.top.empty()) throw Error(origin + ": no module instantiates another (nothing was kept)");
    if (sum != h.design.transistors)
      throw Error(origin + ": the modules' transistors add up to " + std::to_string(sum) + ", not the design's " +
                  std::to_string(h.design.transistors));
  } catch (const nlohmann::json::exception& e) {
    throw Error(origin + ": incomplete Yosys `stat -json` report (" + std::string(e.what()) + ")");
  }
  return h;
}

}  // namespace arc::area
