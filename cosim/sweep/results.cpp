#include "results.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "error.h"
#include "progress.h"

namespace fs = std::filesystem;

namespace arc::sweep {

namespace {

void make_trace(const std::string& dir, const Trace& tr, const std::string& exe) {
  const std::string file = dir + "/" + tr.path, stamp = file + ".flags";
  const std::string flags = tr.identity();
  if (fs::is_regular_file(file) && fs::is_regular_file(stamp) && read_file(stamp) == flags) return;
  std::vector<std::string> argv = {exe, "trace", "gen", "-q", "-o", tr.path};
  argv.insert(argv.end(), tr.gen_args.begin(), tr.gen_args.end());
  const Captured c = run_capture(argv, dir, dir + "/traces");
  if (!c.exit.ok())
    throw Error(fmt::format("trace.gen.{}: arcsim trace gen failed ({}): {}", tr.name, c.exit.describe(),
                            last_line(c.err)));
  write_atomic(stamp, flags);
}

}  // namespace

std::string point_path(const std::string& dir, const std::string& id) { return dir + "/points/" + id + ".json"; }
std::string error_path(const std::string& dir, const std::string& id) {
  return dir + "/points/" + id + ".error.json";
}

State state_of(const std::string& dir, const std::string& id) {
  if (fs::is_regular_file(point_path(dir, id))) return State::Done;
  if (fs::is_regular_file(error_path(dir, id))) return State::Failed;
  return State::Pending;
}

Plan prepare(const std::string& dir, const Spec& spec, const std::string& exe) {
  std::error_code ec;
  fs::create_directories(dir + "/points", ec);
  fs::create_directories(dir + "/traces", ec);
  if (!fs::is_directory(dir + "/points")) throw Error(fmt::format("cannot create results folder {}", dir));
  write_atomic(dir + "/spec.toml", read_file(spec.file));
  for (const Trace& tr : spec.traces)
    if (!tr.gen_args.empty()) make_trace(dir, tr, exe);
  Plan plan;
  plan.name = spec.name;
  plan.spec_file = spec.file;
  for (const auto& [k, v] : spec.axes) plan.axes.push_back(k);
  plan.metrics = spec.metrics;
  plan.points = expand(spec);
  nlohmann::json j = {{"name", plan.name}, {"spec", plan.spec_file}, {"axes", plan.axes},
                      {"metrics", plan.metrics}, {"points", nlohmann::json::array()}};
  for (size_t i = 0; i < plan.points.size(); ++i) {
    nlohmann::json pj = point_to_json(plan.points[i]);
    pj["index"] = i;
    j["points"].push_back(pj);
  }
  write_atomic(dir + "/plan.json", j.dump(1) + "\n");
  return plan;
}

Plan read_plan(const std::string& dir) {
  const std::string path = dir + "/plan.json";
  if (!fs::is_regular_file(path))
    throw Error(fmt::format("{}: not a sweep results folder (no plan.json; run arcsim sweep SPEC first)", dir));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_file(path));
    Plan p;
    p.name = j.at("name").get<std::string>();
    p.spec_file = j.at("spec").get<std::string>();
    p.axes = j.at("axes").get<std::vector<std::string>>();
    p.metrics = j.at("metrics").get<std::vector<std::string>>();
    for (const auto& pj : j.at("points")) p.points.push_back(point_from_json(pj));
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: unreadable plan ({})", path, e.what()));
  }
}

RunningPoint start_point(const std::string& dir, const Point& p, const std::string& exe) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  RunningPoint r;
  r.point = p;
  const std::string scratch = fmt::format("{}/points/.{}.{}.{}", dir, p.id, host, ::getpid());
  r.out_path = scratch + ".out";
  r.err_path = scratch + ".err";
  std::vector<std::string> argv = {exe, "sim"};
  argv.insert(argv.end(), p.args.begin(), p.args.end());
  argv.push_back("--json");
  r.start = std::chrono::steady_clock::now();
  r.scratch_out = register_scratch(r.out_path);
  r.scratch_err = register_scratch(r.err_path);
  r.pid = spawn(argv, dir, r.out_path, r.err_path);
  return r;
}

bool finish_point(const std::string& dir, const RunningPoint& r, const Exit& exit) {
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
  const std::string out = read_file(r.out_path), err = read_file(r.err_path);
  std::error_code ec;
  fs::remove(r.out_path, ec);
  fs::remove(r.err_path, ec);
  forget_scratch(r.scratch_out);
  forget_scratch(r.scratch_err);
  nlohmann::json rec = point_to_json(r.point);
  std::string problem;
  if (exit.ok()) {
    try {
      nlohmann::json result = nlohmann::json::parse(out);
      if (!result.contains("runs") || result["runs"].size() != 1)
        problem = "arcsim sim --json gave no single run";
      rec["wall_seconds"] = secs;
      rec["result"] = std::move(result);
    } catch (const nlohmann::json::exception&) {
      problem = "arcsim sim printed no JSON";
    }
  } else {
    problem = last_line(err);
    if (problem.empty()) problem = "no message";
  }
  if (problem.empty()) {
    write_atomic(point_path(dir, r.point.id), rec.dump(1) + "\n");
    fs::remove(error_path(dir, r.point.id), ec);
    return true;
  }
  rec.erase("result");
  rec.erase("wall_seconds");
  rec["exit"] = exit.describe();
  rec["error"] = problem;
  write_atomic(error_path(dir, r.point.id), rec.dump(1) + "\n");
  return false;
}

bool run_point(const std::string& dir, const Point& p, const std::string& exe) {
  const RunningPoint r = start_point(dir, p, exe);
  return finish_point(dir, r, wait_for(r.pid));
}

LocalSummary run_local(const std::string& dir, const Plan& plan, const std::string& exe, unsigned jobs,
                       bool progress) {
  LocalSummary s;
  s.total = plan.points.size();
  std::vector<const Point*> todo;
  for (const Point& p : plan.points)
    if (state_of(dir, p.id) == State::Done) ++s.skipped;
    else todo.push_back(&p);
  Progress bar(fmt::format("sweep {} ({} to run, {} done before)", plan.name, todo.size(), s.skipped), todo.size(),
               progress);
  std::map<pid_t, RunningPoint> running;
  size_t next = 0;
  jobs = std::max(1u, jobs);
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && running.size() < jobs) {
      RunningPoint r = start_point(dir, *todo[next++], exe);
      running.emplace(r.pid, std::move(r));
    }
    int st = 0;
    const pid_t pid = ::waitpid(-1, &st, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("waitpid: {}", std::strerror(errno)));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    if (!finish_point(dir, it->second, decode_status(st))) ++s.failed;
    running.erase(it);
    ++s.ran;
    bar.update(s.ran);
  }
  bar.finish();
  return s;
}

}  // namespace arc::sweep
