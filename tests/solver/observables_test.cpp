// observables_test.cpp: the one table of outputs (solver/output/observables.h): well formed, what
// the results file holds, the derived rows agree with the rows they derive from, and the library's
// HBM over-temperature alarm
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "solver/input/loader.h"
#include "solver/output/results_reader.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kData = std::string(DCTWIN_SOURCE_DIR) + "/data/";

// keeps every frame of a run (with its own copy of the layouts: the run's end with the run)
struct Frames : RunSink {
  RunLayout L;
  FrameLayout F;
  std::vector<OutputFrame> rows;
  void begin(const RunLayout& l, const FrameLayout& f) override { L = l, F = f; }
  void row(const OutputFrame& f) override {
    rows.push_back(f);
    rows.back().layout = &F;
    rows.back().events = nullptr;
  }
};

}  // namespace

TEST_CASE("output table: every row has a unique path, a unit, a description and a method",
          "[observables]") {
  std::set<std::string> paths;
  int k = 0;
  for (const ObservableInfo& o : observableTable()) {
    INFO(o.path);
    CHECK(int(o.id) == k++);
    CHECK(o.path[0] == '/');
    CHECK(paths.insert(o.path).second);
    CHECK(std::string(o.unit).size() > 0);
    CHECK(std::string(o.description).size() > 3);
    CHECK(std::string(o.computed).size() > 3);
    CHECK(findObservable(o.path) == &o);
    CHECK(std::string(basisName(o.basis)).size() > 0);
  }
  CHECK(k == kObservableCount);
  CHECK(findObservable("/rack/no_such_series") == nullptr);
  // the markdown and CSV forms list every row once
  const std::string md = observablesMarkdown(), csv = observablesCsv();
  for (const std::string& p : paths) {
    CHECK(md.find("`" + p + "`") != std::string::npos);
    CHECK(csv.find("\n" + p + ",") != std::string::npos);
  }
}

TEST_CASE(
    "unit table: each series' SI unit from its quantity, temperatures absolute or a "
    "difference, in the file as CF's units_metadata",
    "[observables][units]") {
  int k = 0;
  for (const UnitInfo& u : kUnitTable) {
    CHECK(int(u.id) == k++);
    CHECK(std::string(u.si).size() > 0);
    CHECK(std::string(u.display).size() > 0);
    CHECK(u.scale > 0);
  }
  int differences = 0;
  for (const ObservableInfo& o : observableTable()) {
    INFO(o.path);
    CHECK(std::string(o.unit) == unitInfo(o.quantity).si);
    if (o.quantity == Unit::dK) ++differences;
    // every K is an absolute temperature or a difference, and says which
    if (std::string(o.unit) == "K") CHECK(unitsMetadata(o.quantity) != nullptr);
  }
  CHECK(differences >= 1);
  CHECK(toDisplay(Unit::K, 300.0) == Approx(26.85));
  CHECK(toDisplay(Unit::dK, 9.0) == 9.0);  // a 9 K rise is 9 K, never -264 degC
  CHECK(toDisplay(Unit::m3_s, 1e-3) == Approx(60.0));
  CHECK(shown(Obs::FacilityGpuTJunctionSpread, 9.0) == 9.0);
  CHECK(std::string(shownUnit(Obs::RackTSupply)) == "°C");
  CHECK(std::string(shownUnit(Obs::FacilityGpuTJunctionSpread)) == "K");
  const std::string md = unitsMarkdown();
  CHECK(md.find("temperature difference") != std::string::npos);
}

TEST_CASE("output table: the results file has every series of the run with its unit and basis",
          "[observables][results]") {
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_observables_test.h5").string();
  Frames frames;
  Hdf5Sink h5(out, 10, 1.0);
  Scenario sc;
  sc.duration = 600;
  sc.output_interval = 60;
  std::vector<RunSink*> sinks{&frames, &h5};
  const RunReport rep =
      runFacility(loadFacility(kData + "facilities/pod_gb200.yaml"), sc, RunSettings{}, sinks);
  REQUIRE(rep.result.ok);
  REQUIRE(frames.rows.size() == 11);
  const ResultsData d = readResults(out);
  const RunLayout& L = frames.L;
  int present = 0;
  for (const ObservableInfo& o : observableTable()) {
    INFO(o.path);
    const bool exists = L.has(o.needs);
    REQUIRE((d.find(o.path) != nullptr) == exists);
    if (!exists) continue;
    ++present;
    const ResultsSeries& s = *d.find(o.path);
    CHECK(s.units == o.unit);
    CHECK(s.basis == basisName(o.basis));
    CHECK(s.width == L.width(o.shape));
    if (o.rate == Rate::Output) {
      // the file holds exactly the frames' values
      CHECK(s.rows == frames.rows.size());
      const auto last = frames.rows.back().get(o.id);
      for (std::size_t c = 0; c < last.size(); ++c)
        if (!std::isnan(last[c])) CHECK(s.at(s.rows - 1, c) == last[c]);
    } else {
      CHECK(s.rows == 600);  // every 1 s of GPU steps, 1 s to 600 s
    }
  }
  CHECK(present > 80);
  std::filesystem::remove(out);
}

TEST_CASE("output table: derived rows agree with the rows they come from", "[observables]") {
  Frames frames;
  Scenario sc;
  sc.duration = 900;
  sc.output_interval = 60;
  std::vector<RunSink*> sinks{&frames};
  const RunReport rep =
      runFacility(loadFacility(kData + "facilities/pod_gb200.yaml"), sc, RunSettings{}, sinks);
  REQUIRE(rep.result.ok);
  const RunLayout& L = frames.L;
  for (const OutputFrame& f : frames.rows) {
    double P = 0;
    for (double x : f.get(Obs::RackP)) P += x;
    CHECK(f.scalar(Obs::FacilityPIT) == Approx(P).epsilon(1e-12));
    const auto Tj = f.get(Obs::GpuTJunction), clk = f.get(Obs::GpuClockRatio);
    for (int r = 0; r < L.nrack; ++r) {
      double vmax = -1e300, sum = 0;
      for (int q = 0; q < L.rack_gpunum[r]; ++q) {
        vmax = std::max(vmax, Tj[L.rack_gpuadr[r] + q]);
        sum += clk[L.rack_gpuadr[r] + q];
      }
      CHECK(f.get(Obs::RackGpuTJunctionMax)[r] == vmax);
      CHECK(f.get(Obs::RackGpuClockMean)[r] == Approx(sum / L.rack_gpunum[r]));
    }
    const double E_loss = f.scalar(Obs::EnergyPsuLoss) + f.scalar(Obs::EnergyBuswayLoss) +
                          f.scalar(Obs::EnergyUpsLoss) + f.scalar(Obs::EnergyTransformerLoss);
    CHECK(f.scalar(Obs::EnergyPowerChainLoss) == Approx(E_loss).epsilon(1e-12));
  }
  // the summary reads the same frames
  CHECK(rep.summary.P_IT == frames.rows.back().scalar(Obs::FacilityPIT));
  CHECK(rep.summary.jobs.at(0).throughput_ratio ==
        frames.rows.back().get(Obs::JobThroughputRatio)[0]);
}

TEST_CASE("HBM over its maximum operating temperature is an alarm of the library, once per rack",
          "[observables][faults]") {
  Frames frames;
  const Scenario sc = loadScenario(kData + "scenarios/pod_pump_failure_no_redundancy.yaml");
  RunSettings set;
  set.duration = 1200;
  std::vector<RunSink*> sinks{&frames};
  // the job stalls at a dead GPU (the GPUs left run on to the barrier and heat their HBM): with
  // the pod's restart the first GPU shut down fails the job, every GPU idles and, with GPU
  // variation, no HBM may reach its limit
  FacilitySpec spec = loadFacility(kData + "facilities/pod_gb200.yaml");
  for (auto& j : spec.jobs) j.training.restart_on_failure = false;
  const RunReport rep = runFacility(spec, sc, set, sinks);
  REQUIRE(rep.result.ok);
  const RunLayout& L = frames.L;
  std::map<std::string, double> first;  // rack -> alarm time
  for (const EventRecord& e : rep.result.events)
    if (e.kind == "hbm_over_temperature") {
      CHECK(e.severity == "warning");
      CHECK_FALSE(first.count(e.component));
      first[e.component] = e.time;
    }
  REQUIRE_FALSE(first.empty());
  // a rack alarms only if its HBM reached the limit of its GPU type (interval maxima: by the
  // first row after the alarm)
  for (int r = 0; r < L.nrack; ++r) {
    double t_hot = -1;
    for (const OutputFrame& f : frames.rows) {
      bool hot = false;
      for (int q = 0; q < L.rack_gpunum[r]; ++q) {
        const int i = L.rack_gpuadr[r] + q;
        hot = hot || f.get(Obs::GpuTHbm)[i] >= L.gpu_T_hbm_max[i];
      }
      if (hot) {
        t_hot = f.t;
        break;
      }
    }
    const std::string who = "rack " + L.rack_name[r];
    INFO(who);
    CHECK(first.count(who) == (t_hot >= 0 ? 1u : 0u));
    if (t_hot >= 0) CHECK(first[who] <= t_hot + 1e-9);
  }
}

TEST_CASE("series semantics: power as interval means, PUE from energies, throttling per reason",
          "[observables]") {
  Frames frames;
  Scenario sc;
  sc.duration = 1800;  // the job starts at 5 min
  sc.output_interval = 30;
  std::vector<RunSink*> sinks{&frames};
  const RunReport rep =
      runFacility(loadFacility(kData + "facilities/pod_gb200.yaml"), sc, RunSettings{}, sinks);
  REQUIRE(rep.result.ok);
  REQUIRE(frames.rows.size() == 61);
  // rows 1..: means over their intervals (row 0, t = 0, holds the instant)
  double P_total = 0, P_it = 0;
  for (std::size_t k = 1; k < frames.rows.size(); ++k) {
    P_total += frames.rows[k].scalar(Obs::FacilityPTotal);
    P_it += frames.rows[k].scalar(Obs::FacilityPITIn);
  }
  const OutputFrame& last = frames.rows.back();
  // the pod has air handlers (docs/models/air_handler.md): their fans and chiller are cooling
  const double pue_energy =
      (last.scalar(Obs::EnergyUtility) + last.scalar(Obs::EnergyPumpElectric) +
       last.scalar(Obs::EnergyAirHandlerFans) + last.scalar(Obs::EnergyAirHandlerChiller)) /
      (last.scalar(Obs::EnergyIt) + last.scalar(Obs::EnergyPsuLoss));
  INFO("mean P_total / mean P_IT_in " << P_total / P_it << ", energy PUE " << pue_energy);
  CHECK(P_total / P_it == Approx(pue_energy).epsilon(1e-3));
  CHECK(P_total / P_it == Approx(pue_energy).epsilon(1e-9));  // exactly, up to rounding
  // the summary's PUE is the same energy ratio
  const RunSummary& s = rep.summary;
  CHECK((s.E_utility + s.E_pump + s.E_ah_fans + s.E_ah_chiller) / (s.E_it_dc + s.E_psu) ==
        Approx(pue_energy).epsilon(1e-12));
  for (std::size_t k = 1; k < frames.rows.size(); ++k) {
    const OutputFrame& f = frames.rows[k];
    double P_in = 0;
    for (double x : f.get(Obs::RackPIn)) P_in += x;
    CHECK(f.scalar(Obs::FacilityPITIn) == Approx(P_in).epsilon(1e-12));
    CHECK(f.scalar(Obs::FacilityPUE) ==
          Approx(f.scalar(Obs::FacilityPTotal) / f.scalar(Obs::FacilityPITIn)).epsilon(1e-12));
    // the interval shares are fractions of GPU-time
    for (Obs id : {Obs::RackThrottlePowerCap, Obs::RackThrottleThermal, Obs::RackThrottlePowerBrake,
                   Obs::RackThrottleHwSlowdown, Obs::RackGpuThrottledShare})
      for (double x : f.get(id)) {
        CHECK(x >= 0.0);
        CHECK(x <= 1.0 + 1e-12);
      }
  }
  // the training job runs under the power cap most of the time: that time is accounted for
  const double capped = last.scalar(Obs::FacilityGpuSecondsPowerCapped);
  CHECK(capped > 0.5 * 576 * (1800 - 300));
  CHECK(last.get(Obs::JobPowerCappedGpuSeconds)[0] == Approx(capped));
  double share = 0;
  for (double x : last.get(Obs::RackThrottlePowerCap)) share += x / 8;
  CHECK(share > 0.5);
  // the heat-load-only rack node is NaN for racks with resolved GPUs
  for (double x : last.get(Obs::RackTCase)) CHECK(std::isnan(x));
  // current and cumulative job throughput: both near the cumulative one in a steady run
  const double cum = last.get(Obs::JobThroughputRatio)[0];
  const double cur = last.get(Obs::JobThroughputRatioInterval)[0];
  CHECK(cur == Approx(cum).epsilon(0.02));
  CHECK(last.get(Obs::JobProgressRatioInterval)[0] == Approx(cum).epsilon(0.15));  // quantized
  // before the job starts (5 min): no current progress (NaN), cumulative progress 0
  CHECK(std::isnan(frames.rows[5].get(Obs::JobProgressRatioInterval)[0]));
}

TEST_CASE("layout table: every static dataset once, with its values and where it is read",
          "[observables][layout]") {
  std::set<std::string> paths;
  int k = 0;
  for (const LayoutInfo& r : layoutTable()) {
    INFO(r.path);
    CHECK(int(r.id) == k++);
    CHECK(paths.insert(r.path).second);
    CHECK((r.strings != nullptr) != (r.ints != nullptr));  // one kind of values
    CHECK(std::string(r.description).size() > 3);
    CHECK(findLayout(r.path) == &r);
    CHECK(std::string(layoutPath(r.id)) == r.path);
    // no series shares a static dataset's path
    CHECK(findObservable(r.path) == nullptr);
  }
  CHECK(findLayout("/rack/T_supply") == nullptr);
  // each shape with named columns has its names: strings along that shape
  for (Shape s :
       {Shape::Cdu, Shape::Rack, Shape::Job, Shape::Busway, Shape::AirRack, Shape::SwitchRack}) {
    const LayoutInfo* n = layoutNames(s);
    REQUIRE(n != nullptr);
    CHECK(n->dim == s);
    CHECK(n->strings != nullptr);
  }
  CHECK(layoutNames(Shape::Gpu) == nullptr);
  const std::string md = layoutMarkdown();
  for (const std::string& p : paths) CHECK(md.find("`" + p + "`") != std::string::npos);

  // runs whose layouts have every row between them: a pod with switch racks, its racks given
  // halls, and a block with air-cooled racks. The file holds each row the run has, with the
  // run's values; a reader that asks for no series still gets them; layoutOfResults gives them
  // back with their counts
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_layout_test.h5").string();
  FacilitySpec fabric = loadFacility(kData + "facilities/pod_gb200_fabric.yaml");
  for (std::size_t r = 0; r < fabric.racks.size(); ++r)
    fabric.racks[r].hall = r < fabric.racks.size() / 2 ? "H1" : "H2";
  const FacilitySpec block = loadFacility(kData + "facilities/datasheet_block.yaml");
  std::set<std::string> seen;
  for (const FacilitySpec* spec : {static_cast<const FacilitySpec*>(&fabric), &block}) {
    INFO(spec->name);
    Frames frames;
    Scenario sc;
    sc.duration = 60;
    sc.output_interval = 60;
    {
      Hdf5Sink h5(out, 10, 0.0);
      std::vector<RunSink*> sinks{&frames, &h5};
      REQUIRE(runFacility(*spec, sc, RunSettings{}, sinks).result.ok);
    }
    const RunLayout& L = frames.L;
    ResultsReadOptions none;
    none.want = [](const std::string&) { return false; };
    const ResultsData d = readResults(out, none);
    const RunLayout back = layoutOfResults(d);
    for (const LayoutInfo& r : layoutTable()) {
      INFO(r.path);
      const bool present = layoutPresent(r, L);
      if (present) seen.insert(r.path);
      if (r.strings) {
        REQUIRE(d.strings.count(r.path) == (present ? 1u : 0u));
        if (present) CHECK(d.strings.at(r.path) == L.*r.strings);
        if (present) CHECK(back.*r.strings == L.*r.strings);
      } else {
        REQUIRE(d.integers.count(r.path) == (present ? 1u : 0u));
        if (!present) continue;
        const std::vector<int>& v = L.*r.ints;
        CHECK(d.integers.at(r.path) == std::vector<long long>(v.begin(), v.end()));
        CHECK(back.*r.ints == v);
      }
    }
    CHECK(back.nrack == L.nrack);
    CHECK(back.ncdu == L.ncdu);
    CHECK(back.ngpu == L.ngpu);
    CHECK(back.njob == L.njob);
    CHECK(back.nbusway == L.nbusway);
    CHECK(back.has_power == L.has_power);
    CHECK(back.nair == L.nair);
    CHECK(back.nsw == L.nsw);
    for (const auto& [p, series] : d.series)  // (no series asked for: the axis, the event log)
      CHECK((p == "/time" || p.rfind("/events/", 0) == 0));
  }
  CHECK(seen == paths);  // every row was written by one of the runs
  std::filesystem::remove(out);
}
