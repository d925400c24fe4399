// fabric.h: collective times by the alpha-beta (Hockney) model, per fabric level
//
// A fabric level (the NVLink domain, the scale-out network) gives each GPU a bandwidth B per
// direction, reached for large messages at an efficiency eta, and a latency alpha per algorithm
// step [F33]. For n ranks and a buffer of S bytes (the payload of the collective on each
// rank) [F33], with B_eff = eta B:
//   ring all-reduce           t = 2 (n-1) alpha + 2 (n-1)/n  S / B_eff
//   ring reduce-scatter,
//   ring all-gather           t =   (n-1) alpha +   (n-1)/n  S / B_eff
//   tree all-reduce           t = 2 ceil(log2 n) alpha + 2 (n-1)/n S / B_eff   (pipelined double
//                             binary tree: the ring's bandwidth term, log-depth latency (a))
//   in-switch (NVLS/SHARP)    t = 2 alpha + S / B_eff          (each byte crosses each link once
//                             per direction; the switch reduces)
//   all-to-all                t =   (n-1) alpha +   (n-1)/n  S / B_eff
//   send/recv                 t = alpha + S / B_eff
// The nccl-tests bus bandwidth busbw = (S / t) * factor, with factor 2(n-1)/n (all-reduce),
// (n-1)/n (reduce-scatter, all-gather, all-to-all), 1 (send/recv) [F23], is then B_eff
// for large S whatever n: what measured busbw is compared with.
// Degraded bandwidth f (a fraction of B on the slowest link of the collective) stretches only the
// bandwidth term: t(f) = alpha_part + beta_part / f.
#pragma once

#include <algorithm>
#include <string>

namespace dctwin {

enum class Collective { AllReduce, ReduceScatter, AllGather, AllToAll, SendRecv };
enum class CollectiveAlgorithm { Ring, Tree, InSwitch };

// one level of the fabric, seen from one GPU
struct FabricLevel {
  double bandwidth = 0;   // per GPU and direction                                     (B/s)
  double efficiency = 1;  // achieved bus bandwidth / bandwidth for large messages     (1)
  double latency = 0;     // per algorithm step (alpha)                                 (s)
};

// a collective's time split into its latency and bandwidth parts (s)
struct CollectiveTime {
  double alpha = 0;  // latency part                                                    (s)
  double beta = 0;   // bandwidth part at full bandwidth                                 (s)
  double total() const { return alpha + beta; }
  // at a fraction f in (0, 1] of the bandwidth                                         (s)
  double at(double f) const { return alpha + beta / f; }
};

// time of one collective of `bytes` per rank over n ranks of level L; n = 1 costs nothing.
// throws std::invalid_argument on n < 1, bytes < 0, a non-positive bandwidth or efficiency
CollectiveTime collectiveTime(Collective c, CollectiveAlgorithm a, int n, double bytes,
                              const FabricLevel& L);
// the nccl-tests bus-bandwidth factor (busbw = algbw * factor)                         (1)
double busBandwidthFactor(Collective c, int n);

// the fabric of a facility: the NVLink domain of a rack and the scale-out network (defaults:
// GB200 NVL72 with 400 Gb/s NDR InfiniBand, one NIC per GPU, rail-optimized leaf/spine)
struct FabricSpec {
  // NVLink domain: every GPU of a rack, through the rack's NVLink switch trays
  int nvlink_links_per_gpu = 18;        // one link to each switch chip [K15]       (1)
  double nvlink_link_bandwidth = 50e9;  // per link and direction: 100 GB/s bidirectional (B/s)
  int nvlink_switch_trays = 9;          // per NVL72 rack, 2 switch chips each [F46]     (1)
  double nvlink_efficiency = 0.94;      // 835-847 GB/s busbw of 900 GB/s, 72 GPUs [F25] (1)
  double nvlink_latency = 1e-6;         // per step (a): NCCL NVLink hop 0.6-4 us [F24] (s)
  // scale-out: NICs per GPU (rails), each to a leaf switch of its rail; leaves to spines
  int nics_per_gpu = 1;             // GB200: 1 x 400 Gb/s ConnectX-7 per GPU [F15] (1)
  double nic_bandwidth = 50e9;      // 400 Gb/s per NIC and direction                    (B/s)
  double network_efficiency = 0.9;  // large-message efficiency of IB (a) [F30]       (1)
  double network_latency = 5e-6;    // per step (a): NCCL's network hop 2.7-14 us [F24] (s)
  bool rail_optimized = true;       // NIC k of every GPU on rail (leaf group) k
  int leaf_switches = 0;            // 0 = enough for the job (informational)              (1)
  double spine_oversubscription =
      1;  // leaf uplink / downlink capacity ratio <= 1: 1 = non-blocking
  // what a lost NVLink switch tray does: true = the NVLink partition keeps running at
  // (trays - lost)/trays of the bandwidth ("Adaptive Bandwidth"); false = the job fails
  bool nvlink_adaptive_bandwidth = true;  // [F17]

  FabricLevel nvlinkLevel() const {
    return {nvlink_links_per_gpu * nvlink_link_bandwidth, nvlink_efficiency, nvlink_latency};
  }
  FabricLevel networkLevel() const {
    return {nics_per_gpu * nic_bandwidth * std::min(1.0, spine_oversubscription),
            network_efficiency, network_latency};
  }
};

// throws std::invalid_argument naming the bad field
void validateFabric(const FabricSpec& f);

const char* collectiveName(Collective c);
const char* algorithmName(CollectiveAlgorithm a);

}  // namespace dctwin
