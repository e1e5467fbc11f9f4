#include "slurm.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <thread>

#include "atomic_file.h"
#include "error.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace arc::sweep {

namespace {

std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Full path of a program on PATH ("" if absent); spawn() needs a path.
std::string which(const std::string& prog) {
  if (prog.find('/') != std::string::npos) return prog;
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    const size_t end = p.find(':', start);
    const std::string d = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const fs::path cand = fs::path(d.empty() ? "." : d) / prog;
    if (::access(cand.c_str(), X_OK) == 0) return cand.string();
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return "";
}

std::string need(const std::string& prog) {
  const std::string p = which(prog);
  if (p.empty())
    throw Error(fmt::format("--backend slurm: '{}' not found on PATH (run on a Slurm login node, or use "
                            "scripts/slurm-local.sh for a one-node cluster here)",
                            prog));
  return p;
}

}  // namespace

std::string array_ranges(const std::vector<size_t>& idx) {
  std::string out;
  for (size_t i = 0; i < idx.size();) {
    size_t j = i;
    while (j + 1 < idx.size() && idx[j + 1] == idx[j] + 1) ++j;
    if (!out.empty()) out += ",";
    out += j == i ? fmt::format("{}", idx[i]) : fmt::format("{}-{}", idx[i], idx[j]);
    i = j + 1;
  }
  return out;
}

void check_slurm_tools() {
  need("sbatch");
  need("squeue");
}

SlurmSummary run_slurm(const std::string& dir, const Plan& plan, const SlurmOptions& opt) {
  const std::string sbatch = need("sbatch"), squeue = need("squeue");
  SlurmSummary s;
  s.total = plan.points.size();
  std::vector<size_t> todo;
  for (size_t i = 0; i < plan.points.size(); ++i) {
    const State st = state_of(dir, plan.points[i].id);
    if (st == State::Done) {
      ++s.skipped;
      continue;
    }
    if (st == State::Failed) fs::remove(error_path(dir, plan.points[i].id));  // retried now
    todo.push_back(i);
  }
  s.submitted = todo.size();
  if (todo.empty()) return s;

  const std::string sdir = dir + "/slurm";
  fs::create_directories(sdir);
  const std::string script = sdir + "/job.sh";
  write_atomic(script, fmt::format("#!/bin/sh\n"
                                   "# arcsim sweep {}: Slurm array task i runs point i of {}/plan.json.\n"
                                   "exec {} sweep run-point {} \"$SLURM_ARRAY_TASK_ID\"\n",
                                   plan.name, dir, sh_quote(opt.exe), sh_quote(dir)));
  ::chmod(script.c_str(), 0755);

  std::string array = array_ranges(todo);
  if (opt.max_parallel) array += fmt::format("%{}", opt.max_parallel);
  std::vector<std::string> argv = {sbatch, "--parsable", "--job-name=arcsim-sweep-" + plan.name,
                                   "--array=" + array, "--output=" + sdir + "/%A_%a.out"};
  if (!opt.partition.empty()) argv.push_back("--partition=" + opt.partition);
  if (!opt.account.empty()) argv.push_back("--account=" + opt.account);
  if (!opt.time.empty()) argv.push_back("--time=" + opt.time);
  argv.insert(argv.end(), opt.sbatch_args.begin(), opt.sbatch_args.end());
  argv.push_back(script);
  const Captured c = run_capture(argv, dir, sdir);
  if (!c.exit.ok()) throw Error(fmt::format("sbatch failed ({}): {}", c.exit.describe(), last_line(c.err)));
  s.job_id = last_line(c.out);
  s.job_id = s.job_id.substr(0, s.job_id.find(';'));  // "id;cluster" on federated setups
  if (s.job_id.empty()) throw Error("sbatch printed no job id");
  write_atomic(sdir + "/job_id", s.job_id + "\n");
  if (!opt.wait) return s;

  Progress bar(fmt::format("sweep {} (Slurm job {}, {} tasks)", plan.name, s.job_id, todo.size()), todo.size(),
               opt.progress);
  int errors_in_a_row = 0;
  for (;;) {
    size_t finished = 0;
    for (size_t i : todo) finished += state_of(dir, plan.points[i].id) != State::Pending;
    bar.update(finished);
    const Captured q = run_capture({squeue, "-h", "-j", s.job_id, "-o", "%i"}, dir, sdir);
    if (q.exit.ok()) {
      errors_in_a_row = 0;
      if (last_line(q.out).empty()) break;  // no task of the array is pending or running
    } else if (q.err.find("Invalid job id") != std::string::npos) {
      break;  // already purged from the controller
    } else if (++errors_in_a_row >= 10) {
      throw Error(fmt::format("squeue keeps failing ({}): {}", q.exit.describe(), last_line(q.err)));
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(opt.poll_seconds));
  }
  bar.finish();
  // A task that ended without writing a result (time limit, node failure, preemption) is
  // recorded as failed with the last line of its Slurm log.
  for (size_t i : todo) {
    const Point& p = plan.points[i];
    const State st = state_of(dir, p.id);
    if (st == State::Failed) ++s.failed;
    if (st != State::Pending) continue;
    const std::string log = fmt::format("{}/{}_{}.out", sdir, s.job_id, i);
    nlohmann::json rec = point_to_json(p);
    rec["exit"] = "no result";
    const std::string tail = last_line(read_file(log));
    rec["error"] = fmt::format("Slurm task {}_{} ended without a result{}", s.job_id, i,
                               tail.empty() ? "" : ": " + tail);
    write_atomic(error_path(dir, p.id), rec.dump(1) + "\n");
    ++s.failed;
  }
  return s;
}

}  // namespace arc::sweep
