// switch_racks.cpp: the scale-out switch racks (solver/compile/switch_racks.h)
#include "solver/compile/switch_racks.h"

namespace dctwin {

namespace {

int indexOf(const std::vector<std::string>& v, const std::string& x) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] == x) return int(i);
  return -1;
}

}  // namespace

void compileSwitchRacks(const FacilitySpec& spec, FacilityModel& m,
                        std::vector<LoadError>& errors) {
  m.nsw = int(spec.switch_racks.size());
  const FabricSpec& fb = spec.fabric;
  for (const SwitchRackSpec& s : spec.switch_racks) {
    m.sw_name.push_back(s.name);
    m.sw_row.push_back(s.row);
    m.sw_index.push_back(s.index);
    std::vector<int> served;
    long gpus = 0;
    for (const std::string& r : s.racks) {
      const int i = indexOf(m.rack_name, r);  // the loader checked the names
      if (i < 0) continue;
      served.push_back(i);
      gpus += m.rack_gpunum[i];
    }
    SwitchRackParams p = s.params;
    if (!s.switches_given) {
      // what the served GPUs' NICs need (docs/models/switch_rack.md)
      p.switches = switchesNeeded(p.role, gpus, std::max(1, fb.nics_per_gpu), fb.nic_bandwidth,
                                  fb.spine_oversubscription, p.cages * p.cage_bandwidth);
      if (gpus == 0)
        errors.push_back(LoadError{s.racks_loc, s.name,
                                   "switch rack '" + s.name +
                                       "': its racks have no resolved GPUs to count the "
                                       "switches from; give switches"});
    }
    m.sw_params.push_back(p);
    m.sw_racks.push_back(std::move(served));
    m.sw_busway.push_back(s.busway.empty() ? -1 : [&] {
      for (std::size_t k = 0; k < spec.power.busways.size(); ++k)
        if (spec.power.busways[k].name == s.busway) return int(k);
      return -1;
    }());
    m.sw_cdu.push_back(p.cooling == SwitchCooling::Liquid ? indexOf(m.cdu_name, s.cdu) : -1);
  }
}

std::vector<int> switchReach(const FacilityModel& m, int k, int sw) {
  std::vector<int> out;
  const SwitchRackParams& p = m.sw_params[k];
  const std::vector<int>& racks = m.sw_racks[k];
  const int nics = std::max(1, m.fabric.nics_per_gpu);
  if (p.role == SwitchRole::Spine) {
    // a spine carries uplinks of every leaf of its racks: all their GPUs
    for (int r : racks)
      for (int g = 0; g < m.rack_gpunum[r]; ++g) out.push_back(m.rack_gpuadr[r] + g);
    return out;
  }
  for (std::size_t q = 0; q < racks.size(); ++q) {
    const int r = racks[q];
    for (int g = 0; g < m.rack_gpunum[r]; ++g)
      for (int n = 0; n < nics; ++n)
        if (leafOfLink(int(q), g, n, int(racks.size()), m.rack_gpunum[r], nics, p.switches,
                       m.fabric.rail_optimized) == sw)
          out.push_back((m.rack_gpuadr[r] + g) * nics + n);
  }
  return out;
}

}  // namespace dctwin
