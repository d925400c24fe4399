// the meter's metrics (models/grid.h, docs/models/grid.md): Welch's PSD against Parseval's
// theorem and a sine of known amplitude and frequency, the ramp over a window against a ramp
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "models/grid.h"

using namespace dctwin;

namespace {
std::vector<double> sine(double mean, double A, double f, double dt, std::size_t n) {
  std::vector<double> P(n);
  for (std::size_t k = 0; k < n; ++k)
    P[k] = mean + A * std::sin(2 * std::numbers::pi * f * double(k) * dt + 0.3);
  return P;
}
}  // namespace

TEST_CASE("Welch PSD puts a sine's power A^2/2 in the band around its frequency (Parseval, 1 %)",
          "[grid]") {
  // a 20 MW swing (peak amplitude) at 0.22 Hz (a 4.5 s iteration) on 60 MW, sampled at 0.1 s for
  // 10 min, 60 s segments: the sine falls between bins (df = 1/60 Hz), the Hann window leaks
  const double A = 20e6, f0 = 1 / 4.5, dt = 0.1;
  const auto P = sine(60e6, A, f0, dt, 6000);
  const PowerSpectrum psd = welchPsd(P, dt, 600);
  REQUIRE(psd.length == 600);
  REQUIRE(psd.segments == 19);  // 50 % overlap: (6000 - 600) / 300 + 1
  CHECK(psd.df == Approx(1.0 / 60));
  CHECK(psd.f.size() == 301);
  // all of the variance: Parseval
  double var = 0;
  for (double S : psd.S) var += S * psd.df;
  CHECK(var == Approx(A * A / 2).epsilon(0.01));
  // in the 0.1 - 2 Hz band ([WL4]'s low band): the sine's RMS A / sqrt 2 within 1 %
  CHECK(bandRms(psd, 0.1, 2.0) == Approx(A / std::sqrt(2.0)).epsilon(0.01));
  // none of it in the 3 - 30 Hz band (above Nyquist's 5 Hz: the bins to 5 Hz)
  CHECK(bandRms(psd, 3.0, 30.0) < 1e-3 * A);
  // the peak at the sine's frequency, within a bin
  const int q = spectrumPeak(psd, 0.0);
  REQUIRE(q > 0);
  CHECK(std::abs(psd.f[std::size_t(q)] - f0) <= psd.df);
  // on a bin: two sines, each in its own band
  const double dt2 = 0.05;
  auto P2 = sine(0, 3e6, 0.5, dt2, 8000);
  const auto hi = sine(0, 1e6, 7.0, dt2, 8000);
  for (std::size_t k = 0; k < P2.size(); ++k) P2[k] += hi[k];
  const PowerSpectrum two = welchPsd(P2, dt2, 400);  // df = 0.05 Hz
  CHECK(bandRms(two, 0.1, 2.0) == Approx(3e6 / std::sqrt(2.0)).epsilon(0.01));
  CHECK(bandRms(two, 3.0, 30.0) == Approx(1e6 / std::sqrt(2.0)).epsilon(0.01));
}

TEST_CASE("Welch PSD of a constant series is zero, the whole series is one segment when asked",
          "[grid]") {
  const std::vector<double> c(100, 5e6);
  const PowerSpectrum psd = welchPsd(c, 0.1, 0);
  CHECK(psd.segments == 1);
  CHECK(psd.length == 100);
  for (double S : psd.S) CHECK(S == Approx(0).margin(1e-6));
  CHECK_THROWS_AS(welchPsd(std::vector<double>{1, 2, 3}, 0.1, 0), std::invalid_argument);
  CHECK_THROWS_AS(welchPsd(c, 0, 0), std::invalid_argument);
}

TEST_CASE("the ramp over a window of a known ramp is its slope, of a step the step over the window",
          "[grid]") {
  // flat 10 MW, a ramp of 2 MW/s for 5 s, flat 20 MW, then a step down by 15 MW
  const double dt = 0.1;
  std::vector<double> P;
  for (int k = 0; k < 100; ++k) P.push_back(10e6);
  for (int k = 1; k <= 50; ++k) P.push_back(10e6 + 2e6 * k * dt);
  for (int k = 0; k < 100; ++k) P.push_back(20e6);
  for (int k = 0; k < 100; ++k) P.push_back(5e6);
  const WindowRamp one = windowRamp(P, dt, 0);  // one sample
  CHECK(one.span == Approx(0.1));
  CHECK(one.max_rise == Approx(2e6));
  CHECK(one.max_fall == Approx(15e6 / 0.1));
  const WindowRamp w1 = windowRamp(P, dt, 1.0);  // inside the ramp: its slope
  CHECK(w1.span == Approx(1.0));
  CHECK(w1.max_rise == Approx(2e6));
  CHECK(w1.max_fall == Approx(15e6));
  const WindowRamp w60 = windowRamp(P, dt, 10.0);  // the whole ramp inside the window
  CHECK(w60.max_rise == Approx(10e6 / 10.0));
  CHECK(w60.max_fall == Approx(15e6 / 10.0));
  // a window longer than the series: nothing to measure
  const WindowRamp too = windowRamp(P, dt, 1000.0);
  CHECK(too.max_rise == 0);
  CHECK(too.max_fall == 0);
}
