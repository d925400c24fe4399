// compile_test.cpp: what compileFacility derives from the facility file
// (solver/compile/compile.cpp)
#include <catch2/catch.hpp>

#include <string>

#include "solver/compile/compile.h"
#include "solver/input/loader.h"

using namespace dctwin;

namespace {

// one CDU and eight GB200 NVL72 racks (tdp 1200 W, settable 200-1200 W) with the given extra keys
// per rack, and `jobs`
FacilitySpec loadCaps(const std::string (&rack_extra)[8], const std::string& jobs) {
  std::string s = R"(dctwin: 1
name: caps
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    piping:
      supply: {length: 10 m, diameter: 80 mm}
      return: {length: 10 m, diameter: 80 mm}
racks:
)";
  for (int k = 0; k < 8; ++k)
    s += "  - {name: A0" + std::to_string(k + 1) +
         ", cdu: cdu1, type: gb200_nvl72, row: A, index: " + std::to_string(k + 1) + rack_extra[k] +
         "}\n";
  return loadFacilityFromString(s + jobs, "caps.yaml");
}

FacilityModel compileCaps(const std::string (&rack_extra)[8], const std::string& jobs) {
  return compileFacility(loadCaps(rack_extra, jobs));
}

// the power limit of every GPU of rack r (they must agree)
double rackGpuCap(const FacilityModel& m, int r) {
  REQUIRE(m.rack_gpunum[r] > 0);
  const double cap = m.gpu_cap[m.rack_gpuadr[r]];
  for (int k = 0; k < m.rack_gpunum[r]; ++k) REQUIRE(m.gpu_cap[m.rack_gpuadr[r] + k] == cap);
  return cap;
}

}  // namespace

TEST_CASE("a GPU's power limit is the smallest cap stated for it, within its settable range",
          "[compile][jobs]") {
  // (rack cap, job cap) -> limit; job `low` caps at 1000 W, job `high` at 1200 W (the GPU's
  // power_limit_max), A07 and A08 run no job
  const std::string racks[8] = {
      "",                         // A01: none,   1000 -> 1000
      ", gpu_power_cap: 1200 W",  // A02: 1200 (= tdp, stated), 1000 -> 1000
      ", gpu_power_cap: 1100 W",  // A03: 1100,   1000 -> 1000 (the old rule kept 1100)
      ", gpu_power_cap: 900 W",   // A04: 900,    1000 -> 900
      "",                         // A05: none,   1200 -> 1200 (power_limit_max)
      ", gpu_power_cap: 1150 W",  // A06: 1150,   1200 -> 1150
      ", gpu_power_cap: 800 W",   // A07: 800,    no job -> 800
      "",                         // A08: none,   no job -> tdp
  };
  const FacilityModel m = compileCaps(racks, R"(jobs:
  - {name: low, racks: [A01, A02, A03, A04], gpu_power_cap: 1000 W}
  - {name: high, racks: [A05, A06], gpu_power_cap: 1200 W}
)");
  REQUIRE(m.nrack == 8);
  const double tdp = m.gpu_types[m.gpu_type[0]].P_tdp;
  REQUIRE(tdp == 1200);
  REQUIRE(m.gpu_types[m.gpu_type[0]].P_limit_max == 1200);
  CHECK(rackGpuCap(m, 0) == 1000);
  CHECK(rackGpuCap(m, 1) == 1000);
  CHECK(rackGpuCap(m, 2) == 1000);
  CHECK(rackGpuCap(m, 3) == 900);
  CHECK(rackGpuCap(m, 4) == 1200);
  CHECK(rackGpuCap(m, 5) == 1150);
  CHECK(rackGpuCap(m, 6) == 800);
  CHECK(rackGpuCap(m, 7) == tdp);

  SECTION("caps outside the settable range are load errors; edited specs are held within it") {
    const std::string low[8] = {", gpu_power_cap: 100 W", "", "", "", "", "", "", ""};
    CHECK_THROWS_WITH(loadCaps(low, ""), Catch::Contains("racks[0].gpu_power_cap") &&
                                             Catch::Contains("200 W ... 1200 W"));
    const std::string none[8] = {"", "", "", "", "", "", "", ""};
    FacilitySpec spec = loadCaps(none, R"(jobs:
  - {name: deep, racks: [A02], gpu_power_cap: 300 W}
)");
    // a spec edited after loading (the GUI, a sweep, Python) bypasses the file's check: the
    // compiler holds the limit within power_limit_min ... power_limit_max, as a power-cap event
    spec.racks[0].gpu_power_cap = 100;
    spec.jobs[0].gpu_power_cap = 150;
    spec.racks[2].gpu_power_cap = 1500;
    const FacilityModel n = compileFacility(spec);
    CHECK(rackGpuCap(n, 0) == 200);
    CHECK(rackGpuCap(n, 1) == 200);
    CHECK(rackGpuCap(n, 2) == tdp);
  }
}
