// results.cpp: HDF5 results file (see results.h and docs/results.md)
//
// layout choices:
// - superblock and object formats are left at the library default (earliest; the superblock is
//   version 1 for its chunk B-tree K, below) so a file that was flushed and then abandoned
//   (process killed) opens without h5clear: the 1.10 "latest" format sets consistency flags in
//   the superblock that only a clean close removes.
// - time series are chunked {rows, c} with c = min(width, kMaxChunkBytes / (8 rows)), rows =
//   chunk_rows but see below;
//   a chunk then fits in HDF5's default 1 MiB per-dataset chunk cache, and very wide datasets
//   (one column per GPU) are split along the column dimension too.
// - a very wide series (per GPU on a hall: 55,296 columns) takes fewer rows per chunk, so that its
//   row buffer stays under kMaxBlockBytes (64 rows of every per-GPU series would hold ~1 GB of
//   buffers on a campus)
// - rows are buffered per series in a block of `rows` rows aligned with the chunk grid; a full
//   block is written with one extend + hyperslab write. flush() writes the partial block but keeps
//   it in the buffer, so when the block fills up it is rewritten whole (full-chunk writes need no
//   read-back of a compressed chunk); flush(false) leaves partial blocks in the buffer.
// - crash safety (measured by tests/solver/kill_test.py): the metadata cache never evicts (the
//   B-trees, object headers and heaps on disk change only inside H5Fflush) and the sink flushes
//   only when every block is full, so no chunk is rewritten and no space that the last flush
//   referenced is freed. Between flushes only new chunks are written, to space no flushed object
//   refers to: a kill there leaves exactly the file of the last flush. A kill during a flush
//   itself can leave that flush half written: the root attribute `rows_complete` is set only
//   after the flush has returned (and flushed again), so a reader knows which rows to trust.
//   H5Fflush writes the superblock (its end-of-allocation address) last, so before it starts,
//   publishEnd() writes HDF5's current end of allocation into the (v0 or v1) superblock itself:
//   without a raw-data chunk cache every chunk has its place by then, and a reader of a
//   half-written flush finds no address past the stored end. Metadata comes from 2 MiB blocks
//   (rarely a new one during a flush). The file is extended to that end sparsely, and a closed
//   file may keep unused rest of blocks as holes: its size (ls) may exceed its content (du).
// - locking: our own flock(LOCK_EX | LOCK_NB) on a descriptor opened without O_TRUNC, taken
//   before HDF5 creates (truncates) the file and held until close; HDF5's own locking is off (it
//   would lock the same file through a second descriptor). A failed lock leaves the file alone.
#include "solver/output/results.h"

#include <H5Cpp.h>
#include <H5DSpublic.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <new>
#include <optional>
#include <string_view>
#include <utility>

#include "solver/common/bounded_file.h"
#include "solver/common/parallel.h"

namespace dctwin {

namespace {

constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 20;   // = default chunk cache size
constexpr std::size_t kMaxBlockBytes = std::size_t{32} << 20;  // row buffer per series
constexpr int kDeflateLevel = 4;
// file space is handed out from blocks this large (HDF5's aggregators), so the end of allocated
// space that a flush records runs ahead of what the next flushes reference (see above)
constexpr hsize_t kMetaBlockBytes = hsize_t{2} << 20;
constexpr hsize_t kSmallDataBlockBytes = hsize_t{8} << 20;
constexpr unsigned kChunkBtreeK = 32;       // HDF5's default chunk B-tree K (H5Pset_istore_k)
constexpr unsigned kChunkBtreeKMax = 1024;  // nodes of ~82 KB per 2-D series

// a series' chunk shape: {rows, columns}, fewer rows where its row buffer would pass
// kMaxBlockBytes, fewer columns where a chunk would pass kMaxChunkBytes
std::pair<std::size_t, std::size_t> chunkShape(std::size_t width, std::size_t chunk_rows) {
  const std::size_t cols = std::max<std::size_t>(width, 1);
  const std::size_t rows =
      std::clamp<std::size_t>(kMaxBlockBytes / (sizeof(double) * cols), 1, chunk_rows);
  const std::size_t max_cols = std::max<std::size_t>(1, kMaxChunkBytes / (sizeof(double) * rows));
  return {rows, std::min(cols, max_cols)};
}

// the chunk B-tree K for a file whose series will hold about `rows` rows, the widest `width`
// columns: a node holds 2 K chunks, and one that is full splits (see create); 0 rows: unknown
unsigned chunkBtreeK(std::size_t rows, std::size_t width, std::size_t chunk_rows) {
  const auto [r, c] = chunkShape(width, chunk_rows);
  const std::size_t chunks = (rows + r - 1) / r * ((std::max<std::size_t>(width, 1) + c - 1) / c);
  unsigned k = kChunkBtreeK;
  while (2 * std::size_t(k) < chunks && k < kChunkBtreeKMax) k *= 2;
  return k;
}

// collects the messages of the current HDF5 error stack, innermost first
herr_t collectError(unsigned /*n*/, const H5E_error2_t* err, void* data) {
  auto* out = static_cast<std::vector<std::string>*>(data);
  if (err->desc != nullptr && err->desc[0] != '\0') {
    std::string d = err->desc;
    std::replace(d.begin(), d.end(), '\n', ' ');
    out->push_back(std::move(d));
  }
  return 0;
}

// the innermost HDF5 error (the cause) and the outermost (what failed); clears the stack
std::string errorStack() {
  std::vector<std::string> msgs;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collectError, &msgs);
  H5Eclear2(H5E_DEFAULT);
  if (msgs.empty()) return "";
  if (msgs.size() == 1 || msgs.front() == msgs.back()) return msgs.front();
  return msgs.front() + "; " + msgs.back();
}

// splits "/a/b/c" (or "a/b/c") into its components; "/" and "" give none
std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) {
      std::string part = path.substr(i, j - i);
      if (part != ".") parts.push_back(std::move(part));
    }
    i = j + 1;
  }
  return parts;
}

std::string joinPath(const std::vector<std::string>& parts, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += "/" + parts[i];
  return s.empty() ? "/" : s;
}

H5::StrType utf8Type() {
  H5::StrType t(H5::PredType::C_S1, H5T_VARIABLE);
  t.setCset(H5T_CSET_UTF8);
  return t;
}

}  // namespace

struct ResultsFile::Impl {
  struct Series {
    H5::DataSet ds;
    std::string path;
    std::size_t width = 0;        // as given (0: 1-D)
    std::size_t cols = 1;         // values per row (max(width, 1))
    std::size_t rows = 1;         // rows per chunk and buffered block
    std::size_t chunk_cols = 1;   // columns per chunk (a 2-D series)
    std::size_t block_start = 0;  // first row of the buffered block (a multiple of rows)
    std::size_t buffered = 0;     // rows in the buffer
    std::size_t on_disk = 0;      // rows of the buffer already written by a flush
    std::vector<double> buf;      // rows x cols, allocated on the first append
  };

  struct StrSeries {
    H5::DataSet ds;
    std::string path;
    std::vector<std::string> values;  // every entry appended
    std::size_t on_disk = 0;          // entries written
  };

  std::string path;
  std::size_t chunk_rows = 64;
  // compresses the chunks of a wide series' block on several threads (setThreads)
  std::unique_ptr<WorkerPool> pool;
  struct ChunkBuf {
    std::vector<unsigned char> shuffled;  // the shuffle filter's output
    std::vector<unsigned char> filtered;  // that deflated
    uLongf len = 0;                       // the deflated bytes
    int status = Z_OK;                    // compress2's result
  };
  std::vector<ChunkBuf> chunk_buf;  // per chunk of the block being written
  std::optional<H5::H5File> file;   // engaged once created
  bool open = false;
  int lock_fd = -1;    // PATH.partial, then PATH: holds flock(LOCK_EX) while the file is open
  int target_fd = -1;  // an existing PATH, locked until the rename replaces it
  std::string partial_path;
  bool published = false;  // renamed to `path`
  bool broken = false;     // a write failed: HDF5 may no longer write to the file

  // after a failed write (a full disk): HDF5's descriptor is pointed at an anonymous in-memory
  // file, so that nothing it still holds (metadata that refers to chunks never written) reaches
  // the disk while it can still close cleanly; the file stays as its last flush left it
  void freeze() {
    if (broken || !file) return;
    broken = true;
    void* handle = nullptr;
    if (H5Fget_vfd_handle(file->getId(), H5P_DEFAULT, &handle) < 0 || handle == nullptr) return;
    const int hdf5_fd = *static_cast<int*>(handle);
    const int junk = ::memfd_create("dctwin-discarded-writes", MFD_CLOEXEC);
    if (junk >= 0) {
      ::dup2(junk, hdf5_fd);
      ::close(junk);
    }
    // a file-size limit (ulimit -f) applies to the in-memory file too: the soft limit is raised
    // to the hard one until the close (restoreLimit), so that the close succeeds; HDF5 cannot
    // close a file whose close failed, not even at the process's exit
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
      saved_fsize = rl.rlim_cur;
      rl.rlim_cur = rl.rlim_max;
      raised_fsize = ::setrlimit(RLIMIT_FSIZE, &rl) == 0;
    }
    H5Eclear2(H5E_DEFAULT);
  }
  void restoreLimit() {
    if (!raised_fsize) return;
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_FSIZE, &rl) == 0) {
      rl.rlim_cur = saved_fsize;
      (void)::setrlimit(RLIMIT_FSIZE, &rl);
    }
    raised_fsize = false;
  }
  rlim_t saved_fsize = 0;
  bool raised_fsize = false;

  // the bytes a flush will write, at most: the buffered rows not yet on disk (as deflate's worst
  // case, a little over their raw size), the event log's new strings, and the metadata cache
  // (every object the file's metadata holds: the cache never evicts, so this bounds what a flush
  // can write), plus a margin for the small static datasets HDF5 buffers itself
  double pendingBytes(bool partial) const {
    double bytes = 256.0 * 1024;
    for (const Series& s : series)
      if (s.buffered > s.on_disk && (partial || s.buffered == s.rows))
        bytes += double(s.rows) * double(s.cols) * sizeof(double) * 1.01 + 4096;
    for (const StrSeries& s : strings)
      for (std::size_t i = s.on_disk; i < s.values.size(); ++i)
        bytes += double(s.values[i].size()) + 64;
    std::size_t max_size = 0, min_clean = 0, cur_size = 0;
    int entries = 0;
    if (H5Fget_mdc_size(file->getId(), &max_size, &min_clean, &cur_size, &entries) >= 0)
      bytes += double(cur_size);
    return bytes;
  }

  // before a flush (and before a static dataset of `extra` bytes): room for what it writes
  // (pendingBytes) on the file system, and for the file's end of allocation (with a new block of
  // each kind it may open) under the file-size limit; a write that could not complete is not
  // started, so HDF5 never sees a failed write it cannot close after
  void checkRoom(bool partial, double extra = 0) {
    if (broken) fail("an earlier write failed; the file is kept as of its last flush", "");
    haddr_t eoa = 0;
    if (H5Fget_eoa(file->getId(), &eoa) < 0) return;
    const double writes = pendingBytes(partial) + extra;
    const double size = double(eoa) + writes + double(kMetaBlockBytes + kSmallDataBlockBytes);
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        size > double(rl.rlim_cur)) {
      freeze();
      fail("the file would outgrow the file-size limit (" + std::to_string(rl.rlim_cur) +
               " bytes); kept as of its last flush",
           "");
    }
    struct statvfs vs {};
    const std::string on = published ? path : partial_path;
    if (::statvfs(on.c_str(), &vs) == 0) {
      const double free_bytes = double(vs.f_bavail) * double(vs.f_frsize);
      if (writes > free_bytes) {
        freeze();
        fail("disk full (" + std::to_string(long(free_bytes / 1024)) +
                 " KiB free, the flush needs " + std::to_string(long(writes / 1024)) +
                 " KiB); kept as of its last flush",
             "");
      }
    }
  }

  // the first flush with rows puts the file under its name (atomically replacing an older one)
  void publish() {
    if (published) return;
    if (::rename(partial_path.c_str(), path.c_str()) != 0)
      fail("cannot rename '" + partial_path + "' to it: " + std::strerror(errno), "");
    published = true;
    if (target_fd >= 0) ::close(target_fd);
    target_fd = -1;
  }
  std::vector<Series> series;
  std::vector<StrSeries> strings;

  std::string message(const std::string& what, const std::string& obj,
                      const H5::Exception* e = nullptr) const {
    std::string msg = "results file '" + path + "'";
    if (!obj.empty()) msg += ", '" + obj + "'";
    msg += ": " + what;
    if (e != nullptr) {
      std::string detail = e->getDetailMsg();
      std::string stack = errorStack();
      if (!detail.empty()) msg += ": " + detail;
      if (!stack.empty()) msg += " (" + stack + ")";
    }
    return msg;
  }

  [[noreturn]] void fail(const std::string& what, const std::string& obj,
                         const H5::Exception* e = nullptr) const {
    throw ResultsError(message(what, obj, e));
  }

  // a write HDF5 could not do (a full disk): the file is frozen as of its last flush (freeze), so
  // that closing it later neither writes half of what failed nor fails again (an H5File whose
  // close failed would close a second time in its destructor)
  [[noreturn]] void failWrite(const std::string& what, const std::string& obj,
                              const H5::Exception* e) {
    const std::string msg = message(what, obj, e);
    freeze();
    throw ResultsError(msg);
  }

  void requireOpen(const std::string& obj) const {
    if (!open) fail("file is closed", obj);
  }

  H5O_type_t typeOf(const std::string& p) const { return file->childObjType(p); }

  bool exists(const std::string& p) const {
    return H5Lexists(file->getId(), p.c_str(), H5P_DEFAULT) > 0;
  }

  // creates the groups of parts[0, n) as needed; throws if one is not a group
  void makeGroups(const std::vector<std::string>& parts, std::size_t n, const std::string& obj) {
    for (std::size_t i = 1; i <= n; ++i) {
      std::string g = joinPath(parts, i);
      if (!exists(g)) {
        file->createGroup(g).close();
      } else if (typeOf(g) != H5O_TYPE_GROUP) {
        fail("'" + g + "' exists and is not a group", obj);
      }
    }
  }

  // parent groups of a new dataset; throws if the dataset already exists
  std::string prepareDataset(const std::string& p) {
    auto parts = splitPath(p);
    if (parts.empty()) fail("a dataset needs a name", p);
    std::string full = joinPath(parts, parts.size());
    makeGroups(parts, parts.size() - 1, full);
    if (exists(full)) fail("already exists", full);
    return full;
  }

  template <class F>
  void withObject(const std::string& p, F&& f) {
    auto parts = splitPath(p);
    std::string full = joinPath(parts, parts.size());
    if (parts.empty()) {
      H5::Group root = file->openGroup("/");
      f(static_cast<H5::H5Object&>(root));
      return;
    }
    if (!exists(full)) makeGroups(parts, parts.size(), full);
    switch (typeOf(full)) {
      case H5O_TYPE_GROUP: {
        H5::Group g = file->openGroup(full);
        f(static_cast<H5::H5Object&>(g));
        break;
      }
      case H5O_TYPE_DATASET: {
        H5::DataSet d = file->openDataSet(full);
        f(static_cast<H5::H5Object&>(d));
        break;
      }
      default:
        fail("not a group or dataset", full);
    }
  }

  static void putString(H5::H5Object& obj, const std::string& name, const std::string& value) {
    if (obj.attrExists(name)) obj.removeAttr(name);
    H5::StrType t = utf8Type();
    H5::Attribute a = obj.createAttribute(name, t, H5::DataSpace(H5S_SCALAR));
    const char* p = value.c_str();
    a.write(t, &p);
  }

  static void putScalar(H5::H5Object& obj, const std::string& name, const H5::PredType& file_type,
                        const H5::PredType& mem_type, const void* value) {
    if (obj.attrExists(name)) obj.removeAttr(name);
    H5::Attribute a = obj.createAttribute(name, file_type, H5::DataSpace(H5S_SCALAR));
    a.write(mem_type, value);
  }

  static void labelDataset(H5::DataSet& ds, const std::string& units,
                           const std::string& description) {
    putString(ds, "units", units);
    putString(ds, "description", description);
  }

  // writes the buffered rows not yet on disk (the whole buffered block, so a partial chunk is
  // rewritten in one piece; partial = false: a full block only); a full block moves the buffer
  // on to the next block
  void writeBuffered(Series& s, bool partial = true) {
    if (s.buffered > s.on_disk && (partial || s.buffered == s.rows)) {
      const hsize_t total = s.block_start + s.buffered;
      if (s.width == 0) {
        hsize_t size[1] = {total};
        s.ds.extend(size);
        H5::DataSpace fspace = s.ds.getSpace();
        hsize_t start[1] = {s.block_start}, count[1] = {s.buffered};
        fspace.selectHyperslab(H5S_SELECT_SET, count, start);
        H5::DataSpace mspace(1, count);
        s.ds.write(s.buf.data(), H5::PredType::NATIVE_DOUBLE, mspace, fspace);
      } else {
        hsize_t size[2] = {total, s.cols};
        s.ds.extend(size);
        if (pool && s.cols > s.chunk_cols) {
          writeChunks(s);  // several chunks: filtered on the pool
        } else {
          H5::DataSpace fspace = s.ds.getSpace();
          hsize_t start[2] = {s.block_start, 0}, count[2] = {s.buffered, s.cols};
          fspace.selectHyperslab(H5S_SELECT_SET, count, start);
          H5::DataSpace mspace(2, count);
          s.ds.write(s.buf.data(), H5::PredType::NATIVE_DOUBLE, mspace, fspace);
        }
      }
      s.on_disk = s.buffered;
    }
    if (s.buffered == s.rows) {
      s.block_start += s.rows;
      s.buffered = 0;
      s.on_disk = 0;
    }
  }

  // the buffered block of a 2-D series that spans several chunks (one column per GPU), each
  // chunk filtered on the pool as the dataset's pipeline would (the shuffle filter, then deflate:
  // zlib's compress2 at the same level, as HDF5's H5Z_filter_deflate calls it) and then written
  // as it is (H5Dwrite_chunk), so the file holds the bytes HDF5's own write makes (tests/solver/
  // results_test.cpp) while the compression, most of a wide block's write, runs on every thread.
  // A chunk's rows past the buffered ones and its columns past the dataset's width hold the fill
  // value (NaN), as HDF5 stores a chunk it writes in part.
  void writeChunks(Series& s) {
    const std::size_t cw = s.chunk_cols, nrow = s.rows, ncol = s.cols;
    const std::size_t nchunk = (ncol + cw - 1) / cw;
    const std::size_t n = nrow * cw, bytes = n * sizeof(double);
    // the buffers sized here, so that the threads only compute (an allocation that failed on one
    // would end the process)
    const uLongf bound = compressBound(uLong(bytes));
    if (chunk_buf.size() < nchunk) chunk_buf.resize(nchunk);
    for (std::size_t k = 0; k < nchunk; ++k) {
      chunk_buf[k].shuffled.resize(bytes);
      chunk_buf[k].filtered.resize(bound);
    }
    const double* buf = s.buf.data();
    const std::size_t buffered = s.buffered;
    const auto filter = [&](int k) {
      ChunkBuf& cb = chunk_buf[std::size_t(k)];
      unsigned char* sh = cb.shuffled.data();
      const std::size_t c0 = std::size_t(k) * cw, w = std::min(cw, ncol - c0);
      const double nan = std::numeric_limits<double>::quiet_NaN();
      // the shuffle filter: byte b of element e at b * n + e (H5Z_filter_shuffle)
      for (std::size_t i = 0; i < nrow; ++i) {
        for (std::size_t c = 0; c < cw; ++c) {
          const double v = i < buffered && c < w ? buf[i * ncol + c0 + c] : nan;
          const auto u = std::bit_cast<std::uint64_t>(v);
          const std::size_t e = i * cw + c;
          for (std::size_t b = 0; b < sizeof(double); ++b)
            sh[b * n + e] = static_cast<unsigned char>(u >> (8 * b));
        }
      }
      cb.len = bound;
      cb.status = compress2(cb.filtered.data(), &cb.len, sh, uLong(bytes), kDeflateLevel);
    };
    pool->run(int(nchunk), filter);
    for (std::size_t k = 0; k < nchunk; ++k) {
      const ChunkBuf& cb = chunk_buf[k];
      if (cb.status != Z_OK)
        throw H5::DataSetIException("ResultsFile",
                                    "deflate failed (zlib " + std::to_string(cb.status) + ")");
      const hsize_t offset[2] = {s.block_start, k * cw};
      if (H5Dwrite_chunk(s.ds.getId(), H5P_DEFAULT, 0, offset, cb.len, cb.filtered.data()) < 0)
        throw H5::DataSetIException("ResultsFile", "H5Dwrite_chunk failed");
    }
  }

  void writeStrings(StrSeries& s) {
    if (s.values.size() == s.on_disk) return;
    hsize_t size[1] = {s.values.size()};
    s.ds.extend(size);
    H5::DataSpace fspace = s.ds.getSpace();
    hsize_t start[1] = {s.on_disk}, count[1] = {s.values.size() - s.on_disk};
    fspace.selectHyperslab(H5S_SELECT_SET, count, start);
    H5::DataSpace mspace(1, count);
    std::vector<const char*> ptrs;
    for (std::size_t i = s.on_disk; i < s.values.size(); ++i) ptrs.push_back(s.values[i].c_str());
    s.ds.write(ptrs.data(), utf8Type(), mspace, fspace);
    s.on_disk = s.values.size();
  }

  // the end-of-allocation address the superblock records, and its offset in the file: in a
  // superblock of version 0 or 1 with 8-byte addresses (HDF5 file format specification,
  // "Superblock": offset 40 in version 0; version 1 adds the indexed storage K and 2 reserved
  // bytes before the addresses) 8 little-endian bytes at 40 or 44. -1 for another layout or
  // an unreadable file: leave it to HDF5
  int storedEnd(std::uint64_t* stored) const {
    unsigned char head[56] = {};
    if (lock_fd < 0 || ::pread(lock_fd, head, sizeof head, 0) != ssize_t(sizeof head) ||
        head[13] != 8)
      return -1;
    const int at = head[8] == 0 ? 40 : head[8] == 1 ? 44 : -1;
    if (at < 0) return -1;
    *stored = 0;
    for (int k = 7; k >= 0; --k) *stored = (*stored << 8) | head[at + k];
    return at;
  }

  // the superblock's end-of-allocation address (storedEnd) brought up to HDF5's current one
  // before H5Fflush writes any metadata that refers to new space: HDF5 writes the superblock
  // last, and a reader refuses an address past the stored end ("addr overflow")
  void publishEnd() {
    haddr_t eoa = 0;
    std::uint64_t stored = 0;
    if (H5Fget_eoa(file->getId(), &eoa) < 0) return;
    const int at = storedEnd(&stored);
    if (at < 0 || stored >= eoa) return;
    struct stat sb {};
    if (::fstat(lock_fd, &sb) == 0 && std::uint64_t(sb.st_size) < eoa &&
        ::ftruncate(lock_fd, off_t(eoa)) != 0)
      return;  // the file could not grow (a full disk): checkRoom and the flush will tell
    unsigned char field[8];
    for (int k = 0; k < 8; ++k)
      field[k] = static_cast<unsigned char>(std::uint64_t(eoa) >> (8 * k));
    (void)!::pwrite(lock_fd, field, 8, at);
  }

  // after a clean close: the file's length back to its end of allocation (publishEnd may have
  // extended it past what HDF5 knows of)
  void trimToEnd() {
    std::uint64_t stored = 0;
    if (storedEnd(&stored) < 0) return;
    struct stat sb {};
    if (stored > 0 && ::fstat(lock_fd, &sb) == 0 && std::uint64_t(sb.st_size) > stored)
      (void)!::ftruncate(lock_fd, off_t(stored));
  }

  void flushAll(bool partial = true) {
    if (broken) fail("an earlier write failed; the file is kept as of its last flush", "");
    checkRoom(partial);
    for (auto& s : series) {
      try {
        writeBuffered(s, partial);
      } catch (const H5::Exception& e) {
        const std::string msg = message("writing rows failed", s.path, &e);
        freeze();
        throw ResultsError(msg);
      }
    }
    for (auto& s : strings) {
      try {
        writeStrings(s);
      } catch (const H5::Exception& e) {
        const std::string msg = message("writing strings failed", s.path, &e);
        freeze();
        throw ResultsError(msg);
      }
    }
    publishEnd();
    try {
      file->flush(H5F_SCOPE_GLOBAL);
    } catch (const H5::Exception& e) {
      const std::string msg = message("flush failed", "", &e);
      freeze();
      throw ResultsError(msg);
    }
    // the file takes its name once a flush with rows has completed: the first flush that writes
    // rows also creates every chunk index, and a kill during it could leave a file that does not
    // read under the final name (before, a run killed leaves PATH.partial and any older PATH)
    if (std::any_of(series.begin(), series.end(),
                    [](const Series& s) { return s.block_start > 0 || s.on_disk > 0; }))
      publish();
  }
};

void checkOutputPath(const std::string& output, const std::vector<std::string>& inputs) {
  for (const std::string& in : inputs) {
    if (in.empty() || output.empty()) continue;
    // the same device and inode through any link or spelling (solver/common/bounded_file.h)
    if (sameFile(output, in))
      throw ResultsError("output file '" + output + "' is the input file '" + in +
                         "'; refusing to overwrite it (choose another --output)");
  }
}

ResultsFile::ResultsFile(const std::string& path, std::size_t chunk_rows, std::size_t expected_rows,
                         std::size_t widest)
    : impl_(std::make_unique<Impl>()) {
  namespace fs = std::filesystem;
  H5::Exception::dontPrint();
  impl_->path = path;
  impl_->chunk_rows = chunk_rows;
  if (path.empty()) throw ResultsError("results file: empty path");
  if (chunk_rows == 0) impl_->fail("chunk_rows must be positive", "");

  // clear reasons first; HDF5's own message only says the create failed
  std::error_code ec;
  fs::path p(path);
  fs::path dir = p.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::exists(dir, ec)) impl_->fail("directory '" + dir.string() + "' does not exist", "");
  if (!fs::is_directory(dir, ec)) impl_->fail("'" + dir.string() + "' is not a directory", "");
  if (fs::is_directory(p, ec)) impl_->fail("is a directory", "");
  if (fs::exists(p, ec)) {
    if (!fs::is_regular_file(p, ec)) impl_->fail("exists and is not a regular file", "");
    if (::access(path.c_str(), W_OK) != 0) {
      impl_->fail(std::string("file is not writable: ") + std::strerror(errno), "");
    }
  } else if (::access(dir.c_str(), W_OK) != 0) {
    impl_->fail("directory '" + dir.string() + "' is not writable: " + std::strerror(errno), "");
  }

  // 1. an existing file: lock it (without truncating) and check it is HDF5; a file another process
  // holds, or a file that is not HDF5 (an input, a text file), is left as it is
  auto lockFd = [&](const std::string& p, int flags) {
    const int fd = ::open(p.c_str(), flags | O_RDWR | O_CLOEXEC, 0644);
    if (fd < 0) impl_->fail("cannot open '" + p + "': " + std::strerror(errno), "");
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      impl_->fail(err == EWOULDBLOCK ? "'" + p +
                                           "' is open in another process (a run writing it, or a "
                                           "reader); left as it is"
                                     : "cannot lock '" + p + "': " + std::strerror(err),
                  "");
    }
    return fd;
  };
  if (fs::exists(p, ec)) {
    const int fd = lockFd(path, 0);
    struct stat sb {};
    if (::fstat(fd, &sb) == 0 && sb.st_size > 0) {
      static const unsigned char kSig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
      unsigned char head[8] = {};
      const bool hdf5 = ::pread(fd, head, 8, 0) == 8 && std::memcmp(head, kSig, 8) == 0;
      if (!hdf5) {
        ::close(fd);
        impl_->fail("exists and is not an HDF5 file; not overwritten (choose another output path)",
                    "");
      }
    }
    impl_->target_fd = fd;
  }
  // 2. the file is written as PATH.partial (locked) and renamed to PATH at its first flush with
  // rows (or its close), so a run killed before that leaves PATH as it was
  impl_->partial_path = path + ".partial";
  impl_->lock_fd = lockFd(impl_->partial_path, O_CREAT);
  auto unlock = [&] {
    ::close(impl_->lock_fd);
    if (impl_->target_fd >= 0) ::close(impl_->target_fd);
    impl_->lock_fd = impl_->target_fd = -1;
  };

  // 3. create: no metadata evictions, space from large blocks, HDF5's own locking off
  try {
    H5::FileCreatPropList fcpl;
    // chunk B-tree nodes large enough for the run's rows (chunkBtreeK): a series's chunk index
    // that splits a node gets a new node that its parent points to, and a flush writes the
    // parent first, so a flush cut short by a kill could leave a parent pointing at a node not
    // yet written (with HDF5's default a node split every ~32 chunks, at almost every flush of a
    // long run). Past the default, the superblock is version 1 (publishEnd reads either).
    const unsigned k = chunkBtreeK(expected_rows, widest, chunk_rows);
    if (k != kChunkBtreeK) H5Pset_istore_k(fcpl.getId(), k);
    H5::FileAccPropList fapl;
    H5Pset_file_locking(fapl.getId(), 0, 1);
    H5Pset_meta_block_size(fapl.getId(), kMetaBlockBytes);
    H5Pset_small_data_block_size(fapl.getId(), kSmallDataBlockBytes);
    H5AC_cache_config_t mdc{};
    mdc.version = H5AC__CURR_CACHE_CONFIG_VERSION;
    H5Pget_mdc_config(fapl.getId(), &mdc);
    mdc.evictions_enabled = 0;
    mdc.incr_mode = H5C_incr__off;
    mdc.flash_incr_mode = H5C_flash_incr__off;
    mdc.decr_mode = H5C_decr__off;
    mdc.set_initial_size = 1;
    mdc.initial_size = std::size_t{16} << 20;
    mdc.max_size = std::max<std::size_t>(mdc.max_size, mdc.initial_size);
    H5Pset_mdc_config(fapl.getId(), &mdc);
    // no raw-data chunk cache: a chunk gets its place in the file when it is written, before the
    // flush that publishes it (see publishEnd)
    H5Pset_cache(fapl.getId(), 0, 0, 0, 0.75);
    impl_->file.emplace(impl_->partial_path, H5F_ACC_TRUNC, fcpl, fapl);
  } catch (const H5::Exception& e) {
    ::unlink(impl_->partial_path.c_str());
    unlock();
    impl_->fail("cannot create", "", &e);
  }
  impl_->open = true;
}

ResultsFile::~ResultsFile() {
  if (!impl_ || !impl_->open) return;
  try {
    close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dctwin: closing %s failed: %s\n", impl_->path.c_str(), e.what());
  } catch (...) {
    std::fprintf(stderr, "dctwin: closing %s failed\n", impl_->path.c_str());
  }
}

void ResultsFile::setAttribute(const std::string& path, const std::string& name,
                               const std::string& value) {
  impl_->requireOpen(path);
  try {
    impl_->withObject(path, [&](H5::H5Object& o) { Impl::putString(o, name, value); });
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot set attribute '" + name + "'", path, &e);
  }
}

void ResultsFile::setAttribute(const std::string& path, const std::string& name, double value) {
  impl_->requireOpen(path);
  try {
    impl_->withObject(path, [&](H5::H5Object& o) {
      Impl::putScalar(o, name, H5::PredType::IEEE_F64LE, H5::PredType::NATIVE_DOUBLE, &value);
    });
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot set attribute '" + name + "'", path, &e);
  }
}

void ResultsFile::setAttribute(const std::string& path, const std::string& name, long long value) {
  impl_->requireOpen(path);
  try {
    impl_->withObject(path, [&](H5::H5Object& o) {
      Impl::putScalar(o, name, H5::PredType::STD_I64LE, H5::PredType::NATIVE_LLONG, &value);
    });
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot set attribute '" + name + "'", path, &e);
  }
}

void ResultsFile::attachScale(const std::string& path, unsigned dim, const std::string& scale,
                              const std::string& name) {
  impl_->requireOpen(path);
  try {
    H5::DataSet ds = impl_->file->openDataSet(path);
    H5::DataSet sc = impl_->file->openDataSet(scale);
    if (H5DSis_scale(sc.getId()) <= 0 && H5DSset_scale(sc.getId(), name.c_str()) < 0)
      throw H5::DataSetIException("H5DSset_scale", scale + " cannot be a dimension scale");
    if (H5DSattach_scale(ds.getId(), sc.getId(), dim) < 0)
      throw H5::DataSetIException("H5DSattach_scale", "cannot attach " + scale);
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot attach the dimension scale " + scale, path, &e);
  }
}

void ResultsFile::writeStrings(const std::string& path, const std::vector<std::string>& values,
                               const std::string& description) {
  impl_->requireOpen(path);
  impl_->checkRoom(false, [&] {
    double b = 0;
    for (const auto& v : values) b += double(v.size()) + 16;
    return b;
  }());
  try {
    std::string full = impl_->prepareDataset(path);
    std::vector<const char*> ptrs;
    ptrs.reserve(values.size());
    for (const auto& v : values) ptrs.push_back(v.c_str());
    hsize_t dims[1] = {values.size()};
    H5::StrType t = utf8Type();
    H5::DataSet ds = impl_->file->createDataSet(full, t, H5::DataSpace(1, dims));
    if (!values.empty()) ds.write(ptrs.data(), t);
    // labels are not quantities: the units attribute is present but empty
    Impl::labelDataset(ds, "", description);
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot write strings", path, &e);
  }
}

void ResultsFile::writeVector(const std::string& path, std::span<const double> values,
                              const std::string& units, const std::string& description) {
  impl_->requireOpen(path);
  impl_->checkRoom(false, double(values.size()) * 8);
  try {
    std::string full = impl_->prepareDataset(path);
    hsize_t dims[1] = {values.size()};
    H5::DataSet ds =
        impl_->file->createDataSet(full, H5::PredType::IEEE_F64LE, H5::DataSpace(1, dims));
    if (!values.empty()) ds.write(values.data(), H5::PredType::NATIVE_DOUBLE);
    Impl::labelDataset(ds, units, description);
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot write vector", path, &e);
  }
}

void ResultsFile::writeIntVector(const std::string& path, std::span<const long long> values,
                                 const std::string& description) {
  impl_->requireOpen(path);
  impl_->checkRoom(false, double(values.size()) * 8);
  try {
    std::string full = impl_->prepareDataset(path);
    hsize_t dims[1] = {values.size()};
    H5::DataSet ds =
        impl_->file->createDataSet(full, H5::PredType::STD_I64LE, H5::DataSpace(1, dims));
    if (!values.empty()) ds.write(values.data(), H5::PredType::NATIVE_LLONG);
    Impl::labelDataset(ds, "1", description);
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot write integer vector", path, &e);
  }
}

int ResultsFile::addSeries(const std::string& path, std::size_t width, const std::string& units,
                           const std::string& description) {
  impl_->requireOpen(path);
  if (impl_->series.size() >= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    impl_->fail("too many series", path);
  }
  Impl::Series s;
  s.width = width;
  s.cols = std::max<std::size_t>(width, 1);
  const auto [chunk_r, chunk_c] = chunkShape(width, impl_->chunk_rows);
  s.rows = chunk_r;
  try {
    s.path = impl_->prepareDataset(path);
    const hsize_t rows = s.rows;
    H5::DSetCreatPropList dcpl;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    dcpl.setFillValue(H5::PredType::NATIVE_DOUBLE, &nan);
    if (width == 0) {
      hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {rows};
      dcpl.setChunk(1, chunk);
      dcpl.setShuffle();
      dcpl.setDeflate(kDeflateLevel);
      s.ds = impl_->file->createDataSet(s.path, H5::PredType::IEEE_F64LE,
                                        H5::DataSpace(1, dims, maxdims), dcpl);
    } else {
      hsize_t dims[2] = {0, width}, maxdims[2] = {H5S_UNLIMITED, width};
      hsize_t chunk[2] = {rows, chunk_c};
      s.chunk_cols = chunk[1];
      dcpl.setChunk(2, chunk);
      dcpl.setShuffle();
      dcpl.setDeflate(kDeflateLevel);
      s.ds = impl_->file->createDataSet(s.path, H5::PredType::IEEE_F64LE,
                                        H5::DataSpace(2, dims, maxdims), dcpl);
    }
    Impl::labelDataset(s.ds, units, description);
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot create series", path, &e);
  }
  impl_->series.push_back(std::move(s));
  return static_cast<int>(impl_->series.size() - 1);
}

void ResultsFile::appendRow(int series, std::span<const double> row) {
  if (series < 0 || static_cast<std::size_t>(series) >= impl_->series.size()) {
    impl_->fail("no series with handle " + std::to_string(series), "");
  }
  Impl::Series& s = impl_->series[static_cast<std::size_t>(series)];
  impl_->requireOpen(s.path);
  if (row.size() != s.cols) {
    impl_->fail(
        "row has " + std::to_string(row.size()) + " values, expected " + std::to_string(s.cols),
        s.path);
  }
  if (s.buf.empty()) s.buf.resize(s.rows * s.cols);
  std::copy(row.begin(), row.end(),
            s.buf.begin() + static_cast<std::ptrdiff_t>(s.buffered * s.cols));
  ++s.buffered;
  if (s.buffered == s.rows && !impl_->broken) {
    try {
      impl_->writeBuffered(s);
    } catch (const H5::Exception& e) {
      const std::string msg = impl_->message("writing rows failed", s.path, &e);
      impl_->freeze();
      throw ResultsError(msg);
    }
  }
}

void ResultsFile::setThreads(int threads) {
  // the direct chunk writes hand HDF5 the file's bytes: little-endian doubles, as IEEE_F64LE
  if constexpr (std::endian::native != std::endian::little) threads = 1;
  impl_->pool = threads > 1 ? std::make_unique<WorkerPool>(threads) : nullptr;
}

std::size_t ResultsFile::chunkRows(int series) const {
  if (series < 0 || static_cast<std::size_t>(series) >= impl_->series.size()) {
    impl_->fail("no series with handle " + std::to_string(series), "");
  }
  return impl_->series[static_cast<std::size_t>(series)].rows;
}

int ResultsFile::addStringSeries(const std::string& path, const std::string& description) {
  impl_->requireOpen(path);
  Impl::StrSeries s;
  try {
    s.path = impl_->prepareDataset(path);
    hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED}, chunk[1] = {1};
    H5::DSetCreatPropList dcpl;
    dcpl.setChunk(1, chunk);
    s.ds = impl_->file->createDataSet(s.path, utf8Type(), H5::DataSpace(1, dims, maxdims), dcpl);
    Impl::labelDataset(s.ds, "", description);
  } catch (const H5::Exception& e) {
    impl_->failWrite("cannot create string series", path, &e);
  }
  impl_->strings.push_back(std::move(s));
  return static_cast<int>(impl_->strings.size() - 1);
}

void ResultsFile::appendString(int series, const std::string& value) {
  if (series < 0 || static_cast<std::size_t>(series) >= impl_->strings.size()) {
    impl_->fail("no string series with handle " + std::to_string(series), "");
  }
  impl_->requireOpen(impl_->strings[static_cast<std::size_t>(series)].path);
  impl_->strings[static_cast<std::size_t>(series)].values.push_back(value);
}

std::size_t ResultsFile::rows(int series) const {
  if (series < 0 || static_cast<std::size_t>(series) >= impl_->series.size()) {
    impl_->fail("no series with handle " + std::to_string(series), "");
  }
  const Impl::Series& s = impl_->series[static_cast<std::size_t>(series)];
  return s.block_start + s.buffered;
}

void ResultsFile::flush(bool partial_blocks) {
  impl_->requireOpen("");
  impl_->flushAll(partial_blocks);
}

void ResultsFile::close() {
  if (!impl_->open) return;  // closing twice is harmless
  // whatever fails below, the file counts as closed afterwards: the destructor must not retry
  std::string error;
  try {
    if (!impl_->broken) impl_->flushAll();
  } catch (const ResultsError& e) {
    error = e.what();
    impl_->freeze();  // HDF5's own flush on close must not write what this one could not
  }
  try {
    for (auto& s : impl_->series) s.ds.close();
    for (auto& s : impl_->strings) s.ds.close();
    impl_->file->close();
  } catch (const H5::Exception& e) {
    if (error.empty()) error = impl_->message("close failed", "", &e);
    // HDF5 cannot close a file twice once a close failed (it crashes): the handle is forgotten
    // (left to the process's end), not closed again by ~H5File
    H5Eclear2(H5E_DEFAULT);
    new (&*impl_->file) H5::H5File();
  }
  impl_->open = false;
  impl_->restoreLimit();
  if (!impl_->broken) impl_->trimToEnd();
  if (error.empty() && !impl_->broken && !impl_->published) {
    try {
      impl_->publish();
    } catch (const ResultsError& e) {
      error = e.what();
    }
  }
  // a file that failed before its first flush never gets the name (an older file keeps it)
  if (impl_->broken && !impl_->published) ::unlink(impl_->partial_path.c_str());
  if (impl_->broken && error.empty())
    error = impl_->message("an earlier write failed; the file is kept as of its last flush", "");
  if (impl_->lock_fd >= 0) ::close(impl_->lock_fd);  // releases the lock
  if (impl_->target_fd >= 0) ::close(impl_->target_fd);
  impl_->lock_fd = impl_->target_fd = -1;
  for (auto& s : impl_->series) std::vector<double>().swap(s.buf);
  if (!error.empty()) throw ResultsError(error);
}

void writeProvenance(ResultsFile& f, const Provenance& p, const SolverSettings& s) {
  f.setAttribute("/", "dctwin_version", p.version);
  f.setAttribute("/", "git_revision", p.git_revision);
  f.setAttribute("/", "command_line", p.command_line);
  f.setAttribute("/", "host", p.host);
  f.setAttribute("/", "created", p.created);
  f.setAttribute("/", "data_dir", p.data_dir);
  f.setAttribute("/", "solver_rtol", s.rtol);
  f.setAttribute("/", "solver_atol_temperature", s.atol_T);
  f.setAttribute("/", "solver_atol_control", s.atol_ctrl);
  f.setAttribute("/", "solver_max_step", s.max_step);
  f.setAttribute("/", "output_interval", s.output_interval);
  f.setAttribute("/", "gpu_step", s.gpu_step);
  f.setAttribute("/", "coupling_step", s.coupling_step);
  // the annual mode's settings, written in both modes so every file has the same attributes
  const AnnualParams& a = s.annual;
  f.setAttribute("/", "mode", std::string(a.enabled ? "annual" : "full"));
  f.setAttribute("/", "annual_window", a.window);
  f.setAttribute("/", "annual_settle", a.settle);
  f.setAttribute("/", "annual_period", a.period);
  f.setAttribute("/", "annual_slow_step", a.slow_step);
  f.setAttribute("/", "annual_supply_change", a.dT_supply);
  f.setAttribute("/", "annual_wet_bulb_change", a.dT_wet_bulb);
}

}  // namespace dctwin
