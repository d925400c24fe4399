#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

#include "models/gpu_batch.h"
#include "models/job_fast.h"
#include "models/workload.h"
#include "tests/models/hwy_targets.h"

using namespace dctwin;

namespace {

// steps a job on the grid t_k = t0 + k dt (no drift from summing dt); the last step is shortened
// to land on t_end. `before` may change speeds/alive for the step starting at t; `after` sees out.
struct Runner {
  const TrainingJobSpec& job;
  JobState st;
  std::vector<double> vc, vm;
  std::vector<char> alive;
  std::vector<Utilization> out;
  long k = 0;
  double t0 = 0, dt = 0.01;

  Runner(const TrainingJobSpec& j, int n, double dt_, double t0_ = 0)
      : job(j),
        st(makeJobState(j, n)),
        vc(n, 1.0),
        vm(n, 1.0),
        alive(n, 1),
        out(n),
        t0(t0_),
        dt(dt_) {}

  double now() const { return t0 + static_cast<double>(k) * dt; }

  void runTo(double t_end, const std::function<void(double)>& before = {},
             const std::function<void(double, double)>& after = {}) {
    while (now() < t_end - 1e-12) {
      double t = now();
      double h = std::min(dt, t_end - t);
      if (before) before(t);
      stepTrainingJob(job, st, t, h, vc, vm, alive, out);
      if (after) after(t, h);
      if (h < dt) {  // shortened last step: continue the grid from t_end
        t0 = t_end;
        k = 0;
      } else {
        ++k;
      }
    }
  }
};

// sums of the default phases by bound (s)
struct Shares {
  double compute = 0, memory = 0, other = 0, sm_time = 0;
};
Shares shares(const TrainingJobSpec& job) {
  Shares s;
  for (const PhaseSpec& p : job.phases) {
    if (p.bound == PhaseSpec::Bound::Compute)
      s.compute += p.duration;
    else if (p.bound == PhaseSpec::Bound::Memory)
      s.memory += p.duration;
    else
      s.other += p.duration;
    s.sm_time += p.duration * p.a_sm;
  }
  return s;
}

}  // namespace

TEST_CASE("default job: reference iteration time and throughput ratio 1 at reference speeds",
          "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  REQUIRE(referenceIterationTime(job) == Approx(3.0).epsilon(1e-15));
  Shares s = shares(job);
  CHECK(s.compute == Approx(2.4));  // backward = 2 x forward, 80 % compute
  CHECK(job.phases[1].duration == Approx(2 * job.phases[0].duration));

  Runner r(job, 8, 0.01);
  r.runTo(30.5);
  CHECK(r.st.iterations == 10);
  CHECK(r.st.t_last_iteration_end == Approx(30.0).margin(1e-9));
  CHECK(r.st.min_iteration_time == Approx(3.0).margin(1e-9));
  CHECK(r.st.max_iteration_time == Approx(3.0).margin(1e-9));
  CHECK(r.st.last_iteration_time == Approx(3.0).margin(1e-9));
  CHECK(throughputRatio(r.st) == Approx(1.0).epsilon(1e-12));
  CHECK(meanIterationTime(r.st) == Approx(3.0).epsilon(1e-12));
  CHECK(r.st.stalled_time == 0.0);
  for (const GpuProgress& g : r.st.gpu) CHECK(g.wait_time == Approx(0.0).margin(1e-9));
  // 30.5 s: 0.5 s into the forward pass of iteration 11
  CHECK(currentPhaseName(job, r.st, 0) == "forward");
  CHECK(currentPhaseBound(job, r.st, 0) == PhaseSpec::Bound::Compute);
  CHECK(r.st.gpu[0].work == Approx(0.5).margin(1e-9));
}

TEST_CASE("straggler: one slow GPU sets the iteration time and the others wait at the barrier",
          "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  Shares s = shares(job);
  const int n = 8, slow = 3;

  SECTION("compute speed 0.8 on one GPU") {
    // forward + backward lie before the all-reduce barrier: T = D + C (1/0.8 - 1)
    const double T = 3.0 + s.compute * (1 / 0.8 - 1);
    REQUIRE(T == Approx(3.6));
    Runner r(job, n, 0.01);
    r.vc[slow] = 0.8;
    r.runTo(10 * T + 0.5);
    CHECK(r.st.iterations == 10);
    CHECK(r.st.t_last_iteration_end == Approx(10 * T).margin(1e-9));
    CHECK(r.st.min_iteration_time == Approx(T).margin(1e-9));
    CHECK(r.st.max_iteration_time == Approx(T).margin(1e-9));
    CHECK(throughputRatio(r.st) == Approx(3.0 / T).epsilon(1e-10));
    for (int g = 0; g < n; ++g) {
      // the others wait s.compute (1/0.8 - 1) = 0.6 s per iteration (plus 0.5 s into the 11th:
      // nobody has reached the barrier yet)
      double expected = g == slow ? 0.0 : 10 * s.compute * (1 / 0.8 - 1);
      CHECK(r.st.gpu[g].wait_time == Approx(expected).margin(1e-9));
    }
  }
  SECTION("HBM speed 0.5 on one GPU: the optimizer after the barrier waits at the iteration end") {
    const double T = 3.0 + s.memory * (1 / 0.5 - 1);
    Runner r(job, n, 0.01);
    r.vm[slow] = 0.5;
    r.runTo(10 * T + 0.5);
    CHECK(r.st.iterations == 10);
    CHECK(r.st.t_last_iteration_end == Approx(10 * T).margin(1e-9));
    for (int g = 0; g < n; ++g)
      CHECK(r.st.gpu[g].wait_time == Approx(g == slow ? 0.0 : 10 * s.memory).margin(1e-9));
  }
}

TEST_CASE("phase bounds: compute speed scales compute phases only, memory speed memory phases",
          "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  Shares s = shares(job);
  for (double vc : {1.0, 0.8, 0.5})
    for (double vm : {1.0, 0.5}) {
      // communication and idle phases run at rate 1 whatever the clocks
      const double T = s.compute / vc + s.memory / vm + s.other;
      Runner r(job, 4, 0.02);
      std::fill(r.vc.begin(), r.vc.end(), vc);
      std::fill(r.vm.begin(), r.vm.end(), vm);
      r.runTo(5 * T + 0.1);
      CAPTURE(vc, vm);
      CHECK(r.st.iterations == 5);
      CHECK(r.st.t_last_iteration_end == Approx(5 * T).margin(1e-9));
      for (const GpuProgress& g : r.st.gpu) CHECK(g.wait_time == Approx(0.0).margin(1e-9));
    }
}

TEST_CASE("phase boundaries inside a step: dt = 1 ms and dt = 37 ms agree to 1e-9", "[workload]") {
  using B = PhaseSpec::Bound;
  TrainingJobSpec job;
  job.phases = {{"forward", 0.31, B::Compute, 0.9, 0.35, 0.3, 0.1, false},
                {"p2p", 0.013, B::Communication, 0.2, 0.2, 0.5, 0.3, false},
                {"backward", 0.67, B::Compute, 0.9, 0.35, 0.3, 0.1, false},
                {"allreduce", 0.11, B::Communication, 0.3, 0.2, 0.6, 0.8, true},
                {"optimizer", 0.07, B::Memory, 0.3, 0.9, 0.0, 0.0, false},
                {"allgather", 0.05, B::Communication, 0.3, 0.2, 0.6, 0.8, true},
                {"empty", 0.0, B::Idle, 0.0, 0.0, 0.0, 0.0, false}};
  job.start = 0.123;
  job.checkpoint_interval = 7.7;
  job.checkpoint_duration = 0.9;
  const int n = 5;
  auto run = [&](double dt) {
    Runner r(job, n, dt);
    const double vc[n] = {1.0, 0.83, 0.97, 1.0, 0.91};
    const double vm[n] = {1.0, 1.0, 0.5, 0.77, 1.0};
    for (int g = 0; g < n; ++g) r.vc[g] = vc[g], r.vm[g] = vm[g];
    double sm_integral = 0;
    r.runTo(100.3, {}, [&](double, double h) { sm_integral += r.out[1].a_sm * h; });
    return std::make_pair(r.st, sm_integral);
  };
  auto [a, sa] = run(0.001);
  auto [b, sb] = run(0.037);
  REQUIRE(a.iterations > 50);
  CHECK(a.iterations == b.iterations);
  CHECK(a.checkpoints == b.checkpoints);
  CHECK(a.checkpoints > 5);
  CHECK(a.t_last_iteration_end == Approx(b.t_last_iteration_end).margin(1e-9));
  CHECK(a.sum_iteration_time == Approx(b.sum_iteration_time).margin(1e-9));
  CHECK(a.min_iteration_time == Approx(b.min_iteration_time).margin(1e-9));
  CHECK(a.max_iteration_time == Approx(b.max_iteration_time).margin(1e-9));
  for (int g = 0; g < n; ++g) {
    CHECK(a.gpu[g].wait_time == Approx(b.gpu[g].wait_time).margin(1e-9));
    CHECK(a.gpu[g].phase == b.gpu[g].phase);
    CHECK(a.gpu[g].work == Approx(b.gpu[g].work).margin(1e-9));
  }
  // the step averages integrate to the same SM activity
  CHECK(sa == Approx(sb).margin(1e-9));
}

TEST_CASE("healthy job: periodic utilization, time average = duration-weighted phase average",
          "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  Shares s = shares(job);
  const double a_mean = s.sm_time / 3.0;  // (0.72 + 1.44 + 0.006 + 0.02 + 0.0225) / 3
  REQUIRE(a_mean == Approx(2.2085 / 3.0));

  SECTION("dt = 30 ms: 100 steps per period, the waveform repeats") {
    Runner r(job, 4, 0.03);
    std::vector<Utilization> w;
    r.runTo(9.0, {}, [&](double, double) {
      w.push_back(r.out[0]);
      for (int g = 1; g < 4; ++g) CHECK(r.out[g].a_sm == r.out[0].a_sm);
    });
    REQUIRE(w.size() == 300);
    double sum = 0;
    for (std::size_t i = 0; i < 200; ++i) {
      CHECK(w[i + 100].a_sm == Approx(w[i].a_sm).margin(1e-9));
      CHECK(w[i + 100].a_hbm == Approx(w[i].a_hbm).margin(1e-9));
      CHECK(w[i + 100].a_network == Approx(w[i].a_network).margin(1e-9));
    }
    for (std::size_t i = 0; i < 100; ++i) sum += w[i].a_sm * 0.03;
    CHECK(sum / 3.0 == Approx(a_mean).epsilon(1e-12));
    CHECK(w[10].a_sm == Approx(0.9));  // inside the forward pass
    CHECK(w[10].compute_bound == Approx(1.0));
    CHECK(w[95].a_hbm == Approx(0.9));  // inside the optimizer (2.85-3.0 s)
    CHECK(w[95].memory_bound == Approx(1.0));
  }
  SECTION("dt = 70 ms: steps straddle every boundary, the integral is still exact") {
    Runner r(job, 2, 0.07);
    double sm = 0, hbm = 0, cb = 0;
    r.runTo(21.0, {}, [&](double, double h) {
      sm += r.out[1].a_sm * h;
      hbm += r.out[1].a_hbm * h;
      cb += r.out[1].compute_bound * h;
    });
    CHECK(sm / 21.0 == Approx(a_mean).epsilon(1e-12));
    double hbm_time = 0;
    for (const PhaseSpec& p : job.phases) hbm_time += p.duration * p.a_hbm;
    CHECK(hbm / 21.0 == Approx(hbm_time / 3.0).epsilon(1e-12));
    CHECK(cb / 21.0 == Approx(s.compute / 3.0).epsilon(1e-12));
  }
}

TEST_CASE("checkpoints add checkpoint_duration at the first iteration end of each interval",
          "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  job.checkpoint_interval = 10.0;  // ceil(10 / 3) = 4 iterations per checkpoint
  job.checkpoint_duration = 2.0;
  CHECK(referenceIterationTime(job) == Approx(3.0 + 2.0 / 4));
  Runner r(job, 4, 0.01);
  bool seen_checkpoint = false;
  r.runTo(40.5, {}, [&](double t, double) {
    if (t > 12.5 && t < 13.5) {  // 12-14 s: writing the first checkpoint
      CHECK(currentPhaseName(job, r.st, 0) == "checkpoint");
      CHECK(r.out[0].a_network == Approx(0.5));
      CHECK(r.out[0].a_sm == Approx(0.03));
      seen_checkpoint = true;
    }
  });
  CHECK(seen_checkpoint);
  // ends: 3 6 9 12 | ckpt 12-14 | 17 20 23 26 | ckpt 26-28 | 31 34 37 40 | ckpt 40-42
  CHECK(r.st.iterations == 12);
  CHECK(r.st.checkpoints == 2);
  CHECK(r.st.t_last_checkpoint_end == Approx(28.0).margin(1e-9));
  CHECK(r.st.t_last_iteration_end == Approx(40.0).margin(1e-9));
  CHECK(r.st.min_iteration_time == Approx(3.0).margin(1e-9));
  CHECK(r.st.max_iteration_time == Approx(5.0).margin(1e-9));
  CHECK(currentPhaseName(job, r.st, 2) == "checkpoint");
  // over many cycles the throughput ratio tends to 1 (the last checkpoint is not yet charged)
  r.runTo(40.0 + 14.0 * 100 + 0.5);
  CHECK(r.st.iterations == 12 + 400);
  CHECK(r.st.checkpoints == 102);
  CHECK(throughputRatio(r.st) == Approx(3.5 * 412 / (3.5 * 412 - 2.0)).epsilon(1e-9));

  SECTION("an interval shorter than an iteration checkpoints after every iteration") {
    job.checkpoint_interval = 1.0;
    CHECK(referenceIterationTime(job) == Approx(5.0));
  }
  SECTION("no checkpoint without a duration") {
    job.checkpoint_duration = 0;
    CHECK(referenceIterationTime(job) == Approx(3.0));
  }
}

TEST_CASE("a dead GPU stalls the job at the next barrier, the job resumes when it returns",
          "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  const int n = 4, dead = 2;
  Runner r(job, n, 0.01);
  // dead from 4.0 s (0.2 s into the backward pass of iteration 2) to 10.0 s
  auto power = [&](double t) { r.alive[dead] = (t < 4.0 - 1e-9 || t >= 10.0 - 1e-9) ? 1 : 0; };
  bool checked = false;
  r.runTo(10.0, power, [&](double t, double) {
    if (t > 7.0 && !checked) {  // stalled: live GPUs idle at the all-reduce, the dead one off
      CHECK(r.out[dead].a_sm == 0.0);
      CHECK(r.out[dead].a_network == 0.0);
      CHECK(r.out[0].a_sm == job.idle.a_sm);
      CHECK(currentPhaseName(job, r.st, 0) == "allreduce");
      CHECK(r.st.gpu[0].waiting);
      checked = true;
    }
  });
  CHECK(checked);
  CHECK(r.st.iterations == 1);
  // the live GPUs reach the all-reduce at 3.0 + 0.8 + 1.6 + 0.2 = 5.6 s
  CHECK(r.st.stalled_time == Approx(10.0 - 5.6).margin(1e-9));
  CHECK(r.st.gpu[0].wait_time == Approx(4.4).margin(1e-9));
  CHECK(r.st.gpu[dead].wait_time == 0.0);
  // back at 10 s with 1.4 s of backward and the 0.2 s bubble left: barrier at 11.6, end at 12.0
  r.runTo(12.5, power);
  CHECK(r.st.iterations == 2);
  CHECK(r.st.t_last_iteration_end == Approx(12.0).margin(1e-9));
  CHECK(r.st.max_iteration_time == Approx(9.0).margin(1e-9));
  CHECK(r.st.stalled_time == Approx(4.4).margin(1e-9));
  CHECK(r.st.gpu[0].wait_time == Approx(6.0).margin(1e-9));
  CHECK(r.st.gpu[dead].wait_time == Approx(0.0).margin(1e-9));
}

TEST_CASE("job start and stop: idle outside, straddling steps averaged", "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  job.start = 1.0;
  job.stop = 8.0;
  job.idle.a_sm = 0.02;
  Runner r(job, 2, 0.01, -0.005);  // steps straddle the start and the stop
  r.runTo(10.0, {}, [&](double t, double) {
    if (t < 0.9) CHECK(r.out[0].a_sm == Approx(0.02));
    if (std::abs(t - 0.995) < 1e-9) CHECK(r.out[0].a_sm == Approx(0.5 * 0.02 + 0.5 * 0.9));
    if (t > 8.1) CHECK(r.out[1].a_sm == Approx(0.02));
  });
  CHECK(r.st.iterations == 2);  // ends at 4 and 7
  CHECK(r.st.t_last_iteration_end == Approx(7.0).margin(1e-9));
  CHECK(r.st.min_iteration_time == Approx(3.0).margin(1e-9));
  // frozen at the stop, 0.2 s into the backward pass
  CHECK(currentPhaseName(job, r.st, 0) == "backward");
  CHECK(r.st.gpu[0].work == Approx(0.2).margin(1e-9));
  CHECK(r.st.gpu[0].wait_time == 0.0);
}

TEST_CASE("no allocation while stepping: state and spans keep their storage", "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  job.checkpoint_interval = 5;
  job.checkpoint_duration = 1;
  Runner r(job, 16, 0.02);
  r.vc[5] = 0.7;
  const auto* data = r.st.gpu.data();
  const auto cap = r.st.gpu.capacity();
  const auto* pdata = job.phases.data();
  r.runTo(60.0, [&](double t) { r.alive[9] = t < 30 || t > 40; });
  CHECK(r.st.gpu.data() == data);
  CHECK(r.st.gpu.capacity() == cap);
  CHECK(r.st.gpu.size() == 16);
  CHECK(job.phases.data() == pdata);
  CHECK(r.st.iterations > 5);
}

TEST_CASE("training job validation names the bad field", "[workload]") {
  TrainingJobSpec job = defaultTrainingJob();
  CHECK_NOTHROW(makeJobState(job, 1));
  CHECK_THROWS_AS(makeJobState(job, 0), std::invalid_argument);
  TrainingJobSpec bad = job;
  bad.phases.clear();
  CHECK_THROWS_WITH(makeJobState(bad, 2), Catch::Contains("no phases"));
  bad = job;
  bad.phases[1].duration = -1;
  CHECK_THROWS_WITH(makeJobState(bad, 2), Catch::Contains("backward"));
  bad = job;
  bad.phases[3].a_network = 1.2;
  CHECK_THROWS_WITH(makeJobState(bad, 2), Catch::Contains("a_network"));
  bad = job;
  for (PhaseSpec& p : bad.phases) p.duration = 0;
  CHECK_THROWS_WITH(makeJobState(bad, 2), Catch::Contains("zero iteration"));
  bad = job;
  bad.stop = -1;
  CHECK_THROWS_AS(makeJobState(bad, 2), std::invalid_argument);
  bad = job;
  bad.checkpoint_duration = -1;
  CHECK_THROWS_AS(makeJobState(bad, 2), std::invalid_argument);

  JobState st = makeJobState(job, 3);
  std::vector<double> v(2, 1.0);
  std::vector<double> v3(3, 1.0);
  std::vector<char> al(3, 1);
  std::vector<Utilization> out(3);
  CHECK_THROWS_AS(stepTrainingJob(job, st, 0, 0.01, v, v3, al, out), std::invalid_argument);
  CHECK_THROWS_AS(stepTrainingJob(job, st, 0, 0.0, v3, v3, al, out), std::invalid_argument);
}

TEST_CASE("inference: utilization follows the interpolated load", "[workload]") {
  InferenceSpec s;
  s.t = {0.0, 10.0, 20.0};
  s.load = {0.0, 1.0, 0.5};
  s.idle.a_sm = 0.02;
  REQUIRE_NOTHROW(validateInference(s));
  Utilization u = inferenceUtilization(s, 5.0);  // load 0.5
  CHECK(u.a_sm == Approx(0.02 + 0.5 * (0.08 - 0.02)));
  CHECK(u.a_hbm == Approx(0.5 * 0.50));
  CHECK(u.a_nvlink == Approx(0.5 * 0.15));
  CHECK(u.a_network == Approx(0.5 * 0.05));
  CHECK(u.memory_bound == 1.0);
  CHECK(u.compute_bound == 0.0);
  u = inferenceUtilization(s, 10.0);  // full load: memory-bound decode, HBM above SM
  CHECK(u.a_hbm == Approx(0.50));
  CHECK(u.a_sm == Approx(0.08));
  CHECK(u.a_hbm > u.a_sm);
  CHECK(inferenceUtilization(s, 15.0).a_hbm == Approx(0.75 * 0.50));
  CHECK(inferenceUtilization(s, -5.0).a_sm == Approx(0.02));         // held before the first point
  CHECK(inferenceUtilization(s, 99.0).a_hbm == Approx(0.5 * 0.50));  // held after the last
  CHECK(defaultInference(0.3).load[0] == 0.3);
  CHECK(inferenceUtilization(defaultInference(), 123.0).a_hbm == Approx(0.50));

  InferenceSpec bad = s;
  bad.load[1] = 1.5;
  CHECK_THROWS_AS(validateInference(bad), std::invalid_argument);
  bad = s;
  bad.t[2] = 5.0;
  CHECK_THROWS_AS(validateInference(bad), std::invalid_argument);
  bad = s;
  bad.load.pop_back();
  CHECK_THROWS_AS(validateInference(bad), std::invalid_argument);
}

TEST_CASE("trace replay: linear interpolation of utilizations and power", "[workload]") {
  TraceSpec s;
  s.gpus.resize(2);
  s.gpus[0].t = {0.0, 0.1, 0.2, 0.3};
  s.gpus[0].a_sm = {0.0, 1.0, 1.0, 0.2};
  s.gpus[0].a_hbm = {0.5, 0.5, 0.3, 0.3};
  s.gpus[1].t = {0.0, 1.0};
  s.gpus[1].P = {200.0, 1000.0};
  s.t_offset = 10.0;
  REQUIRE_NOTHROW(validateTrace(s));

  CHECK_FALSE(traceHasPower(s, 0));
  CHECK(traceHasPower(s, 1));
  Utilization u = traceUtilization(s, 0, 10.05);
  CHECK(u.a_sm == Approx(0.5));
  CHECK(u.a_hbm == Approx(0.5));
  CHECK(u.a_nvlink == 0.0);  // absent channels are 0
  CHECK(traceUtilization(s, 0, 10.25).a_sm == Approx(0.6));
  CHECK(traceUtilization(s, 0, 10.25).a_hbm == Approx(0.3));
  CHECK(traceUtilization(s, 0, 5.0).a_sm == 0.0);           // held before
  CHECK(traceUtilization(s, 0, 50.0).a_sm == Approx(0.2));  // held after
  CHECK(tracePower(s, 1, 10.25) == Approx(400.0));
  CHECK(tracePower(s, 1, 20.0) == Approx(1000.0));
  CHECK(tracePower(s, 0, 10.1) == 0.0);
  CHECK_THROWS_AS(traceUtilization(s, 2, 0.0), std::invalid_argument);

  s.loop = true;  // period 0.3 s for GPU 0, 1 s for GPU 1
  CHECK(traceUtilization(s, 0, 10.05 + 0.3 * 7).a_sm == Approx(0.5));
  CHECK(traceUtilization(s, 0, 10.05 - 0.3 * 2).a_sm == Approx(0.5));
  CHECK(tracePower(s, 1, 10.25 + 3.0) == Approx(400.0));

  TraceSpec bad = s;
  bad.gpus[0].a_sm.pop_back();
  CHECK_THROWS_WITH(validateTrace(bad), Catch::Contains("GPU 0") && Catch::Contains("a_sm"));
  bad = s;
  bad.gpus[1].P[0] = -1;
  CHECK_THROWS_WITH(validateTrace(bad), Catch::Contains("GPU 1"));
  bad = s;
  bad.gpus[0].t[2] = 0.1;
  CHECK_THROWS_AS(validateTrace(bad), std::invalid_argument);
  bad = s;
  bad.gpus[0].a_hbm[0] = 2;
  CHECK_THROWS_AS(validateTrace(bad), std::invalid_argument);
}

//---------------------------------------------------------------------------------------------
// collectives by fabric level, restarts from checkpoints, the bottleneck map (docs/models/job.md)
namespace {

// 1 s compute, a 0.3 s exposed scale-out all-reduce (bandwidth part of the whole collective
// 0.5 s), 0.2 s memory
TrainingJobSpec fabricJob() {
  using B = PhaseSpec::Bound;
  TrainingJobSpec j;
  PhaseSpec c{"compute", 1.0, B::Compute, 0.9, 0.3, 0.0, 0.0, false};
  PhaseSpec a{"dp_allreduce", 0.3, B::Communication, 0.1, 0.2, 0.0, 0.8, true};
  a.level = 2;
  a.comm_beta = 0.5;
  PhaseSpec m{"optimizer", 0.2, B::Memory, 0.15, 0.9, 0.0, 0.0, false};
  j.phases = {c, a, m};
  return j;
}

template <class M>
double mapSum(const M& tm) {
  double x = 0;
  for (int c = 0; c < kTimeCats; ++c) x += tm[c];
  return x;
}

}  // namespace

TEST_CASE("fabric: a degraded link slows the iteration by comm_beta (1/f - 1)", "[workload]") {
  const TrainingJobSpec job = fabricJob();
  Runner r(job, 4, 0.01);
  std::vector<double> bw_net(4, 1.0), bw_nvl(4, 1.0);
  bw_net[2] = 0.25;  // one GPU's NIC at a quarter of its bandwidth
  JobStepExtras ex{bw_nvl, bw_net, {}, {}};
  while (r.now() < 15.5 - 1e-12) {
    stepTrainingJob(job, r.st, r.now(), r.dt, r.vc, r.vm, r.alive, r.out, &ex);
    ++r.k;
  }
  const double T = 1.5 + 0.5 * (1 / 0.25 - 1);  // 3.0 s
  CHECK(r.st.iterations == 5);
  CHECK(r.st.last_iteration_time == Approx(T).epsilon(1e-9));
  // the slow GPU's stretch is fabric_degraded; the others wait at the iteration end
  CHECK(r.st.time(2)[kTimeFabricDegraded] == Approx(5 * 1.5).epsilon(1e-9));
  CHECK(r.st.time(2)[kTimeCommNetwork] == Approx(5 * 0.3).epsilon(1e-9));
  CHECK(r.st.time(0)[kTimeBarrierWait] == Approx(5 * 1.5).epsilon(1e-9));
  for (std::size_t g = 0; g < r.st.gpu.size(); ++g)
    CHECK(mapSum(r.st.time(g)) == Approx(15.5).epsilon(1e-9));
}

TEST_CASE("restart: a failure loses exactly the work since the last checkpoint", "[workload]") {
  TrainingJobSpec job = fabricJob();  // D = 1.5 s
  job.checkpoint_interval = 6.0;      // after 4 iterations: checkpoint 6.0-7.0
  job.checkpoint_duration = 1.0;
  job.restart_on_failure = true;
  job.restart_time = 5.0;
  Runner r(job, 4, 0.01);
  r.runTo(10.5);  // iterations end 1.5 ... 6.0 | ckpt 7.0 | 8.5, 10.0
  CHECK(r.st.checkpoints == 1);
  CHECK(r.st.iterations == 6);
  r.alive[1] = 0;  // GPU 1 fails at 10.5 and is back at 12.0
  r.runTo(12.0);
  CHECK(r.st.failures == 1);
  CHECK(r.st.iterations == 6);  // completed; the two after the checkpoint are lost
  CHECK(r.st.lost_iterations == 2);
  for (std::size_t g = 0; g < r.st.gpu.size(); ++g) {
    const auto s = r.st.time(g);
    CHECK(s[kTimeLostWork] == Approx(10.5 - 7.0).epsilon(1e-9));
    CHECK(s[kTimeStalled] == Approx(1.5).epsilon(1e-9));
  }
  r.alive[1] = 1;
  r.runTo(30.5);  // restart 12-17, then iterations from 17.0: 18.5, 20.0, ...
  CHECK(r.st.mode == 0);
  for (std::size_t g = 0; g < r.st.gpu.size(); ++g) {
    const auto s = r.st.time(g);
    CHECK(s[kTimeRestart] == Approx(5.0).epsilon(1e-9));
    CHECK(mapSum(s) == Approx(30.5).epsilon(1e-9));
  }
  // from 17.0: 4 iterations to 23.0 (checkpoint interval counts from the restart), ckpt to 24.0,
  // then 24 + 1.5 k <= 30.5 -> 4 more
  CHECK(r.st.iterations == 6 + 8);
  CHECK(r.st.checkpoints == 2);
  CHECK(jobGoodput(job, r.st, 30.5) == Approx(12 * 1.5 / 30.5).epsilon(1e-12));
}

TEST_CASE("restart: a hot spare takes the failed rank at once", "[workload]") {
  TrainingJobSpec job = fabricJob();
  job.restart_on_failure = true;
  job.restart_time = 2.0;
  job.hot_spares = 1;
  Runner r(job, 4, 0.01);
  r.runTo(3.2);
  r.alive[3] = 0;  // fails at 3.2, never comes back
  r.runTo(9.8);    // restart 3.2-5.2, iterations from 5.2 every 1.5 s: 6.7, 8.2, 9.7
  CHECK(r.st.failures == 1);
  CHECK(r.st.gpu[3].on_spare);
  CHECK(r.st.iterations == 2 + 3);  // 1.5, 3.0 (lost), then 3 after the restart
  CHECK(r.st.lost_iterations == 2);
  CHECK(r.out[3].a_sm == 0.0);  // the failed GPU itself stays dark
  CHECK(r.st.time(0)[kTimeLostWork] == Approx(3.2).epsilon(1e-9));  // no checkpoint yet
  double map[kTimeCats];
  jobTimeMap(r.st, {}, map);
  double sum = 0;
  for (double v : map) sum += v;
  CHECK(sum == Approx(9.8).epsilon(1e-9));
}

TEST_CASE(
    "bottleneck map: every GPU's parts add up to wall time with stragglers, clock causes, "
    "HBM throttling, outages and checkpoints",
    "[workload]") {
  TrainingJobSpec job = fabricJob();
  job.start = 0.7;
  job.checkpoint_interval = 4.0;
  job.checkpoint_duration = 0.6;
  Runner r(job, 5, 0.037);
  std::vector<double> bw_nvl(5, 1.0), bw_net(5, 1.0);
  std::vector<unsigned char> cause(5, kTimeClockOther);
  cause[1] = kTimeThermal;
  cause[2] = kTimePowerCap;
  JobStepExtras ex{bw_nvl, bw_net, cause, {}};
  r.vc[1] = 0.8;
  r.vc[2] = 0.9;
  r.vm[3] = 0.5;
  while (r.now() < 40.0 - 1e-12) {
    const double t = r.now();
    r.alive[4] = t >= 12.0 && t < 15.0 ? 0 : 1;
    stepTrainingJob(job, r.st, t, r.dt, r.vc, r.vm, r.alive, r.out, &ex);
    ++r.k;
  }
  const double wall = r.now() - 0.7;
  for (std::size_t g = 0; g < r.st.gpu.size(); ++g)
    CHECK(mapSum(r.st.time(g)) == Approx(wall).epsilon(1e-9));
  CHECK(r.st.time(1)[kTimeThermal] > 0);
  CHECK(r.st.time(2)[kTimePowerCap] > 0);
  CHECK(r.st.time(3)[kTimeHbmThrottle] > 0);
  CHECK(r.st.time(4)[kTimeStalled] > 2.9);  // stall mode: dead 12-15 (on the 37 ms grid)
  CHECK(r.st.time(0)[kTimeCheckpoint] > 0);
  // the slow GPU's thermal stretch is compute x (1/0.8 - 1) per iteration
  CHECK(r.st.time(1)[kTimeThermal] ==
        Approx(r.st.time(1)[kTimeCompute] * (1 / 0.8 - 1)).epsilon(1e-9));
}

//---------------------------------------------------------------------------------------------
// barrier-wait attribution (docs/models/job.md, "Attribution")
namespace {
double waitSum(const double* w) {
  double x = 0;
  for (int c = 0; c < kWaitCats; ++c) x += w[c];
  return x;
}
}  // namespace

TEST_CASE(
    "attribution: the others' barrier wait goes to the slowest GPU's cause, and the GPU that "
    "caused it is found",
    "[workload][attribution]") {
  const TrainingJobSpec job = fabricJob();  // compute 1 s | dp_allreduce 0.3 s (barrier) | 0.2 s
  Runner r(job, 4, 0.01);
  std::vector<unsigned char> cause(4, kTimeClockOther);
  cause[1] = kTimeThermal;   // GPU 1 at 80 % clock, thermally throttled
  cause[3] = kTimePowerCap;  // GPU 3 at 90 %, power capped
  r.vc[1] = 0.8;
  r.vc[3] = 0.9;
  std::vector<double> w = {1, 2, 1, 4};  // group sizes
  r.st.weight = w;
  JobStepExtras ex{{}, {}, cause, w};
  while (r.now() < 14.9 - 1e-12) {  // (not at a barrier: every wait is released)
    stepTrainingJob(job, r.st, r.now(), r.dt, r.vc, r.vm, r.alive, r.out, &ex);
    ++r.k;
  }
  // every iteration: GPU 1 reaches the all-reduce 0.25 s after GPUs 0, 2 and 0.1389 s after 3;
  // the straggler lost only to thermal throttling, so every wait is thermal
  const double x1 = 1 / 0.8 - 1, x3 = 1 / 0.9 - 1;
  for (std::size_t g = 0; g < 4; ++g) {
    const double* wm = r.st.wait(g);
    CHECK(waitSum(wm) == Approx(r.st.time(g)[kTimeBarrierWait]).margin(1e-9));
    CHECK(wm[kTimePowerCap - kLossFirst] == Approx(0).margin(1e-12));
    CHECK(wm[kLossCats] == Approx(0).margin(1e-12));  // no imbalance
  }
  const long n = r.st.iterations;
  REQUIRE(n >= 8);
  CHECK(r.st.wait(0)[kTimeThermal - kLossFirst] >= n * x1 * (1 - 1e-9));
  CHECK(r.st.wait(3)[kTimeThermal - kLossFirst] >= n * (x1 - x3) * (1 - 1e-9));
  CHECK(r.st.time(1)[kTimeThermal] >= n * x1 * (1 - 1e-9));  // its own loss
  // the component: GPU 1 made the others wait; per job GPU (weights 1+2+1+4 = 8)
  double caused = 0;
  CHECK(jobTopStraggler(r.st, &caused) == 1);
  const double others = r.st.wait(0)[0] * 1 + r.st.wait(2)[0] * 1 + r.st.wait(3)[0] * 4;
  CHECK(caused == Approx(others / 8).epsilon(1e-9));
  double jm[kWaitCats], tm[kTimeCats];
  jobWaitMap(r.st, w, jm);
  jobTimeMap(r.st, w, tm);
  CHECK(waitSum(jm) == Approx(tm[kTimeBarrierWait]).epsilon(1e-9));
  CHECK(std::string(waitCauseName(kLossCats)) == "imbalance");
  CHECK(std::string(waitCauseName(0)) == "thermal");
}

TEST_CASE("attribution: a degraded link's GPU makes the others wait for fabric_degraded",
          "[workload][attribution]") {
  const TrainingJobSpec job = fabricJob();
  Runner r(job, 3, 0.01);
  std::vector<double> bw_net(3, 1.0), bw_nvl(3, 1.0);
  bw_net[2] = 0.5;  // + 0.5 s per iteration on GPU 2's all-reduce
  JobStepExtras ex{bw_nvl, bw_net, {}, {}};
  while (r.now() < 9.4 - 1e-12) {  // (no barrier pending)
    stepTrainingJob(job, r.st, r.now(), r.dt, r.vc, r.vm, r.alive, r.out, &ex);
    ++r.k;
  }
  const long n = r.st.iterations;  // T = 2.0 s
  CHECK(n == 4);
  CHECK(r.st.wait(0)[kTimeFabricDegraded - kLossFirst] == Approx(n * 0.5).epsilon(1e-9));
  CHECK(waitSum(r.st.wait(0)) == Approx(r.st.time(0)[kTimeBarrierWait]).margin(1e-9));
  CHECK(jobTopStraggler(r.st, nullptr) == 2);
}

TEST_CASE("attribution: a failure rolls the attribution back with the map",
          "[workload][attribution]") {
  TrainingJobSpec job = fabricJob();
  job.restart_on_failure = true;
  job.restart_time = 1.0;
  job.hot_spares = 1;
  Runner r(job, 3, 0.01);
  std::vector<unsigned char> cause(3, kTimeClockOther);
  cause[0] = kTimeThermal;
  r.vc[0] = 0.5;
  JobStepExtras ex{{}, {}, cause, {}};
  auto to = [&](double t) {
    while (r.now() < t - 1e-12) {
      stepTrainingJob(job, r.st, r.now(), r.dt, r.vc, r.vm, r.alive, r.out, &ex);
      ++r.k;
    }
  };
  to(6.0);
  CHECK(r.st.wait(1)[0] > 0);
  r.alive[2] = 0;  // no checkpoint yet: everything becomes lost work
  to(6.5);
  CHECK(r.st.failures == 1);
  CHECK(waitSum(r.st.wait(1)) == Approx(0).margin(1e-12));
  CHECK(jobTopStraggler(r.st, nullptr) == -1);
  to(11.9);  // restart 6.0-7.0, iterations of 2.5 s: 9.5, dp barrier released at 11.5
  for (std::size_t g = 0; g < 3; ++g)
    CHECK(waitSum(r.st.wait(g)) == Approx(r.st.time(g)[kTimeBarrierWait]).margin(1e-9));
  CHECK(jobTopStraggler(r.st, nullptr) == 0);
}

TEST_CASE(
    "bottleneck map: the job's weighted sum is the per-GPU maps' sum, with or without the "
    "per-GPU maps, through stragglers, a failure and a restart",
    "[workload]") {
  TrainingJobSpec job = fabricJob();
  job.start = 0.3;
  job.checkpoint_interval = 3.0;
  job.checkpoint_duration = 0.4;
  job.restart_on_failure = true;
  job.restart_time = 1.0;
  const int n = 6;
  // two states stepped alike: one keeps each GPU's map (the model default, small jobs), one only
  // the job's sum (what the GPU layer does for a job of more than 4,096 groups)
  JobState with = makeJobState(job, n, true), without = makeJobState(job, n, false);
  CHECK(without.time_map.empty());
  std::vector<double> vc(n, 1.0), vm(n, 1.0), bw_nvl(n, 1.0), bw_net(n, 1.0);
  std::vector<double> w = {1, 3, 1, 2, 1, 4};  // group sizes
  std::vector<char> alive(n, 1);
  std::vector<Utilization> out1(n), out2(n);
  std::vector<unsigned char> cause(n, kTimeClockOther);
  cause[1] = kTimeThermal;
  vc[1] = 0.85;
  vm[4] = 0.6;
  const JobStepExtras ex{bw_nvl, bw_net, cause, w};
  const double dt = 0.05;
  long k = 0;
  for (; k * dt < 20.0 - 1e-12; ++k) {
    const double t = double(k) * dt;
    alive[2] = t >= 7.0 && t < 8.0 ? 0 : 1;  // fails at 7 s: restart from the 6.x checkpoint
    stepTrainingJob(job, with, t, dt, vc, vm, alive, out1, &ex);
    stepTrainingJob(job, without, t, dt, vc, vm, alive, out2, &ex);
  }
  REQUIRE(with.failures == 1);
  CHECK(with.iterations == without.iterations);
  double W = 0, total = 0;
  for (double x : w) W += x;
  for (int c = 0; c < kTimeCats; ++c) {
    double per_gpu = 0;
    for (int g = 0; g < n; ++g) per_gpu += w[std::size_t(g)] * with.time(std::size_t(g))[c];
    CHECK(with.map_sum[c] == without.map_sum[c]);  // the sum does not depend on the per-GPU maps
    CHECK(with.map_sum[c] == Approx(per_gpu).epsilon(1e-12).margin(1e-12));
    total += with.map_sum[c];
  }
  CHECK(with.map_sum[kTimeLostWork] > 0);
  CHECK(with.map_sum[kTimeRestart] == Approx(W * 1.0).epsilon(1e-9));
  // the weighted mean adds up to the wall time since the start
  const double wall = double(k) * dt - job.start;
  CHECK(total / W == Approx(wall).epsilon(1e-9));
  double map[kTimeCats], mean = 0;
  jobTimeMap(without, w, map);
  for (double v : map) mean += v;
  CHECK(mean == Approx(wall).epsilon(1e-9));
  // the attribution: exact with the per-GPU maps (rolled back at the failure, resumed after the
  // restart); without them nothing is allocated or booked, and the outputs say "not kept" (NaN)
  CHECK(without.wait_map.empty());
  CHECK(without.caused.empty());
  CHECK(without.loss_mark.empty());
  // (each GPU's wait columns = its barrier wait, less the wait still pending at 20 s: since the
  // last release, loss_mark's last entry)
  for (std::size_t g = 0; g < std::size_t(n); ++g) {
    const double pending =
        with.time(g)[kTimeBarrierWait] - with.loss_mark[g * (kLossCats + 1) + kLossCats];
    CHECK(pending >= 0);
    CHECK(waitSum(with.wait(g)) + pending == Approx(with.time(g)[kTimeBarrierWait]).margin(1e-9));
  }
  double wm[kWaitCats], bw = 0;
  jobWaitMap(with, w, wm);
  for (double v : wm) bw += v;
  CHECK(bw > 0);
  CHECK(bw <= map[kTimeBarrierWait] + 1e-9);
  CHECK(jobTopStraggler(with, nullptr) == 1);  // the thermally throttled GPU
  jobWaitMap(without, w, wm);
  for (double v : wm) CHECK(std::isnan(v));
  double caused = 0;
  CHECK(jobTopStraggler(without, &caused) == -1);
  CHECK(std::isnan(caused));
}

namespace {

// one step of the job in chunks of `chunk` GPUs, as the GPU layer runs it (gpu_layer.cpp
// stepChunk / stepChunks): pass 1 fused with the finish where the chunk cannot release, the
// release, the chunks that waited for it, the sums merged in chunk order; returns whether the
// step knew from its start that a GPU runs on (JobStepCtx::runs_on: no chunk waits)
bool stepInChunks(const TrainingJobSpec& job, JobState& st, double t, double dt,
                  const JobStepIo& io, std::size_t chunk) {
  const std::size_t ng = st.gpu.size(), nk = (ng + chunk - 1) / chunk;
  JobStepCtx c = trainingStepBegin(job, st, t, dt, io);
  std::vector<JobStepPart> parts(nk);
  std::vector<char> done(nk, 0);
  for (std::size_t k = 0; k < nk; ++k) {
    const std::size_t g0 = k * chunk, g1 = std::min(ng, g0 + chunk);
    const std::size_t first = trainingStepRunFinish(job, st, c, io, g0, g1, parts[k]);
    if (trainingStepCanRelease(c, parts[k])) continue;
    if (first > g0) trainingStepFinish(job, st, c, io, g0, first, parts[k]);
    done[k] = 1;
  }
  for (std::size_t k = 0; k < nk; ++k) trainingStepMerge1(st, c, parts[k]);
  // the release in the same chunks (gpu_layer.cpp releaseJob): book and advance in one pass per
  // chunk, except where a checkpoint's copy of the maps sits between them
  std::vector<JobReleasePart> rel(nk);
  while (trainingReleaseDue(c)) {
    for (std::size_t k = 0; k < nk; ++k) {
      rel[k] = JobReleasePart{};
      trainingReleaseScan(st, k * chunk, std::min(ng, (k + 1) * chunk), rel[k]);
    }
    const JobRelease r = trainingReleaseDecide(job, st, c, rel);
    for (std::size_t k = 0; k < nk; ++k) {
      const std::size_t g0 = k * chunk, g1 = std::min(ng, g0 + chunk);
      trainingReleaseBook(st, c, io, r, g0, g1, rel[k]);
      if (!r.snapshot) trainingReleaseAdvance(job, st, c, io, r, g0, g1, rel[k]);
    }
    if (r.snapshot) {
      trainingReleaseMergeBook(st, r, rel);
      for (std::size_t k = 0; k < nk; ++k)
        trainingReleaseAdvance(job, st, c, io, r, k * chunk, std::min(ng, (k + 1) * chunk), rel[k]);
    }
    trainingReleaseMerge(st, c, r, rel);
  }
  for (std::size_t k = 0; k < nk; ++k)
    if (!done[k])
      trainingStepFinish(job, st, c, io, k * chunk, std::min(ng, (k + 1) * chunk), parts[k]);
  for (std::size_t k = 0; k < nk; ++k) trainingStepMerge3(st, c, parts[k]);
  trainingStepEnd(st, c);
  if (c.runs_on)
    for (char d : done) REQUIRE(d);  // every chunk finished in pass 1
  return c.runs_on;
}

// GPU i's progress, bit for bit the same in both states
void requireSameProgress(const JobState& a, const JobState& b, std::size_t i) {
  REQUIRE(a.gpu[i].phase == b.gpu[i].phase);
  REQUIRE(a.gpu[i].work == b.gpu[i].work);
  REQUIRE(a.gpu[i].wait_time == b.gpu[i].wait_time);
  REQUIRE(a.phase_now[i] == b.phase_now[i]);
}

}  // namespace

TEST_CASE(
    "the job step in chunks (the GPU layer's parallel form) agrees with the whole step: "
    "per-GPU state bit for bit, the job's sums to round-off, through stragglers, checkpoints, a "
    "stall and a failure with restart",
    "[workload]") {
  for (const bool restart : {false, true}) {
    TrainingJobSpec job = fabricJob();
    job.start = 0.3;
    job.checkpoint_interval = 3.0;
    job.checkpoint_duration = 0.4;
    job.restart_on_failure = restart;
    job.restart_time = 1.0;
    const int n = 23;
    JobState whole = makeJobState(job, n, true), parts = makeJobState(job, n, true);
    std::vector<double> vc(n, 1.0), vm(n, 1.0), bw_nvl(n, 1.0), bw_net(n, 1.0), w(n, 1.0);
    for (int g = 0; g < n; ++g) {
      vc[std::size_t(g)] = 0.9 + 0.1 * std::sin(1.7 * g);  // every GPU its own pace
      w[std::size_t(g)] = 1 + g % 3;
    }
    std::vector<char> alive(n, 1);
    std::vector<Utilization> out1(n), out2(n);
    std::vector<unsigned char> cause(n, kTimeThermal);
    const JobStepExtras ex{bw_nvl, bw_net, cause, w};
    const JobStepIo io{vc, vm, alive, out2, &ex};
    const double dt = 0.05;
    long released = 0, known = 0, steps = 0;
    for (long k = 0; double(k) * dt < 16.0 - 1e-12; ++k) {
      const double t = double(k) * dt;
      alive[7] = t >= 7.0 && t < 8.0 ? 0 : 1;  // a stall (or a failure and restart)
      const long before = whole.iterations;
      stepTrainingJob(job, whole, t, dt, vc, vm, alive, out1, &ex);
      known += stepInChunks(job, parts, t, dt, io, 5) ? 1 : 0;
      ++steps;
      released += whole.iterations - before;
      for (int g = 0; g < n; ++g) {
        const std::size_t i = std::size_t(g);
        REQUIRE(out1[i].a_sm == out2[i].a_sm);
        REQUIRE(out1[i].a_hbm == out2[i].a_hbm);
        REQUIRE(out1[i].memory_bound == out2[i].memory_bound);
        requireSameProgress(whole, parts, i);
      }
    }
    CHECK(released > 5);
    // the steps that knew a GPU runs on, and those that did not (the release decision's path)
    CHECK(known > steps / 4);
    CHECK(known < steps);
    CHECK(whole.iterations == parts.iterations);
    CHECK(whole.checkpoints == parts.checkpoints);
    CHECK(whole.failures == parts.failures);
    CHECK(whole.stalled_time == Approx(parts.stalled_time).epsilon(1e-12).margin(1e-12));
    CHECK(whole.time_map == parts.time_map);
    // the release in chunks: each GPU's waits and attribution bit for bit, the straggler's caused
    // wait (summed per chunk) to round-off
    CHECK(whole.wait_map == parts.wait_map);
    CHECK(whole.iterations_at_checkpoint == parts.iterations_at_checkpoint);
    for (std::size_t g = 0; g < whole.caused.size(); ++g)
      CHECK(whole.caused[g] == Approx(parts.caused[g]).epsilon(1e-12).margin(1e-12));
    for (int c = 0; c < kTimeCats; ++c)
      CHECK(whole.map_sum[c] == Approx(parts.map_sum[c]).epsilon(1e-12).margin(1e-12));
  }
}

TEST_CASE(
    "the job step's vector fast paths agree with the whole step bit for bit per GPU, and the "
    "job's sums are the same on every instruction set",
    "[workload][simd]") {
  const bool per_gpu = GENERATE(false, true);
  TrainingJobSpec job = fabricJob();
  job.start = 0.3;
  job.checkpoint_interval = 3.0;
  job.checkpoint_duration = 0.4;
  const int n = 203;  // whole vectors and tails, chunks of 50 that start off the vector grid
  std::vector<double> vc(n, 1.0), vm(n, 1.0), bw_nvl(n, 1.0), bw_net(n, 1.0), w(n, 1.0);
  for (int g = 0; g < n; ++g) {
    vc[std::size_t(g)] = 0.9 + 0.1 * std::sin(1.7 * g);  // every GPU its own pace
    vm[std::size_t(g)] = 0.95 + 0.05 * std::cos(0.3 * g);
    w[std::size_t(g)] = 1 + g % 3;
  }
  std::vector<char> alive(n, 1);
  std::vector<double> a_sm(n), a_hbm(n), a_nvl(n), a_net(n), mem(n);
  // the clock causes differ between GPUs in places: vectors with two causes take the scalar path
  std::vector<unsigned char> cause(n, kTimeThermal);
  for (int g = 100; g < 110; ++g) cause[std::size_t(g)] = kTimePowerCap;
  const JobStepExtras ex{bw_nvl, bw_net, cause, w};
  JobStepIo io{
      vc, vm,  alive,
      {}, &ex, UtilArrays{a_sm.data(), a_hbm.data(), a_nvl.data(), a_net.data(), mem.data()}};
  const double dt = 0.05;
  std::vector<double> first_sums;  // each step's sums on the first instruction set
  long waiting_steps = 0;
  const int ran = test::onEveryTarget([&] {
    INFO("target " << gpuBatchTarget());
    JobState whole = makeJobState(job, n, per_gpu), parts = makeJobState(job, n, per_gpu);
    std::vector<Utilization> out1(n);
    std::vector<double> sums;  // each step's additions to the job's sums
    long released = 0;
    for (long k = 0; double(k) * dt < 12.0 - 1e-12; ++k) {
      const double t = double(k) * dt;
      alive[7] = t >= 7.0 && t < 8.0 ? 0 : 1;  // a stall
      const long before = whole.iterations;
      stepTrainingJob(job, whole, t, dt, vc, vm, alive, out1, &ex);
      for (const GpuProgress& s : parts.gpu) waiting_steps += s.waiting ? 1 : 0;
      const std::vector<double> sum0(parts.map_sum, parts.map_sum + kTimeCats);
      stepInChunks(job, parts, t, dt, io, 50);
      for (int c = 0; c < kTimeCats; ++c) sums.push_back(parts.map_sum[c] - sum0[std::size_t(c)]);
      released += whole.iterations - before;
      for (int g = 0; g < n; ++g) {
        const std::size_t i = std::size_t(g);
        REQUIRE(out1[i].a_sm == a_sm[i]);
        REQUIRE(out1[i].a_hbm == a_hbm[i]);
        REQUIRE(out1[i].a_nvlink == a_nvl[i]);
        REQUIRE(out1[i].a_network == a_net[i]);
        REQUIRE(out1[i].memory_bound == mem[i]);
        REQUIRE(whole.gpu[i].waiting == parts.gpu[i].waiting);
        requireSameProgress(whole, parts, i);
      }
    }
    CHECK(released > 3);
    CHECK(whole.iterations == parts.iterations);
    CHECK(whole.checkpoints == parts.checkpoints);
    CHECK(whole.time_map == parts.time_map);
    CHECK(whole.wait_map == parts.wait_map);
    CHECK(whole.time_map.empty() == !per_gpu);
    for (int c = 0; c < kTimeCats; ++c)
      CHECK(whole.map_sum[c] == Approx(parts.map_sum[c]).epsilon(1e-12).margin(1e-12));
    // the sums in slots by position: the same bits whichever vector length took which GPU
    if (first_sums.empty())
      first_sums = sums;
    else
      CHECK(sums == first_sums);
  });
  CHECK(ran >= 1);
  CHECK(waiting_steps > 1000);  // GPU-steps at the barrier: the waiting fast path had work
  // the vector path takes whole vectors of GPUs that run on in one phase: start a step with
  // every GPU just into phase 0
  JobState fresh = makeJobState(job, n, false);
  const double t0 = job.start + 1e-3;
  JobStepCtx c = trainingStepBegin(job, fresh, t0, dt, io);
  REQUIRE(c.nfast > 0);
  double sums1[4 * kTimeCats] = {}, sums3[4] = {};
  const JobFastArgs fa{fresh.gpu.data(),
                       alive.data(),
                       vc.data(),
                       vm.data(),
                       cause.data(),
                       w.data(),
                       nullptr,
                       std::size_t(n),
                       c.fast,
                       c.nfast,
                       c.tb - c.t_run,
                       c.tb - c.t_run + 1e-9,
                       c.tb,
                       fresh.phase_now.data(),
                       a_sm.data(),
                       a_hbm.data(),
                       a_nvl.data(),
                       a_net.data(),
                       mem.data(),
                       0,
                       sums1,
                       sums3,
                       true,
                       c.wait_util};
  JobFastState fs;
  const std::size_t took = jobFastRun(fa, 0, 96, fs);
  CHECK(took == 96);
  CHECK(fs.running);
  CHECK(fs.known);
  CHECK(fs.run_gpu == 0);
  double useful = 0;
  for (std::size_t g = 0; g < took; ++g) {
    CHECK(fresh.gpu[g].t_local == c.tb);
    CHECK(fresh.gpu[g].work == vc[g] * (c.tb - c.t_run));  // phase 0 is compute-bound
    useful += w[g] * (c.tb - c.t_run) * std::min(vc[g], 1.0);
  }
  double slots = 0;
  for (int k = 0; k < 4; ++k) slots += sums1[4 * kTimeCompute + k];
  CHECK(slots == Approx(useful).epsilon(1e-14));
  // a GPU that waits stops it at its vector
  fresh.gpu[40].waiting = true;
  JobFastState fs2;
  const std::size_t took2 = jobFastRun(fa, 0, 96, fs2);
  CHECK(took2 == 40);
  // GPUs that all wait: taken only once the part is known not to release, to the step end
  for (std::size_t g = 0; g < 96; ++g) {
    fresh.gpu[g].waiting = true;
    fresh.gpu[g].wait_time = 0.5;
  }
  JobFastState unknown;
  CHECK(jobFastRun(fa, 0, 96, unknown) == 0);
  JobFastState known;
  known.known = true;
  CHECK(jobFastRun(fa, 0, 96, known) == 96);
  CHECK(known.waited);
  CHECK_FALSE(known.running);
  double wait = 0;
  for (int k = 0; k < 4; ++k) wait += sums3[k];
  double W = 0;
  for (std::size_t g = 0; g < 96; ++g) {
    W += w[g];
    CHECK(fresh.gpu[g].wait_time == 0.5 + (c.tb - c.t_run));
    CHECK(fresh.gpu[g].t_local == c.tb);
    CHECK(a_sm[g] == c.wait_util[0]);
    CHECK(mem[g] == c.wait_util[4]);
  }
  CHECK(wait == Approx(W * (c.tb - c.t_run)).epsilon(1e-14));
  // the idle utilization over the step
  CHECK(c.wait_util[0] == Approx(job.idle.a_sm).epsilon(1e-14));
}

// a four-stage pipeline in time (docs/models/job.md, "The pipeline in time"): each stage skips a
// share of the three bubble phases, so that every stage's iteration is the same and its idle sits
// where 1F1B puts it
TEST_CASE("pipeline in time: the stages idle at different moments and meet at the barrier",
          "[workload][pipeline]") {
  using B = PhaseSpec::Bound;
  TrainingJobSpec job;
  const double F = 0.3, Bw = 0.6, Bub = 0.3, phi = F / (F + Bw);
  job.phases = {
      {"bubble_head", Bub * phi, B::Idle, 0.03, 0.05, 0.0, 0.0, false},
      {"forward", F, B::Compute, 0.9, 0.35, 0.3, 0.1, false},
      {"bubble_mid", Bub, B::Idle, 0.03, 0.05, 0.0, 0.0, false},
      {"backward", Bw, B::Compute, 0.9, 0.35, 0.3, 0.1, false},
      {"bubble_tail", Bub * (1 - phi), B::Idle, 0.03, 0.05, 0.0, 0.0, false},
      {"allreduce", 0.1, B::Communication, 0.1, 0.2, 0.0, 0.8, true},
  };
  const int p = 4, n = 8;  // two GPUs per stage
  job.stages = p;
  job.stage_skip.assign(std::size_t(p) * job.phases.size(), 0.0);
  for (int k = 0; k < p; ++k) {
    const double x = double(k) / (p - 1);
    double* s = job.stage_skip.data() + std::size_t(k) * job.phases.size();
    s[0] = Bub * phi * (1 - x), s[2] = Bub * x, s[4] = Bub * (1 - phi) * (1 - x);
  }
  job.stage_skip_total = Bub;
  const double T = F + Bw + Bub + 0.1;  // each stage's iteration
  CHECK(referenceIterationTime(job) == Approx(T).epsilon(1e-12));
  Runner r(job, n, 0.01);
  CHECK(r.st.gpu[0].stage == 0);
  CHECK(r.st.gpu[7].stage == 3);
  // 50 ms into the iteration: stage 0 computes its forward, the last stage waits in its head
  std::vector<double> sm_first, sm_last;
  r.runTo(0.05);
  CHECK(currentPhaseName(job, r.st, 0) == "forward");
  CHECK(currentPhaseName(job, r.st, 7) == "bubble_head");
  // 0.45 s: stage 0 idles between its warm-up and its first backward, the last stage does not
  r.runTo(0.45);
  CHECK(currentPhaseName(job, r.st, 0) == "bubble_mid");
  CHECK(currentPhaseName(job, r.st, 7) == "backward");
  // whole iterations at the reference speeds: the iteration is T, no GPU waits at the barrier
  // for another, and the idle time of every GPU is the bubble
  r.runTo(10 * T + 1e-9);
  CHECK(r.st.iterations == 10);
  CHECK(meanIterationTime(r.st) == Approx(T).epsilon(1e-9));
  CHECK(throughputRatio(r.st) == Approx(1.0).epsilon(1e-9));
  for (int g = 0; g < n; ++g) {
    CHECK(r.st.time(g)[kTimeBarrierWait] == Approx(0).margin(1e-9));
    CHECK(r.st.time(g)[kTimeBubble] == Approx(10 * Bub).epsilon(1e-9));
  }
  // a stage skips at most a phase's duration, and every stage the same in all
  TrainingJobSpec bad = job;
  bad.stage_skip[0] = 2 * Bub;
  CHECK_THROWS_WITH(makeJobState(bad, n), Catch::Contains("bubble_head"));
  bad = job;
  bad.stage_skip[2] += 0.01;
  CHECK_THROWS_WITH(makeJobState(bad, n), Catch::Contains("stage_skip_total"));
}
