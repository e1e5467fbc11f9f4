// ARC-HW area: runs the Yosys flow over the discovered RTL and sums it per sub-core and GPU.
#include "area.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "error.h"
#include "progress.h"

#ifndef ARCSIM_SOURCE_DIR
#error "ARCSIM_SOURCE_DIR must be defined by the build (cosim/area/CMakeLists.txt)"
#endif
#ifndef ARCSIM_YOSYS
#define ARCSIM_YOSYS "yosys"
#endif

namespace arc::area {

const char* const kDisclaimer =
    "Estimates from a generic CMOS cell set (Yosys `stat -tech cmos` after abc -g cmos2), not sign-off area.";

namespace {

struct ParamRange {
  const char* pattern;  // regex on the parameter name
  std::int64_t min, max;
  const char* why;
};

// Ranges of the RTL parameters ARCsim knows; any other literal parameter is checked by Yosys.
const std::vector<ParamRange>& param_ranges() {
  static const std::vector<ParamRange> r = {
      {"FTZ", 0, 1, "0 keeps subnormals, 1 flushes them"},
      {"RfPort", 0, 1, "0: operands from the instruction's register, 1: the paper's register-file port"},
      {"AddrWidth", 8, 64, "address bits per lane"},
      {"Lanes", 2, 32, "lanes of a warp (a warp has 32)"},
      {"Width", 2, 64, "bits scanned"},
      {"Stages", 1, 2, "the reduction adder's pipeline stages (arc_fp32_add_pipe)"},
      {".*(Pipe|Stage).*", 0, 16, "pipeline registers"},
      {".*LanesPerCycle.*", 1, 32, "lanes reduced per cycle"},
  };
  return r;
}

// The last commit that changed a Verilog source under dir (build files do not count).
std::string rtl_revision(const std::string& dir) {
  const auto h = run_process({"git", "-C", dir, "log", "-1", "--format=%h", "--", "*.sv", "*.svh", "*.v", "*.vh"});
  if (h.exit_code != 0 || h.out.empty()) return "unknown (not a git checkout)";
  std::string rev = h.out.substr(0, h.out.find('\n'));
  const auto s = run_process({"git", "-C", dir, "status", "--porcelain", "--", "*.sv", "*.svh", "*.v", "*.vh"});
  if (s.exit_code == 0 && !s.out.empty()) rev += " + uncommitted changes";
  return rev;
}

// The settable parameters of `mod`: RTL defaults, then the --set values it declares.
std::map<std::string, std::int64_t> module_params(const RtlModule& mod, const std::map<std::string, std::int64_t>& set) {
  std::map<std::string, std::int64_t> p;
  for (const auto& q : mod.params)
    if (!q.derived) p[q.name] = q.default_value();
  for (const auto& [k, v] : set)
    if (const auto* rp = mod.find_param(k); rp && !rp->derived) p[k] = v;
  return p;
}

constexpr const char* kCoalescer = "arc_addr_match";

// ARC-added vs reused for RfPort = 0 and 1 (see ConfigArea), and the pipelined adder's depth per
// Stages. The paper configuration keeps the coalescer as a separate instance (no optimization
// across its boundary, so the ARC-added side is not flattered by logic merged into it).
void split_configs(const RtlTree& rtl, const std::map<std::string, std::int64_t>& rtl_params, SynthRunner& runner,
                   AreaReport& rep) {
  const RtlModule* top = rtl.find("arc_subcore_top");
  if (top && top->find_param("RfPort")) {
    for (std::int64_t rf : {0, 1}) {
      ConfigArea c;
      c.name = "RfPort=" + std::to_string(rf);
      c.params = module_params(*top, rtl_params);
      c.params["RfPort"] = rf;
      if (rf == 0) {
        c.description = "self-contained: own address matcher (32 address registers) and 1024-bit operand register";
        const SynthResult r = runner.run(top->name, c.params);
        ++rep.syntheses;
        rep.syntheses_cached += r.from_cache;
        c.total = c.arc_added = r.stats.transistors;
        c.parts.push_back({"arc_subcore_top (all of it)", "ARC-added",
                           "a unit of its own: matcher, operand register, scheduler, reduction unit (FPU + "
                           "accumulator), per-lane issue, control",
                           c.total});
      } else {
        c.description = "the paper's design (5.3): coalescer and register-file read port reused, no operand buffer";
        const SynthResult r = runner.run(top->name, c.params, {kCoalescer});
        ++rep.syntheses;
        rep.syntheses_cached += r.from_cache;
        c.total = r.stats.transistors;
        c.reused = r.hier.modules.at(kCoalescer).transistors;
        c.arc_added = c.total - c.reused;
        c.parts.push_back({std::string(kCoalescer), "reused",
                           "the LSU's address-coalescing unit: gives each group's thread mask", c.reused});
        c.parts.push_back({"register-file read port", "reused",
                           "the existing RF read of the warp register (rf_* ports, outside rtl/): nothing counted", 0});
        c.parts.push_back({"arc_subcore_top without the coalescer", "ARC-added",
                           "arc_reduce (FPU + accumulator), arc_sched, arc_lane_issue, arc_lane_select (the RF row's "
                           "1024-to-32 lane select), group address and config registers, control",
                           c.arc_added});
      }
      c.gpu_arc_added = rep.arc_units * c.arc_added;
      c.gpu_total = rep.arc_units * c.total;
      c.fraction_added = static_cast<double>(c.gpu_arc_added) / static_cast<double>(rep.gpu.die_transistors);
      c.fraction_total = static_cast<double>(c.gpu_total) / static_cast<double>(rep.gpu.die_transistors);
      rep.configs.push_back(c);
    }
  }
  if (const RtlModule* pipe = rtl.find("arc_fp32_add_pipe"); pipe && pipe->find_param("Stages")) {
    const double budget_levels = rep.timing.clock_ghz > 0 ? 1000.0 / (rep.timing.clock_ghz * rep.timing.gate_ps) : 0;
    for (std::int64_t st = 1; st <= 2; ++st) {
      auto params = module_params(*pipe, rtl_params);
      params["Stages"] = st;
      const SynthResult r = runner.run(pipe->name, params);
      ++rep.syntheses;
      rep.syntheses_cached += r.from_cache;
      AdderStages a;
      a.stages = st;
      a.logic_depth = r.stats.logic_depth;
      a.max_clock_ghz =
          1000.0 / (static_cast<double>(a.logic_depth + rep.timing.register_levels) * rep.timing.gate_ps);
      a.cycles_per_group_32 = 1 + 31 * st;
      rep.adder_stages.push_back(a);
      if (st == 1 && budget_levels > static_cast<double>(rep.timing.register_levels))
        rep.stages_even_split = static_cast<std::int64_t>(
            std::ceil(static_cast<double>(a.logic_depth) / (budget_levels - static_cast<double>(rep.timing.register_levels))));
      if (rep.stages_needed == 0 && budget_levels > 0 &&
          static_cast<double>(a.logic_depth + rep.timing.register_levels) <= budget_levels)
        rep.stages_needed = st;
    }
  }
}

}  // namespace

AreaOptions default_area_options() {
  AreaOptions o;
  o.synth_script = std::string(ARCSIM_SOURCE_DIR) + "/synth/synth_module.sh";
  const char* rtl = std::getenv("ARCSIM_RTL_DIR");
  o.rtl_dir = rtl && *rtl ? rtl : std::string(ARCSIM_SOURCE_DIR) + "/rtl";
  const char* y = std::getenv("YOSYS");
  o.yosys = y && *y ? y : ARCSIM_YOSYS;
  o.cache_dir = default_cache_dir();
  o.plot_script = std::string(ARCSIM_SOURCE_DIR) + "/scripts/plot_area_sweep.py";
  return o;
}

std::map<std::string, std::int64_t> parse_rtl_params(const RtlTree& rtl, const std::vector<std::string>& sets) {
  std::map<std::string, std::int64_t> out;
  for (const auto& kv : sets) {
    static const std::regex re(R"(([A-Za-z_]\w*)=(-?[0-9]{1,12}))");
    std::smatch m;
    if (!std::regex_match(kv, m, re))
      throw Error("--set '" + kv + "': expected PARAM=INTEGER (an RTL parameter, e.g. FTZ=0 or AddrWidth=48)");
    const std::string name = m[1];
    const std::int64_t value = std::stoll(m[2]);
    std::vector<std::string> settable;
    bool declared = false, derived = false;
    for (const auto& mod : rtl.modules)
      for (const auto& p : mod.params) {
        if (!p.derived && std::find(settable.begin(), settable.end(), p.name) == settable.end())
          settable.push_back(p.name);
        if (p.name == name) (p.derived ? derived : declared) = true;
      }
    std::sort(settable.begin(), settable.end());
    if (!declared && derived)
      throw Error("--set " + name + ": this RTL parameter is derived from others (e.g. $clog2 of a width); set those");
    if (!declared) {
      std::string list;
      for (const auto& s : settable) list += (list.empty() ? "" : ", ") + s;
      throw Error("--set " + name + ": unknown RTL parameter (" + rtl.dir + " exposes: " + list +
                  ") and not a GPU parameter (see arcsim area --help)");
    }
    for (const auto& r : param_ranges())
      if (std::regex_match(name, std::regex(r.pattern)) && (value < r.min || value > r.max))
        throw Error("--set " + name + "=" + std::to_string(value) + ": impossible value (valid " +
                    std::to_string(r.min) + ".." + std::to_string(r.max) + ": " + r.why + ")");
    if (!out.emplace(name, value).second) throw Error("--set " + name + ": given twice");
  }
  return out;
}

AreaReport compute_area(const config::GpuConfig& gpu, const std::map<std::string, std::int64_t>& rtl_params,
                        const AreaOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const RtlTree rtl = scan_rtl(opt.rtl_dir);
  SynthRunner runner({opt.synth_script, opt.rtl_dir, opt.yosys, opt.cache_dir});
  AreaReport rep;
  rep.gpu = gpu;
  rep.rtl_params = rtl_params;
  rep.yosys_version = runner.yosys_version();
  rep.rtl_revision = rtl_revision(opt.rtl_dir);
  rep.cache_dir = opt.cache_dir.empty() ? "(off)" : opt.cache_dir;

  std::set<std::string> in_subcore;
  if (rtl.find("arc_subcore_top")) {
    rep.subcore_parts = {"arc_subcore_top"};
    rep.subcore_source = "arc_subcore_top";
  } else {
    rep.subcore_parts = rtl.roots();
    rep.subcore_source = "sum of the top-level modules (arc_subcore_top is not in rtl/ yet):";
    for (const auto& p : rep.subcore_parts) rep.subcore_source += " " + p;
    rep.notes.push_back("rtl/ has no arc_subcore_top yet: the per-sub-core total sums the modules no other module "
                        "instantiates");
  }
  for (const auto& p : rep.subcore_parts)
    for (const auto& m : rtl.closure(p)) in_subcore.insert(m);

  // Which modules to synthesize, each with the overrides it declares.
  std::vector<std::string> jobs;
  for (const auto& m : rtl.modules)
    if (opt.modules_too || std::count(rep.subcore_parts.begin(), rep.subcore_parts.end(), m.name)) jobs.push_back(m.name);
  for (const auto& [k, v] : rtl_params) {
    bool reaches = false;
    for (const auto& p : rep.subcore_parts)
      if (const auto* rp = rtl.find(p)->find_param(k); rp && !rp->derived) reaches = true;
    if (!reaches)
      rep.notes.push_back(k + " is not a parameter of " + (rep.subcore_parts.size() == 1 ? rep.subcore_parts[0] : "the sub-core modules") +
                          ": --set " + k + " changes only the standalone module rows, not the per-sub-core total");
  }

  Progress bar("yosys", jobs.size(), opt.progress);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const RtlModule& mod = *rtl.find(jobs[i]);
    ModuleArea ma;
    ma.name = mod.name;
    for (const auto& p : mod.params)
      if (!p.derived) ma.params[p.name] = p.default_value();
    for (const auto& [k, v] : rtl_params)
      if (const auto* rp = mod.find_param(k); rp && !rp->derived) ma.params[k] = v;
    // Every settable parameter is passed explicitly, defaults included, so that a default run
    // and a sweep point with the same values are the same Yosys run (ABC's result depends on
    // how the netlist was derived, by up to several percent; synth/results/README.md).
    const SynthResult r = runner.run(mod.name, ma.params);
    ma.stats = r.stats;
    ma.from_cache = r.from_cache;
    ma.seconds = r.seconds;
    ma.in_subcore = in_subcore.count(mod.name) > 0;
    rep.modules.push_back(ma);
    ++rep.syntheses;
    rep.syntheses_cached += r.from_cache;
    bar.update(i + 1);
  }
  bar.finish();

  for (const auto& m : rep.modules) {
    if (std::count(rep.subcore_parts.begin(), rep.subcore_parts.end(), m.name)) {
      rep.per_subcore_transistors += m.stats.transistors;
      rep.per_subcore_cells += m.stats.cells;
      rep.per_subcore_nand2_eq += m.stats.nand2_eq;
      rep.per_subcore_flip_flops += m.stats.flip_flops;
    }
    if (m.name == "arc_fp32_add") rep.fpu_transistors = m.stats.transistors;
  }
  rep.arc_units = gpu.sms * gpu.subcores_per_sm;
  rep.gpu_arc_transistors = rep.arc_units * rep.per_subcore_transistors;
  rep.fraction = static_cast<double>(rep.gpu_arc_transistors) / static_cast<double>(gpu.die_transistors);
  rep.timing = opt.timing;
  rep.timing.clock_ghz = gpu.clock_ghz;
  if (opt.split) split_configs(rtl, rtl_params, runner, rep);
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

SweepResult sweep_area(const config::GpuConfig& gpu, const std::map<std::string, std::int64_t>& base_params,
                       const AreaOptions& opt) {
  const RtlTree rtl = scan_rtl(opt.rtl_dir);
  // Settable parameters of the per-sub-core top (or of any module when there is no top yet).
  const std::string top = rtl.find("arc_subcore_top") ? "arc_subcore_top" : "";
  auto find_settable = [&](const std::string& pattern) -> std::string {
    const std::regex re(pattern, std::regex::icase);
    for (const auto& m : rtl.modules) {
      if (!top.empty() && m.name != top) continue;
      for (const auto& p : m.params)
        if (!p.derived && std::regex_match(p.name, re)) return p.name;
    }
    return "";
  };
  struct Dim {
    const char* what;
    const char* pattern;
    std::vector<std::int64_t> values;
    const char* absent;  // what the RTL does instead, when it has no such parameter
  };
  const std::vector<Dim> dims = {
      {"adder pipeline depth", ".*(pipe|stage).*", {1, 2}, "arc_fp32_add is combinational: one add per cycle"},
      {"FTZ", "FTZ", {0, 1}, "no FTZ parameter"},
      {"address width", "AddrWidth", {16, 32, 48, 64}, "no address-width parameter"},
      {"lanes per cycle", ".*lanes_?per_?cycle.*", {1, 2, 4, 8}, "arc_reduce adds one lane per cycle"},
  };
  SweepResult out;
  AreaOptions o = opt;
  o.modules_too = false;
  o.progress = false;
  o.split = false;
  for (const auto& d : dims) {
    const std::string name = find_settable(d.pattern);
    if (name.empty()) {
      out.notes.push_back(std::string(d.what) + ": not swept, " + (top.empty() ? "no RTL module" : top) +
                          " exposes no such parameter (" + d.absent + ")");
      continue;
    }
    Progress bar("sweep " + name, d.values.size(), opt.progress);
    for (size_t i = 0; i < d.values.size(); ++i) {
      auto params = base_params;
      params[name] = d.values[i];
      SweepPoint pt{name, d.values[i], compute_area(gpu, params, o)};
      out.points.push_back(std::move(pt));
      bar.update(i + 1);
    }
    bar.finish();
  }
  return out;
}

}  // namespace arc::area

namespace arc::area {

std::vector<std::string> write_sweep(const SweepResult& s, const std::string& out_dir, const AreaOptions& opt) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (!fs::is_directory(out_dir)) throw Error(out_dir + ": cannot create the output folder");
  const std::string csv = (fs::path(out_dir) / "area_sweep.csv").string();
  const std::string png = (fs::path(out_dir) / "area_sweep.png").string();
  {
    std::ofstream o(csv);
    o << sweep_csv(s);
    if (!o) throw Error(csv + ": cannot write");
  }
  std::string python = "python3";
  if (const char* p = std::getenv("ARCSIM_PYTHON"); p && *p)
    python = p;
  else if (fs::exists("/usr/bin/python3"))
    python = "/usr/bin/python3";  // Debian's, where python3-matplotlib lives
  const auto r = run_process({python, opt.plot_script, csv, png});
  if (r.exit_code != 0) {
    std::string msg = r.err.empty() ? r.out : r.err;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    if (auto nl = msg.rfind('\n'); nl != std::string::npos) msg = msg.substr(nl + 1);
    throw Error("plotting " + csv + " failed (" + python + " " + opt.plot_script + "): " + msg);
  }
  return {csv, png};
}

}  // namespace arc::area
