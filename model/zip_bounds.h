#pragma once
// A check of a weights file's zip directory before LibTorch's reader sees it: the reader
// allocates each record's declared uncompressed size before it extracts a byte, so a small file
// whose directory declared a record of many gigabytes made it reserve that much.

#include <cstdint>
#include <string>

namespace atento::model {

/// Most records a weights file may list (the base model's has about 120).
inline constexpr uint64_t kMaxZipRecords = uint64_t{1} << 16;

/// Reads the end record and the central directory of the zip archive at `path` and returns ""
/// when every entry's declared sizes and offset lie within the file (LibTorch stores records
/// uncompressed, so no record can be larger than the file); else why not ("record
/// 'archive/data/0' declares 1962934276 bytes, the file has 1000"). Does not read the records.
std::string zip_bounds_problem(const std::string& path);

}  // namespace atento::model
