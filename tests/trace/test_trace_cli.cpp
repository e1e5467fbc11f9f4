// The built arcsim binary on good and bad trace files: bad input gives exit code 2 and one
// line "arcsim: error: <problem>" on stderr; a bad flag is refused with a non-zero exit.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include <map>
#include <utility>

#include "test_util.h"

namespace arc::trace {
namespace {

using testing::read_bytes;
using testing::small_trace;
using testing::tmp_path;
using testing::write_bytes;

using testing::arcsim;
using testing::CmdResult;

// Exit 2 and exactly one stderr line "arcsim: error: ..." that contains `what`.
void expect_one_line_error(const CmdResult& r, const std::string& what) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.rfind("arcsim: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

TEST(TraceCli, GenThenInfoJson) {
  const std::string path = tmp_path("gen");
  CmdResult r = arcsim("trace gen --out " + path + " -n 3000 --seed 5 --activity full --sharing same");
  ASSERT_EQ(r.code, 0) << r.err;
  r = arcsim("trace info --json " + path);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["instructions"], 3000);
  EXPECT_EQ(j["lanes"], 3000 * 32);
  EXPECT_EQ(j["all_same_address_fraction"], 1.0);
  EXPECT_EQ(j["active_lane_histogram"][32], 3000);
  EXPECT_EQ(j["header"]["scene_seed"], 5);
  EXPECT_GT(j["bytes_per_lane_update"].get<double>(), 0.0);
}

// Issue 20: info counts the pair send's instructions (flag bit 7) and a pair call's plain records
// (bit 8); a pair sum's reduced lanes are its two, not its whole address group. A pair call is
// two records of one warp in a row, same lanes (FORMAT.md): each warp's instructions go two
// plain records of a pair call, then two pair sends, and so on.
TEST(TraceCli, InfoCountsPairInstructions) {
  const std::string src = small_trace("pairsrc", 3, 200);
  Trace t = read_trace(src);
  uint64_t pairs = 0, plain = 0, sums = 0;
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint32_t>> warp;  // (sm, warp) -> (its nth, record 0's mask)
  std::map<std::pair<uint32_t, uint32_t>, size_t> last;                        // (sm, warp) -> its last instruction
  for (size_t i = 0; i < t.instrs.size(); ++i) last[{t.instrs[i].sm, t.instrs[i].warp}] = i;
  for (size_t i = 0; i < t.instrs.size(); ++i) {
    Instr& in = t.instrs[i];
    in.reduced_mask = 0;
    auto& [nth, mask] = warp[{in.sm, in.warp}];
    const uint64_t k = nth++ % 4;
    if (k == 0 && last[{in.sm, in.warp}] == i) continue;  // no record 1 would follow: a plain instruction
    if (k < 2) {
      if (k == 0) mask = in.active_mask;
      in.active_mask = mask;  // record 1: record 0's lanes (a lane it adds reads address 0)
      in.flags |= kFlagPairCall;
      ++plain;
      continue;
    }
    in.flags |= kFlagPairSum;
    ++pairs;
    in.active_mask |= 3u;  // lanes 0 and 1 on one word: lane 0 took lane 1's value
    in.addr[1] = in.addr[0];
    in.reduced_mask = 1u;
    ++sums;
  }
  const std::string path = tmp_path("pairinfo");
  write_trace(path, t);
  const CmdResult r = arcsim("trace info --json " + path);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pair_send_instructions"], pairs);
  EXPECT_EQ(j["pair_call_plain_instructions"], plain);
  EXPECT_EQ(j["reduced_groups"], sums);
  EXPECT_EQ(j["reduced_lanes"], 2 * sums);
  const CmdResult txt = arcsim("trace info " + path);
  EXPECT_NE(txt.out.find("pair calls"), std::string::npos) << txt.out;
}

TEST(TraceCli, CompareSameWorkloadDifferentPlacementAndGaps) {
  const std::string a = tmp_path("cmp-a"), b = tmp_path("cmp-b"), c = tmp_path("cmp-c");
  const std::string gen = "trace gen -n 2000 --sms 4 --activity bernoulli --sharing mix ";
  ASSERT_EQ(arcsim(gen + "--seed 7 --out " + a).code, 0);
  // The generator draws one number per gap whatever its mean: other gaps, the same lanes.
  ASSERT_EQ(arcsim(gen + "--seed 7 --gap-mean 999 --out " + b).code, 0);
  ASSERT_EQ(arcsim(gen + "--seed 8 --out " + c).code, 0);
  CmdResult r = arcsim("trace compare " + a + " " + b);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("SAME: 2000 instructions", 0), 0u) << r.out;
  r = arcsim("trace compare " + a + " " + c);
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("DIFFER at instruction 0", 0), 0u) << r.out;
  expect_one_line_error(arcsim("trace compare " + a + " /nonexistent.trace"), "cannot open trace");
}

// Issue 16: the timing-only form (gen --timing-only, trace strip) keeps what the timing model
// reads, at <= 1 byte per lane update for warp-uniform instructions, and times the same.
TEST(TraceCli, TimingOnlyFormUnderOneBytePerUniformLane) {
  const std::string full = tmp_path("to-full"), gen_t = tmp_path("to-gen"), strip = tmp_path("to-strip");
  const std::string gen = "trace gen -n 20000 --sms 8 --activity full --sharing same --seed 3 ";
  ASSERT_EQ(arcsim(gen + "--out " + full).code, 0);
  ASSERT_EQ(arcsim(gen + "--timing-only --out " + gen_t).code, 0);
  CmdResult r = arcsim("trace strip " + full + " -o " + strip);
  ASSERT_EQ(r.code, 0) << r.err;
  const double per_lane = std::stod(r.out.substr(r.out.find('(') + 1));
  EXPECT_LE(per_lane, 1.0) << r.out;
  EXPECT_GT(per_lane, 0.0) << r.out;
  const double full_per_lane = [&] {
    const CmdResult i = arcsim("trace info --json " + full);
    return nlohmann::json::parse(i.out)["bytes_per_lane_update"].get<double>();
  }();
  EXPECT_GT(full_per_lane, 4.0) << "the full form keeps a 4-byte value per lane";
  // The generator's timing-only form and the stripped file hold the same instructions.
  r = arcsim("trace compare " + gen_t + " " + strip);
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  r = arcsim("trace compare " + full + " " + strip);
  EXPECT_EQ(r.code, 1) << "values dropped: " << r.out;
  // Same cycles from either form.
  auto cycles = [&](const std::string& t) {
    const CmdResult s = arcsim("sim --gpu h100 --mode baseline,sw-b --json --trace " + t);
    EXPECT_EQ(s.code, 0) << s.err;
    const auto j = nlohmann::json::parse(s.out);
    return std::make_pair(j["runs"][0]["total_cycles"].get<uint64_t>(),
                          j["runs"][1]["total_cycles"].get<uint64_t>());
  };
  EXPECT_EQ(cycles(full), cycles(strip));
  expect_one_line_error(arcsim("verify --trace " + strip), "timing-only trace");
  expect_one_line_error(arcsim("trace strip " + strip + " -o " + tmp_path("to-again")), "already a timing-only trace");
  expect_one_line_error(arcsim("trace strip " + full + " -o " + full), "refusing to overwrite");
}

TEST(TraceCli, InfoPlotWritesPng) {
  const std::string path = small_trace("plot"), png = tmp_path("plot.png");
  const CmdResult r = arcsim("trace info " + path + " --plot " + png);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto b = read_bytes(png);
  ASSERT_GT(b.size(), 1000u);
  EXPECT_EQ(std::string(b.begin() + 1, b.begin() + 4), "PNG");
}

TEST(TraceCli, MissingFile) { expect_one_line_error(arcsim("trace info /nonexistent.trace"), "cannot open trace"); }

TEST(TraceCli, Truncated) {
  const std::string path = small_trace("trunc");
  auto b = read_bytes(path);
  b.resize(b.size() / 2);
  write_bytes(path, b);
  expect_one_line_error(arcsim("trace info " + path), "truncated file");
}

TEST(TraceCli, FlippedByte) {
  const std::string path = small_trace("flip");
  auto b = read_bytes(path);
  b[b.size() / 2] ^= 0x40;
  write_bytes(path, b);
  expect_one_line_error(arcsim("trace info " + path), "checksum mismatch");
}

TEST(TraceCli, WrongMagic) {
  const std::string path = tmp_path("magic");
  write_bytes(path, {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  expect_one_line_error(arcsim("trace info " + path), "not an ARCsim trace (wrong magic");
}

TEST(TraceCli, WrongVersion) {
  const std::string path = small_trace("version");
  auto b = read_bytes(path);
  b[8] = 4;
  write_bytes(path, b);
  expect_one_line_error(arcsim("trace info " + path), "unsupported trace format version 4");
}

TEST(TraceCli, LaneDataInconsistentWithMask) {
  const std::string path = small_trace("lanes");
  testing::corrupt_lane_count(path);
  expect_one_line_error(arcsim("trace info " + path), "lane data inconsistent with the mask");
}

TEST(TraceCli, UnknownFlag) {
  const std::string path = small_trace("flag");
  const CmdResult r = arcsim("trace info " + path + " --no-such-flag");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--no-such-flag"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(TraceCli, GenRejectsBadValues) {
  expect_one_line_error(arcsim("trace gen --out " + tmp_path("x") + " --lane-prob 1.5"), "--lane-prob: '1.5' is out of range [0, 1]");
}

}  // namespace
}  // namespace arc::trace
