// power_chain_test.cpp: the power chain from the utility to the rack shelves, with the GPU layer
// (docs/models/power_chain.md)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"

using namespace dctwin;

namespace {
std::string withPower(const std::string& feeder) {
  return R"(dctwin: 1
name: chain
site: {ambient_temperature: 25 degC}
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
  ups: ups_double_conversion_1mw
  shelf: shelf_gb200_33kw
  shelf_breaker: breaker_mcb_63a_c
  busways:
    - {name: BW1, model: eaton_powrway3_cu_800a, length: 30 m, breaker: )" +
         feeder + R"(, racks: [A01]}
    - {name: BW2, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [A02]}
jobs:
  - {name: train, racks: all, start: 0 s}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2}
)";
}
}  // namespace

TEST_CASE("power balance: utility = IT + every loss of the chain", "[power_chain]") {
  FacilityModel m =
      compileFacility(loadFacilityFromString(withPower("breaker_mccb_800a"), "p.yaml"));
  REQUIRE(m.has_power);
  State st = makeState(m, 305.15);
  RunOptions ro;
  ro.duration = 600;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  const PowerLayerState& p = st.pl;
  const double losses = p.E_psu + p.E_bus + p.E_ups + p.E_tx;
  CHECK(p.E_utility > 0);
  CHECK(std::abs(p.E_utility - (p.E_it + losses - p.E_battery)) <= 1e-9 * p.E_utility);  // << 0.1 %
  // every stage loses something, and the shelves lose what 80 PLUS Titanium says (4-9 % of IT)
  CHECK(p.E_bus > 0);
  CHECK(p.E_ups > 0);
  CHECK(p.E_tx > 0);
  CHECK(p.E_psu / p.E_it > 0.03);
  CHECK(p.E_psu / p.E_it < 0.10);
  // the busway current follows the racks' AC input: I = P / (sqrt3 V pf)
  CHECK(p.bus_I[1] == Approx(p.rack_P_in[1] / (std::sqrt(3.0) * 480 * 0.95)).epsilon(1e-12));
  CHECK(p.rack_powered[0] == 1);
  CHECK(p.rack_powered[1] == 1);
}

TEST_CASE("parallel transformers and UPS modules share the load equally", "[power_chain]") {
  // the same two racks behind 3 transformers and 4 UPS modules: each unit carries 1/N of the load,
  // so the chain's losses are N times one unit's loss at P/N and the battery holds N times more
  std::string text = withPower("breaker_mccb_800a");
  const std::string tx = "  transformer: transformer_2500kva\n",
                    ups = "  ups: ups_double_conversion_1mw\n";
  text.replace(text.find(tx), tx.size(), tx + "  transformer_count: 3\n");
  text.replace(text.find(ups), ups.size(), ups + "  ups_count: 4\n");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "p.yaml"));
  REQUIRE(m.power.transformer_count == 3);
  REQUIRE(m.power.ups_count == 4);
  State st = makeState(m, 305.15);
  RunOptions ro;
  ro.duration = 120;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  const PowerLayerState& p = st.pl;
  CHECK(
      p.P_tx_loss ==
      Approx(3 * transformerLoss(m.power.transformer, p.P_ups_in / 3, m.power.pf)).epsilon(1e-12));
  // one module's conversion loss at a quarter of the load, times 4 (within the efficiency curve)
  UpsState one;
  one.soc_J = m.power.ups.battery_J;
  const double P_in_one = upsStep(m.power.ups, p.P_ups_out / 4, true, 0.05, one);
  CHECK(p.P_ups_in == Approx(4 * P_in_one).epsilon(1e-9));
  CHECK(p.P_ups_loss == Approx(4 * one.P_loss).epsilon(1e-9));
  const double losses = p.E_psu + p.E_bus + p.E_ups + p.E_tx;
  CHECK(std::abs(p.E_utility - (p.E_it + losses - p.E_battery)) <= 1e-9 * p.E_utility);
  // and an unknown count is an error naming the key
  std::string bad = withPower("breaker_mccb_800a");
  bad.replace(bad.find(ups), ups.size(), ups + "  ups_count: 0\n");
  try {
    loadFacilityFromString(bad, "p.yaml");
    FAIL("ups_count 0 accepted");
  } catch (const LoadFailure& e) {
    CHECK(std::string(e.what()).find("ups_count") != std::string::npos);
  }
}

TEST_CASE("a tripped feeder cuts its racks: GPUs off, heat gone, the job stalls", "[power_chain]") {
  // a 63 A breaker on a ~200 A feeder: it trips within seconds, rack A01 loses power
  FacilityModel m =
      compileFacility(loadFacilityFromString(withPower("breaker_mcb_63a_c"), "p.yaml"));
  State st = makeState(m, 305.15);
  RunOptions ro;
  ro.duration = 300;
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  const PowerLayerState& p = st.pl;
  CHECK(p.bus_brk[0].tripped);
  CHECK(p.bus_brk[0].t_trip < 60.0);
  CHECK_FALSE(p.bus_brk[1].tripped);
  CHECK(p.rack_powered[0] == 0);
  CHECK(p.rack_powered[1] == 1);
  CHECK(st.gl.rack_P[0] == 0.0);                  // no power
  CHECK(std::abs(st.gl.rack_Q_liquid[0]) < 1e3);  // only the plates' residual heat
  // the healthy rack idles at the barrier: the job waits for the dead rank
  CHECK(st.gl.rack_P[1] > 10e3);
  CHECK(st.gl.rack_P[1] < 45e3);
  // a synchronous job cannot finish a collective without every rank
  CHECK(st.gl.job[0].stalled_time > 200.0);
}

TEST_CASE("rack energy storage smooths the grid draw of a training job", "[power_chain]") {
  std::string text = withPower("breaker_mccb_800a");
  text.replace(
      text.find("power:"), 0,
      "rack_types:\n  - {name: stor, base: gb200_nvl72, energy_storage: {capacity: 150 kJ, "
      "max_power: 60 kW, time_constant: 30 s, recovery_time: 300 s}}\n");
  text.replace(text.find("{name: A02, cdu: cdu1, type: gb200_nvl72"), 40,
               "{name: A02, cdu: cdu1, type: stor       ");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "p.yaml"));
  REQUIRE(m.rack_has_storage[1] == 1);
  REQUIRE(m.rack_has_storage[0] == 0);
  struct Bus : OutputSink {
    std::vector<double> in1, grid1, bus0;
    void sample(const FacilityModel&, const State&, const double*, double,
                const EnergyTotals&) override {}
    void fast(const FacilityModel&, const State& st, double t) override {
      if (t < 300) return;
      in1.push_back(st.pl.rack_P_in[1]);
      grid1.push_back(st.pl.rack_P_grid[1]);
      bus0.push_back(st.pl.bus_P[0]);
    }
  } rec;
  State st = makeState(m, 305.15);
  RunOptions ro;
  ro.duration = 600;
  REQUIRE(simulate(m, st, ro, &rec).ok);
  auto p2p = [](const std::vector<double>& v) {
    auto [a, b] = std::minmax_element(v.begin(), v.end());
    return *b - *a;
  };
  INFO("rack p2p " << p2p(rec.in1) << " W, grid p2p " << p2p(rec.grid1) << " W");
  CHECK(p2p(rec.in1) > 50e3);                  // the square wave at the rack
  CHECK(p2p(rec.grid1) < 0.3 * p2p(rec.in1));  // what the busway sees behind the store
  CHECK(p2p(rec.bus0) > 0.8 * p2p(rec.in1));   // the rack without storage passes it on
  // the store's energy is part of the balance
  const PowerLayerState& p = st.pl;
  double stored = -p.E_storage0;
  for (const auto& s : p.storage) stored += s.soc_J;
  const double losses = p.E_psu + p.E_bus + p.E_ups + p.E_tx;
  CHECK(std::abs(p.E_utility - (p.E_it + losses - p.E_battery + stored)) <= 1e-9 * p.E_utility);
  CHECK(p.storage[1].soc_J >= 0);
  CHECK(p.storage[1].soc_J <= 150e3);
}

TEST_CASE("power section: clear errors for unknown parts, wrong kinds and unplaced racks",
          "[power_chain][loader]") {
  std::string text = withPower("breaker_mccb_800a");
  text.replace(text.find("shelf: shelf_gb200_33kw"), 23, "shelf: shelf_gb200_33kwh");
  text.replace(text.find("ups: ups_double_conversion_1mw"), 30, "ups: breaker_mcb_63a_c");
  text.replace(text.find("racks: [A02]"), 12, "racks: [A2]");
  try {
    loadFacilityFromString(text, "p.yaml");
    FAIL("expected a LoadFailure");
  } catch (const LoadFailure& e) {
    const std::string w = e.what();
    INFO(w);
    CHECK(w.find("did you mean 'shelf_gb200_33kw'") != std::string::npos);
    CHECK(w.find("expected a ups") != std::string::npos);
    CHECK(w.find("did you mean 'A02'") != std::string::npos);
    CHECK(w.find("rack 'A02' is on no busway") != std::string::npos);
    CHECK(e.errors().size() == 4);
  }
}
