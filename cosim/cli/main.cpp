// arcsim: the command-line front end of ARCsim. Subcommands register themselves
// (subcommand.h); bad input becomes one line on stderr and a non-zero exit.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>

#include "error.h"
#include "subcommand.h"

namespace arc::cli {

std::vector<SubcommandEntry>& registry() {
  static std::vector<SubcommandEntry> r;
  return r;
}

int& exit_code() {
  static int code = 0;
  return code;
}

bool register_subcommand(int order, SetupFn setup) {
  registry().push_back({order, setup});
  return true;
}

}  // namespace arc::cli

int main(int argc, char** argv) {
  CLI::App app{
      "ARCsim: warp-level atomic reduction (ARC) in RTL, synthesis and cycle-level co-simulation.\n"
      "Run 'arcsim <subcommand> --help' for the flags of each job."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "arcsim 0.1.0");
  auto entries = arc::cli::registry();
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.order < b.order; });
  for (const auto& e : entries) e.setup(app);
  std::string known;
  bool listed = false;
  for (const auto* sub : app.get_subcommands({})) {
    known += (known.empty() ? "" : ", ") + sub->get_name();
    listed |= argc > 1 && sub->check_name(argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !listed) {
    std::fprintf(stderr, "arcsim: error: unknown subcommand '%s' (known: %s)\n", argv[1], known.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    // 'arcsim --bogus', 'arcsim trace inspect': CLI11 reports the missing subcommand (or a
    // missing required flag) before the word it did not know; name that word instead.
    const auto extra = app.remaining(true);
    if (!extra.empty()) {
      std::fprintf(stderr, "arcsim: error: unknown subcommand or flag '%s' (see 'arcsim --help')\n", extra.front().c_str());
      return 2;
    }
    std::fprintf(stderr, "arcsim: error: %s (see 'arcsim --help')\n", e.what());
    return 2;
  } catch (const CLI::ParseError& e) {
    // Unknown flag, missing or invalid value: one line naming it, then where to look.
    std::fprintf(stderr, "arcsim: error: %s (see 'arcsim --help')\n", e.what());
    return 2;
  } catch (const arc::Error& e) {
    std::fprintf(stderr, "arcsim: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arcsim: internal error: %s\n", e.what());
    return 3;
  }
  return arc::cli::exit_code();
}
