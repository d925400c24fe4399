#include "solver/common/parallel.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace dctwin {

namespace {
// a wait first polls this many times (a pause each, ~2-5 us in all) before it sleeps: long enough
// for a job that is being published or a chunk that is about to end, too short to take a core
// from another process
constexpr int kPolls = 64;

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}
}  // namespace

WorkerPool::WorkerPool(int threads) : shares_(new Share[std::max(threads, 1)]) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { loop(t); });
}

WorkerPool::~WorkerPool() {
  stop_.store(true);
  generation_.fetch_add(1);  // wakes every worker; none has a share in that generation
  generation_.notify_all();
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

int WorkerPool::work(int t, std::uint64_t gen, const ChunkFn& f) {
  const int nt = size();
  int ran = 0;
  for (int i = 0; i < nt; ++i) {  // its own share first, then the others' leftovers
    Share& s = shares_[(t + i) % nt];
    for (int k; (k = claim(s, gen)) >= 0;) {
      f(k);
      ++ran;
      // the last chunk of the job wakes the caller if it sleeps (sequentially consistent with
      // caller_waits_, so that either the caller sees the count or the worker sees the flag)
      if (done_.fetch_add(1) + 1 == chunks_.load(std::memory_order_relaxed) &&
          caller_waits_.load()) {
        done_.notify_one();
      }
    }
  }
  return ran;
}

void WorkerPool::run(int chunks, ChunkFn f) {
  if (workers_.empty() || chunks <= 1 || serial_left_ > 0) {
    if (chunks > 1 && serial_left_ > 0) --serial_left_;
    for (int k = 0; k < chunks; ++k) f(k);
    return;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  const int nt = size();
  if (chunks >= kMaxChunks) throw std::invalid_argument("WorkerPool: too many chunks");
  const std::uint32_t gen = (generation_.load() + 1) & 0xffffffu;
  job_.store(&f);
  done_.store(0);
  chunks_.store(chunks);
  for (int t = 0; t < nt; ++t) {
    int b, e;
    chunk(chunks, nt, t, &b, &e);
    shares_[t].ticket.store(std::uint64_t(gen) << 40 | std::uint64_t(b) << 20 | std::uint64_t(e));
  }
  generation_.store(gen);  // publishes the job (sequentially consistent, as sleepers_ below)
  if (sleepers_.load() > 0) generation_.notify_all();
  const int mine = work(0, gen, f);
  const Clock::time_point t1 = Clock::now();
  // every chunk is claimed; wait for the ones still running on workers: poll a little, then sleep
  for (int i = 0;; ++i) {
    const int d = done_.load();
    if (d == chunks) break;
    if (i < kPolls) {
      cpuRelax();
      continue;
    }
    caller_waits_.store(true);
    if (done_.load() != chunks) done_.wait(d);
    caller_waits_.store(false);
  }
  // slower than the caller alone would have been (its share's pace over all chunks)?
  const double alone = std::chrono::duration<double>(t1 - t0).count() * chunks / std::max(mine, 1);
  if (std::chrono::duration<double>(Clock::now() - t0).count() > alone) ++probe_slower_;
  if (++probe_jobs_ == kProbeJobs) {
    if (2 * probe_slower_ > kProbeJobs) serial_left_ = kSerialJobs;
    probe_jobs_ = probe_slower_ = 0;
  }
}

void WorkerPool::loop(int t) {
  std::uint32_t seen = 0;
  for (;;) {
    // wait for a new generation: poll a little, then sleep on the counter
    for (int i = 0; generation_.load() == seen && !stop_.load(); ++i) {
      if (i < kPolls) {
        cpuRelax();
        continue;
      }
      sleepers_.fetch_add(1);
      generation_.wait(seen);  // returns at once if the counter moved since
      sleepers_.fetch_sub(1);
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
