// `arcsim sim` end to end: all modes on a synthetic trace (table and JSON, JSON byte-identical
// run to run), and bad config / trace / flag -> exit 2 with one line "arcsim: error: ...".
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <systemc>  // declares sc_main (extern "C"), defined below
#include <string>

#include "fst_check.h"
#include "sim_fixture.h"

namespace {

struct Out {
  int code;
  std::string out, err;
};

Out arcsim(const std::string& args) {
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  std::filesystem::create_directories(dir);
  const std::string errf = (dir / "stderr.txt").string();
  const std::string cmd = std::string(ARCSIM_EXE) + " " + args + " 2>" + errf;
  Out o{};
  FILE* p = ::popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) o.out.append(buf.data(), n);
  const int st = ::pclose(p);
  o.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream f(errf);
  o.err.assign(std::istreambuf_iterator<char>(f), {});
  return o;
}

std::string trace_file() {
  static const std::string path = [] {
    const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
    std::filesystem::create_directories(dir);
    const std::string p = (dir / "cli.arctrace").string();
    arc::tracegen::generate(arc::sim::testing::hot(2000, 4), p);
    return p;
  }();
  return path;
}

int checks = 0, failures = 0;
void tally(bool ok) {
  ++checks;
  if (!ok) ++failures;
}

TEST(SimCli, AllModesTableAndJson) {
  const std::string common = "sim --gpu h100 --set sms=4 --set rop_units=8 --trace " + trace_file();
  const Out t = arcsim(common + " --mode baseline,sw-s,sw-b,arc-hw --sched never,always,threshold,dynamic");
  EXPECT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("arc-hw/dynamic"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("speedup"), std::string::npos);
  tally(t.code == 0);
  const Out j1 = arcsim(common + " --mode baseline,arc-hw --json");
  const Out j2 = arcsim(common + " --mode baseline,arc-hw --json");
  ASSERT_EQ(j1.code, 0) << j1.err;
  EXPECT_EQ(j1.out, j2.out) << "JSON must be byte-identical run to run";
  tally(j1.out == j2.out);
  const auto j = nlohmann::json::parse(j1.out);
  ASSERT_EQ(j.at("runs").size(), 2u);
  for (const char* key : {"total_cycles", "atomic_stall_cycles", "rop_utilization", "lsu_queue_occupancy_mean",
                          "lsu_queue_occupancy_max", "requests_to_l2", "reductions_in_core", "reductions_at_rops",
                          "speedup_vs_baseline"})
    EXPECT_TRUE(j["runs"][1].contains(key)) << key;
  EXPECT_DOUBLE_EQ(j["runs"][0]["speedup_vs_baseline"].get<double>(), 1.0);
  std::printf("%s", t.out.c_str());
}

// Issue 24: the JSON carries the full resolved configuration (the same object as `arcsim config
// show --json`), the per-SM / per-sub-core / per-ROP breakdowns add up to the totals, every
// collected stat is reported, and --stats-interval adds a time series.
TEST(SimCli, JsonCarriesConfigBreakdownsAndSeries) {
  const std::string sets = " --gpu h100 --set sms=4 --set rop_units=8 --set rop_window=8";
  const Out show = arcsim("config show" + sets + " --json");
  ASSERT_EQ(show.code, 0) << show.err;
  const Out sim = arcsim("sim" + sets + " --mode baseline,arc-hw --stats-interval 1000 --json --trace " + trace_file());
  ASSERT_EQ(sim.code, 0) << sim.err;
  const auto j = nlohmann::json::parse(sim.out);
  const auto c = nlohmann::json::parse(show.out);
  EXPECT_EQ(j.at("config"), c);
  EXPECT_EQ(c["model"]["rop_window"], 8);
  EXPECT_EQ(c["sources"]["rop_window"], "--set");
  tally(j.at("config") == c);
  for (const auto& r : j.at("runs")) {
    ASSERT_EQ(r.at("per_sm").size(), 4u);
    ASSERT_EQ(r.at("per_subcore").size(), 16u);
    ASSERT_EQ(r.at("per_rop").size(), 8u);
    uint64_t rop_ops = 0, busy = 0, req = 0, rej = 0, instr = 0, stall = 0;
    for (const auto& u : r["per_rop"]) rop_ops += u["ops"].get<uint64_t>(), busy += u["busy_cycles"].get<uint64_t>();
    for (const auto& s : r["per_sm"]) req += s["requests_to_l2"].get<uint64_t>(), rej += s["lsu_full_rejects"].get<uint64_t>();
    for (const auto& s : r["per_subcore"])
      instr += s["instructions"].get<uint64_t>(), stall += s["atomic_stall_cycles"].get<uint64_t>();
    EXPECT_EQ(rop_ops, r["reductions_at_rops"].get<uint64_t>());
    EXPECT_EQ(busy, r["rop_busy_unit_cycles"].get<uint64_t>());
    EXPECT_EQ(req, r["requests_to_l2"].get<uint64_t>());
    EXPECT_EQ(rej, r["lsu_full_rejects"].get<uint64_t>());
    EXPECT_EQ(instr, r["instructions"].get<uint64_t>());
    EXPECT_EQ(stall, r["atomic_stall_cycles"].get<uint64_t>());
    EXPECT_GT(r["issue_end_cycle"].get<uint64_t>(), 0u);
    uint64_t hist = 0;
    for (const auto& b : r["histograms"]["atomic_stall_cycles_per_instruction"]) hist += b["count"].get<uint64_t>();
    EXPECT_EQ(hist, instr);
    const auto& series = r.at("series");
    ASSERT_FALSE(series.empty());
    EXPECT_EQ(series[0]["cycle"], 1000);
    EXPECT_EQ(series.back()["rop_ops"], r["reductions_at_rops"]);
    tally(rop_ops == r["reductions_at_rops"].get<uint64_t>() && instr == r["instructions"].get<uint64_t>());
  }
}

// --stats-interval over long compute gaps: the idle chunks are skipped whole, each idle stretch
// kept as its two ends, so the series follows the busy time, not the gaps. 8 warps with gaps of
// ~1e8 cycles at an interval of 1000 would be about a million samples one by one.
TEST(SimCli, StatsSeriesSkipsIdleStretches) {
  arc::tracegen::GenConfig g = arc::sim::testing::hot(32, 5);
  g.sms = 2;
  g.subcores_per_sm = 1;
  g.warps_per_subcore = 4;
  g.gap_mean = 1e8;
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  const std::string path = (dir / "long-gaps.arctrace").string();
  arc::tracegen::generate(g, path);
  const uint64_t interval = 1000;
  const Out sim = arcsim("sim --gpu h100 --set sms=2 --mode baseline --stats-interval 1000 --json --trace " + path);
  ASSERT_EQ(sim.code, 0) << sim.err;
  const auto r = nlohmann::json::parse(sim.out).at("runs").at(0);
  const auto& series = r.at("series");
  const uint64_t cycles = r.at("total_cycles").get<uint64_t>();
  ASSERT_GT(cycles, 100'000'000u);  // the gaps are long: ~1e5 intervals or more
  ASSERT_FALSE(series.empty());
  EXPECT_LT(series.size(), 2000u) << "one sample per interval through the gaps";
  for (size_t i = 1; i < series.size(); ++i) {
    const auto &a = series[i - 1], &b = series[i];
    const uint64_t ca = a["cycle"].get<uint64_t>(), cb = b["cycle"].get<uint64_t>();
    ASSERT_GT(cb, ca);
    EXPECT_EQ(cb % interval, 0u);
    for (const char* k : {"instructions", "lane_updates", "requests_to_l2", "rop_ops", "atomic_stall_cycles"}) {
      EXPECT_LE(a[k].get<uint64_t>(), b[k].get<uint64_t>()) << k;
      if (cb - ca > interval) {
        EXPECT_EQ(a[k], b[k]) << k << ": a skipped stretch " << ca << ".." << cb << " changed it";
      }
    }
  }
  EXPECT_EQ(series.back()["rop_ops"], r["reductions_at_rops"]);
  EXPECT_EQ(series.back()["instructions"], r["instructions"]);
  EXPECT_GE(series.back()["cycle"].get<uint64_t>(), cycles);
  tally(series.size() < 2000u);
  // The series is one form at both fidelities: the RTL level wakes every cycle while a unit
  // holds work, the fast level sleeps through them (which chunks are skipped differs), yet the
  // runs of unchanged samples keep the same two ends.
  for (const char* gap : {"0", "50"}) {
    arc::tracegen::GenConfig h = arc::sim::testing::hot(1500, 9);
    h.sms = 2;
    h.gap_mean = std::stod(gap);
    const std::string p2 = (dir / "series-fidelity.arctrace").string();
    arc::tracegen::generate(h, p2);
    const std::string run = "sim --gpu rtx4090 --set sms=2 --mode arc-hw --stats-interval 1 --json --trace " + p2;
    const Out fast = arcsim(run), rtl = arcsim(run + " --fidelity rtl");
    ASSERT_EQ(fast.code, 0) << fast.err;
    ASSERT_EQ(rtl.code, 0) << rtl.err;
    const auto sf = nlohmann::json::parse(fast.out)["runs"][0]["series"], sr = nlohmann::json::parse(rtl.out)["runs"][0]["series"];
    EXPECT_GT(sf.size(), 100u);
    EXPECT_EQ(sf, sr) << "gap mean " << gap << ": " << sf.size() << " samples fast, " << sr.size() << " rtl";
    tally(sf == sr);
  }
}

// The RTL level's waveform: one FST of every ARC unit, with the same run as without it.
TEST(SimCli, RtlWaveformIsWrittenAndChangesNothing) {
  const std::string common = "sim --gpu h100 --set sms=4 --set rop_units=8 --mode arc-hw --fidelity rtl --json --trace " +
                             trace_file();
  const std::string fst = (std::filesystem::temp_directory_path() / "arcsim-tests-sim" / "rtl.fst").string();
  std::filesystem::remove(fst);
  const Out with = arcsim(common + " --wave " + fst), without = arcsim(common);
  ASSERT_EQ(with.code, 0) << with.err;
  ASSERT_EQ(without.code, 0) << without.err;
  EXPECT_EQ(nlohmann::json::parse(with.out)["runs"][0]["total_cycles"],
            nlohmann::json::parse(without.out)["runs"][0]["total_cycles"]);
  ASSERT_TRUE(std::filesystem::exists(fst));
  EXPECT_GT(std::filesystem::file_size(fst), 10000u);
  std::ifstream f(fst, std::ios::binary);
  char first = 1;
  f.read(&first, 1);
  EXPECT_EQ(first, 0) << "an FST file starts with its header block (type 0)";
}

TEST(SimCli, BadInputIsOneLineAndExit2) {
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  const std::string bad_toml = (dir / "bad.toml").string();
  std::ofstream(bad_toml) << "name = \"x\"\nsms = 0\n";
  const std::string junk = (dir / "junk.arctrace").string();
  std::ofstream(junk) << "not a trace at all";
  const std::string tr = " --trace " + trace_file();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sim --gpu nosuchgpu" + tr, "nosuchgpu"},
      {"sim --config " + bad_toml + tr, "sms"},
      {"sim --gpu h100 --trace /nonexistent/x.arctrace", "x.arctrace"},
      {"sim --gpu h100 --trace " + junk, "junk"},
      {"sim --gpu h100 --mode turbo" + tr, "turbo"},
      {"sim --gpu h100 --mode arc-hw --sched greedy" + tr, "greedy"},
      {"sim --gpu h100 --fidelity exact" + tr, "exact"},
      {"sim --gpu h100 --set rop_units=-1" + tr, "rop_units"},
      {"sim --gpu h100 --set no_such_key=1" + tr, "no_such_key"},
      {"sim --gpu h100 --set lsu_busy_slack=100" + tr, "lsu_busy_slack"},
      {"sim --gpu h100 --set rop_window=0" + tr, "rop_window"},
      {"sim --gpu h100 --mode arc-hw --wave /tmp/x.fst" + tr, "--wave"},
      {"sim --gpu h100 --config x.toml" + tr, "excludes"},
      {"sim" + tr, "exactly one"},
      {"sim --gpu h100 --mode sw-s,baseline,sw-s" + tr, "'sw-s' is listed twice"},
      {"sim --gpu h100 --fidelity rtl --mode arc-hw --wave " + trace_file() + tr, "refusing to overwrite"},
      {"sim --gpu h100 --set rop_windo=2" + tr, "did you mean rop_window?"},
      {"sim --gpu h100 --gap-issue-rate 1.5" + tr, "--gap-issue-rate"},
      {"sim --gpu h100 --gap-issue-rate -0.1" + tr, "--gap-issue-rate"},
  };
  for (const auto& [args, needle] : cases) {
    const Out o = arcsim(args);
    SCOPED_TRACE(args);
    const bool one_line = !o.err.empty() && o.err.find('\n') == o.err.size() - 1;
    const bool ok = o.code == 2 && one_line && o.err.rfind("arcsim: error: ", 0) == 0 &&
                    o.err.find(needle) != std::string::npos;
    EXPECT_TRUE(ok) << "exit " << o.code << " stderr: " << o.err;
    tally(ok);
  }
  const Out flag = arcsim("sim --gpu h100 --no-such-flag" + tr);
  EXPECT_NE(flag.code, 0);
  tally(flag.code != 0);
}

// `arcsim trace upgrade`: a bundled version-1 capture rewritten as version 3 (with its warp
// table) is the same trace, and the simulator gives the same results from its table as from
// its first pass over the original: every run's JSON equal.
TEST(SimCli, UpgradedTraceSimulatesTheSame) {
  const std::string v2 = ARCSIM_DATA_DIR "/gs-sws-h100.arctrace";
  const std::string v3 = (std::filesystem::temp_directory_path() / "arcsim-tests-sim" / "upgraded.arctrace").string();
  std::filesystem::remove(v3);
  const Out up = arcsim("trace upgrade " + v2 + " -o " + v3);
  ASSERT_EQ(up.code, 0) << up.err;
  EXPECT_NE(up.out.find("format version 3 (was 1)"), std::string::npos) << up.out;  // an early capture
  const Out info = arcsim("trace info " + v3);
  EXPECT_NE(info.out.find("warp table"), std::string::npos) << info.out;
  const Out cmp = arcsim("trace compare " + v2 + " " + v3);
  EXPECT_EQ(cmp.code, 0) << cmp.out;
  const std::string common = " --gpu h100 --mode baseline,sw-s,arc-hw --json";
  const Out a = arcsim("sim --trace " + v2 + common), b = arcsim("sim --trace " + v3 + common);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja.at("runs"), jb.at("runs"));
  tally(ja.at("runs") == jb.at("runs"));
  const Out again = arcsim("trace upgrade " + v3 + " -o " + v3 + ".x");
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.err.find("already format version 3"), std::string::npos) << again.err;
}

// The tally of the checks above, printed once after all tests (not a test of its own: it checks nothing).
class CountPrinter : public ::testing::Environment {
 public:
  void TearDown() override { std::printf("sim cli: %d passed, %d failed\n", checks - failures, failures); }
};
[[maybe_unused]] auto* const count_printer = ::testing::AddGlobalTestEnvironment(new CountPrinter);

// A waveform that does not read back is refused (Verilator's FST writer reports no failed
// write; a disk that fills mid-write leaves such a file): a whole FST passes, half of it fails.
TEST(SimCli, FstCheckRefusesAShortWaveform) {
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  const std::string fst = (dir / "whole.fst").string(), half = (dir / "half.fst").string();
  const Out r = arcsim("rtl-run -n 50 --fst " + fst);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NO_THROW(arc::sim::check_fst_reads_back(fst, fst));
  std::filesystem::copy_file(fst, half, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(half, std::filesystem::file_size(fst) / 2);
  try {
    arc::sim::check_fst_reads_back(half, "out.fst");
    ADD_FAILURE() << "a truncated FST read back";
  } catch (const arc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write out.fst: the waveform does not read back"), std::string::npos)
        << e.what();
  }
}

}  // namespace

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
