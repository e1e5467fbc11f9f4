// Byte-level encoding of the trace format (FORMAT.md): a block's framing (its checksummed header
// and one zstd frame), the end-of-trace totals and the warp table (version 3). The header and the
// records: trace_codec.cpp.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_c_literalCompressionMode (zstd >= 1.4.5; Debian ships 1.5)
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <string>

#include "error.h"
#include "trace_codec.h"

namespace arc::trace::detail {

Bytes frame_block(BlockKind kind, uint32_t count, const Bytes& raw, int zstd_level, bool raw_literals) {
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, zstd_level);
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);  // zstd's own XXH64 of the content too
  ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_literalCompressionMode, raw_literals ? ZSTD_ps_disable : ZSTD_ps_auto);
  Bytes out(kBlockHeaderBytes + ZSTD_compressBound(raw.size()));
  const size_t z = ZSTD_compress2(cctx.get(), out.data() + kBlockHeaderBytes, out.size() - kBlockHeaderBytes,
                                  raw.data(), raw.size());
  if (ZSTD_isError(z)) throw Error(std::string("zstd compression failed: ") + ZSTD_getErrorName(z));
  out.resize(kBlockHeaderBytes + z);
  Bytes h;
  put_u8(h, static_cast<uint8_t>(kind));
  put_u8(h, 0);
  put_u16(h, 0);
  put_u32(h, count);
  put_u32(h, static_cast<uint32_t>(raw.size()));
  put_u32(h, static_cast<uint32_t>(z));
  put_u32(h, crc32_of(out.data() + kBlockHeaderBytes, z));
  put_u32(h, crc32_of(h.data(), h.size()));
  std::copy(h.begin(), h.end(), out.begin());
  return out;
}

BlockHeader parse_block_header(const uint8_t* p, const std::string& where) {
  if (get_u32(p + 20) != crc32_of(p, 20)) throw Error(where + ": checksum mismatch in the block header (corrupt file)");
  BlockHeader bh{};
  const uint8_t k = p[0];
  if (k < 1 || k > 4) throw Error(where + ": unknown block kind " + std::to_string(k));
  if (p[1] != 0 || get_u16(p + 2) != 0)
    throw Error(where + ": reserved block-header fields are " + std::to_string(p[1]) + " and " +
                std::to_string(get_u16(p + 2)) + " (must be 0)");
  bh.kind = static_cast<BlockKind>(k);
  bh.count = get_u32(p + 4);
  if (bh.kind == BlockKind::End && bh.count != 0)
    throw Error(where + ": end-of-trace block with count " + std::to_string(bh.count) + " (must be 0)");
  if (bh.kind == BlockKind::Buffer && bh.count > kBufferWordsPerBlock)
    throw Error(where + ": buffer block of " + std::to_string(bh.count) + " words (at most " +
                std::to_string(kBufferWordsPerBlock) + ")");
  if (bh.kind == BlockKind::WarpTable && bh.count > kWarpsPerTableBlock)
    throw Error(where + ": warp-table block of " + std::to_string(bh.count) + " entries (at most " +
                std::to_string(kWarpsPerTableBlock) + ")");
  bh.raw_bytes = get_u32(p + 8);
  bh.stored_bytes = get_u32(p + 12);
  bh.payload_crc = get_u32(p + 16);
  if (bh.raw_bytes > kMaxBlockRawBytes || bh.stored_bytes > ZSTD_compressBound(bh.raw_bytes) + 64)
    throw Error(where + ": implausible block sizes (raw " + std::to_string(bh.raw_bytes) + ", stored " +
                std::to_string(bh.stored_bytes) + ")");
  return bh;
}

void unframe_payload(const BlockHeader& bh, const uint8_t* stored, Bytes& raw, const std::string& where) {
  if (crc32_of(stored, bh.stored_bytes) != bh.payload_crc)
    throw Error(where + ": checksum mismatch (crc32 of the block's data; corrupt file)");
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  // One frame: zstd would decompress frames back to back (and skip skippable ones).
  const size_t frame = ZSTD_findFrameCompressedSize(stored, bh.stored_bytes);
  if (ZSTD_isError(frame)) throw Error(where + ": zstd cannot decompress the block: " + ZSTD_getErrorName(frame));
  if (frame != bh.stored_bytes)
    throw Error(where + ": the block's data is not one zstd frame (" + std::to_string(bh.stored_bytes - frame) +
                " bytes follow its first frame)");
  raw.resize(bh.raw_bytes);
  const size_t z = ZSTD_decompressDCtx(dctx.get(), raw.data(), raw.size(), stored, bh.stored_bytes);
  if (ZSTD_isError(z)) throw Error(where + ": zstd cannot decompress the block: " + ZSTD_getErrorName(z));
  if (z != bh.raw_bytes)
    throw Error(where + ": block decompresses to " + std::to_string(z) + " bytes, header says " +
                std::to_string(bh.raw_bytes));
}

EndTotals decode_end(const Bytes& raw, const std::string& where) {
  Cursor c(raw.data(), raw.size(), where);
  EndTotals e;
  e.instructions = c.varint();
  e.lanes = c.varint();
  e.instruction_blocks = c.varint();
  e.buffer_blocks = c.varint();
  if (!c.done()) throw Error(where + ": malformed: " + std::to_string(c.left()) + " bytes after the end-of-trace totals");
  return e;
}

// ---- warp table (version 3) ----------------------------------------------------------------

Bytes encode_warp_table(const WarpEntry* e, size_t n) {
  Bytes raw;
  for (size_t i = 0; i < n; ++i) {
    put_varint(raw, e[i].sm);
    put_varint(raw, e[i].subcore);
    put_varint(raw, e[i].warp);
    put_varint(raw, e[i].instructions);
    put_varint(raw, e[i].gap_sum);
  }
  return raw;
}

uint64_t decode_warp_table(const Bytes& raw, uint32_t count, const Header& h, const std::string& where,
                           std::vector<WarpEntry>* out) {
  Cursor c(raw.data(), raw.size(), where);
  uint64_t sum = 0;
  for (uint32_t i = 0; i < count; ++i) {
    WarpEntry e;
    const uint64_t sm = c.varint(), sc = c.varint(), warp = c.varint();
    e.instructions = c.varint();
    e.gap_sum = c.varint();
    if (sm > UINT32_MAX || sc > UINT32_MAX || warp > UINT32_MAX || (h.sm_count && sm >= h.sm_count) ||
        (h.subcores_per_sm && sc >= h.subcores_per_sm) || e.instructions == 0)
      throw Error(where + ": warp table entry " + std::to_string(i) + " is invalid (SM " + std::to_string(sm) +
                  ", sub-core " + std::to_string(sc) + ", " + std::to_string(e.instructions) + " instructions)");
    e.sm = static_cast<uint32_t>(sm);
    e.subcore = static_cast<uint32_t>(sc);
    e.warp = static_cast<uint32_t>(warp);
    sum += e.instructions;
    if (out) out->push_back(e);
  }
  if (!c.done()) throw Error(where + ": malformed: bytes left after the warp table's entries");
  return sum;
}

}  // namespace arc::trace::detail
