// Seed helper for fuzz_trace_reader: turns a real trace file into the target's "framed" recipe
// form (header body + decompressed block payloads; see fuzz_trace_reader.cpp), so the fuzzer
// starts from valid traces whose records it can mutate past the checksums and zstd.
//   trace_to_recipe IN.trace OUT.recipe
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "error.h"
#include "trace_codec.h"

namespace d = arc::trace::detail;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: trace_to_recipe IN.trace OUT.recipe\n");
    return 2;
  }
  try {
    std::ifstream f(argv[1], std::ios::binary);
    const d::Bytes in((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (in.size() < d::kPreambleBytes) throw arc::Error(std::string(argv[1]) + ": too short");
    const uint32_t hlen = d::get_u32(in.data() + 12);
    d::Bytes out;
    const uint16_t version = d::get_u16(in.data() + 8);  // the recipe's top length bits: version 2, 3
    if (hlen > 0x3FFF) throw arc::Error(std::string(argv[1]) + ": header too long for a recipe");
    d::put_u16(out, static_cast<uint16_t>(hlen | (version >= 2 ? 0x8000 : 0) | (version >= 3 ? 0x4000 : 0)));
    size_t at = d::kPreambleBytes;
    out.insert(out.end(), in.begin() + at, in.begin() + at + hlen);
    at += hlen + 4;
    d::Bytes raw;
    while (at + d::kBlockHeaderBytes <= in.size()) {
      const d::BlockHeader bh = d::parse_block_header(in.data() + at, argv[1]);
      at += d::kBlockHeaderBytes;
      d::unframe_payload(bh, in.data() + at, raw, argv[1]);
      at += bh.stored_bytes;
      d::put_u8(out, static_cast<uint8_t>(bh.kind));
      d::put_u32(out, bh.count);
      d::put_u16(out, static_cast<uint16_t>(raw.size()));
      out.insert(out.end(), raw.begin(), raw.end());
    }
    std::ofstream(argv[2], std::ios::binary).write(reinterpret_cast<const char*>(out.data()), out.size());
  } catch (const arc::Error& e) {
    std::fprintf(stderr, "trace_to_recipe: %s\n", e.what());
    return 1;
  }
  return 0;
}
