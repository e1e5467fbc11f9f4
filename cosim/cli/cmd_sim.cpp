// arcsim sim: run a warp-atomic trace through the SystemC timing model of a GPU, in one or
// more ways of executing its atomics (baseline, ARC-SW serial / butterfly, ARC-HW with a
// scheduler mode), and report cycles, stalls, ROP utilization, LSU occupancy, L2 requests,
// reductions in cores vs at ROPs and the speedup over the baseline.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "error.h"
#include "gpu_config.h"
#include "params.h"
#include "report.h"
#include "run.h"
#include "subcommand.h"
#include "trace.h"

namespace {

struct Options {
  std::string gpu, config_file, trace_path, modes = "baseline", scheds = "dynamic", fidelity = "fast", wave;
  uint32_t threshold = 2;
  bool json = false;
  std::vector<std::string> sets;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string wave_for(const std::string& wave, const std::string& label, bool several) {
  if (wave.empty() || !several) return wave;
  std::string tag = label;
  for (char& c : tag)
    if (c == '/') c = '-';
  const auto dot = wave.rfind('.');
  return dot == std::string::npos ? wave + "." + tag : wave.substr(0, dot) + "." + tag + wave.substr(dot);
}

void run(const Options& o) {
  using namespace arc::sim;
  if (o.gpu.empty() == o.config_file.empty()) throw arc::Error("sim: give exactly one of --gpu NAME and --config FILE");
  RunSpec base;
  base.gpu = arc::config::load_gpu(o.gpu.empty() ? o.config_file : o.gpu);
  for (const auto& kv : o.sets) apply_set(base, kv);
  base.threshold = o.threshold;
  base.fidelity = fidelity_from_name(o.fidelity);
  base.progress = !o.json;
  std::vector<RunSpec> specs;
  for (const auto& m : split(o.modes)) {
    RunSpec s = base;
    s.mode = mode_from_name(m);
    if (s.mode == Mode::ArcHw) {
      for (const auto& sc : split(o.scheds)) {
        s.sched = sched_from_name(sc);
        specs.push_back(s);
      }
    } else {
      specs.push_back(s);
    }
  }
  if (specs.empty()) throw arc::Error("--mode: no mode given");
  for (auto& s : specs) {
    s.wave_path = wave_for(o.wave, s.label(), specs.size() > 1);
    validate(s);
  }
  const arc::trace::Trace trace = arc::trace::read_trace(o.trace_path);
  std::vector<RunResult> runs;
  for (const auto& s : specs) runs.push_back(run_isolated(s, trace));

  ReportInput in;
  in.gpu_name = base.gpu.name;
  in.gpu_source = base.gpu.source_file;
  in.trace_path = o.trace_path;
  in.fidelity = fidelity_name(base.fidelity);
  in.sms = static_cast<uint64_t>(base.gpu.sms);
  in.rop_units = static_cast<uint64_t>(base.gpu.rop_units);
  in.rop_ops_per_cycle = static_cast<uint64_t>(base.gpu.rop_ops_per_cycle);
  in.clock_ghz = base.gpu.clock_ghz;
  in.sw_overhead = static_cast<uint32_t>(base.gpu.sw_overhead);
  if (o.json) std::cout << report_json(in, specs, runs).dump(2) << "\n";
  else std::cout << report_table(in, specs, runs);
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand(
      "sim",
      "Simulate a warp-atomic trace cycle by cycle on a GPU model (SystemC: sub-cores, ARC units, LSU queues, "
      "crossbar, L2 atomic units) in one or more modes, and report cycles, atomic stalls, ROP utilization, LSU "
      "occupancy, L2 requests, reductions in cores vs at ROPs and speedup vs baseline.");
  sub->add_option("--gpu", opt->gpu, "GPU by name (cosim/configs/<name>.toml): " +
                                         fmt::format("{}", fmt::join(arc::config::available_gpus(), ", ")));
  sub->add_option("--config", opt->config_file, "GPU config TOML file");
  sub->add_option("--trace", opt->trace_path, "trace file (arcsim trace gen, or captured on a GPU)")->required();
  sub->add_option("--mode", opt->modes, "comma-separated: baseline, sw-s, sw-b, arc-hw")->capture_default_str();
  sub->add_option("--sched", opt->scheds, "arc-hw scheduler, comma-separated: dynamic, threshold, always, never")
      ->capture_default_str();
  sub->add_option("--threshold", opt->threshold,
                  "group size that is reduced: ARC-SW balancing threshold and the threshold scheduler's T")
      ->capture_default_str();
  sub->add_option("--fidelity", opt->fidelity, "ARC unit level: rtl (Verilated RTL) or fast (golden model + RTL timing)")
      ->capture_default_str();
  sub->add_option("--wave", opt->wave, "FST waveform of the RTL ARC units (with --fidelity rtl)");
  sub->add_option("--set", opt->sets, "override a GPU or model parameter, key=value (repeatable)");
  sub->add_flag("--json", opt->json, "print JSON instead of the table");
  sub->callback([opt] { run(*opt); });
}

ARCSIM_SUBCOMMAND(60, setup);

}  // namespace

// libsystemc.so carries its own main() and so needs an sc_main. arcsim has its own main()
// (main.cpp) and runs every SystemC model in a child process through arc::sim::run_isolated(),
// so this entry point is never taken; reaching it would mean the link picked the wrong main.
extern "C" int sc_main(int, char**) {  // declared extern "C" by SystemC
  std::fprintf(stderr, "arcsim: internal error: SystemC's main() was linked instead of arcsim's\n");
  return 3;
}
