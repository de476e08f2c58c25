// The translator's input lines: one outcome per line, in order; blank, invalid-UTF-8 and
// token-less lines are skipped with a warning naming the line; long lines are split into
// pieces that fit, sentences translated on their own, and only a single over-long run is cut.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/translate/input_lines.h"
#include "tests/unit/test_words_vocab.h"

namespace atento {
namespace {

using test_util::small_vocabularies;

using Ids = std::vector<std::vector<int64_t>>;

/// `lines` encoded sentence by sentence (English) with the small vocabularies, as
/// atento-translate encodes its input.
EncodedInput encode_sentences(const std::vector<std::string>& lines) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  Segmenter splitter("en", 0);
  return encode_input(vocab, lines, "in.txt", 1, &splitter, warnings);
}

TEST(InputLines, EveryLineHasOneOutcome) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  const std::vector<std::string> lines = {
      "Where is Tom?",           "", "  \t", "\xff\xfe", "?!", "where is tom is where", "tom",
      std::string("tom\0tom", 7)};
  const EncodedInput in = encode_input(vocab, lines, "in.txt", 1, nullptr, warnings);
  ASSERT_EQ(in.lines.size(), lines.size());
  EXPECT_EQ(in.lines[0].sources, (Ids{{2, 3, 4}}));
  for (size_t i : {1, 2, 3, 4}) EXPECT_TRUE(in.lines[i].sources.empty()) << i;
  // Longer than src_len 3: split between words into pieces that fit, nothing cut.
  EXPECT_EQ(in.lines[5].sources, (Ids{{2, 3}, {4, 3, 2}}));
  EXPECT_EQ(in.lines[5].gaps, (std::vector<std::string>{"", " "}));
  EXPECT_EQ(in.lines[6].sources, (Ids{{4}}));
  EXPECT_EQ(in.lines[4].trail, "?!");  // nothing to translate: copied
  EXPECT_TRUE(in.lines[7].sources.empty());
  EXPECT_EQ(in.first, (std::vector<size_t>{0, 1, 1, 1, 1, 1, 3, 4}));
  EXPECT_EQ(in.sources.size(), 4u);
  const std::string text = warnings.str();
  EXPECT_NE(text.find("in.txt:4: invalid UTF-8"), std::string::npos) << text;
  EXPECT_EQ(text.find("in.txt:5:"), std::string::npos) << text;
  EXPECT_NE(text.find("in.txt:8: a NUL byte"), std::string::npos) << text;
  EXPECT_EQ(text.find("in.txt:6:"), std::string::npos) << "split, not cut: " << text;
  EXPECT_EQ(text.find("in.txt:1:"), std::string::npos) << text;
}

TEST(InputLines, SentencesAreTranslatedOnTheirOwnAndJoinedWithTheirSpacing) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  Segmenter splitter("en", 0);
  const EncodedInput in =
      encode_input(vocab, {"Where is Tom?  Tom is.", "tom"}, "in.txt", 10, &splitter, warnings);
  EXPECT_EQ(in.lines[0].sources, (Ids{{2, 3, 4}, {4, 3}}));
  EXPECT_EQ(join_translations(in.lines[0], {"¿Dónde está Tom?", "Tom está."}),
            "¿Dónde está Tom?  Tom está.");
  EXPECT_EQ(in.first, (std::vector<size_t>{0, 2}));
  EXPECT_TRUE(warnings.str().empty()) << warnings.str();
}

TEST(InputLines, APieceInCapitalsIsReadInSentenceCaseAndTranslatedInCapitals) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  Segmenter splitter("en", 0);
  const EncodedInput in =
      encode_input(vocab, {"WHERE IS TOM?  Tom is NASA."}, "in.txt", 1, &splitter, warnings);
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Where is tom?", "Tom is NASA."}));
  EXPECT_EQ(in.lines[0].capitals, (std::vector<bool>{true, false}));
  EXPECT_EQ(join_translations(in.lines[0], {"¿Dónde está Tom?", "Tom es la NASA."}),
            "¿DÓNDE ESTÁ TOM?  Tom es la NASA.");
}

/// Words as ids, one per known word as it is written and one per byte of any other: a
/// tokenizer whose vocabulary knows "Tom" and "NASA" only capitalised.
class KnownWordsTokenizer : public data::Tokenizer {
 public:
  std::vector<int64_t> encode(const std::string& text) const override {
    std::vector<int64_t> ids;
    std::istringstream words(text);
    for (std::string word; words >> word;) {
      if (word == "Tom" || word == "NASA") {
        ids.push_back(word == "Tom" ? 2 : 3);
      } else {
        for (unsigned char c : word) ids.push_back(4 + c);
      }
    }
    return ids;
  }
  std::string decode(const std::vector<int64_t>&) const override { return ""; }
  std::string piece(int64_t) const override { return ""; }
  int64_t vocab_size() const override { return 262; }
  int64_t bos_id() const override { return 260; }
  int64_t eos_id() const override { return 261; }
};

/// KnownWordsTokenizer on both sides, with source length `src_len`.
data::Vocabularies known_words_vocabularies(int64_t src_len) {
  auto tokenizer = std::make_shared<const KnownWordsTokenizer>();
  data::TokenizerOptions options;
  options.src_len = src_len;
  return data::Vocabularies(tokenizer, tokenizer, options);
}

TEST(InputLines, APieceInCapitalsKeepsTheNamesTheTokenizerKnowsCapitalised) {
  const data::Vocabularies vocab = known_words_vocabularies(64);
  std::ostringstream warnings;
  const EncodedInput in =
      encode_input(vocab, {"WHERE IS TOM ? TOM MET NASA ."}, "in.txt", 1, nullptr, warnings);
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Where is Tom ? Tom met NASA ."}));
  EXPECT_EQ(in.lines[0].sources[0], vocab.src().encode("Where is Tom ? Tom met NASA ."));
}

TEST(InputLines, APieceInLowerOrTitleCaseIsReadInSentenceCaseWithKnownNames) {
  const data::Vocabularies vocab = known_words_vocabularies(64);
  std::ostringstream warnings;
  const EncodedInput in = encode_input(
      vocab, {"where is tom ? tom met nasa .", "Where Is Tom ? Tom Met NASA", "Tom met Ian ."},
      "in.txt", 1, nullptr, warnings);
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Where is Tom ? Tom met NASA ."}));
  EXPECT_EQ(in.lines[1].texts, (std::vector<std::string>{"Where is Tom ? Tom met NASA."}));
  EXPECT_EQ(in.lines[2].texts, (std::vector<std::string>{"Tom met Ian ."}));  // as it is
  EXPECT_EQ(in.lines[0].capitals, (std::vector<bool>{false}));
}

TEST(InputLines, AClauseCutFromItsSentenceIsReadAsASentenceAndJoinedBack) {
  // "Tom met NASA , we met NASA ." is 13 ids; 8 fit: split after the comma. Each clause is read
  // as the model's sentences are written (a full stop for the comma, a capital) and its
  // translation takes the comma back and continues in lower case.
  const data::Vocabularies vocab = known_words_vocabularies(8);
  std::ostringstream warnings;
  const EncodedInput in =
      encode_input(vocab, {"tom met nasa , we met nasa ."}, "in.txt", 1, nullptr, warnings);
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Tom met NASA .", "We met NASA ."}));
  EXPECT_EQ(in.lines[0].endings, (std::vector<std::string>{",", ""}));
  EXPECT_EQ(in.lines[0].continues, (std::vector<bool>{false, true}));
  EXPECT_EQ(join_translations(in.lines[0], {"Tom conoci\u00F3 la NASA.", "Conocimos la NASA."}),
            "Tom conoci\u00F3 la NASA, conocimos la NASA.");
  // The model's own question mark stays, without the comma.
  EXPECT_EQ(join_translations(in.lines[0], {"\u00BFTom?", "\u00BFConocimos la NASA?"}),
            "\u00BFTom? \u00BFconocimos la NASA?");
}

TEST(InputLines, ASentenceLongerThanTheModelsSentencesIsTranslatedClauseByClause) {
  const data::Vocabularies vocab = known_words_vocabularies(64);
  std::ostringstream warnings;
  Segmenter long_at_6("en", 6), off("en", 0);
  const std::vector<std::string> lines = {"Tom met NASA , I met Ian ; Tom met Ian .",
                                          "Tom met NASA , Ian met Tom .", "Tom , Ian ."};
  const EncodedInput split = encode_input(vocab, lines, "in.txt", 1, &long_at_6, warnings);
  EXPECT_EQ(split.lines[0].texts,
            (std::vector<std::string>{"Tom met NASA .", "I met Ian .", "Tom met Ian ."}));
  EXPECT_EQ(split.lines[0].endings, (std::vector<std::string>{",", ";", ""}));
  // After a comma "I" opens a clause in lower case in Spanish; a name keeps its capital.
  EXPECT_EQ(split.lines[0].continues, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(join_translations(split.lines[0], {"Tom conoci\u00F3 la NASA.", "Conoc\u00ED a Ian.",
                                               "Tom conoci\u00F3 a Ian."}),
            "Tom conoci\u00F3 la NASA, conoc\u00ED a Ian; Tom conoci\u00F3 a Ian.");
  EXPECT_EQ(split.lines[1].texts, (std::vector<std::string>{"Tom met NASA .", "Ian met Tom ."}));
  EXPECT_EQ(split.lines[1].continues, (std::vector<bool>{false, false}));
  EXPECT_EQ(split.lines[2].texts, (std::vector<std::string>{"Tom , Ian ."}));  // short: whole
  const EncodedInput whole = encode_input(vocab, lines, "in.txt", 1, &off, warnings);
  EXPECT_EQ(whole.lines[0].texts, (std::vector<std::string>{lines[0]}));
  EXPECT_EQ(warnings.str(), "");
}

TEST(InputLines, APieceWithoutFinalPunctuationIsReadWithAStopItsTranslationLoses) {
  const EncodedInput in =
      encode_sentences({"Tom is where", "Where is Tom? Tom is", "where is tom"});
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Tom is where."}));
  EXPECT_EQ(in.lines[0].sources, (Ids{{4, 3, 2}}));  // the words tokenizer has no "."
  EXPECT_EQ(join_translations(in.lines[0], {"Tom est\u00E1 all\u00ED."}),
            "Tom est\u00E1 all\u00ED");
  EXPECT_EQ(join_translations(in.lines[0], {"\u00BFTom est\u00E1 all\u00ED?"}),
            "\u00BFTom est\u00E1 all\u00ED?");  // the model's own mark stays
  EXPECT_EQ(in.lines[1].stopped, (std::vector<bool>{false, true}));
  EXPECT_EQ(join_translations(in.lines[1], {"\u00BFD\u00F3nde est\u00E1 Tom?", "Tom est\u00E1."}),
            "\u00BFD\u00F3nde est\u00E1 Tom? Tom est\u00E1");
  // A question typed without its mark is read with one, and its translation keeps Spanish's.
  EXPECT_EQ(in.lines[2].texts, (std::vector<std::string>{"Where is tom?"}));
  EXPECT_EQ(in.lines[2].stopped, (std::vector<bool>{true}));
  EXPECT_EQ(join_translations(in.lines[2], {"\u00BFD\u00F3nde est\u00E1 Tom?"}),
            "\u00BFD\u00F3nde est\u00E1 Tom?");
  EXPECT_EQ(join_translations(in.lines[2], {"D\u00F3nde est\u00E1 Tom."}),
            "D\u00F3nde est\u00E1 Tom");
}

TEST(InputLines, TextWithoutLettersAndTheLinesOwnMarginsAreCopied) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  Segmenter splitter("en", 0);
  const EncodedInput in =
      encode_input(vocab, {"42", "  $9.99 | 10:30", "\t1. Where is Tom? Tom is.  ***  "}, "in.txt",
                   1, &splitter, warnings);
  EXPECT_TRUE(in.lines[0].sources.empty());
  EXPECT_EQ(join_translations(in.lines[0], {}), "42");
  EXPECT_EQ(join_translations(in.lines[1], {}), "  $9.99 | 10:30");
  EXPECT_EQ(in.lines[2].sources, (Ids{{2, 3, 4}, {4, 3}}));
  EXPECT_EQ(join_translations(in.lines[2], {"\u00BFD\u00F3nde est\u00E1 Tom?", "Tom est\u00E1."}),
            "\t1. \u00BFD\u00F3nde est\u00E1 Tom? Tom est\u00E1.  ***  ");
  EXPECT_TRUE(warnings.str().empty()) << warnings.str();
}

TEST(InputLines, AQuotationOfSeveralSentencesKeepsItsMarksAroundTheTranslations) {
  const EncodedInput in = encode_sentences({"\"Where is Tom? Tom is.\" \"Tom is.\""});
  // Each piece is read without the marks it does not close or open itself.
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Where is Tom?", "Tom is.", "Tom is."}));
  EXPECT_EQ(join_translations(in.lines[0], {"\u00BFD\u00F3nde est\u00E1 Tom?", "Tom est\u00E1.",
                                            "Tom est\u00E1."}),
            "\"\u00BFD\u00F3nde est\u00E1 Tom? Tom est\u00E1.\" \"Tom est\u00E1.\"");
}

TEST(InputLines, AListItemIsReadWithoutItsMarkerAndKeepsIt) {
  const EncodedInput in = encode_sentences({"- Where is Tom?", "2) Tom is where. - Tom is."});
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Where is Tom?"}));
  EXPECT_EQ(join_translations(in.lines[0], {"\u00BFD\u00F3nde est\u00E1 Tom?"}),
            "- \u00BFD\u00F3nde est\u00E1 Tom?");
  // A marker opening a later sentence of the line is an item's too (a dialogue dash).
  EXPECT_EQ(in.lines[1].texts, (std::vector<std::string>{"Tom is where.", "Tom is."}));
  EXPECT_EQ(join_translations(in.lines[1], {"Tom est\u00E1 d\u00F3nde.", "Tom est\u00E1."}),
            "2) Tom est\u00E1 d\u00F3nde. - Tom est\u00E1.");
}

TEST(InputLines, AnAsideIsReadWithoutItsBracketsAndContinuesItsSentence) {
  const EncodedInput in = encode_sentences({"Tom (where is tom) is where."});
  // The aside is no question of its own; the words after it continue the sentence.
  EXPECT_EQ(in.lines[0].texts, (std::vector<std::string>{"Tom.", "Where is tom.", "Is where."}));
  EXPECT_EQ(join_translations(in.lines[0],
                              {"Tom.", "D\u00F3nde est\u00E1 Tom.", "Est\u00E1 d\u00F3nde."}),
            "Tom (d\u00F3nde est\u00E1 Tom) est\u00E1 d\u00F3nde.");
}

TEST(InputLines, ALineOverTheByteLimitIsReportedNotTranslated) {
  const auto vocab = small_vocabularies();
  std::ostringstream warnings;
  std::string huge;
  while (huge.size() <= kMaxLineBytes) huge += "where is tom ";
  const EncodedInput in = encode_input(vocab, {huge}, "in.txt", 1, nullptr, warnings);
  EXPECT_TRUE(in.lines[0].sources.empty());
  EXPECT_NE(warnings.str().find("in.txt:1: "), std::string::npos);
  EXPECT_NE(warnings.str().find("a line may hold"), std::string::npos) << warnings.str();
}

}  // namespace
}  // namespace atento
