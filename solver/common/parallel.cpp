#include "solver/common/parallel.h"

#include <chrono>
#include <stdexcept>

namespace dctwin {

namespace {
constexpr auto kSpin = std::chrono::microseconds(300);  // a worker's wait before it sleeps
}

WorkerPool::WorkerPool(int threads) : shares_(new Share[std::max(threads, 1)]) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { loop(t); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true);
  }
  start_.notify_all();
  for (auto& w : workers_) w.join();
}

int WorkerPool::claim(Share& s, std::uint64_t gen) {
  constexpr std::uint64_t kField = (1u << 20) - 1;
  std::uint64_t t = s.ticket.load(std::memory_order_acquire);
  while ((t >> 40) == gen && ((t >> 20) & kField) < (t & kField))
    if (s.ticket.compare_exchange_weak(t, t + (std::uint64_t(1) << 20), std::memory_order_acq_rel))
      return int((t >> 20) & kField);
  return -1;
}

void WorkerPool::work(int t, std::uint64_t gen, const ChunkFn& f) {
  const int nt = size();
  for (int i = 0; i < nt; ++i) {  // its own share first, then the others' leftovers
    Share& s = shares_[(t + i) % nt];
    for (int k; (k = claim(s, gen)) >= 0;) {
      f(k);
      done_.fetch_add(1, std::memory_order_acq_rel);
    }
  }
}

void WorkerPool::run(int chunks, ChunkFn f) {
  if (workers_.empty() || chunks <= 1) {
    for (int k = 0; k < chunks; ++k) f(k);
    return;
  }
  const int nt = size();
  if (chunks >= kMaxChunks) throw std::invalid_argument("WorkerPool: too many chunks");
  const std::uint64_t gen = (generation_.load() + 1) & 0xffffffu;
  job_.store(&f);
  done_.store(0);
  for (int t = 0; t < nt; ++t) {
    int b, e;
    chunk(chunks, nt, t, &b, &e);
    shares_[t].ticket.store(gen << 40 | std::uint64_t(b) << 20 | std::uint64_t(e));
  }
  generation_.store(gen);  // publishes the job (sequentially consistent, as sleepers_ below)
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mu_);
    start_.notify_all();
  }
  work(0, gen, f);
  // every chunk is claimed; the ones still running on workers are short: spin
  while (done_.load(std::memory_order_acquire) != chunks) std::this_thread::yield();
}

void WorkerPool::loop(int t) {
  std::uint64_t seen = 0;
  for (;;) {
    // wait for a new generation: spin a little, then sleep
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; generation_.load() == seen && !stop_.load(); ++i)
      if ((i & 63) == 63 && std::chrono::steady_clock::now() - t0 > kSpin) {
        std::unique_lock<std::mutex> lock(mu_);
        sleepers_.fetch_add(1);
        start_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
        sleepers_.fetch_sub(1);
        break;
      }
    if (stop_.load()) return;
    seen = generation_.load();
    // a job that has already moved on to a newer generation fails every claim below (the shares'
    // tickets carry the newer generation), so a stale job pointer is never called
    const ChunkFn* job = job_.load();
    if (job) work(t, seen, *job);
  }
}

}  // namespace dctwin
