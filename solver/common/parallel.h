// parallel.h: a small pool of worker threads for the fast layers of one run
//
// run(n, f) calls f(0) ... f(n-1), each exactly once, on the caller and the workers, and returns
// when all are done. Thread t first runs the chunks of its own contiguous share, so that a rack
// stays on the same core from step to step (its state stays in that core's cache); a thread that
// runs out takes the chunks others have not started, so a worker that is slow to wake costs
// nothing. Between jobs a worker polls a few microseconds, then sleeps on the job counter
// (a futex, std::atomic::wait); the caller, once its share and the leftovers are done, waits the
// same way for the chunks still running. Where jobs come in quick succession (the gap before the
// current one under 100 us: the fast steps of the GPU layer) a worker polls on for up to 100 us
// before it sleeps, and the caller waits for the last chunks that long too, both yielding the
// core between polls: a futex wake-up costs more than such a gap on a VM. A thread that spun
// without yielding would take the core from whatever else runs on a shared machine (another
// process, or this run's own caller), which made 2 threads slower than 1 there
// (docs/performance.md). Work is split by the caller
// into chunks whose results land in disjoint slots; any sum over them is taken afterwards in index
// order, so a run's results do not depend on the number of threads or on who ran which chunk
// (docs/performance.md).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

namespace dctwin {

// a non-owning reference to a callable `void(int)`: unlike std::function it never allocates, so
// the right-hand side and the GPU steps can hand their loops to the pool without allocating
class ChunkFn {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, ChunkFn>>>
  ChunkFn(F&& f)  // NOLINT: implicit, from a lambda that outlives the call
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, int k) { (*static_cast<std::remove_reference_t<F>*>(o))(k); }) {}
  void operator()(int k) const { call_(obj_, k); }

 private:
  void* obj_;
  void (*call_)(void*, int);
};

class WorkerPool {
 public:
  explicit WorkerPool(int threads);  // threads - 1 workers besides the caller; <= 1: none
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }
  // even: the chunks cost about the same, so that the job measures the workers' worth (below);
  // false for chunks of uneven cost (the GPU layer's blocks), which the measure would misread
  void run(int chunks, ChunkFn f, bool even = true);

  // [begin, end) of chunk k when n items are split into `chunks` contiguous, near-equal parts
  static void chunk(int n, int chunks, int k, int* begin, int* end) {
    *begin = int(static_cast<long long>(n) * k / chunks);
    *end = int(static_cast<long long>(n) * (k + 1) / chunks);
  }

 private:
  // one thread's share of the current job in one word, (generation << 40) | (next << 20) | end,
  // so that a claim succeeds only within its own generation and range. One cache line each.
  struct alignas(64) Share {
    std::atomic<std::uint64_t> ticket{0};
  };
  static constexpr int kMaxChunks = 1 << 20;
  void loop(int t);
  int claim(Share& s, std::uint64_t gen);
  int work(int t, std::uint64_t gen, const ChunkFn& f);  // returns the chunks it ran

  // on a shared machine a worker descheduled while it holds a chunk makes the caller wait for a
  // scheduler time slice: run() measures every job against what the caller alone would have
  // taken (its own time per chunk x the chunks); where the workers made most of the last
  // kProbeJobs jobs slower, the next kSerialJobs jobs run on the caller alone, then the workers
  // are tried again. Which thread runs a chunk never changes a result.
  static constexpr int kProbeJobs = 16, kSerialJobs = 256;
  int serial_left_ = 0, probe_jobs_ = 0, probe_slower_ = 0;

  std::vector<std::thread> workers_;
  std::unique_ptr<Share[]> shares_;                       // size()
  alignas(64) std::atomic<std::uint32_t> generation_{0};  // published after the job; waited on
  std::atomic<const ChunkFn*> job_{nullptr};
  std::atomic<int> sleepers_{0};  // workers asleep (or about to) on generation_
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<int> done_{0};   // chunks finished in the current generation
  std::atomic<int> chunks_{0};             // of the current generation
  std::atomic<bool> caller_waits_{false};  // the caller sleeps on done_
  // the caller's: when the last job ended; whether the gap before the current job was short
  // (the workers then poll on for the next one before they sleep)
  std::chrono::steady_clock::time_point last_end_{};
  bool have_last_ = false;
  std::atomic<bool> short_gap_{false};
};

}  // namespace dctwin
