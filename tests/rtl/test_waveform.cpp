// (f) SubcoreDut with an FST file: a directed run must produce a non-empty waveform that starts
// with an FST header block (tag 0, section length 329), declares variables and ends after the
// run's last cycle. Set ARCSIM_RTL_FST=<path> to keep the waveform somewhere (open in GTKWave).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "test_env.h"

namespace {

uint64_t be64(const std::vector<unsigned char>& b, size_t off) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | b[off + i];
  return v;
}

TEST(Waveform, DirectedRunWritesFst) {
  const char* env = std::getenv("ARCSIM_RTL_FST");
  const std::filesystem::path path = env ? env : std::string(BUILD_DIR) + "/subcore_directed.fst";
  std::filesystem::remove(path);
  uint64_t cycles = 0;
  {
    arc::dut::SubcoreOptions opt;
    opt.fst_path = path.string();
    opt.out_ready_prob = 0.7;  // show some back-pressure in the picture
    arc::dut::SubcoreDut dut(opt);
    arc::test::CheckCounts counts;
    arc::test::run_and_check(dut, arc::golden::directed_cases(arc::fp::FtzMode::Flush), counts);
    EXPECT_EQ(counts.failed, 0u);
    cycles = dut.cycle();
  }  // closing the model finalizes the FST header
  std::ifstream f(path, std::ios::binary);
  ASSERT_TRUE(f.good()) << path;
  const std::vector<unsigned char> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GT(b.size(), 330u);
  EXPECT_EQ(b[0], 0u) << "FST_BL_HDR tag";
  EXPECT_EQ(be64(b, 1), 329u) << "FST header section length";
  const uint64_t end_time = be64(b, 17), vars = be64(b, 49);
  EXPECT_GE(end_time, 2 * cycles) << "end time covers the run (two time steps per cycle)";
  EXPECT_GT(vars, 20u) << "the top's ports and the units' signals are declared";
  std::printf("waveform %s: %zu bytes, %llu variables, end time %llu (%llu cycles)\n", path.c_str(), b.size(),
              static_cast<unsigned long long>(vars), static_cast<unsigned long long>(end_time),
              static_cast<unsigned long long>(cycles));
}

}  // namespace
