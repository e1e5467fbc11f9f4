// Runs the area flow (synth/synth_module.sh -> real Yosys) as a child process and caches its
// `stat -tech cmos` report under a SHA-256 key of everything that can change the answer: the
// flow script, the Yosys version, every RTL file's name and contents, the top and parameters.
// A cache hit re-parses the stored report, so cached and fresh answers go through one parser.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "yosys_stat.h"

namespace arc::area {

struct SynthOptions {
  std::string synth_script;  // synth/synth_module.sh
  std::string rtl_dir;       // rtl/
  std::string yosys;         // the yosys executable
  std::string cache_dir;     // "" = no cache
};

struct SynthResult {
  CellStats stats;   // the whole design (flattened; with keep, the sum over its modules)
  HierStats hier;    // with keep only: each kept module and the rest of the top
  bool from_cache = false;
  double seconds = 0.0;  // wall time of this call
  std::string key;       // the cache key (sha256 hex)
};

// Output of a child process.
struct ProcessResult {
  int exit_code = -1;
  std::string out, err;
};
// Run argv[0] (searched on PATH) with extra environment variables; no shell.
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {});

class SynthRunner {
 public:
  explicit SynthRunner(SynthOptions opt);
  // Synthesize `top` with parameter overrides (name -> integer value); `keep` names modules kept
  // as separate instances (synth_module.sh --keep), whose share then comes back in hier.
  SynthResult run(const std::string& top, const std::map<std::string, std::int64_t>& params,
                  const std::vector<std::string>& keep = {});
  const std::string& yosys_version() const { return yosys_version_; }
  const SynthOptions& options() const { return opt_; }

 private:
  SynthOptions opt_;
  std::string yosys_version_;
  std::string base_digest_;  // flow script + Yosys version + RTL contents
};

// The default cache folder: $ARCSIM_CACHE_DIR, else the build tree's area-cache (compiled in),
// else $XDG_CACHE_HOME/arcsim, else ~/.cache/arcsim.
std::string default_cache_dir();

}  // namespace arc::area
