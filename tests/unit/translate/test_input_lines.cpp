// The translator's input lines: one outcome per line, in order; blank, invalid-UTF-8 and
// token-less lines are skipped with a warning naming the line, long lines are cut.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>

#include "app/translate/input_lines.h"
#include "data/words.h"

namespace atento {
namespace {

data::Vocabularies small_vocabularies() {
  data::TokenizerOptions options;
  options.kind = data::TokenizerKind::kWords;
  options.src_len = 3;
  auto src = std::make_shared<const data::WordsTokenizer>(
      std::vector<std::string>{"", "[UNK]", "where", "is", "tom"}, false);
  auto tgt = std::make_shared<const data::WordsTokenizer>(
      std::vector<std::string>{"", "[UNK]", "[start]", "[end]", "dónde"}, true);
  return data::Vocabularies(src, tgt, options);
}

TEST(InputLines, EveryLineHasOneOutcome) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  const std::vector<std::string> lines = {"Where is Tom?",         "",   "  \t", "\xff\xfe", "?!",
                                          "where is tom is where", "tom"};
  const EncodedInput in = encode_input(vocab, lines, "in.txt", warnings);
  EXPECT_EQ(in.skip, (std::vector<bool>{false, true, true, true, true, false, false}));
  EXPECT_EQ(in.active, (std::vector<size_t>{0, 5, 6}));
  EXPECT_EQ(in.sources[0], (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(in.sources[5], (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(in.sources[6], (std::vector<int64_t>{4}));
  const std::string text = warnings.str();
  EXPECT_NE(text.find("in.txt:4: invalid UTF-8"), std::string::npos) << text;
  EXPECT_NE(text.find("in.txt:5: no source token"), std::string::npos) << text;
  EXPECT_NE(text.find("in.txt:6: longer than the model's 3 source tokens"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("in.txt:1:"), std::string::npos) << text;
}

}  // namespace
}  // namespace atento
