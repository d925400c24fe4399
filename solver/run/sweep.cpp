// sweep.cpp: design sweeps (docs/sweep-format.md)
//
// A case is the base facility and scenario YAML with one value written at each parameter's path;
// it is loaded, compiled and simulated on its own (one model and one state per case), so cases
// are independent and the results do not depend on the number of threads. Finished cases go to a
// journal next to the output, from which an interrupted sweep resumes.
#include "solver/run/sweep.h"
#include "solver/compile/compile.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "solver/common/bounded_file.h"
#include "solver/common/units.h"
#include "solver/output/grid_meter.h"
#include "solver/output/results.h"
#include "solver/run/run.h"

namespace dctwin {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

LoadFailure failure(const SourceLoc& loc, const std::string& value, const std::string& msg) {
  return LoadFailure({LoadError{loc, value, msg}});
}

std::string fmtNum(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

// any quantity dctwin reads, to SI (for the numeric parameter columns)
double toSI(const std::string& text) {
  for (Dim d : {Dim::None, Dim::Temperature, Dim::Power, Dim::VolumeFlow, Dim::MassFlow,
                Dim::Pressure, Dim::Length, Dim::Volume, Dim::Time, Dim::Energy, Dim::Area,
                Dim::Frequency, Dim::PowerRate})
    if (auto q = parseQuantity(text, d, nullptr)) return q->value;
  return kNaN;
}

// deterministic uniform in [0, 1) from a 64-bit generator (std distributions are not portable)
double uniform(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// the node at a path ("a.b[name].c"); with a value, writes it there, creating the last key;
// throws std::runtime_error
YAML::Node atPath(YAML::Node root, const std::string& path, const std::string* value) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  std::string p;
  while (std::getline(ss, p, '.')) parts.push_back(p);
  if (parts.empty()) throw std::runtime_error("empty path");
  YAML::Node node = root;
  std::string where;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string key = parts[i], sel;
    const auto lb = key.find('[');
    if (lb != std::string::npos) {
      if (key.back() != ']') throw std::runtime_error("'" + parts[i] + "': expected key[name]");
      sel = key.substr(lb + 1, key.size() - lb - 2);
      key = key.substr(0, lb);
    }
    const bool last = i + 1 == parts.size() && sel.empty();
    if (!node.IsMap()) throw std::runtime_error("'" + where + "' is not a mapping");
    if (last && value) {
      node[key] = *value;
      return node[key];
    }
    if (!node[key]) {
      std::vector<std::string> keys;
      for (auto it = node.begin(); it != node.end(); ++it)
        if (it->first.IsScalar()) keys.push_back(it->first.Scalar());
      throw std::runtime_error("no key '" + key + "'" +
                               (where.empty() ? "" : " in '" + where + "'") +
                               didYouMean(key, keys));
    }
    YAML::Node next = node[key];
    if (last) return next;
    where += (where.empty() ? "" : ".") + key;
    if (!sel.empty()) {
      if (!next.IsSequence()) throw std::runtime_error("'" + where + "' is not a list");
      YAML::Node found;
      bool hit = false;
      const bool numeric = !sel.empty() && std::all_of(sel.begin(), sel.end(), ::isdigit);
      for (std::size_t k = 0; k < next.size() && !hit; ++k)
        if ((numeric && k == std::stoul(sel)) ||
            (next[k].IsMap() && next[k]["name"] && next[k]["name"].IsScalar() &&
             next[k]["name"].Scalar() == sel)) {
          found.reset(next[k]);
          hit = true;
        }
      if (!hit) throw std::runtime_error("no entry '" + sel + "' in '" + where + "'");
      where += "[" + sel + "]";
      if (i + 1 == parts.size()) throw std::runtime_error("'" + where + "': a path ends in a key");
      next.reset(found);
    }
    node.reset(next);
  }
  return node;
}

void setPath(YAML::Node root, const std::string& path, const std::string& value) {
  atPath(root, path, &value);
}

std::string emit(const YAML::Node& n) {
  YAML::Emitter out;
  out << n;
  return std::string(out.c_str()) + "\n";
}

// a file the sweep names (its facility, its scenario), through the bounded opener: a regular file
// of at most 16 MiB (solver/common/bounded_file.h)
std::string readText(const std::string& path, const SourceLoc& loc) {
  FileRefusal why;
  auto text = readBoundedFile(path, kMaxInputFileBytes, &why);
  if (!text) throw failure(loc, path, "cannot read the file: " + why.reason);
  return std::move(*text);
}

// the case metrics over a window of the run, the same for every case: from
// SweepSpec::metrics_from, else from defaultMetricsFrom(duration), so that the start-up (cold
// coolant, the job's first iterations) does not count and every case's energies cover a window
// of the same length. Maxima and minima over the window's rows; energies, throttled time and
// iterations as differences of their cumulative series. The first training job's first steady
// iteration (the output row at which its last iteration time is within 0.5 % of the previous
// row's, at least two iterations in) is kept as a diagnostic (settled_at): a window that starts
// before it holds some of the start-up.
class MetricsSink : public RunSink {
 public:
  // power_interval > 0: also the meter series for the grid metrics (solver/output/grid_meter.h)
  MetricsSink(double from, double power_interval) : from_(from), power_interval_(power_interval) {}
  double settled_at = kNaN;  // the first training job's first steady iteration (s)
  struct Cum {               // cumulative values at one row
    double E_storage = 0;    // net energy drawn from the stores (PUE credits it)
    double t = 0, E_utility = 0, E_it = 0, E_psu = 0, E_bus = 0, E_ups = 0, E_tx = 0;
    double E_ah = 0;  // air handlers' fans + chiller (docs/models/air_handler.md)
    double E_pump = 0, heat_in = 0, throttled = 0, iterations = 0, iteration_sum = 0;
    double E_air_racks = 0;   // air-cooled racks' IT + fan energy
    std::vector<double> map;  // the first training job's bottleneck map (sweepMapMetrics order)
    // every training job's (others: 0): iterations, their summed time, the map (njob x parts)
    std::vector<double> job_iterations, job_iteration_sum, job_map;
    // the plant's cumulative rows (a plant section)
    double E_facility = 0, E_it_pue = 0, E_plant_pumps = 0, E_fans = 0, E_chillers = 0;
    double E_cond_fans = 0, water = 0, cost = 0, co2 = 0, t_mode[3] = {0, 0, 0};
  };
  struct Acc {  // extremes over the rows of a window
    std::vector<double> Tj_max;
    double T_hbm_max = -1e300, T_case_max = -1e300, T_supply_max = -1e300, bus_load_max = 0;
    double margin = kNaN;
    Cum base;
  };
  void begin(const RunLayout& L, const FrameLayout& F) override {
    L_ = &L;
    if (power_interval_ > 0) grid.begin(L, F);
    for (int j = 0; j < L.njob && job_ < 0; ++j)
      if (L.job_kind[j] == 0) job_ = j;
    all.Tj_max.assign(L.ngpu, -1e300);
    win.Tj_max.assign(L.ngpu, -1e300);
    map_ids_.clear();
    for (const SweepMapMetric& m : sweepMapMetrics())
      map_ids_.push_back(findObservable(m.path)->id);
  }
  void row(const OutputFrame& f) override {
    end = cumulative(f);
    if (first_) all.base = end, first_ = false;
    add(all, f);
    if (std::isnan(settled_at) && steady(f)) settled_at = f.t;
    if (!started_ && f.t >= from_ - 1e-9) {
      started_ = true;
      win.base = end;
    }
    if (started_) add(win, f);
  }
  double fastInterval() const override { return power_interval_; }
  void fastRow(const OutputFrame& f) override {
    if (grid.active()) grid.fastRow(f);
  }
  // the window used: `win` once it started, else the whole run
  const Acc& window() const { return started_ ? win : all; }
  Acc all, win;
  Cum end;
  GridMeter grid;  // the meter from the grid section's start (power_interval > 0)

 private:
  bool steady(const OutputFrame& f) {
    if (job_ < 0) return false;
    const double last = f.get(Obs::JobLastIterationTime)[job_];
    const double ref = f.get(Obs::JobReferenceIterationTime)[job_];
    const double n = f.get(Obs::JobIterations)[job_];
    const bool steady =
        n >= 2 && prev_last_ > 0 && ref > 0 && std::abs(last - prev_last_) <= 0.005 * ref;
    prev_last_ = n >= 2 ? last : 0.0;
    return steady;
  }
  Cum cumulative(const OutputFrame& f) const {
    Cum c;
    c.t = f.t;
    if (f.has(Obs::EnergyUtility)) {
      c.E_utility = f.scalar(Obs::EnergyUtility);
      c.E_storage = f.scalar(Obs::EnergyStorageDrawn);
      c.E_it = f.scalar(Obs::EnergyIt);
      c.E_psu = f.scalar(Obs::EnergyPsuLoss);
      c.E_bus = f.scalar(Obs::EnergyBuswayLoss);
      c.E_ups = f.scalar(Obs::EnergyUpsLoss);
      c.E_tx = f.scalar(Obs::EnergyTransformerLoss);
      c.E_tx += f.scalar(Obs::EnergySiteBatteryLoss);  // (the site battery's, with the stages')
    }
    if (f.has(Obs::EnergyFacility)) {
      c.E_facility = f.scalar(Obs::EnergyFacility);
      c.E_it_pue = f.scalar(Obs::EnergyItPue);
      c.E_plant_pumps = f.scalar(Obs::EnergyPlantPumps);
      c.E_fans = f.scalar(Obs::EnergyPlantFans);
      c.E_chillers = f.scalar(Obs::EnergyPlantChillers);
      c.E_cond_fans = f.scalar(Obs::EnergyPlantCondenserFans);
      c.water = f.scalar(Obs::WaterSite);
      c.cost = f.scalar(Obs::PlantCost);
      c.co2 = f.scalar(Obs::PlantCO2);
      c.t_mode[0] = f.scalar(Obs::PlantTimeFree);
      c.t_mode[1] = f.scalar(Obs::PlantTimePartial);
      c.t_mode[2] = f.scalar(Obs::PlantTimeMechanical);
    }
    c.E_pump = f.scalar(Obs::EnergyPumpElectric);
    if (f.has(Obs::EnergyAirHandlerFans))
      c.E_ah = f.scalar(Obs::EnergyAirHandlerFans) + f.scalar(Obs::EnergyAirHandlerChiller);
    c.heat_in = f.scalar(Obs::EnergyHeatIn);
    if (f.has(Obs::EnergyAirRacks)) c.E_air_racks = f.scalar(Obs::EnergyAirRacks);
    if (f.has(Obs::FacilityGpuSecondsThrottled))
      c.throttled = f.scalar(Obs::FacilityGpuSecondsThrottled);
    const int nj = L_->njob, nm = int(map_ids_.size());
    if (nj > 0) {
      c.job_iterations.assign(nj, 0.0);
      c.job_iteration_sum.assign(nj, 0.0);
      const auto n = f.get(Obs::JobIterations), T = f.get(Obs::JobIterationTime);
      for (int j = 0; j < nj; ++j)
        if (L_->job_kind[j] == 0) {
          c.job_iterations[j] = n[j];
          c.job_iteration_sum[j] = n[j] > 0 ? n[j] * T[j] : 0;
        }
      if (f.has(Obs::JobTimeCompute)) {
        c.job_map.assign(std::size_t(nj) * nm, 0.0);
        for (int i = 0; i < nm; ++i) {
          const auto v = f.get(map_ids_[i]);
          for (int j = 0; j < nj; ++j)
            if (L_->job_kind[j] == 0) c.job_map[std::size_t(j) * nm + i] = v[j];
        }
      }
    }
    if (job_ >= 0) {
      c.iterations = c.job_iterations[job_];
      c.iteration_sum = c.job_iteration_sum[job_];
      if (!c.job_map.empty())
        c.map.assign(c.job_map.begin() + std::ptrdiff_t(job_) * nm,
                     c.job_map.begin() + std::ptrdiff_t(job_ + 1) * nm);
    }
    return c;
  }
  void add(Acc& a, const OutputFrame& f) const {
    const auto Tj = f.get(Obs::GpuTJunction), Thbm = f.get(Obs::GpuTHbm);
    for (std::size_t i = 0; i < Tj.size(); ++i) a.Tj_max[i] = std::max(a.Tj_max[i], Tj[i]);
    for (double x : Thbm) a.T_hbm_max = std::max(a.T_hbm_max, x);
    for (double x : f.get(Obs::CduTSecSupply)) a.T_supply_max = std::max(a.T_supply_max, x);
    const auto Tc = f.get(Obs::RackTCase);
    for (int r = 0; r < L_->nrack; ++r)
      if (!L_->rack_resolved[r]) a.T_case_max = std::max(a.T_case_max, Tc[r]);
    for (double x : f.get(Obs::BuswayLoadRatio)) a.bus_load_max = std::max(a.bus_load_max, x);
    if (f.t <= 0) return;  // flows at t = 0 are those of the initial pump speed
    const auto V = f.get(Obs::RackVFlow);
    for (int r = 0; r < L_->nrack; ++r) {
      if (L_->rack_design_flow[r] <= 0) continue;
      const double ratio = V[r] / L_->rack_design_flow[r];
      a.margin = std::isnan(a.margin) ? ratio : std::min(a.margin, ratio);
    }
  }
  const RunLayout* L_ = nullptr;
  std::vector<Obs> map_ids_;  // the bottleneck map's series, sweepMapMetrics order
  double from_ = 0, prev_last_ = 0, power_interval_ = 0;

 public:
  int job() const { return job_; }  // the first training job (-1: none)

 private:
  int job_ = -1;
  bool first_ = true, started_ = false;
};

// the plant's metrics over the window, from the differences of its cumulative rows (the output
// table computes them once: solver/output/plant_observables.cpp); PUE by The Green Grid's
// energy definition
void plantMetrics(const RunLayout& L, const MetricsSink::Cum& a, const MetricsSink::Cum& b,
                  double E_cdu_pumps, std::map<std::string, double>& x) {
  const double E_it = b.E_it_pue - a.E_it_pue;
  const double E_fans = b.E_fans - a.E_fans;
  const double E_plant = (b.E_plant_pumps - a.E_plant_pumps) + E_fans +
                         (b.E_chillers - a.E_chillers) + (b.E_cond_fans - a.E_cond_fans);
  x["E_facility"] = b.E_facility - a.E_facility;
  x["PUE"] = E_it > 0 ? x["E_facility"] / E_it : kNaN;
  x["pPUE_cooling"] = E_it > 0 ? (E_it + E_cdu_pumps + E_plant) / E_it : kNaN;
  x["E_plant"] = E_plant;
  x["E_plant_pumps"] = b.E_plant_pumps - a.E_plant_pumps;
  x["E_chillers"] = b.E_chillers - a.E_chillers;
  x["E_condenser_fans"] = b.E_cond_fans - a.E_cond_fans;
  x[L.plant_towers ? "E_towers" : "E_dry_coolers"] = E_fans;
  x["water_site"] = b.water - a.water;
  x["WUE"] = E_it > 0 ? x["water_site"] / (E_it / 3.6e6) : kNaN;
  x["cost"] = b.cost - a.cost;
  x["CO2"] = b.co2 - a.co2;
  x["time_free"] = b.t_mode[0] - a.t_mode[0];
  x["time_partial"] = b.t_mode[1] - a.t_mode[1];
  x["time_mechanical"] = b.t_mode[2] - a.t_mode[2];
}

}  // namespace

//---------------------------------------------------------------------------------------------

double sweepValueSI(const std::string& text) {
  return toSI(text);
}

double defaultMetricsFrom(double duration) {
  // an assumption, not a measured number: it covers the settling of the bundled sweeps' cases
  // (the job's first steady iteration 7-10 min into the 20 min runs of pod_fws_racks, 20 min into
  // pod_plant_climate_water's days); /cases/settled_at shows each case's own
  constexpr double kSettle = 20 * 60.0;
  return std::min(kSettle, 0.5 * std::max(0.0, duration));
}

std::string setYamlPath(const std::string& yaml_text, const std::string& path,
                        const std::string& value) {
  YAML::Node root = yaml_text.empty() ? YAML::Node(YAML::NodeType::Map) : YAML::Load(yaml_text);
  if (!root.IsMap()) throw std::runtime_error("the text is not a YAML mapping");
  setPath(root, path, value);
  return emit(root);
}

std::string getYamlPath(const std::string& yaml_text, const std::string& path) {
  YAML::Node root = yaml_text.empty() ? YAML::Node(YAML::NodeType::Map) : YAML::Load(yaml_text);
  if (!root.IsMap()) throw std::runtime_error("the text is not a YAML mapping");
  const YAML::Node n = atPath(root, path, nullptr);
  if (n.IsScalar()) return n.Scalar();
  YAML::Emitter out;
  out << n;
  return out.c_str();
}

//---------------------------------------------------------------------------------------------
namespace {

// the design parameters: every parameter but an ensemble's uncertain inputs and seeds
bool isDesign(const SweepParam& p) {
  return !p.uncertain && !p.replicate_seed;
}

// the design points: one value per design parameter (in parameter order) each
std::size_t designCount(const SweepSpec& s) {
  std::size_t n = 1;
  bool any = false;
  for (const auto& p : s.params) {
    if (!isDesign(p)) continue;
    if (!any && s.mode == SweepSpec::Mode::List) return p.values.size();
    any = true;
    if (s.mode != SweepSpec::Mode::Grid) break;
    const std::size_t k = p.values.size();
    if (k != 0 && n > kMaxSweepCases / k) return kMaxSweepCases + 1;  // no overflow
    n *= k;
  }
  if (!any) return 0;
  return s.mode == SweepSpec::Mode::Lhs ? std::size_t(std::max(0, s.samples)) : n;
}

std::vector<std::vector<std::string>> designPoints(const SweepSpec& s) {
  std::vector<const SweepParam*> d;
  for (const auto& p : s.params)
    if (isDesign(p)) d.push_back(&p);
  const std::size_t np = d.size();
  std::vector<std::vector<std::string>> pts;
  if (d.empty()) return pts;
  if (s.mode == SweepSpec::Mode::List) {
    for (std::size_t k = 0; k < d[0]->values.size(); ++k) {
      std::vector<std::string> v;
      for (const SweepParam* p : d) v.push_back(p->values[k]);
      pts.push_back(v);
    }
  } else if (s.mode == SweepSpec::Mode::Grid) {
    std::size_t n = 1;
    for (const SweepParam* p : d) n *= p->values.size();
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<std::string> v(np);
      std::size_t r = k;
      for (std::size_t j = np; j-- > 0;) {  // the last parameter varies fastest
        v[j] = d[j]->values[r % d[j]->values.size()];
        r /= d[j]->values.size();
      }
      pts.push_back(v);
    }
  } else {  // Latin hypercube: one stratum per sample and parameter, strata shuffled per parameter
    std::mt19937_64 rng(s.seed);
    const int n = s.samples;
    std::vector<std::vector<std::string>> cols(np);
    for (std::size_t j = 0; j < np; ++j) {
      std::vector<int> perm(n);
      for (int k = 0; k < n; ++k) perm[k] = k;
      for (int k = n - 1; k > 0; --k) std::swap(perm[k], perm[rng() % (k + 1)]);
      const SweepParam& p = *d[j];
      for (int k = 0; k < n; ++k) {
        const double u = (perm[k] + uniform(rng)) / n;
        cols[j].push_back(fmtNum(p.lo + (p.hi - p.lo) * u) + (p.unit.empty() ? "" : " " + p.unit));
      }
    }
    for (int k = 0; k < n; ++k) {
      std::vector<std::string> v;
      for (std::size_t j = 0; j < np; ++j) v.push_back(cols[j][k]);
      pts.push_back(v);
    }
  }
  return pts;
}

// an ensemble's uncertain draws: per uncertain parameter, one value per replicate, stratified
// (replicate r in one of `replicates` strata of the range, the strata shuffled per parameter)
// from a 64-bit Mersenne Twister of its own stream of the sweep's seed, so that adding
// replicates to a Latin hypercube does not move its design points
std::vector<std::string> uncertainDraws(const SweepSpec& s, std::size_t param) {
  std::mt19937_64 rng(replicateSeed(s.seed, -1) ^ (0x5851F42D4C957F2DULL * (param + 1)));
  const int n = s.replicates;
  const SweepParam& p = s.params[param];
  std::vector<int> perm(n);
  for (int k = 0; k < n; ++k) perm[k] = k;
  for (int k = n - 1; k > 0; --k) std::swap(perm[k], perm[rng() % (k + 1)]);
  std::vector<std::string> v;
  for (int k = 0; k < n; ++k) {
    const double u = (perm[k] + uniform(rng)) / n;
    v.push_back(fmtNum(p.lo + (p.hi - p.lo) * u) + (p.unit.empty() ? "" : " " + p.unit));
  }
  return v;
}

}  // namespace

std::size_t caseCount(const SweepSpec& s) {
  const std::size_t n = designCount(s);
  const std::size_t r = std::size_t(std::max(1, s.replicates));
  if (n > kMaxSweepCases || (n != 0 && r > kMaxSweepCases / n)) return kMaxSweepCases + 1;
  return n * r;
}

int sweepReplicates(const SweepSpec& s) {
  return std::max(1, s.replicates);
}

std::vector<SweepCase> expandCases(const SweepSpec& s) {
  if (const std::size_t n = caseCount(s); n > kMaxSweepCases)
    throw failure(s.params.empty() ? SourceLoc{s.file, 0, 0, ""} : s.params[0].loc, "parameters",
                  "more than " + std::to_string(kMaxSweepCases) +
                      " cases: split the sweep into several files, use fewer values, fewer "
                      "replicates, or latin_hypercube with fewer samples");
  const auto pts = designPoints(s);
  const int R = sweepReplicates(s);
  std::vector<std::vector<std::string>> draws(s.params.size());
  for (std::size_t j = 0; j < s.params.size(); ++j)
    if (s.params[j].uncertain) draws[j] = uncertainDraws(s, j);
  std::vector<SweepCase> cases;
  cases.reserve(pts.size() * R);
  for (std::size_t k = 0; k < pts.size(); ++k)
    for (int r = 0; r < R; ++r) {  // the replicates of a design point follow each other
      SweepCase c{static_cast<int>(k * R + r), {}};
      std::size_t d = 0;
      for (std::size_t j = 0; j < s.params.size(); ++j) {
        const SweepParam& p = s.params[j];
        c.values.push_back(p.replicate_seed ? p.values[r]
                           : p.uncertain    ? draws[j][r]
                                            : pts[k][d++]);
      }
      cases.push_back(std::move(c));
    }
  return cases;
}

CaseInputs caseInputs(const SweepSpec& s, const SweepCase& c, const std::string& facility_text,
                      const std::string& scenario_text) {
  // a facility_file parameter replaces the base facility (topology variants as files)
  std::string fac_text = facility_text, fac_path = s.facility_path;
  for (std::size_t j = 0; j < s.params.size(); ++j)
    if (s.params[j].target == "facility_file") {
      fac_path =
          std::filesystem::path(c.values[j]).is_absolute()
              ? c.values[j]
              : (std::filesystem::path(s.base_dir) / c.values[j]).lexically_normal().string();
      fac_text = readText(fac_path, s.params[j].loc);
    }
  YAML::Node fac = YAML::Load(fac_text);
  YAML::Node sc =
      scenario_text.empty() ? YAML::Node(YAML::NodeType::Map) : YAML::Load(scenario_text);
  // a file value is relative to the sweep file's folder; the case reads it from its facility's
  // (scenario's) folder
  auto written = [&](const SweepParam& p, const std::string& v) {
    if (!p.file_valued || std::filesystem::path(v).is_absolute()) return v;
    const std::filesystem::path file = (std::filesystem::path(s.base_dir) / v).lexically_normal();
    const std::string& owner = p.target == "facility" ? fac_path : s.scenario_path;
    const std::filesystem::path dir = std::filesystem::path(owner).parent_path();
    return owner.empty() ? file.string() : file.lexically_relative(dir).string();
  };
  auto set = [&](const SweepParam& p, const std::string& v) {
    if (p.replicate_seed) {  // facility.variation.seed, with variation: absent (its defaults)
      const YAML::Node& cfac = fac;
      if (cfac["variation"] && !cfac["variation"].IsMap())
        throw failure(p.loc, "replicates",
                      "replicates draw the GPU-to-GPU variation seed (facility.variation.seed), "
                      "but the facility sets 'variation: " +
                          (cfac["variation"].IsScalar() ? cfac["variation"].Scalar() : "...") +
                          "'; turn variation on, or leave replicates out");
      fac["variation"]["seed"] = v;
      return;
    }
    try {
      setPath(p.target == "facility" ? fac : sc, p.path, written(p, v));
    } catch (const std::exception& e) {
      throw failure(p.loc, p.target + "." + p.path, e.what());
    }
  };
  // the replicate's variation seed first: it creates the variation section that uncertain
  // parameters under it (facility.variation.tim) are then written into
  for (std::size_t j = 0; j < s.params.size(); ++j)
    if (s.params[j].replicate_seed) set(s.params[j], c.values[j]);
  for (std::size_t j = 0; j < s.params.size(); ++j) {
    const SweepParam& p = s.params[j];
    if (p.replicate_seed) continue;
    if (p.target != "facility_file") set(p, c.values[j]);
    if (p.linked.empty()) continue;
    // the linked values go with this value's position (the reader checked they are distinct)
    const auto k =
        std::size_t(std::find(p.values.begin(), p.values.end(), c.values[j]) - p.values.begin());
    if (k >= p.values.size()) throw failure(p.loc, c.values[j], "not one of the values");
    for (const SweepParam& l : p.linked) set(l, l.values[k]);
  }
  return {emit(fac), emit(sc), fac_path};
}

void validateSweep(const SweepSpec& s) {
  // the /cases columns: one per parameter, each with a name of its own that HDF5 can hold
  {
    std::vector<LoadError> errors;
    std::map<std::string, int> names;
    for (const auto& p : s.params) {
      if (p.name.empty() || p.name.find('/') != std::string::npos || p.name == "." ||
          p.name == "..")
        errors.push_back(
            {p.loc, p.name, "a parameter's name is a /cases column: not empty, no '/'"});
      else if (names[p.name]++ == 1)
        errors.push_back({p.loc, p.name,
                          "two parameters named '" + p.name +
                              "' (a /cases column each): give one a name of its own"});
    }
    if (!errors.empty()) throw LoadFailure(std::move(errors));
  }
  const std::string fac = readText(s.facility_path, SourceLoc{s.file, 0, 0, "facility"});
  const std::string sc =
      s.scenario_path.empty() ? "" : readText(s.scenario_path, SourceLoc{s.file, 0, 0, "scenario"});
  std::vector<LoadError> errors;
  // every value of every parameter, once (the first case that uses it); a Latin hypercube's
  // values all differ, so there the two ends of every range stand for them (a range is checked
  // whole; loading a facility per sample took minutes for 100,000 samples)
  // an ensemble's uncertain parameters the same way (their draws all differ: the two ends of
  // their ranges, on the first design point), and the first replicate's seed
  std::vector<SweepCase> cases;
  std::size_t forced = 0;  // the first `forced` cases are loaded whatever they repeat
  auto atEnd = [&](const SweepParam& p, int end) {
    return fmtNum(end == 0 ? p.lo : p.hi) + (p.unit.empty() ? "" : " " + p.unit);
  };
  bool any_uncertain = false;
  for (const auto& p : s.params) any_uncertain = any_uncertain || p.uncertain;
  if (s.mode == SweepSpec::Mode::Lhs) {
    for (int end = 0; end < 2; ++end) {
      SweepCase c{-1, {}};
      for (const auto& p : s.params)
        c.values.push_back(p.replicate_seed ? p.values.at(0) : atEnd(p, end));
      cases.push_back(c);
    }
    forced = cases.size();
  } else {
    cases = expandCases(s);
    if (any_uncertain && !cases.empty()) {
      std::vector<SweepCase> ends;
      for (int end = 0; end < 2; ++end) {
        SweepCase c = cases[0];
        c.index = -1;
        for (std::size_t j = 0; j < s.params.size(); ++j)
          if (s.params[j].uncertain) c.values[j] = atEnd(s.params[j], end);
        ends.push_back(c);
      }
      cases.insert(cases.begin(), ends.begin(), ends.end());
      forced = ends.size();
    }
  }
  std::vector<std::map<std::string, bool>> seen(s.params.size());
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const SweepCase& c = cases[ci];
    // the first parameter with a value not loaded before: its value's line is the error's
    SourceLoc at = s.params.empty() ? SourceLoc{s.file, 0, 0, ""} : s.params[0].loc;
    bool fresh = ci < forced;
    if (fresh && s.mode != SweepSpec::Mode::Lhs)  // an uncertain range's end
      for (const auto& p : s.params)
        if (p.uncertain) {
          at = p.loc;
          break;
        }
    for (std::size_t j = 0; j < s.params.size(); ++j) {
      const SweepParam& p = s.params[j];
      if (p.uncertain || p.replicate_seed) continue;  // the forced cases and the first check them
      if (!seen[j][c.values[j]]) {
        seen[j][c.values[j]] = true;
        if (!fresh) {
          const auto k = std::size_t(std::find(p.values.begin(), p.values.end(), c.values[j]) -
                                     p.values.begin());
          at = k < p.value_locs.size() ? p.value_locs[k] : p.loc;
        }
        fresh = true;
      }
    }
    if (!fresh) continue;
    std::string vals;  // the case's values, for its errors
    for (std::size_t j = 0; j < s.params.size(); ++j)
      vals += (j ? ", " : "") + s.params[j].name + " = " + c.values[j];
    try {
      const CaseInputs in = caseInputs(s, c, fac, sc);
      FacilitySpec spec =
          loadFacilityFromString(in.facility_text, in.facility_path,
                                 std::filesystem::path(in.facility_path).parent_path().string());
      if (!s.scenario_path.empty() || !in.scenario_text.empty())
        applyScenario(loadScenarioFromString(in.scenario_text, s.scenario_path), spec);
      // the meter's metrics need a power chain: without one they would be NaN in every case
      if (s.power_interval > 0 && !spec.power.present) {
        errors.push_back(
            {s.power_interval_loc, fmtNum(s.power_interval) + " s",
             "power_interval samples the site's meter, but the facility" +
                 (vals.empty() ? std::string()
                               : " of case " + std::to_string(c.index) + " (" + vals + ")") +
                 " has no power section (docs/models/grid.md): add one, or leave "
                 "power_interval out"});
        break;
      }
    } catch (const LoadFailure& e) {
      // the case's own text has no meaning to the user: report against the sweep file
      for (const auto& le : e.errors()) {
        if (le.loc.file == s.file) {  // a path error, already located in the sweep file
          errors.push_back(le);
          continue;
        }
        errors.push_back({at, le.value,
                          "case " + std::to_string(c.index) + " (" + vals + "): " + le.loc.path +
                              ": " + le.message});
      }
    }
    if (errors.size() > 50) break;
  }
  if (!errors.empty()) throw LoadFailure(std::move(errors));
}

std::string caseSeriesPath(const std::string& output, int index) {
  char b[32];
  std::snprintf(b, sizeof b, "case_%06d.h5", index);
  return output + ".cases/" + b;
}

CaseResult runCase(const SweepSpec& s, const SweepCase& c, const std::string& facility_text,
                   const std::string& scenario_text, const std::string& series_path,
                   const std::atomic<bool>* cancel) {
  CaseResult r;
  r.index = c.index;
  for (const auto& [name, unit] : sweepMetrics()) r.metrics[name] = kNaN;
  const auto wall0 = std::chrono::steady_clock::now();
  try {
    const CaseInputs in = caseInputs(s, c, facility_text, scenario_text);
    FacilitySpec spec =
        loadFacilityFromString(in.facility_text, s.facility_path,
                               std::filesystem::path(s.facility_path).parent_path().string());
    Scenario sc;
    if (!in.scenario_text.empty() && in.scenario_text != "{}\n")
      sc = loadScenarioFromString(in.scenario_text, s.scenario_path);
    RunSettings settings;
    settings.duration = s.duration;
    settings.output_interval = s.output_interval;
    settings.allow_large = s.allow_large;
    const double duration = s.duration > 0 ? s.duration : sc.duration;
    MetricsSink sink(s.metrics_from >= 0 ? s.metrics_from : defaultMetricsFrom(duration),
                     s.power_interval);
    std::unique_ptr<Hdf5Sink> h5;
    std::vector<RunSink*> sinks{&sink};
    if (!series_path.empty()) {
      std::filesystem::create_directories(std::filesystem::path(series_path).parent_path());
      h5 = std::make_unique<Hdf5Sink>(series_path, 10, s.power_interval);
      h5->allowLarge(s.allow_large);
      sinks.push_back(h5.get());
    }
    RunControl control;
    control.cancel = cancel;
    const RunReport report = runFacility(spec, sc, settings, sinks, control);
    const RunResult& res = report.result;
    r.cancelled = res.cancelled;
    const RunLayout& model = report.layout;
    const RunSummary& m = report.summary;
    auto& x = r.metrics;
    const MetricsSink::Acc& w = sink.window();
    const MetricsSink::Cum& e0 = w.base;
    const MetricsSink::Cum& e1 = sink.end;
    auto finite = [](double v) { return v > -1e299 ? v : kNaN; };
    double Tj = -1e300;
    for (double v : w.Tj_max) Tj = std::max(Tj, v);
    x["T_junction_max"] = model.ngpu > 0 ? finite(Tj) : kNaN;
    if (!w.Tj_max.empty()) {
      std::vector<double> v = w.Tj_max;
      const std::size_t k = static_cast<std::size_t>(std::ceil(0.99 * v.size())) - 1;
      std::nth_element(v.begin(), v.begin() + k, v.end());
      x["T_junction_p99"] = v[k];
    }
    x["T_hbm_max"] = model.ngpu > 0 ? finite(w.T_hbm_max) : kNaN;
    x["T_case_max"] = finite(w.T_case_max);
    x["T_supply_max"] = finite(w.T_supply_max);
    x["gpu_seconds_throttled"] = model.ngpu > 0 ? e1.throttled - e0.throttled : 0.0;
    x["gpus_shut_down"] = m.gpus_shut_down;
    // every job's metrics over the window (/case_jobs); the first training job's are also the
    // /cases columns of the same names
    const auto& job_cols = sweepJobMetrics();
    auto col = [&](const char* name) {
      for (std::size_t i = 0; i < job_cols.size(); ++i)
        if (job_cols[i].first == name) return i;
      throw std::logic_error(std::string("no per-job sweep metric ") + name);
    };
    const auto& ms = sweepMapMetrics();
    const std::size_t nm = ms.size(), map0 = col(ms.empty() ? "kind" : ms[0].name.c_str());
    for (int j = 0; j < model.njob; ++j) {
      std::vector<double> v(job_cols.size(), kNaN);
      v[col("kind")] = model.job_kind[j];
      v[col("gpus")] = model.job_gpus[j];
      if (model.job_kind[j] == 0 && j < int(m.jobs.size()) && !e1.job_iterations.empty() &&
          e0.job_iterations.size() == e1.job_iterations.size()) {
        const auto& J = m.jobs[j];
        const double n = e1.job_iterations[j] - e0.job_iterations[j];
        const double T = e1.job_iteration_sum[j] - e0.job_iteration_sum[j];
        v[col("throughput_ratio")] = n > 0 && T > 0 ? J.reference_time * n / T : kNaN;
        v[col("progress_ratio")] = e1.t > e0.t ? n * J.reference_time / (e1.t - e0.t) : kNaN;
        v[col("throughput_lost")] = 1.0 - v[col("throughput_ratio")];
        v[col("iterations")] = n;
        // the step model's (DCTWIN_JOB_MODEL): nominal, and achieved over the window
        if (model.jobDescribed(j)) {
          const double step = model.jobModel(j, JobCol::StepTime);
          const double achieved = n > 0 && T > 0 ? T / n : kNaN;
          v[col("step_time_model")] = step;
          v[col("step_time")] = achieved;
          v[col("tokens_per_second")] =
              model.jobModel(j, JobCol::TokensPerSecond) * step / achieved;
          v[col("mfu")] = model.jobModel(j, JobCol::Mfu) * step / achieved;
          v[col("memory_per_gpu")] = model.jobModel(j, JobCol::MemoryPerGpu);
        }
        // its bottleneck map over the window: each part's share of its GPUs' time (the parts
        // add up to it), each wait cause's share likewise
        if (!e1.job_map.empty() && e0.job_map.size() == e1.job_map.size()) {
          const std::size_t b = std::size_t(j) * nm;
          double total = 0;
          for (std::size_t i = 0; i < nm; ++i)
            if (!ms[i].wait) total += e1.job_map[b + i] - e0.job_map[b + i];
          for (std::size_t i = 0; i < nm; ++i)
            v[map0 + i] = total > 0 ? (e1.job_map[b + i] - e0.job_map[b + i]) / total : kNaN;
        }
      }
      r.job_names.push_back(model.job_name[j]);
      r.job_metrics.push_back(std::move(v));
    }
    if (const int j = sink.job(); j >= 0) {
      const auto& v = r.job_metrics[j];
      for (const char* name : {"throughput_ratio", "progress_ratio", "step_time_model", "step_time",
                               "tokens_per_second", "mfu", "memory_per_gpu"})
        x[name] = v[col(name)];
      for (std::size_t i = 0; i < nm; ++i) x[ms[i].name] = v[map0 + i];
    }
    const double span = e1.t - e0.t;
    const double E_cool = e1.E_pump - e0.E_pump;
    const double E_loss =
        (e1.E_psu - e0.E_psu) + (e1.E_bus - e0.E_bus) + (e1.E_ups - e0.E_ups) + (e1.E_tx - e0.E_tx);
    x["E_utility"] = model.has_power ? e1.E_utility - e0.E_utility : kNaN;
    // without a power chain: the coolant's heat less the pumps', and the air-cooled racks' IT and
    // fan energy (with one, /energy/it has them)
    x["E_it"] = model.has_power
                    ? e1.E_it - e0.E_it
                    : (e1.heat_in - e0.heat_in) - E_cool + (e1.E_air_racks - e0.E_air_racks);
    const double E_ah = e1.E_ah - e0.E_ah;  // the air handlers: cooling besides the CDU pumps
    x["E_cooling"] = E_cool + E_ah;
    x["E_air_handlers"] = model.has_air_handlers ? E_ah : kNaN;
    x["E_power_losses"] = model.has_power ? E_loss : kNaN;
    const double E_it_ac = (e1.E_it - e0.E_it) + (e1.E_psu - e0.E_psu);
    x["PUE"] =
        model.has_power && E_it_ac > 0
            ? ((e1.E_utility - e0.E_utility) + (e1.E_storage - e0.E_storage) + E_cool + E_ah) /
                  E_it_ac
            : kNaN;
    if (model.has_plant) plantMetrics(model, e0, e1, E_cool + E_ah, x);
    if (!std::isnan(x["throughput_ratio"])) x["throughput_lost"] = 1.0 - x["throughput_ratio"];
    x["P_pump_mean"] = span > 0 ? E_cool / span : kNaN;
    x["flow_margin_min"] = w.margin;
    x["busway_load_max"] = model.has_power ? w.bus_load_max : kNaN;
    x["metrics_from"] = e0.t;
    x["metrics_window"] = span;
    x["settled_at"] = sink.settled_at;
    // mean powers over the window and energy per unit of work: comparable whatever the window
    auto mean = [&](const char* E) { return span > 0 ? x[E] / span : kNaN; };
    x["P_utility_mean"] = mean("E_utility");
    x["P_it_mean"] = mean("E_it");
    x["P_power_losses_mean"] = mean("E_power_losses");
    x["P_facility_mean"] = model.has_plant ? mean("E_facility") : kNaN;
    x["P_plant_mean"] = model.has_plant ? mean("E_plant") : kNaN;
    const double iters = e1.iterations - e0.iterations;
    double tokens_per_iteration = 0;  // a described job's global batch in tokens
    for (const auto& J : spec.jobs)
      if (sink.job() >= 0 && J.name == model.job_name[sink.job()] && J.described)
        tokens_per_iteration = J.workload.tokens_per_iteration > 0
                                   ? J.workload.tokens_per_iteration
                                   : J.workload.global_batch * J.workload.sequence_length;
    if (sink.job() >= 0) x["iterations"] = iters;
    for (const char* E : {"E_utility", "E_it", "E_facility"}) {
      const std::string name(E);
      x[name + "_per_iteration"] = iters > 0 ? x[name] / iters : kNaN;
      x[name + "_per_token"] =
          iters > 0 && tokens_per_iteration > 0 ? x[name] / (iters * tokens_per_iteration) : kNaN;
    }
    // the outcome (whole run): what protection did, what failed
    x["racks_powered_off"] = m.racks_unpowered;
    double critical = 0, epo = 0, job_failures = 0;
    for (const auto& e : res.events) {
      critical += e.severity == "critical" ? 1 : 0;
      epo += e.kind == "emergency_power_off" ? 1 : 0;
      job_failures += e.kind == "job_failed" ? 1 : 0;
    }
    x["critical_events"] = critical;
    x["epo_events"] = epo;
    x["job_failures"] = job_failures;
    // the site at the meter (power_interval > 0; docs/models/grid.md): as the case's own /grid
    if (const GridReport g = sink.grid.finish(); g.valid) {
      x["grid_peak_to_peak"] = g.value(GridCol::PeakToPeak);
      x["grid_swing_fraction"] = g.value(GridCol::SwingFraction);
      x["grid_max_rise_window"] = g.value(GridCol::MaxRiseWindow);
      x["grid_max_fall_window"] = g.value(GridCol::MaxFallWindow);
      x["grid_ramp_met"] = g.value(GridCol::RampMet);
      x["grid_peak_frequency"] = g.value(GridCol::PeakFrequency);
      x["grid_peak_amplitude"] = g.value(GridCol::PeakAmplitude);
      // the bands with a limit: all met, and the largest RMS over its limit
      const auto& rms = g.vec(GridCol::BandRms);
      const auto& lim = g.vec(GridCol::BandLimit);
      double worst = kNaN;
      for (std::size_t b = 0; b < rms.size() && b < lim.size(); ++b)
        if (lim[b] > 0)
          worst = std::isnan(worst) ? rms[b] / lim[b] : std::max(worst, rms[b] / lim[b]);
      x["grid_band_worst"] = worst;
      x["grid_bands_met"] = std::isnan(worst) ? kNaN : double(worst <= 1.0);
    }
    const bool stalled = std::any_of(res.events.begin(), res.events.end(),
                                     [](const EventRecord& e) { return e.kind == "job_stalled"; });
    r.status = !res.ok                                                    ? "solver_failed"
               : m.racks_unpowered > 0 || epo > 0 || m.gpus_shut_down > 0 ? "protection_acted"
               : job_failures > 0 || stalled                              ? "job_failed"
                                                                          : "completed";
    double t_leak = -1;
    for (const auto& e : res.events) {
      if (e.kind == "leak_start" && t_leak < 0) t_leak = e.time;
      if (t_leak >= 0 && e.kind == "leak_detected" && std::isnan(x["time_to_detection"]))
        x["time_to_detection"] = e.time - t_leak;
      if (t_leak >= 0 && e.kind == "isolated" && std::isnan(x["time_to_isolation"]))
        x["time_to_isolation"] = e.time - t_leak;
    }
    x["coolant_lost"] = m.coolant_lost;
    x["energy_balance_error"] =
        res.energy.heat_in > 0 ? res.energy.balanceError() / res.energy.heat_in : 0.0;
    r.ok = res.ok;
    r.error = res.error;
  } catch (const LoadFailure& e) {
    r.error = e.what();
    r.status = "input_failed";
  } catch (const std::exception& e) {
    r.error = e.what();
    r.status = "solver_failed";
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

SweepBase readSweepBase(const SweepSpec& s) {
  SweepBase b;
  b.facility_text = readText(s.facility_path, SourceLoc{s.file, 0, 0, "facility"});
  if (!s.scenario_path.empty())
    b.scenario_text = readText(s.scenario_path, SourceLoc{s.file, 0, 0, "scenario"});
  return b;
}

std::vector<CaseResult> runSweep(const SweepSpec& s, const std::vector<SweepCase>& cases,
                                 std::vector<CaseResult> done, int threads, int max_new,
                                 const std::function<void(const CaseResult&, int, int)>& finished,
                                 const std::vector<int>& only, const std::string& series_output) {
  return runSweep(s, readSweepBase(s), cases, std::move(done), threads, max_new, finished, only,
                  series_output);
}

std::vector<CaseResult> runSweep(const SweepSpec& s, const SweepBase& base,
                                 const std::vector<SweepCase>& cases, std::vector<CaseResult> done,
                                 int threads, int max_new,
                                 const std::function<void(const CaseResult&, int, int)>& finished,
                                 const std::vector<int>& only, const std::string& series_output,
                                 const std::atomic<bool>* cancel) {
  const std::string& fac = base.facility_text;
  const std::string& sc = base.scenario_text;
  std::vector<char> have(cases.size(), 0);
  for (const auto& r : done)
    if (r.index >= 0 && r.index < static_cast<int>(cases.size())) have[r.index] = 1;
  std::vector<char> mine(cases.size(), only.empty() ? 1 : 0);
  for (int i : only)
    if (i >= 0 && i < static_cast<int>(cases.size())) mine[i] = 1;
  std::vector<int> pending;
  for (const auto& c : cases)
    if (!have[c.index] && mine[c.index]) pending.push_back(c.index);
  if (max_new > 0 && static_cast<int>(pending.size()) > max_new) pending.resize(max_new);
  std::vector<CaseResult> fresh(pending.size());
  for (auto& r : fresh) r.index = -1;  // until run
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  int count = 0;
  auto worker = [&] {
    for (std::size_t k; (k = next++) < pending.size();) {
      if (cancel && cancel->load()) break;
      fresh[k] =
          runCase(s, cases[pending[k]], fac, sc,
                  s.series && !series_output.empty() ? caseSeriesPath(series_output, pending[k])
                                                     : std::string(),
                  cancel);
      // a case stopped part-way is no result: left out, it runs again on resume
      if (fresh[k].cancelled) {
        fresh[k].index = -1;
        continue;
      }
      std::lock_guard<std::mutex> lock(mu);
      ++count;
      if (finished) finished(fresh[k], count, static_cast<int>(pending.size()));
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (cancel && cancel->load())  // cases never started or stopped part-way are left out
    fresh.erase(
        std::remove_if(fresh.begin(), fresh.end(), [](const CaseResult& r) { return r.index < 0; }),
        fresh.end());
  done.insert(done.end(), fresh.begin(), fresh.end());
  std::sort(done.begin(), done.end(),
            [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
  return done;
}

//---------------------------------------------------------------------------------------------
// the journal overloads that count the cases (solver/run/journal.cpp has the rest)
std::vector<CaseResult> readJournal(const std::string& path, const SweepSpec& s) {
  return readJournal(path, s, expandCases(s).size(), nullptr);
}
void startJournal(const std::string& path, const SweepSpec& s) {
  startJournal(path, s, expandCases(s).size());
}

//---------------------------------------------------------------------------------------------
std::vector<SweepColumn> tableColumns(const ResultsData& d, const std::string& group,
                                      const std::vector<std::string>& first,
                                      const std::vector<std::string>& middle) {
  std::vector<SweepColumn> cols;
  std::set<std::string> done;
  auto add = [&](const std::string& name) {
    const std::string p = group + name;
    if (done.count(p)) return;
    SweepColumn c;
    c.name = name;
    if (auto s = d.series.find(p); s != d.series.end() && s->second.width == 0) {
      c.unit = s->second.units;
      c.basis = s->second.basis;
      c.numbers = s->second.data;
    } else if (auto i = d.integers.find(p); i != d.integers.end()) {
      for (long long v : i->second) c.numbers.push_back(double(v));
    } else if (auto t = d.strings.find(p); t != d.strings.end()) {
      c.text = t->second;
      c.is_text = true;
    } else {
      return;
    }
    done.insert(p);
    cols.push_back(std::move(c));
  };
  for (const std::string& n : first) add(n);
  if (cols.empty()) return cols;  // not this kind of table
  const std::size_t prefix = group.size();
  for (const std::string sub : {"parameters/", "parameters_si/"}) {
    for (const auto& [p, v] : d.strings)
      if (p.rfind(group + sub, 0) == 0) add(p.substr(prefix));
    for (const auto& [p, v] : d.series)
      if (p.rfind(group + sub, 0) == 0) add(p.substr(prefix));
  }
  for (const std::string& n : middle) add(n);
  for (const auto& [p, s] : d.series)
    if (p.rfind(group, 0) == 0) add(p.substr(prefix));
  for (const auto& [p, s] : d.integers)
    if (p.rfind(group, 0) == 0) add(p.substr(prefix));
  for (const auto& [p, s] : d.strings)
    if (p.rfind(group, 0) == 0) add(p.substr(prefix));
  const std::size_t n = std::max(cols[0].numbers.size(), cols[0].text.size());
  for (const auto& c : cols)
    if ((c.is_text ? c.text.size() : c.numbers.size()) != n)
      throw ResultsError(d.path + ": " + group + c.name + " has " +
                         std::to_string(c.is_text ? c.text.size() : c.numbers.size()) +
                         " values, " + group + cols[0].name + " " + std::to_string(n) +
                         " (a ragged table)");
  return cols;
}

std::vector<SweepColumn> sweepColumns(const ResultsData& d) {
  std::vector<std::string> metrics;
  for (const auto& [name, unit] : sweepMetrics()) metrics.push_back(name);
  return tableColumns(d, "/cases/", {"index", "status", "outcome", "error", "wall_seconds"},
                      metrics);
}

std::vector<SweepColumn> sweepJobColumns(const ResultsData& d) {
  std::vector<std::string> metrics;
  for (const auto& [name, unit] : sweepJobMetrics())
    if (name != "kind") metrics.push_back(name);
  return tableColumns(d, "/case_jobs/", {"case", "job", "kind"}, metrics);
}

void writeSweepCsv(const ResultsData& d, std::ostream& out) {
  writeColumnsCsv(sweepColumns(d), out);
}

void writeColumnsCsv(const std::vector<SweepColumn>& cols, std::ostream& out) {
  auto quote = [](const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  for (std::size_t j = 0; j < cols.size(); ++j) {
    const auto& c = cols[j];
    out << (j ? "," : "")
        << quote(c.name + (c.unit.empty() || c.unit == "1" ? "" : " (" + c.unit + ")"));
  }
  out << '\n';
  const std::size_t n = cols.empty() ? 0 : std::max(cols[0].numbers.size(), cols[0].text.size());
  char b[40];
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < cols.size(); ++j) {
      const auto& c = cols[j];
      if (j) out << ',';
      if (c.is_text) {
        out << quote(c.text[i]);
      } else if (std::isnan(c.numbers[i])) {
        out << "nan";  // as dctwin export writes a run's (an empty cell would read as 0)
      } else {
        std::snprintf(b, sizeof b, "%.17g", c.numbers[i]);
        out << b;
      }
    }
    out << '\n';
  }
}

//---------------------------------------------------------------------------------------------
namespace {

// an ensemble's columns of /cases (design point, replicate) and its /ensemble table, one row
// per design point (docs/sweep-format.md "Ensembles")
void writeEnsemble(ResultsFile& f, const SweepSpec& s, const std::vector<SweepCase>& cases,
                   const std::vector<CaseResult>& results) {
  const EnsembleTable T = ensembleTable(s, cases, results);
  const long long R = sweepReplicates(s);
  f.setAttribute("/", "replicates", R);
  f.setAttribute("/", "design_points", static_cast<long long>(T.point.size()));
  std::vector<long long> point, rep;
  for (const auto& r : results) {
    point.push_back(r.index / R);
    rep.push_back(r.index % R);
  }
  f.writeIntVector("/cases/design_point", point,
                   "the case's design point (the row of /ensemble): case / replicates");
  f.writeIntVector("/cases/replicate", rep,
                   "the case's replicate of its design point: case % replicates (its variation "
                   "seed in /cases/parameters/variation_seed)");
  f.writeIntVector("/ensemble/point", T.point,
                   "design point: the cases point * replicates ... (point + 1) * replicates - 1");
  f.writeIntVector("/ensemble/replicates", T.replicates, "replicates run per design point");
  f.writeIntVector("/ensemble/completed", T.completed,
                   "the replicates that ran with their whole load (status completed): the ones "
                   "the statistics cover");
  f.writeStrings("/ensemble/outcome", T.outcome,
                 "the replicates by status: a design point whose replicates shed load is not "
                 "safe under the noise, whatever its mean says");
  for (std::size_t d = 0; d < T.param_names.size(); ++d) {
    std::vector<double> si;
    for (const auto& v : T.values[d]) si.push_back(toSI(v));
    const SweepParam* p = nullptr;
    for (const auto& sp : s.params)
      if (sp.name == T.param_names[d]) p = &sp;
    const std::string what = p ? p->target + "." + p->path : T.param_names[d];
    f.writeStrings("/ensemble/parameters/" + T.param_names[d], T.values[d], what + " as written");
    f.writeVector("/ensemble/parameters_si/" + T.param_names[d], si, "SI",
                  what + " in SI units (NaN: not a number)");
  }
  for (const auto& st : ensembleStatistics())
    for (const auto& [name, unit] : sweepMetrics()) {
      const std::string path = "/ensemble/" + st + "/" + name;
      f.writeVector(path, T.stats.at(st).at(name), unit, ensembleDescription(st, name));
      f.setAttribute(path, "basis", ensembleBasis(st, name));
    }
}

}  // namespace

std::vector<SweepColumn> caseJobColumns(const std::vector<CaseResult>& results) {
  const auto& metrics = sweepJobMetrics();
  std::vector<SweepColumn> cols(2 + metrics.size());
  cols[0].name = "case";
  cols[1].name = "job";
  cols[2].name = "kind";  // (the kind as its word)
  cols[1].is_text = cols[2].is_text = true;
  for (std::size_t i = 1; i < metrics.size(); ++i) {
    cols[2 + i].name = metrics[i].first;
    cols[2 + i].unit = metrics[i].second;
    cols[2 + i].basis = sweepJobMetricBasis(metrics[i].first);
  }
  for (const auto& r : results)
    for (std::size_t j = 0; j < r.job_names.size(); ++j) {
      const auto& m = r.job_metrics[j];
      cols[0].numbers.push_back(r.index);
      cols[1].text.push_back(r.job_names[j]);
      cols[2].text.push_back(jobKindName(m[0]));
      for (std::size_t i = 1; i < metrics.size(); ++i) cols[2 + i].numbers.push_back(m[i]);
    }
  return cols;
}

namespace {
// the per-job table (docs/sweep-format.md "Per-job metrics"): one row per case and job, in case
// order and each case's job order; a case that did not run has no rows
void writeCaseJobs(ResultsFile& f, const std::vector<CaseResult>& results) {
  const std::vector<SweepColumn> cols = caseJobColumns(results);
  std::vector<long long> index(cols[0].numbers.begin(), cols[0].numbers.end());
  f.writeIntVector("/case_jobs/case", index, "the case (a row of /cases: its index)");
  f.writeStrings("/case_jobs/job", cols[1].text, "the job's name in the case's facility");
  f.writeStrings("/case_jobs/kind", cols[2].text, "the job's kind: training, inference or trace");
  for (std::size_t i = 3; i < cols.size(); ++i) {
    const std::string path = "/case_jobs/" + cols[i].name;
    f.writeVector(path, cols[i].numbers, cols[i].unit, sweepJobMetricDescription(cols[i].name));
    f.setAttribute(path, "basis", cols[i].basis);
  }
}
}  // namespace

void writeSweepResults(const std::string& path, const SweepSpec& s,
                       const std::vector<SweepCase>& cases,
                       const std::vector<CaseResult>& results) {
  // provenance: the base facility and scenario, as texts and as the solver settings their runs
  // use (a parameter may change either per case: /cases/parameters); NaN settings when the base
  // does not load
  std::string facility_text, scenario_text, currency;
  SolverSettings solver{kNaN, kNaN, kNaN, kNaN,
                        kNaN, kNaN, kNaN, AnnualParams{false, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}};
  try {
    facility_text = readText(s.facility_path, SourceLoc{s.facility_path, 0, 0, ""});
    if (!s.scenario_path.empty())
      scenario_text = readText(s.scenario_path, SourceLoc{s.scenario_path, 0, 0, ""});
    const FacilitySpec spec =
        loadFacilityFromString(facility_text, s.facility_path,
                               std::filesystem::path(s.facility_path).parent_path().string());
    const Scenario sc =
        scenario_text.empty() ? Scenario{} : loadScenarioFromString(scenario_text, s.scenario_path);
    RunSettings settings;
    settings.duration = s.duration;
    settings.output_interval = s.output_interval;
    solver = solverSettings(spec, sc, settings);
    if (spec.has_plant) currency = spec.plant.currency;
  } catch (const std::exception&) {
  }
  ResultsFile f(path);
  if (!currency.empty())  // the unit of /cases/cost (the base facility's tariff)
    f.setAttribute("/", "currency", currency);
  f.setAttribute("/", "schema", std::string("dctwin-sweep 1"));
  f.setAttribute("/", "schema_version", 1LL);
  writeProvenance(f, provenance(), solver);
  f.setAttribute("/", "sweep_file", s.file);
  f.setAttribute("/", "sweep_text", s.text);
  f.setAttribute("/", "facility_file", s.facility_path);
  f.setAttribute("/", "scenario_file", s.scenario_path);
  f.setAttribute("/", "facility_text", facility_text);
  f.setAttribute("/", "scenario_text", scenario_text);
  f.setAttribute("/", "cases", static_cast<long long>(cases.size()));
  long long failed = 0, comparable = 0;
  for (const auto& r : results) {
    failed += r.ok ? 0 : 1;
    comparable += caseComparable(r) ? 1 : 0;
  }
  f.setAttribute("/", "failed_cases", failed);
  // cases that ran with their whole load (status completed): the others are flagged, never
  // ranked alongside them
  f.setAttribute("/", "completed_cases", comparable);
  f.setAttribute("/", "not_comparable_cases", static_cast<long long>(results.size()) - comparable);
  std::vector<long long> index;
  std::vector<std::string> status, error, outcome;
  std::vector<double> wall;
  for (const auto& r : results) {
    index.push_back(r.index);
    status.push_back(!r.status.empty() ? r.status : r.ok ? "completed" : "solver_failed");
    error.push_back(r.error);
    outcome.push_back(caseOutcome(r));
    wall.push_back(r.wall_seconds);
  }
  f.writeIntVector("/cases/index", index, "case number (grid: the last parameter varies fastest)");
  std::string words;
  for (const auto& w : caseStatuses()) words += (words.empty() ? "" : ", ") + w;
  f.writeStrings(
      "/cases/status", status,
      "what happened: " + words +
          "; only completed cases ran with their whole load and compare with each other");
  f.setAttribute("/cases/status", "basis", std::string("whole run"));
  f.writeStrings("/cases/outcome", outcome,
                 "the status in words: what protection did (racks powered off, EPO, GPUs shut "
                 "down) and why such a case is not comparable, or why it failed");
  f.setAttribute("/cases/outcome", "basis", std::string("whole run"));
  f.writeStrings("/cases/error", error, "why a case failed (empty when it ran)");
  f.writeVector("/cases/wall_seconds", wall, "s", "wall time of the case");
  for (std::size_t j = 0; j < s.params.size(); ++j) {
    std::vector<std::string> text;
    std::vector<double> si;
    for (const auto& r : results) {
      text.push_back(cases[r.index].values[j]);
      si.push_back(toSI(cases[r.index].values[j]));
    }
    const std::string col = s.params[j].name;
    f.writeStrings("/cases/parameters/" + col, text,
                   s.params[j].target + "." + s.params[j].path + " as written");
    f.writeVector("/cases/parameters_si/" + col, si, "SI",
                  s.params[j].target + "." + s.params[j].path + " in SI units (NaN: not a number)");
  }
  for (const auto& [name, unit] : sweepMetrics()) {
    std::vector<double> v;
    for (const auto& r : results) v.push_back(r.metrics.at(name));
    f.writeVector("/cases/" + name, v, unit, sweepMetricDescription(name));
    f.setAttribute("/cases/" + name, "basis", sweepMetricBasis(name));
  }
  writeCaseJobs(f, results);
  if (s.replicates > 0) writeEnsemble(f, s, cases, results);
  f.close();
}

}  // namespace dctwin
