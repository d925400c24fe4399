// sweep_file.h: sweep files (docs/sweep-format.md): the base facility and scenario, the
// parameters by path and how cases are sampled. Running the cases: solver/run/sweep.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/input/loader.h"

namespace dctwin {

struct SweepParam {
  std::string name;    // column name (default: the path)
  std::string target;  // "facility", "scenario", or "facility_file" (values are facility files)
  std::string path;    // e.g. facility_water.supply_temperature, cdus[cdu1].control.flow_setpoint
  std::vector<std::string> values;  // YAML scalars as written ("32 degC"); grid and list
  double lo = 0, hi = 0;            // Latin hypercube: range in `unit`
  std::string unit;                 // "degC", "kW", ... ("" for plain numbers)
  SourceLoc loc;
  std::vector<SourceLoc> value_locs;  // where each value is written (values, or the range)
  // a key that names a file (the path ends in .epw or .csv): the values are file names relative
  // to the sweep file's folder, written into each case relative to its facility's (scenario's)
  bool file_valued = false;
  // parameters set together with this one, value k with value k, in this one's column (a design
  // sweep of the water temperature moves the plant set point, the facility water and the CDU
  // set point at once); each has a path and as many values; none have links of their own
  std::vector<SweepParam> linked;
  // ensembles (SweepSpec::replicates): an uncertain input is not a design axis but drawn per
  // replicate from its range (stratified, as latin_hypercube); the replicate seed is the
  // column of the variation seeds the sweep appends itself (facility.variation.seed)
  bool uncertain = false;
  bool replicate_seed = false;
};

// true when the path (after facility. or scenario.) ends in a key whose value is a file name
bool sweepPathNamesFile(const std::string& path);

struct SweepSpec {
  std::string file, text;
  std::string name;
  std::string facility_path, scenario_path;  // resolved against the sweep file's folder
  std::string base_dir;                      // the sweep file's folder
  enum class Mode { Grid, List, Lhs } mode = Mode::Grid;
  int samples = 0;         // Latin hypercube
  std::uint64_t seed = 1;  // Latin hypercube
  double duration = 0;     // overrides the scenario's (s); 0: the scenario's
  double output_interval = 0;
  double power_interval = 0;  // the meter series of the grid metrics (s); 0: none
  double metrics_from = -1;   // metrics over [metrics_from, end] (s), the same for every case;
                              // -1: defaultMetricsFrom(duration) (docs/sweep-format.md)
  bool series = false;        // keep every case's run file (time series, compressed)
  // not from the file: the cases may pass the run limits (`dctwin sweep --allow-large`,
  // solver/common/run_limits.h)
  bool allow_large = false;
  std::vector<SweepParam> params;
  // an ensemble (docs/sweep-format.md "Ensembles"): every design point (a case of the grid, list
  // or Latin hypercube over the parameters that are not uncertain) runs `replicates` times, each
  // replicate with its own GPU-to-GPU variation seed and its own draw of the uncertain
  // parameters, the same for every design point; 0: no ensemble
  int replicates = 0;
  SourceLoc replicates_loc;
  SourceLoc power_interval_loc;  // where power_interval was given (errors against the facility)
};

// the variation seed of replicate r (0-based) of an ensemble with sweep seed `seed`: a SplitMix64
// hash of both, below 2^53 (facility.variation.seed's range); the same on every platform
std::uint64_t replicateSeed(std::uint64_t seed, int r);
// appends the column of the replicates' variation seeds (`variation_seed`, written at
// facility.variation.seed) to s.params; the sweep reader calls it when the file sets replicates
void addReplicateSeeds(SweepSpec& s);

SweepSpec loadSweep(const std::string& path);  // throws LoadFailure
SweepSpec loadSweepFromString(const std::string& text, const std::string& name,
                              const std::string& base_dir);

}  // namespace dctwin
