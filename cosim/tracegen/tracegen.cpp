#include "tracegen.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

#include "atomic_file.h"
#include "error.h"
#include "numarg.h"

namespace arc::tracegen {

Activity activity_from_name(const std::string& s) {
  for (Activity a : {Activity::Full, Activity::Bernoulli, Activity::Uniform, Activity::First})
    if (s == name(a)) return a;
  throw Error("unknown lane activity '" + s + "' (expected full, bernoulli, uniform or first)");
}

Sharing sharing_from_name(const std::string& s) {
  for (Sharing x : {Sharing::Same, Sharing::K, Sharing::Distinct, Sharing::Pool, Sharing::Mix, Sharing::Line,
                    Sharing::Strided})
    if (s == name(x)) return x;
  throw Error("unknown address sharing '" + s + "' (expected same, k, distinct, pool, mix, line or strided)");
}

const char* name(Activity a) {
  switch (a) {
    case Activity::Full: return "full";
    case Activity::Bernoulli: return "bernoulli";
    case Activity::Uniform: return "uniform";
    case Activity::First: return "first";
  }
  return "?";
}

const char* name(Sharing s) {
  switch (s) {
    case Sharing::Same: return "same";
    case Sharing::K: return "k";
    case Sharing::Distinct: return "distinct";
    case Sharing::Pool: return "pool";
    case Sharing::Mix: return "mix";
    case Sharing::Line: return "line";
    case Sharing::Strided: return "strided";
  }
  return "?";
}

const std::vector<GenFlag>& gen_flags() {
  // Limits keep a run bounded: 1e9 instructions is tens of GB of trace; the buffer is held in
  // memory (4 bytes a word); a gap of 1e9 cycles is a second of a GPU's time per atomic.
  static const std::vector<GenFlag> t = {
      {"instructions", GenFlag::Count, 0, 1e9, {}},
      {"seed", GenFlag::Count, 0, 18446744073709551615.0, {}},
      {"sms", GenFlag::Count, 1, 4096, {}},
      {"subcores", GenFlag::Count, 1, 16, {}},
      {"warps-per-subcore", GenFlag::Count, 1, 64, {}},
      {"buffer-words", GenFlag::Count, 1, 268435456, {}},
      {"activity", GenFlag::Choice, 0, 0, {"full", "bernoulli", "uniform", "first"}},
      {"lane-prob", GenFlag::Real, 0, 1, {}},
      {"active", GenFlag::Count, 1, 32, {}},
      {"sharing", GenFlag::Choice, 0, 0, {"same", "k", "distinct", "pool", "mix", "line", "strided"}},
      {"region-stride", GenFlag::Count, 0, 268435456, {}},
      {"lane-stride", GenFlag::Count, 0, 268435456, {}},
      {"k", GenFlag::Count, 1, 32, {}},
      {"pool", GenFlag::Count, 1, 268435456, {}},
      {"p-same", GenFlag::Real, 0, 1, {}},
      {"sigma", GenFlag::Real, 0, 1e30, {}},
      {"special-prob", GenFlag::Real, 0, 1, {}},
      {"gap-mean", GenFlag::Real, 0, 1e9, {}},
      {"method", GenFlag::Choice, 0, 0, {"baseline", "sw-s", "sw-b"}},
      {"threshold", GenFlag::Count, 0, 32, {}},
      {"ftz", GenFlag::Choice, 0, 0, {"0", "1"}},
      {"block-records", GenFlag::Count, 1, 1048576, {}},
  };
  return t;
}

const GenFlag& gen_flag(const std::string& flag) {
  for (const auto& f : gen_flags())
    if (flag == f.flag) return f;
  std::string known;
  for (const auto& f : gen_flags()) known += (known.empty() ? "" : ", ") + std::string(f.flag);
  throw Error("unknown arcsim trace gen flag '" + flag + "' (known: " + known + ")");
}

uint64_t count_max(const GenFlag& f) {
  return f.max >= 18446744073709551615.0 ? UINT64_MAX : static_cast<uint64_t>(f.max);
}

void check_gen_flag(const std::string& flag, const std::string& value, const std::string& what) {
  const GenFlag& f = gen_flag(flag);
  const std::string name = what.empty() ? "--" + flag : what;
  switch (f.kind) {
    case GenFlag::Count:
      (void)parse_count(value, name, static_cast<uint64_t>(f.min), count_max(f));
      break;
    case GenFlag::Real:
      (void)parse_real(value, name, f.min, f.max);
      break;
    case GenFlag::Choice:
      for (const auto& c : f.choices)
        if (value == c) return;
      std::string list;
      for (const auto& c : f.choices) list += (list.empty() ? "" : ", ") + c;
      throw Error(name + ": '" + value + "' is not one of " + list);
  }
}

void validate(const GenConfig& c) {
  auto num = [](const char* flag, double v) {
    const GenFlag& f = gen_flag(flag);
    if (!std::isfinite(v) || v < f.min || v > f.max)
      throw Error(std::string("generator: ") + flag + " " + std::to_string(v) + " is out of range " +
                  range_text(f.min, f.max));
  };
  num("instructions", static_cast<double>(c.instructions));
  num("sms", c.sms);
  num("subcores", c.subcores_per_sm);
  num("warps-per-subcore", c.warps_per_subcore);
  num("buffer-words", c.buffer_words);
  num("lane-prob", c.lane_prob);
  num("active", c.active);
  num("k", c.k);
  num("pool", c.pool);
  num("region-stride", c.region_stride);
  num("lane-stride", c.lane_stride);
  num("p-same", c.p_same);
  num("sigma", c.value_sigma);
  num("special-prob", c.special_prob);
  num("gap-mean", c.gap_mean);
}

namespace {

// Draws from raw mt19937_64 outputs with fixed formulas (std:: distributions are not
// specified bit for bit, and the trace must not change with the standard library).
class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  uint64_t bits() { return g_(); }
  double unit() { return static_cast<double>(g_() >> 11) * 0x1.0p-53; }  // [0, 1)
  uint32_t below(uint64_t n) { return static_cast<uint32_t>((g_() >> 32) * n >> 32); }
  bool chance(double p) { return unit() < p; }
  double normal() {  // Box-Muller
    const double u1 = 1.0 - unit(), u2 = unit();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::mt19937_64 g_;
};

uint32_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

uint32_t draw_value(Rng& r, const GenConfig& c) {
  if (c.special_prob > 0 && r.chance(c.special_prob)) {
    const uint32_t sign = static_cast<uint32_t>(r.bits() & 1) << 31;
    switch (r.below(4)) {
      case 0:
      case 1: return sign | (1 + r.below(0x7FFFFF));                        // subnormal
      case 2: return sign | 0x7F800000u;                                     // infinity
      default: return sign | 0x7F800000u | (1 + r.below(0x7FFFFF));         // NaN, any payload
    }
  }
  return float_bits(static_cast<float>(r.normal() * c.value_sigma));
}

uint32_t draw_mask(Rng& r, const GenConfig& c) {
  switch (c.activity) {
    case Activity::Full: return 0xFFFFFFFFu;
    case Activity::First: return c.active >= 32 ? 0xFFFFFFFFu : (1u << c.active) - 1;
    case Activity::Bernoulli: {
      uint32_t m = 0;
      for (int l = 0; l < trace::kLanes; ++l)
        if (r.chance(c.lane_prob)) m |= 1u << l;
      return m ? m : 1u << r.below(32);
    }
    case Activity::Uniform: {
      const uint32_t n = 1 + r.below(32);
      int lanes[32];
      for (int l = 0; l < 32; ++l) lanes[l] = l;
      uint32_t m = 0;
      for (uint32_t i = 0; i < n; ++i) {  // partial Fisher-Yates
        const uint32_t j = i + r.below(32 - i);
        std::swap(lanes[i], lanes[j]);
        m |= 1u << lanes[i];
      }
      return m;
    }
  }
  return 0xFFFFFFFFu;
}

void draw_addresses(Rng& r, const GenConfig& c, trace::Instr& in) {
  const uint32_t W = c.buffer_words;
  Sharing s = c.sharing;
  if (s == Sharing::Mix) s = r.chance(c.p_same) ? Sharing::Same : Sharing::K;
  uint32_t choices[32];
  const uint32_t k = std::max<uint32_t>(1, std::min<uint32_t>(c.k, 32));
  if (s == Sharing::K)
    for (uint32_t i = 0; i < k; ++i) choices[i] = r.below(W);
  const uint32_t pool = std::max<uint32_t>(1, std::min(c.pool, W));
  const uint32_t base = s == Sharing::Pool ? r.below(W - pool + 1)
                        : s == Sharing::Line ? r.below(std::max<uint32_t>(1, W / 32)) * 32
                                             : r.below(W);
  for (int l = 0; l < trace::kLanes; ++l) {
    if (!(in.active_mask >> l & 1)) continue;
    switch (s) {
      case Sharing::Same: in.addr[l] = base; break;
      case Sharing::K: in.addr[l] = choices[r.below(k)]; break;
      case Sharing::Distinct: in.addr[l] = r.below(W); break;
      case Sharing::Pool: in.addr[l] = base + r.below(pool); break;
      case Sharing::Line: in.addr[l] = std::min(base + static_cast<uint32_t>(l) % k, W - 1); break;
      case Sharing::Mix:
      case Sharing::Strided: break;  // generate() places strided lanes by their warp
    }
  }
}

bool uniform_address(const trace::Instr& in) {
  const uint32_t a = in.addr[__builtin_ctz(in.active_mask)];
  for (int l = 0; l < trace::kLanes; ++l)
    if ((in.active_mask >> l & 1) && in.addr[l] != a) return false;
  return true;
}

// The GPU code's rule: reduce a group of >= threshold lanes, never a lone lane.
bool popcount_ok(uint32_t lanes, uint32_t threshold) {
  const auto n = static_cast<uint32_t>(__builtin_popcount(lanes));
  return n >= threshold && n > 1;
}

// __shfl_down_sync butterfly (offsets 16, 8, 4, 2, 1), inactive lanes contribute +0; lane 0's sum.
uint32_t butterfly(const trace::Instr& in, fp::FtzMode ftz) {
  uint32_t v[trace::kLanes];
  for (int l = 0; l < trace::kLanes; ++l) v[l] = (in.active_mask >> l & 1) ? in.value[l] : 0u;
  for (int off = 16; off >= 1; off /= 2)
    for (int l = 0; l < off; ++l) v[l] = fp::add_ref(v[l], v[l + off], ftz);
  return v[0];
}

}  // namespace

trace::Header make_header(const GenConfig& c) {
  trace::Header h;
  h.gpu_name = "synthetic";
  h.sm_count = c.sms;
  for (uint32_t id : c.sm_ids) h.sm_count = std::max(h.sm_count, id + 1);
  h.subcores_per_sm = c.subcores_per_sm;
  h.kernel_name = "arc_tracegen";
  h.method = c.method;
  h.balancing_threshold = c.method == trace::Method::Baseline ? 0 : c.threshold;
  h.scene_generator = "arc_tracegen";
  h.scene_seed = c.seed;
  h.buffer_words = c.buffer_words;
  h.reduce_ftz = static_cast<uint8_t>(c.reduce_ftz);
  h.gap_unit = trace::GapUnit::Cycles;
  h.timing_only = c.timing_only;
  h.metadata = {{"activity", name(c.activity)},
                {"lane_prob", std::to_string(c.lane_prob)},
                {"sharing", name(c.sharing)},
                {"k", std::to_string(c.k)},
                {"pool", std::to_string(c.pool)},
                {"p_same", std::to_string(c.p_same)},
                {"value_sigma", std::to_string(c.value_sigma)},
                {"special_prob", std::to_string(c.special_prob)},
                {"gap_mean", std::to_string(c.gap_mean)},
                {"warps_per_subcore", std::to_string(c.warps_per_subcore)},
                {"final_buffer", "replay of the method's atomics in trace order, FTZ=1 (ROP)"}};
  if (c.activity == Activity::First) h.metadata.emplace_back("active", std::to_string(c.active));
  if (c.fixed_addresses) h.metadata.emplace_back("fixed_addresses", "1");
  if (c.sharing == Sharing::Strided) {
    h.metadata.emplace_back("region_stride", std::to_string(c.region_stride));
    h.metadata.emplace_back("lane_stride", std::to_string(c.lane_stride));
  }
  if (!c.sm_ids.empty()) {
    std::string ids;
    for (uint32_t id : c.sm_ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
    h.metadata.emplace_back("sm_ids", ids);
  }
  return h;
}

GenResult generate(const GenConfig& c, const std::string& path, trace::WriterOptions opt,
                   const std::function<void(uint64_t)>& progress) {
  if (c.method != trace::Method::Baseline && c.method != trace::Method::SwS && c.method != trace::Method::SwB)
    throw Error(std::string("the generator makes baseline, sw-s or sw-b traces, not ") + trace::method_name(c.method));
  if (c.buffer_words == 0) throw Error("generator: buffer_words must be > 0");
  if (c.sharing == Sharing::Pool && c.pool > c.buffer_words)
    throw Error("generator: --pool " + std::to_string(c.pool) + " exceeds --buffer-words " +
                std::to_string(c.buffer_words) + " (the pool's words are distinct words of the buffer)");
  if (c.sms == 0 || c.subcores_per_sm == 0 || c.warps_per_subcore == 0)
    throw Error("generator: sms, subcores_per_sm and warps_per_subcore must be > 0");
  if (c.lane_prob < 0 || c.lane_prob > 1 || c.p_same < 0 || c.p_same > 1 || c.special_prob < 0 || c.special_prob > 1)
    throw Error("generator: probabilities must lie in [0, 1]");
  if (!c.sm_ids.empty()) {
    if (c.sm_ids.size() != c.sms)
      throw Error("generator: " + std::to_string(c.sm_ids.size()) + " SM ids given for " + std::to_string(c.sms) +
                  " SMs (--sm-ids needs one id per SM of --sms)");
    std::vector<uint32_t> sorted = c.sm_ids;
    std::sort(sorted.begin(), sorted.end());
    if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
      throw Error("generator: SM id " + std::to_string(*twice) + " is given twice in --sm-ids");
    const uint32_t max_sms = static_cast<uint32_t>(gen_flag("sms").max);  // ids as far as --sms goes
    if (sorted.back() >= max_sms)
      throw Error("generator: SM id " + std::to_string(sorted.back()) + " is out of range 0.." +
                  std::to_string(max_sms - 1));
  }
  if (c.threshold > 32)
    throw Error("generator: threshold " + std::to_string(c.threshold) +
                " exceeds the 32 lanes of a warp, so no group would ever be reduced (give 0..32)");
  validate(c);
  Rng r(c.seed);
  const trace::Header h = make_header(c);
  AtomicFile out(path);
  std::optional<trace::Writer> writer;
  try {
    writer.emplace(out.temp_path(), h, opt);
  } catch (const Error& e) {  // name the file the user gave, not the temporary one
    std::string m = e.what();
    for (auto at = m.find(out.temp_path()); at != std::string::npos; at = m.find(out.temp_path()))
      m.replace(at, out.temp_path().size(), path);
    throw Error(m);
  }
  trace::Writer& w = *writer;
  const uint32_t warps_per_sm = c.subcores_per_sm * c.warps_per_subcore;
  std::vector<uint64_t> next_seq(uint64_t(c.sms) * warps_per_sm, 0);
  std::vector<uint32_t> mem(c.buffer_words, 0);
  GenResult res;
  trace::Instr in;
  // fixed_addresses: each warp's 32 lane addresses, drawn (all lanes active) at its first instruction
  std::vector<std::array<uint32_t, trace::kLanes>> fixed(c.fixed_addresses ? next_seq.size() : 0);
  for (uint64_t i = 0; i < c.instructions; ++i) {
    const uint32_t wid = r.below(next_seq.size());
    in.sm = c.sm_ids.empty() ? wid / warps_per_sm : c.sm_ids[wid / warps_per_sm];
    in.warp = wid % warps_per_sm;
    in.subcore = in.warp % c.subcores_per_sm;
    in.seq = next_seq[wid]++;
    in.flags = in.seq == 0 ? trace::kFlagFirstOfWarp : 0;
    const double g = std::floor(-std::log(1.0 - r.unit()) * c.gap_mean);
    in.gap = g >= 4294967295.0 ? 0xFFFFFFFFu : static_cast<uint32_t>(g);
    if (g >= 4294967295.0) in.flags |= trace::kFlagGapClamped;
    in.active_mask = draw_mask(r, c);
    in.addr.fill(0);
    in.value.fill(0);
    in.partial_sum.fill(0);
    if (c.sharing == Sharing::Strided) {
      for (int l = 0; l < trace::kLanes; ++l)
        if (in.active_mask >> l & 1)
          in.addr[l] = static_cast<uint32_t>(
              (uint64_t{wid} * c.region_stride + uint64_t(static_cast<uint32_t>(l) % c.k) * c.lane_stride) %
              c.buffer_words);
    } else if (!c.fixed_addresses) {
      draw_addresses(r, c, in);
    } else {
      if (in.seq == 0) {
        const uint32_t mask = in.active_mask;
        in.active_mask = 0xFFFFFFFFu;
        draw_addresses(r, c, in);
        in.active_mask = mask;
        fixed[wid] = in.addr;
      }
      for (int l = 0; l < trace::kLanes; ++l) in.addr[l] = (in.active_mask >> l & 1) ? fixed[wid][l] : 0;
    }
    for (int l = 0; l < trace::kLanes; ++l)
      if (in.active_mask >> l & 1) in.value[l] = draw_value(r, c);
    // Address groups in order of their leader. SW-S reduces a group of >= threshold (and > 1)
    // lanes serially; SW-B sums the whole warp by the butterfly when all active lanes share
    // one address (as sw/include/arc/reduce.cuh).
    in.reduced_mask = 0;
    const bool tree = c.method == trace::Method::SwB && uniform_address(in) && popcount_ok(in.active_mask, c.threshold);
    if (tree) {
      const int lead = __builtin_ctz(in.active_mask);
      in.reduced_mask = 1u << lead;
      in.partial_sum[lead] = butterfly(in, c.reduce_ftz);
      mem[in.addr[lead]] = fp::add_ref(mem[in.addr[lead]], in.partial_sum[lead], fp::FtzMode::Flush);
      ++res.reduced_groups;
    }
    for (uint32_t rem = tree ? 0 : in.active_mask; rem;) {
      const int lead = __builtin_ctz(rem);
      uint32_t group = 0;
      for (uint32_t t = rem; t; t &= t - 1)
        if (in.addr[__builtin_ctz(t)] == in.addr[lead]) group |= 1u << __builtin_ctz(t);
      rem &= ~group;
      uint32_t& word = mem[in.addr[lead]];
      if (c.method == trace::Method::SwS && popcount_ok(group, c.threshold)) {
        uint32_t acc = in.value[lead];
        for (uint32_t t = group & (group - 1); t; t &= t - 1)
          acc = fp::add_ref(acc, in.value[__builtin_ctz(t)], c.reduce_ftz);
        in.reduced_mask |= 1u << lead;
        in.partial_sum[lead] = acc;
        word = fp::add_ref(word, acc, fp::FtzMode::Flush);
        ++res.reduced_groups;
      } else {
        for (uint32_t t = group; t; t &= t - 1) word = fp::add_ref(word, in.value[__builtin_ctz(t)], fp::FtzMode::Flush);
      }
    }
    w.write(in);
    if (progress && (i & 0x3FFF) == 0) progress(i);
  }
  w.finish(c.timing_only ? std::vector<uint32_t>{} : mem);
  res.instructions = w.instructions();
  res.lanes = w.lanes();
  res.bytes = w.bytes_written();
  writer.reset();
  out.commit();
  if (progress) progress(c.instructions);
  return res;
}

}  // namespace arc::tracegen
