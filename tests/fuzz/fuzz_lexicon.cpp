// libFuzzer target: the word lexicon. An input is a lexicon file, then "\n--\n" and
// `English<TAB>Spanish` lines. Loading may only throw std::runtime_error; a loaded lexicon
// answers any lookup with a probability in [0, 1] and saves a file that loads to the same
// entries; Model 1 trains on any pairs.
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/word_lexicon.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const auto [lexicon_text, pairs_text] = fuzz::split_input(data, size);
  std::vector<data::Pair> pairs;
  std::istringstream lines(pairs_text);
  for (std::string line; std::getline(lines, line);) {
    const size_t tab = line.find('\t');
    pairs.push_back({line.substr(0, tab), tab == std::string::npos ? "" : line.substr(tab + 1)});
  }
  const auto trained = data::WordLexicon::train(pairs, 2);
  for (const auto& pair : pairs) {
    const float p = trained.probability(data::lexicon_word(pair.src, false),
                                        data::lexicon_word(pair.tgt, true));
    if (!(p >= 0.0f && p <= 1.0f)) std::abort();
  }
  const std::string path = fuzz::write_scratch(
      "lexicon.tsv", reinterpret_cast<const uint8_t*>(lexicon_text.data()), lexicon_text.size());
  data::WordLexicon loaded;
  try {
    loaded = data::WordLexicon::load(path);
  } catch (const std::runtime_error&) {
    return 0;
  }
  for (const auto& pair : pairs) {
    const float p = loaded.probability(pair.src, pair.tgt);
    if (!(p >= 0.0f && p <= 1.0f)) std::abort();
  }
  const std::string again = fuzz::scratch_dir() + "/again.tsv";
  loaded.save(again);
  if (data::WordLexicon::load(again).size() != loaded.size()) std::abort();
  return 0;
}
