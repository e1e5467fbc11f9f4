// Renderings of an AreaReport: the table for people, JSON for tools, CSV for sweeps.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "area.h"

namespace arc::area {

namespace {

std::string params_text(const std::map<std::string, std::int64_t>& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s.empty() ? "-" : s;
}

// 35840000 -> "35.84M", 76000000000 -> "76.00B".
std::string human(double v) {
  if (v >= 1e9) return fmt::format("{:.2f}B", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.2f}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.1f}K", v / 1e3);
  return fmt::format("{:.0f}", v);
}

std::string grouped(std::int64_t v) {
  std::string s = std::to_string(v), out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

// A module's role in the paper configuration (RfPort = 1).
std::string role_of(const std::string& module) {
  if (module == "arc_addr_match") return "reused";
  if (module == "arc_subcore_top") return "both";
  return "ARC-added";
}

std::string depth_text(std::int64_t d) { return d < 0 ? "-" : std::to_string(d); }

}  // namespace

std::string format_table(const AreaReport& r) {
  std::string o;
  const auto& g = r.gpu;
  o += fmt::format("ARC-HW area for {} | {} | RTL {}\n", g.name, r.yosys_version, r.rtl_revision);
  o += fmt::format("{}\n\n", kDisclaimer);
  o += fmt::format("{:<18} {:<46} {:>8} {:>9} {:>8} {:>10} {:>10} {:>12} {:>6}\n", "module", "parameters", "sub-core",
                   "role", "cells", "NAND2-eq", "flip-flops", "transistors", "depth");
  for (const auto& m : r.modules) {
    o += fmt::format("{:<18} {:<46} {:>8} {:>9} {:>8} {:>10.0f} {:>10} {:>12} {:>6}\n", m.name, params_text(m.params),
                     m.in_subcore ? "yes" : "no", role_of(m.name), m.stats.cells, m.stats.nand2_eq,
                     m.stats.flip_flops, grouped(m.stats.transistors), depth_text(m.stats.logic_depth));
  }
  o += "(each row is its module synthesized alone, including what it instantiates, so rows do not add up;\n"
       " role: in the paper configuration RfPort=1, where arc_addr_match stands for the LSU's coalescer;\n"
       " depth: gates on the longest path, register to register, or from an input or to an output where\n"
       " a path has no register at that end (a module without registers: input to output), Yosys ltp -noff)\n\n";
  if (!r.configs.empty()) {
    o += "What ARC adds per sub-core and what it reuses (transistors):\n";
    o += fmt::format("{:<10} {:>12} {:>12} {:>12} {:>10} {:>14} {:>12} {:>12}\n", "config", "ARC-added", "reused",
                     "total", "paper", "GPU ARC-added", "of die", "GPU total");
    for (const auto& c : r.configs)
      o += fmt::format("{:<10} {:>12} {:>12} {:>12} {:>10} {:>14} {:>11.4f}% {:>12}\n", c.name, grouped(c.arc_added),
                       grouped(c.reused), grouped(c.total), "70,000", human(static_cast<double>(c.gpu_arc_added)),
                       100.0 * c.fraction_added, human(static_cast<double>(c.gpu_total)));
    for (const auto& c : r.configs) {
      o += fmt::format("  {}: {}\n", c.name, c.description);
      for (const auto& p : c.parts)
        o += fmt::format("    {:<10} {:>8}  {}: {}\n", p.role, grouped(p.transistors), p.part, p.why);
    }
    o += "\n";
  }
  if (!r.adder_stages.empty()) {
    const auto& t = r.timing;
    o += fmt::format("Reduction adder timing (arc_fp32_add_pipe; gate-delay model: {:.0f} ps per gate level, a "
                     "register adds {} levels):\n",
                     t.gate_ps, t.register_levels);
    o += fmt::format("{:>7} {:>12} {:>14} {:>26}\n", "Stages", "depth", "max clock", "cycles per 32-lane group");
    for (const auto& a : r.adder_stages)
      o += fmt::format("{:>7} {:>12} {:>10.2f} GHz {:>26}\n", a.stages, a.logic_depth, a.max_clock_ghz,
                       a.cycles_per_group_32);
    if (t.clock_ghz > 0)
      o += r.stages_needed > 0
               ? fmt::format("{} at {:.2f} GHz needs Stages={} under this model\n", g.name, t.clock_ghz,
                             r.stages_needed)
               : fmt::format("{} at {:.2f} GHz: no implemented Stages (1..{}) meets it under this model; cut evenly, "
                             "the adder would need about {} stages\n",
                             g.name, t.clock_ghz, r.adder_stages.back().stages, r.stages_even_split);
    o += "(a group's adds are serial in ascending lane order: each waits for the previous sum, so a\n"
         " group of n lanes takes 1 + (n-1) x Stages cycles in arc_reduce)\n\n";
  }
  o += fmt::format("per sub-core ({}): {} cells, {:.0f} NAND2-eq, {} flip-flops, {} transistors\n\n",
                   r.subcore_source, r.per_subcore_cells, r.per_subcore_nand2_eq, r.per_subcore_flip_flops,
                   grouped(r.per_subcore_transistors));

  const double paper_total = static_cast<double>(r.arc_units) * PaperFigure::kTransistorsPerFpu;
  o += fmt::format("{:<44} {:>22} {:>22}\n", "", "paper (ASPLOS'25 5.4)", "ARCsim (this run)");
  if (r.fpu_transistors > 0)
    o += fmt::format("{:<44} {:>22} {:>22}\n", "FP32 adder (arc_fp32_add), transistors", "< 70,000",
                     fmt::format("{} ({:.2f}x)", grouped(r.fpu_transistors),
                                 static_cast<double>(r.fpu_transistors) / PaperFigure::kTransistorsPerFpu));
  for (const auto& m : r.modules)
    if (m.name == "arc_reduce")
      o += fmt::format("{:<44} {:>22} {:>22}\n", "reduction unit (arc_reduce: FPU + registers)", "70,000",
                       fmt::format("{} ({:.2f}x)", grouped(m.stats.transistors),
                                   static_cast<double>(m.stats.transistors) / PaperFigure::kTransistorsPerFpu));
  o += fmt::format("{:<44} {:>22} {:>22}\n", "per sub-core, transistors", "70,000 (FPU + regs)",
                   fmt::format("{} ({:.2f}x)", grouped(r.per_subcore_transistors),
                               static_cast<double>(r.per_subcore_transistors) / PaperFigure::kTransistorsPerFpu));
  o += fmt::format("{:<44} {:>22} {:>22}\n",
                   fmt::format("GPU: {} SMs x {} sub-cores = {} ARC units", g.sms, g.subcores_per_sm, r.arc_units),
                   human(paper_total), human(static_cast<double>(r.gpu_arc_transistors)));
  o += fmt::format("{:<44} {:>22} {:>22}\n", fmt::format("fraction of the die ({} transistors)", human(g.die_transistors)),
                   fmt::format("{:.4f}%", 100.0 * paper_total / static_cast<double>(g.die_transistors)),
                   fmt::format("{:.4f}%", 100.0 * r.fraction));
  o += fmt::format("paper, RTX 4090: 128 x 4 x 70K = 35.84M = ~0.047% of 76B transistors\n");
  o += fmt::format("die count source: {}\n\n", g.die_transistors_source);

  o += "NAND2-eq weights (Nangate 45nm Open Cell Library X1 area / NAND2_X1 0.798 um^2), transistors per cell "
       "(Yosys CMOS model):\n ";
  for (const auto& w : cell_weights()) {
    bool used = false;
    for (const auto& m : r.modules) used |= m.stats.by_type.count(w.type) > 0;
    if (used) o += fmt::format(" {} {:.3f} / {}T ({});", w.type, w.nand2_eq, w.transistors, w.basis);
  }
  o += "\n";
  o += "Flow: synth/synth_module.sh (synth -flatten; async2sync; dfflegalize -cell $_DFF_P_ 01; abc -g cmos2; "
       "stat -tech cmos)\n";
  for (const auto& n : r.notes) o += "note: " + n + "\n";
  o += fmt::format("{} of {} syntheses from the cache ({}); {:.1f} s\n", r.syntheses_cached, r.syntheses,
                   r.cache_dir, r.seconds);
  return o;
}

// Only what the RTL, parameters, GPU config and Yosys version determine: no wall-clock time and no
// cache state (whether a report came from the cache), so a cold and a warm run give byte-identical
// JSON (tests/determinism). The table's last line shows both.
std::string format_json(const AreaReport& r) {
  nlohmann::json j;
  j["per_subcore_transistors"] = r.per_subcore_transistors;
  j["per_subcore_cells"] = r.per_subcore_cells;
  j["per_subcore_nand2_eq"] = r.per_subcore_nand2_eq;
  j["per_subcore_flip_flops"] = r.per_subcore_flip_flops;
  j["per_subcore_source"] = r.subcore_source;
  j["modules"] = nlohmann::json::object();
  for (const auto& m : r.modules) {
    nlohmann::json mj = {{"cells", m.stats.cells},
                         {"transistors", m.stats.transistors},
                         {"nand2_eq", m.stats.nand2_eq},
                         {"flip_flops", m.stats.flip_flops},
                         {"logic_depth", m.stats.logic_depth},
                         {"role_paper_config", role_of(m.name)},
                         {"in_subcore", m.in_subcore},
                         {"params", m.params},
                         {"cell_types", m.stats.by_type}};
    j["modules"][m.name] = mj;
  }
  j["gpu"] = {{"name", r.gpu.name},
              {"sms", r.gpu.sms},
              {"subcores_per_sm", r.gpu.subcores_per_sm},
              {"arc_units", r.arc_units},
              {"arc_transistors", r.gpu_arc_transistors},
              {"die_transistors", r.gpu.die_transistors},
              {"die_transistors_source", r.gpu.die_transistors_source},
              {"fraction", r.fraction},
              {"config_file", r.gpu.source_file}};
  j["paper"] = {{"transistors_per_fpu", PaperFigure::kTransistorsPerFpu},
                {"rtx4090_arc_transistors", PaperFigure::kRtx4090Total},
                {"rtx4090_fraction", PaperFigure::kRtx4090Fraction},
                {"rtx4090_die_transistors", PaperFigure::kRtx4090Die},
                {"this_gpu_arc_transistors", r.arc_units * PaperFigure::kTransistorsPerFpu},
                {"source", "ARC, ASPLOS'25, section 5.4"}};
  if (r.fpu_transistors > 0) j["fpu_transistors"] = r.fpu_transistors;
  for (const auto& m : r.modules)
    if (m.name == "arc_reduce") j["reduction_unit_transistors"] = m.stats.transistors;
  j["configurations"] = nlohmann::json::object();
  for (const auto& c : r.configs) {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& p : c.parts)
      parts.push_back({{"part", p.part}, {"role", p.role}, {"transistors", p.transistors}, {"why", p.why}});
    j["configurations"][c.name] = {
        {"description", c.description},
        {"params", c.params},
        {"arc_added_transistors_per_subcore", c.arc_added},
        {"reused_transistors_per_subcore", c.reused},
        {"total_transistors_per_subcore", c.total},
        {"paper_transistors_per_subcore", PaperFigure::kTransistorsPerFpu},
        {"parts", parts},
        {"gpu", {{"arc_added_transistors", c.gpu_arc_added},
                 {"total_transistors", c.gpu_total},
                 {"arc_added_fraction", c.fraction_added},
                 {"total_fraction", c.fraction_total},
                 {"paper_transistors", r.arc_units * PaperFigure::kTransistorsPerFpu}}}};
    if (c.name == "RfPort=1") {  // the paper's configuration, also at the top level
      j["arc_added_transistors_per_subcore"] = c.arc_added;
      j["reused_transistors_per_subcore"] = c.reused;
      j["paper_config"] = c.name;
    }
  }
  if (!r.adder_stages.empty()) {
    nlohmann::json st = nlohmann::json::array();
    for (const auto& a : r.adder_stages)
      st.push_back({{"stages", a.stages},
                    {"logic_depth", a.logic_depth},
                    {"max_clock_ghz", a.max_clock_ghz},
                    {"cycles_per_32_lane_group", a.cycles_per_group_32}});
    j["timing"] = {{"gate_ps", r.timing.gate_ps},
                   {"register_levels", r.timing.register_levels},
                   {"clock_ghz", r.timing.clock_ghz},
                   {"adder_stages", st},
                   {"stages_needed", r.stages_needed},
                   {"stages_even_split", r.stages_even_split},
                   {"model", "delay = (logic depth + register levels) x gate_ps; logic depth = Yosys ltp -noff "
                             "after abc -g cmos2 (area-oriented mapping)"}};
  }
  j["rtl_params"] = r.rtl_params;
  j["rtl_revision"] = r.rtl_revision;
  j["yosys"] = r.yosys_version;
  j["flow"] = "synth/synth_module.sh: synth -flatten; async2sync; dfflegalize -cell $_DFF_P_ 01; abc -g cmos2; stat -tech cmos";
  nlohmann::json weights = nlohmann::json::object();
  for (const auto& w : cell_weights())
    weights[w.type] = {{"transistors", w.transistors}, {"nand2_eq", w.nand2_eq}, {"basis", w.basis}};
  j["cell_weights"] = weights;
  j["notes"] = r.notes;
  j["disclaimer"] = kDisclaimer;
  return j.dump(2);
}

std::string sweep_csv(const SweepResult& s) {
  std::string o =
      "param,value,per_subcore_transistors,per_subcore_cells,per_subcore_nand2_eq,per_subcore_flip_flops,"
      "gpu,gpu_arc_transistors,fraction\n";
  for (const auto& p : s.points) {
    const auto& r = p.report;
    o += fmt::format("{},{},{},{},{:.1f},{},\"{}\",{},{:.8f}\n", p.param, p.value, r.per_subcore_transistors,
                     r.per_subcore_cells, r.per_subcore_nand2_eq, r.per_subcore_flip_flops, r.gpu.name,
                     r.gpu_arc_transistors, r.fraction);
  }
  return o;
}

}  // namespace arc::area
