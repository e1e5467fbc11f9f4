#include "pair_regroup.h"

#include <vector>

#include "error.h"
#include "fmt/format.h"

namespace arc::sim {

uint32_t pair_takers(const trace::Instr& in) {
  // second: active, the previous lane active on the same address, and not (the lane before that
  // active on the same address too); a taker is a lane whose next lane is a second.
  uint32_t seconds = 0;
  for (int l = 1; l < trace::kLanes; ++l) {
    if (!(in.active_mask >> l & 1u) || !(in.active_mask >> (l - 1) & 1u) || in.addr[l - 1] != in.addr[l]) continue;
    if (l >= 2 && (in.active_mask >> (l - 2) & 1u) && in.addr[l - 2] == in.addr[l]) continue;
    seconds |= 1u << l;
  }
  return seconds >> 1;
}

void pair_regroup(const trace::Instr* rec0, const trace::Instr* rec1, size_t nparams, trace::Instr* out) {
  const trace::Instr& h = rec0[0];
  for (size_t p = 0; p < nparams; ++p) {
    const trace::Instr* const rec[2] = {&rec0[p], &rec1[p]};
    if (rec1[p].active_mask != h.active_mask || rec0[p].nparams != nparams || rec1[p].nparams != nparams ||
        !(rec1[p].flags & trace::kFlagPairCall))
      throw Error(fmt::format("trace: SM {} warp {} instruction {}: a pair call (flag bit 8) whose record 1 does not "
                              "follow with the same lanes and params",
                              h.sm, h.warp, h.seq));
    for (uint32_t r = 0; r < 2; ++r) {
      trace::Instr& o = out[r * nparams + p];
      o = rec0[p];
      o.seq = h.seq + r * nparams + p;
      o.gap = r == 0 ? rec0[p].gap : 0;  // instruction 1 follows instruction 0 at once
      o.flags = (rec0[p].flags & ~trace::kFlagPairCall) | trace::kFlagPairSum;
      if (r == 1) o.flags &= ~trace::kFlagFirstOfWarp;
      o.active_mask = 0;
      o.reduced_mask = 0;
      for (uint32_t l = 0; l < static_cast<uint32_t>(trace::kLanes); ++l) {
        const uint32_t pix = 16 * r + l / 2;
        if (!(h.active_mask >> pix & 1u)) continue;
        o.active_mask |= 1u << l;
        o.addr[l] = rec[l % 2]->addr[pix];
        o.value[l] = rec[l % 2]->value[pix];
      }
    }
  }
  // Which lanes take their neighbour's value: param 0's addresses decide for every param (param
  // p's are param 0's + p x stride: the same pattern). The sums themselves the sub-core forms.
  for (uint32_t r = 0; r < 2; ++r) {
    trace::Instr& o0 = out[r * nparams];
    if (o0.active_mask == 0) continue;
    const uint32_t takers = pair_takers(o0);
    for (size_t p = 0; p < nparams; ++p) out[r * nparams + p].reduced_mask = takers;
  }
}

namespace {

class PairRegroupSource : public InstrSource {
 public:
  PairRegroupSource(InstrSource& inner, const TraceSummary& s) : in_(inner), s_(s), w_(s.warps.size()) {}

  const InstrBrief& brief(size_t w) override {
    Warp& x = w_[w];
    x.left = s_.warps[w].count;
    x.ib = in_.brief(w);
    load(w);
    return out_brief(x);
  }
  const trace::Instr& front(size_t w, const InstrBrief&) override {
    Warp& x = w_[w];
    return x.out ? (*x.out)[x.k] : in_.front(w, x.ib);
  }
  void pop(size_t w, InstrBrief& b, bool next) override {
    Warp& x = w_[w];
    --x.left;
    if (x.out) {
      if (++x.k == x.out->size()) {
        free_.push_back(std::move(x.out));  // x.out is empty now: the warp passes through again
        if (next) load(w);
      }
    } else {
      in_.pop(w, x.ib, next);
      if (next) load(w);
    }
    if (next) b = out_brief(x);
  }
  void will_pop(size_t w, const InstrBrief&) override {
    const Warp& x = w_[w];
    if (!x.out) in_.will_pop(w, x.ib);
  }
  uint32_t word_runs(size_t w, const InstrBrief&, uint32_t* words, uint32_t* counts) override {
    const Warp& x = w_[w];
    return x.out ? 0 : in_.word_runs(w, x.ib, words, counts);
  }
  uint64_t buffered_peak() const override { return in_.buffered_peak(); }
  uint64_t buffered_bytes_peak() const override { return in_.buffered_bytes_peak(); }
  TraceSummary finish(const TraceSummary& ran_on) override { return in_.finish(ran_on); }

 private:
  using Instrs = std::unique_ptr<std::vector<trace::Instr>>;
  struct Warp {
    InstrBrief ib;      // the inner source's brief of its current instruction
    uint64_t left = 0;  // instructions of this warp not yet popped
    Instrs out;         // while set: a pair call's regrouped instructions, served from k
    size_t k = 0;
  };

  const InstrBrief& out_brief(const Warp& x) {
    if (!x.out) return x.ib;
    brief_ = brief_of((*x.out)[x.k]);
    return brief_;
  }

  // If the warp's next instruction opens a pair call, reads both records from the inner source
  // and regroups them.
  void load(size_t w) {
    Warp& x = w_[w];
    if (!(x.ib.flags & trace::kFlagPairCall) || x.ib.param != 0) return;
    const size_t np = x.ib.nparams;
    if (x.left < 2 * np)
      throw Error(fmt::format("trace: warp {} (SM {}): a pair call (flag bit 8) with no record 1 (the warp ends)", s_.warps[w].warp,
                              s_.warps[w].sm));
    rec_.resize(2 * np);
    for (size_t i = 0; i < 2 * np; ++i) {
      rec_[i] = in_.front(w, x.ib);
      if (i == np && (!(rec_[i].flags & trace::kFlagPairCall) || rec_[i].param != 0))
        throw Error(fmt::format("trace: warp {} (SM {}): a pair call (flag bit 8) whose next record is not its record 1",
                                s_.warps[w].warp, s_.warps[w].sm));
      in_.pop(w, x.ib, x.left > i + 1);
    }
    // A buffer from the pool (as many as warps hold a pair at once: the resident ones).
    if (free_.empty()) {
      x.out = std::make_unique<std::vector<trace::Instr>>();
    } else {
      x.out = std::move(free_.back());
      free_.pop_back();
    }
    x.out->resize(2 * np);
    pair_regroup(rec_.data(), rec_.data() + np, np, x.out->data());
    x.k = 0;
  }

  InstrSource& in_;
  const TraceSummary& s_;
  std::vector<Warp> w_;
  std::vector<trace::Instr> rec_;  // scratch: the two records being regrouped
  std::vector<Instrs> free_;       // buffers no warp holds
  InstrBrief brief_;
};

}  // namespace

std::unique_ptr<InstrSource> pair_regroup_source(InstrSource& inner, const TraceSummary& s) {
  return std::make_unique<PairRegroupSource>(inner, s);
}

}  // namespace arc::sim
