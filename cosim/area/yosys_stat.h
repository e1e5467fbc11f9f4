// Parser of Yosys `stat -tech cmos` output and the per-cell weights ARCsim reports with it.
//
// A report is accepted only if it is complete: exactly one (flattened) module, a cell count
// equal to the sum of the per-type counts, an integer transistor estimate (a count ending in
// '+' means Yosys had no CMOS model for some cell: an error), every cell type in the weight
// table below, and Yosys's transistor total equal to the table's (so the table and Yosys's
// CMOS cost model cannot silently disagree).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace arc::area {

struct CellWeight {
  const char* type;    // Yosys internal gate cell, e.g. "$_NAND_"
  int transistors;     // Yosys's CMOS cost model (kernel/cost.h, cmos_gate_cost) for `stat -tech cmos`
  double nand2_eq;     // area in NAND2 equivalents: Nangate 45nm Open Cell Library X1 cell area / NAND2_X1
  const char* basis;   // the library cell the NAND2 weight comes from
};

// Every gate type the area flow can produce (and a few more), with both weights.
const std::vector<CellWeight>& cell_weights();

struct CellStats {
  std::string module;                          // the "=== name ===" header
  std::int64_t cells = 0;                      // "Number of cells"
  std::map<std::string, std::int64_t> by_type; // cell type -> count
  std::int64_t transistors = 0;                // "Estimated number of transistors"
  double nand2_eq = 0.0;                       // sum of count x nand2_eq weight
  std::int64_t flip_flops = 0;                 // $_DFF_* cells
  // Logic depth: gates on the longest path between flip-flops and ports (Yosys `ltp -noff`
  // after abc -g cmos2), -1 when the report has no ltp section.
  std::int64_t logic_depth = -1;
};

// One synthesis that kept some modules as separate instances (`keep_hierarchy`), from Yosys
// `stat -json -tech cmos`: each module's own gates (a submodule instance counts as nothing in
// its parent) and the whole design. Each kept module is instantiated exactly once, so the
// modules' transistors add up to the design's, and the parser checks that they do.
struct HierStats {
  std::map<std::string, CellStats> modules;  // by plain module name (parameter hash dropped)
  CellStats design;
  std::string top;
};
HierStats parse_stat_json(std::string_view text, const std::string& origin);

// Parse the text Yosys writes for `stat -tech cmos` of one flattened module. `origin` names
// the log in error messages. Throws arc::Error (one line) on anything incomplete.
CellStats parse_stat_cmos(std::string_view text, const std::string& origin);

}  // namespace arc::area
