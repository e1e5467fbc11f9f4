// Benchmark reports: speedups from the baseline row, CSV and JSON content.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "error.h"
#include "report.h"

using namespace arc::sw;

namespace {
ResultRow row(const std::string& w, const std::string& m, int thr, double g, double f) {
  ResultRow r;
  r.workload = w;
  r.method = m;
  r.threshold = thr;
  r.grad_ms = g;
  r.fwd_ms = f;
  return r;
}
}  // namespace

TEST(SwReport, Speedups) {
  std::vector<ResultRow> rows{row("gs", "baseline", -1, 10, 2), row("gs", "swb", 8, 2, 2), row("tex", "baseline", -1, 1, 1),
                              row("tex", "sws", 1, 2, 1)};
  fill_speedups(rows);
  EXPECT_DOUBLE_EQ(rows[0].speedup_grad, 1.0);
  EXPECT_DOUBLE_EQ(rows[1].speedup_grad, 5.0);
  EXPECT_DOUBLE_EQ(rows[1].speedup_e2e, 12.0 / 4.0);
  EXPECT_DOUBLE_EQ(rows[3].speedup_grad, 0.5);
  EXPECT_DOUBLE_EQ(rows[3].speedup_e2e, 2.0 / 3.0);
}

TEST(SwReport, CsvAndJson) {
  Report r;
  r.meta = {{"gpu", "NVIDIA H100 80GB HBM3"}};
  r.checks = {{"fd.gs", "PASS"}};
  r.rows = {row("gs", "baseline", -1, 10, 2), row("gs", "sws", 4, 5, 2)};
  fill_speedups(r.rows);
  const std::string csv = to_csv(r.rows);
  EXPECT_EQ(csv.rfind("workload,method,threshold,grad_ms", 0), 0u);
  EXPECT_NE(csv.find("\ngs,sws,4,5.00000,"), std::string::npos);
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["meta"]["gpu"], "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][1]["threshold"], 4);
  EXPECT_DOUBLE_EQ(j["rows"][1]["speedup_grad"].get<double>(), 2.0);
  const std::string t = to_table(r.rows);
  EXPECT_NE(t.find("sws"), std::string::npos);
}

// The no-atomics bound: its row is marked wrong-by-construction, and every row of the
// workload gets its fraction of the way from Baseline to the bound.
TEST(SwReport, FractionToNoAtomicsBound) {
  std::vector<ResultRow> rows(4);
  const char* m[4] = {"baseline", "swb", "baseline-noatomic", "sws"};
  const double t[4] = {10.0, 4.0, 2.0, 12.0};
  for (int i = 0; i < 4; ++i) {
    rows[i].workload = "gs";
    rows[i].method = m[i];
    rows[i].grad_ms = t[i];
    rows[i].fwd_ms = 1.0;
  }
  rows[2].bound = true;
  ResultRow other;
  other.workload = "tex";
  other.method = "baseline";
  other.grad_ms = 3.0;
  rows.push_back(other);
  fill_speedups(rows);
  EXPECT_DOUBLE_EQ(rows[0].frac_to_bound, 0.0);
  EXPECT_DOUBLE_EQ(rows[1].frac_to_bound, 0.75);
  EXPECT_DOUBLE_EQ(rows[2].frac_to_bound, 1.0);
  EXPECT_DOUBLE_EQ(rows[3].frac_to_bound, -0.25);
  EXPECT_TRUE(std::isnan(rows[4].frac_to_bound));  // no bound row for tex
  Report r;
  r.rows = rows;
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_TRUE(j["rows"][2]["no_atomics_bound"].get<bool>());
  EXPECT_NE(j["rows"][2]["numerics"].get<std::string>().find("WRONG"), std::string::npos);
  EXPECT_TRUE(j["rows"][4]["frac_to_bound"].is_null());
  EXPECT_NE(to_csv(rows).find("WRONG-by-construction"), std::string::npos);
  EXPECT_NE(to_table(rows).find("WRONG-by-construction"), std::string::npos);
}

// Issue 20: the compute floor row and to_floor; issue 23: the speedup over gsplat.
TEST(SwReport, FloorAndGsplat) {
  std::vector<ResultRow> rows(5);
  const char* m[5] = {"baseline", "gsplat", "swt", "floor", "sws"};
  const double t[5] = {10.0, 4.0, 3.0, 2.0, 12.0};
  for (int i = 0; i < 5; ++i) {
    rows[i].workload = "gs";
    rows[i].method = m[i];
    rows[i].grad_ms = t[i];
    rows[i].fwd_ms = 1.0;
  }
  rows[3].floor = true;
  ResultRow other;
  other.workload = "tex";
  other.method = "baseline";
  other.grad_ms = 3.0;
  rows.push_back(other);
  fill_speedups(rows);
  EXPECT_DOUBLE_EQ(rows[0].to_floor, 0.0);
  EXPECT_DOUBLE_EQ(rows[2].to_floor, 7.0 / 8.0);
  EXPECT_DOUBLE_EQ(rows[3].to_floor, 1.0);
  EXPECT_DOUBLE_EQ(rows[4].to_floor, -0.25);
  EXPECT_DOUBLE_EQ(rows[1].speedup_gsplat, 1.0);
  EXPECT_DOUBLE_EQ(rows[2].speedup_gsplat, 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(rows[0].speedup_gsplat, 0.4);
  EXPECT_TRUE(std::isnan(rows[5].to_floor));        // no floor row for tex
  EXPECT_TRUE(std::isnan(rows[5].speedup_gsplat));  // nor a gsplat row
  Report r;
  r.rows = rows;
  const auto j = nlohmann::json::parse(to_json(r));
  EXPECT_TRUE(j["rows"][3]["floor"].get<bool>());
  EXPECT_FALSE(j["rows"][2]["floor"].get<bool>());
  EXPECT_NE(j["rows"][3]["numerics"].get<std::string>().find("compute floor"), std::string::npos);
  EXPECT_DOUBLE_EQ(j["rows"][2]["to_floor"].get<double>(), 7.0 / 8.0);
  EXPECT_TRUE(j["rows"][5]["to_floor"].is_null());
  EXPECT_TRUE(j["rows"][5]["speedup_vs_gsplat"].is_null());
  const std::string csv = to_csv(rows);
  EXPECT_NE(csv.find("to_floor,speedup_vs_gsplat\n"), std::string::npos);
  EXPECT_NE(csv.find("WRONG-by-construction(compute-floor)"), std::string::npos);
  const std::string tab = to_table(rows);
  EXPECT_NE(tab.find("to_floor"), std::string::npos);
  EXPECT_NE(tab.find("FLOOR"), std::string::npos);
}

// Issue 20: --out is created before the run; an unusable one fails at once, naming the path.
TEST(SwReport, PrepareOutDir) {
  const std::string base = ::testing::TempDir() + "arc_sw_out_" + std::to_string(::getpid());
  const std::string nested = base + "/a/b";
  prepare_out_dir(nested);
  EXPECT_TRUE(std::filesystem::is_directory(nested));
  EXPECT_FALSE(std::filesystem::exists(nested + "/.arc_bench_write_probe"));
  write_file(nested + "/bench.json", "{}\n");
  // A regular file where the directory should be.
  const std::string file = base + "/plain";
  write_file(file, "x");
  try {
    prepare_out_dir(file + "/sub");
    FAIL() << "expected arc::Error";
  } catch (const arc::Error& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
  }
  EXPECT_THROW(prepare_out_dir(file), arc::Error);
  try {
    write_file(base + "/missing/bench.json", "x");
    FAIL() << "expected arc::Error";
  } catch (const arc::Error& e) {
    EXPECT_NE(std::string(e.what()).find(base + "/missing/bench.json"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(base);
}
