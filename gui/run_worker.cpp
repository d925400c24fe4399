// run_worker.cpp: simulation on a worker thread with streamed rows (see run_worker.h)
#include "gui/run_worker.h"

#include <QMetaObject>
#include <algorithm>
#include <chrono>
#include <limits>

#include "solver/input/loader.h"
#include "solver/run/run.h"

namespace dctwin::gui {

// copies every series of each output row (the library's output table) into the worker's pending
// block; the per-GPU ones only when they fit in memory
struct StreamSink : RunSink {
  RunWorker* w;
  double rows;            // output rows the run will have
  bool keep_gpu = false;  // per-GPU series too (they are what a large facility cannot keep)
  std::size_t events_sent = 0;
  StreamSink(RunWorker* worker, double nrows) : w(worker), rows(nrows) {}

  void begin(const RunLayout& L, const FrameLayout&) override {
    // per-GPU series (5 of them) only while they stay under about 512 MB for the run
    keep_gpu = rows * L.ngpu * 5 * 8.0 <= 512e6;
    RunData skel = RunData::fromLayout(L);
    skel.complete = false;
    std::lock_guard<std::mutex> lock(w->mutex_);
    w->skeleton_ = std::move(skel);
  }

  void row(const OutputFrame& f) override {
    std::lock_guard<std::mutex> lock(w->mutex_);
    RowBlock& b = w->pending_;
    b.time.push_back(f.t);
    for (const ObservableInfo& o : observableTable()) {
      if (o.rate != Rate::Output || o.id == Obs::Time || !f.has(o.id)) continue;
      if (o.shape == Shape::Gpu && !keep_gpu) continue;
      const auto v = f.get(o.id);
      std::vector<double>& dst = b.values[o.path];
      dst.insert(dst.end(), v.begin(), v.end());
    }
    if (f.events) forwardEvents(*f.events);
    w->t_now_.store(f.t);
  }

  void end(const RunResult& r) override {
    std::lock_guard<std::mutex> lock(w->mutex_);
    forwardEvents(r.events);
  }

  void forwardEvents(const std::vector<EventRecord>& events) {
    for (; events_sent < events.size(); ++events_sent)
      w->pending_.events.push_back(events[events_sent]);
  }
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
    const Scenario sc = loadScenarioFromString(text, name);
    duration_.store(sc.duration);
    StreamSink stream(this, sc.duration / std::min(sc.output_interval, sc.duration) + 2);
    std::unique_ptr<Hdf5Sink> h5;
    std::vector<RunSink*> sinks{&stream};
    if (!path.empty()) {
      h5 = std::make_unique<Hdf5Sink>(path, 10);
      sinks.push_back(h5.get());
    }
    RunControl control;
    control.cancel = &cancel_;
    control.progress = [this](double t, double) { t_now_.store(t); };
    const RunReport report = runFacility(spec, sc, RunSettings{}, sinks, control);
    const RunResult& res = report.result;
    out.ok = res.ok;
    out.cancelled = res.cancelled;
    out.error = QString::fromStdString(res.error);
    out.t_end = res.t_end;
    out.summary = QString::fromStdString(report.text());
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
