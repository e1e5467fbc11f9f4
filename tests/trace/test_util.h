// Helpers shared by the trace tests: temp paths, raw file bytes, a small synthetic trace.
#pragma once
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "error.h"
#include "trace_codec.h"
#include "tracegen.h"

namespace arc::trace::testing {

// A per-test file name under the system temp dir (tests may run in parallel).
inline std::string tmp_path(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string(info->test_suite_name()) + "_" + info->name() + "_" + tag;
  return (std::filesystem::temp_directory_path() / ("arcsim_" + name)).string();
}

inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& b) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// What f throws as arc::Error ("" when it throws nothing).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A valid synthetic trace with several instruction blocks.
inline std::string small_trace(const std::string& tag, uint64_t seed = 1, uint64_t n = 3000) {
  tracegen::GenConfig c;
  c.seed = seed;
  c.instructions = n;
  c.buffer_words = 512;
  WriterOptions o;
  o.records_per_block = 1000;
  const std::string path = tmp_path(tag);
  tracegen::generate(c, path, o);
  return path;
}

// Offset of block 0 (right after the preamble, header and header crc).
#ifdef ARCSIM_BIN
// The built arcsim (the test target's ARCSIM_BIN) run with `args` through the shell: exit code,
// standard output and error.
struct CmdResult {
  int code;
  std::string out, err;
};

inline CmdResult arcsim(const std::string& args) {
  const std::string out = tmp_path("stdout"), err = tmp_path("stderr");
  const std::string cmd = std::string(ARCSIM_BIN) + " " + args + " >" + out + " 2>" + err;
  const int st = std::system(cmd.c_str());
  const auto o = read_bytes(out), e = read_bytes(err);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, std::string(o.begin(), o.end()), std::string(e.begin(), e.end())};
}
#endif

inline size_t first_block_offset(const std::vector<uint8_t>& b) {
  const uint32_t hlen = uint32_t(b[12]) | uint32_t(b[13]) << 8 | uint32_t(b[14]) << 16 | uint32_t(b[15]) << 24;
  return 16 + hlen + 4;
}

// Rewrites block 0 so that record 0's lane count disagrees with its active mask, with valid
// checksums (as a buggy producer would write it). Returns block 0's offset.
inline size_t corrupt_lane_count(const std::string& path) {
  auto b = read_bytes(path);
  const size_t at = first_block_offset(b);
  const detail::BlockHeader bh = detail::parse_block_header(b.data() + at, "block 0");
  detail::Bytes raw;
  detail::unframe_payload(bh, b.data() + at + detail::kBlockHeaderBytes, raw, "block 0");
  raw[0] = static_cast<uint8_t>(raw[0] == 32 ? 31 : raw[0] + 1);  // record 0's lane count
  const detail::Bytes block = detail::frame_block(detail::BlockKind::Records, bh.count, raw, 3);
  std::vector<uint8_t> out(b.begin(), b.begin() + static_cast<long>(at));
  out.insert(out.end(), block.begin(), block.end());
  out.insert(out.end(), b.begin() + static_cast<long>(at + detail::kBlockHeaderBytes + bh.stored_bytes), b.end());
  write_bytes(path, out);
  return at;
}

}  // namespace arc::trace::testing
