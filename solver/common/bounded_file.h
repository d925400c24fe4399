// bounded_file.h: the one way dctwin opens a file it reads (facility, scenario, sweep, CSV series,
// weather, catalog, journal, results): regular files only, of bounded size, and never a blocking
// open or read.
//
// The path is opened with O_RDONLY | O_NONBLOCK | O_NOCTTY (a FIFO without a writer, a terminal or
// a device never blocks the open), the descriptor is checked with fstat before a byte is read, and
// anything but a regular file is refused: /dev/zero, /dev/stdin, a FIFO, a socket, a directory.
// A regular file larger than the limit is refused by its size, before it is read, and the read
// itself stops at the limit (a file that grows while it is read). The reasons never quote the
// file's content, so an error about a file of the wrong kind cannot leak what it holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace dctwin {

// the largest facility, scenario, sweep, catalog, CSV or weather file read (16 MiB)
constexpr std::size_t kMaxInputFileBytes = std::size_t{16} << 20;
// the largest sweep journal read (a line per case: a million cases of up to 4 KiB each); it is
// read a line at a time, so memory does not grow with it
constexpr std::size_t kMaxJournalBytes = std::size_t{4} << 30;
// the largest results file opened by a reader (export, Python, the GUI): the readers hold the
// series they are asked for in memory, and a run refuses to write more than this by default
// (RunSettings::max_output_bytes)
constexpr std::uint64_t kMaxResultsFileBytes = std::uint64_t{64} << 30;

// what is wrong with a path, in words fit for "<path>: <reason>"
struct FileRefusal {
  std::string reason;
  int err = 0;  // errno behind it (ENOENT, EISDIR, EACCES, ...; EINVAL: not a regular file,
                // EFBIG: too large)
};

// the whole content of a regular file of at most max_bytes; nullopt with *why on failure
std::optional<std::string> readBoundedFile(const std::string& path, std::size_t max_bytes,
                                           FileRefusal* why);

// for files that another library opens (HDF5, Qt): the path names a regular file of at most
// max_bytes, checked on a descriptor opened as above (so the check itself never blocks); its size
// in *size. A file can still be swapped between this check and the library's own open; the
// library then reads whatever the path names, which for HDF5 is refused by its signature.
bool checkRegularFile(const std::string& path, std::uint64_t max_bytes, FileRefusal* why,
                      std::uint64_t* size = nullptr);

// "16 MiB", "1.5 GiB", "512 bytes": a size for messages
std::string formatBytes(std::uint64_t bytes);

// the same file: both exist and have the same device and inode (through links, whatever the
// spelling), or neither exists and their canonical forms are equal
bool sameFile(const std::string& a, const std::string& b);

}  // namespace dctwin
