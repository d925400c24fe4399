// run_limits.cpp: the bounds a run keeps (see run_limits.h)
#include "solver/common/run_limits.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "solver/common/bounded_file.h"

namespace dctwin {

void checkRunSize(double duration, double output_interval, double power_interval, double row_bytes,
                  double power_row_bytes) {
  char b[600];
  const char* how =
      "; shorten the duration or lengthen the interval, or pass --allow-large "
      "(Python: allow_large=True) to run it anyway";
  if (!(duration <= kMaxRunDuration)) {
    std::snprintf(b, sizeof b, "the duration %.6g s (%.3g days) is longer than %.0f days%s",
                  duration, duration / 86400, kMaxRunDuration / 86400, how);
    throw RunSizeError(b);
  }
  const double rows = std::ceil(duration / output_interval) + 1;
  const double power_rows = power_interval > 0 ? std::ceil(duration / power_interval) + 1 : 0;
  const double bytes = rows * row_bytes + power_rows * power_row_bytes;
  auto size = [](double x) {
    return x < 9e18 ? formatBytes(std::uint64_t(x)) : std::string("more than 8 EiB");
  };
  if (!(rows <= kMaxRunRows)) {
    std::snprintf(b, sizeof b,
                  "the run would write %.4g rows (%.6g s every %.6g s)%s%s; at most %.0f rows%s",
                  rows, duration, output_interval, bytes > 0 ? ", a results file of up to " : "",
                  bytes > 0 ? size(bytes).c_str() : "", kMaxRunRows, how);
    throw RunSizeError(b);
  }
  if (!(power_rows <= kMaxPowerRows)) {
    std::snprintf(b, sizeof b,
                  "the run would write %.4g /power rows (%.6g s every %.6g s)%s%s; at most %.0f%s",
                  power_rows, duration, power_interval,
                  bytes > 0 ? ", a results file of up to " : "",
                  bytes > 0 ? size(bytes).c_str() : "", kMaxPowerRows, how);
    throw RunSizeError(b);
  }
  if (!(bytes <= kMaxOutputBytes)) {
    std::snprintf(b, sizeof b,
                  "the run would write a results file of up to %s (%.4g rows of %s%s, "
                  "uncompressed); at most %s: record fewer series (--record)%s",
                  size(bytes).c_str(), rows, size(row_bytes).c_str(),
                  power_rows > 0 ? (" and " + std::to_string(std::uint64_t(power_rows)) +
                                    " /power rows of " + size(power_row_bytes))
                                       .c_str()
                                 : "",
                  size(kMaxOutputBytes).c_str(), how);
    throw RunSizeError(b);
  }
}

}  // namespace dctwin
