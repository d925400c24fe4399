// switch_rack_run_test.cpp: scale-out switch racks on the default pod (
// docs/models/switch_rack.md): their power in P_IT, P_IT_in and the energies, their heat in the
// balances; CPO vs pluggable; a failed spine slows the collectives by the alpha-beta amount, a
// failed leaf stops the job; a flapping link; bad input is a file:line error
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kPod = std::string(DCTWIN_SOURCE_DIR) + "/data/facilities/pod_gb200.yaml";

std::string podText() {
  std::ifstream f(kPod);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const char* kRacks = "[A01, A02, A03, A04, A05, A06, A07, A08]";

// the pod with a leaf rack (liquid on cdu1) and a spine rack (air); 4 leaves and 2 spines from
// the fabric: 576 GPUs x 400G, non-blocking, 72 x 1.6T cages per switch
std::string podWithSwitches(const std::string& optics = "pluggable") {
  return podText() + "\nswitch_racks:\n  - {name: L1, role: leaf, optics: " + optics +
         ", cooling: liquid, cdu: cdu1, busway: BW-A1, racks: " + kRacks +
         "}\n  - {name: S1, role: spine, optics: " + optics + ", busway: BW-A2, racks: " + kRacks +
         "}\n";
}

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

RunReport runFrames(const std::string& text, Frames& frames, double duration = 1800) {
  Scenario sc;
  sc.duration = duration;
  sc.output_interval = 60;
  std::vector<RunSink*> sinks{&frames};
  return runFacility(loadFacilityFromString(text, "pod.yaml"), sc, RunSettings{}, sinks);
}

struct Out {
  FacilityModel m;
  State st;
  RunResult res;
};

void run(Out& o, const std::string& events, double duration, const std::string& text) {
  FacilitySpec spec = loadFacilityFromString(text, "pod.yaml");
  Scenario sc = loadScenarioFromString("dctwin_scenario: 1\nevents:\n" + events, "s.yaml");
  applyScenario(sc, spec);
  o.m = compileFacility(spec);
  o.m.options.output_interval = 60;
  o.st = makeState(o.m, o.m.fws_T.eval(0.0));
  RunOptions ro;
  ro.duration = duration;
  o.res = simulate(o.m, o.st, ro, nullptr);
  REQUIRE(o.res.ok);
}

const PhaseSpec& phase(const FacilityModel& m, const std::string& name) {
  for (const PhaseSpec& p : m.job_spec[0].phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return m.job_spec[0].phases[0];
}

std::string errors(const std::string& text, const std::string& scenario = "") {
  try {
    FacilitySpec spec = loadFacilityFromString(text, "pod.yaml");
    if (!scenario.empty()) applyScenario(loadScenarioFromString(scenario, "s.yaml"), spec);
    compileFacility(spec);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE(
    "switch racks: their power in P_IT, P_IT_in, PUE and the energies, and the balances close",
    "[switch_rack][solver]") {
  Frames with, without;
  const RunReport rw = runFrames(podWithSwitches(), with), r0 = runFrames(podText(), without);
  REQUIRE(rw.result.ok);
  REQUIRE(r0.result.ok);
  REQUIRE(with.L.nsw == 2);
  // 4 leaves x (900 + 250 + 72 x 30) W, 2 spines alike
  const double P_leaf = 4 * (900 + 250 + 72 * 30.0), P_spine = 2 * (900 + 250 + 72 * 30.0);
  const double Q_leaf_liq = 0.9 * 4 * 900;
  for (std::size_t k = 1; k < with.rows.size(); ++k) {
    const OutputFrame& f = with.rows[k];
    CHECK(f.get(Obs::SwitchRackP)[0] == Approx(P_leaf).epsilon(1e-12));
    CHECK(f.get(Obs::SwitchRackP)[1] == Approx(P_spine).epsilon(1e-12));
    CHECK(f.get(Obs::SwitchRackQLiquid)[0] == Approx(Q_leaf_liq).epsilon(1e-12));
    CHECK(f.get(Obs::SwitchRackQLiquid)[1] == 0);
    CHECK(f.get(Obs::SwitchRackQAir)[1] == Approx(P_spine).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPFabric) == Approx(P_leaf + P_spine).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPFabricOptics) == Approx(6 * 72 * 30.0).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPIT) ==
          Approx(sumOf(f, Obs::RackP) + P_leaf + P_spine).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPITIn) ==
          Approx(sumOf(f, Obs::RackPIn) + P_leaf + P_spine).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPUE) ==
          Approx(f.scalar(Obs::FacilityPTotal) / f.scalar(Obs::FacilityPITIn)).epsilon(1e-12));
  }
  // the coolant's balance closes with the leaf's cold-plate heat in it; the room air's with the
  // switches' air-side heat
  const EnergyTotals& e = rw.result.energy;
  INFO("residual " << e.balanceError() << " J, without switches " << r0.result.energy.balanceError()
                   << " J");
  CHECK(std::abs(e.balanceError()) < 1e-5 * e.heat_in);  // the solver's tolerance level
  // (the pod's air handlers' fans are heat in the room air too: docs/models/air_handler.md)
  CHECK(std::abs(e.air_in + e.ah_fans - e.air_removed - e.air_stored) < 1e-4 * e.air_in);
  // the switches' energy is in the IT energy (the pod's own draw moves a little with the warmer
  // loop and room: 1e-3 of the switches' energy), their heat in the coolant's and the air's
  const double t = 1800;
  const EnergyTotals& e0 = r0.result.energy;
  const OutputFrame& a = with.rows.back();
  const OutputFrame& b = without.rows.back();
  CHECK(a.scalar(Obs::EnergyIt) - b.scalar(Obs::EnergyIt) ==
        Approx((P_leaf + P_spine) * t).epsilon(2e-2));
  CHECK(e.heat_in - e0.heat_in == Approx(Q_leaf_liq * t).epsilon(0.1));
  CHECK(e.air_in - e0.air_in == Approx((P_leaf + P_spine - Q_leaf_liq) * t).epsilon(0.1));
}

TEST_CASE("switch racks: co-packaged vs pluggable optics differ by cages x (P_plug - P_cpo)",
          "[switch_rack][solver]") {
  Frames plug, cpo;
  REQUIRE(runFrames(podWithSwitches("pluggable"), plug, 600).result.ok);
  REQUIRE(runFrames(podWithSwitches("cpo"), cpo, 600).result.ok);
  const double cages = 6 * 72;  // 4 leaves + 2 spines, every cage in use
  const OutputFrame& p = plug.rows.back();
  const OutputFrame& c = cpo.rows.back();
  CHECK(p.scalar(Obs::FacilityPFabric) - c.scalar(Obs::FacilityPFabric) ==
        Approx(cages * (30.0 - 9.0)).epsilon(1e-12));
  CHECK(p.scalar(Obs::FacilityPFabricOptics) == Approx(cages * 30.0).epsilon(1e-12));
  CHECK(c.scalar(Obs::FacilityPFabricOptics) == Approx(cages * 9.0).epsilon(1e-12));
  // CPO on the leaf's cold plate: its liquid heat takes the optics too
  CHECK(c.get(Obs::SwitchRackQLiquid)[0] == Approx(0.9 * 4 * (900 + 72 * 9.0)).epsilon(1e-12));
}

TEST_CASE(
    "switch faults: a failed spine slows every collective by the alpha-beta amount, a failed "
    "leaf stops the job until it is back, a flapping link by its mean fraction",
    "[switch_rack][fabric][solver]") {
  const std::string text = podWithSwitches();
  Out h, s, l, fl;
  run(h, "  []\n", 600, text);
  run(s, "  - {time: 0 s, fabric: {fault: switch_failed, switch_rack: S1, switch: 1}}\n", 600,
      text);
  // a spine of 2 lost: the leaves' uplinks at 1/2; every GPU's network collectives (DP
  // all-reduce, PP send/recv) take beta_net (1/0.5 - 1) longer in every iteration, exactly
  const FacilityModel& m = h.m;
  const double beta_net = phase(m, "dp_allreduce").comm_beta + phase(m, "pp_p2p").comm_beta;
  const double x = beta_net * (1 / 0.5 - 1);
  const JobState& js = s.st.gl.job[0];
  for (std::size_t k = 0; k < s.m.job_groups[0].size(); ++k) {
    CHECK(js.time(k)[kTimeFabricDegraded] >= js.iterations * x * (1 - 1e-9));
    CHECK(js.time(k)[kTimeFabricDegraded] <= (js.iterations + 1) * x);
  }
  // every GPU slows alike: the iteration by x (the GPUs run a little cooler; one iteration's
  // straggler under the power cap differs between the runs since the pipeline's stages idle at
  // different moments: 15 %, measured 11 %; each GPU's own stretch is checked exactly above)
  const double Th = h.st.gl.job[0].last_iteration_time;
  CHECK(js.last_iteration_time - Th == Approx(x).epsilon(0.15));
  CHECK(s.st.sig.sw_P[1] == Approx(900 + 250 + 72 * 30.0).epsilon(1e-12));  // one spine left
  // a leaf lost (rail-optimized: slots 0 ... 17 of every rack, one NIC each): no path left for
  // 144 GPUs, the job fails; it restarts once the leaf is back (restart 10 min)
  run(l,
      "  - {time: 360 s, fabric: {fault: switch_failed, switch_rack: L1, switch: 0}}\n"
      "  - {time: 420 s, fabric: {fault: switch_restored, switch_rack: L1, switch: 0}}\n",
      1200, text);
  const JobState& jl = l.st.gl.job[0];
  CHECK(jl.failures == 1);
  double map[kTimeCats];
  jobTimeMap(jl, l.st.gl.job_weight[0], map);
  CHECK(map[kTimeStalled] == Approx(60).margin(1.5));
  CHECK(map[kTimeRestart] == Approx(600).margin(1.5));
  int cut = 0;
  for (char c : l.st.faults.link_cut) cut += c;
  CHECK(cut == 0);  // restored
  bool failed_logged = false;
  for (const auto& ev : l.st.events) failed_logged |= ev.kind == "job_failed";
  CHECK(failed_logged);
  // a flapping link: down 5 s every 60 s plus a 1 s stall: the mean fraction 1 - 6/60 = 0.9
  run(fl,
      "  - {time: 0 s, rack: A01, fabric: {fault: link_flapping, gpu: 0, period: 60 s, "
      "down_time: 5 s, stall: 1 s}}\n",
      600, text);
  const double xf = beta_net * (1 / 0.9 - 1);
  const JobState& jf = fl.st.gl.job[0];
  int k0 = 0;
  while (fl.m.job_groups[0][k0] != fl.m.gpu_group[fl.m.rack_gpuadr[0]]) ++k0;
  CHECK(fl.st.faults.gpu_bw_net[fl.m.rack_gpuadr[0]] == Approx(0.9).epsilon(1e-12));
  CHECK(jf.time(std::size_t(k0))[kTimeFabricDegraded] >= jf.iterations * xf * (1 - 1e-9));
  CHECK(jf.time(std::size_t(k0))[kTimeFabricDegraded] <= (jf.iterations + 1) * xf);
}

TEST_CASE("switch racks and switch faults: bad input is a file:line error", "[switch_rack]") {
  const std::string pod = podWithSwitches();
  std::string e = errors(pod,
                         "dctwin_scenario: 1\nevents:\n  - {time: 1 s, fabric: {fault: "
                         "switch_failed, switch_rack: L1, switch: 4}}\n");
  CHECK(e.find("s.yaml:3:") == 0);
  CHECK(e.find("a switch that does not exist: switch rack L1 has 4 switch(es) (0 ... 3)") !=
        std::string::npos);
  e = errors(pod,
             "dctwin_scenario: 1\nevents:\n  - {time: 1 s, fabric: {fault: switch_failed, "
             "switch_rack: L2}}\n");
  CHECK(e.find("s.yaml:3:") == 0);
  CHECK(e.find("unknown switch rack; did you mean 'L1'?") != std::string::npos);
  e = errors(podText(),
             "dctwin_scenario: 1\nevents:\n  - {time: 1 s, fabric: {fault: switch_failed, "
             "switch_rack: L1}}\n");
  CHECK(e.find("needs the facility's switch_racks") != std::string::npos);
  e = errors(pod, "dctwin_scenario: 1\nevents:\n  - {time: 1 s, fabric: {fault: switch_failed}}\n");
  CHECK(e.find("switch_rack") != std::string::npos);
  e = errors(pod,
             "dctwin_scenario: 1\nevents:\n  - {time: 1 s, rack: A01, fabric: {fault: "
             "link_flapping, gpu: 0, period: 10 s, down_time: 9 s, stall: 1 s}}\n");
  CHECK(e.find("s.yaml:3:") == 0);
  CHECK(e.find("down_time + stall must be shorter than the period") != std::string::npos);
  // nic_down / nic_restored are link_down / link_restored of that NIC
  const Scenario nic = loadScenarioFromString(
      "dctwin_scenario: 1\nevents:\n  - {time: 1 s, rack: A01, fabric: {fault: nic_down, gpu: 3}}\n"
      "  - {time: 2 s, rack: A01, fabric: {fault: nic_restored, gpu: 3}}\n",
      "s.yaml");
  REQUIRE(nic.events.size() == 2);
  CHECK(nic.events[0].fabric == FabricFault::LinkDown);
  CHECK(nic.events[0].value == 0);
  CHECK(nic.events[1].fabric == FabricFault::LinkRestored);
  CHECK(nic.events[1].gpu == 3);
  // the facility: an unknown served rack, liquid without a CDU, an unknown busway
  e = errors(podText() + "\nswitch_racks:\n  - {name: L1, role: leaf, racks: [A01, A99]}\n");
  CHECK(e.find("pod.yaml:") == 0);
  CHECK(e.find("unknown rack") != std::string::npos);
  e = errors(podText() +
             "\nswitch_racks:\n  - {name: L1, role: leaf, switches: 2, cooling: "
             "liquid}\n");
  CHECK(e.find("missing required key 'cdu'") != std::string::npos);
  e = errors(podText() +
             "\nswitch_racks:\n  - {name: L1, role: leaf, switches: 2, busway: BW-X}\n");
  CHECK(e.find("unknown busway") != std::string::npos);
  e = errors(podText() + "\nswitch_racks:\n  - {name: L1, role: leaf}\n");
  CHECK(e.find("switches") != std::string::npos);
  e = errors(podText() + "\nswitch_racks:\n  - {name: A01, role: spine, switches: 2}\n");
  CHECK(e.find("duplicate name") != std::string::npos);
}
