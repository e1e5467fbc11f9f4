// arcsim config show: the full resolved configuration of a GPU (every GPU key and every
// timing-model knob from arc::config's one registry, after --set), with where each value came
// from. `--json` prints exactly the "config" object of `arcsim sim --json`.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "error.h"
#include "gpu_config.h"
#include "options.h"
#include "subcommand.h"

namespace arc::cli::cmd_config {  // named, so the unity build can batch the subcommands
namespace {

struct Options {
  std::string gpu, config_file;
  std::vector<std::string> sets;
  bool json = false;
};

void run(const Options& o) {
  arc::config::GpuConfig gpu = arc::config::load_gpu(o.config_file.empty() ? (o.gpu.empty() ? "h100" : o.gpu)
                                                                           : o.config_file);
  arc::config::ModelKnobs knobs = gpu.knobs;  // the file's [model] table, then --set
  for (const auto& kv : o.sets) arc::config::apply_override(gpu, knobs, kv);
  arc::config::validate(gpu, gpu.source_file);
  arc::config::validate(knobs, gpu);
  if (o.json) std::cout << arc::config::resolved_json(gpu, knobs).dump(2) << "\n";
  else std::cout << arc::config::resolved_text(gpu, knobs);
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cfg = app.add_subcommand("config", "GPU configurations and timing-model knobs: print the resolved values.");
  cfg->require_subcommand(1);
  auto* show = cfg->add_subcommand(
      "show", "Print every GPU parameter and model knob after --set, with its unit and where it came from "
              "(default, the config file or --set); --json gives the 'config' object of 'arcsim sim --json'.");
  auto* gpu = show->add_option("--gpu", o->gpu, "GPU by name (default h100): " +
                                                    fmt::format("{}", fmt::join(arc::config::available_gpus(), ", ")))
                  ->check(arc::cli::nonempty());
  show->add_option("--config", o->config_file, "GPU config TOML file")->excludes(gpu)->check(arc::cli::nonempty());
  show->add_option("--set", o->sets, "override a GPU parameter or model knob, KEY=VALUE, VALUE as in TOML (repeatable)");
  show->add_flag("--json", o->json, "print JSON");
  show->footer("\n" + arc::config::params_help(true));
  show->callback([o] { run(*o); });
}

ARCSIM_SUBCOMMAND(65, setup);

}  // namespace
}  // namespace arc::cli::cmd_config
