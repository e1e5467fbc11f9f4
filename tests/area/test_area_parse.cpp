// arc_area without the CLI: the `stat -tech cmos` parser on stored real Yosys logs (complete
// ones accepted with their exact numbers; '+' counts, hierarchical and damaged ones rejected),
// SHA-256 vectors, RTL discovery, RTL parameter checks, the sweep plot script, and one real
// Yosys synthesis of the adder (positive count, identical when repeated).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "area.h"
#include "error.h"
#include "sha256.h"
#include "yosys_stat.h"

namespace fs = std::filesystem;
using namespace arc::area;

namespace {

std::string data(const std::string& name) {
  std::ifstream in(fs::path(ARCSIM_TEST_AREA_DATA) / name);
  std::ostringstream ss;
  ss << in.rdbuf();
  EXPECT_FALSE(ss.str().empty()) << name;
  return ss.str();
}

std::string error_of(const std::string& text) {
  try {
    parse_stat_cmos(text, "log");
  } catch (const arc::Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto i = s.find(from);
  EXPECT_NE(i, std::string::npos) << from;
  return s.replace(i, from.size(), to);
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("arcsim_area_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

}  // namespace

TEST(YosysStat, StoredAdderLog) {
  const CellStats s = parse_stat_cmos(data("arc_fp32_add_ftz1.stat"), "adder");
  EXPECT_EQ(s.module, "arc_fp32_add");
  EXPECT_EQ(s.cells, 3313);
  EXPECT_EQ(s.transistors, 12708);
  EXPECT_EQ(s.by_type.at("$_NAND_"), 1537);
  EXPECT_EQ(s.flip_flops, 0);
  EXPECT_NEAR(s.nand2_eq, 1537 + 1504 + 272 * 0.667, 1e-6);
}

TEST(YosysStat, StoredLogWithFlipFlops) {
  const CellStats s = parse_stat_cmos(data("arc_lane_issue.stat"), "lane");
  EXPECT_EQ(s.cells, 652);
  EXPECT_EQ(s.flip_flops, 64);
  EXPECT_EQ(s.transistors, 3226);
}

TEST(YosysStat, PlusCountIsAnError) {
  const std::string msg = error_of(data("no_dfflegalize_plus.stat"));
  EXPECT_NE(msg.find("1262+"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'+'"), std::string::npos) << msg;
}

TEST(YosysStat, HierarchicalReportIsAnError) {
  EXPECT_NE(error_of(data("hierarchical.stat")).find("more than one module"), std::string::npos);
}

TEST(YosysStat, DamagedReportsAreErrors) {
  const std::string good = data("arc_fp32_add_ftz1.stat");
  EXPECT_NE(error_of(replace(good, "Estimated number of transistors:      12708", "")).find("transistors"),
            std::string::npos);
  EXPECT_NE(error_of(replace(good, "3313", "3314")).find("sum to 3313"), std::string::npos);
  EXPECT_NE(error_of(replace(good, "$_NOT_ ", "$_FOO_ ")).find("$_FOO_"), std::string::npos);
  EXPECT_NE(error_of(replace(good, "12708", "12709")).find("cell table"), std::string::npos);
  EXPECT_NE(error_of(replace(good, "1537", "15x7")).find("15x7"), std::string::npos);
  EXPECT_NE(error_of(replace(good, "3313", "3313+")).find("'+'"), std::string::npos);
  EXPECT_NE(error_of("").find("no '=== module ==='"), std::string::npos);
}

TEST(YosysStat, WeightsCoverTheFlowAndAreSane) {
  for (const char* t : {"$_NAND_", "$_NOR_", "$_NOT_", "$_DFF_P_", "$_AOI3_", "$_OAI3_"}) {
    bool found = false;
    for (const auto& w : cell_weights()) found |= std::string(w.type) == t;
    EXPECT_TRUE(found) << t;
  }
  for (const auto& w : cell_weights()) {
    EXPECT_GT(w.transistors, 0) << w.type;
    EXPECT_GT(w.nand2_eq, 0.5) << w.type;
  }
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(RtlScan, FindsTheArcModules) {
  const RtlTree t = scan_rtl(ARCSIM_TEST_RTL_DIR);
  const RtlModule* add = t.find("arc_fp32_add");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(add->find_param("FTZ"), nullptr);
  EXPECT_FALSE(add->find_param("FTZ")->derived);
  EXPECT_EQ(add->find_param("FTZ")->default_value(), 1);
  if (t.find("arc_subcore_top")) {
    EXPECT_EQ(t.roots(), std::vector<std::string>{"arc_subcore_top"});
    EXPECT_TRUE(t.closure("arc_subcore_top").count("arc_fp32_add"));
  }
  for (const auto& m : t.modules)
    for (const auto& p : m.params)
      if (p.name == "IdxWidth") {
        EXPECT_TRUE(p.derived) << m.name;
      }
}

TEST(RtlScan, ModuleMustBeNamedLikeItsFile) {
  TempDir d;
  std::ofstream(d.path / "arc_a.sv") << "module arc_b (input logic x);\nendmodule\n";
  EXPECT_THROW(scan_rtl(d.path.string()), arc::Error);
  EXPECT_THROW(scan_rtl((d.path / "nope").string()), arc::Error);
}

TEST(RtlParams, CheckedAgainstTheRtl) {
  const RtlTree t = scan_rtl(ARCSIM_TEST_RTL_DIR);
  EXPECT_EQ(parse_rtl_params(t, {"FTZ=0"}).at("FTZ"), 0);
  auto err = [&](const std::string& kv) {
    try {
      parse_rtl_params(t, {kv});
    } catch (const arc::Error& e) {
      return std::string(e.what());
    }
    ADD_FAILURE() << kv << " accepted";
    return std::string();
  };
  EXPECT_NE(err("Bogus=3").find("Bogus"), std::string::npos);
  EXPECT_NE(err("Bogus=3").find("unknown RTL parameter"), std::string::npos);
  EXPECT_NE(err("FTZ=2").find("impossible"), std::string::npos);
  EXPECT_NE(err("FTZ=x").find("PARAM=INTEGER"), std::string::npos);
  if (t.find("arc_subcore_top")) {
    EXPECT_NE(err("AddrWidth=0").find("AddrWidth"), std::string::npos);
    EXPECT_NE(err("IdxWidth=3").find("derived"), std::string::npos);
  }
}

TEST(AreaSweep, CsvAndPlot) {
  TempDir d;
  SweepResult s;
  for (int ftz : {0, 1}) {
    SweepPoint p;
    p.param = "FTZ";
    p.value = ftz;
    p.report.gpu.name = "G";
    p.report.per_subcore_transistors = 1000 + ftz;
    s.points.push_back(p);
  }
  const auto files = write_sweep(s, d.path.string(), default_area_options());
  EXPECT_GT(fs::file_size(files.at(0)), 50u);
  EXPECT_GT(fs::file_size(files.at(1)), 1000u);  // a real PNG
  std::ifstream png(files[1], std::ios::binary);
  char magic[4] = {};
  png.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
}

// Real Yosys, no cache: positive, complete count; the same numbers twice.
TEST(RealYosys, AdderSynthesisIsPositiveAndRepeatable) {
  const AreaOptions o = default_area_options();
  SynthRunner r({o.synth_script, ARCSIM_TEST_RTL_DIR, o.yosys, ""});
  const SynthResult a = r.run("arc_fp32_add", {{"FTZ", 1}});
  const SynthResult b = r.run("arc_fp32_add", {{"FTZ", 1}});
  EXPECT_FALSE(a.from_cache);
  EXPECT_GT(a.stats.transistors, 1000);
  EXPECT_EQ(a.stats.transistors, b.stats.transistors);
  EXPECT_EQ(a.stats.by_type, b.stats.by_type);
  EXPECT_EQ(a.key, b.key);
  const SynthResult c = r.run("arc_fp32_add", {{"FTZ", 0}});
  EXPECT_NE(a.key, c.key);
  EXPECT_NE(a.stats.transistors, c.stats.transistors);  // the flush logic is not free
  std::printf("arc_fp32_add: FTZ=1 %lld transistors, FTZ=0 %lld\n", static_cast<long long>(a.stats.transistors),
              static_cast<long long>(c.stats.transistors));
}

// Real Yosys on two broken modules (a folder of their own): a combinational loop (Yosys warns:
// the depth and count would describe a netlist that is not the RTL) and a module whose output
// is a constant (no cell: an area of 0 would read as a result). Both are one-line errors.
TEST(RealYosys, WarningsAndEmptyNetlistsAreErrors) {
  const fs::path dir = fs::temp_directory_path() / ("arcsim-area-broken-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "loop_mod.sv") << "module loop_mod (input logic a_i, output logic y_o);\n"
                                        "  logic x;\n  assign x = ~(x & a_i);\n  assign y_o = x;\nendmodule\n";
  std::ofstream(dir / "const_mod.sv") << "module const_mod (input logic a_i, output logic y_o);\n"
                                         "  assign y_o = a_i & ~a_i;\nendmodule\n";
  std::ofstream(dir / "ok_mod.sv") << "module ok_mod (input logic a_i, b_i, output logic y_o);\n"
                                      "  assign y_o = a_i ^ b_i;\nendmodule\n";
  const AreaOptions o = default_area_options();
  SynthRunner r({o.synth_script, dir.string(), o.yosys, ""});
  EXPECT_GT(r.run("ok_mod", {}).stats.transistors, 0);  // the folder itself is fine
  auto error_of = [&](const std::string& top) {
    try {
      r.run(top, {});
    } catch (const arc::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string loop = error_of("loop_mod"), empty = error_of("const_mod");
  EXPECT_NE(loop.find("Yosys warned on loop_mod: Warning:"), std::string::npos) << loop;
  EXPECT_EQ(loop.find('\n'), std::string::npos) << loop;
  EXPECT_NE(empty.find("const_mod synthesizes to no cells"), std::string::npos) << empty;
  fs::remove_all(dir);
}

// `stat -json` of a synthesis that kept the coalescer as its own instance (the ARC-added /
// reused split of arc_subcore_top RfPort=1): each module's own gates, summing to the design.
TEST(YosysStat, StoredHierarchicalJson) {
  const HierStats h = parse_stat_json(data("subcore_rfport1_keep.json"), "split");
  EXPECT_EQ(h.top, "arc_subcore_top");
  ASSERT_EQ(h.modules.size(), 2u);
  EXPECT_EQ(h.modules.at("arc_addr_match").transistors, 61022);
  EXPECT_EQ(h.modules.at("arc_subcore_top").transistors, 23386);  // Yosys prints "23386+"
  EXPECT_EQ(h.design.transistors, 84408);
  EXPECT_EQ(h.modules.at("arc_addr_match").cells + h.modules.at("arc_subcore_top").cells, h.design.cells);
}

TEST(YosysStat, HierarchicalJsonThatDoesNotAddUpIsAnError) {
  auto err = [](const std::string& text) {
    try {
      parse_stat_json(text, "log");
    } catch (const arc::Error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return std::string(e.what());
    }
    ADD_FAILURE() << "accepted";
    return std::string();
  };
  const std::string good = data("subcore_rfport1_keep.json");
  EXPECT_NE(err(replace(good, "\"84408\"", "\"84409\"")).find("84409"), std::string::npos);
  EXPECT_NE(err(replace(good, "\"23386+\"", "\"23387+\"")).find("23387"), std::string::npos);
  // The coalescer instantiated twice (cell count kept consistent): its share would count once.
  EXPECT_NE(err(replace(replace(good, "arc_addr_match\": 1", "arc_addr_match\": 2"), "5552,", "5553,"))
                .find("instantiated 2 times"),
            std::string::npos);
  // A cell count that disagrees with the per-type counts.
  EXPECT_NE(err(replace(good, "5552,", "5550,")).find("5550"), std::string::npos);
  EXPECT_NE(err("not json").find("not a Yosys"), std::string::npos);
}

// The text report with `ltp -noff` appended: the logic depth is read too.
TEST(YosysStat, LogicDepthFromLtp) {
  const std::string text = data("arc_fp32_add_ftz1.stat") + "\nLongest topological path in arc_fp32_add (length=146):\n";
  EXPECT_EQ(parse_stat_cmos(text, "adder").logic_depth, 146);
  EXPECT_EQ(parse_stat_cmos(data("arc_fp32_add_ftz1.stat"), "adder").logic_depth, -1);
}
