// grid_meter.h: the site's demand as the grid sees it, over a run (docs/models/grid.md,
// docs/results.md "Grid metrics"): read from the meter series /power/P_utility that the output
// table gives at the fast rate (`dctwin run --power-interval`), never a second computation. Ramp
// rates (per sample and over the facility's grid.ramp_window), swing, Welch's power spectral
// density and the RMS in frequency bands, each checked against the utility's limits of the
// facility's `grid:` section. One table of what is reported (DCTWIN_GRID_METRICS): the results
// file's /grid datasets, the CLI summary, `dctwin outputs --table grid` and docs/results.md read
// it.
#pragma once

#include <array>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "solver/output/observables.h"

namespace dctwin {

// X(id, path, unit, shape, description); shape: "" one value, "[Q]" a value per spectrum bin,
// "[N]" a value per band
#define DCTWIN_GRID_METRICS(X)                                                                    \
  X(Dt, "/grid/dt", "s", "", "sample interval of the meter series read (--power-interval)")       \
  X(TStart, "/grid/t_start", "s", "", "first sample read (the grid section's start, else 0)")     \
  X(TEnd, "/grid/t_end", "s", "", "last sample read")                                             \
  X(Mean, "/grid/mean", "W", "", "mean meter power")                                              \
  X(Min, "/grid/min", "W", "", "lowest meter power")                                              \
  X(Max, "/grid/max", "W", "", "highest meter power (the peak)")                                  \
  X(PeakToPeak, "/grid/peak_to_peak", "W", "", "swing amplitude: max - min")                      \
  X(SwingFraction, "/grid/swing_fraction", "1", "",                                               \
    "swing as a fraction of the peak: (max - min) / max")                                         \
  X(Std, "/grid/std", "W", "", "standard deviation of the meter power about its mean")            \
  X(MaxRampUp, "/grid/max_ramp_up", "W/s", "",                                                    \
    "largest rise between consecutive samples / the sample interval")                             \
  X(MaxRampDown, "/grid/max_ramp_down", "W/s", "",                                                \
    "largest fall between consecutive samples / the sample interval (>= 0)")                      \
  X(RampWindow, "/grid/ramp_window", "s", "",                                                     \
    "span of the windowed ramp: grid.ramp_window rounded to samples")                             \
  X(MaxRiseWindow, "/grid/max_rise_window", "W/s", "",                                            \
    "largest rise over any ramp_window span, as a rate")                                          \
  X(MaxFallWindow, "/grid/max_fall_window", "W/s", "",                                            \
    "largest fall over any ramp_window span, as a rate (>= 0)")                                   \
  X(RampLimit, "/grid/ramp_limit", "W/s", "",                                                     \
    "the utility's ramp limit (grid.ramp_limit); NaN: none")                                      \
  X(RampMet, "/grid/ramp_met", "1", "",                                                           \
    "1: both windowed ramps within ramp_limit, 0: exceeded, NaN: no limit")                       \
  X(PeakFrequency, "/grid/peak_frequency", "Hz", "",                                              \
    "frequency of the spectrum's highest bin above 0 Hz")                                         \
  X(PeakAmplitude, "/grid/peak_amplitude", "W", "",                                               \
    "amplitude of a sine at peak_frequency: sqrt(2) x the RMS of the peak bin and its two "       \
    "neighbours (the Hann window's main lobe)")                                                   \
  X(PsdFrequency, "/grid/psd/frequency", "Hz", "[Q]", "frequency of each spectrum bin")           \
  X(PsdDensity, "/grid/psd/density", "W2/Hz", "[Q]",                                              \
    "one-sided power spectral density (Welch, Hann window, 50 % overlap, segments of "            \
    "grid.psd_segment); its sum x the bin width is the variance")                                 \
  X(BandFLow, "/grid/bands/f_low", "Hz", "[N]", "lower edge of each band (included)")             \
  X(BandFHigh, "/grid/bands/f_high", "Hz", "[N]", "upper edge of each band (excluded)")           \
  X(BandRms, "/grid/bands/rms", "W", "[N]",                                                       \
    "RMS of the meter power's oscillation in the band: sqrt(sum of density x bin width)")         \
  X(BandLimit, "/grid/bands/limit", "W", "[N]", "the utility's limit on the band RMS; NaN: none") \
  X(BandMet, "/grid/bands/met", "1", "[N]",                                                       \
    "1: the band RMS within its limit, 0: exceeded, NaN: no limit")

enum class GridCol : int {
#define DCTWIN_GRID_ENUM(id, ...) id,
  DCTWIN_GRID_METRICS(DCTWIN_GRID_ENUM)
#undef DCTWIN_GRID_ENUM
      Count
};
constexpr int kGridMetricCount = int(GridCol::Count);

struct GridMetricInfo {
  GridCol id;
  const char* path;
  const char* unit;
  const char* shape;  // "", "[Q]", "[N]"
  const char* description;
};
std::span<const GridMetricInfo> gridMetricTable();
const GridMetricInfo& gridMetric(GridCol c);
// the basis attribute of every /grid dataset
const char* gridBasis();
// the table as markdown (docs/results.md, between its "outputs --table grid" markers)
std::string gridMetricsMarkdown();

// the reporting bands where the facility gives none: [WL4]'s low (0.1-2 Hz) and high (3-30 Hz)
// bands of concern, without limits
std::vector<GridBand> gridDefaultBands();

// what a run reports: one vector per row of the table (a scalar: one value)
struct GridReport {
  bool valid = false;  // enough samples (>= 4) were read
  std::array<std::vector<double>, kGridMetricCount> col;
  double value(GridCol c) const {
    const auto& v = col[std::size_t(c)];
    return v.empty() ? std::numeric_limits<double>::quiet_NaN() : v[0];
  }
  const std::vector<double>& vec(GridCol c) const { return col[std::size_t(c)]; }
};

// collects the meter series from the fast rows (those at or after the grid section's start) and
// computes the report at the end
class GridMeter {
 public:
  void begin(const RunLayout& L, const FrameLayout& F);
  void fastRow(const OutputFrame& f);
  bool active() const { return active_; }
  GridReport finish() const;

 private:
  bool active_ = false;
  GridParams grid_;
  double t_first_ = 0, t_last_ = 0;
  std::vector<double> P_;  // the meter from grid.start on (reserved for the run at begin)
};

// the report as the CLI summary's lines ("" when not valid)
std::string formatGridReport(const GridReport& g);

}  // namespace dctwin
