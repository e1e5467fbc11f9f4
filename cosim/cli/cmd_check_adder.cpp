// arcsim check-adder: stream random and special vectors through the Verilated arc_fp32_add
// and the MPFR reference, bit for bit, in each FTZ mode.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "adder_check.h"
#include "adder_dut.h"
#include "fp32_vectors.h"
#include "options.h"
#include "progress.h"
#include "subcommand.h"

namespace arc::cli::cmd_check_adder {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  uint64_t vectors = 1'000'000;
  uint64_t seed = 0;
  bool seed_given = false;  // else a fresh seed each run (printed: --seed repeats it)
  std::string ftz = "both";
  bool json = false;
};

void run(Options o) {
  if (!o.seed_given) o.seed = arc::fp::fresh_seed();
  std::vector<arc::fp::FtzMode> modes;
  if (o.ftz == "1" || o.ftz == "both") modes.push_back(arc::fp::FtzMode::Flush);
  if (o.ftz == "0" || o.ftz == "both") modes.push_back(arc::fp::FtzMode::Keep);
  const uint64_t specials = uint64_t{arc::fp::special_values().size()} * arc::fp::special_values().size();
  nlohmann::json out = {{"random_vectors_per_mode", o.vectors},
                        {"special_pairs_per_mode", specials},
                        {"seed", o.seed},
                        {"modes", nlohmann::json::array()}};
  bool any_failed = false;
  if (!o.json) {
    fmt::print("arc_fp32_add (Verilated RTL) vs MPFR reference, seed {}{}: per FTZ mode every pair of {} special "
               "values ({} vectors) and {} random vectors\n",
               o.seed, o.seed_given ? "" : " (fresh; --seed repeats it)", arc::fp::special_values().size(), specials,
               o.vectors);
    fmt::print("{:<6} {:>12} {:>12} {:>8} {:>10}\n", "FTZ", "vectors", "passed", "failed", "seconds");
  }
  for (auto mode : modes) {
    const int ftz = static_cast<int>(mode);
    arc::dut::AdderDut dut(mode);
    arc::Progress bar(fmt::format("FTZ={}", ftz), specials + o.vectors, !o.json);
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = arc::fp::check_adder([&](uint32_t a, uint32_t b) { return dut(a, b); }, mode, o.vectors,
                                        o.seed, 8, [&](uint64_t done, uint64_t) { bar.update(done); });
    bar.finish();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    any_failed |= r.failed != 0;
    nlohmann::json m = {{"ftz", ftz}, {"vectors", r.passed + r.failed}, {"passed", r.passed},
                        {"failed", r.failed}, {"special_pairs", r.special_pairs}};
    for (const auto& mm : r.first_mismatches) m["first_mismatches"].push_back(arc::fp::describe(mm));
    out["modes"].push_back(m);
    if (!o.json) {
      fmt::print("{:<6} {:>12} {:>12} {:>8} {:>10.2f}\n", ftz, r.passed + r.failed, r.passed, r.failed, secs);
      for (const auto& mm : r.first_mismatches) fmt::print("  mismatch {}\n", arc::fp::describe(mm));
    }
  }
  if (o.json) std::cout << out.dump(2) << "\n";
  arc::cli::exit_code() = any_failed ? 1 : 0;
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("check-adder",
                                 "Check the Verilated FP32 adder (rtl/arc_fp32_add.sv) bit for bit against the "
                                 "MPFR reference: every pair of special values plus N random vectors per FTZ mode.");
  sub->add_option("-n,--vectors", opt->vectors, "random vectors per FTZ mode")
      ->transform(arc::cli::count_in(0, 1'000'000'000'000))
      ->capture_default_str();
  auto* seed = sub->add_option("--seed", opt->seed, "seed of the vector generator (default: a fresh one, printed)")
                   ->transform(arc::cli::count_in(0, UINT64_MAX));
  sub->add_option("--ftz", opt->ftz, "FTZ mode to check: 1 (flush, as red.add.f32), 0 (IEEE subnormals) or both")
      ->check(CLI::IsMember({"0", "1", "both"}))
      ->capture_default_str();
  sub->add_flag("--json", opt->json,
                "print JSON instead of the table (no wall-clock time, so with --seed the same bytes every run; the "
                "table shows the time)");
  sub->callback([opt, seed] {
    opt->seed_given = seed->count() > 0;
    run(*opt);
  });
}

ARCSIM_SUBCOMMAND(10, setup);

}  // namespace
}  // namespace arc::cli::cmd_check_adder
