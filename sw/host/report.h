// Benchmark results: one row per workload x method x threshold, written as JSON and CSV and
// printed as a table.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace arc::sw {

struct ResultRow {
  std::string workload, method;  // method label, e.g. "sws" or "adaptive-v4"
  int threshold = 0;             // -1 where the method has none
  double grad_ms = 0;            // median gradient-step (backward) time
  double grad_ms_min = 0, grad_ms_max = 0;
  double fwd_ms = 0;             // median forward time of the workload (same for all rows)
  double speedup_grad = 0;       // baseline grad_ms / grad_ms
  double speedup_e2e = 0;        // (fwd + baseline grad) / (fwd + grad)
  double rel_l2 = 0;             // ||g - g_baseline|| / ||g_baseline||
  bool check_ok = true;
  int reps = 0;
  // The no-atomics bound row (method "baseline-noatomic[-v4]"): plain racy adds, a timing
  // bound whose gradients are WRONG by construction (rel_l2 shows how wrong; never checked).
  bool bound = false;
  // (t_baseline - t) / (t_baseline - t_bound): 0 = Baseline, 1 = the scalar no-atomics bound
  // (> 1: faster than the bound); NaN when the workload has no bound row.
  double frac_to_bound = 0;
  // The compute floor row (method "floor", issue 20): the backward pass with the gradients
  // computed and kept live but never written. A floor, never a result.
  bool floor = false;
  // (t_baseline - t) / (t_baseline - t_floor): 0 = Baseline, 1 = the floor; NaN without a
  // floor row.
  double to_floor = 0;
  // t_gsplat / t: the speedup over gsplat's reduction (issue 23); NaN without a gsplat row.
  double speedup_gsplat = 0;
};

struct Report {
  std::vector<std::pair<std::string, std::string>> meta;  // GPU, driver, scene, ...
  std::vector<std::pair<std::string, std::string>> checks;  // name -> "PASS ..." / "FAIL ..."
  std::vector<ResultRow> rows;
};

// Fills speedup_grad / speedup_e2e from each workload's baseline row (threshold ignored),
// frac_to_bound from its baseline and baseline-noatomic rows, to_floor from its baseline and
// floor rows, speedup_gsplat from its gsplat row.
void fill_speedups(std::vector<ResultRow>& rows);
std::string to_json(const Report& r);
std::string to_csv(const std::vector<ResultRow>& rows);
std::string to_table(const std::vector<ResultRow>& rows);
void write_file(const std::string& path, const std::string& text);  // throws arc::Error
// Before any measurement: creates `dir` (and its parents) and checks that a file can be
// written there (a probe file, removed again). Throws arc::Error naming the path.
void prepare_out_dir(const std::string& dir);

}  // namespace arc::sw
