// datasheet_parts_test.cpp: datasheet keys, second round: the strainer/filter
// with its quadratic law (docs/models/filter.md), the pumps' position relative to the HX
// (docs/models/cdu.md), the heat exchanger by UA, by an approach at a flow or by a vendor table
// (docs/models/heat_exchanger.md), and coolants defined in the file (docs/models/fluid.md); each
// checked at its defining point, bad input as file:line errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/fluid_mix.h"
#include "models/heat_exchanger.h"
#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/input/scenario.h"

using namespace dctwin;

namespace {

constexpr double kC = 273.15, kLmin = 1.0 / 60000.0;

// one 500 kW CDU and one lumped rack block (the CDU of datasheet_cdu_test.cpp, lag actuators)
const char* kFacility = R"(dctwin: 1
name: parts
site: {ambient_temperature: 25 degC}
facility_water: {fluid: water, supply_temperature: 26 degC, differential_pressure: 150 kPa}
coldplates:
  - name: block_plate
    time_constant: 2 s
    pressure_drop: {dp_nominal: 30 kPa, flow_nominal: 6 L/min}
    resistance:
      pg25: {fit: {R_inf: 0.02 K/W, a: 0.005, b: 1.1}}
rack_types:
  - name: block
    nominal_power: 500 kW
    liquid_fraction: 0.95
    gpu_heat_fraction: 0.5
    coldplate: block_plate
    coldplate_paths: 100
    design_flow: 600 L/min
    manifold: {dp_nominal: 80 kPa, flow_nominal: 600 L/min, exponent: 1.9}
    coolant_volume: 200 L
    balancing_valve_kv: 150
    max_working_pressure: 6 bar
    supply_temperature_max: 45 degC
cdus:
  - name: cdu1
    fluid: pg25
    heat_exchanger:
      rated_capacity: 500 kW
      rated_approach: 3 K
      rated_primary_supply_temperature: 27 degC
      rated_flow_secondary: 720 L/min
      rated_flow_primary: 600 L/min
      dp_primary: 50 kPa
      dp_secondary: 60 kPa
      holdup_primary: 40 L
      holdup_secondary: 40 L
    pumps:
      count: 2
      running: 1
      rated_flow: 720 L/min
      rated_head: 2.5 bar
      curve: {flow_ratio: [0, 0.5, 1.0, 1.25], head_ratio: [1.3, 1.22, 1.0, 0.82]}
      efficiency_hydraulic: 0.7
      efficiency_motor: 0.9
    primary_valve: {kv: 60, stroke_time: 60 s}
    expansion_tank: {volume: 40 L, precharge: 1 bar}
    internal_volume: 100 L
    control:
      supply_temperature: 32 degC
      flow_setpoint: 600 L/min
    limits: {supply_temperature_min: 15 degC, supply_temperature_max: 45 degC,
             secondary_pressure_max: 6 bar, primary_pressure_max: 10 bar}
    piping:
      supply: {length: 0.2 m, diameter: 0.5 m, segments: 1}
      return: {length: 0.2 m, diameter: 0.5 m, segments: 1}
racks:
  - {name: B1, cdu: cdu1, type: block, row: A, index: 1, heat_load: 400 kW}
)";

std::string patched(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  REQUIRE(text.find(from, pos + 1) == std::string::npos);
  return text.replace(pos, from.size(), to);
}
int lineOf(const std::string& text, const std::string& fragment) {
  const auto pos = text.find(fragment);
  REQUIRE(pos != std::string::npos);
  return 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
}
void expectOneError(const std::string& text, int line, const std::string& fragment) {
  std::vector<LoadError> errors;
  try {
    loadFacilityFromString(text, "parts.yaml");
  } catch (const LoadFailure& e) {
    errors = e.errors();
  }
  std::string all;
  for (const auto& e : errors) all += e.format() + "\n";
  INFO(all);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].loc.line == line);
  CHECK(errors[0].format().find("parts.yaml:" + std::to_string(line)) != std::string::npos);
  CHECK(errors[0].format().find(fragment) != std::string::npos);
}

const std::string kCduKeys = "    internal_volume: 100 L\n";
const std::string kHexLast = "      holdup_secondary: 40 L\n";
const std::string kPumpLast = "      efficiency_motor: 0.9\n";

// the last sample's signals, states and energy totals of a run of `duration`
struct Last : OutputSink {
  Signals sig;
  std::vector<double> y;
  EnergyTotals e;
  void sample(const FacilityModel& m, const State& st, const double* yy, double,
              const EnergyTotals& ee) override {
    sig = st.sig;
    y.assign(yy, yy + m.nstate);
    e = ee;
  }
};
Last run(FacilityModel& m, double duration) {
  m.options.output_interval = 60;
  State st = makeState(m, 30 + kC);
  Last rec;
  RunOptions ro;
  ro.duration = duration;
  REQUIRE(simulate(m, st, ro, &rec).ok);
  return rec;
}

}  // namespace

//---------------------------------------------------------------------------------------------
TEST_CASE("filter: quadratic through its rated point, clean and partly clogged",
          "[system][datasheet][filter]") {
  // clean: 20 kPa at 500 L/min
  std::string text = patched(kFacility, kCduKeys,
                             kCduKeys + "    filter: {dp_clean: 20 kPa, rated_flow: 500 L/min}\n");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "f.yaml"));
  const double rho = m.fluids[m.cdu_fluid[0]].rho_ref();
  Last r = run(m, 1200);
  const double V = r.sig.m_sec[0] / rho;
  CHECK(V == Approx(600 * kLmin).epsilon(1e-3));  // the pump PI holds the flow through it
  CHECK(r.sig.filter_dp[0] == Approx(20e3 * std::pow(V / (500 * kLmin), 2)).epsilon(1e-12));
  // half clogged: halfway between 20 and 60 kPa at the rated flow (the racks' design flow)
  text = patched(
      kFacility, kCduKeys,
      kCduKeys + "    filter: {dp_clean: 20 kPa, dp_clogged: 60 kPa, initial_clogging: 0.5}\n");
  FacilityModel mh = compileFacility(loadFacilityFromString(text, "f.yaml"));
  Last rh = run(mh, 1200);
  const double Vh = rh.sig.m_sec[0] / rho;
  CHECK(rh.sig.filter_dp[0] == Approx(40e3 * std::pow(Vh / (600 * kLmin), 2)).epsilon(1e-12));
  CHECK(std::abs(rh.e.balanceError()) < 1e-5 * rh.e.heat_in);
}

TEST_CASE("filter: a clogging event moves the filter's dp to the event's",
          "[system][datasheet][filter]") {
  FacilitySpec spec = loadFacilityFromString(
      patched(kFacility, kCduKeys, kCduKeys + "    filter: {dp_clean: 20 kPa}\n"), "f.yaml");
  Scenario sc = loadScenarioFromString(R"(duration: 1 h
events:
  - {time: 600 s, cdu: cdu1, filter_clogging: {dp: 80 kPa, growth_time: 600 s}}
)",
                                       "s.yaml");
  applyScenario(sc, spec);
  FacilityModel m = compileFacility(spec);
  const double rho = m.fluids[m.cdu_fluid[0]].rho_ref();
  Last r = run(m, 1800);
  const double V = r.sig.m_sec[0] / rho;
  CHECK(r.sig.filter_dp[0] == Approx(80e3 * std::pow(V / (600 * kLmin), 2)).epsilon(1e-12));
}

TEST_CASE("pump position: its heat passes the HX upstream, enters the supply downstream",
          "[system][datasheet]") {
  for (const bool down : {false, true}) {
    INFO((down ? "downstream" : "upstream"));
    const std::string text =
        down ? patched(kFacility, kPumpLast, kPumpLast + "      position: downstream\n")
             : std::string(kFacility);
    FacilityModel m = compileFacility(loadFacilityFromString(text, "p.yaml"));
    REQUIRE(m.cdu_pump_downstream[0] == (down ? 1 : 0));
    Last r = run(m, 2400);
    const Fluid& f = m.fluids[m.cdu_fluid[0]];
    const double T_res = r.y[m.stateAdr(0, kTRes)];
    const double T_ret = r.y[m.retSegAdr(0) + m.cdu_nseg_ret[0] - 1];
    const double Q = r.sig.Q_pump_fluid[0], mf = r.sig.m_sec[0];
    REQUIRE(Q > 1e3);
    // the supply held at its set point either way (the sensor sits after the pump)
    CHECK(r.y[m.stateAdr(0, kTHexSec)] == Approx(32 + kC).margin(1e-3));
    if (down)
      CHECK(f.h(T_res) - f.h(T_ret) == Approx(0).margin(1e-6 * Q / mf));
    else
      CHECK(f.h(T_res) - f.h(T_ret) == Approx(Q / mf).epsilon(1e-4));
    CHECK(std::abs(r.e.balanceError()) < 1e-5 * r.e.heat_in);
  }
}

TEST_CASE("pump heat into the coolant switched off: no pump heat, the loop still closes",
          "[system][datasheet]") {
  // Modelica Buildings' movers with addPowerToMedium = false [K63]: the reference leaves the
  // pump's heat out; the return reaches the reservoir unheated and the balance closes
  const std::string text =
      patched(kFacility, kPumpLast, kPumpLast + "      heat_to_coolant: false\n");
  FacilityModel m = compileFacility(loadFacilityFromString(text, "p.yaml"));
  REQUIRE(m.cdu_pump_heat[0] == 0);
  Last r = run(m, 2400);
  CHECK(r.sig.Q_pump_fluid[0] == 0.0);
  CHECK(r.sig.P_pump[0] > 1e3);  // the pumps still draw their power
  const Fluid& f = m.fluids[m.cdu_fluid[0]];
  const double T_res = r.y[m.stateAdr(0, kTRes)];
  const double T_ret = r.y[m.retSegAdr(0) + m.cdu_nseg_ret[0] - 1];
  CHECK(f.h(T_res) - f.h(T_ret) == Approx(0).margin(1e-3));
  CHECK(std::abs(r.e.balanceError()) < 1e-5 * r.e.heat_in);
  // on (the default): the same facility's pumps heat the coolant
  FacilityModel on = compileFacility(loadFacilityFromString(kFacility, "p.yaml"));
  REQUIRE(on.cdu_pump_heat[0] == 1);
  CHECK(run(on, 2400).sig.Q_pump_fluid[0] > 1e3);
}

//---------------------------------------------------------------------------------------------
TEST_CASE("heat exchanger by UA, by an approach at a flow, by a vendor table",
          "[loader][datasheet][hex]") {
  SECTION("ua: the given UA at the rated flows") {
    const FacilityModel m = compileFacility(loadFacilityFromString(
        patched(kFacility, kHexLast, kHexLast + "      sizing: ua\n      ua: 150 kW/K\n"),
        "h.yaml"));
    const HexParams& p = m.cdu_hex[0];
    CHECK(hexUA(p, p.m_hot_nominal, p.m_cold_nominal) == Approx(150e3).epsilon(1e-12));
  }
  SECTION("approach: the stated approach at the stated load and flows") {
    const FacilityModel m = compileFacility(loadFacilityFromString(
        patched(kFacility, kHexLast,
                kHexLast +
                    "      sizing: approach\n      approach_point: {approach: 4 K, load: 300 kW, "
                    "flow_secondary: 500 L/min, flow_primary: 400 L/min, "
                    "primary_supply_temperature: 25 degC}\n"),
        "h.yaml"));
    const Fluid& fs = m.fluids[m.cdu_fluid[0]];
    const Fluid& fp = m.fluids[m.fws_fluid];
    const double m_h = 500 * kLmin * fs.rho_ref(), m_c = 400 * kLmin * fp.rho_ref();
    const double T_c = 25 + kC, T_h_out = T_c + 4;
    const double T_h_in = fs.T_of_h(fs.h(T_h_out) + 300e3 / m_h);
    const double UA = hexUA(m.cdu_hex[0], m_h, m_c);
    const double Q = hexHeatFlow(UA, m_h * fs.cp(T_h_in), m_c * fp.cp(T_c), T_h_in, T_c);
    CHECK(Q == Approx(300e3).epsilon(1e-9));
    CHECK(fs.T_of_h(fs.h(T_h_in) - Q / m_h) - T_c == Approx(4.0).epsilon(1e-8));
  }
  SECTION("table: the table's UA at its flows at the rated primary flow") {
    const FacilityModel m = compileFacility(loadFacilityFromString(
        patched(kFacility, kHexLast,
                kHexLast + "      sizing: table\n      table: {flow_L_min: [300, 500, 720, 900], "
                           "ua_W_K: [90000, 125000, 150000, 165000]}\n"),
        "h.yaml"));
    const HexParams& p = m.cdu_hex[0];
    const double rho = m.fluids[m.cdu_fluid[0]].rho_ref();
    const double flows[] = {300, 500, 720, 900}, uas[] = {9e4, 1.25e5, 1.5e5, 1.65e5};
    for (int i = 0; i < 4; ++i)
      CHECK(hexUA(p, flows[i] * kLmin * rho, p.m_cold_nominal) == Approx(uas[i]).epsilon(1e-12));
    // monotone between the points; a lower primary flow lowers UA by the film law
    double prev = 0;
    for (double V = 300; V <= 900; V += 10) {
      const double UA = hexUA(p, V * kLmin * rho, p.m_cold_nominal);
      CHECK(UA >= prev);
      prev = UA;
    }
    CHECK(hexUA(p, p.m_hot_nominal, 0.5 * p.m_cold_nominal) <
          hexUA(p, p.m_hot_nominal, p.m_cold_nominal));
  }
}

TEST_CASE("heat exchanger and filter keys: bad input is a file:line error",
          "[loader][datasheet][hex]") {
  const int hx = lineOf(kFacility, "    heat_exchanger:");
  SECTION("sizing ua without ua") {
    expectOneError(patched(kFacility, kHexLast, kHexLast + "      sizing: ua\n"), hx + 10,
                   "needs heat_exchanger.ua");
  }
  SECTION("a table whose flows do not increase") {
    expectOneError(patched(kFacility, kHexLast,
                           kHexLast + "      sizing: table\n      table: {flow_L_min: [500, 300], "
                                      "ua_W_K: [90000, 125000]}\n"),
                   hx + 11, "strictly increasing");
  }
  SECTION("a table whose UA falls with flow") {
    expectOneError(patched(kFacility, kHexLast,
                           kHexLast + "      sizing: table\n      table: {flow_L_min: [300, 500], "
                                      "ua_W_K: [125000, 90000]}\n"),
                   hx + 11, "not falling");
  }
  SECTION("a table with one point") {
    expectOneError(
        patched(kFacility, kHexLast,
                kHexLast +
                    "      sizing: table\n      table: {flow_L_min: [300], ua_W_K: [9e4, 1e5]}\n"),
        hx + 11, "at least 2");
  }
  SECTION("a negative flow") {
    expectOneError(patched(kFacility, kHexLast,
                           kHexLast + "      sizing: table\n      table: {flow_L_min: [-3, 500], "
                                      "ua_W_K: [90000, 125000]}\n"),
                   hx + 11, "> 0");
  }
  SECTION("clogged below clean") {
    const std::string fl = "    filter: {dp_clean: 20 kPa, dp_clogged: 10 kPa}\n";
    const std::string text = patched(kFacility, kCduKeys, kCduKeys + fl);
    expectOneError(text, lineOf(text, fl), "above dp_clean");
  }
  SECTION("a clogging fraction outside 0 ... 1") {
    const std::string fl =
        "    filter: {dp_clean: 20 kPa, dp_clogged: 60 kPa, initial_clogging: 1.5}\n";
    const std::string text = patched(kFacility, kCduKeys, kCduKeys + fl);
    expectOneError(text, lineOf(text, fl), "between 0 and 1");
  }
  SECTION("an unknown pump position") {
    const std::string text = patched(kFacility, kPumpLast, kPumpLast + "      position: inside\n");
    expectOneError(text, lineOf(text, "position: inside"), "upstream");
  }
}

//---------------------------------------------------------------------------------------------
TEST_CASE("glycol mixtures: the catalog's pg25 and water from the same correlations",
          "[models][fluid]") {
  // propylene glycol 25 % by mass: the catalog table (its printed rounding) at every knot
  const Fluid pg(glycolMixture("pg25i", Glycol::Propylene, 0.25));
  const double T[] = {0, 20, 40, 60, 80};
  const double rho[] = {1025.81, 1019.28, 1009.91, 998.40, 985.43};
  const double cp[] = {3872.2, 3920.5, 3968.6, 4015.7, 4060.7};
  const double mu[] = {0.00551506, 0.00244523, 0.00135301, 0.00087804, 0.00062801};
  const double k[] = {0.4496, 0.4679, 0.4858, 0.5032, 0.5196};
  for (int i = 0; i < 5; ++i) {
    INFO("T = " << T[i] << " degC");
    CHECK(pg.rho(T[i] + kC) == Approx(rho[i]).margin(0.005));
    CHECK(pg.cp(T[i] + kC) == Approx(cp[i]).margin(0.05));
    CHECK(pg.mu(T[i] + kC) == Approx(mu[i]).margin(5e-9));
    CHECK(pg.k(T[i] + kC) == Approx(k[i]).margin(5e-5));
  }
  CHECK(pg.T_min() - kC == Approx(-9.8).margin(0.05));  // the catalog's freeze point
  // no glycol: both correlations give water (IAPWS values of the catalog's water table at
  // 20 and 40 degC) within the fits' accuracy
  for (Glycol g : {Glycol::Propylene, Glycol::Ethylene}) {
    const MixtureProps w20 = glycolProps(g, 0.0, 20 + kC), w40 = glycolProps(g, 0.0, 40 + kC);
    CHECK(w20.rho == Approx(998.21).epsilon(3e-3));
    CHECK(w40.rho == Approx(992.22).epsilon(3e-3));
    CHECK(w20.cp == Approx(4184.1).epsilon(1e-2));
    CHECK(w40.cp == Approx(4179.4).epsilon(1e-2));
    CHECK(w20.mu == Approx(1.0016e-3).epsilon(5e-2));
    CHECK(w40.k == Approx(0.6285).epsilon(3e-2));
    CHECK(glycolFreezePoint(g, 0.0) - kC == Approx(0).margin(0.5));
  }
  // DOWFROST LC 25 is 25 % by volume, about 26 % by mass (catalog pg25 note)
  const double x = glycolVolumeToMassFraction(Glycol::Propylene, 0.25, 20 + kC);
  CHECK(x > 0.25);
  CHECK(x < 0.27);
  // ethylene glycol depresses the freeze point more than propylene glycol at the same fraction
  CHECK(glycolFreezePoint(Glycol::Ethylene, 0.3) < glycolFreezePoint(Glycol::Propylene, 0.3));
  CHECK_THROWS(glycolMixture("bad", Glycol::Ethylene, 0.7));
}

TEST_CASE("fluids defined in the file: a mixture and a constant-property fluid run",
          "[system][datasheet][fluid]") {
  const std::string fluids = R"(fluids:
  - name: eg30v
    mixture: {glycol: ethylene_glycol, volume_fraction: 0.3}
  - name: const_water
    constant: {rho_kg_m3: 997, cp_J_kgK: 4180, mu_Pa_s: 0.00089, k_W_mK: 0.6}
)";
  for (const std::string fl : {"eg30v", "const_water"}) {
    INFO(fl);
    std::string text = patched(kFacility, "    fluid: pg25\n", "    fluid: " + fl + "\n");
    text = patched(text, "      pg25: {fit:", "      " + fl + ": {fit:");
    text = patched(text, "facility_water: {fluid: water", "facility_water: {fluid: const_water");
    text += fluids;
    FacilityModel m = compileFacility(loadFacilityFromString(text, "fl.yaml"));
    const Fluid& f = m.fluids[m.cdu_fluid[0]];
    CHECK(f.name() == fl);
    if (fl == "const_water") {
      CHECK(f.cp(10 + kC) == 4180);
      CHECK(f.h(50 + kC) - f.h(20 + kC) == Approx(4180 * 30).epsilon(1e-14));
    } else {
      // 30 % by volume is about 33 % by mass; ethylene glycol freezes near -17 degC there
      CHECK(f.T_min() - kC < -15);
      CHECK(f.T_min() - kC > -20);
      CHECK(f.cp(30 + kC) < 3800);
    }
    Last r = run(m, 1800);
    CHECK(r.y[m.stateAdr(0, kTHexSec)] == Approx(32 + kC).margin(0.01));
    CHECK(std::abs(r.e.balanceError()) < 1e-5 * r.e.heat_in);
  }
}

TEST_CASE("fluids defined in the file: bad input is a file:line error", "[loader][fluid]") {
  auto with = [](const std::string& entry) { return std::string(kFacility) + "fluids:\n" + entry; };
  SECTION("an unknown component") {
    const std::string t = with("  - {name: x, mixture: {glycol: glycerol, mass_fraction: 0.3}}\n");
    expectOneError(t, lineOf(t, "glycerol"), "propylene_glycol");
  }
  SECTION("a fraction outside 0 ... 1") {
    const std::string t =
        with("  - {name: x, mixture: {glycol: ethylene_glycol, mass_fraction: 1.3}}\n");
    expectOneError(t, lineOf(t, "mass_fraction: 1.3"), "between 0 and 1");
  }
  SECTION("a mass fraction beyond the correlations") {
    const std::string t =
        with("  - {name: x, mixture: {glycol: ethylene_glycol, mass_fraction: 0.7}}\n");
    expectOneError(t, lineOf(t, "mass_fraction: 0.7"), "at most 0.6");
  }
  SECTION("both fractions") {
    const std::string t = with(
        "  - {name: x, mixture: {glycol: ethylene_glycol, mass_fraction: 0.3, "
        "volume_fraction: 0.3}}\n");
    expectOneError(t, lineOf(t, "mass_fraction"), "not both");
  }
  SECTION("neither mixture nor constant") {
    const std::string t = with("  - {name: x}\n");
    expectOneError(t, lineOf(t, "{name: x}"), "mixture or constant");
  }
  SECTION("a constant fluid with T_max below T_min") {
    const std::string t = with(
        "  - {name: x, constant: {rho_kg_m3: 997, cp_J_kgK: 4180, mu_Pa_s: 0.00089, k_W_mK: 0.6, "
        "T_min: 50 degC, T_max: 20 degC}}\n");
    expectOneError(t, lineOf(t, "T_max"), "above T_min");
  }
}

//---------------------------------------------------------------------------------------------
TEST_CASE("prescribed boundaries: an ideal flow source and an ideal supply temperature",
          "[system][datasheet][prescribed]") {
  const std::string piping = "    piping:\n";
  SECTION("secondary flow") {
    FacilityModel m = compileFacility(loadFacilityFromString(
        patched(kFacility, piping, "    prescribed: {secondary_flow: 500 L/min}\n" + piping),
        "b.yaml"));
    const double rho = m.fluids[m.cdu_fluid[0]].rho_ref();
    Last r = run(m, 1800);
    // the flow set point (600 L/min) no longer acts: the loop carries the prescribed flow
    CHECK(r.sig.m_sec[0] == Approx(500 * kLmin * rho).epsilon(1e-14));
    CHECK(r.sig.m_rack[0] == Approx(r.sig.m_sec[0]).epsilon(1e-12));
    CHECK(r.sig.dp_pump[0] > r.sig.dp_bank[0]);
    CHECK(r.sig.P_pump[0] > 0);
    CHECK(r.y[m.stateAdr(0, kTHexSec)] == Approx(32 + kC).margin(0.01));
    CHECK(std::abs(r.e.balanceError()) < 1e-5 * r.e.heat_in);
  }
  SECTION("primary flow and supply temperature") {
    FacilityModel m = compileFacility(loadFacilityFromString(
        patched(
            kFacility, piping,
            "    prescribed: {primary_flow: 400 L/min, supply_temperature: 30 degC}\n" + piping),
        "b.yaml"));
    const Fluid& fp = m.fluids[m.fws_fluid];
    Last r = run(m, 1800);
    CHECK(r.sig.m_prim[0] == Approx(400 * kLmin * fp.rho_ref()).epsilon(1e-14));
    // the supply at the prescribed 30 degC (not the 32 degC set point), whatever the HX
    CHECK(r.y[m.stateAdr(0, kTHexSec)] == Approx(30 + kC).margin(1e-6));
    // steady state: the facility water carries the racks' and pumps' heat
    const double T_hp = r.y[m.stateAdr(0, kTHexPrim)];
    const double q_fws = r.sig.m_prim[0] * (fp.h(T_hp) - fp.h(26 + kC));
    CHECK(q_fws == Approx(r.sig.Q_hex[0]).epsilon(1e-6));
    CHECK(r.sig.Q_hex[0] == Approx(400e3 * 0.95 + r.sig.Q_pump_fluid[0]).epsilon(1e-4));
    CHECK(std::abs(r.e.balanceError()) < 1e-5 * r.e.heat_in);
  }
}
