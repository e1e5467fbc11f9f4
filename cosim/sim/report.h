// The report of `arcsim sim`: one row per run, a table for people and JSON for tools. The JSON
// holds only simulated quantities (no wall-clock time), so the same inputs give byte-identical
// JSON run to run.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "params.h"
#include "run.h"

namespace arc::sim {

struct ReportInput {
  std::string gpu_name, gpu_source, trace_path, fidelity;
  uint64_t sms = 0, subcores_per_sm = 0, rop_units = 0, rop_ops_per_cycle = 0;
  double scan_seconds = 0;  // the streaming first pass (table only: the JSON holds simulated quantities)
  bool warp_table = false;  // the summary came from the file's warp table (no first pass)
  double clock_ghz = 0;
  uint32_t sw_overhead = 0;
  nlohmann::json config;  // arc::config::resolved_json(): every GPU key and model knob, with sources
  bool host_cost = false;  // JSON: add what each run cost on this host (varies run to run)
};

uint64_t image_hash(const ZeroTable<uint32_t>& words);  // FNV-1a 64 over the words

nlohmann::json report_json(const ReportInput& in, const std::vector<RunSpec>& specs,
                           const std::vector<RunResult>& runs);
std::string report_table(const ReportInput& in, const std::vector<RunSpec>& specs,
                         const std::vector<RunResult>& runs);

}  // namespace arc::sim
