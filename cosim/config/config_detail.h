// Internal to arc_config (not part of gpu_config.h's interface): what gpu_config.cpp and
// shared_links.cpp share.
#pragma once
#include <string>
#include <string_view>

#include "error.h"
#include "gpu_config.h"

namespace arc::config::detail {

// The loader's one error form: "ORIGIN: key 'KEY': WHAT".
[[noreturn]] inline void fail(const std::string& origin, std::string_view key, const std::string& what) {
  throw Error(origin + ": key '" + std::string(key) + "': " + what);
}

// Where key's value came from, for an error about it: "--set" when the command line gave it,
// else `file_origin` (the config file being checked).
inline std::string origin_of(const GpuConfig& cfg, const char* key, const std::string& file_origin) {
  const auto it = cfg.sources.find(key);
  return it != cfg.sources.end() && it->second == "--set" ? it->second : file_origin;
}

// Checks both shared-link levels (maps and rates) of cfg; throws naming origin and the key.
void validate_shared_links(const GpuConfig& cfg, const std::string& origin);

}  // namespace arc::config::detail
