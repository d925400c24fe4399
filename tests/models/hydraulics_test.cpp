#include <catch2/catch.hpp>

#include <cmath>

#include "models/hydraulics.h"

using namespace dctwin;

TEST_CASE("regularized power law: odd, monotone, and the power law away from zero",
          "[hydraulics]") {
  for (double n : {1.85, 1.89, 2.0}) {
    PowerLaw law = PowerLaw::fromNominal(50e3, 2.0, n);
    CHECK(law.dp(2.0) == Approx(50e3).epsilon(1e-4));
    CHECK(law.dp(-1.0) == Approx(-law.dp(1.0)));
    CHECK(law.dp(0.0) == 0.0);
    for (double m = 0.6; m < 3.0; m += 0.1)  // beyond 30 m_small: within 0.05 %
      CHECK(law.dp(m) == Approx(law.k * std::pow(m, n)).epsilon(1e-3));
    double prev = law.dp(-3.001);
    for (double m = -3.0; m <= 3.0; m += 1e-3) {
      REQUIRE(law.dp(m) > prev);
      prev = law.dp(m);
    }
    double m = 0.7, h = 1e-6;
    CHECK(law.ddp_dm(m) == Approx((law.dp(m + h) - law.dp(m - h)) / (2 * h)).epsilon(1e-6));
    CHECK(law.ddp_dm(0.0) > 0.0);  // linear, invertible at zero flow
  }
}

TEST_CASE("Darcy friction: laminar 64/Re, Swamee-Jain against Colebrook, smooth blend",
          "[hydraulics]") {
  CHECK(darcyFriction(1000.0, 1e-4) == Approx(0.064));
  // Colebrook by fixed-point iteration as the reference (Swamee-Jain is within ~1 %)
  for (double Re : {1e4, 1e5, 1e6}) {
    for (double rr : {1e-5, 3e-4, 1e-3}) {
      double f = 0.02;
      for (int i = 0; i < 100; ++i) {
        double r = -2.0 * std::log10(rr / 3.7 + 2.51 / (Re * std::sqrt(f)));
        f = 1.0 / (r * r);
      }
      CHECK(darcyFriction(Re, rr) == Approx(f).epsilon(0.02));
    }
  }
  double prev = darcyFriction(2300.0, 3e-4);
  for (double Re = 2300; Re <= 4000; Re += 10) {
    double f = darcyFriction(Re, 3e-4);
    REQUIRE(std::abs(f - prev) < 5e-4);  // continuous
    prev = f;
  }
}

TEST_CASE("pipe pressure drop: the worked DN150 number (Colebrook)", "[hydraulics]") {
  // PG25 at 35 degC: rho ~1012.5 kg/m3, mu ~1.55 mPa s; 31 L/s in ID 154 mm, eps 0.045 mm
  PipeFriction p{100.0, 0.154, 0.045e-3};
  double rho = 1012.5, mu = 1.55e-3, m = 0.031 * rho;
  double per_m = p.dp(m, rho, mu) / 100.0;
  CHECK(per_m == Approx(164.0).epsilon(0.05));  // 164 Pa/m [K64]
  // laminar limit: Hagen-Poiseuille dp = 128 mu L V / (pi D^4)
  double m_lam = 1e-3;
  double V = m_lam / rho;
  CHECK(p.dp(m_lam, rho, mu) ==
        Approx(128 * mu * 100.0 * V / (M_PI * std::pow(0.154, 4))).epsilon(1e-9));
  CHECK(p.dp(0.0, rho, mu) == 0.0);
  CHECK(p.dp(-m, rho, mu) == Approx(-p.dp(m, rho, mu)));
}

TEST_CASE("pipe pressure drop: the analytic slope against a central difference, every regime",
          "[hydraulics]") {
  const PipeFriction pipe{20.0, 0.05, 4.5e-5};
  const double rho = 1020, mu = 2.5e-3;
  // mass flows from laminar (Re ~ 100) through the blend (2300-4000) to turbulent (Re ~ 1e6),
  // both directions
  for (double m : {0.004, 0.1, 0.3, 0.45, 1.0, 10.0, 60.0, -0.3, -20.0}) {
    double ddp;
    const double dp = pipe.dpSlope(m, rho, mu, &ddp);
    INFO("m = " << m << " kg/s");
    CHECK(dp == pipe.dp(m, rho, mu));  // the same drop, bit for bit
    const double h = 1e-6 * std::abs(m);
    const double fd = (pipe.dp(m + h, rho, mu) - pipe.dp(m - h, rho, mu)) / (2 * h);
    CHECK(ddp == Approx(fd).epsilon(1e-6));
    CHECK(pipe.ddp_dm(m, rho, mu) == ddp);
  }
  // at zero flow the laminar limit: dp = 64 K m
  double d0;
  CHECK(pipe.dpSlope(0.0, rho, mu, &d0) == 0.0);
  CHECK(d0 == Approx(pipe.ddp_dm(1e-9, rho, mu)).epsilon(1e-6));
  // the friction factor's slope in ln Re on each branch
  for (double Re : {500.0, 2500.0, 3500.0, 5000.0, 1e5}) {
    double s;
    darcyFrictionSlope(Re, 1e-3, &s);
    const double e = 1e-6;
    const double fd =
        (darcyFriction(Re * std::exp(e), 1e-3) - darcyFriction(Re * std::exp(-e), 1e-3)) / (2 * e);
    CHECK(s == Approx(fd).epsilon(1e-5));
  }
}
