// plant_layer.cpp: the heat-rejection plant between solver steps (docs/models/plant.md)
//
// the plant is quasi-steady (as EnergyPlus's plant loops): every plant.step it takes the mixed
// facility-water return of the CDUs and the outdoor air, and sets the supply temperature and the
// dp at the CDUs that the coolant then sees, held until the next step. Its energies, water, cost
// and CO2 are sums of the held powers over the steps (rectangle rule on the plant clock).
#include <algorithm>
#include <cmath>

#include "solver/engine/annual.h"
#include "solver/engine/engine.h"

namespace dctwin {

void initPlantLayer(const FacilityModel& m, State& st) {
  st.plant = PlantLayerState{};
  if (!m.has_plant) return;
  st.plant.s.T_supply = m.fws_T.eval(0.0);
  st.plant.s.T_set = m.plant.T_set;
  st.plant.s.dp_cdu = m.plant.pump.dp_set;
}

double fwsSupplyTemperature(const FacilityModel& m, const State& st, double t) {
  return m.has_plant ? st.plant.s.T_supply : m.fws_T.eval(t);
}

namespace {

// the price of a kWh at time t of the weather year (flat, or by hour of day)
double price(const FacilityModel& m, double t_year) {
  if (m.tariff.empty()) return 0;
  if (m.tariff.size() == 1) return m.tariff[0];
  const double h = std::fmod(t_year / 3600.0, 24.0);
  return m.tariff[std::clamp(static_cast<int>(h), 0, 23)];
}

// the facility's other powers, held over the next step: IT at the racks' AC input (or their
// power without a power chain), the power chain's losses, the CDU pumps
void facilityPowers(const FacilityModel& m, State& st) {
  PlantLayerState& pl = st.plant;
  pl.P_cdu_pumps = 0;
  for (double P : st.sig.P_pump) pl.P_cdu_pumps += P;
  pl.P_air_handlers = st.sig.ah_P_fan + st.sig.ah_P_chiller;
  pl.Q_air_water = st.sig.ah_Q_water;
  double P_it = 0;
  if (m.has_power) {
    for (double P : st.pl.rack_P_in) P_it += P;
    P_it += st.pl.P_air_it;  // air-cooled racks, fed at the utility meter
    P_it += st.pl.P_sw_it;   // switch racks
    // (the site battery: what it gave the site is demand, its conversion loss a loss)
    pl.P_chain_loss = std::max(st.pl.P_utility + st.pl.P_bess - P_it, 0.0) + st.pl.P_bess_loss;
  } else {
    for (double P : st.sig.P_rack) P_it += P;
    // air-cooled racks: IT + their own fans (IT load, The Green Grid [P22])
    for (int k = 0; k < m.nair; ++k) P_it += st.sig.air_P[k] + st.sig.air_P_fan[k];
    for (int k = 0; k < m.nsw; ++k) P_it += st.sig.sw_P[k];  // switch racks
    pl.P_chain_loss = 0;
  }
  pl.P_it = P_it;
}

// the held powers over [t_last, t]
void accumulate(const FacilityModel& m, PlantLayerState& pl, double t) {
  const double dt = t - pl.t_last;
  if (dt <= 0) return;
  const PlantState& s = pl.s;
  pl.E_it += pl.P_it * dt;
  pl.E_chain_loss += pl.P_chain_loss * dt;
  pl.E_cdu_pumps += pl.P_cdu_pumps * dt;
  pl.E_air_handlers += pl.P_air_handlers * dt;
  pl.E_air_water += pl.Q_air_water * dt;
  pl.E_pump += s.P_pump * dt;
  pl.E_fan += s.P_fan * dt;
  pl.E_chiller += s.P_chiller * dt;
  pl.E_cond_fan += s.P_cond_fan * dt;
  pl.E_load += (s.Q_rejected - s.P_chiller) * dt;
  pl.E_rejected += s.Q_rejected * dt;
  pl.water_evap += s.evaporation * dt;
  pl.water_drift += s.drift * dt;
  pl.water_blowdown += s.blowdown * dt;
  const double P_dc =
      pl.P_it + pl.P_chain_loss + pl.P_cdu_pumps + pl.P_air_handlers + pl.plantPower();
  const double kWh = P_dc * dt / 3.6e6;
  pl.cost += price(m, m.plant_start + pl.t_last) * kWh;
  pl.co2 += m.grid_co2 * kWh;
  pl.mode_time[static_cast<int>(s.mode)] += dt;
  pl.t_last = t;
}

}  // namespace

bool plantLayerStep(const FacilityModel& m, State& st, double t, const double* y) {
  if (!m.has_plant) return false;
  PlantLayerState& pl = st.plant;
  accumulate(m, pl, t);
  // the mixed return of the CDUs' primary sides
  double msum = 0, mT = 0;
  for (int c = 0; c < m.ncdu; ++c) {
    const double mp = st.sig.m_prim[c];
    msum += mp;
    mT += mp * y[m.stateAdr(c, kTHexPrim)];
  }
  const Fluid& fp = m.fluids[m.fws_fluid];
  double T_ret = msum > 0 ? mT / msum : pl.s.T_supply;
  // the air handlers' coils and their chiller's condenser hand their heat to the facility water
  // (docs/models/air_handler.md): it joins the return the plant rejects
  if (msum > 0) T_ret += st.sig.ah_Q_water / (msum * fp.cp(T_ret));
  const double T_old = pl.s.T_supply, dp_old = pl.s.dp_cdu;
  const AirState air = m.weather.at(m.plant_start + t);
  plantStep(m.plant, pl.s, t, T_ret, msum, msum / fp.rho(T_ret), fp.cp(T_ret), air);
  facilityPowers(m, st);
  pl.t_last = t;
  pl.next = t + annualPlantStep(m, st);  // longer in the annual mode's slow segments
  return std::abs(pl.s.T_supply - T_old) > 1e-9 || std::abs(pl.s.dp_cdu - dp_old) > 1e-6;
}

}  // namespace dctwin
