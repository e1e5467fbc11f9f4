// bench_sim: speed of the timing model (not a test). For three trace sizes (each 4x the last,
// to show that cost grows linearly) and both ARC-unit levels, prints lane updates per second
// and simulated cycles per second on the H100 config: fast level baseline and ARC-HW (dynamic),
// RTL level ARC-HW dynamic and never (never keeps the Verilated units busiest). The trace is
// streamed from its file as `arcsim sim` does; CPU time = the summary (its warp table) + the run (workload
// build, elaboration, simulation, end check), not wall time: other load skews it little. Also
// prints warp instructions per second, the run's peak resident memory and how many
// instructions it read ahead of the model.
// Usage: bench_sim [scale=1] [sizes=3]  (scale multiplies the trace sizes; sizes: how many of
// the three to run, smallest first: scripts/bench-sim.sh --check re-runs the smallest only)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>
#include <systemc>

#include "gpu_config.h"
#include "run.h"
#include "sim_fixture.h"

int sc_main(int argc, char** argv) {
  using namespace arc::sim;
  const double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  const int sizes = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf("%-6s %-16s %10s %12s %12s %9s %14s %14s %12s %7s %9s\n", "level", "mode", "instrs", "lane updates",
              "sim cycles", "cpu s", "lane upd/s", "cycles/s", "warp ins/s", "RSS MB", "ahead");
  for (Fidelity f : {Fidelity::Fast, Fidelity::Rtl}) {
    const uint64_t base = static_cast<uint64_t>((f == Fidelity::Fast ? 25'000 : 6'000) * scale);
    int step = 0;
    for (uint64_t n : {base, 4 * base, 16 * base}) {
      if (step++ >= sizes) break;
      arc::tracegen::GenConfig g = testing::hot(n, 99);
      g.sms = 132;
      g.warps_per_subcore = 16;
      g.buffer_words = 1u << 20;
      g.gap_mean = 400;
      const std::string path = testing::synthetic_file("bench", g);
      const TraceSummary summary = summarize(path);
      // The baseline has no ARC unit, so it runs once (fast); ARC-HW runs at both levels.
      const std::vector<std::pair<Mode, arc::golden::SchedMode>> runs =
          f == Fidelity::Fast ? std::vector<std::pair<Mode, arc::golden::SchedMode>>{{Mode::Baseline, {}},
                                                                                    {Mode::ArcHw, arc::golden::SchedMode::Dynamic}}
                              : std::vector<std::pair<Mode, arc::golden::SchedMode>>{{Mode::ArcHw, arc::golden::SchedMode::Dynamic},
                                                                                    {Mode::ArcHw, arc::golden::SchedMode::Never}};
      for (const auto& [m, sched] : runs) {
        RunSpec s;
        s.gpu = arc::config::load_gpu("h100");
        s.knobs = s.gpu.knobs;  // h100.toml's [model] table, as `arcsim sim --gpu h100`
        s.mode = m;
        s.sched = sched;
        s.fidelity = f;
        const RunResult r = run_isolated(s, path, summary);
        const double cpu = r.cpu_seconds + summary.scan_seconds;
        std::printf("%-6s %-16s %10llu %12llu %12llu %9.2f %14.0f %14.0f %12.0f %7.0f %9llu\n", fidelity_name(f),
                    r.label.c_str(), static_cast<unsigned long long>(r.stats.instructions),
                    static_cast<unsigned long long>(r.stats.lane_updates),
                    static_cast<unsigned long long>(r.stats.total_cycles), cpu,
                    static_cast<double>(r.stats.lane_updates) / cpu, static_cast<double>(r.stats.total_cycles) / cpu,
                    static_cast<double>(r.stats.instructions) / cpu, static_cast<double>(r.peak_rss_kb) / 1024.0,
                    static_cast<unsigned long long>(r.lookahead_peak));
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
