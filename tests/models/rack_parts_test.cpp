#include <catch2/catch.hpp>

#include <cmath>

#include "models/rack_parts.h"

using namespace dctwin;

namespace {
// the parts of data/catalog/parts, as constants (nothing is loaded from disk); the numbers are
// (a) assumptions unless noted: grace max_power (d) [K29], nvswitch max_power (d) [WL67, WL68],
// NIC module powers [WL59, WL60], power-shelf losses (d) [K30, K77], compute_tray_aux max_power (d)
// closes the budgets (docs/models/rack_parts.md)
PartParams part(const char* name, PartKind kind, double P_idle, double P_max, double lf) {
  PartParams p;
  p.name = name;
  p.kind = kind;
  p.P_idle = P_idle;
  p.P_max = P_max;
  p.liquid_fraction = lf;
  return p;
}
PartParams nic(const char* name, double P_idle, double P_max, double lf, double active, double idle,
               double lpm, PartKind kind = PartKind::Nic) {
  PartParams p = part(name, kind, P_idle, P_max, lf);
  p.ports = 1;
  p.P_port_active = active;
  p.P_port_idle = idle;
  p.P_port_lpm = lpm;
  return p;
}
const PartParams kGrace = part("grace_cpu", PartKind::Cpu, 60, 300, 0.9);
const PartParams kNvSwitch = part("nvswitch_tray_gb200", PartKind::NvSwitchTray, 360, 400, 0.75);
const PartParams kCx7 = nic("connectx7_400g", 18, 20, 0.0, 9, 8, 1.5);
const PartParams kCx8 = nic("connectx8_800g", 25, 30, 0.6, 17, 16, 1.5);
const PartParams kOsfp = nic("osfp_800g_twin", 0, 0, 0.0, 17, 16, 1.5, PartKind::SwitchOptics);
const PartParams kFans = part("tray_fans", PartKind::Fan, 100, 100, 0.0);
const PartParams kAux = part("compute_tray_aux", PartKind::Other, 350, 520, 0.5);
const PartParams kMgmt = part("mgmt_switch_1g", PartKind::Other, 150, 150, 0.0);
const PartParams kShelf = part("power_shelf_33kw", PartKind::Other, 400, 650, 0.0);

// NVL72: 18 compute trays (2 Grace + 4 GPUs, one NIC per GPU), 9 switch trays, 2 management
// switches, 8 power shelves [K26, K27, K30]
RackParts nvl72(const PartParams& nic_part) {
  RackParts r;
  r.parts = {{kGrace, 36}, {kNvSwitch, 9}, {nic_part, 72}, {kFans, 18},
             {kAux, 18},   {kMgmt, 2},     {kShelf, 8}};
  return r;
}
const PartActivity kFull{1.0, 1.0, 1.0, true};
const PartActivity kIdle{0.0, 0.0, 0.0, true};
}  // namespace

TEST_CASE("CPU, switch-tray and other parts follow their own activity linearly", "[rack_parts]") {
  // Cpu and Other follow the host activity only
  for (const PartParams& p : {kGrace, kAux}) {
    CHECK(partPower(p, 1, kIdle).P == Approx(p.P_idle));
    CHECK(partPower(p, 1, kFull).P == Approx(p.P_max));
    CHECK(partPower(p, 1, {0.25, 1.0, 1.0, true}).P ==
          Approx(p.P_idle + 0.25 * (p.P_max - p.P_idle)));
    CHECK(partPower(p, 1, {0.25, 0.0, 0.0, false}).P ==
          Approx(partPower(p, 1, {0.25, 1.0, 1.0, true}).P));
  }
  CHECK(partPower(kGrace, 36, kFull).P == Approx(10800));  // 36 x 300 W
  // the NVLink switch tray follows the mean NVLink utilization, not the host
  CHECK(partPower(kNvSwitch, 1, {1.0, 0.0, 1.0, true}).P == Approx(360));
  CHECK(partPower(kNvSwitch, 1, {0.0, 0.5, 0.0, true}).P == Approx(380));
  CHECK(partPower(kNvSwitch, 9, {0.0, 1.0, 0.0, true}).P == Approx(3600));  // ~3.6 kW [WL67, WL68]
  // activities are clamped to [0, 1]
  CHECK(partPower(kGrace, 1, {1.7, 0, 0, true}).P == Approx(300));
  CHECK(partPower(kGrace, 1, {-0.5, 0, 0, true}).P == Approx(60));
  // count scales; no units, no power
  CHECK(partPower(kAux, 18, kFull).P == Approx(18 * 520));
  CHECK(partPower(kAux, 0, kFull).P == 0.0);
  CHECK(partPower(kAux, -3, kFull).Q_air == 0.0);
}

TEST_CASE("fans draw constant power, all of it to air", "[rack_parts]") {
  for (const PartActivity& a : {kIdle, kFull, PartActivity{0.3, 0.7, 0.1, false}}) {
    const PartPower q = partPower(kFans, 18, a);
    CHECK(q.P == Approx(1800));
    CHECK(q.Q_liquid == 0.0);
    CHECK(q.Q_air == Approx(1800));
  }
  // a fan entry with P_idle != P_max still runs at P_max
  PartParams f = kFans;
  f.P_idle = 10;
  CHECK(partPower(f, 1, kIdle).P == Approx(100));
}

TEST_CASE("NIC and optics ports: active, idle and low-power mode", "[rack_parts]") {
  // ConnectX-7 + 400G module: adapter 18..20 W, module 9 W active [WL60], 8 W idle, 1.5 W LPM
  CHECK(partPower(kCx7, 1, {0.0, 0.0, 0.3, true}).P == Approx(18 + 2 * 0.3 + 9));  // active
  CHECK(partPower(kCx7, 1, {1.0, 1.0, 1.0, true}).P == Approx(20 + 9));            // full
  CHECK(partPower(kCx7, 1, {1.0, 1.0, 0.0, true}).P == Approx(18 + 8));            // up, unused
  CHECK(partPower(kCx7, 1, {1.0, 1.0, 0.0, false}).P == Approx(18 + 1.5));         // down: LPM
  // links down: LPM and the adapter at idle even if a network utilization is passed
  CHECK(partPower(kCx7, 1, {1.0, 1.0, 0.8, false}).P == Approx(18 + 1.5));
  CHECK(partPortPower(kCx7, {0, 0, 1e-9, true}) == Approx(9));  // any traffic: active
  CHECK(partPortPower(kCx7, {0, 0, 0.0, true}) == Approx(8));
  CHECK(partPortPower(kCx7, {0, 0, 0.0, false}) == Approx(1.5));
  // ports count per unit; no ports for other kinds even if set
  PartParams dual = kCx7;
  dual.ports = 2;
  CHECK(partPower(dual, 1, kFull).P == Approx(20 + 2 * 9));
  PartParams cpu = kGrace;
  cpu.ports = 4;
  cpu.P_port_active = 100;
  CHECK(partPower(cpu, 1, kFull).P == Approx(300));
  // switch side: a Quantum-2 full of 800G twin-port modules, 32 cages: 32 x 17 W = 544 W, the
  // Class 8 cage budget of [WL62]; 32 x 16 W = 512 W up without traffic; 48 W in LPM [WL59]
  CHECK(partPower(kOsfp, 32, {0, 0, 0.5, true}).P == Approx(544));
  CHECK(partPower(kOsfp, 32, kIdle).P == Approx(512));
  CHECK(partPower(kOsfp, 32, {0, 0, 0.5, false}).P == Approx(48));
  // the ConnectX-8 module is partly liquid (adapter cold-plated, module in air, (a))
  const PartPower q = partPower(kCx8, 72, kFull);
  CHECK(q.P == Approx(72 * 47));
  CHECK(q.Q_liquid == Approx(0.6 * 72 * 47));
}

TEST_CASE("energy split: Q_liquid + Q_air = P for every part and the rack", "[rack_parts]") {
  const PartParams all[] = {kGrace, kNvSwitch, kCx7, kCx8, kOsfp, kFans, kAux, kMgmt, kShelf};
  int n = 0;
  for (const PartParams& p : all)
    for (int count : {1, 7, 36, 72})
      for (double u : {0.0, 0.13, 0.5, 0.77, 1.0})
        for (bool up : {true, false}) {
          const PartActivity a{u, 1.0 - u, u * u, up};
          const PartPower q = partPower(p, count, a);
          CHECK(q.Q_liquid + q.Q_air == q.P);  // Q_air is P - Q_liquid: exact to the last bit
          CHECK(q.Q_liquid == Approx(p.liquid_fraction * q.P));
          CHECK(q.Q_liquid >= 0.0);
          CHECK(q.Q_air >= 0.0);
          ++n;
        }
  CHECK(n == 9 * 4 * 5 * 2);
  // the rack sum and its per-part shares
  const RackParts r = nvl72(kCx7);
  PartPower shares[7];
  for (const PartActivity& a : {kIdle, kFull, PartActivity{0.4, 0.9, 0.2, false}}) {
    const PartPower s = rackPartsPower(r, a, shares);
    CHECK(s.Q_liquid + s.Q_air == s.P);
    double P = 0, L = 0;
    for (const PartPower& q : shares) {
      P += q.P;
      L += q.Q_liquid;
    }
    CHECK(s.P == Approx(P));
    CHECK(s.Q_liquid == Approx(L));
  }
  CHECK(rackPartsPower(RackParts{}, kFull).P == 0.0);
}

TEST_CASE("GB200 NVL72 at GPU TDP: near 120 kW and 85 % to liquid", "[rack_parts]") {
  // GPUs: 72 x 1200 W [K20, K22], all of it through the cold plates (the GPU model)
  const double P_gpu = 72 * 1200.0;
  const PartPower parts = rackPartsPower(nvl72(kCx7), kFull);
  // grace 10.8 + switch trays 3.6 + NICs 2.088 + fans 1.8 + aux 9.36 + mgmt 0.3 + shelves 5.2 kW
  CHECK(parts.P == Approx(33148));
  CHECK(parts.Q_liquid == Approx(9720 + 2700 + 0 + 0 + 4680 + 0 + 0));
  const double P = P_gpu + parts.P, f_liquid = (P_gpu + parts.Q_liquid) / P;
  CHECK(P == Approx(119548));
  // published: ~120 kW [K27, K28, K32] (120-132 kW [WL69, WL70]); 85 % to liquid [K32]
  CHECK(std::abs(P / 120e3 - 1.0) < 0.03);
  CHECK(std::abs(f_liquid - 0.85) < 0.02);  // 86.6 %
  // the GPU share the rack type declares: 72 x 1200 / 120 kW = 0.72 (d); here 0.723
  CHECK(P_gpu / P == Approx(0.72).margin(0.01));
  // a compute tray: 4 GPUs + 2 Grace = 5.4 kW [K28] plus its NICs, fans and aux (~0.7 kW, (a))
  const double tray = 4 * 1200.0 + 2 * 300 + 4 * (20 + 9) + 100 + 520;
  CHECK(tray == Approx(6136));
  // idle: the parts fall to 18.9 kW, 57 % of their full-load power (little load proportionality)
  const PartPower idle = rackPartsPower(nvl72(kCx7), kIdle);
  CHECK(idle.P == Approx(2160 + 3240 + 72 * 26 + 1800 + 6300 + 300 + 3200));
  CHECK(idle.P == Approx(18872));
}

TEST_CASE("GB300 NVL72 at GPU TDP: near 135 kW and 90 % to liquid", "[rack_parts]") {
  // GPUs: 72 x 1400 W [K20]; the GB300 tray differs by its ConnectX-8 NICs (a)
  const double P_gpu = 72 * 1400.0;
  const PartPower parts = rackPartsPower(nvl72(kCx8), kFull);
  const double P = P_gpu + parts.P, f_liquid = (P_gpu + parts.Q_liquid) / P;
  CHECK(P == Approx(135244));
  // published: 135 kW TDP [K33] (HPE 132 kW nominal, up to 142 kW [K34]); ~90 % liquid [K33]
  CHECK(std::abs(P / 135e3 - 1.0) < 0.03);
  CHECK(std::abs(f_liquid - 0.90) < 0.02);  // 88.7 %
  CHECK(P_gpu / P == Approx(0.747).margin(0.01));
}

TEST_CASE("part kind names round-trip", "[rack_parts]") {
  for (PartKind k : {PartKind::Cpu, PartKind::NvSwitchTray, PartKind::Nic, PartKind::SwitchOptics,
                     PartKind::Fan, PartKind::Other}) {
    PartKind back = PartKind::Other;
    REQUIRE(partKindFromName(partKindName(k), &back));
    CHECK(back == k);
  }
  PartKind k = PartKind::Cpu;
  CHECK_FALSE(partKindFromName("gpu", &k));
  CHECK(k == PartKind::Cpu);
  CHECK(std::string(partKindName(PartKind::SwitchOptics)) == "switch_optics");
}
