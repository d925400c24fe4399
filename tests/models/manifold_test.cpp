// the ladder of parallel branches (models/manifold.h) against the closed form for linear laws
// and a direct Newton solve of the whole branch network written here
// (docs/models/flow_distribution.md)
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "models/manifold.h"

using namespace dctwin;

namespace {

using Vec = std::vector<double>;

// dense Gaussian elimination with partial pivoting: A x = b (A row-major, n x n)
Vec gaussSolve(std::vector<Vec> A, Vec b) {
  const int n = int(b.size());
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::abs(A[r][c]) > std::abs(A[p][c])) p = r;
    std::swap(A[c], A[p]);
    std::swap(b[c], b[p]);
    for (int r = c + 1; r < n; ++r) {
      const double f = A[r][c] / A[c][c];
      for (int k = c; k < n; ++k) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  Vec x(n);
  for (int r = n - 1; r >= 0; --r) {
    double s = b[r];
    for (int k = r + 1; k < n; ++k) s -= A[r][k] * x[k];
    x[r] = s / A[r][r];
  }
  return x;
}

// linear laws: branch dp = Rb q, each header segment dp = r m
struct Linear {
  double Rb, r;
  double branch(int, double dp, double* dq) const {
    *dq = 1.0 / Rb;
    return std::max(dp, 0.0) / Rb;
  }
  double seg(int, double m, double* d) const {
    *d = r;
    return r * m;
  }
};

// quadratic laws with a different coefficient per branch and per segment (not uniform)
struct Quadratic {
  std::vector<double> kb, ks, kr;  // dp = k m|m|
  double branch(int k, double dp, double* dq) const {
    if (dp <= 0) {
      *dq = 1e12;
      return 0.0;
    }
    const double q = std::sqrt(dp / kb[k]);
    *dq = 1.0 / (2.0 * kb[k] * q);
    return q;
  }
  double sup(int k, double m, double* d) const {
    *d = 2.0 * ks[k] * std::abs(m);
    return ks[k] * m * std::abs(m);
  }
  double ret(int k, double m, double* d) const {
    *d = 2.0 * kr[k] * std::abs(m);
    return kr[k] * m * std::abs(m);
  }
};

// the same network solved directly: unknowns the 2n tap pressures (supply p_s, return p_r) with
// p_r at the return outlet = 0 and the inflow Q given; mass balance at every tap, Newton on the
// full system with a finite-difference Jacobian
std::vector<double> directSolve(const Quadratic& L, Arrangement arr, int n, double Q) {
  auto mflow = [](double dp, double k) { return std::copysign(std::sqrt(std::abs(dp) / k), dp); };
  // x = [p_s0..p_s(n-1), p_r0..p_r(n-1)]; the return outlet's tap is pinned to 0
  const int out = arr == Arrangement::U ? 0 : n - 1;
  auto residual = [&](const Vec& x) {
    Vec F(2 * n);
    for (int k = 0; k < n; ++k) {
      const double qb = mflow(x[k] - x[n + k], L.kb[k]);
      // supply tap k: in from k-1 (or Q at k = 0), out to k+1 and the branch
      double in = k == 0 ? Q : mflow(x[k - 1] - x[k], L.ks[k - 1]);
      double onward = k + 1 < n ? mflow(x[k] - x[k + 1], L.ks[k]) : 0.0;
      F[k] = in - onward - qb;
      // return tap k: the branch in; U flows toward tap 0, Z toward tap n-1
      if (k == out) {
        F[n + k] = x[n + k];  // pinned
        continue;
      }
      double ret_in = 0, ret_out = 0;
      if (arr == Arrangement::U) {
        ret_in = k + 1 < n ? mflow(x[n + k + 1] - x[n + k], L.kr[k]) : 0.0;
        ret_out = mflow(x[n + k] - x[n + k - 1], L.kr[k - 1]);
      } else {
        ret_in = k > 0 ? mflow(x[n + k - 1] - x[n + k], L.kr[k - 1]) : 0.0;
        ret_out = mflow(x[n + k] - x[n + k + 1], L.kr[k]);
      }
      F[n + k] = qb + ret_in - ret_out;
    }
    return F;
  };
  // start: every tap at the drop of an even split, the headers' drops added along the way
  Vec x(2 * n, 0.0);
  for (int k = 0; k < n; ++k) x[k] = L.kb[k] * (Q / n) * (Q / n) + 10.0 * (n - k);
  for (int it = 0; it < 200; ++it) {
    const Vec F = residual(x);
    double norm = 0;
    for (double v : F) norm = std::max(norm, std::abs(v));
    if (norm < 1e-14 * Q) break;
    std::vector<Vec> J(2 * n, Vec(2 * n));
    for (int j = 0; j < 2 * n; ++j) {
      Vec xp = x;
      const double h = 1e-7 * (std::abs(x[j]) + 1.0);
      xp[j] += h;
      const Vec Fp = residual(xp);
      for (int i = 0; i < 2 * n; ++i) J[i][j] = (Fp[i] - F[i]) / h;
    }
    Vec minusF(F);
    for (double& v : minusF) v = -v;
    const Vec dx = gaussSolve(J, minusF);
    for (int i = 0; i < 2 * n; ++i) x[i] += dx[i];
  }
  std::vector<double> q(n);
  for (int k = 0; k < n; ++k) q[k] = mflow(x[k] - x[n + k], L.kb[k]);
  return q;
}

}  // namespace

TEST_CASE("ladder, linear laws: the closed form q_k ~ cosh(theta (c - k)), cosh theta = 1 + r/Rb",
          "[manifold]") {
  // second difference of the branch drops: dp_{k-1} - 2 dp_k + dp_{k+1} = (2 r / Rb) dp_k; U:
  // mirror at the far end (c = n - 1/2), Z: symmetric about the middle (c = (n - 1)/2)
  const int n = 18;
  const double Q = 2.0;
  for (double ratio : {1e-3, 1e-2, 0.1}) {
    Linear L{1e5, ratio * 1e5};
    auto br = [&](int k, double dp, double* d) { return L.branch(k, dp, d); };
    auto sg = [&](int k, double m, double* d) { return L.seg(k, m, d); };
    const double theta = std::acosh(1.0 + L.r / L.Rb);
    for (Arrangement a : {Arrangement::U, Arrangement::Z}) {
      std::vector<double> q(n), dp(n, 0.0);
      const LadderPoint p = ladderAtFlow(a, n, Q, br, sg, sg, q.data(), dp.data());
      REQUIRE(p.ok);
      const double c = a == Arrangement::U ? n - 0.5 : 0.5 * (n - 1);
      double sum_cosh = 0, sum_q = 0;
      for (int k = 0; k < n; ++k) sum_cosh += std::cosh(theta * (c - k)), sum_q += q[k];
      CHECK(sum_q == Approx(Q).epsilon(1e-12));  // mass: the taps lose nothing
      for (int k = 0; k < n; ++k)
        CHECK(q[k] / Q == Approx(std::cosh(theta * (c - k)) / sum_cosh).epsilon(1e-10));
      // U: the first branch (shortest path) gets the most; Z: the ends more than the middle
      if (a == Arrangement::U) CHECK(q[0] > q[n - 1]);
      if (a == Arrangement::Z) CHECK(q[0] == Approx(q[n - 1]).epsilon(1e-10));
    }
  }
}

TEST_CASE("ladder, quadratic laws: the direct solve of the whole branch network", "[manifold]") {
  const int n = 8;
  Quadratic L;
  for (int k = 0; k < n; ++k) {
    L.kb.push_back(2e4 * (1.0 + 0.05 * ((k * 7) % 5)));  // branches differ
    L.ks.push_back(400.0 + 50.0 * k);
    L.kr.push_back(300.0 + 30.0 * k);
  }
  auto br = [&](int k, double dp, double* d) { return L.branch(k, dp, d); };
  auto su = [&](int k, double m, double* d) { return L.sup(k, m, d); };
  auto re = [&](int k, double m, double* d) { return L.ret(k, m, d); };
  const double Q = 3.0;
  for (Arrangement a : {Arrangement::U, Arrangement::Z}) {
    std::vector<double> q(n), dp(n, 0.0);
    const LadderPoint p = ladderAtFlow(a, n, Q, br, su, re, q.data(), dp.data());
    REQUIRE(p.ok);
    const std::vector<double> ref = directSolve(L, a, n, Q);
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      CHECK(q[k] == Approx(ref[k]).epsilon(1e-8));
      sum += q[k];
    }
    CHECK(sum == Approx(Q).epsilon(1e-12));
    // the slope of the ladder's drop with the flow: a finite difference of two solves
    const double h = 1e-5 * Q;
    std::vector<double> q2(q), dp2(dp);
    const double T2 = ladderAtFlow(a, n, Q + h, br, su, re, q2.data(), dp2.data()).dp;
    std::vector<double> q1(q), dp1(dp);
    const double T1 = ladderAtFlow(a, n, Q - h, br, su, re, q1.data(), dp1.data()).dp;
    CHECK(p.ddp_dQ == Approx((T2 - T1) / (2 * h)).epsilon(1e-5));
  }
}

TEST_CASE("tray shares: the rack's law kept, far trays starved, Z more even than U", "[manifold]") {
  const double rho = 1020, mu = 2.0e-3, m_nom = 130.0 / 60000.0 * rho;
  const PipeFriction seg{1.16 / 17, 0.040, 4.5e-5};
  std::vector<double> sU, sZ;
  double hU = 0, hZ = 0;
  REQUIRE(trayFlowShares(Arrangement::U, 18, 68.9e3, m_nom, 1.89, seg, rho, mu, sU, &hU));
  REQUIRE(trayFlowShares(Arrangement::Z, 18, 68.9e3, m_nom, 1.89, seg, rho, mu, sZ, &hZ));
  double sum = 0;
  for (double s : sU) sum += s;
  CHECK(sum == Approx(1.0).epsilon(1e-12));
  for (int k = 1; k < 18; ++k) CHECK(sU[k] < sU[k - 1]);  // U: less flow the farther the tray
  const auto [zmin, zmax] = std::minmax_element(sZ.begin(), sZ.end());
  CHECK(*zmax - *zmin < sU.front() - sU.back());
  CHECK(hU > 0);
  CHECK(hU < 0.05 * 68.9e3);  // a DN40 manifold is a small part of the rack's drop
  // a manifold too narrow to carry the flow: refused
  const PipeFriction thin{1.16 / 17, 0.004, 4.5e-5};
  std::vector<double> s;
  double h = 0;
  CHECK_FALSE(trayFlowShares(Arrangement::U, 18, 68.9e3, m_nom, 1.89, thin, rho, mu, s, &h));
  CHECK(h >= 68.9e3);
}
