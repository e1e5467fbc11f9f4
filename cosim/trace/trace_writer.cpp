// The trace writer (the only one; the reader is trace.cpp): streaming, block by block, every
// block checksummed, the warp table before the end block. Layout: FORMAT.md.
#include <algorithm>
#include <bitset>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "error.h"
#include "trace.h"
#include "trace_codec.h"

namespace arc::trace {

using detail::BlockKind;
using detail::Bytes;
using detail::File;

// ---- writer -------------------------------------------------------------------------------

struct Writer::Impl {
  std::string path;
  Header header;
  WriterOptions opt;
  File f;
  Bytes pending;
  uint32_t pending_records = 0;
  detail::RecordEncoder enc;
  std::vector<Instr> call;  // params of the call being written
  uint64_t instructions = 0, lanes = 0, bytes = 0, record_blocks = 0, buffer_blocks = 0;
  bool finished = false;
  std::unordered_map<uint64_t, uint32_t> warp_at;  // (sm, warp) -> index into warps
  std::vector<WarpEntry> warps;                    // the warp table, in order of first appearance

  void put(const Bytes& b) {
    if (std::fwrite(b.data(), 1, b.size(), f.get()) != b.size())
      throw Error("cannot write trace '" + path + "': " + std::strerror(errno));
    bytes += b.size();
  }
  void flush_records() {
    if (pending_records == 0) return;
    // Lane values are near-random bits: their literals are stored raw (frame_block).
    put(detail::frame_block(BlockKind::Records, pending_records, pending, opt.zstd_level, !header.timing_only));
    ++record_blocks;
    pending.clear();
    pending_records = 0;
    enc.reset();
  }
};

Writer::Writer(const std::string& path, const Header& header, WriterOptions opt) : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  m.path = path;
  m.header = header;
  m.opt = opt;
  m.enc = detail::RecordEncoder(header.timing_only);
  if (m.opt.records_per_block == 0) m.opt.records_per_block = 1;
  m.f.reset(std::fopen(path.c_str(), "wb"));
  if (!m.f) throw Error("cannot create trace '" + path + "': " + std::strerror(errno));
  m.put(detail::encode_header(header));
}

Writer::~Writer() {
  if (!impl_ || impl_->finished || !impl_->f) return;
  try {
    impl_->flush_records();  // what was written stays readable; the missing end block marks it unfinished
  } catch (const std::exception&) {
  }
}

void Writer::write(const Instr& in) {
  auto& m = *impl_;
  if (m.finished) throw Error("trace '" + m.path + "': write() after finish()");
  const std::string problem = check_instr(m.header, in);
  if (!problem.empty())
    throw Error("trace '" + m.path + "': instruction " + std::to_string(m.instructions) + ": " + problem);
  ++m.instructions;
  m.lanes += std::bitset<32>(in.active_mask).count();
  const auto [at, fresh] = m.warp_at.try_emplace(uint64_t{in.sm} << 32 | in.warp, static_cast<uint32_t>(m.warps.size()));
  if (fresh) m.warps.push_back({in.sm, in.subcore, in.warp, 0, 0});
  ++m.warps[at->second].instructions;
  m.warps[at->second].gap_sum += in.gap;
  if (in.param != m.call.size())
    throw Error("trace '" + m.path + "': instruction " + std::to_string(m.instructions - 1) + ": param " +
                std::to_string(in.param) + " where param " + std::to_string(m.call.size()) + " of the call is due");
  m.call.push_back(in);
  if (m.call.size() < in.nparams) return;
  const std::string bad = detail::check_call(m.call.data(), m.call.size());
  if (!bad.empty())
    throw Error("trace '" + m.path + "': instruction " + std::to_string(m.instructions - 1) + ": " + bad);
  m.enc.encode(m.call.data(), m.call.size(), m.pending);
  m.call.clear();
  ++m.pending_records;
  if (m.pending_records >= m.opt.records_per_block || m.pending.size() >= detail::kMaxBlockRawBytes / 8)
    m.flush_records();
}

void Writer::finish(const uint32_t* final_buffer, size_t words) {
  auto& m = *impl_;
  if (m.finished) throw Error("trace '" + m.path + "': finish() called twice");
  if (!m.call.empty())
    throw Error("trace '" + m.path + "': finish() inside a call (" + std::to_string(m.call.size()) + " of " +
                std::to_string(m.call[0].nparams) + " params written)");
  const uint64_t want = m.header.timing_only ? 0 : m.header.buffer_words;
  if (words != want)
    throw Error("trace '" + m.path + "': final buffer has " + std::to_string(words) + " words, " +
                (m.header.timing_only ? std::string("a timing-only trace stores none")
                                      : "header says " + std::to_string(m.header.buffer_words)));
  m.flush_records();
  for (size_t at = 0; at < words; at += detail::kBufferWordsPerBlock) {
    const size_t n = std::min<size_t>(detail::kBufferWordsPerBlock, words - at);
    Bytes raw;
    raw.reserve(4 * n);
    for (size_t i = 0; i < n; ++i) detail::put_u32(raw, final_buffer[at + i]);
    m.put(detail::frame_block(BlockKind::Buffer, static_cast<uint32_t>(n), raw, m.opt.zstd_level));
    ++m.buffer_blocks;
  }
  for (size_t at = 0; at < m.warps.size() || at == 0; at += detail::kWarpsPerTableBlock) {
    const size_t n = std::min<size_t>(detail::kWarpsPerTableBlock, m.warps.size() - at);
    const Bytes raw = detail::encode_warp_table(m.warps.data() + at, n);
    m.put(detail::frame_block(BlockKind::WarpTable, static_cast<uint32_t>(n), raw, m.opt.zstd_level));
  }
  Bytes end;
  detail::put_varint(end, m.instructions);
  detail::put_varint(end, m.lanes);
  detail::put_varint(end, m.record_blocks);
  detail::put_varint(end, m.buffer_blocks);
  m.put(detail::frame_block(BlockKind::End, 0, end, m.opt.zstd_level));
  m.finished = true;
  std::FILE* f = m.f.release();
  if (std::fclose(f) != 0) throw Error("cannot write trace '" + m.path + "': " + std::strerror(errno));
}

uint64_t Writer::instructions() const { return impl_->instructions; }
uint64_t Writer::lanes() const { return impl_->lanes; }
uint64_t Writer::bytes_written() const { return impl_->bytes; }

void write_trace(const std::string& path, const Trace& t, WriterOptions opt) {
  Writer w(path, t.header, opt);
  for (const auto& in : t.instrs) w.write(in);
  w.finish(t.final_buffer);
}

}  // namespace arc::trace
