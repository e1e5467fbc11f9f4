// Command-line options of arc_bench (the GPU benchmark, checks and trace capture).
// Host-only so CPU tests can exercise parsing.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace arc::sw {

// A reduce method as the benchmark names it, e.g. "sws", "baseline-v4", "block-cas-clamp",
// "baseline-noatomic": name, then options in this order: -v2/-v4 float2/float4 atomics
// (sm_90), -cas compare-and-swap loop adds, -noatomic plain racy adds (the no-atomics timing
// bound: numerically WRONG by construction), -clamp gradients clamped to [-10, 10], -skip the
// empty-warp skip (ballot + popc; Baseline is the method without it).
struct MethodSpec {
  std::string name;  // baseline, sws, swb, cub, adaptive, block, gsplat, swt, floor, shm, tile, regroup
  int vec = 1;
  std::string add = "atomic";  // atomic, cas, noatomic
  bool clamp = false;
  bool skip = false;
  MethodSpec() = default;
  MethodSpec(std::string n, int v) : name(std::move(n)), vec(v) {}
  std::string label() const {
    std::string s = name;
    if (vec != 1) s += "-v" + std::to_string(vec);
    if (add != "atomic") s += "-" + add;
    if (clamp) s += "-clamp";
    if (skip) s += "-skip";
    return s;
  }
  bool bound() const { return add == "noatomic"; }  // the racy no-atomics timing bound
  // The compute floor (issue 20): the backward pass with no gradient write. A floor, never a
  // result: gradients WRONG by construction, never checked.
  bool floor() const { return name == "floor"; }
  std::string label_base() const { return vec == 1 ? name : name + "-v" + std::to_string(vec); }
};

struct BenchArgs {
  // gs = separate gradient arrays (the real codes' layout, issue 23), gs-il = the interleaved
  // record (float4 atomics); gs-garden / gs-object: Gaussians on surfaces.
  std::vector<std::string> workloads{"gs", "gs-il", "pulsar", "tex"};
  std::vector<MethodSpec> methods{{"baseline", 1}, {"sws", 1}, {"swb", 1}, {"cub", 1}, {"adaptive", 1}};
  std::vector<int> thresholds{1, 2, 4, 8, 12, 16, 24, 32};
  std::vector<int> opt_thresholds{1, 2, 8, 16};  // for -cas / -clamp variants of SW-S / SW-B
  int reps = 20;
  int warmup = 3;
  int width = 1920, height = 1080;
  size_t gaussians = 500000;
  size_t spheres = 300000;
  int tex_w = 1024, tex_h = 1024;
  uint64_t seed = 1;
  std::string out_dir;  // where bench.json / bench.csv go ("" = none)
  bool check = true;    // every method vs Baseline (--no-check: timing only)
  bool fd = false;      // finite differences on tiny scenes
  // Trace capture (instead of the benchmark when trace_path is set).
  std::string trace_path;
  std::string trace_workload = "gs-il";  // traces need one buffer and a stride
  std::string trace_method = "sws";
  int trace_threshold = 1;
  int trace_width = 64, trace_height = 48;
  size_t trace_prims = 600;
  bool trace_timing_only = false;  // --trace-timing-only: no lane values, sums or final buffer (FORMAT.md)
  std::vector<std::pair<std::string, std::string>> meta;  // --meta key=value, copied to results
};

// Parses argv (argv[0] skipped). Throws arc::Error with a one-line message on bad input.
BenchArgs parse_args(const std::vector<std::string>& argv);
std::string usage();

// Helpers, exposed for tests.
std::vector<std::string> split_list(const std::string& s);  // "a,b,,c" -> {a,b,c}
MethodSpec parse_method(const std::string& s);              // "sws", "baseline-v4", "block-cas", ...
bool known_workload(const std::string& w);

}  // namespace arc::sw

namespace CLI {
class App;
}

namespace arc::sw {
// Runs a CLI11 app configured by the caller on argv (argv[0] skipped), adding -h/--help; any
// parse problem or --help throws arc::Error (the message, or the usage text). Shared by
// arc_bench and arc_train so both parse through CLI11.
void parse_cli(CLI::App& app, const std::vector<std::string>& argv, const std::string& usage_text);

}  // namespace arc::sw
