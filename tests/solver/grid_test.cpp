// grid_test.cpp: the point of interconnection (docs/models/grid.md): the meter series
// /power/P_utility at the GPU step closes on the run's energy rows, the grid metrics and their
// limits, the results file's /grid datasets, and the grid: section's bad input
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/output/grid_meter.h"
#include "solver/output/results_reader.h"
#include "solver/output/sinks.h"
#include "solver/run/run.h"
#include "tests/solver/facility_fixtures.h"

using namespace dctwin;

namespace {

const std::string kData = std::string(DCTWIN_SOURCE_DIR) + "/data/";

std::string podText() {
  std::ifstream in(kData + "facilities/pod_gb200.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct FastFrames : RunSink {
  double fast = 0;
  FrameLayout F;
  std::vector<double> t, P, E_utility, E_pump;
  void begin(const RunLayout&, const FrameLayout& f) override { F = f; }
  void row(const OutputFrame& f) override {
    E_utility.push_back(f.scalar(Obs::EnergyUtility));
    // the cooling the meter feeds besides the plant: CDU pumps and the air handlers' fans and
    // chiller (docs/models/air_handler.md)
    double E = f.scalar(Obs::EnergyPumpElectric);
    if (f.has(Obs::EnergyAirHandlerFans))
      E += f.scalar(Obs::EnergyAirHandlerFans) + f.scalar(Obs::EnergyAirHandlerChiller);
    E_pump.push_back(E);
  }
  double fastInterval() const override { return fast; }
  void fastRow(const OutputFrame& f) override {
    t.push_back(f.t);
    P.push_back(f.scalar(Obs::PowerPUtility));
  }
};

std::vector<LoadError> errorsOf(const std::string& text) {
  return test::facilityErrors(text);
}
using test::anyError;

}  // namespace

TEST_CASE(
    "pod with --power-interval: the meter power closes on /energy/utility + CDU pumps + air "
    "handlers, "
    "the grid metrics and their limits are reported and written",
    "[grid][power_chain]") {
  // the pod's job starts at 5 min; the metrics read from 290 s; a ramp limit it cannot meet
  // (1 kW/s over 1 s) and a band limit it meets (100 MW in 0.1-2 Hz), a band without a limit
  const std::string text = podText() + R"(
grid:
  ramp_limit: 1 kW/s
  ramp_window: 1 s
  psd_segment: 20 s
  start: 290 s
  bands:
    - {f_low: 0.1 Hz, f_high: 2 Hz, limit: 100 MW}
    - {f_low: 3 Hz, f_high: 10 Hz}
)";
  const FacilitySpec spec = loadFacilityFromString(text, "pod_grid.yaml", kData + "facilities");
  REQUIRE(spec.grid.present);
  REQUIRE(spec.grid.bands.size() == 2);
  const double dt = spec.gpu_step;
  const Scenario sc = loadScenarioFromString(
      "dctwin_scenario: 1\nname: t\nduration: 360 s\noutput_interval: 60 s\n", "t.yaml");
  FastFrames fr;
  fr.fast = dt;  // every GPU step
  const auto h5 = std::filesystem::temp_directory_path() / "dctwin_grid_test.h5";
  Hdf5Sink file(h5.string(), 10, 0.1);
  std::vector<RunSink*> sinks{&fr, &file};
  const RunReport rep = runFacility(spec, sc, RunSettings{}, sinks);
  REQUIRE(rep.result.ok);
  REQUIRE(fr.P.size() == std::size_t(std::lround(360 / dt)));
  // 1. energy closes: the meter's sum over the steps = utility + CDU pump and air-handler energy
  // at the end (the pumps and the air handlers at the solver's last state inside each coupling
  // window: within 1e-4 of the total for the pumps alone; the air handlers' chiller follows the
  // room air's PI, which swings as the job starts, and adds 2.5e-4)
  double E = 0;
  for (double P : fr.P) E += P * dt;
  const double E_rows = fr.E_utility.back() + fr.E_pump.back();
  CHECK(E == Approx(E_rows).epsilon(4e-4));
  // the meter is above the IT power and swings once the job runs
  const GridReport& g = rep.summary.grid;
  REQUIRE(g.valid);
  CHECK(g.value(GridCol::Dt) == Approx(dt));  // the shortest sink interval: every step
  CHECK(g.value(GridCol::TStart) == Approx(290).margin(dt));
  CHECK(g.value(GridCol::TEnd) == Approx(360));
  CHECK(g.value(GridCol::Min) <= g.value(GridCol::Mean));
  CHECK(g.value(GridCol::Mean) <= g.value(GridCol::Max));
  CHECK(g.value(GridCol::PeakToPeak) > 0.05 * g.value(GridCol::Max));  // the training swing
  CHECK(g.value(GridCol::MaxRiseWindow) > 1e3);
  CHECK(g.value(GridCol::RampMet) == 0);  // 1 kW/s: exceeded
  REQUIRE(g.vec(GridCol::BandMet).size() == 2);
  CHECK(g.vec(GridCol::BandMet)[0] == 1);         // 100 MW: met
  CHECK(std::isnan(g.vec(GridCol::BandMet)[1]));  // no limit: not checked
  CHECK(g.vec(GridCol::BandRms)[0] > 0);
  // the spectrum's variance is the series' (Parseval) within the windowing's loss
  const auto& S = g.vec(GridCol::PsdDensity);
  const auto& f = g.vec(GridCol::PsdFrequency);
  REQUIRE(S.size() == f.size());
  double var = 0;
  for (double s : S) var += s * (f[1] - f[0]);
  const double sd = g.value(GridCol::Std);
  CHECK(std::sqrt(var) <= 1.05 * sd);
  CHECK(std::sqrt(var) >= 0.5 * sd);
  // the summary prints it
  const std::string text_out = rep.text();
  CHECK(text_out.find("grid (meter)") != std::string::npos);
  CHECK(text_out.find("EXCEEDED") != std::string::npos);
  // 2. the results file: /power/P_utility every 0.1 s and /grid/* with units and basis, read by
  // the reader as any dataset (Python's read_results reads the same)
  const ResultsData d = readResults(h5.string());
  const ResultsSeries* pu = d.find("/power/P_utility");
  REQUIRE(pu != nullptr);
  CHECK(pu->units == "W");
  CHECK(pu->rows == std::size_t(std::lround(360 / 0.1)));
  const ResultsSeries* met = d.find("/grid/bands/met");
  REQUIRE(met != nullptr);
  CHECK(met->rows == 2);
  const ResultsSeries* ramp = d.find("/grid/max_rise_window");
  REQUIRE(ramp != nullptr);
  CHECK(ramp->units == "W/s");
  CHECK(d.find("/grid/dt")->at(0) == Approx(0.1));  // the file's own series
  std::filesystem::remove(h5);
}

TEST_CASE("a run without --power-interval has no meter series and no grid metrics", "[grid]") {
  const FacilitySpec spec = loadFacilityFromString(podText(), "pod.yaml", kData + "facilities");
  const Scenario sc = loadScenarioFromString(
      "dctwin_scenario: 1\nname: t\nduration: 20 s\noutput_interval: 10 s\n", "t.yaml");
  FastFrames fr;
  std::vector<RunSink*> sinks{&fr};
  const RunReport rep = runFacility(spec, sc, RunSettings{}, sinks);
  REQUIRE(rep.result.ok);
  CHECK(fr.P.empty());
  CHECK_FALSE(rep.summary.grid.valid);
  CHECK(rep.text().find("grid (meter)") == std::string::npos);
}

TEST_CASE("grid section: bad bands and limits are errors that name the key", "[grid]") {
  const std::string pod = podText();
  SECTION("a band with f_low >= f_high") {
    const auto errs = errorsOf(pod + "grid:\n  bands:\n    - {f_low: 2 Hz, f_high: 1 Hz}\n");
    CHECK(anyError(errs, "grid.bands[0].f_high", "above the band's f_low (2 Hz)"));
  }
  SECTION("a negative limit") {
    const auto errs =
        errorsOf(pod + "grid:\n  bands:\n    - {f_low: 0.1 Hz, f_high: 2 Hz, limit: -1 MW}\n");
    CHECK(anyError(errs, "grid.bands[0].limit", ""));
  }
  SECTION("a negative ramp limit") {
    const auto errs = errorsOf(pod + "grid:\n  ramp_limit: -5 MW/s\n");
    CHECK(anyError(errs, "grid.ramp_limit", ""));
  }
  SECTION("a limit with no band") {
    const auto errs = errorsOf(pod + "grid:\n  limit: 5 MW\n");
    CHECK(anyError(errs, "grid", "unknown key 'limit'"));  // the key table names the keys
    const auto errs2 = errorsOf(pod + "grid:\n  bands:\n    - {limit: 5 MW}\n");
    CHECK(anyError(errs2, "grid.bands[0]", "f_low"));
  }
  SECTION("a ramp limit in the wrong unit") {
    const auto errs = errorsOf(pod + "grid:\n  ramp_limit: 5 MW\n");
    CHECK(anyError(errs, "grid.ramp_limit", ""));
  }
  SECTION("a grid section without a power section") {
    std::string no_power = pod;
    const auto a = no_power.find("\npower:");
    const auto b = no_power.find("\nprotection:");
    REQUIRE(a != std::string::npos);
    REQUIRE(b != std::string::npos);
    no_power.erase(a, b - a);
    const auto errs = errorsOf(no_power + "grid:\n  ramp_limit: 5 MW/s\n");
    CHECK(anyError(errs, "grid", "power section"));
  }
}

namespace {

// the pod with a site battery under its power section
std::string podWithBattery(const std::string& battery) {
  std::string text = podText();
  const std::string at = "\npower:\n";
  const auto i = text.find(at);
  return text.insert(i + at.size(), "  site_battery: " + battery + "\n");
}

struct MeterRun {
  std::vector<double> P;  // the meter at every GPU step from 320 s
  double E_meter = 0, E_utility = 0, E_pump = 0, E_storage = 0, E_it = 0, E_chain = 0, E_loss = 0,
         soc_min = 2, soc_max = -1;
  std::vector<double> row_t, row_soc;  // the battery's SOC at each output row
  std::string text;
};

MeterRun runMeter(const std::string& facility,
                  const std::string& scenario =
                      "dctwin_scenario: 1\nname: t\nduration: 400 s\noutput_interval: 20 s\n") {
  struct Sink : RunSink {
    double fast = 0;
    MeterRun* r = nullptr;
    void row(const OutputFrame& f) override {
      r->E_utility = f.scalar(Obs::EnergyUtility);
      r->E_pump = f.scalar(Obs::EnergyPumpElectric);
      if (f.has(Obs::EnergyAirHandlerFans))  // the air handlers' fans and chiller are metered too
        r->E_pump += f.scalar(Obs::EnergyAirHandlerFans) + f.scalar(Obs::EnergyAirHandlerChiller);
      r->E_storage = f.scalar(Obs::EnergyStorageDrawn);
      r->E_it = f.scalar(Obs::EnergyIt);
      r->E_chain = f.scalar(Obs::EnergyPowerChainLoss);
      r->E_loss = f.scalar(Obs::EnergySiteBatteryLoss);
      r->soc_min = std::min(r->soc_min, f.scalar(Obs::SiteBatterySoc));
      r->soc_max = std::max(r->soc_max, f.scalar(Obs::SiteBatterySoc));
      r->row_t.push_back(f.t);
      r->row_soc.push_back(f.scalar(Obs::SiteBatterySoc));
    }
    double fastInterval() const override { return fast; }
    void fastRow(const OutputFrame& f) override {
      r->E_meter += f.scalar(Obs::PowerPUtility) * fast;
      if (f.t > 320) r->P.push_back(f.scalar(Obs::PowerPUtility));
    }
  };
  MeterRun r;
  const FacilitySpec spec = loadFacilityFromString(facility, "pod_bess.yaml", kData + "facilities");
  const Scenario sc = loadScenarioFromString(scenario, "t.yaml");
  Sink s;
  s.fast = spec.gpu_step;
  s.r = &r;
  std::vector<RunSink*> sinks{&s};
  const RunReport rep = runFacility(spec, sc, RunSettings{}, sinks);
  REQUIRE(rep.result.ok);
  r.text = rep.text();
  return r;
}

double stdOf(const std::vector<double>& v) {
  double m = 0, q = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (double x : v) q += (x - m) * (x - m);
  return std::sqrt(q / double(v.size()));
}

}  // namespace

TEST_CASE(
    "site battery at the meter: it takes the training swing off the meter, its losses close the "
    "energy, bad keys are errors",
    "[grid][power_chain]") {
  // the pod's job from 5 min swings the meter by several hundred kW every iteration; a 50 kWh,
  // 1 MW battery following a 30 s moving average takes the swing
  const MeterRun off = runMeter(podText());
  const MeterRun on = runMeter(
      podWithBattery("{capacity: 50 kWh, max_power: 1 MW, time_constant: 30 s, recovery_time: "
                     "600 s, efficiency: 0.85}"));
  REQUIRE(on.P.size() == off.P.size());
  CHECK(stdOf(on.P) < 0.3 * stdOf(off.P));
  // energy: the meter's sum is the utility rows' (+ pumps); utility + what the stores gave =
  // IT + the chain's losses, the battery's among them
  CHECK(on.E_meter == Approx(on.E_utility + on.E_pump).epsilon(4e-4));  // (as the test above)
  CHECK(on.E_utility + on.E_storage == Approx(on.E_it + on.E_chain).epsilon(1e-6));
  CHECK(on.E_loss > 0);
  CHECK(off.E_loss == 0);
  CHECK(on.E_chain - on.E_loss == Approx(off.E_chain).epsilon(2e-3));
  CHECK(on.soc_min >= 0);
  CHECK(on.soc_max <= 1);
  CHECK(on.soc_max > on.soc_min);
  CHECK(on.text.find("site battery") != std::string::npos);
  // a round trip at 0.85: the losses are about 1 - sqrt(0.85) = 7.8 % of the energy through
  CHECK(on.E_loss < 0.2 * (on.E_utility + on.E_storage));
  // bad input names the key
  CHECK(anyError(errorsOf(podWithBattery("{capacity: 50 kWh, max_power: 1 MW, time_constant: 30 "
                                         "s, efficiency: 1.5}")),
                 "site_battery.efficiency", ""));
  CHECK(anyError(errorsOf(podWithBattery("{max_power: 1 MW, time_constant: 30 s}")), "site_battery",
                 "capacity"));
  // a utility loss at 325 s: until the generator takes the load (10 s) nothing feeds the site, and
  // the battery neither charges from the dead grid nor drives the meter below zero
  const MeterRun lost =
      runMeter(podWithBattery("{capacity: 50 kWh, max_power: 1 MW, time_constant: 30 s}"),
               "dctwin_scenario: 1\nname: t\nduration: 400 s\noutput_interval: 2.5 s\nevents:\n"
               "  - {time: 325 s, utility: lost}\n  - {time: 360 s, utility: restored}\n");
  auto socAt = [&](double time) {
    for (std::size_t i = 0; i < lost.row_t.size(); ++i)
      if (std::abs(lost.row_t[i] - time) < 1e-6) return lost.row_soc[i];
    return -1.0;
  };
  REQUIRE(socAt(327.5) > 0);
  CHECK(socAt(332.5) == socAt(327.5));  // idle while nothing feeds the site
  CHECK(socAt(320) != socAt(317.5));    // and working before
  CHECK(lost.E_utility + lost.E_storage == Approx(lost.E_it + lost.E_chain).epsilon(1e-6));
}
