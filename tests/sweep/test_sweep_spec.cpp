// The sweep spec: each kind of invalid spec gives exit 2 and one line naming the problem
// (through the built arcsim, so the real catalog of --set keys and names is used); a valid
// spec expands to the cartesian product with stable ids; the metric list matches what
// `arcsim sim --json` really reports.
#include <nlohmann/json.hpp>
#include <set>

#include "slurm.h"
#include "spec.h"
#include "sweep_test_util.h"

namespace {

using namespace sweeptest;

SWEEP_TEST_COUNTS;

const char* kGood = R"(
name = "t"
gpu = "h100"
metrics = ["total_cycles", "speedup_vs_baseline"]
[set]
sms = 4
[axes]
mode = ["baseline", "arc-hw"]
rop_units = [4, 8]
[trace.gen.tiny]
instructions = 100
)";

// Write `text` as a spec, run `arcsim sweep` on it, expect one error line containing `what`.
void expect_spec_error(const std::string& text, const std::string& what) {
  const fs::path d = scratch();
  write_text(d / "spec.toml", text);
  const CmdResult r = arcsim("sweep spec.toml --out out", d);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("arcsim: error: sweep spec ", 0), 0u) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << "wanted '" << what << "' in: " << r.err;
  EXPECT_FALSE(fs::exists(d / "out")) << "an invalid spec must not start a sweep";
}

std::string with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(SweepSpecError, UnknownAxis) { expect_spec_error(with("rop_units = [4, 8]", "rop_unitz = [4]"), "axes.rop_unitz: unknown axis"); }
TEST(SweepSpecError, EmptyAxis) { expect_spec_error(with("rop_units = [4, 8]", "rop_units = []"), "axes.rop_units: empty axis"); }
TEST(SweepSpecError, MissingTraceFile) {
  expect_spec_error(with("[trace.gen.tiny]\ninstructions = 100", "[trace]\nfiles = [\"nope.arctrace\"]"),
                    "trace.files[0]: trace file");
}
TEST(SweepSpecError, NoTraceAtAll) {
  expect_spec_error(with("[trace.gen.tiny]\ninstructions = 100", ""), "trace: missing");
}
TEST(SweepSpecError, UnknownMetric) {
  expect_spec_error(with("\"speedup_vs_baseline\"", "\"speedup\""), "metrics[1]: unknown metric 'speedup'");
}
TEST(SweepSpecError, BadTypeAxisValue) {
  expect_spec_error(with("rop_units = [4, 8]", "rop_units = [4, true]"), "axes.rop_units[1]: expected a string or a number, got a boolean");
}
TEST(SweepSpecError, BadTypeForParameter) {
  expect_spec_error(with("rop_units = [4, 8]", "rop_units = [4, \"many\"]"), "axes.rop_units[1]");
}
TEST(SweepSpecError, BadTypeThreshold) {
  expect_spec_error(with("gpu = \"h100\"", "gpu = \"h100\"\nthreshold = \"two\""), "threshold: expected an integer");
}
TEST(SweepSpecError, AxisNotAnArray) {
  expect_spec_error(with("rop_units = [4, 8]", "rop_units = 4"), "axes.rop_units: expected an array");
}
TEST(SweepSpecError, UnknownMode) {
  expect_spec_error(with("\"baseline\", \"arc-hw\"", "\"baseline\", \"arc-sw\""), "axes.mode[1]: --mode: unknown mode");
}
TEST(SweepSpecError, UnknownGpu) { expect_spec_error(with("gpu = \"h100\"", "gpu = \"h900\""), "gpu:"); }
TEST(SweepSpecError, ValueOutOfRange) {
  expect_spec_error(with("rop_units = [4, 8]", "rop_units = [4, -8]"), "axes.rop_units[1]");
}
TEST(SweepSpecError, UnknownTopLevelKey) { expect_spec_error(with("name = \"t\"", "nam = \"t\""), "nam: unknown key"); }
TEST(SweepSpecError, UnknownSetKey) { expect_spec_error(with("sms = 4", "smz = 4"), "set.smz: unknown parameter"); }
TEST(SweepSpecError, AxisAlsoFixed) {
  expect_spec_error(with("sms = 4", "sms = 4\nrop_units = 4"), "axes.rop_units: also fixed in [set]");
}
TEST(SweepSpecError, DuplicateValue) {
  expect_spec_error(with("rop_units = [4, 8]", "rop_units = [4, 4]"), "axes.rop_units[1]: value 4 listed twice");
}
TEST(SweepSpecError, TomlSyntax) { expect_spec_error(with("[axes]", "[axes"), "line "); }

// The example specs in sweeps/ are valid and have the sizes their comments give.
TEST(SweepSpecExamples, DryRun) {
  const fs::path d = scratch();
  const std::string root = ARCSIM_SOURCE_DIR;
  const std::pair<const char*, const char*> examples[] = {{"methods-x-rops.toml", ": 80 points"},
                                                          {"threshold.toml", ": 45 points"}};
  for (const auto& [file, size] : examples) {
    const CmdResult r = arcsim("sweep " + root + "/sweeps/" + file + " --dry-run --out out", d);
    EXPECT_EQ(r.code, 0) << file << ": " << r.err;
    EXPECT_NE(r.out.find(size), std::string::npos) << file << ": " << r.out.substr(0, 200);
  }
  EXPECT_FALSE(fs::exists(d / "out")) << "--dry-run writes nothing";
}

// --- the spec library with a plain catalog (no arcsim) ---

arc::sweep::Catalog plain() { return {{"sms", "rop_units", "lsu_queue_depth"}, nullptr, nullptr}; }

arc::sweep::Spec load(const std::string& text) {
  const fs::path d = scratch();
  write_text(d / "s.toml", text);
  return arc::sweep::load_spec((d / "s.toml").string(), plain());
}

TEST(SweepSpec, CartesianProductWithUniqueIds) {
  const auto spec = load(with("rop_units = [4, 8]", "rop_units = [4, 8]\nlsu_queue_depth = [32, 64]"));
  const auto pts = arc::sweep::expand(spec);
  ASSERT_EQ(pts.size(), 8u);
  std::set<std::string> ids;
  for (const auto& p : pts) ids.insert(p.id);
  EXPECT_EQ(ids.size(), 8u);
  EXPECT_EQ(pts[0].args.at(3), "traces/tiny.arctrace");
  EXPECT_EQ(pts[1].axes["rop_units"], 8);  // last axis (sorted by name) varies fastest
  EXPECT_EQ(pts[0].params["set"]["sms"], 4);
}

TEST(SweepSpec, SchedOnlyForArcHw) {
  const auto spec = load(with("rop_units = [4, 8]", "sched = [\"dynamic\", \"never\"]"));
  const auto pts = arc::sweep::expand(spec);
  ASSERT_EQ(pts.size(), 3u);  // baseline once, arc-hw twice
  EXPECT_TRUE(pts[0].axes["sched"].is_null());
  EXPECT_EQ(std::count(pts[0].args.begin(), pts[0].args.end(), "--sched"), 0);
  EXPECT_EQ(std::count(pts[1].args.begin(), pts[1].args.end(), "--sched"), 1);
}

TEST(SweepSpec, IdsSurviveAGrowingAxis) {
  auto small = arc::sweep::expand(load(with("rop_units = [4, 8]", "rop_units = [4]")));
  auto big = arc::sweep::expand(load(kGood));
  std::set<std::string> b;
  for (const auto& p : big) b.insert(p.id);
  ASSERT_EQ(small.size(), 2u);
  for (const auto& p : small) EXPECT_TRUE(b.count(p.id)) << p.id;
  // A different generated trace is a different point.
  auto other = arc::sweep::expand(load(with("instructions = 100", "instructions = 101")));
  for (const auto& p : other) EXPECT_FALSE(b.count(p.id)) << p.id;
}

TEST(SweepSpec, ArrayRanges) {
  EXPECT_EQ(arc::sweep::array_ranges({0, 1, 2, 3, 5, 7, 8, 9}), "0-3,5,7-9");
  EXPECT_EQ(arc::sweep::array_ranges({4}), "4");
}

// The metric list must be exactly the keys `arcsim sim --json` reports per run (nested keys
// dotted), plus the derived speedup_vs_baseline; this fails when the report changes.
void flatten(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  for (const auto& [k, v] : j.items()) {
    if (v.is_object()) flatten(v, prefix + k + ".", out);
    else if (!v.is_array()) out.insert(prefix + k);  // breakdowns and histograms are not table columns
  }
}

TEST(SweepSpec, MetricsMatchArcsimSim) {
  const fs::path d = scratch();
  ASSERT_EQ(arcsim("trace gen -q -n 200 -o t.arctrace", d).code, 0);
  const CmdResult r = arcsim("sim --gpu h100 --set sms=4 --trace t.arctrace --mode baseline,arc-hw --json", d);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> reported;
  flatten(j["runs"][1], "", reported);
  reported.erase("mode");  // the point's own axis, not a metric
  const auto& km = arc::sweep::known_metrics();
  const std::set<std::string> known(km.begin(), km.end());
  EXPECT_EQ(reported, known);
}

}  // namespace
