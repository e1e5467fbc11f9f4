// The results folder of a sweep and the one way a point is run, shared by the local
// backend, `arcsim sweep run-point` (each Slurm array task) and merge:
//
//   DIR/spec.toml            copy of the spec
//   DIR/plan.json            the points (index, id, trace, axes, params, arcsim sim args)
//   DIR/traces/NAME.arctrace traces made by [trace.gen.NAME]
//   DIR/points/ID.json       a finished point: its parameters + `arcsim sim --json` (atomic)
//   DIR/points/ID.error.json a failed point: exit status and the last stderr line
//   DIR/slurm/               job script and per-task logs (slurm backend)
#pragma once
#include <chrono>
#include <string>
#include <vector>

#include "atomic_file.h"
#include "proc.h"
#include "spec.h"

namespace arc::sweep {

struct Plan {
  std::string name, spec_file;
  std::vector<std::string> axes, metrics;
  std::vector<Point> points;
};

// Create DIR, copy the spec, make the generated traces (kept when their flags are unchanged)
// and write DIR/plan.json. `exe` is the arcsim that generates traces.
Plan prepare(const std::string& dir, const Spec& spec, const std::string& exe);
Plan read_plan(const std::string& dir);

std::string point_path(const std::string& dir, const std::string& id);
std::string error_path(const std::string& dir, const std::string& id);
enum class State { Done, Failed, Pending };
State state_of(const std::string& dir, const std::string& id);

// One point's child `arcsim sim ... --json`, started in DIR.
struct RunningPoint {
  pid_t pid = -1;
  Point point;
  std::string out_path, err_path;
  int scratch_out = -1, scratch_err = -1;  // removed on SIGINT/SIGTERM (atomic_file.h)
  std::chrono::steady_clock::time_point start;
};
RunningPoint start_point(const std::string& dir, const Point& p, const std::string& exe);
// Record the result (ID.json) or the failure (ID.error.json), atomically; true if it succeeded.
bool finish_point(const std::string& dir, const RunningPoint& r, const Exit& exit);
// Both, for one point (run-point).
bool run_point(const std::string& dir, const Point& p, const std::string& exe);

// Local backend: every pending point, `jobs` at a time, with a progress bar. Returns the
// number of failed points.
struct LocalSummary {
  size_t total = 0, skipped = 0, ran = 0, failed = 0;
};
LocalSummary run_local(const std::string& dir, const Plan& plan, const std::string& exe, unsigned jobs,
                       bool progress);

}  // namespace arc::sweep
