// arcsim sweep --backend local end to end: 8 points in parallel, one atomically written JSON
// per point, resume (finished points are not run again), a failing point recorded while the
// others finish, run-point doing exactly what the local backend does, merge (stable columns,
// rows by id, derived speedup) and a plot.
#include <nlohmann/json.hpp>
#include <set>

#include "sweep_test_util.h"

namespace {

using namespace sweeptest;

SWEEP_TEST_COUNTS;

const char* kSpec = R"(
name = "local"
gpu = "h100"
metrics = ["total_cycles", "requests_to_l2", "reductions_in_core.groups", "speedup_vs_baseline"]
[set]
sms = 4
[axes]
mode = ["baseline", "arc-hw"]
rop_units = [4, 8]
lsu_queue_depth = [32, 64]
[trace.gen.tiny]
instructions = 300
sms = 4
)";

std::set<std::string> files_in(const fs::path& d) {
  std::set<std::string> s;
  for (const auto& e : fs::directory_iterator(d)) s.insert(e.path().filename().string());
  return s;
}

TEST(SweepLocal, RunResumeMerge) {
  const fs::path d = scratch();
  write_text(d / "spec.toml", kSpec);
  const CmdResult r = arcsim("sweep spec.toml --backend local -j 2 --out out", d);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("8 points (0 done before, 8 run, 0 failed)"), std::string::npos) << r.out;
  const auto files = files_in(d / "out/points");
  EXPECT_EQ(files.size(), 8u);  // no temporaries left behind
  for (const auto& f : files) EXPECT_EQ(f.size(), 16u + 5u) << f;  // <16 hex>.json

  // Each point file holds its parameters and the full `arcsim sim --json`.
  const auto one = nlohmann::json::parse(slurp(d / "out/points" / *files.begin()));
  EXPECT_EQ(one["result"]["runs"].size(), 1u);
  EXPECT_EQ(one["result"]["trace"], "traces/tiny.arctrace");
  EXPECT_TRUE(one["params"]["set"].contains("rop_units"));

  // Merged table: header in a stable order, one row per point sorted by id.
  const std::string csv = slurp(d / "out/results.csv");
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "id,trace,lsu_queue_depth,mode,rop_units,status,total_cycles,requests_to_l2,"
            "reductions_in_core.groups,speedup_vs_baseline,error");
  EXPECT_EQ(count_lines(csv), 9u);
  const auto table = nlohmann::json::parse(slurp(d / "out/results.json"));
  ASSERT_EQ(table["points"].size(), 8u);
  std::string prev;
  std::map<std::string, double> base_cycles;
  for (const auto& row : table["points"]) {
    EXPECT_LT(prev, row["id"].get<std::string>());
    prev = row["id"];
    EXPECT_EQ(row["status"], "ok");
    if (row["mode"] == "baseline") {
      EXPECT_EQ(row["speedup_vs_baseline"], 1.0);
      base_cycles[row["rop_units"].dump() + row["lsu_queue_depth"].dump()] = row["total_cycles"];
    }
  }
  for (const auto& row : table["points"])
    if (row["mode"] == "arc-hw") {
      const double base = base_cycles.at(row["rop_units"].dump() + row["lsu_queue_depth"].dump());
      EXPECT_DOUBLE_EQ(row["speedup_vs_baseline"].get<double>(), base / row["total_cycles"].get<double>());
      EXPECT_LT(row["requests_to_l2"].get<int>(), 300 * 32);
    }

  // Resume: nothing runs again, files untouched; a deleted point is the only one re-run.
  const auto stamp = fs::last_write_time(d / "out/points" / *files.begin());
  const CmdResult again = arcsim("sweep spec.toml --backend local -j 2 --out out", d);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("(8 done before, 0 run, 0 failed)"), std::string::npos) << again.out;
  EXPECT_EQ(fs::last_write_time(d / "out/points" / *files.begin()), stamp);
  fs::remove(d / "out/points" / *files.rbegin());
  const CmdResult third = arcsim("sweep spec.toml --backend local --out out", d);
  EXPECT_NE(third.out.find("(7 done before, 1 run, 0 failed)"), std::string::npos) << third.out;
  EXPECT_EQ(slurp(d / "out/results.csv"), csv) << "a re-run point must give the same table";

  // run-point: the Slurm task's entry point writes the same file as the local backend.
  const std::string first = *files.begin(), before = slurp(d / "out/points" / first);
  fs::remove(d / "out/points" / first);
  const auto plan = nlohmann::json::parse(slurp(d / "out/plan.json"));
  size_t index = 0;
  while (plan["points"][index]["id"].get<std::string>() + ".json" != first) ++index;
  ASSERT_EQ(arcsim("sweep run-point out " + std::to_string(index), d).code, 0);
  auto a = nlohmann::json::parse(before), b = nlohmann::json::parse(slurp(d / "out/points" / first));
  a.erase("wall_seconds");
  b.erase("wall_seconds");
  EXPECT_EQ(a, b);

  // A plot of one metric against one axis, grouped by another.
  const CmdResult plot = arcsim("sweep merge out --plot rop_units:total_cycles:mode", d);
  ASSERT_EQ(plot.code, 0) << plot.err;
  const std::string png = slurp(d / "out/plot_total_cycles_vs_rop_units_by_mode.png");
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  const CmdResult badplot = arcsim("sweep merge out --plot rop_units:cycles", d);
  EXPECT_EQ(badplot.code, 2);
  EXPECT_NE(badplot.err.find("'cycles' is not a metric"), std::string::npos) << badplot.err;
}

TEST(SweepLocal, FailedPointRecordedOthersContinue) {
  const fs::path d = scratch();
  ASSERT_EQ(arcsim("trace gen -q -n 200 --sms 4 -o good.arctrace", d).code, 0);
  write_text(d / "broken.arctrace", "this is not a trace\n");
  write_text(d / "spec.toml", R"(
gpu = "h100"
metrics = ["total_cycles"]
[set]
sms = 4
[axes]
rop_units = [4, 8]
[trace]
files = ["good.arctrace", "broken.arctrace"]
)");
  const CmdResult r = arcsim("sweep spec.toml -j 2 --out out", d);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.out.find("4 points (0 done before, 4 run, 2 failed)"), std::string::npos) << r.out;
  size_t ok = 0, errors = 0;
  for (const auto& f : files_in(d / "out/points")) {
    if (f.find(".error.json") != std::string::npos) {
      ++errors;
      const auto e = nlohmann::json::parse(slurp(d / "out/points" / f));
      EXPECT_EQ(e["trace"], "broken");
      EXPECT_EQ(e["exit"], "exit 2");
      EXPECT_EQ(e["error"].get<std::string>().rfind("arcsim: error: ", 0), 0u) << e["error"];
    } else {
      ++ok;
    }
  }
  EXPECT_EQ(ok, 2u);
  EXPECT_EQ(errors, 2u);
  const std::string csv = slurp(d / "out/results.csv");
  EXPECT_EQ(count_lines(csv), 5u);
  EXPECT_NE(csv.find(",failed,,"), std::string::npos) << csv;
  // The failed points are tried again on the next run (and fail again); the good ones are not.
  const CmdResult again = arcsim("sweep spec.toml -j 2 --out out", d);
  EXPECT_EQ(again.code, 1);
  EXPECT_NE(again.out.find("(2 done before, 2 run, 2 failed)"), std::string::npos) << again.out;
}

TEST(SweepLocal, SlurmBackendWithoutSlurmSaysSo) {
  const fs::path d = scratch();
  write_text(d / "spec.toml", kSpec);
  const CmdResult r = arcsim("sweep spec.toml --backend slurm --out out", d, "PATH=/nonexistent");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'sbatch' not found on PATH"), std::string::npos) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(d / "out")) << "nothing is written before the check";
}

}  // namespace
