// arcsim: the command-line front end of ARCsim. Subcommands register themselves
// (subcommand.h); bad input becomes one line on stderr and a non-zero exit.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
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

namespace {
// An error is one line: a value quoted in it (a --set value, a file name) may hold line breaks.
std::string one_line(std::string s) {
  for (size_t i = 0; (i = s.find_first_of("\r\n", i)) != std::string::npos; i += 2)
    s.replace(i, 1, s[i] == '\n' ? "\\n" : "\\r");
  return s;
}
void print_error(const char* kind, const std::string& what, const char* tail = "") {
  std::fprintf(stderr, "arcsim: %s: %s%s\n", kind, one_line(what).c_str(), tail);
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "ARCsim: warp-level atomic reduction (ARC) in RTL, synthesis and cycle-level co-simulation.\n"
      "Run 'arcsim <subcommand> --help' for the flags of each job."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "arcsim " ARCSIM_VERSION);
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
    print_error("error", e.what(), " (see 'arcsim --help')");
    return 2;
  } catch (const CLI::ParseError& e) {
    // Unknown flag, missing or invalid value: one line naming it, then where to look.
    print_error("error", e.what(), " (see 'arcsim --help')");
    return 2;
  } catch (const arc::Error& e) {
    print_error("error", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    print_error("error", arc::out_of_memory(""));
    return 2;
  } catch (const std::exception& e) {
    print_error("internal error", e.what());
    return 3;
  }
  // What went to standard output must have arrived (a full disk, a closed pipe's EIO): a
  // result that was never written is an error, not a success.
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    print_error("error", std::string("cannot write the results to standard output: ") +
                             (errno ? std::strerror(errno) : "write error (a full disk, or a closed reader)"));
    return 2;
  }
  return arc::cli::exit_code();
}
