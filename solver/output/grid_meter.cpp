// grid_meter.cpp: the meter's metrics over a run from the fast rows' /power/P_utility
// (grid_meter.h, docs/models/grid.md)
#include "solver/output/grid_meter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "models/grid.h"
#include "models/power_smoothing.h"

namespace dctwin {

namespace {
constexpr GridMetricInfo kGridTable[] = {
#define DCTWIN_GRID_ROW(id, path, unit, shape, desc) {GridCol::id, path, unit, shape, desc},
    DCTWIN_GRID_METRICS(DCTWIN_GRID_ROW)
#undef DCTWIN_GRID_ROW
};
static_assert(std::size(kGridTable) == std::size_t(GridCol::Count));
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// the most samples reserved up front (a longer run grows the vector)
constexpr std::size_t kMaxReserve = std::size_t(1) << 24;
}  // namespace

std::span<const GridMetricInfo> gridMetricTable() {
  return kGridTable;
}
const GridMetricInfo& gridMetric(GridCol c) {
  return kGridTable[int(c)];
}
const char* gridBasis() {
  return "run: the meter series /power/P_utility from /grid/t_start to /grid/t_end";
}

std::string gridMetricsMarkdown() {
  std::ostringstream os;
  os << "| Path | Shape | Units | Content |\n|------|-------|-------|---------|\n";
  for (const GridMetricInfo& g : kGridTable)
    os << "| `" << g.path << "` | " << (*g.shape ? std::string("`") + g.shape + "`" : "scalar")
       << " | " << g.unit << " | " << g.description << " |\n";
  return os.str();
}

std::vector<GridBand> gridDefaultBands() {
  GridBand lo, hi;
  lo.f_low = 0.1, lo.f_high = 2.0;   // [WL4] low frequencies
  hi.f_low = 3.0, hi.f_high = 30.0;  // [WL4] high frequencies
  return {lo, hi};
}

void GridMeter::begin(const RunLayout& L, const FrameLayout& F) {
  *this = GridMeter{};
  active_ = F.has(Obs::PowerPUtility);
  grid_ = L.grid;
  if (active_ && L.duration > 0 && L.solver.gpu_step > 0)
    P_.reserve(std::min(
        kMaxReserve, std::size_t(std::max(0.0, L.duration - grid_.start) / L.solver.gpu_step) + 2));
}

void GridMeter::fastRow(const OutputFrame& f) {
  if (!active_ || f.t < grid_.start - 1e-9) return;
  if (P_.empty()) t_first_ = f.t;
  t_last_ = f.t;
  P_.push_back(f.scalar(Obs::PowerPUtility));
}

GridReport GridMeter::finish() const {
  GridReport g;
  if (!active_ || P_.size() < 4) return g;
  g.valid = true;
  auto set = [&](GridCol c, double v) { g.col[std::size_t(c)] = {v}; };
  const double dt = (t_last_ - t_first_) / double(P_.size() - 1);
  set(GridCol::Dt, dt);
  set(GridCol::TStart, t_first_);
  set(GridCol::TEnd, t_last_);
  const SwingMetrics sw = swingMetrics(P_, dt);  // models/power_smoothing.h
  set(GridCol::Mean, sw.mean);
  set(GridCol::Min, sw.min);
  set(GridCol::Max, sw.max);
  set(GridCol::PeakToPeak, sw.peak_to_peak);
  set(GridCol::SwingFraction, sw.max > 0 ? sw.peak_to_peak / sw.max : kNaN);
  set(GridCol::Std, sw.rms_ripple);
  set(GridCol::MaxRampUp, sw.max_ramp_up);
  set(GridCol::MaxRampDown, sw.max_ramp_down);
  const WindowRamp w = windowRamp(P_, dt, grid_.ramp_window);
  set(GridCol::RampWindow, w.span);
  set(GridCol::MaxRiseWindow, w.max_rise);
  set(GridCol::MaxFallWindow, w.max_fall);
  set(GridCol::RampLimit, grid_.ramp_limit);
  set(GridCol::RampMet, std::isnan(grid_.ramp_limit)
                            ? kNaN
                            : (w.max_rise <= grid_.ramp_limit && w.max_fall <= grid_.ramp_limit));
  const std::size_t seg = std::size_t(std::llround(grid_.psd_segment / dt));
  const PowerSpectrum psd = welchPsd(P_, dt, seg);
  const int q = spectrumPeak(psd, 0.0);
  set(GridCol::PeakFrequency, q > 0 ? psd.f[std::size_t(q)] : kNaN);
  double lobe = 0;
  for (int k = q - 1; q > 0 && k <= q + 1; ++k)
    if (k > 0 && k < int(psd.S.size())) lobe += psd.S[std::size_t(k)] * psd.df;
  set(GridCol::PeakAmplitude, q > 0 ? std::sqrt(2.0 * lobe) : kNaN);
  g.col[std::size_t(GridCol::PsdFrequency)] = psd.f;
  g.col[std::size_t(GridCol::PsdDensity)] = psd.S;
  const std::vector<GridBand> bands = grid_.bands.empty() ? gridDefaultBands() : grid_.bands;
  for (const GridBand& b : bands) {
    const double rms = bandRms(psd, b.f_low, b.f_high);
    g.col[std::size_t(GridCol::BandFLow)].push_back(b.f_low);
    g.col[std::size_t(GridCol::BandFHigh)].push_back(b.f_high);
    g.col[std::size_t(GridCol::BandRms)].push_back(rms);
    g.col[std::size_t(GridCol::BandLimit)].push_back(b.limit);
    g.col[std::size_t(GridCol::BandMet)].push_back(std::isnan(b.limit) ? kNaN
                                                                       : double(rms <= b.limit));
  }
  return g;
}

std::string formatGridReport(const GridReport& g) {
  if (!g.valid) return "";
  std::string out;
  char buf[512];
  auto line = [&](const char* fmt, auto... a) {
    std::snprintf(buf, sizeof buf, fmt, a...);
    out += buf;
    out += '\n';
  };
  auto met = [](double m) { return std::isnan(m) ? "" : m > 0.5 ? "met" : "EXCEEDED"; };
  const double MW = 1e6;
  line(
      "  grid (meter)        %.1f ... %.1f s every %.3g s: mean %.2f MW, %.2f ... %.2f MW, swing "
      "%.2f MW (%.0f %% of peak), std %.2f MW",
      g.value(GridCol::TStart), g.value(GridCol::TEnd), g.value(GridCol::Dt),
      g.value(GridCol::Mean) / MW, g.value(GridCol::Min) / MW, g.value(GridCol::Max) / MW,
      g.value(GridCol::PeakToPeak) / MW, 100 * g.value(GridCol::SwingFraction),
      g.value(GridCol::Std) / MW);
  line(
      "                      ramp per sample up %.2f / down %.2f MW/s; over %.3g s up %.2f / "
      "down %.2f MW/s",
      g.value(GridCol::MaxRampUp) / MW, g.value(GridCol::MaxRampDown) / MW,
      g.value(GridCol::RampWindow), g.value(GridCol::MaxRiseWindow) / MW,
      g.value(GridCol::MaxFallWindow) / MW);
  if (!std::isnan(g.value(GridCol::RampLimit)))
    line("                      ramp limit %.3f MW/s over %.3g s: %s",
         g.value(GridCol::RampLimit) / MW, g.value(GridCol::RampWindow),
         met(g.value(GridCol::RampMet)));
  line("                      spectrum peak %.3f Hz (period %.2f s), amplitude %.2f MW",
       g.value(GridCol::PeakFrequency), 1.0 / g.value(GridCol::PeakFrequency),
       g.value(GridCol::PeakAmplitude) / MW);
  const auto &lo = g.vec(GridCol::BandFLow), &hi = g.vec(GridCol::BandFHigh),
             &rms = g.vec(GridCol::BandRms), &lim = g.vec(GridCol::BandLimit),
             &ok = g.vec(GridCol::BandMet);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    if (std::isnan(lim[k]))
      line("                      band %g-%g Hz: %.3f MW rms", lo[k], hi[k], rms[k] / MW);
    else
      line("                      band %g-%g Hz: %.3f MW rms, limit %.3f MW: %s", lo[k], hi[k],
           rms[k] / MW, lim[k] / MW, met(ok[k]));
  }
  return out;
}

}  // namespace dctwin
