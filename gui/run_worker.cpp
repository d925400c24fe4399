// run_worker.cpp: simulation on a worker thread with streamed rows (see run_worker.h)
#include "gui/run_worker.h"

#include <QMetaObject>
#include <algorithm>
#include <chrono>
#include <limits>

#include "solver/compile/compile.h"
#include "solver/engine/integrator.h"
#include "solver/input/loader.h"
#include "solver/run/run.h"

namespace dctwin::gui {

// copies what the views show from each output row into the worker's pending block
struct StreamSink : OutputSink {
  RunWorker* w;
  bool keep_gpu;  // per-GPU series too (they are what a large facility cannot keep)
  std::size_t events_sent = 0;
  StreamSink(RunWorker* worker, bool gpu) : w(worker), keep_gpu(gpu) {}

  void put(RowBlock& b, const char* path, int n, auto fn) {
    std::vector<double>& v = b.values[path];
    for (int i = 0; i < n; ++i) v.push_back(fn(i));
  }

  void sample(const FacilityModel& m, const State& st, const double* y, double t,
              const EnergyTotals&) override {
    const Signals& g = st.sig;
    std::lock_guard<std::mutex> lock(w->mutex_);
    RowBlock& b = w->pending_;
    b.time.push_back(t);
    const int nr = m.nrack, nc = m.ncdu;
    auto rho = [&](int c) { return m.fluids[m.cdu_fluid[c]].rho_ref(); };
    put(b, "/rack/T_supply", nr, [&](int r) {
      const int c = m.rack_cdu[r];
      return y[m.supSegAdr(c) + m.cdu_nseg_sup[c] - 1];
    });
    put(b, "/rack/T_return", nr, [&](int r) { return y[m.rackAdr(r)]; });
    put(b, "/rack/T_case", nr, [&](int r) { return y[m.rackAdr(r) + 1]; });
    put(b, "/rack/V_flow", nr, [&](int r) { return g.m_rack[r] / rho(m.rack_cdu[r]); });
    put(b, "/rack/dp", nr, [&](int r) { return g.dp_rack[r]; });
    put(b, "/rack/Q_liquid", nr, [&](int r) { return g.Q_liquid[r]; });
    put(b, "/rack/P", nr, [&](int r) { return g.P_rack[r]; });
    put(b, "/rack/isolation", nr, [&](int r) { return rackIsolation(m, st, r, t); });
    put(b, "/rack/leak_flow", nr, [&](int r) {
      double q = 0;
      for (std::size_t k = 0; k < m.leaks.size() && k < g.leak_flow.size(); ++k)
        if (m.leaks[k].rack == r) q += g.leak_flow[k];
      return q;
    });
    put(b, "/cdu/T_sec_supply", nc, [&](int c) { return y[m.stateAdr(c, kTHexSec)]; });
    put(b, "/cdu/T_sec_return", nc,
        [&](int c) { return y[m.retSegAdr(c) + m.cdu_nseg_ret[c] - 1]; });
    put(b, "/cdu/T_prim_supply", nc, [&](int c) { return g.T_fws[c]; });
    put(b, "/cdu/T_prim_return", nc, [&](int c) { return y[m.stateAdr(c, kTHexPrim)]; });
    put(b, "/cdu/V_flow_sec", nc, [&](int c) { return g.m_sec[c] / rho(c); });
    put(b, "/cdu/V_flow_prim", nc,
        [&](int c) { return g.m_prim[c] / m.fluids[m.fws_fluid].rho_ref(); });
    put(b, "/cdu/pump_speed", nc, [&](int c) { return y[m.stateAdr(c, kNPump)]; });
    put(b, "/cdu/P_pump", nc, [&](int c) { return g.P_pump[c]; });
    put(b, "/cdu/valve_position", nc, [&](int c) { return y[m.stateAdr(c, kYValve)]; });
    put(b, "/cdu/Q_hex", nc, [&](int c) { return g.Q_hex[c]; });
    put(b, "/cdu/dp_bank", nc, [&](int c) { return g.dp_bank[c]; });
    put(b, "/cdu/p_tank", nc, [&](int c) { return g.p_tank.empty() ? 0.0 : g.p_tank[c]; });
    put(b, "/cdu/coolant_lost", nc, [&](int c) { return y[m.stateAdr(c, kVLost)]; });
    put(b, "/cdu/tank_level", nc,
        [&](int c) { return std::max(tankLiquidFraction(m, c, y[m.stateAdr(c, kVLost)]), 0.0); });
    double P_IT = 0;
    for (int r = 0; r < nr; ++r) P_IT += g.P_rack[r];
    b.values["/facility/P_IT"].push_back(P_IT);
    if (m.ngpu > 0 && !st.gl.Tj_max.empty()) {
      const GpuLayerState& gl = st.gl;
      // per-rack aggregates, always
      const double nan = std::numeric_limits<double>::quiet_NaN();
      auto over = [&](int r, auto fn, auto combine, double init) {
        if (m.rack_gpunum[r] == 0) return nan;
        double v = init;
        for (int q = 0; q < m.rack_gpunum[r]; ++q) v = combine(v, fn(m.rack_gpuadr[r] + q));
        return v;
      };
      auto maxf = [](double a, double b) { return std::max(a, b); };
      auto sumf = [](double a, double b) { return a + b; };
      put(b, kRackTjMax, nr, [&](int r) {
        return over(
            r, [&](int i) { return gl.Tj_max[i]; }, maxf, -1e300);
      });
      put(b, kRackThbmMax, nr, [&](int r) {
        return over(
            r, [&](int i) { return gl.Thbm_max[i]; }, maxf, -1e300);
      });
      put(b, kRackClockMean, nr, [&](int r) {
        return over(
                   r, [&](int i) { return gl.op[i].clock_ratio; }, sumf, 0.0) /
               std::max(1, m.rack_gpunum[r]);
      });
      put(b, kRackThrottled, nr, [&](int r) {
        return over(
                   r, [&](int i) { return (gl.op[i].reasons & kThrottleBits) ? 1.0 : 0.0; }, sumf,
                   0.0) /
               std::max(1, m.rack_gpunum[r]);
      });
    }
    if (keep_gpu && m.ngpu > 0 && !st.gl.Tj_max.empty()) {
      const GpuLayerState& gl = st.gl;
      const double span = gl.interval_time > 0 ? gl.interval_time : 1.0;
      put(b, "/gpu/T_junction", m.ngpu, [&](int i) { return gl.Tj_max[i]; });
      put(b, "/gpu/T_hbm", m.ngpu, [&](int i) { return gl.Thbm_max[i]; });
      put(b, "/gpu/P", m.ngpu,
          [&](int i) { return gl.interval_time > 0 ? gl.P_sum[i] / span : gl.op[i].P; });
      put(b, "/gpu/clock_ratio", m.ngpu, [&](int i) { return gl.op[i].clock_ratio; });
      put(b, "/gpu/throttle_reasons", m.ngpu, [&](int i) { return double(gl.op[i].reasons); });
    }
    if (m.njob > 0 && !st.gl.job.empty()) {
      put(b, "/job/throughput_ratio", m.njob, [&](int j) {
        return m.job_kind[j] == 0 ? throughputRatio(st.gl.job[j])
                                  : std::numeric_limits<double>::quiet_NaN();
      });
      put(b, "/job/iterations", m.njob, [&](int j) { return double(st.gl.job[j].iterations); });
    }
    if (m.has_power && !st.pl.bus_I.empty()) {
      const int nb = int(m.busway_name.size());
      put(b, "/busway/I", nb, [&](int k) { return st.pl.bus_I[k]; });
      put(b, "/busway/load_ratio", nb,
          [&](int k) { return st.pl.bus_I[k] / m.power.busways[k].params.I_rated; });
      put(b, "/busway/breaker_state", nb,
          [&](int k) { return st.pl.bus_brk[k].tripped ? 1.0 : 0.0; });
    }
    if (m.room_state >= 0) b.values["/room/T_air"].push_back(y[m.room_state]);
    forwardEvents(st);
    w->t_now_.store(t);
  }

  void forwardEvents(const State& st) {
    for (; events_sent < st.events.size(); ++events_sent)
      w->pending_.events.push_back(st.events[events_sent]);
  }

  void fast(const FacilityModel&, const State&, double t) override { w->t_now_.store(t); }
};

RunWorker::RunWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<dctwin::gui::RunOutcome>();
}

RunWorker::~RunWorker() {
  cancel_.store(true);
  if (thread_.joinable()) thread_.join();
}

bool RunWorker::start(const FacilitySpec& spec, const std::string& scenario_text,
                      const std::string& scenario_name, const QString& results_path) {
  if (running_) return false;
  if (thread_.joinable()) thread_.join();
  cancel_.store(false);
  running_ = true;
  t_now_.store(0);
  duration_.store(1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    skeleton_.reset();
    pending_ = RowBlock{};
  }
  thread_ = std::thread(&RunWorker::work, this, spec, scenario_text, scenario_name,
                        results_path.toStdString());
  return true;
}

void RunWorker::cancel() {
  cancel_.store(true);
}

double RunWorker::progress() const {
  const double d = duration_.load();
  return d > 0 ? std::clamp(t_now_.load() / d, 0.0, 1.0) : 0.0;
}

std::optional<RunData> RunWorker::takeSkeleton() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<RunData> s = std::move(skeleton_);
  skeleton_.reset();
  return s;
}

RowBlock RunWorker::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  RowBlock b = std::move(pending_);
  pending_ = RowBlock{};
  return b;
}

void RunWorker::work(FacilitySpec spec, std::string text, std::string name, std::string path) {
  RunOutcome out;
  out.results_path = QString::fromStdString(path);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    Scenario sc = loadScenarioFromString(text, name);
    applyScenario(sc, spec);
    FacilityModel model = compileFacility(spec);
    model.options.rtol = sc.rtol;
    model.options.output_interval = std::min(sc.output_interval, sc.duration);
    duration_.store(sc.duration);
    State st = makeState(model, sc.has_T_init ? sc.T_init : model.fws_T.eval(0.0));
    {
      RunData skel = RunData::fromModel(model);
      skel.scenario_text = sc.text;
      skel.complete = false;
      std::lock_guard<std::mutex> lock(mutex_);
      skeleton_ = std::move(skel);
    }
    // per-GPU series (5 of them) only while they stay under about 512 MB for the run
    const double rows = sc.duration / model.options.output_interval + 2;
    const bool keep_gpu = rows * model.ngpu * 5 * 8.0 <= 512e6;
    StreamSink stream(this, keep_gpu);
    SummarySink summary;
    std::unique_ptr<Hdf5Sink> h5;
    std::vector<OutputSink*> sinks{&stream, &summary};
    if (!path.empty()) {
      h5 = std::make_unique<Hdf5Sink>(path, model, sc.text, 10);
      sinks.push_back(h5.get());
    }
    TeeSink tee(sinks);
    RunOptions ro;
    ro.duration = sc.duration;
    ro.cancel = &cancel_;
    RunResult res = simulate(model, st, ro, &tee);
    if (h5) {
      h5->finish(res);
      h5.reset();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stream.forwardEvents(st);
    }
    out.ok = res.ok;
    out.cancelled = res.cancelled;
    out.error = QString::fromStdString(res.error);
    out.t_end = res.t_end;
    out.summary = QString::fromStdString(formatSummary(model, summary.summary, res));
    t_now_.store(res.t_end);
  } catch (const std::exception& e) {
    out.ok = false;
    out.error = QString::fromStdString(e.what());
  }
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  QMetaObject::invokeMethod(
      this,
      [this, out] {
        if (thread_.joinable()) thread_.join();
        running_ = false;
        emit finished(out);
      },
      Qt::QueuedConnection);
}

}  // namespace dctwin::gui
