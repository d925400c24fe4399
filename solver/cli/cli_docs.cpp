// cli_docs.cpp: the bash completion and the man page from the CLI11 definitions (cli_docs.h)
#include "solver/cli/cli_docs.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <set>
#include <sstream>

namespace dctwin::cli {

const std::vector<Documented>& exitStatuses() {
  static const std::vector<Documented> k{
      {"0", "success"},
      {"1", "an error not listed below (e.g. an output file that cannot be written)"},
      {"2",
       "an input that does not load (every problem of the file is printed as "
       "file:line:col: key: message), a results file that cannot be read, or an estimate case "
       "that cannot be estimated"},
      {"3",
       "run: the solver failed (the results up to the failure are in the output file); "
       "estimate: outside --tolerance"},
      {"4", "sweep: one or more cases failed (the others are in /cases)"},
      {"5", "merge: the journals miss cases (they are listed)"},
      {"6", "report: report.py was not found or failed"},
      {"7",
       "sweep: the journal or the /cases file could not be written (a full disk); every "
       "finished case stays in the journal and the same command resumes"},
      {"100-127", "a command-line usage error (CLI11: an unknown option, a missing or bad value)"},
      {"128+N",
       "stopped by signal N (130 SIGINT, 143 SIGTERM, 129 SIGHUP): a run's file is closed with "
       "status interrupted, a sweep's finished cases stay in its journal"}};
  return k;
}

const std::vector<Documented>& environmentVariables() {
  static const std::vector<Documented> k{
      {"DCTWIN_DATA",
       "the data folder (catalog/, facilities/, scenarios/, sweeps/, weather/) searched first; "
       "else the one next to the program (share/dctwin/data installed, data/ in a build tree)"},
      {"DCTWIN_SCRIPTS",
       "the folder of report.py for dctwin report (default share/dctwin/scripts)"},
      {"OMPI_COMM_WORLD_SIZE",
       "set by mpirun: above 1, dctwin sweep splits its cases over the MPI ranks"},
      {"TERM",
       "dumb (or standard error not a terminal): progress as a line every 10 %, not a redrawn "
       "bar"}};
  return k;
}

const std::vector<Documented>& examples() {
  static const std::vector<Documented> k{
      {"dctwin run data/facilities/pod_gb200.yaml --duration 30min -o pod.h5",
       "simulate the default pod for 30 minutes and write its results"},
      {"dctwin run data/facilities/pod_gb200.yaml -s "
       "data/scenarios/pod_pump_failure_redundant.yaml "
       "-o pump.h5 --record '/cdu/*' '/rack/*'",
       "a scenario (a pump failure), keeping only the CDU and rack series"},
      {"dctwin check data/sweeps/pod_fws_racks.yaml",
       "check a sweep file and every case's facility before running it"},
      {"dctwin sweep data/sweeps/pod_fws_racks.yaml -j 2 -o sweep.h5",
       "run a design sweep, two cases at once; run it again to resume"},
      {"dctwin sweep data/sweeps/pod_fws_racks.yaml --shard 3/16 -o shard_3.h5",
       "one Slurm array task's share of the cases; then dctwin merge"},
      {"dctwin merge data/sweeps/pod_fws_racks.yaml shard_*.h5.journal -o sweep.h5",
       "combine the shards' journals into one /cases table"},
      {"dctwin report pod.h5 -o pod_report",
       "the review report: pod_report/index.html and report.pdf"},
      {"dctwin export pod.h5 --series '/rack/T_return' '/facility/*' -o pod.csv",
       "series as CSV for a spreadsheet"},
      {"dctwin outputs --format csv", "every output series with its unit, basis and description"},
      {"dctwin schema --file facility -o facility.schema.json",
       "the JSON Schema of facility files for an editor"},
      {"dctwin estimate data/estimates/pod_gb200_job.yaml --detail",
       "a training job's step time, MFU and memory without a facility"}};
  return k;
}

namespace {

bool visible(const CLI::App* a) {
  return !a->get_group().empty();
}
bool visible(const CLI::Option* o) {
  return !o->get_group().empty();
}

// an option's declared value: its type name ("YAML", "INT"), the {a,b} set of an IsMember check
struct Value {
  std::string kind;
  std::vector<std::string> choices;
  bool flag = false, multi = false;
};

Value valueOf(const CLI::Option* o) {
  Value v;
  v.flag = o->get_type_size() == 0 || o->get_type_name().empty();
  v.multi = o->get_items_expected_max() > 1;
  const std::string t = o->get_type_name();
  v.kind = t.substr(0, t.find(':'));
  const auto lb = t.find('{'), rb = t.find('}');
  if (lb != std::string::npos && rb != std::string::npos && rb > lb) {
    std::stringstream ss(t.substr(lb + 1, rb - lb - 1));
    std::string w;
    while (std::getline(ss, w, ',')) v.choices.push_back(w);
  }
  return v;
}

std::vector<std::string> flagNames(const CLI::Option* o) {
  std::vector<std::string> n;
  for (const auto& l : o->get_lnames()) n.push_back("--" + l);
  for (const auto& s : o->get_snames()) n.push_back("-" + s);
  return n;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& x : v) out += (out.empty() ? "" : sep) + x;
  return out;
}

std::vector<const CLI::App*> commands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App* a) { return visible(a); });
}

std::vector<const CLI::Option*> options(const CLI::App* a, bool positional) {
  return a->get_options([&](const CLI::Option* o) {
    return visible(o) && o->get_positional() == positional && (positional || o->nonpositional());
  });
}

// compgen for files of a kind (the positionals' kinds together)
std::string filesFor(const std::set<std::string>& kinds) {
  std::vector<std::string> globs;
  bool any = false;
  for (const auto& k : kinds) {
    if (k == "YAML")
      globs.push_back("y?(a)ml");
    else if (k == "H5")
      globs.push_back("h5");
    else if (k == "JOURNAL")
      globs.push_back("journal*");
    else if (k == "FILE" || k == "DIR")
      any = true;
  }
  if (any || globs.empty()) return "COMPREPLY=($(compgen -f -- \"$cur\"))";
  return "COMPREPLY=($(compgen -f -X '!*.@(" + join(globs, "|") +
         ")' -- \"$cur\") $(compgen -d -- \"$cur\"))";
}

std::string roff(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// the placeholder of an option's value: its kind, or its set as a|b
std::string placeholder(const Value& v, const std::string& name) {
  if (v.flag) return "";
  std::string p = !v.choices.empty()                     ? join(v.choices, "|")
                  : (v.kind.empty() || v.kind == "TEXT") ? upper(name)
                                                         : v.kind;
  return p + (v.multi ? " ..." : "");
}

}  // namespace

std::string bashCompletion(const CLI::App& app) {
  std::ostringstream o;
  o << "# bash completion for dctwin: generated by `dctwin completion bash` from the program's "
       "own\n"
       "# option definitions (solver/cli/cli_docs.cpp); installed as\n"
       "# share/bash-completion/completions/dctwin. Do not edit: rebuild.\n"
       "_dctwin() {\n"
       "  local cur prev words cword\n"
       "  _init_completion 2>/dev/null || {\n"
       "    cur=${COMP_WORDS[COMP_CWORD]}\n"
       "    prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
       "    words=(\"${COMP_WORDS[@]}\")\n"
       "    cword=$COMP_CWORD\n"
       "  }\n"
       "";
  std::vector<std::string> subs;
  for (const CLI::App* a : commands(app)) subs.push_back(a->get_name());
  std::vector<std::string> top;
  for (const CLI::Option* op : options(&app, false))
    for (const auto& n : flagNames(op)) top.push_back(n);
  o << "  local subcommands=\"" << join(subs, " ") << "\"\n"
    << "  local sub=\"\" i\n"
       "  for ((i = 1; i < cword; i++)); do\n"
       "    case \" $subcommands \" in *\" ${words[i]} \"*) sub=${words[i]}; break ;; esac\n"
       "  done\n"
       "  if [[ -z $sub ]]; then\n"
       "    COMPREPLY=($(compgen -W \"$subcommands "
    << join(top, " ")
    << "\" -- \"$cur\"))\n"
       "    return\n"
       "  fi\n"
       "  local opts=\"\"\n"
       "  case $sub in\n";
  for (const CLI::App* a : commands(app)) {
    std::vector<std::string> names;
    for (const CLI::Option* op : options(a, false))
      for (const auto& n : flagNames(op)) names.push_back(n);
    o << "    " << a->get_name() << ") opts=\"" << join(names, " ") << "\" ;;\n";
  }
  o << "  esac\n"
       "  # the value of the option before the cursor\n"
       "  case \"$sub $prev\" in\n";
  std::vector<std::string> pattern_opts;
  for (const CLI::App* a : commands(app))
    for (const CLI::Option* op : options(a, false)) {
      const Value v = valueOf(op);
      if (v.flag) continue;
      std::vector<std::string> keys;
      for (const auto& n : flagNames(op)) keys.push_back("\"" + a->get_name() + " " + n + "\"");
      o << "    " << join(keys, " | ") << ")\n      ";
      if (!v.choices.empty())
        o << "COMPREPLY=($(compgen -W \"" << join(v.choices, " ") << "\" -- \"$cur\"))";
      else if (v.kind == "PATTERN") {
        o << "_dctwin_paths";
        for (const auto& n : flagNames(op)) pattern_opts.push_back(a->get_name() + " " + n);
      } else if (v.kind == "YAML" || v.kind == "H5" || v.kind == "JOURNAL" || v.kind == "FILE")
        o << filesFor({v.kind});
      else if (v.kind == "DIR")
        o << "COMPREPLY=($(compgen -d -- \"$cur\"))";
      else
        o << ":";  // a number, a time, a word: nothing to offer
      o << "\n      return ;;\n";
    }
  o << "  esac\n"
       "  # options that take several patterns: paths while the last option was one of them\n"
       "  local j\n"
       "  for ((j = cword - 1; j > 0; j--)); do\n"
       "    case \"$sub ${words[j]}\" in\n";
  if (!pattern_opts.empty()) {
    std::vector<std::string> keys;
    for (const auto& k : pattern_opts) keys.push_back("\"" + k + "\"");
    o << "      " << join(keys, " | ")
      << ")\n"
         "        [[ $cur != -* ]] && { _dctwin_paths; return; }\n"
         "        break ;;\n";
  }
  o << "    esac\n"
       "    [[ ${words[j]} == -* ]] && break\n"
       "  done\n"
       "  if [[ $cur == -* ]]; then\n"
       "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
       "    return\n"
       "  fi\n"
       "  # positionals: files of their kinds\n"
       "  case $sub in\n";
  for (const CLI::App* a : commands(app)) {
    std::set<std::string> kinds;
    for (const CLI::Option* op : options(a, true)) kinds.insert(valueOf(op).kind);
    if (kinds.empty()) continue;
    o << "    " << a->get_name() << ") " << filesFor(kinds) << " ;;\n";
  }
  o << "  esac\n"
       "}\n"
       "# the output table's series paths (dctwin outputs --format csv), for --record and "
       "--series\n"
       "_dctwin_paths() {\n"
       "  local paths\n"
       "  paths=$(\"${words[0]}\" outputs --format csv 2>/dev/null | tail -n +2 | cut -d, -f1)\n"
       "  COMPREPLY=($(compgen -W \"$paths\" -- \"$cur\"))\n"
       "}\n"
       "complete -F _dctwin dctwin\n";
  return o.str();
}

std::string manPage(const CLI::App& app, const std::string& version) {
  std::ostringstream o;
  o << ".\\\" dctwin(1): generated by `dctwin man` from the program's own option definitions\n"
       ".\\\" (solver/cli/cli_docs.cpp). Do not edit: rebuild.\n"
    << ".TH DCTWIN 1 \"\" \"dctwin " << roff(version) << "\" \"User Commands\"\n"
    << ".SH NAME\ndctwin \\- digital twin of liquid\\-cooled AI data centers\n"
    << ".SH SYNOPSIS\n";
  for (const CLI::App* a : commands(app)) {
    o << ".B dctwin " << a->get_name() << "\n";
    for (const CLI::Option* op : options(a, true)) {
      const std::string n = upper(op->get_name(true));
      o << (op->get_required() ? ".I " : ".RI [ ") << roff(n) << (valueOf(op).multi ? " ..." : "")
        << (op->get_required() ? "" : " ]") << "\n";
    }
    o << "[\\fIOPTIONS\\fR]\n.br\n";
  }
  o << ".B dctwin\n\\-\\-help | \\-\\-version\n"
    << ".SH DESCRIPTION\n"
    << roff(app.get_description()) << ".\n.PP\n"
    << "dctwin simulates liquid\\-cooled AI data centers: coolant loops, CDUs, cold plates, "
       "facility water, every GPU and its jobs, the power chain and the heat\\-rejection plant, "
       "and writes HDF5 results (docs/results.md). Every command prints its options with "
       "\\fBdctwin\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR.\n"
    << ".SH COMMANDS\n";
  for (const CLI::App* a : commands(app)) {
    o << ".SS \"dctwin " << a->get_name() << "\"\n" << roff(a->get_description()) << ".\n";
    for (const bool positional : {true, false})
      for (const CLI::Option* op : options(a, positional)) {
        const Value v = valueOf(op);
        o << ".TP\n";
        if (positional) {
          o << ".I " << roff(upper(op->get_name(true))) << "\n";
        } else {
          std::vector<std::string> names;
          for (const auto& n : flagNames(op)) names.push_back("\\fB" + roff(n) + "\\fR");
          o << join(names, ", ");
          if (const std::string p = placeholder(v, op->get_name()); !p.empty())
            o << " \\fI" << roff(p) << "\\fR";
          o << "\n";
        }
        o << roff(op->get_description()) << (op->get_required() && !positional ? " (required)" : "")
          << "\n";
      }
  }
  o << ".SS \"general options\"\n";
  for (const CLI::Option* op : options(&app, false)) {
    std::vector<std::string> names;
    for (const auto& n : flagNames(op)) names.push_back("\\fB" + roff(n) + "\\fR");
    o << ".TP\n" << join(names, ", ") << "\n" << roff(op->get_description()) << "\n";
  }
  o << ".SH \"EXIT STATUS\"\n";
  for (const auto& e : exitStatuses())
    o << ".TP\n.B " << roff(e.name) << "\n" << roff(e.text) << "\n";
  o << ".SH ENVIRONMENT\n";
  for (const auto& e : environmentVariables())
    o << ".TP\n.B " << roff(e.name) << "\n" << roff(e.text) << "\n";
  o << ".SH FILES\n.TP\n.I share/dctwin/data\n"
       "catalog, facilities, scenarios, sweeps and weather (or \\fBDCTWIN_DATA\\fR)\n"
       ".TP\n.I share/dctwin/scripts\nreport.py (dctwin report) and the Slurm job scripts\n"
       ".TP\n.I OUTPUT.journal\n"
       "a sweep's finished cases, from which it resumes (docs/sweep\\-format.md)\n";
  o << ".SH EXAMPLES\n";
  for (const auto& e : examples()) o << ".TP\n.B " << roff(e.name) << "\n" << roff(e.text) << "\n";
  o << ".SH \"SEE ALSO\"\nREADME.md and docs/ in share/doc/dctwin: docs/facility\\-format.md, "
       "docs/scenario\\-format.md, docs/sweep\\-format.md, docs/results.md, docs/python.md\n";
  return o.str();
}

}  // namespace dctwin::cli
