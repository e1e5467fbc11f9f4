// arc::golden: the ONE behavioural model of ARC-HW (../shared/DESIGN.md, paper sections 4.3
// and 5.1). Tests, the `arcsim` CLI and the SystemC timing model all use it; the RTL
// (rtl/arc_subcore_top.sv) must emit exactly the transaction stream process() returns.
//
// Conventions (the contract, also in rtl/README.md):
//  - A warp instruction has 32 lanes; lane l is active iff bit l of active_mask is set.
//  - addr is a 32-bit word index into the gradient buffer; value is binary32 bits.
//  - Address groups: the active lanes sharing one address, ordered by their lowest lane.
//  - serial_sum: ascending lane order; the first lane's value is the start (acc = v[first];
//    acc = acc + v[next] ...), as SW-S on the GPU where the leader starts from its own value.
//    A one-lane group is therefore its value unchanged (no add, no flush: the ROP flushes).
//  - Routing is per group and all groups of one instruction see the same config and busy,
//    sampled once when the instruction is accepted (see SchedMode).
//  - process() order: groups in order of their lowest lane; a group routed to the LSU
//    yields one per-lane atomic per lane (ascending lane, lane_mask = that lane's bit);
//    a reduced group yields one (addr, serial_sum, group lane mask).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "fp32_native.h"
#include "fp32_ref.h"
#include "zero_table.h"

namespace arc::golden {

constexpr int kLanes = 32;

struct WarpInstr {
  uint32_t active_mask = 0;
  std::array<uint32_t, kLanes> addr{};   // word index into the gradient buffer
  std::array<uint32_t, kLanes> value{};  // binary32 bit patterns
};

struct Group {
  uint32_t addr;
  uint32_t lane_mask;
  bool operator==(const Group& o) const { return addr == o.addr && lane_mask == o.lane_mask; }
};

// Lanes of active_mask that share an address; groups ordered by their lowest lane.
std::vector<Group> match_addresses(const WarpInstr& in);

// Serial sum of in.value over lane_mask in ascending lane order, starting from the lowest
// lane's own value. lane_mask == 0 gives +0 (the empty sum).
// arith: the MPFR reference (default) or the host FPU (the timing model); same bits.
uint32_t serial_sum(const WarpInstr& in, uint32_t lane_mask, fp::FtzMode ftz, fp::Arith arith = fp::Arith::Reference);

// SW-B butterfly: inactive lanes contribute +0; v[l] = v[l] + v[l+off] for off = 16,8,4,2,1;
// returns lane 0. (Note +0 for inactive lanes: a lone -0 gives +0.)
uint32_t butterfly_sum(const std::array<uint32_t, kLanes>& values, uint32_t active_mask, fp::FtzMode ftz,
                       fp::Arith arith = fp::Arith::Reference);

// Adaptive's group tree (rule v4, sw/include/arc/reduce_detail.cuh group_tree_sum): the group's
// lanes ranked 0..n-1 in ascending lane order; at s = 1, 2, 4, ... rank r (a multiple of 2s)
// adds rank r + s's partial sum (when r + s < n); returns rank 0's. Only group_mask's lanes take
// part (no zeros from others). group_mask == 0 gives +0.
uint32_t group_tree_sum(const std::array<uint32_t, kLanes>& values, uint32_t group_mask, fp::FtzMode ftz,
                        fp::Arith arith = fp::Arith::Reference);

// Scheduler modes (RTL encoding in parentheses: mode_i[1:0]).
//  Never (0): every group goes to the LSU as per-lane atomics (the baseline).
//  Always (1): every group is reduced in the sub-core.
//  Threshold (2): a group with popcount(lane_mask) >= threshold is reduced (ARC-SW's
//    balancing threshold; threshold 0 reduces everything, > 32 nothing).
//  Dynamic (3): the paper's greedy policy: reduce iff the LSU/ROP-busy input is asserted.
//    busy is sampled once per instruction, in the cycle the instruction is accepted
//    (instr_valid_i && instr_ready_o), and applies to all of that instruction's groups.
enum class SchedMode : uint8_t { Never = 0, Always = 1, Threshold = 2, Dynamic = 3 };

struct SchedConfig {
  SchedMode mode = SchedMode::Dynamic;
  uint32_t threshold = 0;
  fp::FtzMode adder_ftz = fp::FtzMode::Flush;  // FTZ of the reduction unit's adder
  fp::Arith arith = fp::Arith::Reference;      // how process() computes sums (same bits)
};

enum class Route : uint8_t { Lsu = 0, Reduced = 1 };

struct Transaction {
  Route route;
  uint32_t addr;
  uint32_t value;
  uint32_t lane_mask;
  bool operator==(const Transaction& o) const {
    return route == o.route && addr == o.addr && value == o.value && lane_mask == o.lane_mask;
  }
  bool operator!=(const Transaction& o) const { return !(*this == o); }
};

// The scheduler's decision for one group.
Route route_group(const Group& g, const SchedConfig& cfg, bool busy);

// The exact ordered transaction stream the RTL top emits for one instruction.
std::vector<Transaction> process(const WarpInstr& in, const SchedConfig& cfg, bool busy);
// The same into `out` (cleared first; its storage is reused: the timing model calls it per instruction).
void process(const WarpInstr& in, const SchedConfig& cfg, bool busy, std::vector<Transaction>& out);
// process() of an instruction whose active lanes (active_mask != 0) are all on word `addr`
// with value +0 (a warp-uniform instruction of a timing-only trace), without its lanes.
void process_uniform_zero(uint32_t active_mask, uint32_t addr, const SchedConfig& cfg, bool busy,
                          std::vector<Transaction>& out);

const char* to_string(SchedMode m);
const char* to_string(Route r);
std::string describe(const Transaction& t);  // "reduced addr=0x.. value=0x.. mask=0x.."

// Gradient buffer with ROP semantics: apply() = add(word, value, FtzMode::Flush) with the
// reference adder, or the host FPU's (set_arith; the timing model).
// The words live in a ZeroTable: a large buffer costs memory only where atomics landed.
class MemoryImage {
 public:
  // dense: most words will be written (ZeroTable's huge-page hint).
  explicit MemoryImage(size_t words, uint32_t fill = 0, bool dense = false) : words_(words, dense) {
    if (fill) std::fill(words_.begin(), words_.end(), fill);
  }
  void set_arith(fp::Arith a) { arith_ = a; }
  explicit MemoryImage(const std::vector<uint32_t>& words) : words_(words) {}

  void apply(uint32_t addr, uint32_t value);  // throws arc::Error when addr >= size()
  void apply(const Transaction& t) { apply(t.addr, t.value); }
  // apply(addr, value_of(k)) for k = 0 .. n-1, in order: one range check, and on the host FPU
  // (Arith::Native) one load and store of the word for them all (the timing model's ROP commits
  // a word's ops in runs).
  template <class ValueOf>
  void apply_run(uint32_t addr, size_t n, ValueOf value_of) {
    if (addr >= words_.size() || arith_ != fp::Arith::Native) {
      for (size_t k = 0; k < n; ++k) apply(addr, value_of(k));
      return;
    }
    if (n == 0) return;
#if defined(__x86_64__) && defined(__SSE2__)
    // A longer run (a warp-uniform instruction's lanes): with MXCSR's DAZ (subnormal inputs read
    // as zero of their sign) and FTZ (a subnormal result is zero of its sign) on for the loop,
    // each add_native(w, v, Flush) is one addss and the chain stays in a register. The same
    // bits: an exact sum in the subnormal range is representable (both operands are multiples
    // of 2^-149), so FTZ flushes exactly what flush_subnormal would; a NaN stays a NaN through
    // the adds that follow, so canonicalizing once at the end is canonicalizing each. The empty
    // asm statements pin the adds between the two MXCSR writes (GCC does not order float
    // arithmetic against ldmxcsr by itself). tests/rtl/test_golden.cpp checks runs against
    // one apply() at a time, and tests/fp add_native against the MPFR reference. (Valgrind
    // ignores DAZ/FTZ: under it, such a run keeps subnormals, so compare images natively.)
    if (n >= kMxcsrRun) {
      const unsigned csr = _mm_getcsr();
      _mm_setcsr(csr | 0x8040u);  // FTZ (bit 15), DAZ (bit 6)
      __m128 acc = _mm_castsi128_ps(_mm_cvtsi32_si128(static_cast<int>(words_[addr])));
      asm volatile("" : "+x"(acc));
      for (size_t k = 0; k < n; ++k)
        acc = _mm_add_ss(acc, _mm_castsi128_ps(_mm_cvtsi32_si128(static_cast<int>(value_of(k)))));
      asm volatile("" : "+x"(acc));
      _mm_setcsr(csr);
      const auto w = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_castps_si128(acc)));
      words_[addr] = fp::is_nan(w) ? fp::kCanonicalNaN : w;
      return;
    }
#endif
    // fp::add_native(w, v, Flush) in turn, with w kept flushed between the adds (its result is
    // flushed or the canonical NaN: flushing it again is the identity) and the sum in a
    // register: one SSE addss rounds once to binary32 (x86-64, no x87 excess precision, and a
    // lone add has nothing to contract), the store and reload add_native's volatile forces
    // would lengthen this chain of dependent adds.
    uint32_t w = fp::flush_subnormal(words_[addr]);
    for (size_t k = 0; k < n; ++k) {
      const uint32_t v = fp::flush_subnormal(value_of(k));
      float fw, fv;
      std::memcpy(&fw, &w, sizeof fw);
      std::memcpy(&fv, &v, sizeof fv);
      const float sum = fw + fv;
      std::memcpy(&w, &sum, sizeof w);
      w = fp::is_nan(w) ? fp::kCanonicalNaN : fp::flush_subnormal(w);
    }
    words_[addr] = w;
  }
  uint32_t at(uint32_t addr) const;           // throws arc::Error when addr >= size()
  static constexpr size_t kMxcsrRun = 4;  // apply_run's register chain from this many ops on (x86-64)
  size_t size() const { return words_.size(); }
  const ZeroTable<uint32_t>& words() const { return words_; }
  ZeroTable<uint32_t> take_words() { return std::move(words_); }  // the image is empty after
  bool operator==(const MemoryImage& o) const { return words_ == o.words_; }

 private:
  ZeroTable<uint32_t> words_;
  fp::Arith arith_ = fp::Arith::Reference;
};

}  // namespace arc::golden
