#include "model/zip_bounds.h"

#include <algorithm>
#include <fstream>
#include <vector>

namespace atento::model {
namespace {

constexpr uint32_t kEndSignature = 0x06054b50;  // end of central directory
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kEntrySignature = 0x02014b50;  // central directory file header
constexpr size_t kEndSize = 22, kZip64LocatorSize = 20, kZip64EndSize = 56, kEntrySize = 46;
constexpr size_t kMaxComment = 0xFFFF;

uint64_t little(const std::vector<char>& bytes, size_t at, int width) {
  uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[at + static_cast<size_t>(i)]);
  }
  return value;
}

std::vector<char> read_at(std::ifstream& in, uint64_t offset, uint64_t size) {
  std::vector<char> bytes(size);
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (!in) bytes.clear();
  return bytes;
}

/// Where the central directory lies and how many entries it lists.
struct Directory {
  uint64_t offset = 0, size = 0, entries = 0;
  std::string problem;
};

/// The zip64 end record, which holds the real values when the classic one says 0xFFFF….
Directory zip64_directory(std::ifstream& in, uint64_t end_at, uint64_t file_size) {
  if (end_at < kZip64LocatorSize) return {0, 0, 0, "a zip64 directory without its locator"};
  auto locator = read_at(in, end_at - kZip64LocatorSize, kZip64LocatorSize);
  if (locator.empty() || little(locator, 0, 4) != kZip64LocatorSignature) {
    return {0, 0, 0, "a zip64 directory without its locator"};
  }
  const uint64_t at = little(locator, 8, 8);
  if (at > file_size || file_size - at < kZip64EndSize)
    return {0, 0, 0, "a zip64 end record beyond the file"};
  auto end = read_at(in, at, kZip64EndSize);
  if (end.empty() || little(end, 0, 4) != kZip64EndSignature)
    return {0, 0, 0, "a bad zip64 end record"};
  return {little(end, 48, 8), little(end, 40, 8), little(end, 32, 8), ""};
}

/// Finds the end record within the last 64 KiB (a comment may follow it).
Directory find_directory(std::ifstream& in, uint64_t file_size) {
  if (file_size < kEndSize) return {0, 0, 0, "too short for a zip archive"};
  const uint64_t tail_size = std::min<uint64_t>(file_size, kEndSize + kMaxComment);
  auto tail = read_at(in, file_size - tail_size, tail_size);
  if (tail.empty()) return {0, 0, 0, "cannot read the end of the file"};
  for (size_t at = tail.size() - kEndSize + 1; at-- > 0;) {
    if (little(tail, at, 4) != kEndSignature) continue;
    Directory d{little(tail, at + 16, 4), little(tail, at + 12, 4), little(tail, at + 10, 2), ""};
    if (d.offset == 0xFFFFFFFF || d.size == 0xFFFFFFFF || d.entries == 0xFFFF) {
      return zip64_directory(in, file_size - tail_size + at, file_size);
    }
    return d;
  }
  return {0, 0, 0, "no zip end record"};
}

/// The zip64 extra field's 64-bit values for the 32-bit fields that hold 0xFFFFFFFF, in order.
void widen(const std::vector<char>& dir, size_t extra_at, size_t extra_size, uint64_t& size,
           uint64_t& packed, uint64_t& offset) {
  for (size_t at = extra_at; at + 4 <= extra_at + extra_size;) {
    const uint64_t id = little(dir, at, 2), length = little(dir, at + 2, 2);
    size_t field = at + 4;
    const size_t end = std::min(extra_at + extra_size, field + static_cast<size_t>(length));
    if (id == 0x0001) {
      for (uint64_t* value : {&size, &packed, &offset}) {
        if (*value != 0xFFFFFFFF || field + 8 > end) continue;
        *value = little(dir, field, 8);
        field += 8;
      }
    }
    at += 4 + static_cast<size_t>(length);
  }
}

std::string entries_problem(const std::vector<char>& dir, uint64_t entries, uint64_t file_size) {
  size_t at = 0;
  for (uint64_t i = 0; i < entries; ++i) {
    if (at + kEntrySize > dir.size() || little(dir, at, 4) != kEntrySignature) {
      return "central directory entry " + std::to_string(i) + " is malformed";
    }
    uint64_t packed = little(dir, at + 20, 4), size = little(dir, at + 24, 4);
    uint64_t offset = little(dir, at + 42, 4);
    const size_t name = little(dir, at + 28, 2), extra = little(dir, at + 30, 2);
    const size_t comment = little(dir, at + 32, 2);
    if (at + kEntrySize + name + extra + comment > dir.size()) {
      return "central directory entry " + std::to_string(i) + " runs past the directory";
    }
    widen(dir, at + kEntrySize + name, extra, size, packed, offset);
    const std::string record(dir.data() + at + kEntrySize, name);
    if (size > file_size || packed > file_size ||
        offset > file_size - std::min(packed, file_size)) {
      return "record '" + record + "' declares " + std::to_string(size) + " bytes at offset " +
             std::to_string(offset) + ", the file has " + std::to_string(file_size);
    }
    at += kEntrySize + name + extra + comment;
  }
  return {};
}

}  // namespace

std::string zip_bounds_problem(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "cannot open the file";
  const auto file_size = static_cast<uint64_t>(in.tellg());
  const Directory d = find_directory(in, file_size);
  if (!d.problem.empty()) return d.problem;
  if (d.offset > file_size || d.size > file_size - d.offset) {
    return "the zip directory (" + std::to_string(d.size) + " bytes at " +
           std::to_string(d.offset) + ") lies beyond the file's " + std::to_string(file_size);
  }
  if (d.entries > kMaxZipRecords || d.entries * kEntrySize > d.size) {
    return "the zip directory lists " + std::to_string(d.entries) + " records in " +
           std::to_string(d.size) + " bytes";
  }
  const auto dir = read_at(in, d.offset, d.size);
  if (dir.size() != d.size) return "cannot read the zip directory";
  return entries_problem(dir, d.entries, file_size);
}

}  // namespace atento::model
