#include "traceg.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <fstream>

#include "error.h"
#include "traceg_line.h"

namespace arc::import {

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// The streaming state of one .traceg file.
class TracegReader {
 public:
  TracegReader(std::string path, Visitor& v) : path_(std::move(path)), v_(v) { k_.file = path_; }

  void run() {
    std::ifstream in(path_);
    if (!in) throw Error(fmt::format("{}: cannot open (no such file, or not readable)", path_));
    std::string line;
    while (std::getline(in, line)) {
      ++line_no_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      on_line(line);
    }
    if (in.bad()) fail("read error");
    at_eof();
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("{}:{}: {}", path_, line_no_, what));
  }

  std::string where_block() const { return fmt::format("thread block ({},{},{})", bx_, by_, bz_); }

  void on_line(const std::string& raw) {
    const std::string line = trim(raw);
    if (line.empty()) return;
    if (line[0] == '-') return header_line(line);
    if (line == "#BEGIN_TB") return begin_block();
    if (line == "#END_TB") return end_block();
    if (line[0] == '#') {
      if (in_block_) fail(fmt::format("unexpected line '{}' inside {}", line, where_block()));
      return;  // "#traces format = ..." and other comments before the blocks
    }
    if (starts_with(line, "thread block")) return block_line(line);
    if (starts_with(line, "warp")) return warp_line(line);
    if (starts_with(line, "insts")) return insts_line(line);
    instr_line(line);
  }

  void header_line(const std::string& line) {
    if (kernel_sent_) fail(fmt::format("header line '{}' after the first thread block", line));
    const auto eq = line.find('=');
    if (eq == std::string::npos) fail(fmt::format("header line without '=': '{}'", line));
    const std::string key = trim(std::string_view(line).substr(1, eq - 1));
    const std::string val = trim(std::string_view(line).substr(eq + 1));
    auto dims = [&](std::array<uint32_t, 3>& d) {
      char c = 0;
      if (std::sscanf(val.c_str(), "(%u,%u,%u%c", &d[0], &d[1], &d[2], &c) != 4 || c != ')' || !d[0] || !d[1] ||
          !d[2])
        fail(fmt::format("'{}': expected (x,y,z) with positive integers, got '{}'", key, val));
    };
    if (key == "kernel name") {
      k_.name = val;
    } else if (key == "kernel id") {
      k_.id = static_cast<int>(parse_dec(val, "kernel id"));
    } else if (key == "grid dim") {
      dims(k_.grid);
      k_.have_grid = true;
    } else if (key == "block dim") {
      dims(k_.block);
      k_.have_block = true;
      if (static_cast<uint64_t>(k_.block[0]) * k_.block[1] * k_.block[2] > 1024)
        fail(fmt::format("block dim {} has more than 1024 threads", val));
    } else if (key == "accelsim tracer version") {
      k_.tracer_version = static_cast<int>(parse_dec(val, "tracer version"));
    } else if (key == "nvbit version") {
      k_.nvbit_version = val;
    } else if (key == "binary version") {
      k_.binary_version = static_cast<int>(parse_dec(val, "binary version"));
    } else if (key == "shmem base_addr") {
      k_.shmem_base = parse_hex(val, "shared memory base address");
    } else if (key == "local mem base_addr") {
      k_.local_base = parse_hex(val, "local memory base address");
    }
    // "-shmem", "-nregs", "-cuda stream id" and unknown keys carry nothing we use.
  }

  uint64_t parse_dec(const std::string& s, const char* what) const {
    const auto v = parse_unsigned(s, 10);
    if (!v) fail(fmt::format("'{}' is not a decimal {}", s, what));
    return *v;
  }
  uint64_t parse_hex(const std::string& s, const char* what) const {
    const auto v = parse_unsigned(s, 16);
    if (!v) fail(fmt::format("'{}' is not a hexadecimal {}", s, what));
    return *v;
  }

  void begin_block() {
    if (in_block_) fail(fmt::format("#BEGIN_TB inside {} (its #END_TB is missing)", where_block()));
    if (!kernel_sent_) {
      if (k_.name.empty()) fail("no '-kernel name' line before the first thread block (not an Accel-Sim .traceg?)");
      if (!k_.have_block) fail("no '-block dim' line before the first thread block");
      v_.kernel(k_);
      kernel_sent_ = true;
    }
    in_block_ = true;
    have_block_line_ = false;
    close_warp_state();
  }

  void end_block() {
    if (!in_block_) fail("#END_TB without #BEGIN_TB");
    close_warp();
    in_block_ = false;
  }

  void block_line(const std::string& line) {
    if (!in_block_) fail(fmt::format("'{}' outside #BEGIN_TB/#END_TB", line));
    if (have_block_line_) fail(fmt::format("second 'thread block' line in {}", where_block()));
    char c = 0;
    if (std::sscanf(line.c_str(), "thread block = %u,%u,%u%c", &bx_, &by_, &bz_, &c) != 3)
      fail(fmt::format("expected 'thread block = x,y,z', got '{}'", line));
    if (k_.have_grid && (bx_ >= k_.grid[0] || by_ >= k_.grid[1] || bz_ >= k_.grid[2]))
      fail(fmt::format("{} is outside grid dim ({},{},{})", where_block(), k_.grid[0], k_.grid[1], k_.grid[2]));
    have_block_line_ = true;
    v_.block(bx_, by_, bz_);
  }

  void warp_line(const std::string& line) {
    if (!in_block_ || !have_block_line_) fail(fmt::format("'{}' outside a thread block", line));
    close_warp();
    unsigned w = 0;
    char c = 0;
    if (std::sscanf(line.c_str(), "warp = %u%c", &w, &c) != 1) fail(fmt::format("expected 'warp = N', got '{}'", line));
    if (w >= k_.warps_per_block())
      fail(fmt::format("warp {} in {}: block dim ({},{},{}) has {} warps", w, where_block(), k_.block[0],
                       k_.block[1], k_.block[2], k_.warps_per_block()));
    warp_ = w;
    warp_open_ = true;
    have_insts_ = false;
  }

  void insts_line(const std::string& line) {
    if (!warp_open_ || have_insts_) fail(fmt::format("'{}' not right after a 'warp = N' line", line));
    unsigned long long n = 0;
    char c = 0;
    if (std::sscanf(line.c_str(), "insts = %llu%c", &n, &c) != 1) fail(fmt::format("expected 'insts = N', got '{}'", line));
    expect_ = n;
    got_ = 0;
    have_insts_ = true;
    warp_line_no_ = line_no_;
    v_.warp(warp_, expect_);
  }

  void instr_line(const std::string& line) {
    if (!kernel_sent_ && k_.name.empty())
      fail(fmt::format("not an Accel-Sim .traceg: expected '-kernel name = ...' header lines first, got '{}'", line));
    if (!warp_open_ || !have_insts_) fail(fmt::format("instruction line outside a warp: '{}'", line));
    if (got_ == expect_)
      fail(fmt::format("warp {} of {} has more instruction lines than its 'insts = {}' (line {})", warp_,
                       where_block(), expect_, warp_line_no_));
    SassInstr in;
    in.line = line_no_;
    const std::string err = parse_instr_line(line, k_.tracer_version, in);
    if (!err.empty()) fail(err);
    ++got_;
    v_.instr(in);
  }

  void close_warp() {
    if (warp_open_ && !have_insts_) fail(fmt::format("warp {} of {} has no 'insts = N' line", warp_, where_block()));
    if (warp_open_ && got_ != expect_)
      fail(fmt::format("truncated warp: warp {} of {} has {} of the {} instruction lines its 'insts' line {} announces",
                       warp_, where_block(), got_, expect_, warp_line_no_));
    close_warp_state();
  }
  void close_warp_state() {
    warp_open_ = have_insts_ = false;
    expect_ = got_ = 0;
  }

  void at_eof() {
    if (in_block_) {
      close_warp();
      fail(fmt::format("truncated file: {} has no #END_TB", where_block()));
    }
    if (!kernel_sent_) {
      if (k_.name.empty()) fail("no '-kernel name' line (empty file, or not an Accel-Sim .traceg)");
      v_.kernel(k_);
    }
    v_.end_kernel();
  }

  std::string path_;
  Visitor& v_;
  KernelInfo k_;
  size_t line_no_ = 0, warp_line_no_ = 0;
  bool kernel_sent_ = false, in_block_ = false, have_block_line_ = false;
  bool warp_open_ = false, have_insts_ = false;
  unsigned bx_ = 0, by_ = 0, bz_ = 0, warp_ = 0;
  uint64_t expect_ = 0, got_ = 0;
};

}  // namespace

void read_traceg(const std::string& path, Visitor& v) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(fmt::format("{}: is a directory, not a .traceg file", path));
  TracegReader(path, v).run();
}

std::vector<std::string> resolve_inputs(const std::string& dir_or_file, uint64_t* memcpy_lines) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir_or_file, ec)) throw Error(fmt::format("{}: no such file or directory", dir_or_file));
  std::string list = dir_or_file;
  if (fs::is_directory(dir_or_file, ec)) {
    list = (fs::path(dir_or_file) / "kernelslist.g").string();
    if (!fs::exists(list, ec))
      throw Error(fmt::format("{}: no kernelslist.g in this folder (Accel-Sim's post-traces-processing writes it)",
                              dir_or_file));
  }
  if (ends_with(list, ".traceg")) return {list};
  std::ifstream in(list);
  if (!in) throw Error(fmt::format("{}: cannot open", list));
  const fs::path dir = fs::path(list).parent_path();
  std::vector<std::string> files;
  std::string raw;
  size_t line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty()) continue;
    if (line_no == 1 && line[0] == '-') return {list};  // a .traceg under another name
    if (starts_with(line, "Memcpy")) {
      if (memcpy_lines) ++*memcpy_lines;
      continue;
    }
    if (ends_with(line, ".traceg")) {
      files.push_back(line[0] == '/' ? line : (dir / line).string());
      continue;
    }
    if (starts_with(line, "kernel") && ends_with(line, ".trace"))
      throw Error(fmt::format("{}:{}: '{}' is a raw NVBit trace; run Accel-Sim's post-traces-processing on this "
                              "kernelslist and import kernelslist.g",
                              list, line_no, line));
    throw Error(fmt::format("{}:{}: not a kernelslist line (expected kernel-N.traceg or MemcpyHtoD,...): '{}'", list,
                            line_no, line));
  }
  if (files.empty()) throw Error(fmt::format("{}: lists no kernel-N.traceg file", list));
  return files;
}

}  // namespace arc::import
