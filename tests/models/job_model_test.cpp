#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "models/job_model.h"

using namespace dctwin;

namespace {

// a Llama-3-70B-class job on the default pod: 576 GB200 GPUs, 72 per NVLink domain
ModelWorkloadSpec llama70b() {
  ModelWorkloadSpec w;
  w.parameters = 70e9;
  w.layers = 80;
  w.hidden = 8192;
  w.sequence_length = 8192;
  w.tokens_per_iteration = 18.0 * 32 * 8192;  // dp 18 x 32 micro-batches x 1 sequence
  w.tp = 8;
  w.pp = 4;
  return w;
}
const GpuCapability kGb200{2.5e15, 8e12, 186e9};

const PhaseSpec& phaseNamed(const TrainingJobSpec& j, const std::string& name) {
  for (const PhaseSpec& p : j.phases)
    if (p.name == name) return p;
  FAIL("no phase " << name);
  return j.phases.front();
}

std::string errorKey(const ModelWorkloadSpec& w, const GpuCapability& g, int n, int dom = 72) {
  try {
    describeTrainingJob(w, g, FabricSpec{}, n, dom, TrainingJobSpec{});
  } catch (const JobModelError& e) {
    return e.key + " | " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("described job: compute, bubble and collectives follow the formulas", "[job_model]") {
  const ModelWorkloadSpec w = llama70b();
  const FabricSpec f;
  const DescribedJob d = describeTrainingJob(w, kGb200, f, 576, 72, TrainingJobSpec{});
  CHECK(d.dp == 18);
  CHECK(d.micro_batches == 32);
  CHECK_FALSE(d.full_recompute);
  // 6 N T model FLOPs over 576 GPUs at 2.5 PF x 0.5, F : B = 1 : 2
  const double FB = 6 * 70e9 * w.tokens_per_iteration / (576 * 2.5e15 * 0.5);
  const PhaseSpec& F = phaseNamed(d.job, "forward");
  const PhaseSpec& B = phaseNamed(d.job, "backward");
  CHECK(F.duration + B.duration == Approx(FB).epsilon(1e-12));
  CHECK(B.duration == Approx(2 * F.duration).epsilon(1e-12));
  // 1F1B bubble (p - 1) / m of the compute
  CHECK(phaseNamed(d.job, "bubble").duration == Approx(3.0 / 32 * FB).epsilon(1e-12));
  // levels: TP inside the rack, DP (stride 32) across racks, PP groups of 32 straddle racks
  CHECK(d.tp_level == 1);
  CHECK(d.dp_level == 2);
  CHECK(d.pp_level == 2);
  // DP: ring all-reduce of the bf16 gradients of one model-parallel shard over 18 ranks
  const double S = 2 * 70e9 / 32, Bnet = 0.9 * 50e9;
  const PhaseSpec& dp = phaseNamed(d.job, "dp_allreduce");
  CHECK(dp.barrier);
  CHECK(dp.level == 2);
  CHECK(dp.comm_beta == Approx(2.0 * 17 / 18 * S / Bnet).epsilon(1e-12));
  CHECK(dp.duration == Approx(0.2 * (2 * 17 * 5e-6 + 2.0 * 17 / 18 * S / Bnet)).epsilon(1e-12));
  // TP: 4 all-reduces of s b h 2 bytes per layer (80 / 4 per stage) and micro-batch, NVLink
  const FabricLevel nvl = f.nvlinkLevel();
  auto one =
      collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, 8, 2.0 * 8192 * 8192, nvl);
  const PhaseSpec& tp = phaseNamed(d.job, "tp_comm");
  CHECK(tp.level == 1);
  CHECK(tp.duration == Approx(0.5 * 4 * 20 * 32 * one.total()).epsilon(1e-12));
  CHECK(tp.comm_beta == Approx(4 * 20 * 32 * one.beta).epsilon(1e-12));
  // memory per GPU: 4 N / 32 + 12 N / 576 + 34 s b h L / 8
  CHECK(d.mem_weights == Approx(4 * 70e9 / 32));
  CHECK(d.mem_optimizer == Approx(12 * 70e9 / 576));
  CHECK(d.mem_activations == Approx(34.0 * 8192 * 8192 * 80 / 8));
}

TEST_CASE("described job: a memory-bound phase scales with the HBM bandwidth (HBM3 vs HBM3E)",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  const GpuCapability h100{989e12, 3.35e12, 80e9}, h200{989e12, 4.8e12, 141e9};
  w.tp = 8;
  w.pp = 8;
  w.tokens_per_iteration = 9.0 * 32 * 8192;
  const auto a = describeTrainingJob(w, h100, FabricSpec{}, 576, 8, TrainingJobSpec{});
  const auto b = describeTrainingJob(w, h200, FabricSpec{}, 576, 8, TrainingJobSpec{});
  CHECK(phaseNamed(a.job, "elementwise").duration / phaseNamed(b.job, "elementwise").duration ==
        Approx(4.8 / 3.35).epsilon(1e-12));
  CHECK(phaseNamed(a.job, "optimizer").duration / phaseNamed(b.job, "optimizer").duration ==
        Approx(4.8 / 3.35).epsilon(1e-12));
  // the compute is the same (same peak)
  CHECK(phaseNamed(a.job, "forward").duration == Approx(phaseNamed(b.job, "forward").duration));
  // roofline: optimizer 28 B per local parameter
  CHECK(phaseNamed(b.job, "optimizer").duration ==
        Approx(28.0 * 70e9 / 64 / 9 / (0.8 * 4.8e12)).epsilon(1e-12));
}

TEST_CASE("described job: capacity decides recompute, a job that does not fit is refused",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  w.micro_batch_size = 4;  // 4x the activations: 91 GB -> with 17.5 + 1.5 GB still fits 186 GB
  w.tokens_per_iteration = 18.0 * 8 * 4 * 8192;
  auto d = describeTrainingJob(w, kGb200, FabricSpec{}, 576, 72, TrainingJobSpec{});
  CHECK_FALSE(d.full_recompute);
  w.micro_batch_size = 8;  // 182 GB of activations: full recompute, compute + 1 forward
  w.tokens_per_iteration = 18.0 * 4 * 8 * 8192;
  d = describeTrainingJob(w, kGb200, FabricSpec{}, 576, 72, TrainingJobSpec{});
  CHECK(d.full_recompute);
  CHECK(phaseNamed(d.job, "backward").duration ==
        Approx(3 * phaseNamed(d.job, "forward").duration).epsilon(1e-12));
  w = llama70b();
  w.parameters = 5e12;
  const std::string e = errorKey(w, kGb200, 576);
  CHECK(e.find("parameters | ") == 0);
  CHECK(e.find("does not fit the GPU memory") != std::string::npos);
}

TEST_CASE("described job: a parallelism that does not divide the GPUs names the key",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  w.tp = 8;
  w.pp = 5;
  CHECK(errorKey(w, kGb200, 576)
            .find("parallelism | parallelism: tp x pp = 8 x 5 = 40 does "
                  "not divide the job's 576 GPUs") == 0);
  w = llama70b();
  w.dp = 20;
  CHECK(errorKey(w, kGb200, 576).find("parallelism | ") == 0);
  w = llama70b();
  w.tp = 16;  // 72 % 16 != 0
  CHECK(errorKey(w, kGb200, 576).find("must divide the NVLink domain") != std::string::npos);
  w = llama70b();
  w.tokens_per_iteration = 1e6;
  CHECK(errorKey(w, kGb200, 576).find("tokens_per_iteration | ") == 0);
  w = llama70b();
  CHECK(errorKey(w, GpuCapability{0, 8e12, 186e9}, 576).find("dense_bf16_flops") !=
        std::string::npos);
}

TEST_CASE("described job: checkpoint size from the model, written at the storage bandwidth",
          "[job_model]") {
  ModelWorkloadSpec w = llama70b();
  w.storage_bandwidth = 50e9;
  auto d = describeTrainingJob(w, kGb200, FabricSpec{}, 576, 72, TrainingJobSpec{});
  CHECK(d.checkpoint_bytes == Approx(14 * 70e9));
  CHECK(d.job.checkpoint_duration == Approx(14 * 70e9 / 50e9));  // 19.6 s
  w.checkpoint_async = true;  // staged to host memory: 1.7 GB per GPU at 50 GB/s
  d = describeTrainingJob(w, kGb200, FabricSpec{}, 576, 72, TrainingJobSpec{});
  CHECK(d.job.checkpoint_duration == Approx(14 * 70e9 / (576 * 50e9)));
}
