#pragma once
// The translated files of POST /translate_file, kept in memory until fetched from
// GET /download_file/NAME. LibreTranslate writes them to a temporary folder and deletes them
// after 30 minutes; here they are kept as long, but also bounded in count and bytes (the
// oldest go first), so that no client can fill the memory or the disk.

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace atento {

struct StoredFile {
  std::string name;     ///< the name to download it as (the uploaded file's, made safe)
  std::string content;  ///< the translated file
};

struct FileStoreLimits {
  size_t max_files = 256;
  size_t max_bytes = 64u << 20;
  std::chrono::seconds keep{30 * 60};
};

class TranslatedFiles {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  explicit TranslatedFiles(FileStoreLimits limits = {}, Clock clock = nullptr);

  /// Keeps `file`; returns its download name, "<32 random hex digits>.<name>" (as
  /// LibreTranslate's "<uuid>.<name>"). Forgets the oldest files while over the limits.
  std::string put(StoredFile file);
  /// The file stored as `id` (a name put() returned), if still kept.
  std::optional<StoredFile> get(const std::string& id);

  size_t size() const;
  size_t bytes() const;

 private:
  struct Entry {
    StoredFile file;
    std::chrono::steady_clock::time_point stored;
    uint64_t order;
  };
  /// Forgets expired files, then the oldest while over the limits. Holds the lock.
  void evict(std::chrono::steady_clock::time_point now);

  FileStoreLimits limits_;
  Clock clock_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> files_;
  std::map<uint64_t, std::string> by_age_;
  uint64_t next_order_ = 0;
  size_t bytes_ = 0;
};

/// `name` with only [A-Za-z0-9._-] kept (others become '_'), without leading dots, at most 100
/// bytes (the extension kept); "file" when nothing is left. Like werkzeug's secure_filename.
std::string safe_file_name(const std::string& name);

}  // namespace atento
