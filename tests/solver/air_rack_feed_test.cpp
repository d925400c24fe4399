// air_rack_feed_test.cpp: air-cooled racks follow their power feed (
// docs/models/air_rack.md "Power feed"): a busway breaker trip, a utility loss with and without a
// UPS cut them as they cut the liquid-cooled racks on the same feed; the energies still close.
// Also: the fast /power/P_IT rows and the sweep's E_it count them (every sink the same way).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

// two 100 kW heat-load racks, each on its busway; three air-cooled racks: SW1 on BW1, ST1 on BW2,
// SM1 at the utility meter. `feeder` is BW1's breaker, `ups` the UPS line (empty: no UPS)
std::string facility(const std::string& feeder, const std::string& ups) {
  return R"(dctwin: 1
name: airfeed
site:
  ambient_temperature: 25 degC
  room_air: {volume: 3000 m3, supply_temperature: 24 degC, airflow: 30 m3/s}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 275 L/min}
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
power:
  line_voltage_V: 480
  transformer: transformer_2500kva
)" + ups +
         R"(
  shelf: shelf_gb200_33kw
  shelf_breaker: breaker_mcb_63a_c
  busways:
    - {name: BW1, model: eaton_powrway3_cu_800a, length: 30 m, breaker: )" +
         feeder + R"(, racks: [A01]}
    - {name: BW2, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [A02]}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1, heat_load: 100 kW}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2, heat_load: 100 kW}
air_racks:
  - {name: SW1, row: B, index: 1, heat_load: 12 kW, busway: BW1,
     fans: {control: delta_t, rated_airflow: 1.5 m3/s, rated_power: 900 W, delta_t: 12 K}}
  - {name: ST1, row: B, index: 2, heat_load: 10 kW, busway: BW2,
     fans: {control: pressure, rated_airflow: 1.0 m3/s, rated_power: 500 W,
            rated_pressure: 250 Pa, pressure_setpoint: 100 Pa}}
  - {name: SM1, row: B, index: 3, heat_load: 8 kW,
     fans: {control: pressure, rated_airflow: 1.0 m3/s, rated_power: 500 W,
            rated_pressure: 250 Pa, pressure_setpoint: 100 Pa}}
)";
}
const std::string kUps = "  ups: ups_double_conversion_1mw\n  generator_start_delay: 10 s";

struct Frames : RunSink {
  RunLayout L;
  FrameLayout F;
  std::vector<OutputFrame> rows;
  std::vector<double> fast_t, fast_P;  // the fast /power/P_IT rows
  double fast_interval = 0;
  void begin(const RunLayout& l, const FrameLayout& f) override { L = l, F = f; }
  void row(const OutputFrame& f) override {
    rows.push_back(f);
    rows.back().layout = &F;
    rows.back().events = nullptr;
  }
};

RunReport run(const std::string& text, const std::string& events, double duration, Frames& fr) {
  const FacilitySpec spec = loadFacilityFromString(text, "airfeed.yaml", "");
  const Scenario sc = loadScenarioFromString(
      "dctwin_scenario: 1\nname: feed\nduration: " + std::to_string(duration) +
          " s\noutput_interval: 10 s\n" + events,
      "feed.yaml");
  std::vector<RunSink*> sinks{&fr};
  return runFacility(spec, sc, RunSettings{}, sinks);
}

// the air rack's IT + fan draw in a frame
double draw(const OutputFrame& f, int k) {
  return f.get(Obs::AirRackP)[k] + f.get(Obs::AirRackPFan)[k];
}

const EventRecord* findEvent(const RunResult& r, const std::string& who, const std::string& kind) {
  for (const EventRecord& e : r.events)
    if (e.component == who && e.kind == kind) return &e;
  return nullptr;
}

// the power chain's books: utility = IT (liquid DC + air racks) + losses - battery, and the room
// air: in = removed + stored
void checkBalances(const RunReport& rep, const Frames& fr) {
  const OutputFrame& e = fr.rows.back();
  const double E_u = e.scalar(Obs::EnergyUtility);
  const double losses = e.scalar(Obs::EnergyPowerChainLoss);
  const double battery = e.scalar(Obs::EnergyStorageDrawn);  // the UPS battery's net draw
  INFO("utility " << E_u << " J, IT " << e.scalar(Obs::EnergyIt) << " J, losses " << losses
                  << " J, battery " << battery << " J");
  CHECK(std::abs(E_u - (e.scalar(Obs::EnergyIt) + losses - battery)) <= 1e-3 * E_u);
  const EnergyTotals& t = rep.result.energy;
  CHECK(std::abs(t.air_in - t.air_removed - t.air_stored) <= 1e-5 * t.air_in);
  CHECK(std::abs(t.balanceError()) <= 1e-5 * t.heat_in);
}

}  // namespace

TEST_CASE("air-cooled racks on a tripped busway lose power as its liquid rack does",
          "[air_rack][power_chain]") {
  // a 63 A breaker on BW1 (~130 A with A01 and SW1): it trips within a minute
  Frames fr;
  const RunReport rep = run(facility("breaker_mcb_63a_c", kUps), "", 300, fr);
  REQUIRE(rep.result.ok);
  const EventRecord* trip = findEvent(rep.result, "busway BW1", "breaker_trip");
  REQUIRE(trip != nullptr);
  CHECK(trip->time < 120);
  // SW1 is logged as A01 is, at the same poll; the others keep their power
  const EventRecord* a01 = findEvent(rep.result, "rack A01", "rack_power_lost");
  const EventRecord* sw1 = findEvent(rep.result, "air rack SW1", "rack_power_lost");
  REQUIRE(a01 != nullptr);
  REQUIRE(sw1 != nullptr);
  CHECK(sw1->time == a01->time);
  CHECK(sw1->severity == "critical");
  CHECK(sw1->message.find("feeder breaker") != std::string::npos);
  CHECK(findEvent(rep.result, "air rack ST1", "rack_power_lost") == nullptr);
  CHECK(findEvent(rep.result, "air rack SM1", "rack_power_lost") == nullptr);
  const OutputFrame& end = fr.rows.back();
  // SW1: no IT load, fans stopped, no airflow, outlet = inlet; ST1 and SM1 as before
  CHECK(end.get(Obs::AirRackPowered)[0] == 0.0);
  CHECK(end.get(Obs::AirRackP)[0] == 0.0);
  CHECK(end.get(Obs::AirRackPFan)[0] == 0.0);
  CHECK(end.get(Obs::AirRackVAir)[0] == 0.0);
  CHECK(end.get(Obs::AirRackTOut)[0] == end.get(Obs::AirRackTIn)[0]);
  CHECK(end.get(Obs::AirRackPowered)[1] == 1.0);
  CHECK(end.get(Obs::AirRackPowered)[2] == 1.0);
  CHECK(end.get(Obs::AirRackP)[1] == Approx(10e3).epsilon(1e-12));
  CHECK(end.get(Obs::RackPowered)[0] == 0.0);
  CHECK(end.get(Obs::RackPowered)[1] == 1.0);
  // BW1 carries nothing; IT power and the room air heat without SW1 and A01
  CHECK(end.get(Obs::BuswayI)[0] == 0.0);
  CHECK(end.scalar(Obs::FacilityPIT) ==
        Approx(end.get(Obs::RackP)[1] + draw(end, 1) + draw(end, 2)).epsilon(1e-12));
  // the air racks' energy: the others all along, SW1 until the trip. The coolant and room air see
  // the cut from the start of the coupling window (5 s) in which the breaker tripped, as they see
  // a liquid rack's; the trip is logged at the next detector poll (the window's end)
  const double P_sw = draw(fr.rows[1], 0);
  const double P_rest = draw(end, 1) + draw(end, 2);
  const double E_air = end.scalar(Obs::EnergyAirRacks);
  const double T_sw = (E_air - P_rest * 300) / P_sw;
  INFO("SW1 " << P_sw << " W for " << T_sw << " s; trip logged at " << trip->time << " s");
  CHECK(T_sw <= trip->time + 1e-6);
  CHECK(T_sw >= trip->time - 5.0 - 1e-6);
  checkBalances(rep, fr);
}

TEST_CASE("utility loss: at the meter an air rack goes down, behind the UPS it rides through",
          "[air_rack][power_chain]") {
  Frames fr;
  const RunReport rep = run(
      facility("breaker_mccb_800a", kUps),
      "events:\n  - {time: 60 s, utility: lost}\n  - {time: 180 s, utility: restored}\n", 300, fr);
  REQUIRE(rep.result.ok);
  const EventRecord* sm1 = findEvent(rep.result, "air rack SM1", "rack_power_lost");
  REQUIRE(sm1 != nullptr);
  CHECK(sm1->time == Approx(60).margin(1.0));
  CHECK(sm1->message.find("utility meter") != std::string::npos);
  CHECK(findEvent(rep.result, "air rack SW1", "rack_power_lost") == nullptr);
  CHECK(findEvent(rep.result, "air rack ST1", "rack_power_lost") == nullptr);
  CHECK(findEvent(rep.result, "rack A01", "rack_power_lost") == nullptr);
  const OutputFrame& end = fr.rows.back();
  CHECK(end.get(Obs::AirRackPowered)[2] == 0.0);  // latched, as a liquid rack's loss is
  CHECK(draw(end, 2) == 0.0);
  CHECK(end.get(Obs::AirRackPowered)[0] == 1.0);
  CHECK(end.get(Obs::AirRackPowered)[1] == 1.0);
  // SM1's energy stops at the loss (to a coupling window)
  const double E_air = end.scalar(Obs::EnergyAirRacks);
  const double P_sm = draw(fr.rows[1], 2), P_rest = draw(end, 0) + draw(end, 1);
  CHECK(E_air == Approx(P_rest * 300 + P_sm * 60).margin(P_sm * 2.0));
  checkBalances(rep, fr);
}

TEST_CASE("utility loss without a UPS: every air rack goes down with the liquid racks",
          "[air_rack][power_chain]") {
  Frames fr;
  const RunReport rep = run(facility("breaker_mccb_800a", ""),
                            "events:\n  - {time: 60 s, utility: lost}\n"
                            "  - {time: 180 s, utility: restored}\n",
                            300, fr);
  REQUIRE(rep.result.ok);
  for (const char* who : {"air rack SW1", "air rack ST1", "air rack SM1", "rack A01", "rack A02"}) {
    INFO(who);
    const EventRecord* e = findEvent(rep.result, who, "rack_power_lost");
    REQUIRE(e != nullptr);
    CHECK(e->time == Approx(60).margin(1.0));
  }
  CHECK(findEvent(rep.result, "air rack SW1", "rack_power_lost")->message.find("no UPS") !=
        std::string::npos);
  const OutputFrame& end = fr.rows.back();
  for (int k = 0; k < 3; ++k) {
    CHECK(end.get(Obs::AirRackPowered)[k] == 0.0);
    CHECK(draw(end, k) == 0.0);
  }
  CHECK(end.scalar(Obs::FacilityPIT) == 0.0);
  // nothing is drawn after the loss: the utility meter adds only the transformer's no-load loss
  const OutputFrame& before = fr.rows[6];  // t = 60 s
  REQUIRE(before.t == Approx(60));
  CHECK(end.scalar(Obs::EnergyUtility) - before.scalar(Obs::EnergyUtility) ==
        Approx(end.scalar(Obs::EnergyTransformerLoss) - before.scalar(Obs::EnergyTransformerLoss))
            .epsilon(1e-9));
  CHECK(end.scalar(Obs::EnergyAirRacks) ==
        Approx(before.scalar(Obs::EnergyAirRacks)).epsilon(1e-9));
  checkBalances(rep, fr);
}
