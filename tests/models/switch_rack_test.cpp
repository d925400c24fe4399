// switch_rack_test.cpp: scale-out switch racks (models/switch_rack.h, docs/models/switch_rack.md):
// power and heat against the closed forms, the topology counts, the leaf cabling, spine loss
#include <catch2/catch.hpp>

#include <set>
#include <stdexcept>

#include "models/switch_rack.h"

using namespace dctwin;

TEST_CASE("switch rack power: ASIC + base + optics per cage, heat split by the cooling",
          "[switch_rack]") {
  SwitchRackParams p;
  p.switches = 12;
  p.cages = p.cages_used = 72;
  p.P_asic = 900;
  p.P_base = 250;
  p.P_port = 30;
  SwitchRackPower a = switchRackPower(p, 12);
  CHECK(a.P == Approx(12 * (900 + 250) + 12 * 72 * 30.0).epsilon(1e-15));
  CHECK(a.P_optics == Approx(12 * 72 * 30.0).epsilon(1e-15));
  CHECK(a.Q_liquid == 0);
  CHECK(a.Q_air == a.P);
  // a failed switch draws nothing
  CHECK(switchRackPower(p, 11).P == Approx(a.P * 11 / 12).epsilon(1e-15));
  CHECK(switchRackPower(p, 0).P == 0);
  // liquid: the ASIC on the plate; pluggables stay in the air stream
  p.cooling = SwitchCooling::Liquid;
  p.liquid_fraction = 0.9;
  a = switchRackPower(p, 12);
  CHECK(a.Q_liquid == Approx(0.9 * 12 * 900).epsilon(1e-15));
  CHECK(a.Q_liquid + a.Q_air == Approx(a.P).epsilon(1e-15));
  // co-packaged optics sit on the ASIC's cold plate
  p.optics = OpticsKind::Cpo;
  p.P_port = defaultPortPower(OpticsKind::Cpo);
  a = switchRackPower(p, 12);
  CHECK(a.Q_liquid == Approx(0.9 * (12 * 900 + 12 * 72 * 9.0)).epsilon(1e-15));
  CHECK(a.Q_liquid + a.Q_air == Approx(a.P).epsilon(1e-15));
}

TEST_CASE("CPO vs pluggable: the difference is cages x (P_plug - P_cpo)", "[switch_rack]") {
  SwitchRackParams plug, cpo;
  plug.switches = cpo.switches = 48;
  plug.cages_used = cpo.cages_used = 64;  // not every cage populated
  plug.P_port = defaultPortPower(OpticsKind::Pluggable);
  cpo.optics = OpticsKind::Cpo;
  cpo.P_port = defaultPortPower(OpticsKind::Cpo);
  CHECK(plug.P_port == 30);  // [WL64]
  CHECK(cpo.P_port == 9);    // [WL64]
  const double d = switchRackPower(plug, 48).P - switchRackPower(cpo, 48).P;
  CHECK(d == Approx(48 * 64 * (30.0 - 9.0)).epsilon(1e-15));
  CHECK(defaultPortPower(OpticsKind::Copper) == 0);
}

TEST_CASE("switch counts from the fabric: leaves and spines for the served GPUs", "[switch_rack]") {
  const double C = 72 * 200e9;  // 72 x 1.6T cages
  // the pod: 576 GPUs x 1 x 400G, non-blocking: 576 x 50e9 x 2 / 14.4e12 = 4 leaves, 2 spines
  CHECK(switchesNeeded(SwitchRole::Leaf, 576, 1, 50e9, 1.0, C) == 4);
  CHECK(switchesNeeded(SwitchRole::Spine, 576, 1, 50e9, 1.0, C) == 2);
  // a CDU block of the hall: 864 GPUs x 800G: 12 leaves; 2:1 oversubscribed (s = 0.5): 9
  CHECK(switchesNeeded(SwitchRole::Leaf, 864, 1, 100e9, 1.0, C) == 12);
  CHECK(switchesNeeded(SwitchRole::Leaf, 864, 1, 100e9, 0.5, C) == 9);
  CHECK(switchesNeeded(SwitchRole::Spine, 3456, 1, 100e9, 1.0, C) == 24);
  CHECK(switchesNeeded(SwitchRole::Leaf, 1, 1, 50e9, 1.0, C) == 1);  // at least one
  CHECK_THROWS_AS(switchesNeeded(SwitchRole::Leaf, 8, 0, 50e9, 1.0, C), std::invalid_argument);
  CHECK_THROWS_AS(switchesNeeded(SwitchRole::Leaf, 8, 1, 50e9, 1.0, 0), std::invalid_argument);
}

TEST_CASE("leaf cabling: rail-optimized leaves hold the same slots of every rack",
          "[switch_rack]") {
  // 8 racks x 72 GPUs x 1 NIC on 4 leaves: leaf j holds slots 18 j ... 18 j + 17 of every rack
  for (int k = 0; k < 8; ++k)
    for (int g = 0; g < 72; ++g) CHECK(leafOfLink(k, g, 0, 8, 72, 1, 4, true) == g / 18);
  // 2 NICs: each rail (slot, NIC) on one leaf; every leaf the same number of links
  std::multiset<int> load;
  for (int g = 0; g < 72; ++g)
    for (int n = 0; n < 2; ++n) load.insert(leafOfLink(0, g, n, 8, 72, 2, 6, true));
  for (int j = 0; j < 6; ++j) CHECK(load.count(j) == 24);
  // not rail-optimized: whole racks per leaf
  for (int k = 0; k < 8; ++k) CHECK(leafOfLink(k, 5, 0, 8, 72, 1, 4, false) == k / 2);
}

TEST_CASE("spine loss: the uplinks left over the oversubscription", "[switch_rack]") {
  CHECK(spineBandwidthFraction(2, 1, 1.0) == Approx(0.5).epsilon(1e-15));
  CHECK(spineBandwidthFraction(24, 1, 1.0) == Approx(23.0 / 24).epsilon(1e-15));
  CHECK(spineBandwidthFraction(24, 0, 1.0) == 1);
  CHECK(spineBandwidthFraction(4, 4, 1.0) == 0);
  // 2:1 oversubscribed: the network already runs at s; a lost spine of 4 takes a quarter of it
  CHECK(spineBandwidthFraction(4, 1, 0.5) == Approx(0.75).epsilon(1e-15));
  // over-provisioned uplinks (s = 2): one lost spine of 4 still leaves 1.5 >= 1
  CHECK(spineBandwidthFraction(4, 1, 2.0) == 1);
}
