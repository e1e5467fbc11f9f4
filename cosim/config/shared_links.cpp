// The crossbar's shared links in a GPU config (gpc_of_sm, icnt_gpc_*, group_of_sm,
// icnt_group_*; gpu_config.h): each level's map (one character per SM) and its byte rates.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "config_detail.h"
#include "gpu_config.h"

namespace arc::config {
using detail::fail;

namespace {

// One level of shared links (GPC or group): its map, its rates and its config keys.
struct LevelKeys {
  const char* map_key;
  const char* rates_key;
  const char* what;  // "GPC" or "group"
  const std::string GpuConfig::*map;
  const std::string GpuConfig::*rates;
};
const LevelKeys kGpcLevel{"gpc_of_sm", "icnt_gpc_bytes_per_cycle", "GPC", &GpuConfig::gpc_of_sm,
                          &GpuConfig::icnt_gpc_bytes_per_cycle};
const LevelKeys kGroupLevel{"group_of_sm", "icnt_group_bytes_per_cycle", "group", &GpuConfig::group_of_sm,
                            &GpuConfig::icnt_group_bytes_per_cycle};

// One character per SM: 0-9 then a-z (36 links at most per level).
std::vector<std::uint32_t> parse_level_map(const GpuConfig& cfg, const LevelKeys& k, const std::string& origin) {
  std::vector<std::uint32_t> out;
  const std::string& text = cfg.*k.map;
  if (text.empty()) return out;
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') out.push_back(static_cast<std::uint32_t>(ch - '0'));
    else if (ch >= 'a' && ch <= 'z') out.push_back(static_cast<std::uint32_t>(ch - 'a' + 10));
    else if (ch == '-') out.push_back(kNoSharedLink);
    else
      fail(origin, k.map_key,
           std::string("'") + ch + "' is not a " + k.what + " id 0-9 or a-z, or - for none (one character per SM)");
  }
  // SMs past the map's end (a GPU file's map under a larger --set sms) have no link at this
  // level: the die the map describes has no such SMs.
  if (static_cast<std::int64_t>(out.size()) < cfg.sms) out.resize(static_cast<size_t>(cfg.sms), kNoSharedLink);
  return out;
}

// origin: where the rates came from (a malformed rate); pair_origin: where the map and the rates
// came from together (they disagree: either may be the one to fix).
std::vector<std::uint32_t> parse_level_rates(const GpuConfig& cfg, const LevelKeys& k,
                                             const std::vector<std::uint32_t>& map, const std::string& origin,
                                             const std::string& pair_origin) {
  std::vector<std::uint32_t> out;
  std::string list = cfg.*k.rates;
  // Commas or spaces between the rates; a comma with no rate before or after it ("1,,2", "1,")
  // is a slip, not a separator.
  if (list.find(',') != std::string::npos)
    for (std::size_t from = 0;; ) {  // each comma-separated piece holds something
      const std::size_t comma = list.find(',', from);
      if (list.find_first_not_of(" \t", from) >= comma)
        fail(origin, k.rates_key, "'" + list + "' has a comma with no rate on one side (give rates separated by commas or spaces)");
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
  std::replace(list.begin(), list.end(), ',', ' ');
  std::istringstream in(list);
  for (std::string tok; in >> tok;) {
    std::size_t used = 0;
    long v = -1;
    try {
      v = std::stol(tok, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != tok.size() || v < 1 || v > 1'000'000)
      fail(origin, k.rates_key, "'" + tok + "' is not a byte rate 1..1000000");
    out.push_back(static_cast<std::uint32_t>(v));
  }
  if (map.empty()) {
    if (!out.empty())
      fail(pair_origin, k.rates_key, std::string("is given but ") + k.map_key + " is empty (no " + k.what + " level)");
    return out;
  }
  std::uint32_t links = 0;
  for (std::uint32_t id : map)
    if (id != kNoSharedLink) links = std::max(links, id + 1);
  if (out.size() != links)
    fail(pair_origin, k.rates_key, std::to_string(out.size()) + " rates for the " + std::to_string(links) + " " + k.what +
                                  "s " + k.map_key + " names (one per " + k.what + ")");
  return out;
}

std::vector<std::uint32_t> level_map(const GpuConfig& cfg, const LevelKeys& k) {
  std::vector<std::uint32_t> map = parse_level_map(cfg, k, cfg.source_file);
  if (!map.empty()) map.resize(static_cast<size_t>(cfg.sms));  // a longer map: its first sms SMs
  return map;
}

}  // namespace

void detail::validate_shared_links(const GpuConfig& cfg, const std::string& origin) {
  for (const LevelKeys* k : {&kGpcLevel, &kGroupLevel}) {
    const std::string map_origin = detail::origin_of(cfg, k->map_key, origin);
    const std::string rates_origin = detail::origin_of(cfg, k->rates_key, origin);
    // A disagreement of the two keys names --set when either came from it.
    const std::string pair_origin = map_origin != origin ? map_origin : rates_origin;
    (void)parse_level_rates(cfg, *k, parse_level_map(cfg, *k, map_origin), rates_origin, pair_origin);
  }
}

std::vector<std::uint32_t> gpc_of_sm(const GpuConfig& cfg) { return level_map(cfg, kGpcLevel); }
std::vector<std::uint32_t> gpc_bytes_per_cycle(const GpuConfig& cfg) {
  return parse_level_rates(cfg, kGpcLevel, parse_level_map(cfg, kGpcLevel, cfg.source_file), cfg.source_file,
                           cfg.source_file);
}
std::vector<std::uint32_t> group_of_sm(const GpuConfig& cfg) { return level_map(cfg, kGroupLevel); }
std::vector<std::uint32_t> group_bytes_per_cycle(const GpuConfig& cfg) {
  return parse_level_rates(cfg, kGroupLevel, parse_level_map(cfg, kGroupLevel, cfg.source_file), cfg.source_file,
                           cfg.source_file);
}

}  // namespace arc::config
