// libFuzzer target: the TSV corpus reader (data::read_pairs, data::check_pair_line). Any bytes
// are a corpus file; the reader may only report bad lines or throw std::runtime_error.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "data/corpus.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const std::string path = fuzz::write_scratch("corpus.tsv", data, size);
  data::CorpusOptions options;
  options.max_chars = size % 2 == 0 ? 0 : 64;  // with and without a length limit
  data::ReadReport report;
  try {
    const auto pairs = data::read_pairs(path, options, &report);
    if (pairs.empty() || report.kept != static_cast<int64_t>(pairs.size())) std::abort();
    for (const auto& pair : pairs) {
      data::Pair again;
      if (!data::check_pair_line(pair.src + "\t" + pair.tgt, options.max_chars, &again).empty())
        std::abort();  // a pair read back must be a valid line again
    }
  } catch (const std::runtime_error&) {
  }
  options.strict = true;
  try {
    data::read_pairs(path, options);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
