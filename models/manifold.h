// manifold.h: parallel branches between a supply and a return header (a "ladder"), U or Z
//
// Branches k = 0..n-1 tap the two headers in order from the supply inlet; header segment k joins
// taps k and k+1 (docs/models/flow_distribution.md). With branch flows q_k and S_k = q_0 + ... +
// q_k, mass is conserved at every tap by construction:
//   U (direct return: the return leaves at tap 0, the supply's end): supply and return segment k
//     both carry F_k = Q - S_k, and dp_k = dp_{k+1} + dps_k(F_k) + dpr_k(F_k);
//   Z (reverse return: the return leaves at tap n-1): supply segment k carries Q - S_k, return
//     segment k carries S_k, and dp_{k+1} = dp_k - dps_k(Q - S_k) + dpr_k(S_k).
// dp_k is the branch's own supply-to-return drop; the ladder's drop is from the supply inlet to
// the return outlet: U dp_0, Z dp_0 + sum_k dpr_k(S_k).
//
// The callbacks (no allocation, any callable):
//   branch(k, dp, &dq_ddp) -> q_k >= 0, non-decreasing in dp (0 for dp <= 0)
//   sup(k, m, &ddp_dm), ret(k, m, &ddp_dm) -> segment drop, odd and increasing in m
// q and dp (n each) are the caller's; on entry they may hold the last solution (warm start).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace dctwin {

enum class Arrangement : char { U, Z };

struct LadderPoint {
  double dp = 0;      // supply inlet to return outlet                              (Pa)
  double ddp_dQ = 0;  // its slope along the solution                              (Pa s/kg)
  bool ok = true;     // the nested solve converged
};

namespace detail {

// U: march from the far end with x = dp_{n-1}; returns the total flow; dQ_dx, ddp0_dx its and
// dp_0's slopes with x
template <class B, class S, class R>
double marchU(int n, double x, B& branch, S& sup, R& ret, double* q, double* dp, double* dQ_dx,
              double* ddp0_dx) {
  double b = 0;
  dp[n - 1] = x;
  q[n - 1] = branch(n - 1, x, &b);
  double F = q[n - 1], dF = b, d = 1.0;
  for (int k = n - 2; k >= 0; --k) {
    double ss = 0, rs = 0;
    dp[k] = dp[k + 1] + sup(k, F, &ss) + ret(k, F, &rs);
    d += (ss + rs) * dF;
    q[k] = branch(k, dp[k], &b);
    F += q[k];
    dF += b * d;
  }
  *dQ_dx = dF;
  *ddp0_dx = d;
  return F;
}

// Z: march from the inlet with x = dp_0 at total flow Q; returns S_{n-1}; the slopes of S_{n-1}
// and of the ladder's drop T with x (at fixed Q) and with Q (at fixed x)
struct ZSlopes {
  double dS_dx = 0, dS_dQ = 0, dT_dx = 0, dT_dQ = 0, T = 0;
};
template <class B, class S, class R>
double marchZ(int n, double Q, double x, B& branch, S& sup, R& ret, double* q, double* dp,
              ZSlopes* z) {
  double S_ = 0, dSx = 0, dSQ = 0;  // S_k and its slopes
  double dx = 1.0, dQ = 0.0;        // slopes of dp_k
  double T = x, dTx = 1.0, dTQ = 0.0;
  dp[0] = x;
  for (int k = 0; k < n; ++k) {
    double b = 0;
    q[k] = branch(k, dp[k], &b);
    S_ += q[k];
    dSx += b * dx;
    dSQ += b * dQ;
    if (k == n - 1) break;
    double ss = 0, rs = 0;
    const double s_s = sup(k, Q - S_, &ss), s_r = ret(k, S_, &rs);
    dp[k + 1] = dp[k] - s_s + s_r;
    dx += ss * dSx + rs * dSx;
    dQ += -ss * (1.0 - dSQ) + rs * dSQ;
    T += s_r;
    dTx += rs * dSx;
    dTQ += rs * dSQ;
  }
  z->dS_dx = dSx;
  z->dS_dQ = dSQ;
  z->dT_dx = dTx;
  z->dT_dQ = dTQ;
  z->T = T;
  return S_;
}

}  // namespace detail

// the ladder carrying total flow Q >= 0: branch flows q, branch drops dp, the ladder's drop and
// its slope dT/dQ. Safeguarded Newton on the one unknown (U: the far branch's drop, Z: the first
// branch's drop), started from the caller's dp scaled from the total of the caller's q to Q (q
// and dp: the last solution, or any start; the root does not depend on it). n = 1: the branch
// alone.
template <class B, class S, class R>
LadderPoint ladderAtFlow(Arrangement arr, int n, double Q, B&& branch, S&& sup, R&& ret, double* q,
                         double* dp) {
  LadderPoint out;
  if (n <= 0) return out;
  const bool U = arr == Arrangement::U || n == 1;
  double x = U ? dp[n - 1] : dp[0];
  // the caller's last solution at another total flow Q0: its drops scaled to Q as the branches'
  // nearly quadratic laws scale them, (Q / Q0)^2 (a start closer to the root)
  double Q0 = 0;
  for (int k = 0; k < n; ++k) Q0 += q[k];
  if (Q0 > 0 && Q > 0) x *= (Q / Q0) * (Q / Q0);
  if (!(x > 0) || !std::isfinite(x)) x = 1.0;
  double lo = 0.0, hi = std::numeric_limits<double>::infinity();
  const double tol = 1e-12 * std::max(Q, 1e-12);
  double r_prev = std::numeric_limits<double>::infinity();
  for (int it = 0; it < 200; ++it) {
    double F, dF, dT = 0;
    detail::ZSlopes z;
    if (U) {
      F = detail::marchU(n, x, branch, sup, ret, q, dp, &dF, &dT);
    } else {
      F = detail::marchZ(n, Q, x, branch, sup, ret, q, dp, &z);
      dF = z.dS_dx;
    }
    const double r = F - Q;
    if (r > 0)
      hi = std::min(hi, x);
    else
      lo = std::max(lo, x);
    const bool last = std::abs(r) <= tol || (std::isfinite(hi) && hi - lo <= 1e-15 * hi);
    if (last || it == 199) {
      out.ok = last;
      if (U) {
        out.dp = dp[0];
        out.ddp_dQ = dF > 0 ? dT / dF : 0.0;  // along the solution: dT/dx / (dQ/dx)
      } else {
        out.dp = z.T;
        // implicit: S(x, Q) = Q -> dx/dQ = (1 - dS/dQ) / (dS/dx)
        const double dxdQ = z.dS_dx > 0 ? (1.0 - z.dS_dQ) / z.dS_dx : 0.0;
        out.ddp_dQ = z.dT_dQ + z.dT_dx * dxdQ;
      }
      return out;
    }
    double xn = dF > 0 ? x - r / dF : std::numeric_limits<double>::quiet_NaN();
    // bisect when Newton leaves the bracket or stalls (kinks where a branch starves: dp <= 0);
    // before the root is bracketed, at least double
    const bool slow = std::abs(r) > 0.5 * r_prev;
    if (!std::isfinite(hi)) {
      if (!(xn > lo) || slow) xn = std::max(std::isfinite(xn) ? xn : 0.0, 2.0 * x + 1.0);
    } else if (!(xn > lo && xn < hi) || slow) {
      xn = 0.5 * (lo + hi);
    }
    r_prev = std::abs(r);
    x = xn;
  }
  return out;
}

}  // namespace dctwin

#include <vector>

#include "models/hydraulics.h"

namespace dctwin {

// the trays of a rack in parallel between its supply and return manifolds: tray k's share of the
// rack's flow at the nominal flow m_nom (kg/s), each tray a power law dp = k_t m^n (QDs, tray
// plumbing, plates), each manifold segment between two trays the pipe `seg`. k_t is set so that
// the rack's drop at m_nom is dp_nom (the rack's published law). Returns false (shares uniform)
// when the manifolds alone take dp_nom or more at m_nom: the geometry cannot carry the flow.
// *header_dp: the manifolds' share of dp_nom (Pa).
bool trayFlowShares(Arrangement arr, int ntray, double dp_nom, double m_nom, double n,
                    const PipeFriction& seg, double rho, double mu, std::vector<double>& share,
                    double* header_dp);

}  // namespace dctwin
