// How arcsim's subcommands plug in: each cmd_*.cpp in this folder defines a setup function
// that adds its CLI11 subcommand and registers it with ARCSIM_SUBCOMMAND. main.cpp needs no
// edit when a subcommand is added (the files are compiled into the executable directly).
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace arc::cli {

using SetupFn = void (*)(CLI::App& app);

struct SubcommandEntry {
  int order;  // position in --help
  SetupFn setup;
};

std::vector<SubcommandEntry>& registry();
bool register_subcommand(int order, SetupFn setup);

// A subcommand's verdict (e.g. 1 when a check found mismatches); main() returns it.
int& exit_code();

}  // namespace arc::cli

#define ARCSIM_CONCAT_INNER(a, b) a##b
#define ARCSIM_CONCAT(a, b) ARCSIM_CONCAT_INNER(a, b)
#define ARCSIM_SUBCOMMAND(order, fn) \
  static const bool ARCSIM_CONCAT(arcsim_registered_, __COUNTER__) = ::arc::cli::register_subcommand(order, fn)
