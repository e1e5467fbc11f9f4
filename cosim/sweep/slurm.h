// Slurm backend of arcsim sweep: the pending points of a plan become ONE job array
// (sbatch --array=<indices>[%max]); task i runs `arcsim sweep run-point DIR i`, which runs the
// point exactly as the local backend does. Slurm does all the distribution; this only submits
// and, unless told not to, polls squeue until the array has left the queue.
#pragma once
#include <string>
#include <vector>

#include "results.h"

namespace arc::sweep {

struct SlurmOptions {
  std::string exe;  // arcsim as the compute nodes see it (default: this executable)
  std::string partition, account, time;
  std::vector<std::string> sbatch_args;  // passed through verbatim
  unsigned max_parallel = 0;             // %N on the array; 0 = as many as Slurm gives
  bool wait = true;
  double poll_seconds = 2.0;
  bool progress = true;
};

struct SlurmSummary {
  std::string job_id;
  size_t total = 0, skipped = 0, submitted = 0, failed = 0;
};

// Throws arc::Error, before anything is written, if sbatch or squeue is not on PATH.
void check_slurm_tools();

SlurmSummary run_slurm(const std::string& dir, const Plan& plan, const SlurmOptions& opt);

// "0-3,5,7-9" for {0,1,2,3,5,7,8,9} (sorted input).
std::string array_ranges(const std::vector<size_t>& indices);

}  // namespace arc::sweep
