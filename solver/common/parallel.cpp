#include "solver/common/parallel.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace dctwin {

namespace {
// a wait first polls this many times (a pause each, ~2-5 us in all): long enough for a job that
// is being published or a chunk that is about to end
constexpr int kPolls = 64;
// then, where the wait is expected to be short, it goes on polling for up to kShortWait, yielding
// the core between polls (to another process, or to this run's own caller where the two share a
// core), before it sleeps: a futex wake-up took 15-80 us on the 2-core VMs (the worker starts the
// next job that much late, the caller sees the last chunk end that much late), longer than the
// serial part between two fast steps (20-50 us on the hall; docs/performance.md, ninth round)
constexpr std::chrono::microseconds kShortWait{100};
constexpr int kPollsPerClock = 16;  // polls between two reads of the clock

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// the polls of one wait: next() is false once the wait should sleep instead: after kPolls polls,
// or, for a short wait, after kShortWait, or as soon as a yield gave the core away (something
// else is runnable on it: the machine is shared, so polling would only delay that)
class Poll {
 public:
  using Clock = std::chrono::steady_clock;
  Poll(bool short_wait, Clock::time_point t0) : short_(short_wait), t0_(t0), last_(t0) {}
  bool next() {
    const int i = i_++;
    if (i < kPolls || (short_ && i % kPollsPerClock)) {
      cpuRelax();
      return true;
    }
    if (!short_) return false;
    const Clock::time_point now = Clock::now();
    if (now - t0_ >= kShortWait || now - last_ >= kYieldedAway) return false;
    std::this_thread::yield();  // (the next check sees how long it took)
    last_ = now;
    return true;
  }

 private:
  // a yield and 16 polls take ~1-5 us where the core is this thread's alone; longer: it ran
  // something else (or the thread was preempted)
  static constexpr std::chrono::microseconds kYieldedAway{20};
  bool short_;
  Clock::time_point t0_, last_;
  int i_ = 0;
};
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

void WorkerPool::run(int chunks, ChunkFn f, bool even) {
  if (workers_.empty() || chunks <= 1 || (even && serial_left_ > 0)) {
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
  // the time since the last job ended: whether the workers should poll on for the next one after
  // this job (the next gap is likely as short as this one: a run of fast steps, or of solver calls)
  short_gap_.store(have_last_ && t0 - last_end_ < kShortWait, std::memory_order_relaxed);
  generation_.store(gen);  // publishes the job (sequentially consistent, as sleepers_ below)
  if (sleepers_.load() > 0) generation_.notify_all();
  const int mine = work(0, gen, f);
  const Clock::time_point t1 = Clock::now();
  // every chunk is claimed; wait for the ones still running on workers (each at most one chunk
  // from its end): poll, then sleep
  for (Poll poll(true, t1);;) {
    const int d = done_.load();
    if (d == chunks) break;
    if (poll.next()) continue;
    caller_waits_.store(true);
    if (done_.load() != chunks) done_.wait(d);
    caller_waits_.store(false);
  }
  // slower than the caller alone would have been (its share's pace over all chunks)?
  const double alone = std::chrono::duration<double>(t1 - t0).count() * chunks / std::max(mine, 1);
  last_end_ = Clock::now();
  have_last_ = true;
  if (!even) return;
  if (std::chrono::duration<double>(last_end_ - t0).count() > alone) ++probe_slower_;
  if (++probe_jobs_ == kProbeJobs) {
    if (2 * probe_slower_ > kProbeJobs) serial_left_ = kSerialJobs;
    probe_jobs_ = probe_slower_ = 0;
  }
}

void WorkerPool::loop(int t) {
  std::uint32_t seen = 0;
  for (;;) {
    // wait for a new generation: poll (on, yielding, where the caller's jobs come in quick
    // succession), then sleep on the counter
    Poll poll(short_gap_.load(std::memory_order_relaxed), std::chrono::steady_clock::now());
    while (generation_.load() == seen && !stop_.load()) {
      if (poll.next()) continue;
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
