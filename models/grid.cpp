// grid.cpp: ramp rates over a window, Welch's power spectral density and band RMS of a uniformly
// sampled meter series (models/grid.h, docs/models/grid.md)
#include "models/grid.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <unsupported/Eigen/FFT>

namespace dctwin {

WindowRamp windowRamp(std::span<const double> P, double dt, double window) {
  WindowRamp r;
  if (!(dt > 0)) return r;
  const std::size_t m =
      window > 0 ? std::max<std::size_t>(1, std::size_t(std::llround(window / dt))) : 1;
  r.span = double(m) * dt;
  if (P.size() <= m) return r;
  double rise = 0, fall = 0;
  for (std::size_t k = 0; k + m < P.size(); ++k) {
    const double d = P[k + m] - P[k];
    rise = std::max(rise, d);
    fall = std::max(fall, -d);
  }
  r.max_rise = rise / r.span;
  r.max_fall = fall / r.span;
  return r;
}

PowerSpectrum welchPsd(std::span<const double> P, double dt, std::size_t segment) {
  if (!(dt > 0)) throw std::invalid_argument("welchPsd: the sample interval must be > 0");
  if (P.size() < 4) throw std::invalid_argument("welchPsd: fewer than 4 samples");
  const std::size_t L =
      segment == 0 || segment > P.size() ? P.size() : std::max<std::size_t>(segment, 4);
  const std::size_t hop = std::max<std::size_t>(1, L / 2);
  const double fs = 1.0 / dt;
  std::vector<double> w(L), x(L);
  double w2 = 0;
  for (std::size_t j = 0; j < L; ++j) {
    // the periodic Hann window (as scipy.signal.welch): w[0] = 0, no repeated end point
    w[j] = 0.5 * (1.0 - std::cos(2.0 * std::numbers::pi * double(j) / double(L)));
    w2 += w[j] * w[j];
  }
  PowerSpectrum out;
  out.length = L;
  out.df = fs / double(L);
  const std::size_t nq = L / 2 + 1;
  out.f.resize(nq);
  out.S.assign(nq, 0.0);
  for (std::size_t q = 0; q < nq; ++q) out.f[q] = double(q) * out.df;
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> X;
  for (std::size_t s = 0; s + L <= P.size(); s += hop) {
    double mean = 0;
    for (std::size_t j = 0; j < L; ++j) mean += P[s + j];
    mean /= double(L);
    for (std::size_t j = 0; j < L; ++j) x[j] = w[j] * (P[s + j] - mean);
    fft.fwd(X, x);
    for (std::size_t q = 0; q < nq; ++q) {
      const bool mirror = q > 0 && 2 * q != L;
      out.S[q] += (mirror ? 2.0 : 1.0) * std::norm(X[q]) / (fs * w2);
    }
    ++out.segments;
  }
  for (double& v : out.S) v /= double(out.segments);
  return out;
}

double bandRms(const PowerSpectrum& psd, double f_low, double f_high) {
  double e = 0;
  for (std::size_t q = 0; q < psd.f.size(); ++q)
    if (psd.f[q] >= f_low && psd.f[q] < f_high) e += psd.S[q] * psd.df;
  return std::sqrt(e);
}

int spectrumPeak(const PowerSpectrum& psd, double f_min) {
  int best = -1;
  for (std::size_t q = 0; q < psd.f.size(); ++q)
    if (psd.f[q] > f_min && (best < 0 || psd.S[q] > psd.S[std::size_t(best)])) best = int(q);
  return best;
}

}  // namespace dctwin
