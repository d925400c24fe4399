#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "models/fabric.h"

using namespace dctwin;

TEST_CASE("collectives: alpha-beta times of ring, tree, in-switch, all-to-all and send/recv",
          "[fabric]") {
  const FabricLevel L{100e9, 0.9, 3e-6};
  const double S = 1e9, B = 90e9;
  const int n = 16;
  auto ar = collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, n, S, L);
  CHECK(ar.alpha == Approx(2 * 15 * 3e-6).epsilon(1e-12));
  CHECK(ar.beta == Approx(2.0 * 15 / 16 * S / B).epsilon(1e-12));
  auto tr = collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Tree, n, S, L);
  CHECK(tr.alpha == Approx(2 * 4 * 3e-6).epsilon(1e-12));  // 2 ceil(log2 16) steps
  CHECK(tr.beta == Approx(ar.beta).epsilon(1e-12));
  auto ns = collectiveTime(Collective::AllReduce, CollectiveAlgorithm::InSwitch, n, S, L);
  CHECK(ns.total() == Approx(2 * 3e-6 + S / B).epsilon(1e-12));
  for (Collective c : {Collective::ReduceScatter, Collective::AllGather, Collective::AllToAll}) {
    auto t = collectiveTime(c, CollectiveAlgorithm::Ring, n, S, L);
    CHECK(t.total() == Approx(15 * 3e-6 + 15.0 / 16 * S / B).epsilon(1e-12));
  }
  auto p2p = collectiveTime(Collective::SendRecv, CollectiveAlgorithm::Ring, 2, S, L);
  CHECK(p2p.total() == Approx(3e-6 + S / B).epsilon(1e-12));
  // one rank: nothing to exchange
  CHECK(collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, 1, S, L).total() == 0);
  // a degraded link stretches only the bandwidth part
  CHECK(ar.at(0.5) == Approx(ar.alpha + 2 * ar.beta).epsilon(1e-12));
}

TEST_CASE(
    "collectives: bus bandwidth is the link's for large buffers whatever the rank count "
    "(nccl-tests definition), NVL72 within the published 835-847 GB/s",
    "[fabric]") {
  const FabricSpec f;  // GB200 NVL72 defaults
  const FabricLevel nvl = f.nvlinkLevel();
  CHECK(nvl.bandwidth == Approx(900e9));  // 18 x 50 GB/s per direction
  const double S = 8.0 * 1024 * 1024 * 1024;
  for (int n : {8, 36, 72}) {
    auto t = collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, n, S, nvl);
    const double busbw = S / t.total() * busBandwidthFactor(Collective::AllReduce, n);
    CHECK(busbw > 835e9);
    CHECK(busbw < 847e9);
  }
  // scale-out: 1 x 400 Gb/s NIC per GPU, busbw -> eta B
  const FabricLevel net = f.networkLevel();
  auto t = collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, 18, 64 * S, net);
  CHECK(64 * S / t.total() * busBandwidthFactor(Collective::AllReduce, 18) ==
        Approx(0.9 * 50e9).epsilon(1e-3));
  CHECK(busBandwidthFactor(Collective::AllToAll, 8) == Approx(7.0 / 8));
  CHECK(busBandwidthFactor(Collective::SendRecv, 8) == 1.0);
}

TEST_CASE("collectives and fabric: bad input is refused", "[fabric]") {
  const FabricLevel L{100e9, 0.9, 3e-6};
  CHECK_THROWS_AS(collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, 0, 1, L),
                  std::invalid_argument);
  CHECK_THROWS_AS(collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, 4, -1, L),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      collectiveTime(Collective::AllReduce, CollectiveAlgorithm::Ring, 4, 1, FabricLevel{0, 1, 0}),
      std::invalid_argument);
  FabricSpec f;
  f.nics_per_gpu = 0;
  CHECK_THROWS_AS(validateFabric(f), std::invalid_argument);
  f = FabricSpec{};
  f.nvlink_efficiency = 1.5;
  CHECK_THROWS_AS(validateFabric(f), std::invalid_argument);
  CHECK_NOTHROW(validateFabric(FabricSpec{}));
}
