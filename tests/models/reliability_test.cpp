// reliability_test.cpp: the failure classes from the published fleet, the optimum checkpoint
// interval, the process's generator (models/reliability.h, docs/models/failures.md)
#include <catch2/catch.hpp>

#include <cmath>

#include "models/reliability.h"

using namespace dctwin;

TEST_CASE("failure classes: the published fleet's interruptions", "[failures]") {
  // 419 unexpected interruptions in 54 days on 16,384 GPUs [F5]; 3 power supplies in no class
  int n = 0;
  for (int c = 0; c < kFailClasses; ++c) n += failureClassInfo(c).interruptions;
  CHECK(n == kFleetInterruptions - 3);
  const FailureProcessParams p;
  // 416 per 16,384 GPUs x 54 d: 0.470 per 1,000 GPU-days
  CHECK(failureRatePerGpu(p) * 86400 * 1000 == Approx(416.0 / (16384 * 54) * 1000).epsilon(1e-12));
  CHECK(failureRatePerGpu(p) * 86400 * 1000 == Approx(0.4702).epsilon(1e-3));
  // the GPU class: 884,736 GPU-days / 196
  CHECK(publishedMtbfPerGpu(kFailGpu) / 86400 == Approx(4513.96).epsilon(1e-5));
  CHECK(failureClassByKey("hbm") == kFailHbm);
  CHECK(failureClassByKey("psu") == -1);
  // the fleet's job (every GPU of it): a failure every 3.1 h, as the Llama 3 paper's 54 d / 419
  const double M = 1.0 / (kFleetGpus * failureRatePerGpu(p));
  CHECK(M / 3600 == Approx(54.0 * 24 / 416).epsilon(1e-9));
}

TEST_CASE("optimum checkpoint interval: Young and Daly", "[failures]") {
  // delta = 30 s, M = 3.1 h: Young sqrt(2 x 30 x 11,160) = 818.3 s; Daly's correction adds
  // sqrt(delta / 2M) / 3 = 1.4 % and subtracts delta
  const double d = 30, M = 3.1 * 3600;
  CHECK(youngInterval(d, M) == Approx(818.29).epsilon(1e-4));
  const double x = d / (2 * M);
  CHECK(dalyInterval(d, M) == Approx(818.29 * (1 + std::sqrt(x) / 3 + x / 9) - 30).epsilon(1e-4));
  CHECK(dalyInterval(d, M) < youngInterval(d, M));
  CHECK(dalyInterval(100, 40) == 40);  // delta >= 2M: checkpoint every M
  // the optimum minimises the expected lost share (first order): a shorter or longer interval
  // loses more
  const double tau = youngInterval(d, M);
  const double f0 = expectedLostFraction(tau, d, M, 600);
  CHECK(expectedLostFraction(0.7 * tau, d, M, 600) > f0);
  CHECK(expectedLostFraction(1.4 * tau, d, M, 600) > f0);
  // Llama 3 scale: ETTR ~ 1 - f at tau*, restart 10 min: 85-90 %
  CHECK(1 - f0 > 0.85);
  CHECK(1 - f0 < 0.90);
}

TEST_CASE("failure process generator: deterministic, exponential gaps", "[failures]") {
  FailureRng a{7}, b{7}, c{8};
  for (int k = 0; k < 100; ++k) {
    const std::uint64_t x = a.next();
    CHECK(x == b.next());
    CHECK(x != c.next());
  }
  // the mean of 200,000 exponential draws within 1 % of the mean (standard error 0.22 %)
  FailureRng r{1};
  double s = 0, s2 = 0;
  const int n = 200000;
  for (int k = 0; k < n; ++k) {
    const double e = r.exponential(3.0);
    CHECK(e > 0);
    s += e;
    s2 += e * e;
  }
  CHECK(s / n == Approx(3.0).epsilon(0.01));
  CHECK(s2 / n == Approx(18.0).epsilon(0.03));  // E[x^2] = 2 mean^2
  // below(n) covers [0, n) evenly
  int hits[5] = {};
  for (int k = 0; k < 50000; ++k) ++hits[r.below(5)];
  for (int h : hits) CHECK(h == Approx(10000).epsilon(0.05));
}
