// arcsim sweep merge: every point of a results folder in one table (CSV and JSON), columns
// id, trace, the axes (sorted), status, the spec's metrics, error; rows sorted by point id.
// Optional PNG plots of a metric against an axis, one line per value of a grouping axis.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace arc::sweep {

struct MergeSummary {
  size_t ok = 0, failed = 0, pending = 0;
  std::string csv_path, json_path;
  std::vector<std::string> plots;
};

// The table as ordered JSON: {"sweep", "columns", "points": [{column: value}]}.
nlohmann::ordered_json merge_table(const std::string& dir);

// Write DIR/results.csv and DIR/results.json, and one PNG per "X:Y[:GROUP]" in `plots`.
MergeSummary merge(const std::string& dir, const std::vector<std::string>& plots);

std::string to_csv(const nlohmann::ordered_json& table);

}  // namespace arc::sweep
