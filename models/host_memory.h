// host_memory.h: the host-memory tiers behind a training job's GPUs (docs/models/job.md, "Host
// memory")
//
// A host (one Grace CPU) serves gpus_per_host GPUs through its GPU link (NVLink-C2C). It has a
// local tier (LPDDR5X) and an optional CXL expander tier, each with a sustained bandwidth, an
// access latency and a capacity per host. The GPUs of a synchronous job move their data at the
// same time, so each sees a share of the tier and the link:
//   b_tier = min(B_tier, B_link) / gpus_per_host                                   (B/s per GPU)
//   t(bytes) = latency + bytes / b_tier          (one bulk stream; the latency matters little)
// What lives there (placed at compile, the local tier first, then CXL, whole uses only):
//   - offloaded optimizer state, 12 B per local parameter (fp32 master, m, v [F39]); the update
//     streams 28 B per local parameter through the tier instead of HBM (ZeRO-Offload [F39, F61])
//   - offloaded activations: all but one micro-batch's stored activations; written in the
//     forward pass and read in the backward pass, 2 x c_act s b h (L/PP)/TP bytes per micro-batch
//   - asynchronous checkpoint staging: the GPU's checkpoint shard, copied at
//     min(staging_bandwidth, b_tier) [F45]
// and data loading goes through the local tier: the loader writes each GPU's tokens and the GPU
// reads them, 2 x (T/DP) x data_bytes_per_token per iteration, prefetched behind the compute.
#pragma once

namespace dctwin {

struct HostMemoryTier {
  double bandwidth = 0;  // sustained, per host                                   (B/s)
  double latency = 0;    // load-to-use latency of an access                       (s)
  double capacity = 0;   // per host; 0: the tier is absent                         (B)
};

struct HostMemorySpec {
  int gpus_per_host = 2;  // GB200: one Grace per two Blackwell GPUs [K15]
  // Grace LPDDR5X, 480 GB per Grace: STREAM TRIAD 288-342 GB/s measured for the 480 GB part
  // [F37] (middle taken); latency: about half the CXL latency, Pond's "~2x local DRAM" [F38]
  HostMemoryTier lpddr{315e9, 100e-9, 480e9};
  // CXL 2.0 memory expander: Micron CZ120 (PCIe 5 x8) 36 GB/s, 128 / 256 GB per module [F60];
  // +70-90 ns over local DRAM [F38]. Capacity 0: none (GB200 hosts ship without)
  HostMemoryTier cxl{36e9, 180e-9, 0};
  // GPU link: NVLink-C2C 900 GB/s (both directions) per host [K15], 450 GB/s each way
  double link_bandwidth = 450e9;  // (B/s)
};

enum class HostTier { Auto, Lpddr, Cxl };

// what a job puts into host memory and how long the transfers take (models/job_model.cpp)
struct HostMemoryUse {
  double lpddr_bytes = 0, cxl_bytes = 0;  // per host                               (B)
  HostTier optimizer_tier = HostTier::Auto, activation_tier = HostTier::Auto,
           staging_tier = HostTier::Auto;  // where each use went (Auto: not used)
};

// a tier's bandwidth per GPU, min(B_tier, B_link) / gpus_per_host; 0 if the tier is absent (B/s)
double hostTierBandwidth(const HostMemorySpec& h, HostTier t);
const HostMemoryTier& hostTier(const HostMemorySpec& h, HostTier t);
// latency + bytes / hostTierBandwidth                                                   (s)
double hostTransferTime(const HostMemorySpec& h, HostTier t, double bytes_per_gpu);
// places bytes_per_host into `want` (Auto: the local tier if it fits, else CXL); returns the
// tier, or Auto if it fits nowhere; adds to the use
HostTier placeHost(const HostMemorySpec& h, HostMemoryUse& use, double bytes_per_host,
                   HostTier want);
const char* hostTierName(HostTier t);  // "lpddr", "cxl", "auto"

// throws std::invalid_argument naming the field
void validateHostMemory(const HostMemorySpec& h);

}  // namespace dctwin
