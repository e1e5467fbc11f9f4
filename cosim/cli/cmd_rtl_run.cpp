// arcsim rtl-run: run warp instructions through the Verilated ARC-HW top (rtl/arc_subcore_top)
// and check every transaction against the golden model; optionally write an FST waveform.
#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <optional>

#include "golden.h"
#include "atomic_file.h"
#include "fst_check.h"
#include "options.h"
#include "progress.h"
#include "subcommand.h"
#include "subcore_check.h"
#include "subcore_dut.h"
#include "warp_gen.h"

namespace arc::cli::cmd_rtl_run {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  uint64_t vectors = 10'000;
  uint64_t seed = 1;
  int ftz = 1;
  double ready = 1.0;
  double valid = 1.0;
  std::string fst;
};

void run(const Options& o) {
  using namespace arc;
  const auto ftz = o.ftz ? fp::FtzMode::Flush : fp::FtzMode::Keep;
  dut::SubcoreOptions opt;
  opt.ftz = ftz;
  opt.out_ready_prob = o.ready;
  opt.in_valid_prob = o.valid;
  opt.seed = o.seed;
  std::optional<AtomicFile> fst;  // the FST appears at --fst only when complete
  if (!o.fst.empty()) fst.emplace(o.fst);
  opt.fst_path = fst ? fst->temp_path() : "";
  auto dp = std::make_unique<dut::SubcoreDut>(opt);
  dut::SubcoreDut& d = *dp;
  dut::CheckCounts directed, random;
  const auto t0 = std::chrono::steady_clock::now();
  dut::run_and_check(d, golden::directed_cases(ftz), directed);
  golden::WarpGen gen(o.seed);
  Progress bar("rtl-run", o.vectors);
  std::vector<golden::WarpCase> batch;
  for (uint64_t done = 0; done < o.vectors;) {
    batch.clear();
    for (; batch.size() < 4096 && done < o.vectors; ++done) batch.push_back(gen.next(ftz));
    dut::run_and_check(d, batch, random);
    bar.update(done);
  }
  bar.finish();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const uint64_t cycles = d.cycle();
  dp.reset();  // closes the waveform
  if (fst) {
    arc::sim::check_fst_reads_back(fst->temp_path(), fst->path());
    fst->commit();
  }
  fmt::print("arc_subcore_top (Verilated, FTZ={}) vs arc::golden, seed {}, txn_ready p={}, instr_valid p={}\n", o.ftz,
             o.seed, o.ready, o.valid);
  fmt::print("directed: {} passed, {} failed\n", directed.passed, directed.failed);
  fmt::print("random:   {} passed, {} failed\n", random.passed, random.failed);
  fmt::print("{} transactions in {} cycles ({:.2f} s)\n", directed.transactions + random.transactions, cycles, secs);
  for (const auto* c : {&directed, &random})
    for (const auto& f : c->first_failures) fmt::print("mismatch: {}\n", f);
  if (!o.fst.empty()) fmt::print("waveform: {} (open with gtkwave)\n", o.fst);
  cli::exit_code() = (directed.failed + random.failed) ? 1 : 0;
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* sub = app.add_subcommand("rtl-run",
                                 "Run the directed corners plus N random warp instructions through the Verilated "
                                 "ARC-HW top (rtl/arc_subcore_top.sv), compare every transaction with the golden "
                                 "model, optionally with random back-pressure and an FST waveform.");
  sub->add_option("-n,--vectors", opt->vectors, "random instructions after the directed ones")
      ->transform(arc::cli::count_in(0, 10'000'000'000))
      ->capture_default_str();
  sub->add_option("--seed", opt->seed, "seed of the instruction generator and of back-pressure")
      ->transform(arc::cli::count_in(0, UINT64_MAX))
      ->capture_default_str();
  sub->add_option("--ftz", opt->ftz, "reduction adder: 1 flushes subnormals (red.add.f32), 0 keeps them")
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  sub->add_option("--ready-prob", opt->ready, "probability txn_ready_i is high in a cycle")
      ->transform(arc::cli::real_in(0.01, 1.0))
      ->capture_default_str();
  sub->add_option("--valid-prob", opt->valid, "probability a waiting instruction is offered in a cycle")
      ->transform(arc::cli::real_in(0.01, 1.0))
      ->capture_default_str();
  sub->add_option("--fst", opt->fst, "write an FST waveform of the run to this file (use a small -n)")
      ->check(arc::cli::nonempty());
  sub->callback([opt] { run(*opt); });
}

ARCSIM_SUBCOMMAND(15, setup);

}  // namespace
}  // namespace arc::cli::cmd_rtl_run
