// reliability.cpp: failures as a seeded process (reliability.h, docs/models/failures.md)
#include "models/reliability.h"

#include <cmath>
#include <cstring>

namespace dctwin {

namespace {

const FailureClassInfo kClasses[kFailClasses] = {
#define DCTWIN_FAILURE_INFO(id, key, unit, n, text) {key, unit, n, text},
    DCTWIN_FAILURE_CLASSES(DCTWIN_FAILURE_INFO)
#undef DCTWIN_FAILURE_INFO
};

}  // namespace

const FailureClassInfo& failureClassInfo(int c) {
  return kClasses[c];
}

int failureClassByKey(const char* key) {
  for (int c = 0; c < kFailClasses; ++c)
    if (std::strcmp(kClasses[c].key, key) == 0) return c;
  return -1;
}

double publishedMtbfPerGpu(int c) {
  return kFleetGpus * kFleetSeconds / double(kClasses[c].interruptions);
}

FailureProcessParams::FailureProcessParams() {
  for (int c = 0; c < kFailClasses; ++c) mtbf[c] = publishedMtbfPerGpu(c);
}

double failureRatePerGpu(const FailureProcessParams& p) {
  double r = 0;
  for (int c = 0; c < kFailClasses; ++c) r += p.scale / p.mtbf[c];
  return r;
}

double youngInterval(double delta, double M) {
  return std::sqrt(2.0 * delta * M);
}

double dalyInterval(double delta, double M) {
  if (delta >= 2.0 * M) return M;
  const double x = delta / (2.0 * M);
  return std::sqrt(2.0 * delta * M) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - delta;
}

double expectedLostFraction(double tau, double delta, double M, double R) {
  return delta / tau + (tau + delta) / (2.0 * M) + R / M;
}

std::uint64_t FailureRng::next() {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double FailureRng::uniform() {
  return (double(next() >> 11) + 0.5) * 0x1.0p-53;
}

double FailureRng::exponential(double mean) {
  return -mean * std::log(uniform());
}

std::uint64_t FailureRng::below(std::uint64_t n) {
  return n == 0 ? 0 : std::uint64_t(uniform() * double(n)) % n;
}

}  // namespace dctwin
