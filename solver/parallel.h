// parallel.h: a small pool of worker threads for the fast layers of one run
//
// run(f) calls f(0) ... f(size()-1) at once (the caller runs chunk 0) and returns when all are
// done. Work is split by the caller into fixed chunks whose results land in disjoint slots; any
// sum over them is taken afterwards in index order, so a run's results do not depend on the
// number of threads (docs/performance.md).
#pragma once

#include <condition_variable>
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
  void run(const std::function<void(int)>& f);

  // [begin, end) of chunk k when n items are split into `chunks` contiguous, near-equal parts
  static void chunk(int n, int chunks, int k, int* begin, int* end) {
    *begin = int(static_cast<long long>(n) * k / chunks);
    *end = int(static_cast<long long>(n) * (k + 1) / chunks);
  }

 private:
  void loop(int k);
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* job_ = nullptr;
  long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace dctwin
