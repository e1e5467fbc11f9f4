// libFuzzer target: the trace reader on arbitrary bytes. Any input must either read cleanly or
// throw arc::Error; a crash, hang, sanitizer report or other exception is a bug.
//
// Two input forms, so that mutations reach past the checksums and zstd (which would otherwise
// reject almost every mutated byte before the record decoder sees it):
//  - raw: input starting with the magic "ARCTRACE" is handed to the reader as a file, as is;
//  - framed: any other input is a recipe the target turns into a file with valid checksums and
//    zstd frames, so the header decoder, record decoder and block logic see the fuzzed bytes:
//      u16 header_len | header body bytes        -> preamble + body + crc32; header_len's top
//                                                   bit picks format version 2 or later (else 1:
//                                                   the corpus predates version 2), with it the
//                                                   next bit version 3; low 14 bits the length
//      then blocks:  u8 kind | u32 count | u16 raw_len | raw payload bytes
//                                              -> 24-byte block header + zstd frame of payload
//    (a field cut off by the end of the input takes what is left).
// tests/fuzz/trace_to_recipe.cpp turns a real trace into the framed form (seed corpus).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "error.h"
#include "trace.h"
#include "trace_codec.h"

namespace {

namespace d = arc::trace::detail;

struct Take {
  const uint8_t* p;
  size_t n;
  uint64_t le(size_t bytes) {
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && n > 0; ++i, ++p, --n) v |= uint64_t(*p) << (8 * i);
    return v;
  }
};

d::Bytes build_from_recipe(const uint8_t* data, size_t size) {
  Take in{data, size};
  d::Bytes out(d::kMagic, d::kMagic + 8);
  const uint64_t hfield = in.le(2);
  d::put_u16(out, hfield & 0x8000 ? (hfield & 0x4000 ? 3 : 2) : 1);
  d::put_u16(out, 0);
  const size_t hlen = std::min<size_t>(hfield & 0x3FFF, in.n);
  d::put_u32(out, static_cast<uint32_t>(hlen));
  out.insert(out.end(), in.p, in.p + hlen);
  d::put_u32(out, d::crc32_of(in.p, hlen));
  in.p += hlen;
  in.n -= hlen;
  while (in.n > 0) {
    const auto kind = static_cast<d::BlockKind>(in.le(1));
    const auto count = static_cast<uint32_t>(in.le(4));
    const size_t len = std::min<size_t>(in.le(2), in.n);
    const d::Bytes raw(in.p, in.p + len);
    in.p += len;
    in.n -= len;
    const d::Bytes blk = d::frame_block(kind, count, raw, 1);
    out.insert(out.end(), blk.begin(), blk.end());
  }
  return out;
}

void read_all(const std::string& path) {
  try {
    arc::trace::Reader r(path);
    (void)r.warp_table();  // version 3: the hop over block headers to the table
    arc::trace::Instr in;
    uint64_t n = 0;
    while (r.next(in) && ++n < 1'000'000) {
    }
    (void)r.final_buffer();
  } catch (const arc::Error& e) {
    if (std::strlen(e.what()) == 0) __builtin_trap();  // errors must say something
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The reader takes a path: hand it an in-memory file.
  static const int fd = memfd_create("arcsim-fuzz-trace", 0);
  if (fd < 0) return 0;
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const bool raw = size >= 8 && std::memcmp(data, d::kMagic, 8) == 0;
  d::Bytes file;
  if (!raw) file = build_from_recipe(data, size);
  const uint8_t* p = raw ? data : file.data();
  const size_t n = raw ? size : file.size();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, p, n, 0) != static_cast<ssize_t>(n)) return 0;
  read_all(path);
  return 0;
}
