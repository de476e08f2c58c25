// libFuzzer target: the translator's line handling. Any bytes are an input file: it is read
// into lines (data::read_lines) and encoded for a small word model (app/input_lines.h); every
// line gets exactly one outcome, and no translated source is empty or longer than src_len.
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
  const EncodedInput in = encode_input(vocabularies(), lines, path, warnings);
  if (in.sources.size() != lines.size() || in.skip.size() != lines.size()) std::abort();
  size_t active = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (in.skip[i]) continue;
    if (active >= in.active.size() || in.active[active++] != i) std::abort();
    if (in.sources[i].empty() || in.sources[i].size() > 6) std::abort();
  }
  if (active != in.active.size()) std::abort();
  return 0;
}
