// Child-process Yosys runs with a content-addressed cache (see synth_runner.h).
#include "synth_runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "error.h"
#include "proc.h"
#include "sha256.h"

namespace arc::area {
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(p.string() + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A temporary file that removes itself.
std::string first_error_line(const std::string& err, const std::string& out) {
  for (const std::string* s : {&err, &out}) {
    std::istringstream in(*s);
    std::string line;
    while (std::getline(in, line))
      if (line.find("ERROR") != std::string::npos || line.find("synth_module.sh:") != std::string::npos) return line;
  }
  std::istringstream in(err);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last.empty() ? "no error message" : last;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
  // arcsim's one fork/exec helper (cosim/common/proc.h); extra variables go through /usr/bin/env.
  std::vector<std::string> full;
  if (!env.empty()) {
    full.push_back("/usr/bin/env");
    for (const auto& [k, v] : env) full.push_back(k + "=" + v);
  }
  full.insert(full.end(), argv.begin(), argv.end());
  const Captured c = run_capture(full, "", fs::temp_directory_path().string());
  ProcessResult r;
  r.exit_code = c.exit.signal ? 128 + c.exit.signal : c.exit.code;
  r.out = c.out;
  r.err = c.err;
  return r;
}

std::string default_cache_dir() {
  if (const char* e = std::getenv("ARCSIM_CACHE_DIR"); e && *e) return e;
#ifdef ARCSIM_BUILD_CACHE_DIR
  // The build tree this binary came from, while it exists.
  if (std::error_code ec; fs::is_directory(fs::path(ARCSIM_BUILD_CACHE_DIR).parent_path(), ec))
    return ARCSIM_BUILD_CACHE_DIR;
#endif
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/arcsim";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/arcsim";
  return (fs::temp_directory_path() / "arcsim-cache").string();
}

SynthRunner::SynthRunner(SynthOptions opt) : opt_(std::move(opt)) {
  const auto v = run_process({opt_.yosys, "-V"});
  if (v.exit_code != 0) throw Error("cannot run Yosys ('" + opt_.yosys + " -V'): " + first_error_line(v.err, v.out));
  yosys_version_ = v.out.substr(0, v.out.find('\n'));
  // v2: a run Yosys warned on, or that mapped to no cells, is refused (and never cached): a
  // report cached by v1 did not pass those checks.
  std::string digest = "arcsim-area-flow-v2\n" + read_file(opt_.synth_script) + "\n" + yosys_version_ + "\n";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(opt_.rtl_dir))
    if (e.path().extension() == ".sv" || e.path().extension() == ".svh" || e.path().extension() == ".v")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) digest += f.filename().string() + "\n" + sha256_hex(read_file(f)) + "\n";
  base_digest_ = sha256_hex(digest);
}

SynthResult SynthRunner::run(const std::string& top, const std::map<std::string, std::int64_t>& params,
                             const std::vector<std::string>& keep) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> argv{opt_.synth_script};
  std::string what;
  for (const auto& k : keep) {
    argv.insert(argv.end(), {"--keep", k});
    what += "--keep " + k + " ";
  }
  argv.push_back(top);
  what += top;
  for (const auto& [k, v] : params) {
    argv.push_back(k + "=" + std::to_string(v));
    what += " " + argv.back();
  }
  SynthResult res;
  res.key = sha256_hex(base_digest_ + "\n" + what);
  const fs::path cached = opt_.cache_dir.empty() ? fs::path() : fs::path(opt_.cache_dir) / (res.key + ".stat");
  std::string report;
  std::error_code ec;
  if (!cached.empty() && fs::is_regular_file(cached, ec)) {
    report = read_file(cached);
    res.from_cache = true;
  } else {
    const auto r = run_process(argv, {{"YOSYS", opt_.yosys}, {"ARCSIM_RTL_DIR", opt_.rtl_dir}});
    if (r.exit_code != 0) throw Error("Yosys failed on " + what + ": " + first_error_line(r.err, r.out));
    // The flow runs Yosys with -q, so what it prints on stderr is its warnings: a logic loop, an
    // undriven or multiply driven wire, a truncated constant. The RTL gives none; one means the
    // netlist (and its count and depth) may not be what the RTL says, so it is an error, and
    // nothing is cached.
    if (const auto at = r.err.find("Warning:"); at != std::string::npos) {
      const auto end = r.err.find('\n', at);
      throw Error("Yosys warned on " + what + ": " + r.err.substr(at, end == std::string::npos ? end : end - at));
    }
    report = r.out;
  }
  const std::string origin = res.from_cache ? cached.string() : "yosys stat of " + what;
  if (keep.empty()) {
    res.stats = parse_stat_cmos(report, origin);
  } else {
    res.hier = parse_stat_json(report, origin);
    for (const auto& k : keep)
      if (!res.hier.modules.count(k)) throw Error(origin + ": kept module " + k + " is not in the report");
    res.stats = res.hier.design;
  }
  // A module that maps to no gate (every output constant or unconnected) has nothing to count:
  // an area of 0 would read as a result.
  if (res.stats.cells == 0)
    throw Error(origin + ": " + top + " synthesizes to no cells (its outputs are constant or unconnected), so it has no area to report");
  if (!res.from_cache && !cached.empty()) {
    // Store only reports that parsed; write then rename so readers never see half a file.
    fs::create_directories(opt_.cache_dir, ec);
    const fs::path tmp = cached.string() + ".tmp" + std::to_string(::getpid());
    {
      std::ofstream o(tmp, std::ios::binary);
      o << report;
    }
    fs::rename(tmp, cached, ec);
    if (ec) fs::remove(tmp, ec);
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace arc::area
