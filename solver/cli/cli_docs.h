// cli_docs.h: the bash completion and the man page of `dctwin`, generated from the program's own
// CLI11 definitions (its subcommands, options, value kinds and descriptions), so that neither can
// drift from the program: `dctwin completion bash` and `dctwin man` print them, the build writes
// them (cmake/install.cmake) and tests/cli_docs_test.py checks that every subcommand and option of
// `--help` is in both. The exit statuses, environment variables and examples the man page lists
// are the tables below; main.cpp returns the exit statuses by these names.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace dctwin::cli {

// the exit statuses of dctwin (main.cpp returns these; the man page's EXIT STATUS lists them)
enum Exit : int {
  kExitOk = 0,
  kExitError = 1,         // an error not covered below (a file that cannot be written, ...)
  kExitInput = 2,         // an input that does not load, a results file that cannot be read
  kExitRunFailed = 3,     // a run's solver failed; estimate: outside --tolerance
  kExitCasesFailed = 4,   // sweep: one or more cases failed (the others are in /cases)
  kExitCasesMissing = 5,  // merge: the journals miss cases
  kExitReport = 6,        // report: report.py not found or it failed
  kExitWrite = 7,         // sweep: the journal or the /cases file could not be written
};

struct Documented {
  std::string name;  // an exit status, a variable, or an example's command line
  std::string text;  // what it means
};
// EXIT STATUS: the Exit codes, CLI11's usage errors and the signals
const std::vector<Documented>& exitStatuses();
// ENVIRONMENT: the variables dctwin reads
const std::vector<Documented>& environmentVariables();
// EXAMPLES: command lines with what they do (tests/cli_docs_test.py checks that every
// subcommand and option in them exists)
const std::vector<Documented>& examples();

// the value kinds an option or positional declares as its CLI11 type name (main.cpp), which the
// completion completes: YAML (.yaml/.yml files), H5 (.h5 files), JOURNAL (sweep journals), FILE
// (any file), DIR (a folder), PATTERN (output-table paths from `dctwin outputs`); a {a,b} set
// (CLI::IsMember) completes its words; other values complete nothing
std::string bashCompletion(const CLI::App& app);
// the man page dctwin(1) in roff: NAME, SYNOPSIS, DESCRIPTION, COMMANDS (every visible
// subcommand with its positionals and options), EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES,
// SEE ALSO
std::string manPage(const CLI::App& app, const std::string& version);

}  // namespace dctwin::cli
