// flow_distribution_test.cpp: the coolant's way to every plate (docs/models/flow_distribution.md):
// racks along the row headers, trays along the rack manifolds, plates in a tray, and the
// geometries that cannot carry the flow
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "solver/compile/compile.h"
#include "solver/engine/engine.h"
#include "solver/input/loader.h"

using namespace dctwin;

namespace {

// one XDU1350-class CDU and eight GB200 NVL72 racks; `piping` extra keys, `types` rack types
std::string podText(const std::string& piping = "", const std::string& types = "",
                    const std::string& type = "gb200_nvl72") {
  std::string s =
      "dctwin: 1\nname: flows\nsite: {ambient_temperature: 25 degC}\n"
      "facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}\n" +
      types +
      "cdus:\n"
      "  - name: cdu1\n"
      "    model: vertiv_xdu1350\n"
      "    control: {supply_temperature: 36 degC, flow_setpoint: 1100 L/min}\n"
      "    piping:\n"
      "      supply: {length: 30 m, diameter: 154 mm}\n"
      "      return: {length: 30 m, diameter: 154 mm}\n" +
      piping + "racks:\n";
  for (int k = 0; k < 8; ++k)
    s += "  - {name: A0" + std::to_string(k + 1) + ", cdu: cdu1, type: " + type +
         ", row: A, index: " + std::to_string(k + 1) + "}\n";
  return s;
}

FacilityModel compileText(const std::string& text) {
  return compileFacility(loadFacilityFromString(text, "flows.yaml"));
}

// the errors of compiling `text`; empty when it compiles
std::vector<LoadError> errorsOf(const std::string& text) {
  try {
    compileText(text);
  } catch (const LoadFailure& e) {
    return e.errors();
  }
  return {};
}

}  // namespace

TEST_CASE("row headers: racks differ by their tap, mass kept at every tap", "[flow_distribution]") {
  for (const char* arr : {"direct", "reverse"}) {
    INFO(arr);
    // a narrow header (DN80) makes the drops between taps visible
    std::string text =
        podText(std::string("      rack_spacing: 1.2 m\n      return_arrangement: ") + arr + "\n");
    for (const char* from :
         {"supply: {length: 30 m, diameter: 154 mm}", "return: {length: 30 m, diameter: 154 mm}"}) {
      std::string to = from;
      to.replace(to.find("154"), 3, "80");
      text.replace(text.find(from), std::string(from).size(), to);
    }
    FacilityModel m = compileText(text);
    State st = makeState(m, 309.15);
    std::vector<double> ydot(m.nstate);
    REQUIRE(evalRhs(m, st, 0.0, st.y.data(), ydot.data()) == 0);
    const Signals& s = st.sig;
    const int n = m.nrack;
    // mass: the taps lose nothing, the CDU's flow is the racks'
    double Q = 0;
    for (int r = 0; r < n; ++r) Q += s.m_rack[r];
    CHECK(Q == Approx(s.m_sec[0]).epsilon(1e-12));
    // each header segment carries what the taps beyond it take, with its friction drop
    const Fluid& f = m.fluids[m.cdu_fluid[0]];
    const double rho = f.rho_ref(), mu = f.mu(st.y[m.stateAdr(0, kTRes)]);
    double S = 0;
    for (int k = 0; k + 1 < n; ++k) {
      S += s.m_rack[k];
      double lhs, rhs;
      if (std::string(arr) == "direct") {  // both headers carry Q - S_k toward/from tap 0
        lhs = s.dp_rack[k] - s.dp_rack[k + 1];
        rhs = m.cdu_tap_sup[0].dp(Q - S, rho, mu) + m.cdu_tap_ret[0].dp(Q - S, rho, mu);
      } else {  // supply Q - S_k onward, return S_k toward the far end
        lhs = s.dp_rack[k + 1] - s.dp_rack[k];
        rhs = -m.cdu_tap_sup[0].dp(Q - S, rho, mu) + m.cdu_tap_ret[0].dp(S, rho, mu);
      }
      CHECK(lhs == Approx(rhs).margin(1e-6 * s.dp_rack[0]));
    }
    const double spread = (*std::max_element(s.m_rack.begin(), s.m_rack.end()) -
                           *std::min_element(s.m_rack.begin(), s.m_rack.end())) /
                          (Q / n);
    if (std::string(arr) == "direct") {
      for (int k = 1; k < n; ++k) CHECK(s.m_rack[k] < s.m_rack[k - 1]);  // farther, less
      CHECK(spread > 1e-3);
    } else {
      CHECK(spread > 1e-5);
      // the ends (one short leg each) get more than the middle
      CHECK(s.m_rack[0] > s.m_rack[n / 2]);
      CHECK(s.m_rack[n - 1] > s.m_rack[n / 2]);
    }
  }
}

TEST_CASE("rack manifold and tray plates: shares sum to one, far trays get less",
          "[flow_distribution]") {
  const std::string types =
      "rack_types:\n"
      "  - {name: pairs, base: gb200_nvl72, coldplate_series: 2}\n"
      "  - {name: zee, base: gb200_nvl72, manifold: {dp_nominal: 68.9 kPa, flow_nominal: 130 "
      "L/min, exponent: 1.89, arrangement: Z, header_length: 1.16 m, header_diameter: 40 mm}}\n";
  for (const char* type : {"gb200_nvl72", "pairs", "zee"}) {
    INFO(type);
    FacilityModel m = compileText(podText("", types, type));
    const int r = 0, G = m.rack_tray_gpus[r], n = m.rack_gpunum[r];
    const int S = std::string(type) == "pairs" ? 2 : 1;
    double sum = 0;
    std::vector<double> tray(n / G, 0.0);
    for (int k = 0; k < n; ++k) {
      const int i = m.rack_gpuadr[r] + k;
      // a path's plates in series carry the same flow: count each path once
      if (m.gpu_upstream[i] < 0) sum += m.gpu_flow_share[i];
      tray[k / G] += m.gpu_flow_share[i] / S;
      if (S == 2) CHECK(m.gpu_upstream[i] == (k % 2 ? i - 1 : -1));
      if (S == 1) CHECK(m.gpu_upstream[i] == -1);
    }
    CHECK(sum == Approx(1.0).epsilon(1e-12));
    if (std::string(type) != "zee")
      for (std::size_t t = 1; t < tray.size(); ++t) CHECK(tray[t] < tray[t - 1]);
    const auto [lo, hi] = std::minmax_element(tray.begin(), tray.end());
    CHECK((*hi - *lo) * tray.size() > 1e-4);  // trays differ
    CHECK((*hi - *lo) * tray.size() < 0.02);  // a DN40 manifold: within 2 %
  }
}

TEST_CASE("plates in series: the downstream plate sees the upstream plate's heat",
          "[flow_distribution]") {
  const std::string types =
      "rack_types:\n  - {name: pairs, base: gb200_nvl72, coldplate_series: 2}\n";
  std::string text = podText("", types, "pairs") +
                     "jobs:\n  - {name: train, racks: all, start: 0 s, phases: default}\n";
  FacilityModel m = compileText(text);
  State st = makeState(m, 309.15);
  std::vector<double> ydot(m.nstate);
  REQUIRE(evalRhs(m, st, 0.0, st.y.data(), ydot.data()) == 0);
  advanceGpuLayer(m, st, st.y.data(), 0.0, 5.0);
  // the second window's inlets carry the heat of the first window's last step
  const std::vector<double> Q_last = st.gl.grp.Q_coolant;
  advanceGpuLayer(m, st, st.y.data(), 5.0, 10.0);
  const GpuLayerState& g = st.gl;
  const Fluid& f = m.fluids[m.cdu_fluid[0]];
  for (int r = 0; r < m.nrack; ++r)
    for (int k = 0; k < m.rack_gpunum[r]; ++k) {
      const int i = m.rack_gpuadr[r] + k, u = m.gpu_upstream[i];
      if (u < 0) {
        CHECK(g.gpu_T_in[i] == g.rack_T_in[r]);
        continue;
      }
      const double m_i = st.sig.m_rack[r] * m.gpu_flow_share[i];
      const double Q_up = Q_last[m.gpu_group[u]];
      CHECK(Q_up > 100.0);
      CHECK(g.gpu_T_in[i] ==
            Approx(g.gpu_T_in[u] + Q_up / (m_i * f.cp(g.rack_T_in[r]))).epsilon(1e-12));
    }
}

TEST_CASE("a manifold or header that cannot carry the flow: file:line errors",
          "[flow_distribution]") {
  {
    const std::string types =
        "rack_types:\n"
        "  - name: thin\n"
        "    base: gb200_nvl72\n"
        "    manifold: {dp_nominal: 68.9 kPa, flow_nominal: 130 L/min, header_length: 1.16 m,\n"
        "               header_diameter: 4 mm}\n";
    const auto errors = errorsOf(podText("", types, "thin"));
    REQUIRE_FALSE(errors.empty());
    const std::string msg = errors.front().format();
    INFO(msg);
    CHECK(msg.find("flows.yaml:") != std::string::npos);
    CHECK(errors.front().loc.line == 8);  // the manifold map
    CHECK(msg.find("cannot carry") != std::string::npos);
    CHECK(msg.find("0.004") != std::string::npos);  // the bad value
  }
  {
    std::string text = podText("      rack_spacing: 50 m\n");
    for (const char* from :
         {"supply: {length: 30 m, diameter: 154 mm}", "return: {length: 30 m, diameter: 154 mm}"}) {
      std::string to = from;
      to.replace(to.find("154"), 3, "25");
      text.replace(text.find(from), std::string(from).size(), to);
    }
    const auto errors = errorsOf(text);
    REQUIRE_FALSE(errors.empty());
    const std::string msg = errors.front().format();
    INFO(msg);
    CHECK(errors.front().loc.line > 0);
    CHECK(msg.find("row headers cannot carry") != std::string::npos);
  }
  // the keys' own ranges and values
  CHECK_FALSE(errorsOf(podText("      return_arrangement: sideways\n")).empty());
  CHECK_FALSE(errorsOf(podText("      rack_spacing: -1 m\n")).empty());
  CHECK_FALSE(
      errorsOf(podText("", "rack_types:\n  - {name: odd, base: gb200_nvl72, coldplate_series: 3}\n",
                       "odd"))
          .empty());
}
