#pragma once
// The translator's input lines as model sources: which lines are translated (as the pieces
// text_segments.h makes of them), which stay empty. Lines come from an untrusted file or stdin:
// any bytes, any length.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "app/translate/text_segments.h"
#include "data/tokenizer.h"

namespace atento {

/// Longest line translated, in bytes: a longer one is reported and its output line left empty
/// (a bound on the time and memory one line may take).
inline constexpr size_t kMaxLineBytes = 1 << 20;

/// A window of input lines as model sources. Blank lines, invalid UTF-8, lines over
/// kMaxLineBytes and lines with no source token are skipped (their output line stays empty,
/// with a warning for all but blank ones; a line of addresses and emoji alone is copied).
struct EncodedInput {
  std::vector<SegmentedText> lines;  ///< per line; no sources where skipped
  /// Every translated piece, line after line: lines[i]'s pieces are sources[first[i] …].
  std::vector<std::vector<int64_t>> sources;
  std::vector<size_t> first;  ///< per line: the index of its first piece in `sources`
};

/// Encodes `lines` (read from `input_name`, the first being line `first_line`, counted from 1)
/// with `vocab`'s source tokenizer, sentence by sentence when `segmenter` is given; warnings
/// name the input and the line number and go to `warnings`.
EncodedInput encode_input(const data::Vocabularies& vocab, const std::vector<std::string>& lines,
                          const std::string& input_name, size_t first_line, Segmenter* segmenter,
                          std::ostream& warnings);

}  // namespace atento
