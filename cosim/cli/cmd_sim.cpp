// arcsim sim: run a warp-atomic trace through the SystemC timing model of a GPU, in one or
// more ways of executing its atomics (baseline, ARC-SW serial / butterfly, ARC-HW with a
// scheduler mode), and report cycles, stalls, ROP utilization, LSU occupancy, L2 requests,
// reductions in cores vs at ROPs and the speedup over the baseline.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "error.h"
#include "options.h"
#include "gpu_config.h"
#include "params.h"
#include "report.h"
#include "run.h"
#include "subcommand.h"
#include "trace.h"

namespace arc::cli::cmd_sim {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string gpu, config_file, trace_path, fidelity = "fast", wave;
  std::vector<std::string> modes = {"baseline"}, scheds = {"dynamic"};
  uint32_t threshold = 2;
  uint32_t vector = 0;
  double gap_issue_rate = 0;
  uint64_t stats_interval = 0;
  bool json = false;
  bool host_cost = false;
  bool sched_given = false;  // --sched on the command line (not its default)
  std::vector<std::string> sets;
};

// A mode (or scheduler) listed twice would run the same simulation twice: refused.
void no_duplicates(const std::vector<std::string>& v, const char* flag) {
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (v[i] == v[j]) throw arc::Error(fmt::format("{}: '{}' is listed twice", flag, v[i]));
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
  no_duplicates(o.modes, "--mode");
  no_duplicates(o.scheds, "--sched");
  // Options that only act on some runs: given where no run uses them, they would do nothing.
  const bool arc_hw = std::find(o.modes.begin(), o.modes.end(), "arc-hw") != o.modes.end();
  if (o.sched_given && !arc_hw)
    throw arc::Error("--sched: chooses arc-hw's scheduler, but --mode has no arc-hw");
  if (!o.wave.empty() && !(arc_hw && o.fidelity == "rtl"))
    throw arc::Error("--wave: records the Verilated ARC units, which only --mode arc-hw with --fidelity rtl runs");
  if (o.host_cost && !o.json) throw arc::Error("--host-cost: adds to the JSON report; give --json too");
  RunSpec base;
  base.gpu = arc::config::load_gpu(o.gpu.empty() ? o.config_file : o.gpu);
  base.knobs = base.gpu.knobs;  // the file's [model] table, then --set
  for (const auto& kv : o.sets) apply_set(base, kv);
  base.threshold = o.threshold;
  base.vector = o.vector;
  base.gap_issue_rate = o.gap_issue_rate;
  base.fidelity = fidelity_from_name(o.fidelity);
  base.progress = !o.json;
  base.stats_interval = o.stats_interval;
  std::vector<RunSpec> specs;
  for (const auto& m : o.modes) {
    RunSpec s = base;
    s.mode = mode_from_name(m);
    if (s.mode == Mode::ArcHw) {
      for (const auto& sc : o.scheds) {
        s.sched = sched_from_name(sc);
        specs.push_back(s);
      }
    } else {
      specs.push_back(s);
    }
  }
  if (specs.empty()) throw arc::Error("--mode: no mode given");
  std::vector<arc::NamedPath> waves;
  for (auto& s : specs) {
    s.wave_path = wave_for(o.wave, s.label(), specs.size() > 1);
    validate(s);
    waves.push_back({"--wave", s.wave_path});
  }
  arc::check_outputs({{"--trace", o.trace_path}, {"--config", o.config_file}}, waves);
  // Pass 1 once, here; each mode's child streams the file again (pass 2) while it simulates.
  const arc::sim::TraceSummary summary = arc::sim::summarize(o.trace_path);
  std::vector<RunResult> runs;
  for (const auto& s : specs) runs.push_back(run_isolated(s, o.trace_path, summary));

  ReportInput in;
  in.gpu_name = base.gpu.name;
  in.gpu_source = base.gpu.source_file;
  in.trace_path = o.trace_path;
  in.fidelity = fidelity_name(base.fidelity);
  in.sms = static_cast<uint64_t>(base.gpu.sms);
  in.rop_units = static_cast<uint64_t>(base.gpu.rop_units);
  in.subcores_per_sm = static_cast<uint64_t>(base.gpu.subcores_per_sm);
  in.rop_ops_per_cycle = static_cast<uint64_t>(base.gpu.rop_ops_per_cycle);
  in.clock_ghz = base.gpu.clock_ghz;
  in.scan_seconds = summary.scan_seconds;
  in.warp_table = summary.from_table;
  in.sw_overhead = static_cast<uint32_t>(base.gpu.sw_overhead);
  in.config = arc::config::resolved_json(base.gpu, base.knobs);
  in.host_cost = o.host_cost;
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
  auto* gpu = sub->add_option("--gpu", opt->gpu, "GPU by name (cosim/configs/<name>.toml): " +
                                         fmt::format("{}", fmt::join(arc::config::available_gpus(), ", ")));
  sub->add_option("--config", opt->config_file, "GPU config TOML file")->excludes(gpu);
  sub->add_option("--trace", opt->trace_path, "trace file (arcsim trace gen, or captured on a GPU)")->required();
  sub->add_option("--mode", opt->modes,
                  "comma-separated, each once: baseline, sw-s, sw-b, sw-t (transposed reduce-scatter), adaptive "
                  "(ARC-SW's per-call choice, rule of sw/include/arc/adaptive_rule.h), arc-hw, and the SM-side atomic "
                  "buffers the paper compares with: lab, lab-ideal, phi (fast level only)")
      ->delimiter(',')
      ->check(CLI::IsMember({"baseline", "sw-s", "sw-b", "sw-t", "adaptive", "arc-hw", "lab", "lab-ideal", "phi"}))
      ->capture_default_str();
  auto* sched = sub->add_option("--sched", opt->scheds, "arc-hw scheduler, comma-separated, each once: dynamic, threshold, always, never")
      ->delimiter(',')
      ->check(CLI::IsMember({"dynamic", "threshold", "always", "never"}))
      ->capture_default_str();
  sub->add_option("--threshold", opt->threshold,
                  "group size that is reduced: ARC-SW balancing threshold and the threshold scheduler's T")
      ->transform(arc::cli::count_in(0, 32))
      ->capture_default_str();
  sub->add_option("--vector", opt->vector,
                  "floats per lane update (vector atomics, red.global.add.v2/v4.f32): 0 = as the trace's flags say, "
                  "1 = scalar, 2 / 4 = each call's params leave in chunks of 2 / 4 per lane (baseline, sw-s, sw-b, adaptive)")
      ->transform(arc::cli::count_in(0, 4))
      ->check(CLI::IsMember({0u, 1u, 2u, 4u}))
      ->capture_default_str();
  sub->add_option("--gap-issue-rate", opt->gap_issue_rate,
                  "dispatch slots the workload's own compute takes per cycle of trace gap (0..1; 0 = gaps are "
                  "latency only): the compute floor's warp instructions (ncu smsp__inst_executed) / the trace's summed "
                  "gaps, spread over each gap, so SW reduction instructions compete with the compute for the sub-core's "
                  "dispatch (one instruction per cycle); scripts/gpu-validate.sh measures it with each capture")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_option("--fidelity", opt->fidelity, "ARC unit level: rtl (Verilated RTL) or fast (golden model + RTL timing)")
      ->check(CLI::IsMember({"rtl", "fast"}))
      ->capture_default_str();
  sub->add_option("--wave", opt->wave, "FST waveform of the RTL ARC units (with --fidelity rtl; not the --trace file)")
      ->check(arc::cli::nonempty());
  sub->add_option("--set", opt->sets, "override a GPU parameter or model knob, KEY=VALUE, VALUE as in TOML (repeatable)");
  sub->add_option("--stats-interval", opt->stats_interval,
                  "also record a time series every N cycles (JSON 'series'; 0 = none); a stretch in which no counter changes keeps only its first and last sample")
      ->transform(arc::cli::count_in(0, 1'000'000'000))
      ->capture_default_str();
  sub->add_flag("--json", opt->json, "print JSON instead of the table (with the full resolved configuration)");
  sub->add_flag("--host-cost", opt->host_cost,
                "with --json: add 'host_cost', each run's CPU seconds, peak RSS and trace read-ahead on this host "
                "(these vary run to run, so --json alone leaves them out and stays deterministic)");
  sub->footer("\n" + arc::config::params_help(true));
  sub->callback([opt, sched] {
    opt->sched_given = sched->count() > 0;
    run(*opt);
  });
}

ARCSIM_SUBCOMMAND(60, setup);

}  // namespace
}  // namespace arc::cli::cmd_sim

// libsystemc.so carries its own main() and so needs an sc_main. arcsim has its own main()
// (main.cpp) and runs every SystemC model in a child process through arc::sim::run_isolated(),
// so this entry point is never taken; reaching it would mean the link picked the wrong main.
extern "C" int sc_main(int, char**) {  // declared extern "C" by SystemC
  std::fprintf(stderr, "arcsim: internal error: SystemC's main() was linked instead of arcsim's\n");
  return 3;
}
