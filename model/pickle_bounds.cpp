#include "model/pickle_bounds.h"

#include <cstring>

namespace atento::model {
namespace {

// Bytes of fixed-size argument after an opcode, -1 for "a length-prefixed payload follows"
// (the length's own bytes in *prefix), -2 for "newline-terminated lines" (count in *prefix),
// -3 for an opcode this check does not know.
int argument_kind(uint8_t op, int* prefix) {
  *prefix = 0;
  switch (op) {
    case 0x80:
    case 'K':
    case 'q':
    case 'h':
      return 1;  // PROTO BININT1 BINPUT BINGET
    case 'M':
      return 2;  // BININT2
    case 'J':
    case 'r':
    case 'j':
      return 4;  // BININT LONG_BINPUT LONG_BINGET
    case 0x95:
    case 'G':
      return 8;  // FRAME BINFLOAT
    case 0x8c:
    case 'C':
    case 'U':
    case 0x8a:
      *prefix = 1;
      return -1;  // short strings, LONG1
    case 'X':
    case 'B':
    case 'T':
    case 0x8b:
      *prefix = 4;
      return -1;  // strings, LONG4
    case 0x8d:
    case 0x8e:
    case 0x96:
      *prefix = 8;
      return -1;  // BINUNICODE8 BINBYTES8 BYTEARRAY8
    case 'c':
    case 'i':
      *prefix = 2;
      return -2;  // GLOBAL INST: module, name
    case 'I':
    case 'L':
    case 'S':
    case 'V':
    case 'F':
    case 'p':
    case 'g':
    case 'P':
      *prefix = 1;
      return -2;
    default:
      break;
  }
  static const char kNoArgument[] = "(.012Nab}d]le)ostuQR";
  if (op != 0 && std::memchr(kNoArgument, op, sizeof kNoArgument - 1) != nullptr) return 0;
  if (op >= 0x81 && op <= 0x98 && op != 0x8a && op != 0x8b) return 0;  // protocol 2-5, no args
  return -3;
}

uint64_t little_endian(const uint8_t* p, int bytes) {
  uint64_t value = 0;
  for (int i = bytes - 1; i >= 0; --i) value = (value << 8) | p[i];
  return value;
}

std::string at_byte(uint8_t op, size_t pos) {
  static const char kHex[] = "0123456789abcdef";
  return std::string("opcode 0x") + kHex[op >> 4] + kHex[op & 15] + " at byte " +
         std::to_string(pos);
}

}  // namespace

std::string pickle_bounds_problem(const uint8_t* data, size_t size) {
  size_t pos = 0;
  while (pos < size) {
    const uint8_t op = data[pos];
    if (op == '.') return {};  // STOP
    int prefix = 0;
    const int kind = argument_kind(op, &prefix);
    size_t next = pos + 1;
    const size_t left = size - next;
    if (kind == -3) return at_byte(op, pos) + " is not a pickle opcode";
    if (kind >= 0) {
      if (static_cast<size_t>(kind) > left) return at_byte(op, pos) + " is cut off";
      // LONG_BINPUT: the unpickler grows its memo table to twice the index. A pickler numbers
      // its puts from 0, each at least 2 bytes long, so an index past the stream is a lie.
      if (op == 'r' && little_endian(data + next, 4) >= size) {
        return at_byte(op, pos) + " stores memo entry " +
               std::to_string(little_endian(data + next, 4)) + " in a pickle of " +
               std::to_string(size) + " bytes";
      }
      next += static_cast<size_t>(kind);
    } else if (kind == -1) {
      if (static_cast<size_t>(prefix) > left) return at_byte(op, pos) + " is cut off";
      const uint64_t length = little_endian(data + next, prefix);
      if (length > left - static_cast<size_t>(prefix)) {
        return at_byte(op, pos) + " declares " + std::to_string(length) + " bytes, " +
               std::to_string(left - static_cast<size_t>(prefix)) + " are left";
      }
      next += static_cast<size_t>(prefix) + static_cast<size_t>(length);
    } else {
      for (int line = 0; line < prefix; ++line) {
        const void* end = std::memchr(data + next, '\n', size - next);
        if (end == nullptr) return at_byte(op, pos) + " lacks its newline";
        next = static_cast<size_t>(static_cast<const uint8_t*>(end) - data) + 1;
      }
    }
    pos = next;
  }
  return "the pickle has no STOP opcode";
}

}  // namespace atento::model
