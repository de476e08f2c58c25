// libFuzzer target: SentencePiece model loading through the plugin's code (linked directly,
// without LibTorch: see CMakeLists.txt). An input is a .model file; loading may only throw
// std::runtime_error, and a loaded model encodes text and decodes and names its own ids.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "data/sentencepiece.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const std::string path = fuzz::write_scratch("spm.model", data, size);
  std::shared_ptr<const data::SentencePieceTokenizer> tokenizer;
  try {
    tokenizer = data::SentencePieceTokenizer::load(path);
  } catch (const std::runtime_error&) {
    return 0;
  }
  for (const std::string text : {"Where is the station?", "¿Dónde está la estación?", ""}) {
    try {
      const auto ids = tokenizer->encode(text);
      for (const int64_t id : ids) {
        if (id < 0 || id >= tokenizer->vocab_size()) std::abort();
        tokenizer->piece(id);
      }
      tokenizer->decode(ids);
    } catch (const std::runtime_error&) {  // SentencePiece's own error status
    }
  }
  return 0;
}
