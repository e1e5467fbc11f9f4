// arc::sweep spec: a design-space sweep read from TOML (docs/sweep.md) and expanded into its
// points, the cartesian product of the axes times the traces. Each point is one `arcsim sim`
// run, named by a stable id (a hash of everything that decides its result), so a results
// folder can be resumed after the spec grows.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace arc::sweep {

// What the sweep library cannot know by itself: which `--set` keys exist and whether a value
// is valid for a parameter. cmd_sweep.cpp fills it from arc::config and arc::sim, so the spec
// is checked by the same code that `arcsim sim` runs.
struct Catalog {
  std::vector<std::string> set_keys;  // GPU config keys and model knobs accepted by --set
  // Throws arc::Error (message without the spec prefix) if `value` is not valid for `key`
  // ("gpu", "mode", "sched", "fidelity", "threshold" or a set key).
  std::function<void(const std::string& key, const std::string& value)> check;
  // Throws arc::Error if `--flag value` is not a valid `arcsim trace gen` flag (the generator's
  // own table, arc::tracegen::gen_flags()), so a bad [trace.gen.NAME] fails --dry-run too.
  std::function<void(const std::string& flag, const std::string& value)> check_gen;
};

// One value of a parameter: TOML's string, integer or float, kept typed for the JSON table.
struct Value {
  nlohmann::json json;    // string, integer or float
  std::string text() const;  // as passed on the command line
};

struct Trace {
  std::string name;                 // table column value: file stem or [trace.gen.NAME]
  std::string path;                 // absolute file, or "traces/NAME.arctrace" inside the results folder
  std::vector<std::string> gen_args;  // `arcsim trace gen` flags (empty for a file)
  std::string identity() const;     // what the trace contributes to a point id
};

struct Point {
  std::string id;       // 16 hex digits
  std::string trace;    // trace name
  nlohmann::json axes;  // axis -> value (null: not applicable, e.g. sched when mode != arc-hw)
  nlohmann::json params;  // every effective parameter (gpu, fidelity, mode, sched, threshold, set)
  std::vector<std::string> args;  // `arcsim sim` arguments, run from the results folder
};

struct Spec {
  std::string file;  // absolute path of the spec
  std::string name;
  // Base parameters (any may be overridden by an axis).
  std::string gpu = "h100", fidelity = "fast", mode = "baseline", sched = "dynamic";
  int64_t threshold = 2;
  std::map<std::string, Value> sets;  // fixed --set overrides
  std::map<std::string, std::vector<Value>> axes;  // sorted by name: the column order
  std::vector<Trace> traces;
  std::vector<std::string> metrics;  // columns of the merged table, in spec order
};

// The metrics a point reports: keys of a run in `arcsim sim --json` (nested ones dotted),
// plus speedup_vs_baseline, which merge derives from the matching baseline point.
const std::vector<std::string>& known_metrics();

// Parse and check a spec file; every problem is one arc::Error line naming the file and key.
Spec load_spec(const std::string& path, const Catalog& catalog);

// All points, in axis order (traces outermost), duplicates (same id) dropped.
std::vector<Point> expand(const Spec& spec);

nlohmann::json point_to_json(const Point& p);
Point point_from_json(const nlohmann::json& j);

// FNV-1a 64 as 16 hex digits.
std::string stable_hash(const std::string& text);

}  // namespace arc::sweep
