// job_outputs_test.cpp: the described jobs' step model as outputs (item 6): the job
// table (DCTWIN_JOB_MODEL), the results file's /job/model/* with units, description and basis,
// the achieved rows /job/tokens_per_second and /job/mfu, the layout read back from a file, the
// CLI summary's lines, and a job that is not described (no table, NaN rows)
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "solver/compile/compile.h"
#include "solver/input/loader.h"
#include "solver/output/results_reader.h"
#include "solver/output/sinks.h"
#include "solver/run/run.h"

using namespace dctwin;

namespace {

const std::string kData = std::string(DCTWIN_SOURCE_DIR) + "/data/";

struct LastFrame : RunSink {
  RunLayout L;
  FrameLayout F;
  OutputFrame last;
  void begin(const RunLayout& l, const FrameLayout& f) override { L = l, F = f; }
  void row(const OutputFrame& f) override {
    last = f;
    last.layout = &F;
    last.events = nullptr;
    last.stats = nullptr;
  }
};

bool same(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

TEST_CASE("job table: every column has a unique name, a unit and a description, in the markdown",
          "[jobs][outputs]") {
  std::set<std::string> names;
  int k = 0;
  const std::string md = jobModelMarkdown();
  for (const JobModelInfo& c : jobModelTable()) {
    INFO(c.name);
    CHECK(int(c.id) == k++);
    CHECK(names.insert(c.name).second);
    CHECK(std::string(c.unit).size() > 0);
    CHECK(std::string(c.description).size() > 10);
    CHECK(&jobModelColumn(c.id) == &c);
    CHECK(jobModelPath(c.id) == std::string("/job/model/") + c.name);
    CHECK(md.find(jobModelPath(c.id) + "` | `[J]`") != std::string::npos);
    // not a series: no path of the output table
    CHECK(findObservable(jobModelPath(c.id)) == nullptr);
  }
  CHECK(k == kJobModelCount);
  CHECK(md.find("`/job/model/recompute_name`") != std::string::npos);
  CHECK(std::string(jobRecomputeName(0)) == "none");
  CHECK(std::string(jobRecomputeName(1)) == "selective");
  CHECK(std::string(jobRecomputeName(2)) == "full");
  CHECK(std::string(jobRecomputeName(std::nan(""))).empty());
}

TEST_CASE(
    "default pod: the described job's step model in the layout, the results file (/job/model/*, "
    "units and basis nominal) and the summary, achieved tokens/s and MFU from the iteration time",
    "[jobs][outputs][results]") {
  const FacilitySpec spec = loadFacility(kData + "facilities/pod_gb200.yaml");
  const FacilityModel m = compileFacility(spec);
  REQUIRE(m.job_described.size() == 1);
  const DescribedJob& d = m.job_described[0];
  REQUIRE(d.step_time > 0);
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_job_outputs_test.h5").string();
  LastFrame frames;
  Scenario sc;
  sc.duration = 600;  // the job starts at 5 min: ~80 iterations
  sc.output_interval = 60;
  RunReport rep;
  {
    Hdf5Sink h5(out);
    std::vector<RunSink*> sinks{&frames, &h5};
    rep = runFacility(spec, sc, RunSettings{}, sinks);
  }
  REQUIRE(rep.result.ok);
  const RunLayout& L = rep.layout;
  // the layout holds the model's numbers, as it computed them
  REQUIRE(L.job_model.size() == std::size_t(kJobModelCount));
  CHECK(L.jobDescribed(0));
  CHECK(L.jobModel(0, JobCol::StepTime) == d.step_time);
  CHECK(L.jobModel(0, JobCol::TokensPerSecond) == d.tokens_per_second);
  CHECK(L.jobModel(0, JobCol::Mfu) == d.mfu);
  CHECK(L.jobModel(0, JobCol::Flops) == d.flops);
  CHECK(L.jobModel(0, JobCol::Parameters) == d.parameters);
  CHECK(L.jobModel(0, JobCol::MemoryPerGpu) == d.memory_per_gpu);
  CHECK(L.jobModel(0, JobCol::MemoryWeights) == d.mem_weights);
  CHECK(L.jobModel(0, JobCol::MemoryGradients) == d.mem_gradients);
  CHECK(L.jobModel(0, JobCol::MemoryOptimizer) == d.mem_optimizer);
  CHECK(L.jobModel(0, JobCol::MemoryActivations) == d.mem_activations);
  CHECK(L.jobModel(0, JobCol::MicroBatches) == 32);
  CHECK(L.jobModel(0, JobCol::DataParallel) == 18);
  CHECK(std::string(jobRecomputeName(L.jobModel(0, JobCol::Recompute))) ==
        recomputeName(d.recompute));
  // the memory breakdown adds up, and fits the GPU's HBM
  CHECK(d.mem_weights + d.mem_gradients + d.mem_optimizer + d.mem_activations ==
        Approx(d.memory_per_gpu).epsilon(1e-12));
  CHECK(L.jobModel(0, JobCol::HbmCapacity) > d.memory_per_gpu);
  // MFU by its stated count: flops / (step x GPUs x dense BF16 peak)
  const GpuParams& gp = m.gpu_types[m.gpu_type[m.job_gpus[0][0]]];
  CHECK(d.mfu == Approx(d.flops / (d.step_time * double(m.job_gpus[0].size()) * gp.peak_flops))
                     .epsilon(1e-12));
  // the file: one dataset per column, with units, basis "nominal", equal to the layout
  const ResultsData r = readResults(out);
  for (const JobModelInfo& c : jobModelTable()) {
    INFO(c.name);
    const ResultsSeries* s = r.find(jobModelPath(c.id));
    REQUIRE(s != nullptr);
    CHECK(s->units == c.unit);
    CHECK(s->basis == "nominal");
    CHECK(s->rows == 1);
    CHECK(same(s->at(0), L.jobModel(0, c.id)));
  }
  REQUIRE(r.strings.count("/job/model/recompute_name"));
  CHECK(r.strings.at("/job/model/recompute_name")[0] == recomputeName(d.recompute));
  const std::vector<double> back = jobModelTable(r);
  REQUIRE(back.size() == L.job_model.size());
  for (std::size_t k = 0; k < back.size(); ++k) CHECK(same(back[k], L.job_model[k]));
  // achieved: the model's value x its step / the run's mean iteration time, in the file too
  const OutputFrame& f = frames.last;
  const double T = f.get(Obs::JobIterationTime)[0];
  REQUIRE(T > 0);
  CHECK(f.get(Obs::JobMfu)[0] == Approx(d.mfu * d.step_time / T).epsilon(1e-14));
  CHECK(f.get(Obs::JobTokensPerSecond)[0] ==
        Approx(d.tokens_per_second * d.step_time / T).epsilon(1e-14));
  CHECK(f.get(Obs::JobTokensPerSecond)[0] * T == Approx(4718592.0).epsilon(1e-12));  // the file's
  const ResultsSeries* mfu = r.find(obsPath(Obs::JobMfu));
  REQUIRE(mfu != nullptr);
  CHECK(mfu->basis == "run mean");
  CHECK(mfu->at(mfu->rows - 1, 0) == f.get(Obs::JobMfu)[0]);
  CHECK(std::isnan(mfu->at(0, 0)));  // before the job's first iteration
  // the CLI summary: nominal and achieved, memory, micro-batches and recompute, in human units
  const std::string text = rep.text();
  INFO(text);
  char b[160];
  std::snprintf(b, sizeof b, "step model: step %.3f s nominal, %.3f s achieved", d.step_time, T);
  CHECK(text.find(b) != std::string::npos);
  std::snprintf(b, sizeof b, "MFU %.1f %% nominal, %.1f %% achieved", 100 * d.mfu,
                100 * f.get(Obs::JobMfu)[0]);
  CHECK(text.find(b) != std::string::npos);
  std::snprintf(b, sizeof b, "memory per GPU %.1f GB of %.1f GB", d.memory_per_gpu / 1e9,
                gp.hbm_capacity / 1e9);
  CHECK(text.find(b) != std::string::npos);
  CHECK(text.find(std::string("32 micro-batches, dp 18, recompute ") +
                  recomputeName(d.recompute)) != std::string::npos);
  std::filesystem::remove(out);
}

TEST_CASE("a job that is not described has no step-model table and NaN achieved rows",
          "[jobs][outputs][results]") {
  const std::string out =
      (std::filesystem::temp_directory_path() / "dctwin_job_outputs_plain.h5").string();
  LastFrame frames;
  Scenario sc;
  sc.duration = 120;
  sc.output_interval = 60;
  RunReport rep;
  {
    Hdf5Sink h5(out);
    std::vector<RunSink*> sinks{&frames, &h5};
    // the default pod with its job given as the fixed default iteration instead of described
    std::ifstream in(kData + "facilities/pod_gb200.yaml");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t a = text.find("    workload:"), b = text.find("    checkpoint_interval:");
    REQUIRE(a != std::string::npos);
    REQUIRE(b > a);
    text.replace(a, b - a, "    phases: default\n");
    rep = runFacility(loadFacilityFromString(text, kData + "facilities/pod_plain.yaml"), sc,
                      RunSettings{}, sinks);
  }
  REQUIRE(rep.result.ok);
  REQUIRE(rep.layout.njob == 1);
  CHECK_FALSE(rep.layout.jobDescribed(0));
  CHECK(std::isnan(rep.layout.jobModel(0, JobCol::StepTime)));
  CHECK(std::isnan(frames.last.get(Obs::JobMfu)[0]));
  CHECK(std::isnan(frames.last.get(Obs::JobTokensPerSecond)[0]));
  const ResultsData r = readResults(out);
  CHECK(r.find(jobModelPath(JobCol::StepTime)) == nullptr);
  CHECK(r.strings.count("/job/model/recompute_name") == 0);
  for (double v : jobModelTable(r)) CHECK(std::isnan(v));
  CHECK(rep.text().find("step model") == std::string::npos);
  std::filesystem::remove(out);
}
