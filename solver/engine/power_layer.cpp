// power_layer.cpp: the power chain from the utility to the rack power shelves
//
// every fast step: rack DC power -> shelves (PSU efficiency, failed shelves, overload brake) ->
// shelf breakers -> busway per row (I^2 R(T) loss, conductor temperature, feeder breaker) ->
// UPS (efficiency, battery) -> transformer -> utility. A tripped feeder, a dropped UPS or a rack
// without a working shelf cuts the rack; shelves that cannot carry the load assert the GPUs'
// power brake. See docs/models/power_chain.md and docs/models/electrical.md.
#include <algorithm>
#include <cmath>

#include "solver/engine/engine.h"

namespace dctwin {

void initPowerLayer(const FacilityModel& m, State& st) {
  PowerLayerState& p = st.pl;
  if (!m.has_power) return;
  const int ns = m.power.shelves_per_rack;
  const std::size_t nb = m.power.busways.size();
  p.shelf_brk.assign(std::size_t(m.nrack) * ns, BreakerState{});
  p.bus_brk.assign(nb, BreakerState{});
  p.T_bus.assign(nb, m.T_ambient);
  p.ups = UpsState{};
  p.ups.soc_J = m.power.ups.battery_J;  // a charged battery
  p.rack_powered.assign(m.nrack, 1);
  p.rack_brake.assign(m.nrack, 0);
  for (auto* v : {&p.rack_P_in, &p.rack_psu_loss, &p.rack_P_grid, &p.rack_P_dc})
    v->assign(m.nrack, 0.0);
  p.storage.assign(m.nrack, StorageState{});
  p.E_storage0 = 0;
  for (int r = 0; r < m.nrack; ++r)
    if (m.rack_has_storage[r]) {
      p.storage[r].soc_J = 0.5 * m.rack_storage[r].capacity_J;  // starts half charged (a)
      p.E_storage0 += p.storage[r].soc_J;
    }
  for (auto* v : {&p.bus_I, &p.bus_loss, &p.bus_P}) v->assign(nb, 0.0);
  p.iv_rack_P_in.assign(m.nrack, 0.0);
  p.iv_rack_psu_loss.assign(m.nrack, 0.0);
  p.iv_bus_loss.assign(nb, 0.0);
  p.iv_time = p.iv_utility = p.iv_ups_in = p.iv_ups_out = p.iv_ups_loss = 0;
  p.P_air_it = p.iv_air_it = 0;  // air-cooled racks: fed at the start
  p.air_powered.assign(m.nair, 1);
  p.air_cut.assign(m.nair, static_cast<char>(AirRackCut::None));
  p.P_sw_it = p.iv_sw_it = 0;  // switch racks
  p.bess = StorageState{};
  p.P_bess = p.P_bess_loss = p.iv_bess = p.iv_bess_loss = p.E_bess_loss = 0;
  if (m.power.battery.present) {
    p.bess.soc_J = 0.5 * m.power.battery.capacity_J;  // starts half charged, as the rack stores
    p.E_storage0 += p.bess.soc_J;
  }
  p.E_stored_last = m.power.ups_count * p.ups.soc_J + p.E_storage0;
  p.E_storage_drawn = p.iv_storage = 0;
}

// 1. a rack: shelves and their breakers
void powerRackStep(const FacilityModel& m, State& st, int r, double t, double dt) {
  PowerLayerState& p = st.pl;
  const PowerChainParams& ps = m.power;
  const int ns = ps.shelves_per_rack;
  const double sqrt3 = std::sqrt(3.0);
  p.rack_P_dc[r] = 0;
  {
    const double P_dc = m.rack_resolved[r] ? st.gl.rack_P_now[r] : m.rack_load[r].eval(t);
    const int b = m.rack_busway[r];
    const bool fed = !p.bus_brk[b].tripped;
    int working = 0;
    for (int k = 0; k < ns; ++k) working += p.shelf_brk[std::size_t(r) * ns + k].tripped ? 0 : 1;
    const bool isolated = !st.faults.rack_power_off.empty() && st.faults.rack_power_off[r];
    if (!fed || working == 0 || !p.rack_powered[r] || isolated) {
      p.rack_powered[r] = 0;  // latched until the run ends (no automatic re-close)
      p.rack_P_in[r] = p.rack_psu_loss[r] = p.rack_P_grid[r] = 0;
      p.rack_brake[r] = 0;
      return;
    }
    // the working shelves' PSUs share the load (active current sharing on the rack busbar);
    // failed PSUs (scenario faults) first consume the redundancy, then assert the power brake
    bool overload = false, lost = false;
    const int failed = st.faults.rack_psu_failed.empty() ? 0 : st.faults.rack_psu_failed[r];
    // a lumped block of N racks (multiplier): each rack's shelves carry 1/N of the
    // block's DC power at their own efficiency and breakers; the busway sees N times the input
    const double N = m.rack_mult[r];
    const double P_in_rack =
        shelvesInputPower(ps.shelf, working, P_dc / N, failed, &overload, &lost);
    if (lost) {
      p.rack_powered[r] = 0;
      p.rack_P_in[r] = p.rack_psu_loss[r] = p.rack_P_grid[r] = 0;
      p.rack_brake[r] = 0;
      return;
    }
    const double P_in_shelf = P_in_rack / working;
    p.rack_brake[r] = overload ? 1 : 0;
    const double I_shelf = P_in_shelf / (sqrt3 * ps.V_LL * ps.pf);
    if (ps.has_shelf_breaker) {
      const double decay = breakerDecay(ps.shelf_breaker, dt);  // the same for every shelf
      // the shelves share the load, so a closed shelf whose element is where the last one
      // stepped started takes that one's step (the same inputs: the same result, bit for bit)
      BreakerState from{}, to{};
      bool have = false;
      for (int k = 0; k < ns; ++k) {
        BreakerState& bs = p.shelf_brk[std::size_t(r) * ns + k];
        if (bs.tripped) continue;
        if (have && bs.theta == from.theta && bs.t_trip == from.t_trip) {
          bs = to;
          continue;
        }
        from = bs;
        breakerStep(ps.shelf_breaker, I_shelf, t, dt, decay, bs);
        to = bs;
        have = true;
      }
    }
    p.rack_P_in[r] = N * P_in_shelf * working;
    p.rack_psu_loss[r] = p.rack_P_in[r] - P_dc;
    // rack energy storage: the busway sees the smoothed grid draw (lossless store (a))
    p.rack_P_grid[r] = m.rack_has_storage[r]
                           ? gridPower(m.rack_storage[r], p.rack_P_in[r], dt, p.storage[r])
                           : p.rack_P_in[r];
    p.rack_P_dc[r] = P_dc;
  }
}

void powerFeedStep(const FacilityModel& m, State& st, double t, double dt) {
  if (!m.has_power) return;
  PowerLayerState& p = st.pl;
  const PowerChainParams& ps = m.power;
  // the racks' sums, in rack order
  std::fill(p.bus_P.begin(), p.bus_P.end(), 0.0);
  double E_it = 0;
  for (int r = 0; r < m.nrack; ++r) {
    p.bus_P[m.rack_busway[r]] += p.rack_P_grid[r];
    E_it += p.rack_P_dc[r] * dt;
    p.E_psu += p.rack_psu_loss[r] * dt;
    p.iv_rack_P_in[r] += p.rack_P_in[r] * dt;
    p.iv_rack_psu_loss[r] += p.rack_psu_loss[r] * dt;
  }
  // air-cooled racks: IT + their own fans (IT load, The Green Grid [P22]), on their
  // busway (no power shelf of their own), or directly at the utility meter; a lost feed cuts
  // them (latched, as the liquid-cooled racks: air_rack_feed.cpp)
  airRackFeedStep(m, st);
  p.P_air_it = 0;
  double P_air_direct = 0;
  for (int k = 0; k < m.nair; ++k) {
    const double P = airRackDraw(m, st, k, t);
    p.P_air_it += P;
    if (m.air_busway[k] >= 0)
      p.bus_P[m.air_busway[k]] += P;
    else
      P_air_direct += P;
  }
  // switch racks (docs/models/switch_rack.md): IT load on their busway, or directly at
  // the utility meter
  p.P_sw_it = 0;
  for (int k = 0; k < m.nsw; ++k) {
    const double P = st.sig.sw_P[k];
    p.P_sw_it += P;
    if (m.sw_busway[k] >= 0)
      p.bus_P[m.sw_busway[k]] += P;
    else
      P_air_direct += P;
  }
  // 2. busways: current, loss, conductor temperature, feeder breaker
  double P_ups_out = 0;
  const double T_amb = m.room_state >= 0 ? st.y[m.room_state] : m.T_ambient;
  for (std::size_t b = 0; b < ps.busways.size(); ++b) {
    const BuswayParams& bp = ps.busways[b].params;
    const double I = p.bus_brk[b].tripped ? 0.0 : buswayCurrent(bp, p.bus_P[b], ps.V_LL);
    const double loss = buswayLoss(bp, I, p.T_bus[b]);
    p.bus_I[b] = I;
    p.bus_loss[b] = loss;
    p.T_bus[b] = buswayThermalStep(bp, I, T_amb, dt, p.T_bus[b]);
    if (ps.busways[b].has_breaker && !p.bus_brk[b].tripped)
      breakerStep(ps.busways[b].breaker, I, t, dt, p.bus_brk[b]);
    P_ups_out += p.bus_P[b] + loss;
    p.E_bus += loss * dt;
    p.iv_bus_loss[b] += loss * dt;
  }
  // 3. UPS and transformer
  double P_in = P_ups_out;
  if (ps.has_ups) {
    bool dropped = false;
    const double soc0 = p.ups.soc_J;
    // one module's state stands for every module: each carries 1/ups_count of the load
    const double n = ps.ups_count;
    // its input: the utility or the generator, unless a grid disturbance took it out of its
    // window (docs/models/ride_through.md)
    P_in = n * upsStep(ps.ups, P_ups_out / n, upsInputOk(st), dt, p.ups, &dropped);
    p.P_ups_loss = n * p.ups.P_loss;
    p.E_ups += p.P_ups_loss * dt;
    p.E_battery += n * (soc0 - p.ups.soc_J);
    if (dropped) std::fill(p.rack_powered.begin(), p.rack_powered.end(), 0);
    if (dropped) airRackUpsDropped(m, st);  // air-cooled racks on the busways
  }
  if (!ps.has_ups && !facilityFed(st)) {  // no UPS: a utility loss drops every rack
    std::fill(p.rack_powered.begin(), p.rack_powered.end(), 0);
    P_in = 0;
  }
  p.P_ups_out = P_ups_out;
  p.P_ups_in = P_in;
  const double n_tx = ps.transformer_count;
  p.P_tx_loss =
      ps.has_transformer ? n_tx * transformerLoss(ps.transformer, P_in / n_tx, ps.pf) : 0.0;
  p.P_utility = P_in + p.P_tx_loss;
  // air-cooled racks without a busway: fed directly at the utility meter
  p.P_utility += P_air_direct;
  // the site battery between the site's bus and the meter (docs/models/grid.md "Mitigations")
  if (ps.battery.present && !facilityFed(st)) {
    p.P_bess = p.P_bess_loss = 0;  // no grid and no generator: the battery neither charges nor
                                   // carries the site (the UPS does, docs/models/grid.md)
  } else if (ps.battery.present) {
    const auto& b = ps.battery;
    p.P_utility = siteBatteryPower({b.capacity_J, b.P_max_W, 0.0, b.tau, b.soc_tau}, b.eta_rt,
                                   p.P_utility, dt, p.bess, p.P_bess, p.P_bess_loss);
    p.iv_bess += p.P_bess * dt;
    p.iv_bess_loss += p.P_bess_loss * dt;
    p.E_bess_loss += p.P_bess_loss * dt;
  }
  E_it += p.P_air_it * dt;
  p.iv_air_it += p.P_air_it * dt;
  E_it += p.P_sw_it * dt;  // switch racks
  p.iv_sw_it += p.P_sw_it * dt;
  p.E_tx += p.P_tx_loss * dt;
  p.iv_time += dt;
  p.iv_utility += p.P_utility * dt;
  p.iv_ups_in += P_in * dt;
  p.iv_ups_out += P_ups_out * dt;
  p.iv_ups_loss += p.P_ups_loss * dt;
  p.E_utility += p.P_utility * dt;
  p.E_it += E_it;
  // 4. the energy the stores gave (discharge > 0, recharge < 0), in rack order
  double E_stored = ps.has_ups ? ps.ups_count * p.ups.soc_J : 0.0;
  for (int r = 0; r < m.nrack; ++r)
    if (m.rack_has_storage[r]) E_stored += p.storage[r].soc_J;
  if (ps.battery.present) E_stored += p.bess.soc_J;
  p.E_storage_drawn += p.E_stored_last - E_stored;
  p.iv_storage += p.E_stored_last - E_stored;
  p.E_stored_last = E_stored;
}

}  // namespace dctwin
