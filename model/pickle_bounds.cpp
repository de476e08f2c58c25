#include "model/pickle_bounds.h"

#include <cstring>
#include <vector>

namespace atento::model {
namespace {

// Bytes of fixed-size argument after an opcode, -1 for "a length-prefixed payload follows"
// (the length's own bytes in *prefix), -2 for "newline-terminated lines" (count in *prefix),
// -3 for an opcode this check does not know.
int argument_kind(uint8_t op, int* prefix) {
  *prefix = 0;
  switch (op) {
    case 0x80:
    case 0x82:
    case 'K':
    case 'q':
    case 'h':
      return 1;  // PROTO EXT1 BININT1 BINPUT BINGET
    case 0x83:
    case 'M':
      return 2;  // EXT2 BININT2
    case 0x84:
    case 'J':
    case 'r':
    case 'j':
      return 4;  // EXT4 BININT LONG_BINPUT LONG_BINGET
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
  if (op >= 0x81 && op <= 0x98) return 0;  // the other opcodes of protocols 2-5: no argument
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

// What an opcode does to the unpickler's stack: the items it needs on top, how many of them it
// replaces with how many, whether it consumes everything above the last MARK (`to_mark`: then
// `below` items must lie under the mark and `pairs` asks for an even count above it).
struct StackEffect {
  int takes = 0;
  int puts = 0;
  bool to_mark = false;
  int below = 0;
  bool pairs = false;
};

StackEffect stack_effect(uint8_t op) {
  switch (op) {
    case '0':
      return {1, 0};  // POP
    case '2':
      return {1, 2};  // DUP
    case 'p':
    case 'q':
    case 'r':
    case 0x94:
    case 'Q':
    case 0x85:
    case 0x98:
      return {1, 1};  // PUT BINPUT LONG_BINPUT MEMOIZE BINPERSID TUPLE1 READONLY_BUFFER
    case 0x86:
    case 'a':
    case 'b':
    case 'R':
    case 0x81:
    case 0x93:
      return {2, 1};  // TUPLE2 APPEND BUILD REDUCE NEWOBJ STACK_GLOBAL
    case 0x87:
    case 's':
    case 0x92:
      return {3, 1};  // TUPLE3 SETITEM NEWOBJ_EX
    case 't':
    case 'l':
    case 0x91:
    case 'i':
      return {0, 1, true};  // TUPLE LIST FROZENSET INST
    case 'o':
      return {1, 1, true};  // OBJ: the class above the mark
    case 'd':
      return {0, 1, true, 0, true};  // DICT
    case 'e':
    case 0x90:
      return {0, 0, true, 1};  // APPENDS ADDITEMS
    case 'u':
      return {0, 0, true, 1, true};  // SETITEMS
    case '1':
      return {0, 0, true};  // POP_MARK
    case '(':
    case '.':
    case 0x80:
    case 0x95:
      return {};  // MARK STOP PROTO FRAME: handled by the caller or no effect
    default:
      return {0, 1};  // every other opcode pushes one value
  }
}

// The unpickler of LibTorch 1.13 trusts the stack: REDUCE on a one-item stack swapped an item
// with the memory before it (found by fuzz_weights as a bad free), DICT and SETITEMS read one
// past an odd count, TUPLE under a stale MARK indexed past the end. This replays the depths.
class StackDepth {
 public:
  std::string apply(uint8_t op) {
    if (op == '(') {
      marks_.push_back(depth_);
      return {};
    }
    if (op == '.') return depth_ >= 1 ? "" : "STOP finds an empty stack";
    const StackEffect effect = stack_effect(op);
    if (!effect.to_mark) return take(effect.takes, effect.puts);
    if (marks_.empty()) return "there is no MARK before it";
    const size_t mark = marks_.back();
    marks_.pop_back();
    if (mark > depth_ || mark < static_cast<size_t>(effect.below)) {
      return "its MARK is stale (mark at depth " + std::to_string(mark) + ", stack depth " +
             std::to_string(depth_) + ")";
    }
    const size_t above = depth_ - mark;
    if (above < static_cast<size_t>(effect.takes)) return "it finds nothing above its MARK";
    if (effect.pairs && above % 2 != 0) return "it finds an odd number of keys and values";
    depth_ = mark + static_cast<size_t>(effect.puts);
    return {};
  }

 private:
  std::string take(int takes, int puts) {
    if (depth_ < static_cast<size_t>(takes)) {
      return "it needs " + std::to_string(takes) + " stack items, there are " +
             std::to_string(depth_);
    }
    depth_ = depth_ - static_cast<size_t>(takes) + static_cast<size_t>(puts);
    return {};
  }

  size_t depth_ = 0;
  std::vector<size_t> marks_;
};

// Where the argument of the opcode at `pos` ends; what is wrong with it, if anything, in *problem.
size_t skip_argument(const uint8_t* data, size_t size, size_t pos, std::string* problem) {
  const uint8_t op = data[pos];
  int prefix = 0;
  const int kind = argument_kind(op, &prefix);
  size_t next = pos + 1;
  const size_t left = size - next;
  if (kind == -3) {
    *problem = at_byte(op, pos) + " is not a pickle opcode";
  } else if (kind >= 0) {
    // LONG_BINPUT: the unpickler grows its memo table to twice the index. A pickler numbers
    // its puts from 0, each at least 2 bytes long, so an index past the stream is a lie.
    if (static_cast<size_t>(kind) > left) {
      *problem = at_byte(op, pos) + " is cut off";
    } else if (op == 'r' && little_endian(data + next, 4) >= size) {
      *problem = at_byte(op, pos) + " stores memo entry " +
                 std::to_string(little_endian(data + next, 4)) + " in a pickle of " +
                 std::to_string(size) + " bytes";
    }
    next += static_cast<size_t>(kind);
  } else if (kind == -1) {
    if (static_cast<size_t>(prefix) > left) {
      *problem = at_byte(op, pos) + " is cut off";
      return next;
    }
    const uint64_t length = little_endian(data + next, prefix);
    if (length > left - static_cast<size_t>(prefix)) {
      *problem = at_byte(op, pos) + " declares " + std::to_string(length) + " bytes, " +
                 std::to_string(left - static_cast<size_t>(prefix)) + " are left";
    }
    next += static_cast<size_t>(prefix) + static_cast<size_t>(length);
  } else {
    for (int line = 0; line < prefix && problem->empty(); ++line) {
      const void* end = std::memchr(data + next, '\n', size - next);
      if (end == nullptr)
        *problem = at_byte(op, pos) + " lacks its newline";
      else
        next = static_cast<size_t>(static_cast<const uint8_t*>(end) - data) + 1;
    }
  }
  return next;
}

}  // namespace

std::string pickle_bounds_problem(const uint8_t* data, size_t size) {
  StackDepth stack;
  size_t pos = 0;
  while (pos < size) {
    const uint8_t op = data[pos];
    std::string problem;
    const size_t next = skip_argument(data, size, pos, &problem);
    if (problem.empty()) {
      problem = stack.apply(op);
      if (!problem.empty()) problem = at_byte(op, pos) + ": " + problem;
    }
    if (!problem.empty()) return problem;
    if (op == '.') return {};  // STOP
    pos = next;
  }
  return "the pickle has no STOP opcode";
}

}  // namespace atento::model
