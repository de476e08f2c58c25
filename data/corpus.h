#pragma once
// Corpus reading, validation and the deterministic train/valid/test split.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/options.h"

namespace atento::data {

/// One sentence pair.
struct Pair {
  std::string src;  ///< English
  std::string tgt;  ///< Spanish
};

/// What reading a corpus found.
struct ReadReport {
  int64_t lines = 0;    ///< lines read (blank lines at the very end not counted)
  int64_t kept = 0;     ///< pairs returned
  int64_t skipped = 0;  ///< bad lines skipped
  /// One "file:line: reason" per skipped line (the first 20; `skipped` counts them all).
  std::vector<std::string> problems;
};

/// Reads `English<TAB>Spanish[<TAB>anything]` lines. Accepts a UTF-8 BOM and CRLF endings;
/// spaces around each side are trimmed.
/// Bad lines (no tab, an empty side, invalid UTF-8, a NUL byte, a side longer than
/// `max_chars` bytes) are skipped and reported as "file:line: reason"; with `strict` the
/// first one throws std::runtime_error. A missing or empty file throws, naming it, and so does
/// a file in which no line is a valid pair. `max_chars` <= 0 means no length limit.
std::vector<Pair> read_pairs(const std::string& path, const CorpusOptions& options,
                             ReadReport* report = nullptr);

/// Why one corpus line (no line terminator) is not a pair, as read_pairs reports it ("no tab
/// (expected English<TAB>Spanish)", "invalid UTF-8 at byte 3", "empty Spanish side", …), or ""
/// when it is one: then `pair` holds its trimmed sides. `max_chars` <= 0: no length limit.
std::string check_pair_line(std::string_view line, int64_t max_chars, Pair* pair);

/// Writes pairs as `English<TAB>Spanish` lines (atomic: temporary file, then rename).
void write_pairs(const std::string& path, const std::vector<Pair>& pairs);

/// The three parts of a corpus.
struct Split {
  std::vector<Pair> train, valid, test;
};

/// Seeded shuffle, then test = last `test_fraction`, valid = the `valid_fraction` before it,
/// train = the rest (the book's 70/15/15). Byte-identical for the same input and seed on any
/// platform (own PRNG, no std::shuffle).
Split split_pairs(std::vector<Pair> pairs, double valid_fraction, double test_fraction,
                  uint64_t seed);

}  // namespace atento::data
