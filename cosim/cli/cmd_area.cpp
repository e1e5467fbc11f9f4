// arcsim area: ARC-HW transistor, gate and cell counts from real Yosys runs of rtl/, per module,
// per sub-core and per GPU, beside the paper's 70K-per-FPU figure; optional parameter sweep.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "area.h"
#include "error.h"
#include "gpu_config.h"
#include "subcommand.h"

namespace arc::cli::cmd_area {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string gpu = "rtx4090";
  std::string config;
  bool json = false;
  std::vector<std::string> sets;
  bool sweep = false;
  std::string out;
  std::string cache_dir;
  bool no_cache = false;
  double gate_ps = 15.0;
};

bool is_gpu_key(const std::string& kv) {
  const std::string key = kv.substr(0, kv.find('='));
  const auto* p = arc::config::find_param(key);
  return p && !p->is_knob();
}

// `flag`'s folder, created if missing and writable, or a one-line error naming it (`what`: the
// folder's role); checked before the syntheses (minutes), not after them.
void require_folder(const std::string& flag, const std::string& dir, const std::string& what) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir))
    throw arc::Error(flag + " " + dir + ": cannot create the " + what + " folder" + (ec ? ": " + ec.message() : ""));
  if (::access(dir.c_str(), W_OK) != 0)
    throw arc::Error(flag + " " + dir + ": the " + what + " folder is not writable: " + std::strerror(errno));
}

void run(const Options& o) {
  if (!o.config.empty() && o.gpu != "rtx4090") throw arc::Error("give either --gpu or --config, not both");
  if (o.sweep && o.out.empty()) throw arc::Error("--sweep needs --out DIR (for area_sweep.csv and .png)");
  if (!o.sweep && !o.out.empty()) throw arc::Error("--out " + o.out + ": only --sweep writes files (add --sweep)");
  if (o.sweep) require_folder("--out", o.out, "output");
  arc::config::GpuConfig gpu = arc::config::load_gpu(o.config.empty() ? o.gpu : o.config);
  arc::area::AreaOptions opt = arc::area::default_area_options();
  if (!o.cache_dir.empty()) opt.cache_dir = o.cache_dir;
  if (o.no_cache) opt.cache_dir.clear();
  // A cache folder the user names must be one (the default one may fall back to none).
  if (!o.cache_dir.empty() && !o.no_cache) require_folder("--cache-dir", o.cache_dir, "cache");
  opt.progress = !o.json;
  if (!(o.gate_ps > 0.0 && o.gate_ps <= 1000.0))
    throw arc::Error("--gate-ps " + fmt::format("{}", o.gate_ps) + ": a gate delay must be in (0, 1000] ps");
  opt.timing.gate_ps = o.gate_ps;

  // --set: GPU parameters (lower_snake keys of the config table) or RTL parameters.
  std::vector<std::string> rtl_sets;
  for (const auto& kv : o.sets) {
    if (is_gpu_key(kv))
      arc::config::apply_override(gpu, kv);
    else
      rtl_sets.push_back(kv);
  }
  const auto rtl = arc::area::scan_rtl(opt.rtl_dir);
  const auto params = arc::area::parse_rtl_params(rtl, rtl_sets);

  if (o.sweep) {
    const auto s = arc::area::sweep_area(gpu, params, opt);
    const auto files = arc::area::write_sweep(s, o.out, opt);
    if (o.json) {
      std::cout << fmt::format("{{\"csv\": \"{}\", \"png\": \"{}\", \"points\": {}}}\n", files[0], files[1],
                               s.points.size());
      return;
    }
    fmt::print("ARC-HW area sweep for {} (one parameter at a time around the defaults)\n{}\n\n", gpu.name,
               arc::area::kDisclaimer);
    fmt::print("{:<12} {:>6} {:>16} {:>10} {:>10} {:>12} {:>10}\n", "parameter", "value", "per sub-core T",
               "cells", "NAND2-eq", "GPU ARC T", "of die");
    for (const auto& p : s.points)
      fmt::print("{:<12} {:>6} {:>16} {:>10} {:>10.0f} {:>12} {:>9.4f}%\n", p.param, p.value,
                 p.report.per_subcore_transistors, p.report.per_subcore_cells, p.report.per_subcore_nand2_eq,
                 p.report.gpu_arc_transistors, 100.0 * p.report.fraction);
    for (const auto& n : s.notes) fmt::print("note: {}\n", n);
    fmt::print("wrote {} and {}\n", files[0], files[1]);
    return;
  }
  const auto report = arc::area::compute_area(gpu, params, opt);
  std::cout << (o.json ? arc::area::format_json(report) + "\n" : arc::area::format_table(report));
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand(
      "area",
      "ARC-HW area: synthesize every ARC module in rtl/ with Yosys (generic CMOS cells) and report cells, NAND2 "
      "equivalents and transistors per module, per sub-core (arc_subcore_top) and per GPU, beside the paper's "
      "70K transistors per FPU. Estimates from a generic CMOS cell set, not sign-off area.");
  auto* gpu = sub->add_option("--gpu", opt->gpu, "GPU from cosim/configs: rtx4090, rtx3060, h100")
                  ->capture_default_str();
  sub->add_option("--config", opt->config, "GPU config file (TOML) instead of --gpu")->excludes(gpu);
  sub->add_flag("--json", opt->json,
                "print JSON instead of the table (deterministic: no run time or cache state; the table shows them)");
  sub->add_option("--set", opt->sets,
                  "PARAM=VALUE, repeatable: an RTL parameter (e.g. FTZ=0, AddrWidth=48) or a GPU parameter "
                  "(e.g. sms=100)");
  sub->add_flag("--sweep", opt->sweep,
                "sweep adder pipeline depth, FTZ, address width and lanes per cycle (those the RTL exposes)");
  sub->add_option("--out", opt->out, "folder for the sweep's area_sweep.csv and area_sweep.png");
  sub->add_option("--cache-dir", opt->cache_dir,
                  "cache of Yosys reports (default: $ARCSIM_CACHE_DIR, else <build>/area-cache, else "
                  "$XDG_CACHE_HOME/arcsim)");
  sub->add_flag("--no-cache", opt->no_cache, "always run Yosys, store nothing");
  sub->add_option("--gate-ps", opt->gate_ps,
                  "timing model: delay of one gate level in ps (logic depth from Yosys ltp; a register adds 3 "
                  "levels); says which adder Stages the GPU's clock needs")
      ->capture_default_str();
  sub->footer("\n" + arc::config::params_help() +
              "Environment: ARCSIM_CONFIG_DIR (GPU configs), ARCSIM_RTL_DIR (RTL), YOSYS, ARCSIM_CACHE_DIR, "
              "ARCSIM_PYTHON (sweep plot).");
  sub->callback([opt] { run(*opt); });
}

ARCSIM_SUBCOMMAND(20, setup);

}  // namespace
}  // namespace arc::cli::cmd_area
