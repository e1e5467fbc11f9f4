// Trace format version 2: multi-parameter calls (one record, k instructions), timing-only
// traces (no values), the launch shape, and reading version-1 files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "error.h"
#include "test_util.h"
#include "trace.h"
#include "trace_codec.h"

namespace arc::trace {
namespace {

using testing::read_bytes;
using testing::tmp_path;

Header header(bool timing_only) {
  Header h;
  h.gpu_name = "test";
  h.sm_count = 4;
  h.subcores_per_sm = 4;
  h.kernel_name = "k";
  h.buffer_words = 12 * 1000;
  h.timing_only = timing_only;
  h.grid_blocks = 510;
  h.threads_per_block = 256;
  h.resident_warps_per_sm = 40;
  h.barriers_per_block = 17;
  return h;
}

// A 9-param call of one warp: Gaussian g's gradients at 12 g + p, random lanes and groups.
std::vector<Instr> call(std::mt19937_64& g, uint64_t seq, uint32_t nparams, bool first) {
  Instr a;
  a.sm = static_cast<uint32_t>(g() % 4);
  a.subcore = static_cast<uint32_t>(g() % 4);
  a.warp = static_cast<uint32_t>(g() % 8);
  a.seq = seq;
  a.active_mask = static_cast<uint32_t>(g()) | 1u;
  a.gap = static_cast<uint32_t>(g() % 500);
  a.flags = first ? kFlagFirstOfWarp : 0;
  a.nparams = static_cast<uint8_t>(nparams);
  const uint32_t prim = static_cast<uint32_t>(g() % 990);
  for (int l = 0; l < kLanes; ++l) a.addr[l] = 12 * (prim + static_cast<uint32_t>(g() % 3));
  for (int l = 0; l < kLanes; ++l) {  // leaders of some groups reduced
    if (!(a.active_mask >> l & 1) || g() % 2) continue;
    bool leader = true;
    for (int k = 0; k < l; ++k) leader &= !((a.active_mask >> k & 1) && a.addr[k] == a.addr[l]);
    if (leader) a.reduced_mask |= 1u << l;
  }
  std::vector<Instr> out;
  for (uint32_t p = 0; p < nparams; ++p) {
    Instr x = a;
    x.param = static_cast<uint8_t>(p);
    x.seq = seq + p;
    if (p) x.gap = 0, x.flags = 0;
    for (int l = 0; l < kLanes; ++l) {
      if (a.active_mask >> l & 1) x.addr[l] = a.addr[l] + p;
      else x.addr[l] = 0;
      x.value[l] = (a.active_mask >> l & 1) ? static_cast<uint32_t>(g()) : 0;
      x.partial_sum[l] = (a.reduced_mask >> l & 1) ? static_cast<uint32_t>(g()) : 0;
    }
    out.push_back(x);
  }
  return out;
}

Trace calls_trace(uint64_t seed, bool timing_only) {
  std::mt19937_64 g(seed);
  Trace t;
  t.header = header(timing_only);
  uint64_t seq = 0;
  for (int i = 0; i < 700; ++i) {
    const uint32_t np = i % 5 == 0 ? 1 : 9;
    for (Instr& x : call(g, seq, np, i == 0)) {
      if (timing_only) x.value.fill(0), x.partial_sum.fill(0);
      t.instrs.push_back(x);
    }
    seq += np;
  }
  if (!timing_only) t.final_buffer.assign(t.header.buffer_words, 0x3f800000u);
  return t;
}

TEST(TraceV2, MultiParamCallsRoundTripAsOneRecordEach) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Trace t = calls_trace(seed, false);
    const std::string path = tmp_path("calls.arctrace");
    WriterOptions o;
    o.records_per_block = 37;  // calls straddle no block: a record is whole
    write_trace(path, t, o);
    const Trace back = read_trace(path);
    ASSERT_EQ(back.instrs.size(), t.instrs.size());
    for (size_t i = 0; i < t.instrs.size(); ++i) ASSERT_TRUE(same_content(back.instrs[i], t.instrs[i])) << "instr " << i;
    EXPECT_EQ(back.final_buffer, t.final_buffer);
    EXPECT_EQ(back.header.grid_blocks, 510u);
    EXPECT_EQ(back.header.threads_per_block, 256u);
    EXPECT_EQ(back.header.resident_warps_per_sm, 40u);
    EXPECT_EQ(back.header.barriers_per_block, 17u);
    // One record per call is smaller than one per parameter (the addresses are stored once).
    Trace flat = t;
    uint64_t seq = 0;
    for (Instr& x : flat.instrs) x.param = 0, x.nparams = 1, x.seq = seq++;
    const std::string flat_path = tmp_path("v2flat.arctrace");
    write_trace(flat_path, flat, o);
    EXPECT_LT(read_bytes(path).size(), read_bytes(flat_path).size());
  }
}

TEST(TraceV2, TimingOnlyStoresNoValuesAndReadsZeros) {
  const Trace full = calls_trace(7, false);
  Trace timing = full;
  timing.header.timing_only = true;
  for (Instr& x : timing.instrs) x.value.fill(0), x.partial_sum.fill(0);
  timing.final_buffer.clear();
  const std::string a = tmp_path("v2full.arctrace"), b = tmp_path("v2timing.arctrace");
  write_trace(a, full);
  write_trace(b, timing);
  EXPECT_LT(read_bytes(b).size(), read_bytes(a).size() / 2);
  const Trace back = read_trace(b);
  EXPECT_TRUE(back.header.timing_only);
  EXPECT_TRUE(back.final_buffer.empty());
  ASSERT_EQ(back.instrs.size(), full.instrs.size());
  for (size_t i = 0; i < back.instrs.size(); ++i) {
    EXPECT_EQ(back.instrs[i].addr, full.instrs[i].addr);
    for (uint32_t v : back.instrs[i].value) ASSERT_EQ(v, 0u);
  }
  // A timing-only trace takes no final buffer; a full one needs exactly its words.
  Writer w(tmp_path("v2t2.arctrace"), timing.header);
  EXPECT_THROW(w.finish(full.final_buffer), Error);
}

TEST(TraceV2, WriterRejectsParamsThatDisagree) {
  std::mt19937_64 g(3);
  auto expect_reject = [](std::vector<Instr> c, const char* what) {
    Writer w(tmp_path("v2bad.arctrace"), header(false));
    bool threw = false;
    try {
      for (const Instr& x : c) w.write(x);
    } catch (const Error& e) {
      threw = true;
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
    EXPECT_TRUE(threw) << what;
  };
  auto c = call(g, 0, 9, true);
  c[4].addr[__builtin_ctz(c[4].active_mask)] += 1;
  expect_reject(c, "stride");
  c = call(g, 0, 9, true);
  c[3].active_mask ^= 0x80000000u;
  c[3].reduced_mask &= c[3].active_mask;
  expect_reject(c, "differ from param 0");
  c = call(g, 0, 9, true);
  c[2].gap = 5;
  expect_reject(c, "only param 0 carries the gap");
  c = call(g, 0, 9, true);
  c[5].seq += 1;
  expect_reject(c, "not consecutive");
  c = call(g, 0, 9, true);
  std::swap(c[1], c[2]);
  expect_reject(c, "where param 1 of the call is due");
  // A call cut short: finish() refuses to close it.
  c = call(g, 0, 9, true);
  Writer w(tmp_path("v2cut.arctrace"), header(false));
  for (int p = 0; p < 4; ++p) w.write(c[static_cast<size_t>(p)]);
  EXPECT_THROW(w.finish(std::vector<uint32_t>(12 * 1000, 0)), Error);
}

TEST(TraceV2, ReadsTheBundledVersion1Trace) {
  Reader r(ARCSIM_TEST_DATA "/gs-sws-h100.arctrace");
  EXPECT_EQ(r.version(), 1);
  EXPECT_FALSE(r.header().timing_only);
  EXPECT_EQ(r.header().resident_warps_per_sm, 0u);  // unknown in version 1
  Instr in;
  uint64_t n = 0;
  while (r.next(in)) {
    EXPECT_EQ(in.nparams, 1);
    ++n;
  }
  EXPECT_EQ(n, 8271u);
  EXPECT_EQ(r.final_buffer().size(), r.header().buffer_words);
}

// Reader::next_call(): a whole call at once gives what next() gives param by param (every
// param rebuilt from param 0, the count and the stride; strides up and down, uniform and mixed
// lanes), and a param past the gradient buffer fails with next()'s message, param named.
Trace strided_calls(uint64_t seed) {
  std::mt19937_64 g(seed);
  Trace t;
  t.header = header(true);
  t.header.buffer_words = 1 << 16;
  uint64_t seq = 0;
  for (int i = 0; i < 900; ++i) {
    const uint32_t np = 1 + static_cast<uint32_t>(g() % 12);
    const int64_t stride = static_cast<int64_t>(g() % 41) - 20;
    Instr a;
    a.sm = static_cast<uint32_t>(g() % 4);
    a.subcore = static_cast<uint32_t>(g() % 4);
    a.warp = static_cast<uint32_t>(g() % 8);
    a.active_mask = static_cast<uint32_t>(g()) | 1u;
    a.gap = static_cast<uint32_t>(g() % 300);
    a.flags = i == 0 ? kFlagFirstOfWarp : 0;
    a.nparams = static_cast<uint8_t>(np);
    const uint32_t base = 1000 + static_cast<uint32_t>(g() % 60000);
    const bool uniform = g() % 2;
    for (int l = 0; l < kLanes; ++l) a.addr[l] = (a.active_mask >> l & 1) ? base + (uniform ? 0 : static_cast<uint32_t>(g() % 64)) : 0;
    for (uint32_t p = 0; p < np; ++p) {
      Instr x = a;
      x.param = static_cast<uint8_t>(p);
      x.seq = seq + p;
      if (p) x.gap = 0, x.flags = 0;
      for (int l = 0; l < kLanes; ++l)
        if (a.active_mask >> l & 1) x.addr[l] = static_cast<uint32_t>(a.addr[l] + static_cast<int64_t>(p) * stride);
      t.instrs.push_back(x);
    }
    seq += np;
  }
  return t;
}

TEST(TraceV2, NextCallEqualsNextParamByParam) {
  const std::string path = tmp_path("calls.arctrace");
  const Trace t = strided_calls(5);
  write_trace(path, t);
  Reader r(path);
  size_t i = 0, calls = 0;
  uint32_t n = 0;
  int64_t stride = 0;
  while (const Instr* in = r.next_call(n, stride)) {
    ++calls;
    for (uint32_t p = 0; p < n; ++p, ++i) {
      ASSERT_LT(i, t.instrs.size());
      Instr x = *in;
      x.param = static_cast<uint8_t>(p);
      x.seq = in->seq + p;
      if (p) x.gap = 0, x.flags &= ~kFlagFirstOfWarp;
      for (int l = 0; l < kLanes; ++l)
        if (in->active_mask >> l & 1) x.addr[l] = static_cast<uint32_t>(in->addr[l] + static_cast<int64_t>(p) * stride);
      EXPECT_TRUE(same_content(x, t.instrs[i])) << "call " << calls << " param " << p;
    }
  }
  EXPECT_EQ(i, t.instrs.size());
  EXPECT_EQ(calls, 900u);
  EXPECT_EQ(r.instructions(), t.instrs.size());
}

TEST(TraceV2, NextCallNamesTheParamPastTheBuffer) {
  // The same file with a smaller buffer in its header: some call's later params now leave it.
  const std::string path = tmp_path("calls.arctrace");
  const Trace t = strided_calls(6);
  write_trace(path, t);
  // The smallest buffer that holds every earlier call and this call's param 0 but not its
  // last param, for the first call where there is one.
  uint32_t words = 0, before = 0;
  for (size_t i = 0; i < t.instrs.size() && !words;) {
    const size_t n = t.instrs[i].nparams;
    uint32_t first = 0, all = 0;
    for (size_t p = 0; p < n; ++p)
      for (uint32_t m = t.instrs[i + p].active_mask; m; m &= m - 1) {
        const uint32_t a = t.instrs[i + p].addr[static_cast<size_t>(__builtin_ctz(m))];
        all = std::max(all, a);
        if (p == 0) first = std::max(first, a);
      }
    if (std::max(before, first) < all) words = std::max(before, first) + 1;
    before = std::max(before, all);
    i += n;
  }
  ASSERT_GT(words, 0u);
  std::vector<uint8_t> b = read_bytes(path);
  Header h = Reader(path).header();
  h.buffer_words = words;
  const detail::Bytes hb = detail::encode_header(h);
  const size_t at = testing::first_block_offset(b);
  b.erase(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(at));
  b.insert(b.begin(), hb.begin(), hb.end());
  const std::string bad = tmp_path("small.arctrace");
  testing::write_bytes(bad, b);
  auto error_of = [&](bool calls) {
    try {
      Reader r(bad);
      uint32_t n = 0;
      int64_t s = 0;
      if (calls)
        while (r.next_call(n, s)) {
        }
      else
        while (r.next()) {
        }
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string by_param = error_of(false), by_call = error_of(true);
  EXPECT_NE(by_param.find("is outside the gradient buffer (" + std::to_string(words) + " words)"), std::string::npos)
      << by_param;
  EXPECT_EQ(by_param.find(" param 0:"), std::string::npos) << "a later param must be the first outside: " << by_param;
  EXPECT_EQ(by_call, by_param);
  std::printf("%s\n", by_call.c_str());
}

// Reader::next_call's fast check of a warp-uniform record (detail::uniform_ok) says "fine"
// exactly when check_instr() finds nothing: every field check, the one address, and the one
// lane that may lead a group, on directed corner cases and fresh random instructions.
TEST(TraceV2, TheUniformRecordCheckAgreesWithCheckInstr) {
  Header h;
  h.sm_count = 8;
  h.subcores_per_sm = 4;
  h.buffer_words = 1000;
  auto uniform = [](uint32_t mask, uint32_t addr) {
    Instr in;
    in.active_mask = mask;
    for (int l = 0; l < kLanes; ++l)
      if (mask >> l & 1) in.addr[static_cast<size_t>(l)] = addr;
    return in;
  };
  std::vector<Instr> cases;
  const Instr ok = uniform(0xF0F0F0F0u, 999);
  cases.push_back(ok);
  auto with = [&](auto edit) {
    Instr in = ok;
    edit(in);
    cases.push_back(in);
  };
  with([](Instr& in) { in.addr.fill(0); in.active_mask = 0; });                    // no lane
  with([](Instr& in) { for (auto& a : in.addr) a = a ? 1000 : 0; });             // past the buffer
  with([](Instr& in) { in.sm = 8; });                                            // SM id
  with([](Instr& in) { in.subcore = 4; });                                       // sub-core id
  with([](Instr& in) { in.flags = 1u << 9; });                                   // undefined flag
  with([](Instr& in) { in.flags = kFlagTreeSum | kFlagOpaqueSum; });             // two sum orders
  with([](Instr& in) { in.flags = kFlagGroupTreeSum | kFlagOpaqueSum; });        // two sum orders
  with([](Instr& in) { in.flags = kFlagGroupTreeSum; });                         // group tree alone: fine
  with([](Instr& in) { in.flags = kFlagVec2 | kFlagVec4; });                     // two widths
  with([](Instr& in) { in.flags = kFlagsDefined & ~(kFlagOpaqueSum | kFlagVec4 | kFlagGroupTreeSum | kFlagPairSum | kFlagPairCall); });  // every other flag: fine
  // Pair sums (mask 0xF0F0F0F0): a reduced lane needs its next lane active, no two adjacent.
  with([](Instr& in) { in.flags = kFlagPairSum; in.reduced_mask = 0x10u; });     // fine
  with([](Instr& in) { in.flags = kFlagPairSum; in.reduced_mask = 0x40u; });     // not the lowest lane: fine
  with([](Instr& in) { in.flags = kFlagPairSum; in.reduced_mask = 0x50u; });     // two pairs: fine
  with([](Instr& in) { in.flags = kFlagPairSum; in.reduced_mask = 0x30u; });     // adjacent
  with([](Instr& in) { in.flags = kFlagPairSum; in.reduced_mask = 0x80u; });     // lane 8 inactive
  with([](Instr& in) { in.flags = kFlagPairSum; in.reduced_mask = 0x80000000u; });  // lane 31: no next lane
  with([](Instr& in) { in.flags = kFlagPairSum | kFlagTreeSum; });               // two sum orders
  with([](Instr& in) { in.flags = kFlagPairCall; });                             // fine
  with([](Instr& in) { in.flags = kFlagPairCall; in.reduced_mask = 0x10u; });    // a plain record reduces nothing
  with([](Instr& in) { in.flags = kFlagPairCall | kFlagPairSum; });              // both
  with([](Instr& in) { in.nparams = 0; });
  with([](Instr& in) { in.nparams = kMaxParams + 1; });
  with([](Instr& in) { in.nparams = 3; in.param = 3; });
  with([](Instr& in) { in.nparams = static_cast<uint8_t>(kMaxParams); in.param = 5; });  // fine
  with([](Instr& in) { in.reduced_mask = 0x10u; });                              // the lowest active lane leads: fine
  with([](Instr& in) { in.reduced_mask = 0x20u; });                              // a later lane of its group
  with([](Instr& in) { in.reduced_mask = 0x11u; });                              // a lane outside the mask
  with([](Instr& in) { in.reduced_mask = 0x80000000u; });                        // the highest active lane
  const size_t directed = cases.size();
  std::mt19937 rng(20261126);
  for (int i = 0; i < 20000; ++i) {
    uint32_t mask = static_cast<uint32_t>(rng());
    if (rng() % 4 == 0) mask = 1u << (rng() % 32);
    Instr in = uniform(mask, static_cast<uint32_t>(rng() % 1100));
    in.sm = static_cast<uint32_t>(rng() % 9);
    in.subcore = static_cast<uint32_t>(rng() % 5);
    in.flags = static_cast<uint32_t>(rng() % 640);
    in.nparams = static_cast<uint8_t>(rng() % 70);
    in.param = static_cast<uint8_t>(rng() % 70);
    const uint32_t r = static_cast<uint32_t>(rng());
    in.reduced_mask = rng() % 2 ? mask & (0u - mask) : rng() % 2 ? r & mask : r;
    cases.push_back(in);
  }
  size_t agree = 0, fine = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const bool by_check = check_instr(h, cases[i]).empty();
    EXPECT_EQ(detail::uniform_ok(h, cases[i]), by_check) << "case " << i << ": " << check_instr(h, cases[i]);
    agree += detail::uniform_ok(h, cases[i]) == by_check;
    fine += by_check;
  }
  std::printf("uniform check vs check_instr: %zu of %zu agree (%zu directed, %zu valid)\n", agree, cases.size(),
              directed, fine);
}

}  // namespace
}  // namespace arc::trace
