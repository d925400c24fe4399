#include "solver/parallel.h"

namespace dctwin {

WorkerPool::WorkerPool(int threads) {
  for (int k = 1; k < threads; ++k) workers_.emplace_back([this, k] { loop(k); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

void WorkerPool::run(const std::function<void(int)>& f) {
  if (workers_.empty()) {
    f(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    job_ = &f;
    pending_ = int(workers_.size());
    ++generation_;
  }
  start_.notify_all();
  f(0);
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
}

void WorkerPool::loop(int k) {
  long seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(k);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace dctwin
