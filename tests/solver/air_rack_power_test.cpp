// air_rack_power_test.cpp: air-cooled racks (docs/models/air_rack.md) count in the
// facility's IT power, its energies and its PUE; their own fans are IT load (The Green Grid)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "solver/input/loader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kData = std::string(DCTWIN_SOURCE_DIR) + "/data/";

struct Frames : RunSink {
  RunLayout L;
  FrameLayout F;
  std::vector<OutputFrame> rows;
  void begin(const RunLayout& l, const FrameLayout& f) override { L = l, F = f; }
  void row(const OutputFrame& f) override {
    rows.push_back(f);
    rows.back().layout = &F;
    rows.back().events = nullptr;
  }
};

double sumOf(const OutputFrame& f, Obs id) {
  double s = 0;
  for (double x : f.get(id)) s += x;
  return s;
}

// a storage rack of 10 kW whose fans hold 100 Pa of 250 Pa rated: N = sqrt(0.4), fan power
// 500 W x 0.4^1.5 by the fan laws (docs/models/air_rack.md), whatever the air temperature; the
// example's storage rack ST01 (data/facilities/datasheet_block.yaml) at a constant load
AirRackSpec storageRack() {
  const FacilitySpec ex = loadFacility(kData + "facilities/datasheet_block.yaml");
  AirRackSpec a = ex.air_racks.at(1);
  a.heat_load = TimeSeries{};
  a.heat_load.v = {10e3};
  a.fans.control = FanParams::Control::Pressure;
  a.fans.V_rated = 1.0;
  a.fans.P_rated = 500;
  a.fans.dp_rated = 250;
  a.fans.dp_set = 100;
  a.fans.N_min = 0.2;
  return a;
}
const double kPAir = 10e3 + 500 * std::pow(0.4, 1.5);  // IT + fans (W)

std::string fileText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// the one load error of `text` (a facility file's text under data/facilities)
LoadError oneError(const std::string& text) {
  std::vector<LoadError> errors;
  try {
    loadFacilityFromString(text, "air.yaml", kData + "facilities");
  } catch (const LoadFailure& e) {
    errors = e.errors();
  }
  std::string all;
  for (const auto& e : errors) all += e.format() + "\n";
  INFO(all);
  REQUIRE(errors.size() == 1);
  return errors[0];
}

RunReport run(FacilitySpec spec, Frames& frames) {
  Scenario sc;
  sc.duration = 1800;
  sc.output_interval = 60;
  std::vector<RunSink*> sinks{&frames};
  return runFacility(std::move(spec), sc, RunSettings{}, sinks);
}

}  // namespace

TEST_CASE("air-cooled rack with a power chain: in P_IT, P_IT_in, the utility and IT energy, PUE",
          "[observables][air_rack]") {
  const FacilitySpec base = loadFacility(kData + "facilities/pod_gb200.yaml");
  FacilitySpec spec = base;
  spec.air_racks.push_back(storageRack());
  Frames with, without;
  const RunReport rw = run(spec, with), r0 = run(base, without);
  REQUIRE(rw.result.ok);
  REQUIRE(r0.result.ok);
  REQUIRE(with.rows.size() == without.rows.size());
  for (std::size_t k = 1; k < with.rows.size(); ++k) {
    const OutputFrame& f = with.rows[k];
    CHECK(f.get(Obs::AirRackP)[0] == Approx(10e3).epsilon(1e-12));
    CHECK(f.get(Obs::AirRackPFan)[0] == Approx(kPAir - 10e3).epsilon(1e-12));
    // the hand balance: IT = liquid racks + the air rack's IT and fans
    CHECK(f.scalar(Obs::FacilityPIT) == Approx(sumOf(f, Obs::RackP) + kPAir).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPITIn) == Approx(sumOf(f, Obs::RackPIn) + kPAir).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPUE) ==
          Approx(f.scalar(Obs::FacilityPTotal) / f.scalar(Obs::FacilityPITIn)).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPUE) >= 1.0);
  }
  // energies: the utility meter and the IT energy each carry the air rack's energy. The runs
  // differ otherwise only through the room air, 10 kW warmer: the liquid racks' draw moves by
  // 2e-6 (fixed-phase job) to 1.1e-5 (the described job, its GPUs' barrier waits) of the air
  // rack's energy (measured), the busways' loss by far less than 1 % of it
  const OutputFrame& a = with.rows.back();
  const OutputFrame& b = without.rows.back();
  const double E_air = kPAir * 1800;
  CHECK(a.scalar(Obs::EnergyIt) - b.scalar(Obs::EnergyIt) == Approx(E_air).epsilon(5e-5));
  CHECK(a.scalar(Obs::EnergyUtility) - b.scalar(Obs::EnergyUtility) == Approx(E_air).epsilon(1e-2));
  // PUE from the energies = the one the summary prints, and it is >= 1
  const double pue = (a.scalar(Obs::EnergyUtility) + a.scalar(Obs::EnergyPumpElectric)) /
                     (a.scalar(Obs::EnergyIt) + a.scalar(Obs::EnergyPsuLoss));
  const RunSummary& s = rw.summary;
  CHECK((s.E_utility + s.E_pump) / (s.E_it_dc + s.E_psu) == Approx(pue).epsilon(1e-12));
  CHECK(pue >= 1.0);
  // the air rack's energy is IT load: it lowers PUE (the overheads stay, IT grows)
  const double pue0 = (b.scalar(Obs::EnergyUtility) + b.scalar(Obs::EnergyPumpElectric)) /
                      (b.scalar(Obs::EnergyIt) + b.scalar(Obs::EnergyPsuLoss));
  CHECK(pue < pue0);
  // the summary's room-air line counts the air rack's heat
  CHECK(s.heat_air_racks == Approx(kPAir).epsilon(1e-12));
}

TEST_CASE("air-cooled rack without a power chain: in /facility/P_IT", "[observables][air_rack]") {
  FacilitySpec spec = loadFacility(kData + "facilities/datasheet_block.yaml");
  REQUIRE(!spec.air_racks.empty());
  spec.air_racks.clear();
  spec.air_racks.push_back(storageRack());
  Frames frames;
  REQUIRE(run(spec, frames).result.ok);
  for (const OutputFrame& f : frames.rows)
    CHECK(f.scalar(Obs::FacilityPIT) == Approx(sumOf(f, Obs::RackP) + kPAir).epsilon(1e-12));
}

TEST_CASE("air-cooled rack on a busway: its power through the busway, UPS and transformer",
          "[observables][air_rack]") {
  const FacilitySpec base = loadFacility(kData + "facilities/pod_gb200.yaml");
  FacilitySpec direct = base, fed = base;
  direct.air_racks.push_back(storageRack());
  fed.air_racks.push_back(storageRack());
  fed.air_racks.back().busway = "BW-A1";
  Frames fd, ff;
  REQUIRE(run(direct, fd).result.ok);
  const RunReport rf = run(fed, ff);
  REQUIRE(rf.result.ok);
  for (std::size_t k = 1; k < ff.rows.size(); ++k) {
    const OutputFrame& f = ff.rows[k];
    CHECK(f.scalar(Obs::FacilityPITIn) == Approx(sumOf(f, Obs::RackPIn) + kPAir).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPUE) >= 1.0);
    // BW-A1 carries it: more loss over each interval than with the air rack at the meter (its
    // ~13 A on top of 155-600 A); BW-A2 the same but for the room air the extra busway loss warms
    // (measured: < 1e-5). Interval means: the instant current swings with the jobs' phases, and
    // a phase edge that moves by round-off moves an instant sample by ~1e-3
    CHECK(f.get(Obs::BuswayPLoss)[0] > 1.01 * fd.rows[k].get(Obs::BuswayPLoss)[0]);
    CHECK(f.get(Obs::BuswayPLoss)[1] == Approx(fd.rows[k].get(Obs::BuswayPLoss)[1]).epsilon(1e-4));
  }
  // on the busway its power also pays the busway, UPS and transformer losses: more utility
  // energy than at the meter, the same IT energy
  const OutputFrame& a = ff.rows.back();
  const OutputFrame& b = fd.rows.back();
  CHECK(a.scalar(Obs::EnergyIt) == Approx(b.scalar(Obs::EnergyIt)).epsilon(1e-6));
  CHECK(a.scalar(Obs::EnergyUtility) > b.scalar(Obs::EnergyUtility) + 0.005 * kPAir * 1800);
  const RunSummary& s = rf.summary;
  CHECK((s.E_utility + s.E_pump) / (s.E_it_dc + s.E_psu) >= 1.0);
}

TEST_CASE("air-cooled rack busway: unknown, or without a power section, is a file:line error",
          "[observables][air_rack]") {
  const std::string pod = fileText(kData + "facilities/pod_gb200.yaml");
  const std::string entry =
      "air_racks:\n  - name: ST1\n    row: B\n    index: 1\n    heat_load: 10 kW\n"
      "    fans: {control: pressure, rated_airflow: 1.0 m3/s, rated_power: 500 W, "
      "rated_pressure: 250 Pa, pressure_setpoint: 100 Pa}\n    busway: BW-A3\n";
  const std::string text = pod + "\n" + entry;
  const int line = 1 + int(std::count(text.begin(), text.end(), '\n')) - 1;
  LoadError e = oneError(text);
  CHECK(e.loc.line == line);
  CHECK(e.format().find("air.yaml:" + std::to_string(line)) != std::string::npos);
  CHECK(e.format().find("unknown busway") != std::string::npos);
  CHECK(e.format().find("BW-A1") != std::string::npos);  // did you mean
  // a facility without a power section
  std::string block = fileText(kData + "facilities/datasheet_block.yaml");
  const auto pos = block.find("    fans: {control: delta_t");
  REQUIRE(pos != std::string::npos);
  block.insert(pos, "    busway: BW-A1\n");
  const int line2 = 1 + int(std::count(block.begin(), block.begin() + long(pos), '\n'));
  e = oneError(block);
  CHECK(e.loc.line == line2);
  CHECK(e.format().find("needs the power section") != std::string::npos);
}
