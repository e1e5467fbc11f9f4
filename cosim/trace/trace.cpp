// The trace reader (the only one; the writer is trace_writer.cpp): streaming, block by block,
// every block checksummed. Layout: FORMAT.md. Also check_instr, the one validity check every
// reader and writer applies (here, where the reader's record loop inlines it).
#include "trace.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "trace_codec.h"
#include "error.h"
#include "lane_mask.h"

namespace arc::trace {

// trace.h
std::string check_instr(const Header& h, const Instr& in) {
  if (in.active_mask == 0) return "active mask is 0 (an instruction has at least one active lane)";
  if (in.nparams < 1 || in.nparams > kMaxParams)
    return "a call of " + std::to_string(in.nparams) + " params (1.." + std::to_string(kMaxParams) + ")";
  if (in.param >= in.nparams)
    return "param " + std::to_string(in.param) + " of a " + std::to_string(in.nparams) + "-param call";
  if (in.flags & ~kFlagsDefined) return "undefined flag bits " + detail::hex32(in.flags & ~kFlagsDefined);
  if (__builtin_popcount(in.flags & kFlagsSumOrder) > 1)
    return "flags name more than one sum order (tree, library, group tree, pair)";
  if ((in.flags & kFlagPairCall) && (in.flags & kFlagPairSum))
    return "flags say both a pair call's plain record and a pair instruction";
  if ((in.flags & kFlagVec2) && (in.flags & kFlagVec4)) return "flags say both 2- and 4-wide vector atomics";
  if (h.sm_count && in.sm >= h.sm_count)
    return "SM id " + std::to_string(in.sm) + " >= SM count " + std::to_string(h.sm_count);
  if (h.subcores_per_sm && in.subcore >= h.subcores_per_sm)
    return "sub-core id " + std::to_string(in.subcore) + " >= sub-cores per SM " + std::to_string(h.subcores_per_sm);
  // (A buffer of 2^32 words holds every 32-bit address; the header allows no more.)
  if (const uint32_t bad = h.buffer_words > UINT32_MAX ? 0u : lanes_at_least(in.addr, static_cast<uint32_t>(h.buffer_words)) &
                                                                  in.active_mask) {
    const int l = __builtin_ctz(bad);
    return "lane " + std::to_string(l) + " address " + std::to_string(in.addr[l]) +
           " is outside the gradient buffer (" + std::to_string(h.buffer_words) + " words)";
  }
  if (in.reduced_mask & ~in.active_mask)
    return "lane data inconsistent with the mask: reduced_mask " + detail::hex32(in.reduced_mask) +
           " names lanes outside active mask " + detail::hex32(in.active_mask);
  if (in.flags & kFlagPairCall) {
    if (in.reduced_mask) return "a pair call's plain record names reduced lanes " + detail::hex32(in.reduced_mask);
    return {};
  }
  if (in.flags & kFlagPairSum) {  // reduced lane l took lane l+1's value: same address, l+1 not itself reduced
    if (in.reduced_mask & (in.reduced_mask << 1))
      return "pair sums: reduced_mask " + detail::hex32(in.reduced_mask) + " names two adjacent lanes";
    for (uint32_t r = in.reduced_mask; r; r &= r - 1) {
      const int l = __builtin_ctz(r);
      if (l == 31 || !(in.active_mask >> (l + 1) & 1u) || in.addr[l + 1] != in.addr[l])
        return "pair sums: reduced lane " + std::to_string(l) + " has no active next lane on its address";
    }
    return {};
  }
  for (uint32_t r = in.reduced_mask; r; r &= r - 1) {
    const int l = __builtin_ctz(r);
    for (uint32_t m = in.active_mask & ((1u << l) - 1); m; m &= m - 1) {
      const int k = __builtin_ctz(m);
      if (in.addr[k] == in.addr[l])
        return "reduced_mask bit " + std::to_string(l) + " is not a group leader (lane " + std::to_string(k) +
               " is active with the same address)";
    }
  }
  return {};
}

using detail::BlockKind;
using detail::Bytes;
using detail::File;

// ---- reader -------------------------------------------------------------------------------

struct Reader::Impl {
  std::string path;
  File f;
  uint64_t file_bytes = 0, offset = 0;
  Header header;
  uint64_t block_index = 0;  // index of the next block to read
  Bytes stored, raw;
  std::string where;         // "FILE: block N (offset O)" of the current block
  const uint8_t* rec_begin = nullptr;
  size_t rec_size = 0;
  std::unique_ptr<detail::Cursor> cur;
  uint32_t rec_left = 0, rec_in_block = 0;
  uint16_t version = kVersion;
  std::unique_ptr<detail::RecordDecoder> dec;
  std::vector<Instr> call;  // the current record's params
  size_t call_next = 0;     // next param of `call` to hand out
  bool records_done = false, ended = false;
  std::vector<uint32_t> buffer;
  bool keep_buffer = true;   // drop_final_buffer(): counted, not kept
  uint64_t buffer_words = 0; // final-buffer words read so far
  uint64_t instructions = 0, lanes = 0, record_blocks = 0, buffer_blocks = 0;
  uint64_t header_end = 0;  // offset of the first block
  uint64_t table_blocks = 0, table_instructions = 0;  // version 3: the warp table read so far
  // Warps whose last record opened a pair call (flag bit 8: record 0; its warp's next record is
  // its record 1, same lanes and params): (sm << 32 | warp) -> (mask, params). Empty unless a
  // trace has pair calls, so a trace without them pays one test per record.
  std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> open_pairs;
  // Version 3: the warp table entry by entry against the records (skip_warp_entries() turns it
  // off): each record's warp, in order of first appearance, with its instructions and gap sum,
  // and the table's entries as read; compared at the end block.
  bool check_entries = true;
  std::unordered_map<uint64_t, size_t> entry_of;  // (sm << 32 | warp) -> index into seen_warps
  std::vector<WarpEntry> seen_warps, table_warps;

  size_t read(uint8_t* p, size_t n) {
    const size_t got = std::fread(p, 1, n, f.get());
    offset += got;
    return got;
  }
  [[noreturn]] void truncated(const std::string& what) const {
    throw Error(path + ": truncated file: " + what + " (file is " + std::to_string(file_bytes) + " bytes)");
  }
  // Reads the next block; false at the end block.
  bool next_block();
  // Reads and checks every block left, through the end block (and that nothing follows it).
  void read_rest() {
    while (next_block()) {
    }
  }
  // Decodes the next record into `call` (expand: every param; else param 0 alone, timing-only
  // traces); false after the last record.
  bool decode_record(bool expand) {
    while (rec_left == 0)
      if (records_done || !next_block() || records_done) {
        read_rest();  // once, after the last record: the rest of the file is checked too
        if (!open_pairs.empty()) {
          const auto& [key, open] = *std::min_element(open_pairs.begin(), open_pairs.end());
          throw Error(path + ": SM " + std::to_string(key >> 32) + " warp " + std::to_string(key & 0xFFFFFFFFu) +
                      ": a pair call (flag bit 8) with no record 1 (the warp ends) (corrupt file)");
        }
        return false;
      }
    try {
      dec->decode(*cur, call, expand);
    } catch (const Error& e) {
      throw Error(std::string(e.what()).insert(where.size(), " record " + std::to_string(rec_in_block)));
    }
    if ((call[0].flags & kFlagPairCall) || !open_pairs.empty()) pair_record(call[0]);
    if (check_entries) see_record(call[0], dec->nparams());
    return true;
  }
  // A record (a call of n params, param 0 `in`) for the warp-table check.
  void see_record(const Instr& in, uint32_t n) {
    const auto [at, fresh] = entry_of.try_emplace(uint64_t{in.sm} << 32 | in.warp, seen_warps.size());
    if (fresh) seen_warps.push_back({in.sm, in.subcore, in.warp, 0, 0});
    WarpEntry& e = seen_warps[at->second];
    e.instructions += n;
    e.gap_sum += in.gap;  // (the call's later params have gap 0)
  }
  // At the end block, after the totals: the table lists exactly the records' warps.
  void check_entries_now() const {
    if (table_warps.size() != seen_warps.size())
      throw Error(path + ": the trace's warp table lists " + std::to_string(table_warps.size()) +
                  " warps, the records hold " + std::to_string(seen_warps.size()) + " (corrupt file)");
    for (size_t i = 0; i < seen_warps.size(); ++i) {
      const WarpEntry& e = table_warps[i];
      const WarpEntry& w = seen_warps[i];
      if (!(e == w))
        throw Error(path + ": the trace's warp table entry " + std::to_string(i) + " (SM " + std::to_string(e.sm) +
                    ", sub-core " + std::to_string(e.subcore) + ", warp " + std::to_string(e.warp) + ", " +
                    std::to_string(e.instructions) + " instructions, gap sum " + std::to_string(e.gap_sum) +
                    ") does not match the records (SM " + std::to_string(w.sm) + ", sub-core " + std::to_string(w.subcore) +
                    ", warp " + std::to_string(w.warp) + ", " + std::to_string(w.instructions) + " instructions, gap sum " +
                    std::to_string(w.gap_sum) + ") (corrupt file)");
    }
  }
  // A record of a trace with pair calls: it opens a pair, closes its warp's open one (its
  // record 1), or, if its warp has one open, is not that pair's record 1 (corrupt).
  void pair_record(const Instr& in) {
    const uint64_t key = uint64_t{in.sm} << 32 | in.warp;
    const auto open = open_pairs.find(key);
    if (open == open_pairs.end()) {
      if (in.flags & kFlagPairCall) open_pairs.emplace(key, std::pair<uint32_t, uint32_t>{in.active_mask, in.nparams});
      return;
    }
    if (!(in.flags & kFlagPairCall) || open->second != std::pair<uint32_t, uint32_t>{in.active_mask, in.nparams})
      throw Error(where + " record " + std::to_string(rec_in_block) + ": SM " + std::to_string(in.sm) + " warp " +
                  std::to_string(in.warp) + ": a pair call (flag bit 8) whose next record is not its record 1 (flag bit 8, "
                  "the same lanes and params)");
    open_pairs.erase(open);
  }
  // A param of the current record (a call of n params) is invalid: the one-line error.
  [[noreturn]] void bad_param(uint32_t n, uint32_t param, const std::string& problem) const {
    throw Error(where + " record " + std::to_string(rec_in_block) + (n > 1 ? " param " + std::to_string(param) : std::string()) +
                ": " + problem);
  }
  // The current record is checked and taken.
  void end_record() {
    ++rec_in_block;
    if (--rec_left == 0 && !cur->done()) throw Error(where + ": malformed: bytes left after the last record");
  }
};

bool Reader::Impl::next_block() {
  if (ended) return false;
  uint8_t bh_bytes[detail::kBlockHeaderBytes];
  const uint64_t at = offset;
  where = path + ": block " + std::to_string(block_index) + " (offset " + std::to_string(at) + ")";
  const size_t got = read(bh_bytes, sizeof bh_bytes);
  if (got == 0) truncated("it ends after block " + std::to_string(block_index) + " without the end-of-trace block");
  if (got < sizeof bh_bytes) truncated("block " + std::to_string(block_index) + " header is cut off");
  const detail::BlockHeader bh = detail::parse_block_header(bh_bytes, where);
  stored.resize(bh.stored_bytes);
  if (read(stored.data(), bh.stored_bytes) < bh.stored_bytes)
    truncated("block " + std::to_string(block_index) + " data is cut off");
  detail::unframe_payload(bh, stored.data(), raw, where);
  ++block_index;
  switch (bh.kind) {
    case BlockKind::Records:
      if (records_done) throw Error(where + ": instruction block after the final buffer");
      if (bh.count == 0) throw Error(where + ": instruction block with no records");
      cur = std::make_unique<detail::Cursor>(raw.data(), raw.size(), where);
      rec_left = bh.count;
      rec_in_block = 0;
      dec->reset();
      ++record_blocks;
      return true;
    case BlockKind::Buffer: {
      if (table_blocks) throw Error(where + ": final-buffer block after the warp table");
      if (header.timing_only) throw Error(where + ": a final-buffer block in a timing-only trace (it stores none)");
      records_done = true;
      if (uint64_t(bh.count) * 4 != raw.size()) throw Error(where + ": buffer block size does not match its count");
      if (buffer_words + bh.count > header.buffer_words)
        throw Error(where + ": final buffer longer than the header's " + std::to_string(header.buffer_words) + " words");
      if (keep_buffer)
        for (uint32_t i = 0; i < bh.count; ++i) buffer.push_back(detail::get_u32(raw.data() + 4 * i));
      buffer_words += bh.count;
      ++buffer_blocks;
      return true;
    }
    case BlockKind::WarpTable: {
      if (version < 3) throw Error(where + ": a warp-table block in a version-" + std::to_string(version) + " trace");
      records_done = true;
      table_instructions += detail::decode_warp_table(raw, bh.count, header, where, check_entries ? &table_warps : nullptr);
      ++table_blocks;
      return true;
    }
    case BlockKind::End: {
      records_done = true;
      const detail::EndTotals e = detail::decode_end(raw, where);
      if (e.instructions != instructions || e.lanes != lanes || e.instruction_blocks != record_blocks ||
          e.buffer_blocks != buffer_blocks)
        throw Error(where + ": end-of-trace totals (" + std::to_string(e.instructions) + " instructions, " +
                    std::to_string(e.lanes) + " lanes, " + std::to_string(e.instruction_blocks) + " instruction blocks, " +
                    std::to_string(e.buffer_blocks) + " buffer blocks) do not match the file (" +
                    std::to_string(instructions) + ", " + std::to_string(lanes) + ", " + std::to_string(record_blocks) +
                    ", " + std::to_string(buffer_blocks) + "): blocks are missing or extra (corrupt file)");
      if (version >= 3 && table_blocks == 0) throw Error(where + ": the warp table is missing (a version-3 trace has one)");
      if (version >= 3 && table_instructions != instructions)
        throw Error(where + ": the warp table lists " + std::to_string(table_instructions) +
                    " instructions, the records hold " + std::to_string(instructions) + " (corrupt file)");
      if (version >= 3 && check_entries) check_entries_now();
      const uint64_t want = header.timing_only ? 0 : header.buffer_words;
      if (buffer_words != want)
        throw Error(where + ": final buffer has " + std::to_string(buffer_words) + " words, " +
                    (header.timing_only ? std::string("a timing-only trace stores none")
                                        : "header says " + std::to_string(header.buffer_words)));
      uint8_t extra;
      if (read(&extra, 1) != 0) throw Error(path + ": unexpected data after the end-of-trace block");
      ended = true;
      return false;
    }
  }
  return false;
}

Reader::Reader(const std::string& path) : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  m.path = path;
  m.f.reset(std::fopen(path.c_str(), "rb"));
  if (!m.f) throw Error("cannot open trace '" + path + "': " + std::strerror(errno));
  std::fseek(m.f.get(), 0, SEEK_END);
  m.file_bytes = static_cast<uint64_t>(std::ftell(m.f.get()));
  std::fseek(m.f.get(), 0, SEEK_SET);
  std::setvbuf(m.f.get(), nullptr, _IOFBF, 1 << 20);
  uint8_t pre[detail::kPreambleBytes];
  const size_t got = m.read(pre, sizeof pre);
  if (got == 0 && std::ferror(m.f.get())) throw Error("cannot read trace '" + path + "': " + std::strerror(errno));
  if (got == 0) throw Error(path + ": not an ARCsim trace (empty file)");
  const size_t magic_seen = std::min<size_t>(got, 8);
  if (std::memcmp(pre, detail::kMagic, magic_seen) != 0)
    throw Error(path + ": not an ARCsim trace (wrong magic; expected \"ARCTRACE\")");
  if (got < sizeof pre) m.truncated("the file header is cut off");
  const uint16_t version = detail::get_u16(pre + 8);
  if (version < kOldestVersion || version > kVersion)
    throw Error(path + ": unsupported trace format version " + std::to_string(version) + " (this arcsim reads versions " +
                std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) + ")");
  m.version = version;
  m.check_entries = version >= 3;  // older files have no warp table to check
  if (detail::get_u16(pre + 10) != 0)
    throw Error(path + ": unsupported trace flags " + std::to_string(detail::get_u16(pre + 10)) +
                " in the preamble (this arcsim knows none)");
  const uint32_t hlen = detail::get_u32(pre + 12);
  if (hlen > detail::kMaxHeaderBytes) throw Error(path + ": file header length " + std::to_string(hlen) + " is implausible");
  Bytes body(hlen + 4);
  if (m.read(body.data(), body.size()) < body.size()) m.truncated("the file header is cut off");
  if (detail::crc32_of(body.data(), hlen) != detail::get_u32(body.data() + hlen))
    throw Error(path + ": checksum mismatch in the file header (corrupt file)");
  m.header = detail::decode_header_body(body.data(), hlen, path, version);
  m.dec = std::make_unique<detail::RecordDecoder>(version, m.header.timing_only);
  m.header_end = m.offset;
}

std::optional<WarpTable> Reader::warp_table() const {
  const auto& m = *impl_;
  if (m.version < 3) return std::nullopt;
  File f(std::fopen(m.path.c_str(), "rb"));
  if (!f) throw Error("cannot open trace '" + m.path + "': " + std::strerror(errno));
  WarpTable t;
  uint64_t table_blocks = 0, listed = 0;
  Bytes stored, raw;
  uint64_t at = m.header_end;
  for (uint64_t block = 0;; ++block) {
    const std::string where = m.path + ": block " + std::to_string(block) + " (offset " + std::to_string(at) + ")";
    uint8_t bh_bytes[detail::kBlockHeaderBytes];
    if (at + sizeof bh_bytes > m.file_bytes || std::fseek(f.get(), static_cast<long>(at), SEEK_SET) != 0 ||
        std::fread(bh_bytes, 1, sizeof bh_bytes, f.get()) != sizeof bh_bytes)
      m.truncated("it ends after block " + std::to_string(block) + " without the end-of-trace block");
    const detail::BlockHeader bh = detail::parse_block_header(bh_bytes, where);
    at += sizeof bh_bytes;
    if (at + bh.stored_bytes > m.file_bytes) m.truncated("block " + std::to_string(block) + " data is cut off");
    if (bh.kind == BlockKind::WarpTable || bh.kind == BlockKind::End) {
      stored.resize(bh.stored_bytes);
      if (std::fread(stored.data(), 1, bh.stored_bytes, f.get()) != bh.stored_bytes)
        m.truncated("block " + std::to_string(block) + " data is cut off");
      detail::unframe_payload(bh, stored.data(), raw, where);
      if (bh.kind == BlockKind::End) {
        const detail::EndTotals e = detail::decode_end(raw, where);
        t.instructions = e.instructions;
        t.lanes = e.lanes;
        if (at + bh.stored_bytes != m.file_bytes) throw Error(m.path + ": unexpected data after the end-of-trace block");
        if (table_blocks == 0) throw Error(where + ": the warp table is missing (a version-3 trace has one)");
        if (listed != t.instructions)
          throw Error(where + ": the warp table lists " + std::to_string(listed) + " instructions, the end block says " +
                      std::to_string(t.instructions) + " (corrupt file)");
        return t;
      }
      listed += detail::decode_warp_table(raw, bh.count, m.header, where, &t.warps);
      ++table_blocks;
    }
    at += bh.stored_bytes;
  }
}

Reader::~Reader() = default;

const Header& Reader::header() const { return impl_->header; }
uint16_t Reader::version() const { return impl_->version; }

bool Reader::next(Instr& out) {
  const Instr* in = next();
  if (!in) return false;
  out = *in;
  return true;
}

const Instr* Reader::next() {
  auto& m = *impl_;
  if (m.call_next == m.call.size()) {
    if (!m.decode_record(true)) return nullptr;
    const uint32_t n = static_cast<uint32_t>(m.call.size());
    const bool uniform = m.dec->uniform();  // every param warp-uniform: uniform_ok() says it all (as next_call())
    for (const Instr& p : m.call)
      if (!(uniform && detail::uniform_ok(m.header, p)))
        if (const std::string problem = check_instr(m.header, p); !problem.empty()) m.bad_param(n, p.param, problem);
    m.end_record();
    m.call_next = 0;
  }
  const Instr& out = m.call[m.call_next++];
  ++m.instructions;
  m.lanes += static_cast<uint64_t>(__builtin_popcount(out.active_mask));
  return &out;
}

void Reader::ignore_seq() { impl_->dec->ignore_seq(); }
void Reader::skip_warp_entries() {
  auto& m = *impl_;
  if (m.instructions) throw Error(m.path + ": internal: skip_warp_entries() after the first record");
  m.check_entries = false;
}
void Reader::keep_values_packed() { impl_->dec->keep_values_packed(); }
const uint8_t* Reader::packed_values() const {
  const auto& m = *impl_;
  return m.call_next ? m.dec->packed_values(m.call_next - 1) : nullptr;
}
bool Reader::last_call_uniform() const { return impl_->dec->uniform(); }

const Instr* Reader::next_call(uint32_t& nparams, int64_t& stride) {
  auto& m = *impl_;
  if (m.call_next != m.call.size()) throw Error(m.path + ": internal: next_call() inside a call read by next()");
  if (!m.decode_record(false)) return nullptr;
  const uint32_t n = m.dec->nparams();
  const int64_t s = m.dec->stride();
  const Instr& in = m.call[0];
  if (!(m.dec->uniform() && detail::uniform_ok(m.header, in)))
    if (const std::string problem = check_instr(m.header, in); !problem.empty()) m.bad_param(n, 0, problem);
  if (n > 1 && s > 0) {
    // Param p's addresses are param 0's + p x stride: the first param with a lane past the
    // buffer, and its lowest such lane, are what checking each param in turn would report.
    // (The other checks give every param param 0's answer; a negative stride cannot leave
    // the buffer: the decoder keeps the last param's addresses >= 0.)
    const uint64_t bw = m.header.buffer_words, st = static_cast<uint64_t>(s);
    uint64_t first = n;
    for (uint32_t r = in.active_mask; r; r &= r - 1) {
      const uint64_t a = in.addr[static_cast<size_t>(__builtin_ctz(r))];  // < bw (param 0 passed)
      first = std::min<uint64_t>(first, (bw - a + st - 1) / st);           // first p with a + p x stride >= bw
    }
    if (first < n) {
      for (uint32_t r = in.active_mask; r; r &= r - 1) {
        const int l = __builtin_ctz(r);
        const uint64_t a = in.addr[static_cast<size_t>(l)] + first * st;
        if (a >= bw)
          m.bad_param(n, static_cast<uint32_t>(first), "lane " + std::to_string(l) + " address " + std::to_string(a) +
                                                           " is outside the gradient buffer (" + std::to_string(bw) + " words)");
      }
    }
  }
  m.end_record();
  m.call_next = m.call.size();  // the whole call is read
  m.instructions += n;
  m.lanes += static_cast<uint64_t>(n) * static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  nparams = n;
  stride = s;
  return &in;
}

void Reader::drop_final_buffer() { impl_->keep_buffer = false; }

const std::vector<uint32_t>& Reader::final_buffer() {
  auto& m = *impl_;
  if (!m.keep_buffer) throw Error(m.path + ": internal: final_buffer() after drop_final_buffer()");
  Instr skip;
  while (next(skip)) {
  }
  while (m.next_block()) {
  }
  return m.buffer;
}

uint64_t Reader::instructions() const { return impl_->instructions; }
uint64_t Reader::lanes() const { return impl_->lanes; }
uint64_t Reader::file_bytes() const { return impl_->file_bytes; }
uint64_t Reader::bytes_read() const { return impl_->offset; }

Trace read_trace(const std::string& path) {
  Reader r(path);
  Trace t;
  t.header = r.header();
  Instr in;
  while (r.next(in)) t.instrs.push_back(in);
  t.final_buffer = r.final_buffer();
  return t;
}

}  // namespace arc::trace
