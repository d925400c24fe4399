// grid.h: the site's demand as the grid sees it: ramp rates over a window, swing, and the power
// spectral density of a uniformly sampled meter series with its amplitude in frequency bands
// (docs/models/grid.md)
//
// P[k], k = 0 .. n-1, sampled every dt (s); fs = 1 / dt.
//   ramp over a window w, m = max(1, round(w / dt)) samples, rates over the span T = m dt:
//     max_rise = max_k (P[k+m] - P[k]) / T,   max_fall = max_k (P[k] - P[k+m]) / T   (>= 0)
//   Welch's power spectral density [K135], one-sided, Hann window, 50 % overlap, each segment's
//   mean removed, segments of L samples (K segments, starts 0, L/2, L, ...):
//     w[j] = 0.5 (1 - cos(2 pi j / L)),  X_i[q] = sum_j w[j] (P[s_i + j] - mean_i) e^{-2 pi i j q /
//     L} S[q] = c_q |X_i[q]|^2 / (fs sum_j w[j]^2), averaged over the K segments, f_q = q fs / L,
//     c_q = 2 for 0 < q < L/2, 1 at q = 0 and q = L/2 (the bins that have no mirror)
//   so that sum_q S[q] df = the series' variance about the segment means (Parseval), df = fs / L.
//   band RMS:  A_rms(f_low, f_high) = sqrt( sum_{f_low <= f_q < f_high} S[q] df )  (W);
//   a sine of peak amplitude A inside the band gives A / sqrt(2).
// The FFT is Eigen's (unsupported/Eigen/FFT, kissfft), so L need not be a power of two.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace dctwin {

// the largest rise and fall of P over any span of m = max(1, round(window / dt)) samples, as rates
// (W/s, both >= 0); window <= 0 means one sample. Zeros when the series is shorter than m + 1.
struct WindowRamp {
  double max_rise = 0;  // (W/s)
  double max_fall = 0;  // (W/s)
  double span = 0;      // the span the rates are taken over, m dt (s)
};
WindowRamp windowRamp(std::span<const double> P, double dt, double window);

// one-sided power spectral density (Welch, Hann, 50 % overlap); f[q] = q df, q = 0 .. L/2
struct PowerSpectrum {
  double df = 0;           // bin width fs / L (Hz)
  std::vector<double> f;   // bin frequencies (Hz)
  std::vector<double> S;   // density (W^2/Hz for a series in W)
  int segments = 0;        // segments averaged
  std::size_t length = 0;  // samples per segment L
};
// segment: samples per segment; 0 or more than the series: the whole series as one segment.
// Throws std::invalid_argument when dt <= 0 or the series has fewer than 4 samples.
PowerSpectrum welchPsd(std::span<const double> P, double dt, std::size_t segment);

// RMS of the bins with f_low <= f < f_high: sqrt(sum S df) (the series' unit)
double bandRms(const PowerSpectrum& psd, double f_low, double f_high);

// the bin of the largest density above f_min (Hz), -1 when there is none
int spectrumPeak(const PowerSpectrum& psd, double f_min);

}  // namespace dctwin
