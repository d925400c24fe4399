// sweep_plant_test.cpp: sweeps over the climate and the water temperature: file-valued
// and linked parameters, their errors at the sweep file's lines, the plant's case metrics read
// from the run file's rows (energy PUE = E_DC / E_IT over the window), and the totals per
// calendar month (docs/sweep-format.md, docs/results.md)
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "models/weather.h"
#include "solver/input/loader.h"
#include "solver/output/results_reader.h"
#include "solver/output/sinks.h"
#include "solver/run/run.h"
#include "solver/run/sweep.h"

using namespace dctwin;

namespace {

const std::string kSource = DCTWIN_SOURCE_DIR;
const std::string kSweeps = kSource + "/data/sweeps";

std::string sweepErrors(const std::string& text) {
  try {
    SweepSpec s = loadSweepFromString(text, "s.yaml", kSweeps);
    validateSweep(s);
  } catch (const LoadFailure& e) {
    return e.what();
  }
  return "";
}

// the last value of a 1-D series, and its value at the row of time t
double last(const ResultsData& d, const std::string& p) {
  const ResultsSeries* s = d.find(p);
  REQUIRE(s != nullptr);
  return s->data.back();
}
double atTime(const ResultsData& d, const std::string& p, double t) {
  const ResultsSeries* time = d.find("/time");
  const ResultsSeries* s = d.find(p);
  REQUIRE(time != nullptr);
  REQUIRE(s != nullptr);
  for (std::size_t k = 0; k < time->data.size(); ++k)
    if (std::abs(time->data[k] - t) < 1e-6) return s->data[k];
  FAIL("no row at t = " << t);
  return 0;
}

}  // namespace

TEST_CASE("sweep file: file values and linked parameters, errors at their lines",
          "[sweep][plant]") {
  const SweepSpec s = loadSweep(kSweeps + "/pod_plant_climate_water.yaml");
  REQUIRE(s.params.size() == 2);
  CHECK(s.params[0].file_valued);
  REQUIRE(s.params[1].linked.size() == 2);
  CHECK(s.params[1].linked[1].path == "cdus[cdu1].control.supply_temperature");
  const auto cases = expandCases(s);
  REQUIRE(cases.size() == 6);
  // case 5: Singapore at W40; the linked set points move with the water temperature, and the
  // weather file is written relative to the facility's folder
  const SweepBase base = readSweepBase(s);
  const CaseInputs in = caseInputs(s, cases[5], base.facility_text, base.scenario_text);
  CHECK(getYamlPath(in.facility_text, "plant.weather.epw") ==
        "../weather/singapore_hot_humid_synthetic.epw");
  CHECK(getYamlPath(in.facility_text, "plant.supply_setpoint") == "40 degC");
  CHECK(getYamlPath(in.facility_text, "facility_water.supply_temperature") == "40 degC");
  CHECK(getYamlPath(in.facility_text, "cdus[cdu1].control.supply_temperature") == "42 degC");
  validateSweep(s);  // every case loads

  const std::string head = "dctwin_sweep: 1\nfacility: ../facilities/pod_gb200_plant_w32.yaml\n";
  // a weather file that is not there: the value's line
  std::string e = sweepErrors(head + R"(parameters:
  - path: facility.plant.weather.epw
    values: [../weather/phoenix_hot_dry_synthetic.epw, ../weather/nowhere.epw]
)");
  CHECK_THAT(e, Catch::Contains("s.yaml:5:") && Catch::Contains("no such file") &&
                    Catch::Contains("nowhere.epw"));
  // a file key takes files, not a range
  e = sweepErrors(head + R"(parameters:
  - path: facility.plant.weather.epw
    range: ["1 degC", "2 degC"]
    steps: 2
)");
  CHECK_THAT(e, Catch::Contains("not a range"));
  // a linked parameter with fewer values than its parameter
  e = sweepErrors(head + R"(parameters:
  - path: facility.plant.supply_setpoint
    values: ["27 degC", "32 degC"]
    linked:
      - path: facility.facility_water.supply_temperature
        values: ["27 degC"]
)");
  CHECK_THAT(e, Catch::Contains("s.yaml:7:") && Catch::Contains("as many values"));
  // linked parameters need distinct values of their parameter
  e = sweepErrors(head + R"(parameters:
  - path: facility.plant.supply_setpoint
    values: ["27 degC", "27 degC"]
    linked:
      - {path: facility.facility_water.supply_temperature, values: ["27 degC", "32 degC"]}
)");
  CHECK_THAT(e, Catch::Contains("s.yaml:5:") && Catch::Contains("distinct values"));
  // a latin hypercube does not link
  e = sweepErrors(head + R"(sampling: latin_hypercube
samples: 4
parameters:
  - path: facility.plant.supply_setpoint
    range: ["27 degC", "45 degC"]
    linked:
      - {path: facility.facility_water.supply_temperature, range: ["27 degC", "45 degC"]}
)");
  CHECK_THAT(e, Catch::Contains("not supported"));
  // a misspelt last key of a linked path: the case's loader names it with a did-you-mean,
  // reported against the sweep file
  e = sweepErrors(head + R"(parameters:
  - path: facility.plant.supply_setpoint
    values: ["27 degC", "32 degC"]
    linked:
      - {path: facility.facility_water.supply_temprature, values: ["27 degC", "32 degC"]}
)");
  CHECK_THAT(e, Catch::Contains("s.yaml:5:") && Catch::Contains("supply_temprature") &&
                    Catch::Contains("supply_temperature"));
  // a linked value the loader refuses: reported against the sweep file with the case
  e = sweepErrors(head + R"(parameters:
  - path: facility.plant.supply_setpoint
    values: ["27 degC", "32 degC"]
    linked:
      - {path: facility.facility_water.supply_temperature, values: ["27 degC", "hot"]}
)");
  CHECK_THAT(e, Catch::Contains("s.yaml:") && Catch::Contains("case 1") &&
                    Catch::Contains("supply_temperature"));
}

TEST_CASE("the climate x water example sweep: plant metrics are the run file's rows",
          "[sweep][plant]") {
  // the bundled example, shortened to 40 minutes of each case (the documented run is a day)
  SweepSpec s = loadSweep(kSweeps + "/pod_plant_climate_water.yaml");
  s.duration = 2400;
  s.output_interval = 60;
  s.series = true;
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_sweep_plant_test.h5").string();
  std::filesystem::remove_all(out + ".cases");
  const auto cases = expandCases(s);
  const auto r = runSweep(s, cases, {}, 2, 0, nullptr, {}, out);
  REQUIRE(r.size() == 6);
  for (const CaseResult& c : r) {
    INFO("case " << c.index << ": " << c.error);
    REQUIRE(c.ok);
    const auto& x = c.metrics;
    const ResultsData d = readResults(caseSeriesPath(out, c.index));
    const double t0 = x.at("metrics_from"), t1 = last(d, "/time");
    REQUIRE(t0 >= 0);  // 0: the job never settled (hot water throttles it), the whole run
    auto delta = [&](const char* p) { return last(d, p) - atTime(d, p, t0); };
    // energy PUE over the window = E_DC / E_IT of the run file, WUE, cost, CO2 likewise
    CHECK(x.at("PUE") == Approx(delta("/energy/facility") / delta("/energy/it_pue")));
    CHECK(x.at("E_facility") == Approx(delta("/energy/facility")));
    CHECK(x.at("WUE") == Approx(delta("/water/site") / (delta("/energy/it_pue") / 3.6e6)));
    CHECK(x.at("cost") == Approx(delta("/plant/cost")));
    CHECK(x.at("CO2") == Approx(delta("/plant/CO2")));
    CHECK(x.at("E_chillers") == Approx(delta("/energy/plant_chillers")).margin(1e-6));
    CHECK(x.at("E_dry_coolers") == Approx(delta("/energy/plant_fans")).margin(1e-6));
    CHECK(std::isnan(x.at("E_towers")));  // dry coolers here
    CHECK(x.at("E_plant") ==
          Approx(delta("/energy/plant_pumps") + delta("/energy/plant_fans") +
                 delta("/energy/plant_chillers") + delta("/energy/plant_condenser_fans"))
              .margin(1e-6));
    // the modes cover the window
    CHECK(x.at("time_free") + x.at("time_partial") + x.at("time_mechanical") ==
          Approx(t1 - t0).margin(1e-6));
    CHECK(x.at("PUE") > x.at("pPUE_cooling"));  // the power chain's losses
    CHECK(x.at("pPUE_cooling") > 1.0);
    CHECK(x.at("throughput_lost") == Approx(1.0 - x.at("throughput_ratio")));
    // the month's totals in the run file (all in July here) are the run's
    REQUIRE(d.find("/monthly/month") != nullptr);
    CHECK(d.find("/monthly/month")->data == std::vector<double>{7.0});
    CHECK(d.find("/monthly/gpu_hours_throttled")->data[0] * 3600 ==
          Approx(last(d, "/facility/gpu_seconds_throttled")).margin(1e-9));
    CHECK(d.find("/monthly/E_facility")->data[0] == Approx(last(d, "/energy/facility")));
  }
  // the water temperature reaches the plant and the GPUs: from W27 to W40 the liquid side's
  // cooling overhead falls in both climates, and the training job loses throughput; the air
  // handlers' chiller, its condenser on the facility water, costs more (docs/models/air_handler.md)
  for (int site = 0; site < 2; ++site) {
    const auto &w27 = r[3 * site].metrics, &w40 = r[3 * site + 2].metrics;
    INFO("site " << site);
    auto liquid = [](const std::map<std::string, double>& x) {
      const double E_it_pue = x.at("E_facility") / x.at("PUE");  // pPUE's denominator
      return x.at("pPUE_cooling") - x.at("E_air_handlers") / E_it_pue;
    };
    CHECK(liquid(w40) < liquid(w27));
    CHECK(w40.at("E_air_handlers") > w27.at("E_air_handlers"));
    CHECK(w40.at("E_dry_coolers") < w27.at("E_dry_coolers"));
    CHECK(w40.at("E_chillers") <= w27.at("E_chillers"));
    CHECK(w40.at("throughput_lost") > w27.at("throughput_lost"));
  }
  // the weather file reached the plant: Singapore's July night is more humid than Phoenix's
  const ResultsData phx = readResults(caseSeriesPath(out, 0)),
                    sgp = readResults(caseSeriesPath(out, 3));
  CHECK(last(sgp, "/weather/T_wet_bulb") > last(phx, "/weather/T_wet_bulb") + 1.0);
  std::filesystem::remove_all(out + ".cases");
}

TEST_CASE("totals per calendar month: the output table's rows split at the month's end",
          "[plant][results]") {
  // a heat-load pod with a plant from 31 January 22:00: 4 hours cross into February
  const std::string yaml = R"(dctwin: 1
name: month_pod
site: {ambient_temperature: 25 degC}
facility_water: {supply_temperature: 32 degC, differential_pressure: 200 kPa}
cdus:
  - name: cdu1
    model: vertiv_xdu1350
    control: {supply_temperature: 36 degC, flow_setpoint: 600 L/min}
    piping:
      supply: {length: 10 m, diameter: 100 mm}
      return: {length: 10 m, diameter: 100 mm}
racks:
  - {name: A01, cdu: cdu1, type: gb200_nvl72, row: A, index: 1, heat_load: 120 kW}
  - {name: A02, cdu: cdu1, type: gb200_nvl72, row: A, index: 2, heat_load: 120 kW}
plant:
  supply_setpoint: 32 degC
  weather: {constant: {dry_bulb: 10 degC, wet_bulb: 6 degC}, start_month: 1, start_day: 31,
            start_hour: 22}
  pumps: {rated_flow: 600 L/min, rated_head: 250 kPa, header_dp: 50 kPa,
          design_flow: 1200 L/min, dp_setpoint: 200 kPa}
  dry_coolers: {count: 1, rated_capacity: 600 kW, rated_air_temperature: 35 degC,
                rated_inlet: 50 degC, rated_outlet: 40 degC, rated_fan_power: 24 kW}
  tariff: {price: 0.1}
  grid_co2: 0.4
)";
  const FacilitySpec spec = loadFacilityFromString(yaml, "month.yaml");
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_monthly_test.h5").string();
  RunSettings rs;
  rs.duration = 4 * 3600;
  rs.output_interval = 600;
  Hdf5Sink h5(out);
  std::vector<RunSink*> sinks{&h5};
  const RunReport rep = runFacility(spec, Scenario{}, rs, sinks);
  REQUIRE(rep.result.ok);
  const ResultsData d = readResults(out);
  CHECK(d.find("/monthly/month")->data == std::vector<double>{1.0, 2.0});
  // January's last interval ends at 2 h (24:00), February's first starts there
  CHECK(d.find("/monthly/t_end")->data[0] == Approx(7200));
  CHECK(d.find("/monthly/t_start")->data[1] == Approx(7200));
  CHECK(d.find("/monthly/t_end")->data[1] == Approx(4 * 3600));
  const auto& E = d.find("/monthly/E_facility")->data;
  CHECK(E[0] == Approx(atTime(d, "/energy/facility", 7200)));
  CHECK(E[0] + E[1] == Approx(last(d, "/energy/facility")));
  CHECK(d.find("/monthly/PUE")->data[1] ==
        Approx(E[1] / (last(d, "/energy/it_pue") - atTime(d, "/energy/it_pue", 7200))));
  CHECK(std::isnan(d.find("/monthly/throughput_ratio")->data[0]));  // no training job
  // the calendar row itself
  CHECK(atTime(d, "/calendar/month", 7200) == 1.0);
  CHECK(atTime(d, "/calendar/month", 7800) == 2.0);
  // and the CLI summary lists both months
  CHECK(rep.summary.months.size() == 2);
  std::filesystem::remove(out);
  // a run that starts on a month's first instant has no empty month before it (t = 0 reads as
  // the month before, as every row belongs to the interval that ends at it)
  FacilitySpec feb = spec;
  feb.plant.start = secondsOfYear(2, 1, 0);
  RunSettings rs2 = rs;
  rs2.duration = 3600;
  const RunReport r2 = runFacility(feb, Scenario{}, rs2, {});
  REQUIRE(r2.result.ok);
  REQUIRE(r2.summary.months.size() == 1);
  CHECK(r2.summary.months[0].month == 2);
  CHECK(r2.summary.months[0].t_start == 0);
  CHECK(r2.summary.months[0].t_end == Approx(3600));
}
