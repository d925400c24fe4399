// leak_test.cpp: leak physics (orifice flow from the local pressure, expansion-tank cushion, air
// in the loop), sensors, rack isolation and the pump stop on low level (docs/models/leak.md)
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

// records the CDU's lost volume, its leak flow and the rack signals at every output
struct Rec : OutputSink {
  std::vector<double> t, lost, q, p_leak, p_tank, flow, head;
  std::vector<std::vector<double>> rack_flow;
  void sample(const FacilityModel& m, const State& st, const double* y, double tt,
              const EnergyTotals&) override {
    t.push_back(tt);
    lost.push_back(y[m.stateAdr(0, kVLost)]);
    q.push_back(st.sig.leak_flow.empty() ? 0.0 : st.sig.leak_flow[0]);
    p_leak.push_back(st.sig.leak_p.empty() ? 0.0 : st.sig.leak_p[0]);
    p_tank.push_back(st.sig.p_tank[0]);
    flow.push_back(st.sig.m_sec[0] / m.fluids[m.cdu_fluid[0]].rho_ref());
    head.push_back(st.sig.head_factor[0]);
    rack_flow.emplace_back(st.sig.m_rack.begin(), st.sig.m_rack.end());
  }
};

struct Out {
  FacilityModel m;
  State st;
  RunResult res;
  Rec rec;
};

void run(Out& o, const std::string& scenario, double duration, double dt_out,
         const std::string& facility_text = "") {
  FacilitySpec spec =
      facility_text.empty() ? loadFacility(kPod) : loadFacilityFromString(facility_text, "f.yaml");
  // the leak physics without the site's make-up from its fill tank (protection_test.cpp tests it)
  spec.detection.protection.fill_tank_volume = 0;
  Scenario sc = loadScenarioFromString(scenario, "s.yaml");
  applyScenario(sc, spec);
  o.m = compileFacility(spec);
  o.m.options.output_interval = dt_out;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, &o.rec);
  REQUIRE(o.res.ok);
}

const EventRecord* find(const RunResult& r, const std::string& kind) {
  for (const auto& e : r.events)
    if (e.kind == kind) return &e;
  return nullptr;
}

std::string podText() {
  std::ifstream in(kPod);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE(
    "leak: coolant lost is the integral of the orifice flow, the tank cushion sets the "
    "pressure",
    "[leak]") {
  // a 3 mm leak at the CDU (the tank pressure drives it), no policies
  Out o;
  run(o, R"(detection: {low_level_pump_stop: false, rack_liquid_isolation: false,
            rack_electrical_isolation: false}
events:
  - {time: 20 s, cdu: cdu1, leak: {diameter: 3 mm}}
)",
      50, 0.05);
  // trapezoid of the recorded flow against the integrated state
  double V = 0;
  for (std::size_t i = 1; i < o.rec.t.size(); ++i)
    V += 0.5 * (o.rec.q[i] + o.rec.q[i - 1]) * (o.rec.t[i] - o.rec.t[i - 1]);
  const double lost = o.rec.lost.back();
  CHECK(lost > 1e-3);  // more than a litre in 30 s
  CHECK(V == Approx(lost).epsilon(2e-3));
  // orifice law at the local (tank) pressure, and the isothermal gas cushion
  const std::size_t i = o.rec.t.size() - 1;
  const double A = M_PI * 0.003 * 0.003 / 4, rho = o.m.fluids[o.m.cdu_fluid[0]].rho_ref();
  CHECK(o.rec.p_leak[i] == Approx(o.rec.p_tank[i]));
  CHECK(o.rec.q[i] == Approx(0.62 * A * std::sqrt(2 * o.rec.p_leak[i] / rho)).epsilon(1e-4));
  const double pre = o.m.cdu_p_pre[0] + 101325, fill = o.m.cdu_p_fill[0] + 101325;
  const double V_tank = o.m.cdu_V_tank[0];
  CHECK(o.rec.p_tank[i] + 101325 ==
        Approx(pre * V_tank / (V_tank * pre / fill + o.rec.lost[i])).epsilon(1e-9));
  CHECK(o.rec.p_tank[i] < o.rec.p_tank[0]);  // pressure decays as the tank empties
  REQUIRE(find(o.res, "low_pressure"));
  CHECK(std::abs(o.res.energy.balanceError()) < 1e-4 * o.res.energy.heat_in);
}

TEST_CASE("leak: a drained tank lets air in, the pumps lose head, the level switch stops them",
          "[leak]") {
  Out free_run;  // no pump stop: air accumulates, head and flow fall
  // a leak on the pumps' discharge side keeps leaking after the tank is drained: the suction
  // collapses to the vapour pressure, the lost liquid leaves a void and the pumps lose head
  // (protection off: at the vapour pressure the racks' coolant would trip the boiling protection
  // and power them off, docs/models/protection.md; here the pumps' loss of head is measured)
  run(free_run, R"(detection: {low_level_pump_stop: false}
protection: {enabled: false}
events:
  - {time: 310 s, cdu: cdu1, leak: {location: supply_header, diameter: 8 mm}}
)",
      900, 5);
  const std::size_t n = free_run.rec.t.size() - 1;
  CHECK(free_run.rec.p_tank[n] < -90e3);  // drained: down to the vapour pressure
  CHECK(free_run.st.y[free_run.m.stateAdr(0, kVAir)] > 0.01);
  CHECK(free_run.rec.head[n] < 0.9);
  CHECK(free_run.rec.flow[n] < 0.5 * free_run.rec.flow[61]);  // 305 s: before the leak
  CHECK(free_run.st.y[free_run.m.stateAdr(0, kVAir)] <= free_run.m.cdu_V_loop[0] * (1 + 1e-6));
  REQUIRE(find(free_run.res, "low_level"));
  CHECK_FALSE(find(free_run.res, "cdu_failure"));
  Out stop;  // default policy: the level switch stops the pumps
  run(stop,
      "events:\n  - {time: 10 s, cdu: cdu1, leak: {location: supply_header, diameter: 8 mm}}\n",
      120, 5);
  const EventRecord* low = find(stop.res, "low_level");
  REQUIRE(low);
  // with the pumps stopped the loop pressure at the hole falls to atmospheric: the leak stops
  // after little more than the tank's liquid
  const double pre = stop.m.cdu_p_pre[0] + 101325, fill = stop.m.cdu_p_fill[0] + 101325;
  const double tank_liquid = stop.m.cdu_V_tank[0] * (1 - pre / fill);
  CHECK(stop.rec.lost.back() < 1.5 * tank_liquid);
  CHECK(stop.rec.q.back() < 1e-6);
  CHECK(stop.rec.flow.back() < 1e-3 * stop.rec.flow.front() + 1e-9);
}

TEST_CASE("rack leak on the pod: detected, isolated, and the other racks keep cooling",
          "[leak][pod]") {
  Out o;
  run(o, R"(detection: {leak_sensor_volume: 20 mL, isolation_valve_stroke: 30 s}
events:
  - {time: 310 s, rack: A03, leak: {diameter: 2 mm}}
)",
      420, 1);
  const EventRecord* start = find(o.res, "leak_start");
  const EventRecord* det = find(o.res, "leak_detected");
  const EventRecord* iso = find(o.res, "isolated");
  REQUIRE(start);
  REQUIRE(det);
  REQUIRE(iso);
  // 20 mL at ~40 mL/s: the first poll after the leak opens
  CHECK(det->time - start->time <= 2.0);
  CHECK(iso->time - det->time == Approx(30).margin(1.0));
  REQUIRE(find(o.res, "electrical_isolation"));
  REQUIRE(find(o.res, "job_stalled"));
  // once the valves shut the rack's flow and its leak stop
  const int a03 = 2;
  CHECK(o.rec.rack_flow.back()[a03] < 1e-3 * o.rec.rack_flow[300][a03]);
  CHECK(o.rec.q.back() < 1e-6);
  const double lost = o.rec.lost.back();
  CHECK(lost > 0.5e-3);  // ~0.8 L in the 31 s before the valves shut
  CHECK(lost < 3e-3);
  // the other racks: flow kept (the pumps' flow control takes up A03's share), no throttling
  for (int r = 0; r < 8; ++r)
    if (r != a03) CHECK(o.rec.rack_flow.back()[r] > 0.95 * o.rec.rack_flow[300][r]);
  for (int i = 0; i < o.m.ngpu; ++i) {
    CHECK_FALSE(o.st.gl.gpu[i].shut_down);
    CHECK(o.st.gl.gpu[i].T_j < o.m.gpu_types[0].T_maxop);
  }
}

TEST_CASE("negative-pressure loop: a leak draws air in instead of spilling coolant", "[leak]") {
  std::string text = podText();
  const std::string key = "    fluid: pg25\n";
  REQUIRE(text.find(key) != std::string::npos);
  text.replace(text.find(key), key.size(), key + "    vacuum_tank: {pressure: -40 kPa}\n");
  Out o;
  run(o, "events:\n  - {time: 10 s, cdu: cdu1, leak: {location: return_header, diameter: 2 mm}}\n",
      60, 1, text);
  CHECK(o.rec.p_leak.back() < 0);
  CHECK(o.rec.lost.back() == 0.0);
  CHECK(o.st.y[o.m.stateAdr(0, kVAir)] > 0);
  CHECK(o.rec.head.back() == 1.0);  // the vacuum pump removes the air
}

TEST_CASE("leak input errors", "[leak][scenario]") {
  auto err = [](const std::string& sc) {
    try {
      FacilitySpec spec = loadFacility(kPod);
      applyScenario(loadScenarioFromString(sc, "s.yaml"), spec);
    } catch (const LoadFailure& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(err("events:\n  - {time: 1 s, rack: A03, leak: {}}\n"),
             Catch::Contains("needs 'diameter' or 'area'"));
  CHECK_THAT(err("events:\n  - {time: 1 s, rack: A03, leak: {diameter: 2 L}}\n"),
             Catch::Contains("leak.diameter"));
  CHECK_THAT(
      err("events:\n  - {time: 1 s, cdu: cdu1, leak: {location: attic, area: 2 mm2}}\n"),
      Catch::Contains("expected rack (or manifold, tray), cdu, supply_header or return_header"));
  CHECK_THAT(err("events:\n  - {time: 1 s, rack: A33, leak: {area: 2 mm2}}\n"),
             Catch::Contains("unknown rack") && Catch::Contains("did you mean 'A03'"));
  CHECK_THAT(err("events:\n  - {time: 1 s, leak: {location: cdu, area: 2 mm2}}\n"),
             Catch::Contains("needs 'cdu'"));
}

TEST_CASE("leaks on two CDUs: each CDU keeps its own leak's signals", "[leak]") {
  // a leak on each loop of the two-CDU facility; the second CDU's evaluation must not clear the
  // first one's leak flow (it once did: only the last CDU's leaks showed in the signals)
  FacilitySpec spec =
      loadFacility(std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/two_cdu_mixed.yaml");
  applyScenario(loadScenarioFromString(R"(name: two_leaks
duration: 5 min
events:
  - {time: 1 min, rack: A02, leak: {diameter: 2 mm}}
  - {time: 1 min, rack: B03, leak: {diameter: 2 mm}}
)",
                                       "s.yaml"),
                spec);
  FacilityModel m = compileFacility(spec);
  REQUIRE(m.leaks.size() == 2);
  REQUIRE(m.leaks[0].cdu != m.leaks[1].cdu);
  State st = makeState(m, m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = 90;  // both leaks open, neither rack isolated yet (30 s valve stroke after 1 s)
  REQUIRE(simulate(m, st, ro, nullptr).ok);
  for (int k = 0; k < 2; ++k) {
    INFO("leak " << k);
    CHECK(st.sig.leak_flow[k] > 1e-6);  // m3/s, a 2 mm hole at ~1-3 bar
    CHECK(st.sig.leak_p[k] > 0);
  }
}
