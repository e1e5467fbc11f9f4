#include "l1_atomic_buffer.h"

#include <fmt/format.h>

#include <algorithm>

#include "error.h"
#include "fp32_native.h"
#include "subcore.h"

namespace arc::sim {

namespace {
constexpr size_t kMaxPending = 2;  // evicted lines waiting for the LSU before the buffer stops taking packets
}

BufferGeometry buffer_geometry(Mode mode, const config::GpuConfig& gpu, const config::ModelKnobs& k) {
  BufferGeometry g;
  const int64_t free_bytes = gpu.l1_sram_bytes - k.smem_bytes_per_sm;
  if (mode == Mode::LabIdeal) {
    g.lines = static_cast<uint64_t>(gpu.l1_sram_bytes / 4);
  } else if (mode == Mode::Lab) {
    if (free_bytes > 0) g.lines = static_cast<uint64_t>(free_bytes * k.lab_partition_pct / 100 / k.lab_entry_bytes);
  } else if (mode == Mode::Phi) {
    g.line_words = static_cast<uint32_t>(k.phi_line_bytes / 4);
    if (free_bytes > 0) g.lines = static_cast<uint64_t>(free_bytes / k.phi_line_bytes);
  }
  return g;
}

void validate_buffer(const RunSpec& spec) {
  const char* m = mode_name(spec.mode);
  if (spec.fidelity == Fidelity::Rtl)
    throw Error(fmt::format("--fidelity rtl: mode {} has no RTL (LAB, LAB-ideal and PHI are modelled at the fast level only)", m));
  if (spec.gpu.l1_sram_bytes == 0)
    throw Error(fmt::format("--mode {} needs l1_sram_bytes (the L1/shared SRAM per SM): set it in the GPU config or with --set", m));
  if (spec.mode != Mode::LabIdeal && spec.knobs.smem_bytes_per_sm >= spec.gpu.l1_sram_bytes)
    throw Error(fmt::format("smem_bytes_per_sm {} leaves no L1/shared SRAM (l1_sram_bytes {}) for mode {}",
                            spec.knobs.smem_bytes_per_sm, spec.gpu.l1_sram_bytes, m));
  const BufferGeometry g = buffer_geometry(spec.mode, spec.gpu, spec.knobs);
  if (g.lines == 0)
    throw Error(fmt::format("mode {}: the atomic buffer gets no entry from l1_sram_bytes {} (smem_bytes_per_sm {})", m,
                            spec.gpu.l1_sram_bytes, spec.knobs.smem_bytes_per_sm));
  if (g.lines > (1u << 24)) throw Error(fmt::format("mode {}: {} buffer entries per SM is more than the model holds (2^24)", m, g.lines));
}

BufferSetup buffer_setup(const RunSpec& spec, const CoalesceSetup& coalesce, bool values) {
  const auto& k = spec.knobs;
  BufferSetup b;
  b.mode = spec.mode;
  b.ports = static_cast<uint32_t>(spec.gpu.subcores_per_sm);
  b.geo = buffer_geometry(spec.mode, spec.gpu, k);
  b.banks = static_cast<uint32_t>(k.sram_banks);
  b.tag_cycles = spec.mode == Mode::LabIdeal ? 0 : static_cast<uint32_t>(k.lab_tag_cycles);
  b.evict_cycles = spec.mode == Mode::LabIdeal ? 0 : static_cast<uint32_t>(k.lab_evict_cycles);
  b.lookup_cycles = static_cast<uint32_t>(k.phi_lookup_cycles);
  b.values = values;
  b.coalesce = coalesce;
  if (spec.mode == Mode::Phi) b.coalesce.granule_words = b.geo.line_words;
  return b;
}

AtomicBuffer::AtomicBuffer(sc_core::sc_module_name name, const BufferSetup& setup, Stats& stats)
    : sc_module(name), setup_(setup), stats_(stats) {
  for (uint32_t i = 0; i < setup.ports; ++i) ports.push_back(std::make_unique<Link<Packet>>(1));
  const size_t slots = static_cast<size_t>(setup.geo.lines);
  value_.assign(slots * setup.geo.line_words, 0);
  lanes_.assign(slots * setup.geo.line_words, 0);
  dirty_.assign(slots, 0);
  free_slots_.reserve(slots);
  for (size_t s = slots; s-- > 0;) free_slots_.push_back(static_cast<uint32_t>(s));
  bank_load_.assign(setup.banks, 0);
  map_.reserve(slots);
  wake.bind([this] { step(); });
}

bool AtomicBuffer::cores_done() const {
  for (const SubCore* c : cores)
    if (!c->drained()) return false;
  for (const auto& p : ports)
    if (!p->empty()) return false;
  return true;
}

bool AtomicBuffer::drained() const {
  for (const auto& p : ports)
    if (!p->empty()) return false;
  return map_.empty() && pending_.empty();
}

uint64_t AtomicBuffer::buffered_lanes() const {
  uint64_t n = 0;
  for (const auto& [tag, e] : map_)
    for (uint32_t w = 0; w < setup_.geo.line_words; ++w) n += lanes_[e.slot * setup_.geo.line_words + w];
  return n;
}

void AtomicBuffer::evict_lru() {
  const uint32_t tag = lru_.back();
  lru_.pop_back();
  const auto it = map_.find(tag);
  const uint32_t slot = it->second.slot;
  map_.erase(it);
  const uint32_t lw = setup_.geo.line_words;
  scratch_.clear();
  for (uint32_t m = dirty_[slot]; m; m &= m - 1) {
    const uint32_t w = static_cast<uint32_t>(__builtin_ctz(m));
    const size_t i = static_cast<size_t>(slot) * lw + w;
    scratch_.push_back({tag * lw + w, value_[i], lanes_[i]});
    lanes_[i] = 0;
  }
  dirty_[slot] = 0;
  free_slots_.push_back(slot);
  stats_.buffer_words_sent += scratch_.size();
  Packet p = take_packet();
  append_requests(p, scratch_.data(), scratch_.size(), setup_.sm, setup_.coalesce);
  pending_.push_back(std::move(p));
}

Cycle AtomicBuffer::process(const Packet& p) {
  const uint32_t lw = setup_.geo.line_words;
  uint64_t ops = 0, evictions = 0;
  uint32_t busiest = 0;
  for (const Request& r : p)
    for (const LaneOp& op : r) {
      ++ops;
      uint32_t& load = bank_load_[op.addr % setup_.banks];
      busiest = std::max(busiest, ++load);
      const uint32_t tag = op.addr / lw, w = op.addr % lw;
      auto it = map_.find(tag);
      if (it == map_.end()) {
        ++stats_.buffer_misses;
        if (free_slots_.empty()) {
          evict_lru();
          ++evictions;
        }
        lru_.push_front(tag);
        it = map_.emplace(tag, Entry{lru_.begin(), free_slots_.back()}).first;
        free_slots_.pop_back();
      } else {
        ++stats_.buffer_hits;
        lru_.splice(lru_.begin(), lru_, it->second.lru);
      }
      const uint32_t slot = it->second.slot;
      const size_t i = static_cast<size_t>(slot) * lw + w;
      if (dirty_[slot] >> w & 1u) {
        if (setup_.values) value_[i] = fp::add_native(value_[i], op.value, fp::FtzMode::Flush);
        ++stats_.lane_adds_in_buffer;
      } else {
        value_[i] = op.value;
        dirty_[slot] |= 1u << w;
      }
      lanes_[i] += op.lanes;
    }
  for (const Request& r : p)
    for (const LaneOp& op : r) bank_load_[op.addr % setup_.banks] = 0;
  stats_.buffer_evictions += evictions;
  stats_.buffer_lookups += ops;
  switch (setup_.mode) {
    case Mode::LabIdeal: return std::max<Cycle>(1, busiest);
    case Mode::Phi: return setup_.tag_cycles + ops * setup_.lookup_cycles + evictions * setup_.evict_cycles;
    default: return std::max<Cycle>(1, setup_.tag_cycles + busiest + evictions * setup_.evict_cycles);
  }
}

void AtomicBuffer::step() {
  const Cycle now = now_cycle();
  const uint32_t n = setup_.ports;
  if (now >= busy_until_ && pending_.size() < kMaxPending) {
    if (flushing_) {
      if (!lru_.empty()) {
        evict_lru();
        ++stats_.buffer_flushed;
        busy_until_ = now + (setup_.mode == Mode::LabIdeal ? 1 : std::max<Cycle>(1, setup_.evict_cycles));
      }
    } else {
      for (uint32_t k = 0; k < n; ++k) {
        const uint32_t s = (rr_ + k) % n;
        if (!ports[s]->ready(now)) continue;
        Packet p = ports[s]->pop(now);
        const Cycle cost = process(p);
        give_back(std::move(p));
        busy_until_ = now + cost;
        stats_.buffer_busy_cycles += cost;
        rr_ = (s + 1) % n;
        break;
      }
      if (cores_done()) flushing_ = true;
    }
  }
  if (!pending_.empty() && out->can_push(now)) {
    out->push(now, std::move(pending_.front()));
    pending_.pop_front();
  }
  // Next wake: the LSU port for what is waiting, the pipeline for the flush or a packet.
  Cycle next = kNever;
  if (!pending_.empty()) {
    if (out->can_push(now + 1)) next = now + 1;
    else out->await_room(now);
  }
  if (pending_.size() < kMaxPending) {
    const Cycle free = std::max(busy_until_, now + 1);
    if (flushing_ && !lru_.empty()) next = std::min(next, free);
    for (const auto& p : ports) {
      const Cycle r = p->next_ready();
      if (r != kNever) next = std::min(next, std::max(r, free));
    }
    if (!flushing_ && busy_until_ > now && cores_done()) next = std::min(next, free);
  }
  if (next != kNever) wake.at(next);
}

}  // namespace arc::sim
