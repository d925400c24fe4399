// manifold.cpp: the trays' shares of a rack's flow (compile time), docs/models/flow_distribution.md
#include "models/manifold.h"

namespace dctwin {

bool trayFlowShares(Arrangement arr, int ntray, double dp_nom, double m_nom, double n,
                    const PipeFriction& seg, double rho, double mu, std::vector<double>& share,
                    double* header_dp) {
  share.assign(ntray, 1.0 / ntray);
  *header_dp = 0;
  if (ntray <= 0 || !(m_nom > 0) || !(dp_nom > 0)) return true;
  std::vector<double> q(ntray, m_nom / ntray), dp(ntray, dp_nom);
  auto pipe = [&](int, double mf, double* s) { return seg.dpSlope(mf, rho, mu, s); };
  // the drop the manifolds add at m_nom, tray laws scaled until the rack's drop is dp_nom: a
  // contraction with factor (manifold share of dp_nom), so a few passes
  PowerLaw tray = PowerLaw::fromNominal(dp_nom, m_nom / ntray, n);
  tray.m_small = 0;  // (inverted in closed form below)
  for (int pass = 0; pass < 60; ++pass) {
    auto branch = [&](int, double d, double* dq) {
      if (d <= 0) {
        *dq = 1.0 / tray.ddp_dm(0.0);
        return 0.0;
      }
      const double mf = std::pow(d / tray.k, 1.0 / tray.n);  // the plain law above m_small
      double slope;
      tray.dpSlope(mf, &slope);
      *dq = 1.0 / slope;
      return mf;
    };
    const LadderPoint p = ladderAtFlow(arr, ntray, m_nom, branch, pipe, pipe, q.data(), dp.data());
    if (!p.ok) {  // (far trays starved to round-off): the drop of an even split instead
      *header_dp = 0;
      for (int k = 0; k + 1 < ntray; ++k)
        *header_dp += 2.0 * seg.dp(m_nom * double(ntray - 1 - k) / ntray, rho, mu);
      share.assign(ntray, 1.0 / ntray);
      return false;
    }
    // the manifolds' part: the ladder's drop less the mean tray drop
    double dp_tray = 0;
    for (int k = 0; k < ntray; ++k) dp_tray += dp[k] / ntray;
    *header_dp = p.dp - dp_tray;
    if (*header_dp >= dp_nom) {
      share.assign(ntray, 1.0 / ntray);
      return false;
    }
    const double scale = p.dp / dp_nom;
    if (std::abs(scale - 1.0) < 1e-12) break;
    tray.k /= scale;
  }
  for (int k = 0; k < ntray; ++k) share[k] = q[k] / m_nom;
  return true;
}

}  // namespace dctwin
