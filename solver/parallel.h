// parallel.h: a small pool of worker threads for the fast layers of one run
//
// run(n, f) calls f(0) ... f(n-1), each exactly once, on the caller and the workers, and returns
// when all are done. Chunks are claimed one at a time, so a worker that the OS is slow to wake
// (a busy machine) costs nothing: the caller takes the chunks it has not claimed. Work is split by
// the caller into chunks whose results land in disjoint slots; any sum over them is taken
// afterwards in index order, so a run's results do not depend on the number of threads or on who
// ran which chunk (docs/performance.md).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dctwin {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);  // threads - 1 workers besides the caller; <= 1: none
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return int(workers_.size()) + 1; }
  void run(int chunks, const std::function<void(int)>& f);

  // [begin, end) of chunk k when n items are split into `chunks` contiguous, near-equal parts
  static void chunk(int n, int chunks, int k, int* begin, int* end) {
    *begin = int(static_cast<long long>(n) * k / chunks);
    *end = int(static_cast<long long>(n) * (k + 1) / chunks);
  }

 private:
  void loop();
  // the next unclaimed chunk of generation gen, or -1
  int claim(std::uint64_t gen, int n);
  // runs chunks of generation gen until none is left
  void work(std::uint64_t gen, int n, const std::function<void(int)>& f);

  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable start_, done_cv_;
  const std::function<void(int)>* job_ = nullptr;  // guarded by mu_
  int n_ = 0;                                      // chunks of the current job (mu_)
  std::uint64_t generation_ = 0;                   // (mu_)
  bool stop_ = false;                              // (mu_)
  // (generation << 32) | next chunk: a claim succeeds only within its own generation
  std::atomic<std::uint64_t> ticket_{0};
  std::atomic<int> done_{0};  // chunks finished in the current generation
};

}  // namespace dctwin
