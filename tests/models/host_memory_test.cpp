// host_memory_test.cpp: host-memory tiers (Grace LPDDR5X, CXL) feeding data loading, optimizer
// and activation offload and checkpoint staging (models/host_memory.h, docs/models/job.md)
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/host_memory.h"
#include "models/job_model.h"
#include "tests/models/job_fixtures.h"

using namespace dctwin;
using namespace dctwin::test;

namespace {

DescribedJob describe(const ModelWorkloadSpec& w, const HostMemorySpec& h = HostMemorySpec{}) {
  return describeTrainingJob(w, kGb200, FabricSpec{}, 576, 72, TrainingJobSpec{}, h);
}

std::string errorOf(const ModelWorkloadSpec& w, const HostMemorySpec& h) {
  try {
    describe(w, h);
  } catch (const JobModelError& e) {
    return e.key + " | " + e.what();
  }
  return "";
}

// parameters of the optimizer shard per GPU: the most loaded stage's TP shard over DP
double localParams(const DescribedJob& d) {
  return d.mem_optimizer / 12.0;
}

}  // namespace

TEST_CASE("host memory: a tier's bandwidth per GPU is shared by the host's GPUs and its link",
          "[host_memory]") {
  HostMemorySpec h;
  CHECK(hostTierBandwidth(h, HostTier::Lpddr) == Approx(315e9 / 2));
  CHECK(hostTierBandwidth(h, HostTier::Cxl) == 0.0);  // no CXL capacity by default
  h.cxl.capacity = 256e9;
  CHECK(hostTierBandwidth(h, HostTier::Cxl) == Approx(36e9 / 2));
  h.link_bandwidth = 100e9;  // a narrow GPU link caps both tiers
  CHECK(hostTierBandwidth(h, HostTier::Lpddr) == Approx(50e9));
  CHECK(hostTransferTime(h, HostTier::Lpddr, 1e9) == Approx(100e-9 + 1e9 / 50e9));
  HostMemoryUse u;
  CHECK(placeHost(h, u, 400e9, HostTier::Auto) == HostTier::Lpddr);
  CHECK(placeHost(h, u, 100e9, HostTier::Auto) == HostTier::Cxl);   // 480 GB LPDDR full
  CHECK(placeHost(h, u, 200e9, HostTier::Auto) == HostTier::Auto);  // fits nowhere
  CHECK(u.lpddr_bytes == 400e9);
  CHECK(u.cxl_bytes == 100e9);
  h.gpus_per_host = 0;
  CHECK_THROWS_WITH(validateHostMemory(h), Catch::Contains("gpus_per_host"));
}

TEST_CASE(
    "host memory: optimizer offload streams 28 B per local parameter through the tier, a "
    "slower tier stretches it by the bandwidth ratio",
    "[host_memory][job_model]") {
  ModelWorkloadSpec w = llama70b();
  const DescribedJob base = describe(w);
  w.offload_optimizer = true;
  const DescribedJob d = describe(w);
  const PhaseSpec* p = phaseNamed(d.job, "optimizer_offload");
  REQUIRE(p != nullptr);
  CHECK(phaseNamed(d.job, "optimizer") == nullptr);
  CHECK(p->level == 3);
  CHECK(p->bound == PhaseSpec::Bound::Communication);
  const double b_l = 315e9 / 2;
  CHECK(p->duration == Approx(100e-9 + 28 * localParams(base) / b_l).epsilon(1e-12));
  CHECK(d.host.optimizer_tier == HostTier::Lpddr);
  CHECK(d.host.lpddr_bytes == Approx(2 * 12 * localParams(base)).epsilon(1e-12));  // two GPUs
  // the HBM no longer holds the optimizer state
  CHECK(base.mem_optimizer == Approx(12 * localParams(base)).epsilon(1e-12));
  CHECK(d.full_recompute == base.full_recompute);
  // the same state on a CXL expander: 36 / 315 of the bandwidth
  HostMemorySpec h;
  h.cxl.capacity = 256e9;
  w.offload_tier = HostTier::Cxl;
  const DescribedJob c = describe(w, h);
  const PhaseSpec* pc = phaseNamed(c.job, "optimizer_offload");
  REQUIRE(pc != nullptr);
  CHECK(c.host.optimizer_tier == HostTier::Cxl);
  CHECK(pc->duration - 180e-9 == Approx((p->duration - 100e-9) * 315.0 / 36.0).epsilon(1e-12));
  // auto placement spills to CXL when the local tier is too small
  h.lpddr.capacity = 2e9;  // < 2 x 1.46 GB
  w.offload_tier = HostTier::Auto;
  CHECK(describe(w, h).host.optimizer_tier == HostTier::Cxl);
  // and fits nowhere: the error names the offload key
  h.cxl.capacity = 1e9;
  const std::string e = errorOf(w, h);
  CHECK_THAT(e, Catch::StartsWith("offload | ") && Catch::Contains("does not fit the host memory"));
}

TEST_CASE(
    "host memory: activation offload keeps one micro-batch in HBM and exposes the rest of its "
    "transfers",
    "[host_memory][job_model]") {
  ModelWorkloadSpec w = llama70b();
  const DescribedJob base = describe(w);
  w.offload_activations = true;
  const DescribedJob d = describe(w);
  CHECK(d.mem_activations < base.mem_activations / 2);  // one of PP = 4 micro-batches kept
  const PhaseSpec* p = phaseNamed(d.job, "activation_offload");
  REQUIRE(p != nullptr);
  const double bytes = 2 * d.mem_activations * 32;  // written forward, read backward, m = 32
  CHECK(p->duration == Approx(0.5 * (100e-9 + bytes / (315e9 / 2))).epsilon(1e-12));
  CHECK(d.host.lpddr_bytes == Approx(2 * 3 * d.mem_activations).epsilon(1e-12));
  // a tier that is too slow stretches the phase
  HostMemorySpec slow;
  slow.lpddr.bandwidth = 31.5e9;
  const DescribedJob d_slow = describe(w, slow);  // kept: the phase pointer points into it
  const PhaseSpec* ps = phaseNamed(d_slow.job, "activation_offload");
  REQUIRE(ps != nullptr);
  CHECK(ps->duration == Approx(0.5 * (100e-9 + bytes / (31.5e9 / 2))).epsilon(1e-12));
}

TEST_CASE("host memory: data loading is hidden behind compute until the tier is too slow",
          "[host_memory][job_model]") {
  ModelWorkloadSpec w = llama70b();
  const DescribedJob d = describe(w);  // 4 B per token: microseconds
  CHECK(phaseNamed(d.job, "data_load") == nullptr);
  CHECK(d.t_data == Approx(100e-9 + 2 * 262144 * 4 / (315e9 / 2)).epsilon(1e-12));
  w.data_bytes_per_token = 1e6;  // pixels, video frames
  const DescribedJob v = describe(w);
  const double FB =
      phaseNamed(v.job, "forward")->duration + phaseNamed(v.job, "backward")->duration;
  const PhaseSpec* p = phaseNamed(v.job, "data_load");
  REQUIRE(p != nullptr);
  CHECK(p->level == 3);
  CHECK(p->duration == Approx(v.t_data - FB).epsilon(1e-12));
  CHECK(v.t_data == Approx(100e-9 + 2 * 262144 * 1e6 / (315e9 / 2)).epsilon(1e-12));
}

TEST_CASE("host memory: checkpoint staging at the lower of the staging and the tier bandwidth",
          "[host_memory][job_model][checkpoint]") {
  ModelWorkloadSpec w = llama70b();
  w.storage_bandwidth = 50e9;
  const double N = describe(w).parameters;
  const double shard = 14 * N / 576;
  CHECK(describe(w).job.checkpoint_duration == Approx(14 * N / 50e9).epsilon(1e-12));  // sync
  w.checkpoint_async = true;
  DescribedJob d = describe(w);
  CHECK(d.job.checkpoint_duration == Approx(100e-9 + shard / 50e9).epsilon(1e-12));
  CHECK(d.host.staging_tier == HostTier::Lpddr);
  w.staging_bandwidth = 400e9;  // faster than the host's share: the tier sets the pace
  d = describe(w);
  CHECK(d.job.checkpoint_duration == Approx(100e-9 + shard / (315e9 / 2)).epsilon(1e-12));
  HostMemorySpec h;
  h.lpddr.capacity = 1e9;  // < 2 x 1.7 GB of staging copy
  CHECK_THAT(errorOf(w, h), Catch::StartsWith("checkpoint_async | ") &&
                                Catch::Contains("checkpoint staging copy"));
  h.lpddr.capacity = 480e9;
  h.gpus_per_host = 0;
  CHECK_THAT(errorOf(w, h), Catch::StartsWith("host_memory | "));
}

TEST_CASE("host memory: a host transfer phase lands in the map's host_memory part",
          "[host_memory][workload]") {
  ModelWorkloadSpec w = llama70b();
  w.offload_optimizer = true;
  const DescribedJob d = describe(w);
  JobState st = makeJobState(d.job, 2);
  std::vector<double> v(2, 1.0);
  std::vector<char> alive(2, 1);
  std::vector<Utilization> out(2);
  const double D = referenceIterationTime(d.job), dt = 0.01;
  for (int k = 0; k * dt < 3 * D - 0.5 * dt; ++k)
    stepTrainingJob(d.job, st, k * dt, dt, v, v, alive, out);
  REQUIRE(st.iterations >= 2);
  const PhaseSpec* p = phaseNamed(d.job, "optimizer_offload");
  CHECK(st.time(0)[kTimeHostMemory] >= st.iterations * p->duration * (1 - 1e-9));
  CHECK(st.time(0)[kTimeHostMemory] <= (st.iterations + 1) * p->duration * (1 + 1e-9));
  CHECK(std::string(timeCatName(kTimeHostMemory)) == "host_memory");
}
