#include "solver/parallel.h"

namespace dctwin {

WorkerPool::WorkerPool(int threads) {
  for (int k = 1; k < threads; ++k) workers_.emplace_back([this] { loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

int WorkerPool::claim(std::uint64_t gen, int n) {
  std::uint64_t t = ticket_.load(std::memory_order_acquire);
  while ((t >> 32) == gen && int(t & 0xffffffffu) < n)
    if (ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel))
      return int(t & 0xffffffffu);
  return -1;
}

void WorkerPool::work(std::uint64_t gen, int n, const std::function<void(int)>& f) {
  for (int k; (k = claim(gen, n)) >= 0;) {
    f(k);
    if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
      std::lock_guard<std::mutex> lock(mu_);
      done_cv_.notify_all();
    }
  }
}

void WorkerPool::run(int chunks, const std::function<void(int)>& f) {
  if (workers_.empty() || chunks <= 1) {
    for (int k = 0; k < chunks; ++k) f(k);
    return;
  }
  std::uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(mu_);
    gen = ++generation_ & 0xffffffffu;
    job_ = &f;
    n_ = chunks;
    done_.store(0, std::memory_order_relaxed);
    ticket_.store(gen << 32, std::memory_order_release);
  }
  start_.notify_all();
  work(gen, chunks, f);
  // every chunk is claimed; wait for those still running on workers
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return done_.load(std::memory_order_acquire) == chunks; });
  job_ = nullptr;
}

void WorkerPool::loop() {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    int n;
    std::uint64_t gen;
    {
      std::unique_lock<std::mutex> lock(mu_);
      start_.wait(lock, [&] { return stop_ || (generation_ != seen && job_ != nullptr); });
      if (stop_) return;
      seen = generation_;
      gen = generation_ & 0xffffffffu;
      job = job_;
      n = n_;
    }
    work(gen, n, *job);
  }
}

}  // namespace dctwin
