// libFuzzer target: the word tokenizer. An input is a vocabulary file, then "\n--\n" and text
// to encode; the length's parity picks the side (odd: target). Loading may only throw
// std::runtime_error; a loaded vocabulary encodes any text and decodes its own ids.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "data/words.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const bool target = size % 2 == 1;
  const auto [vocab_text, text] = fuzz::split_input(data, size);
  const std::string path = fuzz::write_scratch(
      "vocab.txt", reinterpret_cast<const uint8_t*>(vocab_text.data()), vocab_text.size());
  data::book_standardize(text, target);
  std::shared_ptr<const data::WordsTokenizer> tokenizer;
  try {
    tokenizer = data::WordsTokenizer::load(path, target);
  } catch (const std::runtime_error&) {
    return 0;
  }
  const auto ids = tokenizer->encode(text);
  for (const int64_t id : ids) {
    if (id < 0 || id >= tokenizer->vocab_size()) std::abort();
    tokenizer->piece(id);
  }
  tokenizer->decode(ids);
  try {
    tokenizer->piece(tokenizer->vocab_size());
    std::abort();  // out of range must throw
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
