// job_fixtures.h: the default pod's described job for the step-model tests (job_model_test.cpp,
// host_memory_test.cpp): Llama 3 70B on 576 GB200 GPUs, 72 per NVLink domain, TP 8 x PP 4 x DP 18,
// 32 micro-batches of one sequence, the distributed optimizer
#pragma once

#include "models/job_model.h"

namespace dctwin::test {

inline ModelWorkloadSpec llama70b() {
  ModelWorkloadSpec w;
  w.layers = 80;
  w.hidden = 8192;
  w.ffn_hidden = 28672;
  w.gated_mlp = true;
  w.heads = 64;
  w.kv_heads = 8;
  w.vocab = 128256;
  w.sequence_length = 8192;
  w.global_batch = 576;
  w.tp = 8;
  w.pp = 4;
  w.distributed_optimizer = true;
  return w;
}

// the GB200 catalog type's peaks and kernel efficiencies (data/catalog/gpus/gb200_blackwell.yaml)
inline const GpuCapability kGb200{"gb200_blackwell",
                                  2.5e15,
                                  5e15,
                                  1e16,
                                  8e12,
                                  186e9,
                                  148,
                                  {0.729, 0.581, 0.763, 0.75, 0.51, 0.89}};

// the phase of that name, or nullptr
inline const PhaseSpec* phaseNamed(const TrainingJobSpec& j, const std::string& name) {
  for (const PhaseSpec& p : j.phases)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace dctwin::test
