// sweep_keys.cpp: the key tables of sweep files (docs/sweep-format.md shows them, generated
// between its keys markers)
#include "solver/input/keys.h"

namespace dctwin::keys {

namespace {

// a parameter set together with its parameter (same column, value k with value k)
const Section kLinked{
    "sweep.parameters.linked",
    "a parameter set together with its parameter, value k with value k (one /cases column)",
    {text("path").req().docs("facility.<path> or scenario.<path>"),
     any("values")
         .typeShown("list of values")
         .docs("as many values as the parameter's, written as given"),
     any("range").typeShown("[low, high]").docs("[low, high] in one unit, low < high"),
     integer("steps", 2, 10000).docs("with range: as many as the parameter's values")}};

const Section kParam{
    "sweep.parameters",
    "one swept parameter: a path and its values (values, range with steps, or range alone for "
    "latin_hypercube)",
    {text("name").dflt("the path").docs("column name"),
     text("path").req().docs(
         "facility.<path>, scenario.<path>, or facility (whole facility files); a path ending in "
         "epw or csv takes file names, relative to the sweep file's folder"),
     any("values")
         .typeShown("list of values")
         .docs("a list of values, written as given (\"35 degC\")"),
     any("range").typeShown("[low, high]").docs("[low, high] in one unit, low < high"),
     integer("steps", 2, 10000).docs("with range: evenly spaced values, low to high inclusive"),
     list("linked", &kLinked, "linked parameters")
         .docs("other paths set with this one, value k with value k (grid and list)"),
     boolean("uncertain")
         .dflt("false")
         .docs("with replicates: not a design axis but an uncertain input, drawn per replicate "
               "from its range (stratified), the same draws for every design point")}};

const Section kSweep{
    "sweep",
    "a dctwin sweep file (docs/sweep-format.md)",
    {integer("dctwin_sweep", 1, 1).docs("format version (optional)"), text("name"),
     text("description"),
     text("facility").req().docs("the base facility file, relative to the sweep file's folder"),
     text("scenario").docs("the base scenario file"),
     choice("sampling", {"grid", "list", "latin_hypercube"}).dflt("grid"),
     integer("samples", 1, 100000).docs("latin_hypercube: number of cases"),
     integer("seed", 0, (1LL << 62))
         .dflt("1")
         .docs("random seed of latin_hypercube's samples and of the replicates' variation seeds "
               "and uncertain draws"),
     integer("replicates", 2, 10000)
         .docs("an ensemble: every design point runs this many times, each replicate with its "
               "own GPU-to-GPU variation seed (facility.variation.seed) and draw of the "
               "uncertain parameters; /ensemble gets each metric's mean, std, p5 and p95"),
     quantity("duration", Dim::Time, {0, 1e300, true, false, "a positive time"})
         .docs("overrides the scenario's duration"),
     quantity("output_interval", Dim::Time, {0, 1e300, true, false, "a positive time"})
         .docs("overrides the scenario's output interval"),
     quantity("metrics_from", Dim::Time, {0, 1e300, false, false, "a time of 0 s or more"})
         .dflt("min(20 min, half the run)")
         .docs("the case metrics of temperatures, flows, energies and throughput cover the run "
               "from this time on, the same window for every case (0 s: the whole run), skipping "
               "the start-up"),
     quantity("power_interval", Dim::Time, {0, 60, true, true, "a positive time up to 60 s"})
         .docs("every case also samples the meter at this interval (rounded to GPU steps, as "
               "dctwin run --power-interval) for the grid metrics of /cases (grid_*: swing, "
               "ramps, spectrum peak, the utility's limits; docs/models/grid.md); needs resolved "
               "GPUs and a power section (a facility without one is refused)"),
     list("parameters", &kParam, "parameters", 1).req(),
     boolean("series").dflt("false").docs(
         "keep every case's run file: OUTPUT.cases/case_NNNNNN.h5")}};

}  // namespace

const Section& sweepFile() {
  return kSweep;
}

}  // namespace dctwin::keys
