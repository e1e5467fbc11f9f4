// Byte-level encoding of the trace format (FORMAT.md): header and records (block framing and the
// warp table: block_codec.cpp).
#include "trace_codec.h"

#include <bitset>
#include <cstdio>
#include <memory>

#include "error.h"
#include "lane_mask.h"

namespace arc::trace::detail {

const uint8_t* Cursor::varint_at(const uint8_t* p, uint64_t& v) const {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p == end_) fail("malformed: data ends inside a field");
    const uint8_t b = *p++;
    if (shift == 63 && (b & 0x7E)) fail("malformed: varint wider than 64 bits");
    v |= uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return p;
  }
  fail("malformed: varint longer than 10 bytes");
}

uint64_t Cursor::varint_long() {
  uint64_t v;
  p_ = varint_at(p_, v);
  return v;
}

std::string Cursor::str() {
  const uint32_t n = u32();
  need(n);
  std::string s(reinterpret_cast<const char*>(p_), n);
  p_ += n;
  return s;
}

void Cursor::fail(const std::string& msg) const { throw Error(what_ + ": " + msg); }

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

static void put_str(Bytes& b, const std::string& s) {
  put_u32(b, static_cast<uint32_t>(s.size()));
  b.insert(b.end(), s.begin(), s.end());
}

std::string check_header(const Header& h) {
  const auto range = [](const char* what, uint64_t v, uint64_t lo, uint64_t hi, const char* why) {
    return std::string(what) + " is " + std::to_string(v) + ", outside " + std::to_string(lo) + ".." + std::to_string(hi) +
           " (" + why + ")";
  };
  if (h.sm_count < 1 || h.sm_count > kMaxSms) return range("sm_count", h.sm_count, 1, kMaxSms, "SMs a GPU has");
  if (h.subcores_per_sm < 1 || h.subcores_per_sm > kMaxSubcoresPerSm)
    return range("subcores_per_sm", h.subcores_per_sm, 1, kMaxSubcoresPerSm, "sub-cores an SM has");
  if (h.balancing_threshold > kMaxThreshold)
    return range("balancing_threshold", h.balancing_threshold, 0, kMaxThreshold, "a group size in lanes");
  if (h.buffer_words > kMaxBufferWords)
    return range("buffer_words", h.buffer_words, 0, kMaxBufferWords, "addresses are 32-bit word indices");
  if (h.threads_per_block > kMaxThreadsPerBlock)
    return range("threads_per_block", h.threads_per_block, 0, kMaxThreadsPerBlock, "CUDA's block limit; 0 = unknown");
  if (h.resident_warps_per_sm > kMaxResidentWarpsPerSm)
    return range("resident_warps_per_sm", h.resident_warps_per_sm, 0, kMaxResidentWarpsPerSm,
                 "64 warps per sub-core x 16 sub-cores; 0 = unknown");
  if (h.reduce_ftz > 1) return "reduce_ftz is " + std::to_string(h.reduce_ftz) + " (0 or 1)";
  return "";
}

Bytes encode_header(const Header& h) {
  if (const std::string bad = check_header(h); !bad.empty()) throw Error("trace header: " + bad);
  Bytes body;
  put_str(body, h.gpu_name);
  put_u32(body, h.sm_count);
  put_u32(body, h.subcores_per_sm);
  put_str(body, h.kernel_name);
  put_u8(body, static_cast<uint8_t>(h.method));
  put_u32(body, h.balancing_threshold);
  put_str(body, h.scene_generator);
  put_u64(body, h.scene_seed);
  put_u64(body, h.buffer_words);
  put_u8(body, h.reduce_ftz);
  put_u8(body, static_cast<uint8_t>(h.gap_unit));
  put_u8(body, h.timing_only ? 1 : 0);
  put_u32(body, h.grid_blocks);
  put_u32(body, h.threads_per_block);
  put_u32(body, h.resident_warps_per_sm);
  put_u32(body, h.barriers_per_block);
  put_u32(body, static_cast<uint32_t>(h.metadata.size()));
  for (const auto& [k, v] : h.metadata) {
    put_str(body, k);
    put_str(body, v);
  }
  if (body.size() > kMaxHeaderBytes) throw Error("trace header larger than 1 MiB (metadata too long)");
  Bytes out(kMagic, kMagic + 8);
  put_u16(out, kVersion);
  put_u16(out, 0);
  put_u32(out, static_cast<uint32_t>(body.size()));
  out.insert(out.end(), body.begin(), body.end());
  put_u32(out, crc32_of(body.data(), body.size()));
  return out;
}

Header decode_header_body(const uint8_t* p, size_t n, const std::string& file, uint16_t version) {
  Cursor c(p, n, file + ": file header");
  Header h;
  h.gpu_name = c.str();
  h.sm_count = c.u32();
  h.subcores_per_sm = c.u32();
  h.kernel_name = c.str();
  const uint8_t m = c.u8();
  if (m > static_cast<uint8_t>(Method::SwT)) c.fail("unknown method code " + std::to_string(m));
  h.method = static_cast<Method>(m);
  h.balancing_threshold = c.u32();
  h.scene_generator = c.str();
  h.scene_seed = c.u64();
  h.buffer_words = c.u64();
  h.reduce_ftz = c.u8();
  if (h.reduce_ftz > 1) c.fail("reduce_ftz is " + std::to_string(h.reduce_ftz));
  const uint8_t g = c.u8();
  if (g > static_cast<uint8_t>(GapUnit::Instructions)) c.fail("unknown gap unit " + std::to_string(g));
  h.gap_unit = static_cast<GapUnit>(g);
  if (version >= 2) {
    const uint8_t to = c.u8();
    if (to > 1) c.fail("timing_only is " + std::to_string(to));
    h.timing_only = to == 1;
    h.grid_blocks = c.u32();
    h.threads_per_block = c.u32();
    h.resident_warps_per_sm = c.u32();
    h.barriers_per_block = c.u32();
  }
  const uint32_t nmeta = c.u32();
  for (uint32_t i = 0; i < nmeta; ++i) {
    std::string k = c.str();
    std::string v = c.str();
    h.metadata.emplace_back(std::move(k), std::move(v));
  }
  if (!c.done()) c.fail("malformed: trailing bytes");
  if (const std::string bad = check_header(h); !bad.empty()) c.fail(bad);
  return h;
}

// ---- records ------------------------------------------------------------------------------

std::string check_call(const Instr* call, size_t n) {
  const Instr& a = call[0];
  if (n != a.nparams) return "call of " + std::to_string(a.nparams) + " params has " + std::to_string(n);
  if (n == 1) return "";
  const int l0 = __builtin_ctz(a.active_mask);
  const int64_t stride = static_cast<int64_t>(call[1].addr[l0]) - static_cast<int64_t>(a.addr[l0]);
  for (size_t p = 0; p < n; ++p) {
    const Instr& b = call[p];
    const std::string at = "param " + std::to_string(p) + " of a " + std::to_string(n) + "-param call: ";
    if (b.param != p || b.nparams != n) return at + "param/nparams fields out of order";
    if (b.sm != a.sm || b.subcore != a.subcore || b.warp != a.warp || b.active_mask != a.active_mask ||
        b.reduced_mask != a.reduced_mask || (b.flags & ~kFlagFirstOfWarp) != (a.flags & ~kFlagFirstOfWarp))
      return at + "warp, mask or flags differ from param 0";
    if (p > 0 && ((b.flags & kFlagFirstOfWarp) || b.gap != 0)) return at + "only param 0 carries the gap and the first-of-warp flag";
    if (b.seq != a.seq + p) return at + "sequence numbers are not consecutive";
    for (int l = 0; l < kLanes; ++l)
      if ((a.active_mask >> l & 1) &&
          static_cast<int64_t>(b.addr[l]) != static_cast<int64_t>(a.addr[l]) + static_cast<int64_t>(p) * stride)
        return at + "lane " + std::to_string(l) + " address is not param 0's + " + std::to_string(p) + " x stride " +
               std::to_string(stride);
  }
  return "";
}

bool SeqBook::get(uint32_t sm, uint32_t warp, uint64_t& seq) const {
  if (sm < kDense && warp < kDense) {
    if (sm >= dense_.size() || warp >= dense_[sm].size() || dense_[sm][warp].epoch != epoch_) return false;
    seq = dense_[sm][warp].seq;
    return true;
  }
  const auto it = sparse_.find(uint64_t(sm) << 32 | warp);
  if (it == sparse_.end()) return false;
  seq = it->second;
  return true;
}

void SeqBook::set(uint32_t sm, uint32_t warp, uint64_t seq) {
  if (sm < kDense && warp < kDense) {
    if (sm >= dense_.size()) dense_.resize(sm + 1);
    if (warp >= dense_[sm].size()) dense_[sm].resize(warp + 1);
    dense_[sm][warp] = {epoch_, seq};
  } else {
    sparse_[uint64_t(sm) << 32 | warp] = seq;
  }
}

void SeqBook::reset() {
  sparse_.clear();
  if (++epoch_ == 0) {  // wrapped: forget every slot for real
    for (auto& v : dense_) v.assign(v.size(), Slot{});
    epoch_ = 1;
  }
}

void RecordEncoder::reset() {
  prev_addr_ = 0;
  last_seq_.reset();
}

void RecordEncoder::encode(const Instr* call, size_t n, Bytes& out) {
  const Instr& in = call[0];
  const uint32_t mask = in.active_mask;
  put_u8(out, static_cast<uint8_t>(std::bitset<32>(mask).count()));
  put_varint(out, in.sm);
  put_varint(out, in.subcore);
  put_varint(out, in.warp);
  uint64_t last = 0;
  const uint64_t predicted = last_seq_.get(in.sm, in.warp, last) ? last + 1 : 0;
  put_varint(out, zigzag(static_cast<int64_t>(in.seq - predicted)));
  last_seq_.set(in.sm, in.warp, in.seq + n - 1);
  put_u32(out, mask);
  put_varint(out, in.gap);
  put_varint(out, in.flags);
  put_varint(out, in.reduced_mask);
  put_varint(out, n);
  if (n > 1) {
    const int l0 = __builtin_ctz(mask);
    put_varint(out, zigzag(static_cast<int64_t>(call[1].addr[l0]) - static_cast<int64_t>(in.addr[l0])));
  }
  uint32_t prev = prev_addr_;
  bool first = true;
  for (int l = 0; l < kLanes; ++l) {
    if (!(mask >> l & 1)) continue;
    put_varint(out, zigzag(static_cast<int64_t>(in.addr[l]) - static_cast<int64_t>(prev)));
    prev = in.addr[l];
    if (first) prev_addr_ = in.addr[l];
    first = false;
  }
  if (timing_only_) return;
  for (size_t p = 0; p < n; ++p)
    for (int l = 0; l < kLanes; ++l)
      if (mask >> l & 1) put_u32(out, call[p].value[l]);
  for (size_t p = 0; p < n; ++p)
    for (int l = 0; l < kLanes; ++l)
      if (in.reduced_mask >> l & 1) put_u32(out, call[p].partial_sum[l]);
}

void RecordDecoder::reset() {
  prev_addr_ = 0;
  last_seq_.reset();
}

namespace {

// The most bytes a record's head (decode_head(): lane count, ids, seq, mask, gap, flags,
// reduced mask, param count, stride and 32 address deltas, varints of at most 10 bytes) takes.
constexpr size_t kMaxHeadBytes = 1 + 4 * 10 + 4 + 5 * 10 + kLanes * 10;

// A Cursor's next kMaxHeadBytes or more, read without a bounds check per field and with the
// position in a register (a Cursor's is a member, stored and reloaded around every field):
// decode() reads a record's head through one unless the block ends within kMaxHeadBytes.
// Malformed data fails through the cursor, with its messages.
class Window {
 public:
  explicit Window(const Cursor& c) : c_(c), p_(c.pos()) {}
  uint8_t u8() { return *p_++; }
  uint32_t u32() {
    const uint32_t v = get_u32(p_);
    p_ += 4;
    return v;
  }
  uint64_t varint() {
    uint64_t v;
    if (short_varint(p_, v)) return v;
    const Long r = varint_long(p_, c_);
    p_ = r.end;
    return r.v;
  }
  bool skip_zeros(size_t n) {
    if (!all_zero(p_, n)) return false;
    p_ += n;
    return true;
  }
  [[noreturn]] void fail(const std::string& msg) const { c_.fail(msg); }
  const uint8_t* pos() const { return p_; }

 private:
  // A varint of four bytes or more (Cursor::varint_at(), the cursor's own loop), out of line:
  // the position goes in and comes back by value, so the inlined fast path keeps it in a register.
  struct Long {
    uint64_t v;
    const uint8_t* end;
  };
  [[gnu::noinline]] static Long varint_long(const uint8_t* p, const Cursor& c) {
    Long r;
    r.end = c.varint_at(p, r.v);
    return r;
  }
  const Cursor& c_;
  const uint8_t* p_;
};

}  // namespace

// The message for a record field wider than its 32 bits (decode_head).
[[gnu::noinline, gnu::cold]] static std::string wide_field(uint64_t sm, uint64_t subcore, uint64_t warp, uint64_t gap,
                                                          uint64_t flags, uint64_t reduced) {
  const auto hex = [](uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return std::string(buf);
  };
  if (flags >> 32) return "undefined flag bits " + hex(flags & ~uint64_t(kFlagsDefined));
  if (reduced >> 32) return "reduced_mask " + hex(reduced) + " names lanes above 31";
  const std::pair<const char*, uint64_t> f[] = {{"sm", sm}, {"subcore", subcore}, {"warp", warp}, {"gap", gap}};
  for (const auto& [name, v] : f)
    if (v >> 32) return std::string("malformed: field ") + name + " is " + std::to_string(v) + ", more than 32 bits";
  return "malformed: a field wider than 32 bits";
}

// Inlined into decode(), where a Window is a local whose position stays in a register.
template <class In>
[[gnu::always_inline]] inline void RecordDecoder::decode_head(In& c, Instr& out) {
  const unsigned nlanes = c.u8();
  const uint64_t sm = c.varint(), subcore = c.varint(), warp = c.varint();
  out.sm = static_cast<uint32_t>(sm);
  out.subcore = static_cast<uint32_t>(subcore);
  out.warp = static_cast<uint32_t>(warp);
  uint64_t last = 0;
  const uint64_t predicted = track_seq_ && last_seq_.get(out.sm, out.warp, last) ? last + 1 : 0;
  out.seq = predicted + static_cast<uint64_t>(unzigzag(c.varint()));
  const uint32_t mask = c.u32();
  out.active_mask = mask;
  if (nlanes != static_cast<unsigned>(__builtin_popcount(mask)))
    c.fail("lane data inconsistent with the mask: " + std::to_string(nlanes) + " lane entries but active mask " +
           hex32(mask) + " has " + std::to_string(std::bitset<32>(mask).count()) + " lanes");
  const uint64_t gap = c.varint(), flags = c.varint(), reduced = c.varint();
  // Every one of these fields is 32 bits in memory: one test for all six (a wider value is
  // corrupt, never cut to 32 bits), the message then names the field.
  if ((sm | subcore | warp | gap | flags | reduced) >> 32) c.fail(wide_field(sm, subcore, warp, gap, flags, reduced));
  out.gap = static_cast<uint32_t>(gap);
  out.flags = static_cast<uint32_t>(flags);
  out.reduced_mask = static_cast<uint32_t>(reduced);
  uint64_t n = 1;
  int64_t stride = 0;
  if (version_ >= 2) {
    n = c.varint();
    if (n < 1 || n > kMaxParams)
      c.fail("malformed: a call of " + std::to_string(n) + " params (1.." + std::to_string(kMaxParams) + ")");
    if (n > 1) stride = unzigzag(c.varint());
    // Param p's addresses are param 0's + p x stride, all 32-bit: a stride of 2^32 or more
    // cannot be one (and (n - 1) x stride below would overflow int64 past the range test).
    if (stride > 0xFFFFFFFFll || stride < -0xFFFFFFFFll)
      c.fail("malformed: a call's address stride " + std::to_string(stride) + " leaves the 32-bit range");
  }
  if (track_seq_) last_seq_.set(out.sm, out.warp, out.seq + n - 1);
  out.param = 0;
  out.nparams = static_cast<uint8_t>(n);
  int64_t prev = prev_addr_;
  const int64_t span = static_cast<int64_t>(n - 1) * stride;
  uniform_ = false;
  if (!mask) out.addr.fill(0);  // (an empty mask is invalid: check_instr names it)
  for (uint32_t m = mask; m; m &= m - 1) {
    const int l = __builtin_ctz(m);
    const int64_t a = prev + unzigzag(c.varint());
    if (a < 0 || a > 0xFFFFFFFFll || a + span < 0 || a + span > 0xFFFFFFFFll)
      c.fail("malformed: address delta leaves the 32-bit range");
    prev = a;
    if (m == mask) {
      // A warp-uniform instruction: every later lane's delta is 0 (one zero byte each).
      if (nlanes == 1 || c.skip_zeros(nlanes - 1)) {
        fill_lanes(out.addr, static_cast<uint32_t>(a), mask);  // inactive lanes read zero
        uniform_ = true;
        break;
      }
      out.addr.fill(0);  // inactive lanes read zero
    }
    out.addr[l] = static_cast<uint32_t>(a);
  }
  if (mask) prev_addr_ = out.addr[__builtin_ctz(mask)];
  nparams_ = static_cast<uint32_t>(n);
  stride_ = stride;
}

void RecordDecoder::decode(Cursor& c, std::vector<Instr>& call, bool expand) {
  // Param 0 is decoded in place (call[0]); the other params of a call are copies of it with
  // their own seq, gap, flags and addresses.
  if (call.empty()) call.resize(1);
  if (c.left() >= kMaxHeadBytes) {
    Window w(c);
    decode_head(w, call[0]);
    c.skip_to(w.pos());
  } else {
    decode_head(c, call[0]);
  }
  const uint32_t mask = call[0].active_mask;
  const size_t n = nparams_;
  const int64_t stride = stride_;
  // A timing-only trace's values and partial sums are zero from the Instr's construction and
  // nothing here writes them: no fill.
  if (!expand && timing_only_) {
    call.resize(1);
    return;
  }
  call.resize(n);
  for (size_t p = 1; p < n; ++p) {
    Instr& x = call[p];
    x = call[0];
    x.param = static_cast<uint8_t>(p);
    x.seq = call[0].seq + p;
    x.gap = 0;
    x.flags &= ~kFlagFirstOfWarp;
    for (int l = 0; l < kLanes; ++l)
      if (mask >> l & 1) x.addr[l] = static_cast<uint32_t>(static_cast<int64_t>(call[0].addr[l]) + static_cast<int64_t>(p) * stride);
  }
  if (timing_only_) return;
  // Values: per param, one u32 per active lane; then partial sums, one per reduced leader.
  const uint32_t reduced = call[0].reduced_mask;
  const size_t nv = static_cast<size_t>(__builtin_popcount(mask)), ns = static_cast<size_t>(__builtin_popcount(reduced));
  if (packed_values_) {  // left where they are (the Instrs' values and sums stay 0)
    mask_ = mask;
    values_ = c.take(4 * nv * n);
    c.take(4 * ns * n);
    return;
  }
  for (size_t p = 0; p < n; ++p) {
    const uint8_t* v = c.take(4 * nv);
    call[p].value.fill(0);
    for (uint32_t m = mask; m; m &= m - 1, v += 4) call[p].value[static_cast<size_t>(__builtin_ctz(m))] = get_u32(v);
  }
  for (size_t p = 0; p < n; ++p) {
    const uint8_t* v = c.take(4 * ns);
    call[p].partial_sum.fill(0);
    for (uint32_t m = reduced; m; m &= m - 1, v += 4) call[p].partial_sum[static_cast<size_t>(__builtin_ctz(m))] = get_u32(v);
  }
}

}  // namespace arc::trace::detail
