// arcsim sweep: design-space sweeps (docs/sweep.md). A TOML spec names axes, traces and
// metrics; every point is one child `arcsim sim` run, here in parallel (--backend local) or
// as one Slurm job array (--backend slurm); `merge` gathers the points into one table.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <thread>

#include "error.h"
#include "gpu_config.h"
#include "merge.h"
#include "params.h"
#include "results.h"
#include "slurm.h"
#include "spec.h"
#include "subcommand.h"
#include "numarg.h"
#include "options.h"
#include "tracegen.h"

namespace fs = std::filesystem;

namespace arc::cli::cmd_sweep {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string spec, backend = "local", out, arcsim;
  unsigned jobs = 0;
  bool no_wait = false, dry_run = false;
  double poll = 2.0;
  std::string partition, account, time;
  std::vector<std::string> sbatch_args;
  // run-point / merge
  std::string dir;
  size_t index = 0;
  std::vector<std::string> plots;
};

// The spec is checked by the same functions `arcsim sim` uses on its flags.
arc::sweep::Catalog catalog() {
  arc::sweep::Catalog c;
  for (const auto& p : arc::config::gpu_params()) c.set_keys.push_back(p.key);
  for (const auto& k : arc::config::model_params()) c.set_keys.push_back(k.key);
  c.check = [](const std::string& key, const std::string& value) {
    if (key == "gpu") (void)arc::config::load_gpu(value);
    else if (key == "mode") (void)arc::sim::mode_from_name(value);
    else if (key == "sched") (void)arc::sim::sched_from_name(value);
    else if (key == "fidelity") (void)arc::sim::fidelity_from_name(value);
    else if (key == "threshold")
      (void)arc::parse_count(value, "threshold", 0, 32);  // as arcsim sim --threshold
    else {
      static const arc::config::GpuConfig any = arc::config::load_gpu(arc::config::available_gpus().at(0));
      arc::sim::RunSpec s;
      s.gpu = any;
      arc::sim::apply_set(s, key + "=" + value);
    }
  };
  c.check_gen = [](const std::string& flag, const std::string& value) {
    arc::tracegen::check_gen_flag(flag, value);
  };
  return c;
}

template <typename Map>
std::vector<std::string> keys(const Map& m) {
  std::vector<std::string> k;
  for (const auto& kv : m) k.push_back(kv.first);
  return k;
}

// Every point as `arcsim sim` would take it: its GPU, --set values and run flags together, so a
// combination that only fails as a whole (coalesce_bytes 6, a slice knob without slices, a knob
// an axis value makes impossible) stops the sweep before anything runs, --dry-run included.
void check_points(const std::vector<arc::sweep::Point>& points) {
  std::map<std::string, arc::config::GpuConfig> gpus;
  for (const auto& p : points) {
    try {
      arc::sim::RunSpec s;
      std::vector<std::string> sets;
      for (size_t i = 0; i + 1 < p.args.size(); i += 2) {
        const std::string &flag = p.args[i], &v = p.args[i + 1];
        if (flag == "--gpu" || flag == "--config") {
          auto it = gpus.find(v);
          if (it == gpus.end()) it = gpus.emplace(v, arc::config::load_gpu(v)).first;
          s.gpu = it->second;
        } else if (flag == "--mode") {
          s.mode = arc::sim::mode_from_name(v);
        } else if (flag == "--sched") {
          s.sched = arc::sim::sched_from_name(v);
        } else if (flag == "--fidelity") {
          s.fidelity = arc::sim::fidelity_from_name(v);
        } else if (flag == "--threshold") {
          s.threshold = static_cast<uint32_t>(arc::parse_count(v, "threshold", 0, 32));
        } else if (flag == "--set") {
          sets.push_back(v);
        }
      }
      s.knobs = s.gpu.knobs;  // the file's [model] table, then --set (as arcsim sim)
      for (const auto& kv : sets) arc::sim::apply_set(s, kv);
      arc::sim::validate(s);
    } catch (const arc::Error& e) {
      std::string where = p.trace;
      for (const auto& [k, v] : p.axes.items())
        if (!v.is_null()) where += fmt::format(", {}={}", k, v.is_string() ? v.get<std::string>() : v.dump());
      throw arc::Error(fmt::format("point {} ({}): {}", p.id, where, e.what()));
    }
  }
}

std::string absolute_dir(const std::string& d) { return fs::absolute(d).lexically_normal().string(); }

void print_merge(const std::string& dir, const std::vector<std::string>& plots) {
  const auto m = arc::sweep::merge(dir, plots);
  fmt::print("merged: {} ok, {} failed, {} pending -> {}, {}\n", m.ok, m.failed, m.pending, m.csv_path,
             m.json_path);
  for (const auto& p : m.plots) fmt::print("plot: {}\n", p);
  if (m.failed || m.pending) arc::cli::exit_code() = 1;
}

void run_sweep(const Options& o) {
  if (o.spec.empty()) throw arc::Error("sweep: give a spec file (arcsim sweep SPEC), or run-point / merge");
  const arc::sweep::Spec spec = arc::sweep::load_spec(o.spec, catalog());
  const auto points = arc::sweep::expand(spec);
  check_points(points);
  if (o.dry_run) {
    fmt::print("sweep {}: {} points ({} traces; axes: {})\n", spec.name, points.size(), spec.traces.size(),
               spec.axes.empty() ? std::string("none") : fmt::format("{}", fmt::join(keys(spec.axes), ", ")));
    for (const auto& p : points) {
      std::string line = fmt::format("{} trace={}", p.id, p.trace);
      for (const auto& [k, v] : p.axes.items())
        line += fmt::format(" {}={}", k, v.is_null() ? "-" : v.is_string() ? v.get<std::string>() : v.dump());
      fmt::print("{}\n", line);
    }
    return;
  }
  const std::string dir = absolute_dir(o.out.empty() ? "sweep-" + spec.name : o.out);
  const std::string exe = arc::self_exe();
  if (o.backend == "slurm") arc::sweep::check_slurm_tools();
  const auto t0 = std::chrono::steady_clock::now();
  const arc::sweep::Plan plan = arc::sweep::prepare(dir, spec, exe);
  const bool bar = ::isatty(2);
  auto secs = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (o.backend == "local") {
    const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
    const auto s = arc::sweep::run_local(dir, plan, exe, jobs, bar);
    fmt::print("sweep {}: {} points ({} done before, {} run, {} failed), local -j{}, {:.1f} s, in {}\n", plan.name,
               s.total, s.skipped, s.ran, s.failed, jobs, secs(), dir);
    print_merge(dir, {});
    if (s.failed) arc::cli::exit_code() = 1;
    return;
  }
  arc::sweep::SlurmOptions so;
  so.exe = o.arcsim.empty() ? exe : o.arcsim;
  so.partition = o.partition;
  so.account = o.account;
  so.time = o.time;
  so.sbatch_args = o.sbatch_args;
  so.max_parallel = o.jobs;
  so.wait = !o.no_wait;
  so.poll_seconds = o.poll;
  so.progress = bar;
  const auto s = arc::sweep::run_slurm(dir, plan, so);
  if (s.submitted == 0) {
    fmt::print("sweep {}: all {} points done before; nothing submitted, in {}\n", plan.name, s.total, dir);
  } else if (o.no_wait) {
    fmt::print("sweep {}: submitted Slurm job array {} ({} tasks, {} points done before); collect with: arcsim "
               "sweep merge {}\n",
               plan.name, s.job_id, s.submitted, s.skipped, dir);
    return;
  } else {
    fmt::print("sweep {}: {} points ({} done before, {} run as Slurm job array {}, {} failed), {:.1f} s, in {}\n",
               plan.name, s.total, s.skipped, s.submitted, s.job_id, s.failed, secs(), dir);
  }
  print_merge(dir, {});
  if (s.failed) arc::cli::exit_code() = 1;
}

void run_point(const Options& o) {
  const std::string dir = absolute_dir(o.dir);
  const arc::sweep::Plan plan = arc::sweep::read_plan(dir);
  if (o.index >= plan.points.size())
    throw arc::Error(fmt::format("run-point: index {} out of range (the plan has {} points)", o.index,
                                 plan.points.size()));
  const arc::sweep::Point& p = plan.points[o.index];
  if (arc::sweep::state_of(dir, p.id) == arc::sweep::State::Done) {
    std::cerr << fmt::format("point {} ({}): done before\n", o.index, p.id);
    return;
  }
  const bool ok = arc::sweep::run_point(dir, p, arc::self_exe());
  std::cerr << fmt::format("point {} ({}): {}\n", o.index, p.id,
                           ok ? "ok" : "failed, see " + arc::sweep::error_path(dir, p.id));
  if (!ok) arc::cli::exit_code() = 1;
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand(
      "sweep",
      "Run a design-space sweep from a TOML spec (axes x traces, docs/sweep.md): every point is one 'arcsim sim', "
      "run in parallel here (--backend local) or as one Slurm job array (--backend slurm); results land atomically "
      "in DIR/points/, finished points are skipped on re-runs, and DIR/results.csv|json hold the merged table.");
  sub->add_option("spec", o->spec, "sweep spec (TOML)");
  sub->add_option("--backend", o->backend, "local or slurm")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  sub->add_option("-j,--jobs", o->jobs,
                  "local: points run at once (default: all cores); slurm: array tasks at once (%N, default: no limit)")
      ->transform(arc::cli::count_in(1, 4096));
  sub->add_option("--out", o->out, "results folder (default: ./sweep-<name>)");
  sub->add_flag("--dry-run", o->dry_run, "check the spec and list its points; run nothing, write nothing");
  sub->add_flag("--no-wait", o->no_wait, "slurm: return once the job array is submitted");
  sub->add_option("--partition", o->partition, "slurm: sbatch --partition");
  sub->add_option("--account", o->account, "slurm: sbatch --account");
  sub->add_option("--time", o->time, "slurm: sbatch --time, per array task (e.g. 00:30:00)");
  sub->add_option("--sbatch-arg", o->sbatch_args, "slurm: one more sbatch argument, verbatim (repeatable; write "
                                                  "--sbatch-arg=--qos=long)");
  sub->add_option("--poll", o->poll, "slurm: seconds between squeue polls")
      ->transform(arc::cli::real_in(0.1, 3600))
      ->capture_default_str();
  sub->add_option("--arcsim", o->arcsim, "slurm: arcsim executable as the compute nodes see it (default: this one)");

  sub->footer("\nKeys of a spec's [set] table and axes (as --set of arcsim sim):\n" + arc::config::params_help(true) +
              "A [trace.gen.NAME] table takes the flags of 'arcsim trace gen' (see its --help), checked the same way.\n"
              "Environment: ARCSIM_PYTHON (merge --plot).");
  auto* rp = sub->add_subcommand("run-point", "Run point INDEX of DIR/plan.json (what each Slurm array task does).");
  rp->add_option("dir", o->dir, "results folder")->required();
  rp->add_option("index", o->index, "point index in DIR/plan.json")
      ->required()
      ->transform(arc::cli::count_in(0, UINT32_MAX));
  rp->callback([o] { run_point(*o); });

  auto* mg = sub->add_subcommand("merge", "Merge DIR/points into DIR/results.csv and DIR/results.json (+ plots).");
  mg->add_option("dir", o->dir, "results folder")->required();
  mg->add_option("--plot", o->plots, "X:Y[:GROUP]: PNG of metric Y against axis X, one line per GROUP value "
                                     "(repeatable)");
  mg->callback([o] { print_merge(absolute_dir(o->dir), o->plots); });

  sub->callback([o, sub] {
    if (sub->get_subcommands().empty()) run_sweep(*o);
  });
}

ARCSIM_SUBCOMMAND(70, setup);

}  // namespace
}  // namespace arc::cli::cmd_sweep
