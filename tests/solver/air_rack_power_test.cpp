// air_rack_power_test.cpp: air-cooled racks (issue 19, docs/models/air_rack.md) count in the
// facility's IT power, its energies and its PUE; their own fans are IT load (The Green Grid)
#include <catch2/catch.hpp>

#include <cmath>
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
  // ~2e-6 of the air rack's energy (measured), the busways' loss by far less than 1 % of it
  const OutputFrame& a = with.rows.back();
  const OutputFrame& b = without.rows.back();
  const double E_air = kPAir * 1800;
  CHECK(a.scalar(Obs::EnergyIt) - b.scalar(Obs::EnergyIt) == Approx(E_air).epsilon(1e-5));
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
