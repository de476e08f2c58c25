// libFuzzer target: the translator's line handling. Any bytes are an input file: it is read
// into lines (data::read_lines) and encoded for a small word model, sentence by sentence
// (app/translate/input_lines.h); every line gets exactly one outcome, and no translated source is
// empty or longer than src_len.
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "app/translate/input_lines.h"
#include "data/text_io.h"
#include "data/words.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

const atento::data::Vocabularies& vocabularies() {
  using namespace atento::data;
  static const Vocabularies vocab = [] {
    TokenizerOptions options;
    options.kind = TokenizerKind::kWords;
    options.src_len = 6;
    options.tgt_len = 7;
    auto src = std::make_shared<const WordsTokenizer>(
        std::vector<std::string>{"", "[UNK]", "where", "is", "the", "station", "tom"}, false);
    auto tgt = std::make_shared<const WordsTokenizer>(
        std::vector<std::string>{"", "[UNK]", "[start]", "[end]", "dónde", "está", "la"}, true);
    return Vocabularies(src, tgt, options);
  }();
  return vocab;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const std::string path = fuzz::write_scratch("input.txt", data, size);
  const std::vector<std::string> lines = data::read_lines(path);
  std::ostringstream warnings;
  static Segmenter splitter("en", 16);  // long sentences clause by clause, as by default
  const EncodedInput in = encode_input(vocabularies(), lines, path, 1, &splitter, warnings);
  if (in.lines.size() != lines.size() || in.first.size() != lines.size()) std::abort();
  size_t next = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (in.first[i] != next) std::abort();
    const SegmentedText& line = in.lines[i];
    if (line.gaps.size() != line.sources.size()) std::abort();
    for (size_t k = 0; k < line.sources.size(); ++k, ++next) {
      if (line.sources[k].empty() || line.sources[k].size() > 6) std::abort();
      if (in.sources[next] != line.sources[k]) std::abort();
    }
  }
  if (next != in.sources.size()) std::abort();
  return 0;
}
