#pragma once
// The translator's input lines as model sources: which lines are translated, which stay empty,
// which are cut. Lines come from an untrusted file or stdin: any bytes, any length.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "data/tokenizer.h"

namespace atento {

/// The input lines as model sources: blank lines, invalid UTF-8 and lines with no source token
/// (only punctuation, say, for the words tokenizer) are skipped (their output line stays
/// empty), long ones cut with a warning.
struct EncodedInput {
  std::vector<std::vector<int64_t>> sources;  ///< per line; empty where skipped
  std::vector<bool> skip;                     ///< per line
  std::vector<size_t> active;                 ///< the lines translated
};

/// Encodes `lines` (read from `input_name`) with `vocab`'s source tokenizer; warnings name the
/// input and the line number and go to `warnings`.
EncodedInput encode_input(const data::Vocabularies& vocab, const std::vector<std::string>& lines,
                          const std::string& input_name, std::ostream& warnings);

}  // namespace atento
