// bounded_file.cpp: the bounded file opener (see bounded_file.h)
#include "solver/common/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace dctwin {

namespace {

// what kind of file a mode names, for "is a FIFO, not a regular file"
const char* kindOf(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a plain file";
}

// opens `path` without blocking and checks it is a regular file of at most max_bytes; -1 with
// *why otherwise. The size in *size
int openChecked(const std::string& path, std::uint64_t max_bytes, FileRefusal* why,
                std::uint64_t* size) {
  auto refuse = [&](std::string reason, int err) {
    if (why != nullptr) *why = FileRefusal{std::move(reason), err};
    return -1;
  };
  if (path.empty()) return refuse("no file name given", ENOENT);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    return refuse(
        err == ENOENT ? "no such file" : std::string("cannot open: ") + std::strerror(err), err);
  }
  struct stat sb {};
  if (::fstat(fd, &sb) != 0) {
    const int err = errno;
    ::close(fd);
    return refuse(std::string("cannot examine: ") + std::strerror(err), err);
  }
  if (!S_ISREG(sb.st_mode)) {
    ::close(fd);
    return refuse(std::string("is ") + kindOf(sb.st_mode) + ", not a regular file",
                  S_ISDIR(sb.st_mode) ? EISDIR : EINVAL);
  }
  if (std::uint64_t(sb.st_size) > max_bytes) {
    ::close(fd);
    return refuse("the file is too large (" + formatBytes(std::uint64_t(sb.st_size)) +
                      "; at most " + formatBytes(max_bytes) + ")",
                  EFBIG);
  }
  // a regular file never blocks, but reads of it should not either way: back to blocking mode
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (size != nullptr) *size = std::uint64_t(sb.st_size);
  return fd;
}

}  // namespace

std::optional<std::string> readBoundedFile(const std::string& path, std::size_t max_bytes,
                                           FileRefusal* why) {
  std::uint64_t size = 0;
  const int fd = openChecked(path, max_bytes, why, &size);
  if (fd < 0) return std::nullopt;
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      if (why != nullptr)
        *why = FileRefusal{std::string("cannot read: ") + std::strerror(err), err};
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) {  // it grew while being read
      ::close(fd);
      if (why != nullptr)
        *why = FileRefusal{"the file is too large (at most " + formatBytes(max_bytes) + ")", EFBIG};
      return std::nullopt;
    }
  }
  ::close(fd);
  return text;
}

bool checkRegularFile(const std::string& path, std::uint64_t max_bytes, FileRefusal* why,
                      std::uint64_t* size) {
  const int fd = openChecked(path, max_bytes, why, size);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

std::string formatBytes(std::uint64_t bytes) {
  char b[64];
  if (bytes < 1024)
    std::snprintf(b, sizeof b, "%llu bytes", static_cast<unsigned long long>(bytes));
  else if (bytes < (std::uint64_t{1} << 20))
    std::snprintf(b, sizeof b, "%.1f KiB", double(bytes) / 1024.0);
  else if (bytes < (std::uint64_t{1} << 30))
    std::snprintf(b, sizeof b, "%.1f MiB", double(bytes) / 1048576.0);
  else if (bytes < (std::uint64_t{1} << 40))
    std::snprintf(b, sizeof b, "%.1f GiB", double(bytes) / 1073741824.0);
  else
    std::snprintf(b, sizeof b, "%.1f TiB", double(bytes) / 1099511627776.0);
  std::string s = b;
  // "16.0 MiB" -> "16 MiB"
  const auto dot = s.find(".0 ");
  if (dot != std::string::npos) s.erase(dot, 2);
  return s;
}

bool sameFile(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  struct stat sa {
  }, sb{};
  const bool ea = ::stat(a.c_str(), &sa) == 0, eb = ::stat(b.c_str(), &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return false;
  namespace fs = std::filesystem;
  std::error_code e1, e2;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, e1), e1);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b, e2), e2);
  return !e1 && !e2 && ca == cb;
}

}  // namespace dctwin
