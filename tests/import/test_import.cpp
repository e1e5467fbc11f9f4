// arc_import: the Accel-Sim .traceg reader and the converter, on the samples in tests/import/data
// (written by make_samples.py; the expected numbers below follow from how it builds each warp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "accelsim_import.h"
#include "error.h"
#include "trace.h"
#include "traceg_line.h"

namespace {

using arc::import::ImportOptions;
using arc::import::import_accelsim;
using arc::trace::Instr;

const std::string kData = ARCSIM_IMPORT_DATA;

std::string tmp(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return (std::filesystem::temp_directory_path() /
          ("arcsim_import_" + std::to_string(getpid()) + "_" + std::string(info->name()) + "_" + tag))
      .string();
}

arc::trace::Trace import_to_trace(const ImportOptions& o, arc::import::ImportSummary* s = nullptr) {
  const std::string out = tmp(std::to_string(o.kernel_id) + ".arctrace");
  const auto sum = import_accelsim(o, out);
  if (s) *s = sum;
  auto t = arc::trace::read_trace(out);
  std::filesystem::remove(out);
  return t;
}

ImportOptions opts(const std::string& input, int kernel = 0) {
  ImportOptions o;
  o.input = kData + "/" + input;
  o.kernel_id = kernel;
  return o;
}

// Kernel 1, warp w of block tb: four REDs after 4, 2, 1, 0 other instructions (make_samples.py).
TEST(Import, ScatterKernelRecords) {
  arc::import::ImportSummary s;
  const auto t = import_to_trace(opts("scatter-plain.traceg"), &s);
  EXPECT_EQ(s.thread_blocks, 4u);
  EXPECT_EQ(s.warps, 8u);
  EXPECT_EQ(s.sass_instructions, 96u);
  EXPECT_EQ(s.kept_instructions, 32u);
  EXPECT_TRUE(s.other.empty());
  EXPECT_EQ(t.header.buffer_words, 712u);  // highest word 512 + 199
  EXPECT_EQ(t.header.gap_unit, arc::trace::GapUnit::Instructions);
  EXPECT_TRUE(t.header.timing_only);
  EXPECT_EQ(t.header.grid_blocks, 4u);
  EXPECT_EQ(t.header.threads_per_block, 64u);
  EXPECT_EQ(t.header.barriers_per_block, 0u);
  ASSERT_EQ(t.instrs.size(), 32u);
  const uint32_t gaps[4] = {4, 2, 1, 0};
  for (size_t i = 0; i < t.instrs.size(); ++i) {
    const Instr& in = t.instrs[i];
    const uint32_t g = static_cast<uint32_t>(i / 4), k = static_cast<uint32_t>(i % 4);  // g = 2 * block + warp
    EXPECT_EQ(in.sm, g / 2) << i;
    EXPECT_EQ(in.warp, g) << i;  // global: block * 2 + warp
    EXPECT_EQ(in.subcore, g % 2) << i;
    EXPECT_EQ(in.seq, k) << i;
    EXPECT_EQ(in.gap, gaps[k]) << i;
    EXPECT_EQ(in.flags, k == 0 ? arc::trace::kFlagFirstOfWarp : 0u) << i;
    for (int l = 0; l < 32; ++l) {
      if (!(in.active_mask >> l & 1)) continue;
      const uint32_t want = k == 0 ? g : k == 1 ? 64 + 16 * g + l : k == 2 ? 256 + 8 * g + l / 8 : 512 + (37 * l + g) % 200;
      EXPECT_EQ(in.addr[l], want) << i << " lane " << l;
    }
  }
  EXPECT_EQ(t.instrs[1].active_mask, 0x0000ffffu);
  EXPECT_EQ(t.instrs[3].active_mask, 0xaaaaaaaau);
}

// The compressed forms (base+stride, base+delta) decode to the same records as the listed ones.
TEST(Import, CompressedEqualsPlain) {
  const auto a = import_to_trace(opts("scatter-plain.traceg"));
  const auto b = import_to_trace(opts("app", 1));
  ASSERT_EQ(a.instrs.size(), b.instrs.size());
  for (size_t i = 0; i < a.instrs.size(); ++i) EXPECT_TRUE(arc::trace::same_content(a.instrs[i], b.instrs[i])) << i;
  EXPECT_EQ(a.header.buffer_words, b.header.buffer_words);
}

TEST(Import, MixedAtomicsCountedAndVectorsSplit) {
  arc::import::ImportSummary s;
  const auto t = import_to_trace(opts("app/kernel-2.traceg"), &s);
  EXPECT_EQ(s.kept_instructions, 6u);
  EXPECT_EQ(s.kept_by_width[0], 2u);
  EXPECT_EQ(s.kept_by_width[1], 2u);
  EXPECT_EQ(s.kept_by_width[2], 2u);
  EXPECT_EQ(s.records, 14u);
  EXPECT_EQ(s.zero_mask, 2u);
  EXPECT_EQ(s.shared_window, 2u);
  ASSERT_EQ(s.other.size(), 5u);
  EXPECT_EQ(s.other.at("ATOMS.ADD.U32").lane_ops, 64u);
  EXPECT_EQ(s.other.at("RED.ADD.U32").lane_ops, 8u);
  EXPECT_EQ(s.other.at("ATOMG.CAS.64").instructions, 2u);
  EXPECT_EQ(s.other.at("RED.ADD.F16x2").instructions, 2u);
  EXPECT_EQ(s.other.at("ATOM.ADD.F32 (generic, shared window)").instructions, 2u);
  ASSERT_EQ(t.instrs.size(), 14u);
  EXPECT_EQ(s.max_barriers, 1u);
  EXPECT_TRUE(t.header.timing_only);
  EXPECT_TRUE(t.final_buffer.empty());
  EXPECT_EQ(t.header.barriers_per_block, 1u);
  EXPECT_EQ(t.header.grid_blocks, 2u);
  EXPECT_EQ(t.header.threads_per_block, 32u);
  // Block 0: F32x2 (a 2-param call) after 7 instructions, F32x4 (4 params), ATOMG F32 (1).
  EXPECT_EQ(t.instrs[0].gap, 7u);
  EXPECT_EQ(t.instrs[0].nparams, 2u);
  EXPECT_EQ(t.instrs[1].param, 1u);
  EXPECT_EQ(t.instrs[1].flags, 0u);
  EXPECT_EQ(t.instrs[5].nparams, 4u);
  EXPECT_EQ(t.instrs[5].param, 3u);
  EXPECT_EQ(t.instrs[6].nparams, 1u);
  EXPECT_EQ(t.instrs[0].flags, arc::trace::kFlagFirstOfWarp);
  for (int c = 0; c < 2; ++c)
    for (int l = 0; l < 8; ++l) EXPECT_EQ(t.instrs[c].addr[l], 768u + 2 * (l / 2) + c);
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(t.instrs[2 + c].gap, 0u);
    EXPECT_EQ(t.instrs[2 + c].addr[0], 800u + c);
    EXPECT_EQ(t.instrs[2 + c].seq, 2u + c);
  }
  EXPECT_EQ(t.instrs[6].addr[31], 31u % 3);
  EXPECT_EQ(t.header.buffer_words, 808u);
}

// Kernels of a kernelslist run back to back on the same warp slots: kernel 2's first atomic
// on slot (0, 0) counts kernel 1's trailing EXIT and its own 7 instructions before it.
TEST(Import, KernelsBackToBack) {
  const auto t = import_to_trace(opts("app/kernelslist.g"));
  ASSERT_EQ(t.instrs.size(), 46u);
  const Instr& first_k2 = t.instrs[32];
  EXPECT_EQ(first_k2.sm, 0u);
  EXPECT_EQ(first_k2.warp, 0u);
  EXPECT_EQ(first_k2.seq, 4u);
  EXPECT_EQ(first_k2.gap, 8u);
  EXPECT_EQ(first_k2.flags, 0u);
}

TEST(Import, SlotsWrapOverSms) {
  auto o = opts("scatter-plain.traceg");
  o.sms = 3;
  const auto t = import_to_trace(o);
  const Instr& b3w1 = t.instrs[(3 * 2 + 1) * 4];  // block 3 -> SM 0 as its second block: slot 2 + 1
  EXPECT_EQ(b3w1.sm, 0u);
  EXPECT_EQ(b3w1.warp, 7u);
  EXPECT_EQ(b3w1.subcore, 3u);
}

TEST(Import, Deterministic) {
  const auto o = opts("app");
  const std::string a = tmp("a"), b = tmp("b");
  import_accelsim(o, a);
  import_accelsim(o, b);
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  const std::string ba{std::istreambuf_iterator<char>(fa), {}}, bb{std::istreambuf_iterator<char>(fb), {}};
  EXPECT_FALSE(ba.empty());
  EXPECT_EQ(ba, bb);
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST(ImportLine, AddressForms) {
  arc::import::SassInstr in;
  // base+delta with negative deltas, one per further active lane (lanes 1, 4, 5)
  EXPECT_EQ(arc::import::parse_instr_line("0040 00000032 0 RED.E.ADD.F32 2 R2 R5 4 2 0x1000 -8 16", 3, in), "");
  EXPECT_EQ(in.addr[1], 0x1000u);
  EXPECT_EQ(in.addr[4], 0xff8u);
  EXPECT_EQ(in.addr[5], 0x1008u);
  // base+stride, negative stride
  EXPECT_EQ(arc::import::parse_instr_line("0040 0000000e 0 RED.E.ADD.F32 2 R2 R5 4 1 0x100 -4", 3, in), "");
  EXPECT_EQ(in.addr[1], 0x100u);
  EXPECT_EQ(in.addr[3], 0xf8u);
  // tracer version < 3: block and warp ids lead every line
  EXPECT_EQ(arc::import::parse_instr_line("1 0 0 2 0040 00000001 0 RED.E.ADD.F32 2 R2 R5 4 0 0x0000000000000010", 2, in),
            "");
  EXPECT_EQ(in.addr[0], 0x10u);
  EXPECT_NE(arc::import::parse_instr_line("0040 00000001 0 RED.E.ADD.F32 2 R2 R5 4 2 0x8 -16", 3, in), "");
  EXPECT_NE(arc::import::parse_instr_line("0040 00000003 0 RED.E.ADD.F32 2 R2 R5 4 2 0x8 -16", 3, in), "");
  EXPECT_NE(arc::import::parse_instr_line("0040 00000001 1 RED.E.ADD.F32 2 R2 R5 4 0 0x8", 3, in), "");
  EXPECT_FALSE(arc::import::is_sass_opcode("RED..ADD"));
  EXPECT_FALSE(arc::import::is_sass_opcode("ADD."));
  EXPECT_TRUE(arc::import::is_sass_opcode("REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU"));
}

TEST(ImportBad, FileAndLineNamed) {
  auto o = opts("../bad/truncated-warp.traceg");
  try {
    import_accelsim(o, tmp("x"));
    FAIL() << "no error";
  } catch (const arc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated-warp.traceg:27: truncated warp"), std::string::npos) << e.what();
  }
}

}  // namespace
