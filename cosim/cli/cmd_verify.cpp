// arcsim verify: replay a warp-atomic trace through the Verilated ARC sub-core top and the
// golden model; the RTL must match the golden model and the GPU's SW-S partial sums bit for
// bit. Exit 1 on any mismatch.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "error.h"
#include "fst_check.h"
#include "options.h"
#include "progress.h"
#include "subcommand.h"
#include "trace.h"
#include "verify.h"

namespace arc::cli::cmd_verify {  // named, so the unity build can batch the subcommands
namespace {

constexpr const char* kImageNote =
    "the GPU's atomics reach memory in a nondeterministic order and float addition is not associative, so "
    "the final buffer of a real GPU run can differ from any in-order replay; these are reported, not failed";

struct Options {
  std::string trace;
  bool json = false;
  std::string wave;
  int ftz = -1;
  std::string mode = "trace";
  int64_t threshold = -1;
  double busy_prob = 0.5;
  uint64_t seed = 1;
  uint64_t limit = 0;
  bool threshold_given = false, busy_prob_given = false, seed_given = false;  // on the command line
};

nlohmann::json image_json(const arc::verify::ImageCompare& c) {
  return {{"words", c.words},           {"exact", c.exact},
          {"differ", c.differ},         {"nonfinite_differ", c.nonfinite_differ},
          {"max_ulp", c.max_ulp},       {"max_rel_error", c.max_rel_error},
          {"worst_word", c.worst_word}};
}

void print_image(const char* what, const arc::verify::ImageCompare& c) {
  fmt::print("{:<34} {} of {} words exact, {} differ (max {} ULP at word {}, max rel. error {:.3g}, {} non-finite)\n",
             what, c.exact, c.words, c.differ, c.max_ulp, c.worst_word, c.max_rel_error, c.nonfinite_differ);
}

arc::golden::SchedMode mode_from_name(const std::string& s) {
  using arc::golden::SchedMode;
  for (SchedMode m : {SchedMode::Never, SchedMode::Always, SchedMode::Threshold, SchedMode::Dynamic})
    if (s == arc::golden::to_string(m)) return m;
  throw arc::Error("unknown scheduler mode '" + s + "'");
}

void run(const Options& o) {
  // An option the chosen mode does not read is refused, not ignored.
  if (o.threshold_given && o.mode != "threshold")
    throw arc::Error(fmt::format("--threshold applies to --mode threshold only (--mode {} does not read it)", o.mode));
  if ((o.busy_prob_given || o.seed_given) && o.mode != "dynamic")
    throw arc::Error(fmt::format("{} applies to --mode dynamic only (--mode {} has no busy input)",
                                 o.busy_prob_given ? "--busy-prob" : "--seed", o.mode));
  arc::verify::VerifyOptions v;
  v.trace_path = o.trace;
  if (o.ftz >= 0) v.ftz = o.ftz ? arc::fp::FtzMode::Flush : arc::fp::FtzMode::Keep;
  if (o.mode != "trace") v.mode = mode_from_name(o.mode);
  if (o.threshold >= 0) v.threshold = static_cast<uint32_t>(o.threshold);
  v.busy_prob = o.busy_prob;
  v.seed = o.seed;
  arc::check_outputs({{"--trace", o.trace}}, {{"--wave", o.wave}});
  std::optional<arc::AtomicFile> wave;  // the FST appears at --wave only when complete
  if (!o.wave.empty()) wave.emplace(o.wave);
  v.fst_path = wave ? wave->temp_path() : "";
  v.limit = o.limit;
  std::error_code ec;
  const auto size = std::filesystem::file_size(o.trace, ec);
  arc::Progress bar("verify (trace bytes)", ec ? 0 : size, true);
  v.progress = [&](uint64_t done, uint64_t) { bar.update(done); };
  const auto r = arc::verify::verify_trace(v);
  if (!r.image_checked) {
    // --limit stopped the replay early: the rest of the file is still read and checked (every
    // record decoded and checked, not replayed; the final buffer, warp table and end block, and
    // the warp table against the records), so a truncated or corrupt trace fails here as it
    // does without --limit.
    arc::trace::Reader rest(o.trace);
    while (rest.next()) {
    }
  }
  bar.finish();
  if (wave) {
    arc::sim::check_fst_reads_back(wave->temp_path(), wave->path());
    wave->commit();
  }
  const bool failed =
      r.rtl_vs_golden_mismatches != 0 || r.rtl_vs_gpu_mismatches != 0 || r.gpu_vs_golden_tree_mismatches != 0;
  arc::cli::exit_code() = failed ? 1 : 0;
  if (o.json) {
    nlohmann::json j = {{"trace", o.trace},
                        {"gpu_name", r.gpu_name},
                        {"kernel_name", r.kernel_name},
                        {"method", r.method},
                        {"trace_reduce_ftz", r.trace_reduce_ftz},
                        {"sched", {{"mode", r.mode},
                                   {"threshold", r.mode == "threshold" ? nlohmann::json(r.sched.threshold) : nlohmann::json()},
                                   {"trace_mode_instructions", {{"never", r.instrs_never},
                                                                {"threshold", r.instrs_threshold},
                                                                {"always", r.instrs_always}}},
                                   {"adder_ftz", static_cast<int>(r.sched.adder_ftz)},
                                   {"busy_prob", r.busy_prob},
                                   {"seed", r.mode == "dynamic" ? nlohmann::json(o.seed) : nlohmann::json()}}},
                        {"instructions", r.instructions},
                        {"lanes", r.lanes},
                        {"transactions", r.transactions},
                        {"reduced_transactions", r.reduced_transactions},
                        {"rtl_cycles", r.rtl_cycles},
                        {"rtl_vs_golden_mismatches", r.rtl_vs_golden_mismatches},
                        {"gpu_sums_checked", r.gpu_sums_checked},
                        {"rtl_vs_gpu_mismatches", r.rtl_vs_gpu_mismatches},
                        {"rtl_vs_gpu_value_mismatches", r.rtl_vs_gpu_value_mismatches()},
                        {"gpu_groups_not_reduced_by_rtl", r.gpu_groups_not_reduced_by_rtl},
                        {"gpu_tree_sums_checked", r.gpu_tree_sums_checked},
                        {"gpu_group_tree_sums_checked", r.gpu_group_tree_sums_checked},
                        {"gpu_pair_sums_checked", r.gpu_pair_sums_checked},
                        {"gpu_vs_golden_tree_mismatches", r.gpu_vs_golden_tree_mismatches},
                        {"gpu_sums_unchecked", r.gpu_sums_unchecked},
                        {"rtl_groups_reduced_without_gpu_sum", r.rtl_groups_reduced_without_gpu_sum},
                        {"first_mismatches", r.first_mismatches},
                        {"passed", !failed}};
    // No wall-clock keys: the same trace and flags give byte-identical JSON (tests/determinism).
    // The replay's time and rate are in the text output only.
    if (r.image_checked) {
      j["final_buffer"] = {{"golden_replay_vs_gpu", image_json(r.golden_image)},
                           {"method_replay_vs_gpu", image_json(r.method_image)},
                           {"note", kImageNote}};
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  fmt::print("trace      {} ({} on {}, method {}, partial sums FTZ={})\n", o.trace, r.kernel_name, r.gpu_name, r.method,
             r.trace_reduce_ftz);
  const std::string sched =
      r.mode == "trace"
          ? fmt::format("following the GPU's groups ({} instructions never, {} threshold, {} always)", r.instrs_never,
                        r.instrs_threshold, r.instrs_always)
          : r.mode == "threshold" ? fmt::format("mode threshold ({} lanes)", r.sched.threshold)
          : r.mode == "dynamic"   ? fmt::format("mode dynamic (busy with probability {}, seed {})", r.busy_prob, o.seed)
                                  : fmt::format("mode {}", r.mode);
  fmt::print("RTL        arc_subcore_top, scheduler {}, reduction adder FTZ={}{}\n", sched,
             static_cast<int>(r.sched.adder_ftz),
             static_cast<int>(r.sched.adder_ftz) != r.trace_reduce_ftz ? " (differs from the trace's!)" : "");
  fmt::print("replayed   {} instructions, {} lane updates, {} RTL transactions ({} reduced), {} RTL cycles, {:.1f} s "
             "({:.3g} lane updates/s)\n",
             r.instructions, r.lanes, r.transactions, r.reduced_transactions, r.rtl_cycles, r.seconds,
             r.seconds > 0 ? static_cast<double>(r.lanes) / r.seconds : 0.0);
  fmt::print("RTL vs golden model         {} mismatches (bit-exact, in order)\n", r.rtl_vs_golden_mismatches);
  // Two ways to differ from the GPU, each failing the run: a sum with other bits, and a group the
  // GPU reduced that the RTL did not (so has no sum to compare).
  fmt::print("RTL vs GPU partial sums     {} mismatches of {} GPU sums checked; {} GPU-reduced groups the RTL did not "
             "reduce ({} RTL-reduced groups had no GPU sum)\n",
             r.rtl_vs_gpu_value_mismatches(), r.gpu_sums_checked,
             r.gpu_groups_not_reduced_by_rtl, r.rtl_groups_reduced_without_gpu_sum);
  if (r.gpu_tree_sums_checked)
    fmt::print("GPU tree sums vs golden       {} mismatches of {} tree sums: {} butterfly, {} group-tree, {} pair (the "
               "RTL sums serially, so these are checked against golden::butterfly_sum / golden::group_tree_sum)\n",
               r.gpu_vs_golden_tree_mismatches, r.gpu_tree_sums_checked,
               r.gpu_tree_sums_checked - r.gpu_group_tree_sums_checked - r.gpu_pair_sums_checked,
               r.gpu_group_tree_sums_checked, r.gpu_pair_sums_checked);
  if (r.gpu_sums_unchecked)
    fmt::print("GPU library sums              {} not checked (the library's summation order is not modelled)\n",
               r.gpu_sums_unchecked);
  for (const auto& m : r.first_mismatches) fmt::print("  mismatch: {}\n", m);
  if (r.image_checked) {
    print_image("golden replay vs GPU buffer", r.golden_image);
    print_image("GPU-method replay vs GPU buffer", r.method_image);
    fmt::print("note: {}\n", kImageNote);
  } else {
    fmt::print("final buffer not compared (--limit stopped the replay early)\n");
  }
  fmt::print("{}\n", failed ? "FAILED" : "PASSED");
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("verify",
                                 "Replay a trace through the Verilated ARC sub-core top and the golden model: RTL vs "
                                 "golden and RTL vs the GPU's partial sums, bit for bit; final buffer vs replay.");
  sub->add_option("--trace", o->trace, "trace file (cosim/trace/FORMAT.md)")->required();
  sub->add_flag("--json", o->json,
                "print JSON instead of text (deterministic: no wall-clock time; the text output shows it)");
  sub->add_option("--wave", o->wave, "write the RTL's FST waveform here (use --limit: it grows fast)");
  sub->add_option("--ftz", o->ftz, "reduction adder FTZ of RTL and golden (default: the trace's partial-sum mode)")
      ->check(CLI::IsMember({0, 1}));
  sub->add_option("--mode", o->mode,
                  "scheduler mode driven into the RTL: trace (per instruction, reduce the groups the GPU reduced), "
                  "never, always, threshold, dynamic")
      ->check(CLI::IsMember({"trace", "never", "always", "threshold", "dynamic"}))
      ->capture_default_str();
  auto* threshold = sub->add_option("--threshold", o->threshold,
                                    "threshold mode: groups of >= N lanes are reduced (default: the trace's balancing "
                                    "threshold)")
                        ->transform(arc::cli::int_in(0, 32));
  auto* busy_prob = sub->add_option("--busy-prob", o->busy_prob,
                                    "dynamic mode: probability the busy input is set per instruction")
                        ->transform(arc::cli::real_in(0, 1))
                        ->capture_default_str();
  auto* seed = sub->add_option("--seed", o->seed, "dynamic mode: seed of the busy input (printed with the result)")
                   ->transform(arc::cli::count_in(0, UINT64_MAX))
                   ->capture_default_str();
  sub->add_option("--limit", o->limit,
                  "replay only the first N instructions (0: all); the rest of the trace is still read and checked to "
                  "its end (decoded, not replayed), so a corrupt or truncated file fails as without --limit")
      ->transform(arc::cli::count_in(0, UINT64_MAX))
      ->capture_default_str();
  sub->callback([o, threshold, busy_prob, seed] {
    o->threshold_given = threshold->count() > 0;
    o->busy_prob_given = busy_prob->count() > 0;
    o->seed_given = seed->count() > 0;
    run(*o);
  });
}

ARCSIM_SUBCOMMAND(50, setup);

}  // namespace
}  // namespace arc::cli::cmd_verify
