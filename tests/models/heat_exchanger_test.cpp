#include <catch2/catch.hpp>

#include <cmath>

#include "models/heat_exchanger.h"

using namespace dctwin;

TEST_CASE("counterflow effectiveness matches the closed forms", "[heat_exchanger]") {
  for (double NTU : {0.1, 1.0, 3.0, 8.0}) {
    // Z = 0 (one stream with infinite capacity): eps = 1 - exp(-NTU)
    CHECK(effectivenessCounterflow(NTU, 0.0) == Approx(1.0 - std::exp(-NTU)));
    // Z = 1: eps = NTU / (1 + NTU), and continuous as Z -> 1
    CHECK(effectivenessCounterflow(NTU, 1.0) == Approx(NTU / (1 + NTU)));
    CHECK(effectivenessCounterflow(NTU, 1.0 - 1e-5) == Approx(NTU / (1 + NTU)).epsilon(1e-4));
    for (double Z : {0.0, 0.3, 0.8, 1.0})
      CHECK(ntuCounterflow(effectivenessCounterflow(NTU, Z), Z) == Approx(NTU).epsilon(1e-9));
  }
}

TEST_CASE("heat flow: direct counterflow solution of the ODE agrees with eps-NTU",
          "[heat_exchanger]") {
  // integrate dT_h/dx = -UA/C_h (T_h - T_c), dT_c/dx = -UA/C_c (T_h - T_c) (counterflow: cold runs
  // from x = 1 to 0) by shooting on the unknown cold outlet
  const double UA = 3e5, C_h = 80e3, C_c = 60e3, Th_in = 320, Tc_in = 300;
  auto shoot = [&](double Tc_out) {  // march from x = 0 (hot inlet, cold outlet) to x = 1
    double Th = Th_in, Tc = Tc_out;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
      double d = (Th - Tc) * UA / n;
      Th -= d / C_h;
      Tc -= d / C_c;
    }
    return Tc - Tc_in;
  };
  double lo = Tc_in, hi = Th_in;
  for (int i = 0; i < 100; ++i) {
    double mid = 0.5 * (lo + hi);
    (shoot(mid) > 0 ? hi : lo) = mid;
  }
  double Q_ode = C_c * (0.5 * (lo + hi) - Tc_in);
  CHECK(hexHeatFlow(UA, C_h, C_c, Th_in, Tc_in) == Approx(Q_ode).epsilon(1e-3));
  CHECK(hexHeatFlow(UA, 0.0, C_c, Th_in, Tc_in) == 0.0);
}

TEST_CASE("sizing reproduces the XDU1350 rated point: 1368 kW at 4 K approach",
          "[heat_exchanger]") {
  HexRating r;
  r.Q = 1368e3;
  r.approach = 4.0;
  r.T_cold_in = 273.15 + 28;
  r.m_hot = 20.6;
  r.m_cold = 20.6;
  r.cp_hot = 3950;   // PG25 near 40 degC
  r.cp_cold = 4180;  // water near 35 degC
  r.r_nominal = 1.3;
  HexParams p = sizeCounterflow(r);
  double UA = hexUA(p, 20.6, 20.6);
  double T_hot_in = r.T_cold_in + r.approach + r.Q / (r.m_hot * r.cp_hot);
  double Q = hexHeatFlow(UA, r.m_hot * r.cp_hot, r.m_cold * r.cp_cold, T_hot_in, r.T_cold_in);
  CHECK(Q == Approx(1368e3).epsilon(1e-9));
  double T_hot_out = T_hot_in - Q / (r.m_hot * r.cp_hot);
  CHECK(T_hot_out - r.T_cold_in == Approx(4.0).epsilon(1e-9));
  // the film split honours r, and UA falls with flow as m^0.8 on each side
  CHECK(p.hA_cold_nominal / p.hA_hot_nominal == Approx(1.3));
  CHECK(hexUA(p, 10.3, 10.3) == Approx(UA * std::pow(0.5, 0.8)).epsilon(1e-3));
  // infeasible rating: more heat than the flows can carry at that approach
  // (cold stream with half the capacity would have to warm by more than the hot inlet allows)
  r.m_cold = 10.0;
  CHECK_THROWS_AS(sizeCounterflow(r), std::invalid_argument);
}
