// datasheet_closeout_test.cpp: datasheet equipment, last round: a lumped rack block on a power
// chain (docs/models/rack.md "Lumped block"), the strainer's dp switch (docs/models/filter.md), and
// the air-cooled racks in the fast /power/P_IT rows and the sweep's E_it (docs/models/air_rack.md)
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/controller.h"
#include "models/fan.h"
#include "models/pump.h"
#include "solver/compile/compile.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"
#include "solver/run/run.h"
#include "solver/run/sweep.h"
#include "tests/solver/facility_fixtures.h"

using namespace dctwin;

namespace {

const std::string kData = std::string(DCTWIN_SOURCE_DIR) + "/data/";

struct Frames : RunSink {
  double fast = 0;  // > 0: fast rows every `fast` seconds
  RunLayout L;
  FrameLayout F;
  std::vector<OutputFrame> rows, fast_rows;
  void begin(const RunLayout& l, const FrameLayout& f) override { L = l, F = f; }
  void row(const OutputFrame& f) override {
    rows.push_back(f);
    rows.back().layout = &F;
    rows.back().events = nullptr;
  }
  double fastInterval() const override { return fast; }
  void fastRow(const OutputFrame& f) override {
    fast_rows.push_back(f);
    fast_rows.back().layout = &F;
    fast_rows.back().events = nullptr;
  }
};

RunReport run(const FacilitySpec& spec, const std::string& events, double duration,
              double output_interval, Frames& fr) {
  const Scenario sc = loadScenarioFromString(
      "dctwin_scenario: 1\nname: t\nduration: " + std::to_string(duration) +
          " s\noutput_interval: " + std::to_string(output_interval) + " s\n" + events,
      "t.yaml");
  std::vector<RunSink*> sinks{&fr};
  return runFacility(spec, sc, RunSettings{}, sinks);
}

std::vector<LoadError> errorsOf(const std::string& text) {
  return test::facilityErrors(text);
}

int lineOf(const std::string& text, const std::string& fragment) {
  const auto pos = text.find(fragment);
  REQUIRE(pos != std::string::npos);
  return 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
}

//--- lumped blocks on a power chain -----------------------------------------------------------

// heat-load racks of a storage-fitted GB200 type on four busways: BW1 a block of 4, BW2 the same
// four racks one by one, BW3 a block of 2.5, BW4 one rack; `extra` more busways and racks
std::string powerBlocks(const std::string& extra_busways, const std::string& extra_racks) {
  return R"(dctwin: 1
name: blocks
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: generic_2mw
    control: {supply_temperature: 36 degC, flow_setpoint: 1200 L/min}
    piping:
      supply: {length: 20 m, diameter: 154 mm}
      return: {length: 20 m, diameter: 154 mm}
rack_types:
  - name: gb200s
    base: gb200_nvl72
    energy_storage: {capacity: 2 MJ, max_power: 40 kW, time_constant: 60 s}
power:
  line_voltage_V: 480
  transformer: transformer_2500kva
  ups: ups_double_conversion_1mw
  shelf: shelf_gb200_33kw
  shelf_breaker: breaker_mcb_63a_c
  busways:
    - {name: BW1, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [B1]}
    - {name: BW2, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [A1, A2, A3, A4]}
    - {name: BW3, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [C1]}
    - {name: BW4, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mccb_800a, racks: [D1]}
)" + extra_busways +
         R"(racks:
  - {name: B1, cdu: cdu1, type: gb200s, row: A, index: 1, multiplier: 4, heat_load: {steps: [[0 s, 60 kW], [120 s, 110 kW]]}}
  - {name: A1, cdu: cdu1, type: gb200s, row: B, index: 1, heat_load: {steps: [[0 s, 60 kW], [120 s, 110 kW]]}}
  - {name: A2, cdu: cdu1, type: gb200s, row: B, index: 2, heat_load: {steps: [[0 s, 60 kW], [120 s, 110 kW]]}}
  - {name: A3, cdu: cdu1, type: gb200s, row: B, index: 3, heat_load: {steps: [[0 s, 60 kW], [120 s, 110 kW]]}}
  - {name: A4, cdu: cdu1, type: gb200s, row: B, index: 4, heat_load: {steps: [[0 s, 60 kW], [120 s, 110 kW]]}}
  - {name: C1, cdu: cdu1, type: gb200s, row: C, index: 1, multiplier: 2.5, heat_load: 80 kW}
  - {name: D1, cdu: cdu1, type: gb200s, row: C, index: 2, heat_load: 80 kW}
)" + extra_racks;
}

}  // namespace

TEST_CASE("rack multiplier with a power section: the block draws N racks' current",
          "[datasheet][power_chain]") {
  // BW5: a 63 A breaker on a block of two 20 kW racks (~2 x 27 A: holds), BW6 the same breaker on
  // a block of four (~108 A: trips), as it would on four racks of one busway
  const std::string busways =
      "    - {name: BW5, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mcb_63a_c, "
      "racks: [E1]}\n"
      "    - {name: BW6, model: eaton_powrway3_cu_800a, length: 30 m, breaker: breaker_mcb_63a_c, "
      "racks: [F1]}\n";
  const std::string racks =
      "  - {name: E1, cdu: cdu1, type: gb200s, row: D, index: 1, multiplier: 2, heat_load: 20 "
      "kW}\n"
      "  - {name: F1, cdu: cdu1, type: gb200s, row: D, index: 2, multiplier: 4, heat_load: 20 "
      "kW}\n";
  const FacilitySpec spec = loadFacilityFromString(powerBlocks(busways, racks), "b.yaml", "");
  Frames fr;
  const RunReport rep = run(spec, "", 300, 10, fr);
  REQUIRE(rep.result.ok);
  for (std::size_t k = 1; k < fr.rows.size(); ++k) {
    const OutputFrame& f = fr.rows[k];
    INFO("t = " << f.t);
    const auto P_in = f.get(Obs::RackPIn);
    const auto I = f.get(Obs::BuswayI);
    const auto loss = f.get(Obs::BuswayPLoss);
    // the block of 4 = its four racks one by one: AC input (shelves at one rack's load, with the
    // rack stores smoothing the 60 -> 110 kW step), busway current and I^2 R loss
    CHECK(P_in[0] == Approx(P_in[1] + P_in[2] + P_in[3] + P_in[4]).epsilon(1e-12));
    CHECK(I[0] == Approx(I[1]).epsilon(1e-9));
    CHECK(loss[0] == Approx(loss[1]).epsilon(1e-9));
    // a block of 2.5: 2.5 times one rack's input and current
    CHECK(P_in[5] == Approx(2.5 * P_in[6]).epsilon(1e-12));
    CHECK(I[2] == Approx(2.5 * I[3]).epsilon(1e-9));
  }
  // the stores did act: the step is smoothed (the grid draw after it lags the rack's 4 x 110 kW)
  const OutputFrame& after = fr.rows[13];  // t = 130 s
  REQUIRE(after.t == Approx(130));
  CHECK(after.get(Obs::RackPIn)[0] < 0.99 * 4 * 110e3 / 0.9);
  // the breakers see the block's current: two racks hold, four trip
  bool e1 = false, f1 = false;
  for (const EventRecord& e : rep.result.events) {
    if (e.kind != "breaker_trip") continue;
    e1 = e1 || e.component == "busway BW5";
    f1 = f1 || e.component == "busway BW6";
  }
  CHECK_FALSE(e1);
  CHECK(f1);
  CHECK(fr.rows.back().get(Obs::RackPowered)[8] == 0.0);
  CHECK(fr.rows.back().get(Obs::RackPowered)[7] == 1.0);
}

TEST_CASE("rack multiplier on a rack with resolved GPUs: a file:line error that says why",
          "[datasheet][loader]") {
  const std::string text = R"(dctwin: 1
name: m
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 275 L/min}
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1, multiplier: 4}
)";
  try {
    compileFacility(loadFacilityFromString(text, "m.yaml", ""));
    FAIL("a multiplier on a resolved rack was accepted");
  } catch (const LoadFailure& e) {
    REQUIRE(e.errors().size() == 1);
    const std::string msg = e.errors()[0].format();
    INFO(msg);
    CHECK(msg.find("m.yaml:" + std::to_string(lineOf(text, "{name: A01"))) != std::string::npos);
    CHECK(msg.find("resolved GPUs") != std::string::npos);
    CHECK(msg.find("give the block a heat_load") != std::string::npos);
  }
}

//--- the strainer's dp switch ------------------------------------------------------------------

TEST_CASE("filter dp switch: an alarm when the strainer's dp reaches its set point",
          "[datasheet][filter]") {
  // the example's CDU: filter 20 kPa clean, 65 kPa clogged, a quarter clogged; a clogging event
  // takes it to 80 kPa (at the rated flow) over 600 s from t = 60 s
  const std::string events =
      "events:\n  - {time: 60 s, cdu: cdu_block, filter_clogging: {dp: 80 kPa, growth_time: 600 "
      "s}}\n";
  auto alarmOf = [](const RunReport& rep) -> const EventRecord* {
    for (const EventRecord& e : rep.result.events)
      if (e.kind == "filter_dp_high") return &e;
    return nullptr;
  };
  for (const double set : {0.0, 40e3}) {  // 0: the default, dp_clogged
    FacilitySpec spec = loadFacility(kData + "facilities/datasheet_block.yaml");
    spec.cdus.at(0).filter_alarm_dp = set;
    const double alarm = set > 0 ? set : 65e3;
    INFO("set point " << alarm << " Pa");
    Frames fr;
    const RunReport rep = run(spec, events, 900, 1, fr);
    REQUIRE(rep.result.ok);
    const EventRecord* e = alarmOf(rep);
    REQUIRE(e != nullptr);
    CHECK(e->component == "cdu_block");
    CHECK(e->severity == "warning");
    CHECK(e->message.find("filter dirty") != std::string::npos);
    // the first row at or above the set point: the alarm is at its time (the detectors poll every
    // 1 s with the rows), one alarm only (latched)
    std::size_t k = 0;
    while (k < fr.rows.size() && fr.rows[k].get(Obs::CduFilterDp)[0] < alarm) ++k;
    REQUIRE(k < fr.rows.size());
    REQUIRE(k > 0);
    CHECK(e->time == Approx(fr.rows[k].t).margin(1e-6));
    int n = 0;
    for (const EventRecord& x : rep.result.events) n += x.kind == "filter_dp_high";
    CHECK(n == 1);
  }
  // no event: the example as it is (31 kPa at its flow), nothing reaches 65 kPa
  Frames fr;
  const RunReport rep =
      run(loadFacility(kData + "facilities/datasheet_block.yaml"), "", 1800, 60, fr);
  REQUIRE(rep.result.ok);
  CHECK(alarmOf(rep) == nullptr);
}

TEST_CASE("filter dp switch: a set point not above the clean dp is a file:line error",
          "[datasheet][filter][loader]") {
  std::string text = R"(dctwin: 1
name: f
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 275 L/min}
    filter:
      dp_clean: 20 kPa
      alarm_dp: 15 kPa
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1, heat_load: 100 kW}
)";
  const std::vector<LoadError> errors = errorsOf(text);
  REQUIRE(errors.size() == 1);
  const std::string msg = errors[0].format();
  INFO(msg);
  CHECK(errors[0].loc.line == lineOf(text, "alarm_dp"));
  CHECK(msg.find("15000") != std::string::npos);
  CHECK(msg.find("above dp_clean") != std::string::npos);
}

//--- air-cooled racks in every sink ------------------------------------------------------------

TEST_CASE("air-cooled racks in the fast /power/P_IT rows", "[air_rack][observables]") {
  FacilitySpec spec = loadFacility(kData + "facilities/pod_gb200.yaml");
  const FacilitySpec ex = loadFacility(kData + "facilities/datasheet_block.yaml");
  spec.air_racks.push_back(ex.air_racks.at(0));  // SW01: 12 kW, delta_t fans
  spec.air_racks.push_back(ex.air_racks.at(1));  // ST01: 6 kW, pressure fans
  Frames fr;
  fr.fast = 1.0;
  REQUIRE(run(spec, "", 120, 60, fr).result.ok);
  REQUIRE(fr.fast_rows.size() >= 100);
  // the air racks' draw by the fan laws (docs/models/air_rack.md), whatever the room
  double P_air = 0;
  for (const AirRackSpec& a : {ex.air_racks.at(0), ex.air_racks.at(1)}) {
    const double P = a.heat_load.eval(0);
    P_air += P + fanOperatingPoint(a.fans, P, 1.184, 1006.0).P_fan;
  }
  for (const OutputFrame& f : fr.fast_rows) {
    double racks = 0;
    for (double x : f.get(Obs::PowerRackP)) racks += x;
    CHECK(f.scalar(Obs::PowerPIT) == Approx(racks + P_air).epsilon(1e-12));
  }
}

TEST_CASE("sweep metric E_it without a power chain counts the air-cooled racks",
          "[air_rack][sweep]") {
  // the example (no power section): the switch rack's load 12 -> 24 kW moves E_it by exactly the
  // extra IT + fan energy (fan laws), the liquid side being the same
  const std::string text = R"(dctwin_sweep: 1
facility: datasheet_block.yaml
duration: 10 min
output_interval: 60 s
metrics_from: 0 s
parameters:
  - {path: "facility.air_racks[SW01].heat_load", values: ["12 kW", "24 kW"]}
)";
  SweepSpec s = loadSweepFromString(text, "s.yaml", kData + "facilities");
  const auto res = runSweep(s, expandCases(s), {}, 1, 0, nullptr);
  REQUIRE(res.size() == 2);
  REQUIRE(res[0].ok);
  REQUIRE(res[1].ok);
  const FanParams fans = loadFacility(kData + "facilities/datasheet_block.yaml").air_racks[0].fans;
  auto draw = [&](double P) { return P + fanOperatingPoint(fans, P, 1.184, 1006.0).P_fan; };
  const double dE = (draw(24e3) - draw(12e3)) * 600;
  // (the coolant side's heat differs between the two runs only by the integrator's error, 1e-3
  // of dE, 2e-6 of E_it, measured; before the air racks' energy term dE was missing altogether)
  CHECK(res[1].metrics.at("E_it") - res[0].metrics.at("E_it") == Approx(dE).epsilon(1e-3));
  CHECK(std::abs(res[1].metrics.at("E_it") - res[0].metrics.at("E_it") - dE) <
        1e-5 * res[0].metrics.at("E_it"));
}

//--- the datasheet outputs through the output table --------------------------------------------

TEST_CASE("datasheet outputs: commands, pump head, HX dps and PI integrators are the model's laws",
          "[datasheet][observables]") {
  // the example's CDU through its start-up and the block's 60 -> 110 kW step: at every row the
  // recorded outputs against the laws they are documented to be (docs/results.md), from the other
  // recorded outputs and the compiled parameters
  const FacilitySpec spec = loadFacility(kData + "facilities/datasheet_block.yaml");
  const FacilityModel m = compileFacility(spec);
  Frames fr;
  REQUIRE(run(spec, "", 1800, 30, fr).result.ok);
  const PIParams& pt = m.cdu_pi_temp[0];
  const PIParams& pp = m.cdu_pi_pump[0];
  const double rho_sec = m.fluids[m.cdu_fluid[0]].rho_ref();
  const double rho_fws = m.fluids[m.fws_fluid].rho_ref();
  int valve_free = 0;
  for (std::size_t k = 1; k < fr.rows.size(); ++k) {
    const OutputFrame& f = fr.rows[k];
    INFO("t = " << f.t);
    // the temperature PI (direct action, no sensor lag): u = clamp(k (e + x / Ti))
    const double e_T = f.get(Obs::CduTSecSupply)[0] - m.cdu_T_set[0];
    const double x_T = f.get(Obs::CduTempPiIntegral)[0];
    const double u = f.get(Obs::CduValveCommand)[0];
    CHECK(u == Approx(piOutput(pt, e_T, x_T)).margin(1e-12));
    const double u_free = piOutputUnsat(pt, e_T, x_T);
    if (u_free > pt.u_min && u_free < pt.u_max) ++valve_free;
    // the pump PI (reverse action on the relative flow error)
    const double V = f.get(Obs::CduVFlowSec)[0];
    const double e_P = -(V - m.cdu_flow_set[0]) / m.cdu_flow_set[0];
    CHECK(f.get(Obs::CduPumpSpeedCommand)[0] ==
          Approx(piOutput(pp, e_P, f.get(Obs::CduPumpPiIntegral)[0])).margin(1e-12));
    // the pump bank's head at its speed and flow (two of three running, no air, no relief)
    const double N = f.get(Obs::CduPumpSpeed)[0];
    CHECK(f.get(Obs::CduPumpHead)[0] ==
          Approx(pumpHead(m.cdu_pump[0], m.cdu_pump_running[0], N, V)).epsilon(1e-9));
    // the HX's quadratic dps through their rated points (80 kPa each, generic_2mw)
    const double m_prim = f.get(Obs::CduVFlowPrim)[0] * rho_fws;
    CHECK(f.get(Obs::CduHexDpPrimary)[0] ==
          Approx(80e3 * std::pow(m_prim / 32.30, 2)).epsilon(1e-9));
    CHECK(f.get(Obs::CduHexDpSecondary)[0] ==
          Approx(m.cdu_hex_sec_dp[0].dp(V * rho_sec)).epsilon(1e-12));
    CHECK(f.get(Obs::CduHexDpSecondary)[0] > 0);
  }
  // in steady state the secondary HX dp is its rated 80 kPa at the rated 31.48 kg/s, scaled by
  // the flow squared; the valve's command and position agree (the actuator has arrived)
  const OutputFrame& end = fr.rows.back();
  const double m_sec = end.get(Obs::CduVFlowSec)[0] * rho_sec;
  CHECK(end.get(Obs::CduHexDpSecondary)[0] ==
        Approx(80e3 * std::pow(m_sec / 31.48, 2)).epsilon(1e-3));
  CHECK(end.get(Obs::CduValvePosition)[0] == Approx(end.get(Obs::CduValveCommand)[0]).margin(1e-4));
  CHECK(valve_free > 0);  // the controller acted (not only at a limit)
}

TEST_CASE("a dp_setpoint event moves a dp-controlled CDU's rack-bank dp", "[datasheet][system]") {
  // the example's CDU under dp control (60 kPa across the rack bank), stepped to 80 kPa at
  // 20 min: the pump PI holds each set point, the step is logged (the flow and supply set-point
  // events: datasheet_cdu_test.cpp)
  std::string text;
  {
    std::ifstream in(kData + "facilities/datasheet_block.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  const std::string flow = "flow_setpoint: 1800 L/min";
  REQUIRE(text.find(flow) != std::string::npos);
  text.replace(text.find(flow), flow.size(), "pump_mode: dp\n      dp_setpoint: 60 kPa");
  const FacilitySpec spec = loadFacilityFromString(text, "dp.yaml", kData + "facilities");
  Frames fr;
  const RunReport rep =
      run(spec, "events:\n  - {time: 1200 s, cdu: cdu_block, dp_setpoint: 80 kPa}\n", 2400, 60, fr);
  REQUIRE(rep.result.ok);
  const OutputFrame* before = nullptr;
  for (const OutputFrame& f : fr.rows)
    if (f.t <= 1140 + 1e-9) before = &f;
  REQUIRE(before != nullptr);
  CHECK(before->get(Obs::CduDpBank)[0] == Approx(60e3).epsilon(1e-3));
  CHECK(fr.rows.back().get(Obs::CduDpBank)[0] == Approx(80e3).epsilon(1e-3));
  bool logged = false;
  for (const EventRecord& e : rep.result.events)
    logged = logged || (e.kind == "setpoint" && e.component == "cdu_block");
  CHECK(logged);
}
