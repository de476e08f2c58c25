// The word lexicon: IBM Model 1 learns which words translate which from co-occurrence alone,
// the empty word takes the Spanish words that translate none, and the file round-trips and is
// checked line by line.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/word_lexicon.h"
#include "tests/unit/test_data_util.h"

namespace atento::data {
namespace {

using test_util::contains;
using test_util::TempDir;

/// Each English noun occurs with two determiners, each determiner with two nouns: only the
/// pairs together tell "house" → "casa" from "the" → "casa".
std::vector<Pair> toy_corpus() {
  return {{"The house.", "La casa."},
          {"The book.", "El libro."},
          {"A book.", "Un libro."},
          {"A house.", "Una casa."},
          {"The red house.", "La casa roja."},
          {"A red book.", "Un libro rojo."},
          {"I see the house.", "Veo la casa."},
          {"I see a book.", "Veo un libro."}};
}

TEST(LexiconWord, LowerCasesAndLeavesOutPunctuation) {
  EXPECT_EQ(lexicon_word("¿Dónde", true), "dónde");
  EXPECT_EQ(lexicon_word("Tom's", false), "toms");
  EXPECT_EQ(lexicon_word("ÉL,", true), "él");
  EXPECT_EQ(lexicon_word("...", false), "");
}

TEST(WordLexicon, LearnsWhichWordsTranslateWhichFromPairs) {
  const WordLexicon lexicon = WordLexicon::train(toy_corpus(), 10);
  EXPECT_GT(lexicon.probability("house", "casa"), 0.6f);
  EXPECT_GT(lexicon.probability("book", "libro"), 0.6f);
  EXPECT_GT(lexicon.probability("house", "casa"), 2 * lexicon.probability("the", "casa"));
  EXPECT_GT(lexicon.probability("the", "la"), lexicon.probability("house", "la"));
  EXPECT_GT(lexicon.probability("red", "roja") + lexicon.probability("red", "rojo"), 0.5f);
  EXPECT_EQ(lexicon.probability("house", "perro"), 0.0f);
  EXPECT_EQ(lexicon.probability("dog", "casa"), 0.0f);
  // Every probability of a source word's row is kept above the floor, and they sum to at most 1.
  float row = 0.0f;
  for (const char* w : {"la", "el", "un", "una", "casa", "libro", "roja", "rojo", "veo"})
    row += lexicon.probability("house", w);
  EXPECT_LE(row, 1.0001f);
}

TEST(WordLexicon, TheEmptyWordTakesWordsThatTranslateNone) {
  // "que" comes with no English word of its own: Model 1 gives it to the empty word.
  const std::vector<Pair> pairs = {{"I know he runs.", "Sé que corre."},
                                   {"I know he eats.", "Sé que come."},
                                   {"He runs.", "Corre."},
                                   {"He eats.", "Come."},
                                   {"I know.", "Sé."}};
  const WordLexicon lexicon = WordLexicon::train(pairs, 10);
  EXPECT_GT(lexicon.probability("", "que"), 0.0f);
  EXPECT_GT(lexicon.probability("know", "sé"), 0.3f);
}

TEST(WordLexicon, SavesAndLoadsTheSameProbabilities) {
  TempDir dir;
  const WordLexicon lexicon = WordLexicon::train(toy_corpus());
  lexicon.save(dir.file("lexicon.tsv"));
  const WordLexicon loaded = WordLexicon::load(dir.file("lexicon.tsv"));
  EXPECT_EQ(loaded.size(), lexicon.size());
  EXPECT_GT(loaded.size(), 0u);
  for (const char* source : {"", "the", "house", "book", "red", "see"}) {
    for (const char* target : {"la", "el", "casa", "libro", "rojo", "veo"}) {
      EXPECT_NEAR(loaded.probability(source, target), lexicon.probability(source, target), 1e-5)
          << source << " -> " << target;
    }
  }
}

TEST(WordLexicon, ABadLineIsReportedWithItsFileAndLine) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"house\tcasa\t0.9\nbook\tlibro\n", ":2: expected English<TAB>Spanish<TAB>probability"},
      {"house\tcasa\t0.9\thouse\n", ":1: expected"},
      {"house\t\t0.5\n", ":1: empty Spanish word"},
      {"a\tb\t0.5\nhouse\tcasa\tmuch\n", ":2: probability \"much\""},
      {"house\tcasa\t1.5\n", ":1: probability"},
      {"house\tcasa\t0\n", ":1: probability"},
      {"house\tcasa\tnan\n", ":1: probability"}};
  for (const auto& [text, message] : cases) {
    const std::string path = dir.write("bad.tsv", text);
    try {
      WordLexicon::load(path);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_TRUE(contains(e.what(), path + message)) << e.what();
    }
  }
  EXPECT_THROW(WordLexicon::load(dir.file("missing.tsv")), std::runtime_error);
}

TEST(WordLexicon, PairsWithoutWordsAreSkipped) {
  const WordLexicon lexicon = WordLexicon::train({{"...", "¿?"}, {"House.", "Casa."}});
  EXPECT_GT(lexicon.probability("house", "casa"), 0.4f);
  EXPECT_EQ(WordLexicon::train({}).size(), 0u);
}

}  // namespace
}  // namespace atento::data
