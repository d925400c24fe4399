// plant_observables.cpp: the plant's rows of the output table (solver/output/observables.h)
//
// cumulative values are the sums to the last plant step plus the held powers since then, so a
// row between plant steps is exact for the rectangle rule the plant uses
#include <cmath>
#include <limits>

#include "solver/output/observe.h"

namespace dctwin {

double plantObservable(Obs id, const FacilityModel& m, const State& st, double t) {
  const PlantLayerState& pl = st.plant;
  const PlantState& s = pl.s;
  const double dt = std::max(t - pl.t_last, 0.0);
  const double water_rate = s.evaporation + s.drift + s.blowdown;
  const double E_plant = pl.plantEnergy() + pl.plantPower() * dt;
  const double E_it = pl.E_it + pl.P_it * dt;
  const double E_cdu = pl.E_cdu_pumps + pl.P_cdu_pumps * dt;
  const double E_ah = pl.E_air_handlers + pl.P_air_handlers * dt;  // fans + chilled water
  const double E_dc = E_it + pl.E_chain_loss + pl.P_chain_loss * dt + E_cdu + E_ah + E_plant;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto air = [&] { return m.weather.at(m.plant_start + t); };
  switch (id) {
    case Obs::PlantTSupply:
      return s.T_supply;
    case Obs::PlantTReturn:
      return s.T_return;
    case Obs::PlantTSetpoint:
      return s.T_set;
    case Obs::PlantMode:
      return static_cast<double>(s.mode);
    case Obs::PlantChillersOn:
      return s.chillers_on;
    case Obs::PlantFanSpeed:
      return s.fan_speed;
    case Obs::PlantPPumps:
      return s.P_pump;
    case Obs::PlantPFans:
      return s.P_fan;
    case Obs::PlantPChillers:
      return s.P_chiller;
    case Obs::PlantPCondenserFans:
      return s.P_cond_fan;
    case Obs::PlantQRejected:
      return s.Q_rejected;
    case Obs::PlantWaterRate:
      return water_rate;
    case Obs::WeatherTDryBulb:
      return air().T_db;
    case Obs::WeatherTWetBulb:
      return air().T_wb;
    case Obs::EnergyPlantPumps:
      return pl.E_pump + s.P_pump * dt;
    case Obs::EnergyPlantFans:
      return pl.E_fan + s.P_fan * dt;
    case Obs::EnergyPlantChillers:
      return pl.E_chiller + s.P_chiller * dt;
    case Obs::EnergyPlantCondenserFans:
      return pl.E_cond_fan + s.P_cond_fan * dt;
    case Obs::EnergyFacility:
      return E_dc;
    case Obs::EnergyItPue:
      return E_it;
    case Obs::WaterSite:
      return pl.water() + water_rate * dt;
    case Obs::WaterEvaporation:
      return pl.water_evap + s.evaporation * dt;
    case Obs::PlantPUE:
      return E_it > 0 ? E_dc / E_it : nan;
    case Obs::PlantPPUECooling:
      return E_it > 0 ? (E_it + E_cdu + E_ah + E_plant) / E_it : nan;
    case Obs::PlantWUE:
      return E_it > 0 ? (pl.water() + water_rate * dt) / (E_it / 3.6e6) : nan;
    case Obs::PlantCost:
      return pl.cost;
    case Obs::PlantCO2:
      return pl.co2;
    case Obs::PlantTimeFree:
      return pl.mode_time[0] + (s.mode == PlantMode::Free ? dt : 0.0);
    case Obs::PlantTimePartial:
      return pl.mode_time[1] + (s.mode == PlantMode::Partial ? dt : 0.0);
    case Obs::PlantTimeMechanical:
      return pl.mode_time[2] + (s.mode == PlantMode::Mechanical ? dt : 0.0);
    case Obs::CalendarMonth:  // the interval ending at t: its last instant
      return monthOfYear(m.plant_start + t - 1e-3);
    default:
      return nan;
  }
}

}  // namespace dctwin
