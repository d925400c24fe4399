// run_limits.h: the bounds a run keeps unless told otherwise (`--allow-large`, Python
// allow_large=True): a typo in a duration or an interval (`-i 1e-9s`, `duration: 1e9 d`,
// duration=1e300) is refused before it runs for days or fills a disk, with the size the run would
// write. runFacility checks the duration and the rows, the results file (Hdf5Sink) its size.
#pragma once

#include <stdexcept>

namespace dctwin {

inline constexpr double kMaxRunDuration = 10 * 366 * 86400.0;   // 10 years of simulated time (s)
inline constexpr double kMaxRunRows = 1e7;                      // rows of /time (a year at 3.2 s)
inline constexpr double kMaxPowerRows = 1e8;                    // rows of /power (--power-interval)
inline constexpr double kMaxOutputBytes = 64.0 * (1ull << 30);  // a results file, uncompressed

// a run refused by its size; says what it would write and how to run it anyway
class RunSizeError : public std::length_error {
 public:
  using std::length_error::length_error;
};

// throws RunSizeError when a run of `duration` with rows every `output_interval` (and /power rows
// every `power_interval`, 0: none) passes a limit above; `row_bytes`, `power_row_bytes`: bytes of
// one row of every series (0: no results file), for the size the file would reach
void checkRunSize(double duration, double output_interval, double power_interval = 0,
                  double row_bytes = 0, double power_row_bytes = 0);

}  // namespace dctwin
