#pragma once
// A check of a pickle stream (the data.pkl record of a weights file) before LibTorch's
// unpickler sees it: the unpickler reserves whatever length a string or bytes opcode declares
// before it looks for the bytes, so a 1 KB file declaring a 4 GB string made it allocate 4 GB,
// and it grows its memo table to twice any LONG_BINPUT index (a 2 KB file: 30 GB); nor does
// it check that the stack holds the items an opcode consumes.

#include <cstddef>
#include <cstdint>
#include <string>

namespace atento::model {

/// Walks the opcodes of a pickle (protocols 0-5) and returns "" when every length they declare
/// lies within the stream, every LONG_BINPUT index is below its size, every opcode finds the
/// stack items and MARK it consumes, and it ends with STOP; else why not ("opcode 0x58 at byte
/// 12 declares 1962934276 bytes, 1000 are left"). Counts stack items; interprets no value.
std::string pickle_bounds_problem(const uint8_t* data, size_t size);

}  // namespace atento::model
