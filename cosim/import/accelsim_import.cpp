#include "accelsim_import.h"

#include <fmt/format.h>

#include <limits>
#include <unordered_map>

#include "atomic_op.h"
#include "error.h"
#include "trace.h"
#include "traceg.h"

namespace arc::import {

namespace {

constexpr const char* kGapModel =
    "SASS instructions a warp (SM, warp id) issued since its previous kept atomic, one issue slot each "
    "(the first atomic counts from the warp's start)";
constexpr const char* kSlotModel =
    "thread block t (file order) -> SM t % sms; its warp w -> warp id t * warps_per_block + w (global, "
    "block-linear), sub-core ((t / sms) * warps_per_block + w) % subcores (the SM's warp slot); kernels run "
    "back to back on equal (SM, warp id)";
constexpr const char* kVectorRule =
    "F32x2/F32x4: one call of 2 or 4 params (nparams, stride 1 word), component c at word + c; param 0 carries the gap";

// A block-wide barrier that waits (BAR.SYNC, BAR.RED, plain BAR), not an arrive (BAR.ARV).
bool is_barrier(const std::string& op) {
  return (op == "BAR" || op.compare(0, 4, "BAR.") == 0) && op.find(".ARV") == std::string::npos;
}

struct Slot {
  uint64_t pending = 0;  // instructions since the previous kept atomic
  uint64_t seq = 0;      // kept records so far
};

// Pass 1 (writer == nullptr): counts and the address range. Pass 2: writes the records.
class Converter : public Visitor {
 public:
  Converter(const ImportOptions& o, ImportSummary& s, trace::Writer* w) : opt_(o), s_(s), w_(w) {}

  void kernel(const KernelInfo& k) override {
    skip_ = opt_.kernel_id != 0 && k.id != opt_.kernel_id;
    if (skip_) return;
    k_ = k;
    tb_ = 0;
    s_.kernels.push_back(fmt::format("{} {}", k.id, k.name));
    kernels_.push_back(k);
  }
  void block(uint32_t, uint32_t, uint32_t) override {
    if (skip_) return;
    cur_tb_ = tb_++;
    ++s_.thread_blocks;
  }
  void warp(uint32_t w, uint64_t) override {
    if (skip_) return;
    ++s_.warps;
    const uint64_t sm = cur_tb_ % opt_.sms;
    const uint64_t warp = cur_tb_ * k_.warps_per_block() + w;                    // global, block-linear
    const uint64_t on_sm = cur_tb_ / opt_.sms * k_.warps_per_block() + w;        // the SM's warp slot
    if (warp > std::numeric_limits<uint32_t>::max())
      throw Error(fmt::format("{}: more than 2^32 warps in one kernel", k_.file));
    sm_ = static_cast<uint32_t>(sm);
    warp_ = static_cast<uint32_t>(warp);
    subcore_ = static_cast<uint32_t>(on_sm % opt_.subcores);
    slot_ = &slots_[sm << 32 | warp];
    warp_barriers_ = 0;
  }
  void instr(const SassInstr& in) override {
    if (skip_) return;
    ++s_.sass_instructions;
    const AtomicOp a = classify_atomic(in.opcode);
    if (is_barrier(in.opcode)) s_.max_barriers = std::max(s_.max_barriers, ++warp_barriers_);
    if (!a.atomic) return void(++slot_->pending);
    if (in.mem_width == 0) fail(in, fmt::format("atomic {} without addresses (memory width 0)", in.opcode));
    const int lanes = __builtin_popcount(in.mask);
    if (!a.keep) {
      count_other(a.key, lanes);
      return void(++slot_->pending);
    }
    if (!in.mask) {
      ++s_.zero_mask;
      return void(++slot_->pending);
    }
    if (a.generic && in_shared_window(in)) {
      ++s_.shared_window;
      count_other(a.key + " (generic, shared window)", lanes);
      return void(++slot_->pending);
    }
    keep(in, a, lanes);
  }
  void end_kernel() override {}

  uint64_t lo = std::numeric_limits<uint64_t>::max(), hi = 0;  // kept byte range [lo, hi)
  uint64_t base = 0;                                           // pass 2: byte address of word 0
  std::vector<KernelInfo> kernels_;

 private:
  [[noreturn]] void fail(const SassInstr& in, const std::string& what) const {
    throw Error(fmt::format("{}:{}: {}", k_.file, in.line, what));
  }
  void count_other(const std::string& key, int lanes) {
    auto& o = s_.other[key];
    ++o.instructions;
    o.lane_ops += static_cast<uint64_t>(lanes);
  }
  bool in_shared_window(const SassInstr& in) const {  // as Accel-Sim resolves generic accesses
    if (!k_.shmem_base || !k_.local_base) return false;
    const uint64_t a = in.addr[__builtin_ctz(in.mask)];
    return a >= k_.shmem_base && a < k_.local_base;
  }

  void keep(const SassInstr& in, const AtomicOp& a, int lanes) {
    const uint64_t align = 4ull * static_cast<uint64_t>(a.vector);
    for (uint32_t m = in.mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const uint64_t addr = in.addr[l];
      if (addr % align)
        fail(in, fmt::format("unaligned {} address 0x{:x} (lane {}): a float atomic needs {}-byte alignment",
                             in.opcode, addr, l, align));
      if (addr > std::numeric_limits<uint64_t>::max() - align)
        fail(in, fmt::format("address 0x{:x} (lane {}) at the end of the address space", addr, l));
      lo = std::min(lo, addr);
      hi = std::max(hi, addr + align);
    }
    ++s_.kept_instructions;
    ++s_.kept_by_width[a.vector == 1 ? 0 : a.vector == 2 ? 1 : 2];
    s_.records += static_cast<uint64_t>(a.vector);
    s_.lane_updates += static_cast<uint64_t>(lanes) * static_cast<uint64_t>(a.vector);
    const uint64_t gap = slot_->pending;
    slot_->pending = 0;
    const bool clamped = gap > std::numeric_limits<uint32_t>::max();
    s_.clamped_gaps += clamped;
    if (!w_) {
      slot_->seq += static_cast<uint64_t>(a.vector);
      return;
    }
    for (int c = 0; c < a.vector; ++c) {
      trace::Instr r;
      r.sm = sm_;
      r.subcore = subcore_;
      r.warp = warp_;
      r.seq = slot_->seq++;
      r.active_mask = in.mask;
      r.gap = c ? 0 : clamped ? std::numeric_limits<uint32_t>::max() : static_cast<uint32_t>(gap);
      r.flags = (c == 0 && r.seq == 0 ? trace::kFlagFirstOfWarp : 0) | (clamped ? trace::kFlagGapClamped : 0);
      r.param = static_cast<uint8_t>(c);  // one record of nparams components, stride 1 word
      r.nparams = static_cast<uint8_t>(a.vector);
      for (uint32_t m = in.mask; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        r.addr[l] = static_cast<uint32_t>((in.addr[l] - base) / 4 + static_cast<uint64_t>(c));
      }
      w_->write(r);
    }
  }

  const ImportOptions& opt_;
  ImportSummary& s_;
  trace::Writer* w_;
  KernelInfo k_;
  bool skip_ = false;
  uint64_t tb_ = 0, cur_tb_ = 0, warp_barriers_ = 0;
  uint32_t sm_ = 0, warp_ = 0, subcore_ = 0;
  Slot* slot_ = nullptr;
  std::unordered_map<uint64_t, Slot> slots_;
};

std::string join_other(const std::map<std::string, OtherAtomic>& other) {
  std::string s;
  for (const auto& [k, v] : other) s += fmt::format("{}{}={}/{}", s.empty() ? "" : " ", k, v.instructions, v.lane_ops);
  return s.empty() ? "none" : s;
}

trace::Header make_header(const ImportOptions& o, const ImportSummary& s, const std::vector<KernelInfo>& ks) {
  trace::Header h;
  const KernelInfo& k0 = ks.front();
  h.gpu_name = fmt::format("Accel-Sim trace, binary version {}", k0.binary_version);
  h.sm_count = o.sms;
  h.subcores_per_sm = o.subcores;
  h.kernel_name = ks.size() == 1 ? k0.name : fmt::format("{} kernels, first {}", ks.size(), k0.name);
  h.method = trace::Method::Baseline;
  h.scene_generator = "accelsim-import";
  h.buffer_words = s.buffer_words;
  h.gap_unit = trace::GapUnit::Instructions;
  h.timing_only = true;  // SASS traces carry addresses, not values
  h.grid_blocks = static_cast<uint32_t>(std::min<uint64_t>(s.thread_blocks, std::numeric_limits<uint32_t>::max()));
  bool one_shape = true;
  for (const auto& k : ks) one_shape &= k.block == k0.block;
  h.threads_per_block = one_shape ? k0.block[0] * k0.block[1] * k0.block[2] : 0;
  h.barriers_per_block = static_cast<uint32_t>(std::min<uint64_t>(s.max_barriers, std::numeric_limits<uint32_t>::max()));
  auto& m = h.metadata;
  m.emplace_back("import.from", "accelsim");
  m.emplace_back("import.input", o.input);
  m.emplace_back("import.files", std::to_string(s.files.size()));
  m.emplace_back("import.tracer_version", std::to_string(k0.tracer_version));
  m.emplace_back("import.nvbit_version", k0.nvbit_version);
  for (const auto& k : ks)
    m.emplace_back(fmt::format("import.kernel.{}", k.id),
                   fmt::format("{} grid=({},{},{}) block=({},{},{})", k.name, k.grid[0], k.grid[1], k.grid[2],
                               k.block[0], k.block[1], k.block[2]));
  m.emplace_back("import.address_base", fmt::format("0x{:x}", s.base_address));
  m.emplace_back("import.address_rule", "word = (byte address - address_base) / 4");
  m.emplace_back("import.gap_model", kGapModel);
  m.emplace_back("import.slot_model", kSlotModel);
  m.emplace_back("import.vector_rule", kVectorRule);
  m.emplace_back("import.kept", fmt::format("F32={} F32x2={} F32x4={}", s.kept_by_width[0], s.kept_by_width[1],
                                            s.kept_by_width[2]));
  m.emplace_back("import.other_atomics", join_other(s.other));
  m.emplace_back("import.zero_mask_skipped", std::to_string(s.zero_mask));
  m.emplace_back("import.sass_instructions", std::to_string(s.sass_instructions));
  m.emplace_back("import.launch_shape", "grid_blocks = thread blocks imported (all kernels); threads_per_block = "
                                        "their block size (0 if kernels differ); barriers_per_block = most BAR "
                                        "instructions one warp executed; resident warps per SM unknown (0)");
  return h;
}

}  // namespace

ImportSummary import_accelsim(const ImportOptions& o, const std::string& out_path) {
  if (o.sms == 0 || o.subcores == 0) throw Error("import: --sms and --subcores must be > 0");
  uint64_t memcpy_lines = 0;
  const auto files = resolve_inputs(o.input, &memcpy_lines);

  // Pass 1: every check, the counts and the address range.
  ImportSummary s1;
  s1.files = files;
  Converter scan(o, s1, nullptr);
  for (const auto& f : files) read_traceg(f, scan);
  if (scan.kernels_.empty())
    throw Error(fmt::format("{}: no kernel with id {} (kernels: {} files)", o.input, o.kernel_id, files.size()));
  if (s1.kept_instructions == 0)
    throw Error(fmt::format("{}: no global float atomic add (RED/ATOM .ADD.F32) with an active lane among {} SASS "
                            "instructions; other atomics: {}",
                            o.input, s1.sass_instructions, join_other(s1.other)));
  const uint64_t words = (scan.hi - scan.lo) / 4;
  const uint64_t limit = std::min<uint64_t>(o.max_buffer_words, 1ull << 32);
  if (words > limit)
    throw Error(fmt::format("{}: kept atomics span bytes 0x{:x}..0x{:x} = {} words, more than {} ({}); ARCsim "
                            "traces address one gradient buffer by 32-bit word index",
                            o.input, scan.lo, scan.hi, words, limit,
                            limit == o.max_buffer_words ? "--max-buffer-words" : "2^32"));

  // Pass 2: write.
  ImportSummary s2;
  s2.files = files;
  s2.memcpy_lines = memcpy_lines;
  s2.base_address = scan.lo;
  s2.buffer_words = words;
  s1.base_address = scan.lo;
  s1.buffer_words = words;
  const trace::Header h = make_header(o, s1, scan.kernels_);
  trace::Writer w(out_path, h);
  Converter write(o, s2, &w);
  write.base = scan.lo;
  for (const auto& f : files) read_traceg(f, write);
  w.finish();  // timing only: no final buffer
  s2.bytes = w.bytes_written();
  return s2;
}

}  // namespace arc::import
