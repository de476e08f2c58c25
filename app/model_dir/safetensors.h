#pragma once
// The safetensors weight format (Hugging Face's; read by its Python, Rust and C++ libraries):
//   8 bytes   N, the header's length (unsigned, little-endian)
//   N bytes   a JSON object: name → {"dtype": "F32", "shape": [d0, …], "data_offsets": [b, e]},
//             plus an optional "__metadata__": {string: string}; padded with spaces
//   the rest  the tensors' raw little-endian bytes, offsets relative to its start, every byte
//             belonging to exactly one tensor
// No code is run and no pickle is parsed to read it, and a reader can map it into memory:
// releases (app/model_dir/release.h) keep their weights this way.

#include <torch/types.h>

#include <map>
#include <string>

#include "model/checkpoint.h"

namespace atento {

/// `weights` (moved to the CPU, made contiguous) as the bytes of a safetensors file, tensors in
/// name order, the data 8-byte aligned; `metadata` becomes "__metadata__" when not empty.
std::string serialize_safetensors(const model::NamedTensors& weights,
                                  const std::map<std::string, std::string>& metadata = {});

/// Reads a safetensors file. The file is memory-mapped and the tensors share the mapping
/// (copy-on-write; it is unmapped when the last tensor is freed); a tensor whose bytes are
/// not aligned for its type is copied. Every length, offset, shape and dtype is checked
/// against the file before a byte of data is touched: a truncated or hostile file throws
/// std::runtime_error naming `path` and what is wrong, and is never read out of bounds.
model::NamedTensors read_safetensors(const std::string& path);

/// As read_safetensors, from bytes in memory (the tensors are copies).
model::NamedTensors parse_safetensors(const std::string& bytes, const std::string& path);

}  // namespace atento
