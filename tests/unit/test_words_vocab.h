#pragma once
// A tiny word-level vocabulary for the tests of text handling: English "where is tom",
// Spanish "dónde", source length 3.

#include <memory>
#include <string>
#include <vector>

#include "data/tokenizer.h"
#include "data/words.h"

namespace atento::test_util {

inline data::Vocabularies small_vocabularies() {
  data::TokenizerOptions options;
  options.kind = data::TokenizerKind::kWords;
  options.src_len = 3;
  auto src = std::make_shared<const data::WordsTokenizer>(
      std::vector<std::string>{"", "[UNK]", "where", "is", "tom"}, false);
  auto tgt = std::make_shared<const data::WordsTokenizer>(
      std::vector<std::string>{"", "[UNK]", "[start]", "[end]", "dónde"}, true);
  return data::Vocabularies(src, tgt, options);
}

}  // namespace atento::test_util
