// Segmentation: sentences (ICU: abbreviations, numbers, ellipses, quotes, "?!", no final
// punctuation, spacing kept between the spans), then pieces that fit, losing no text.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "data/segmentation.h"

namespace atento::data {
namespace {

std::vector<std::string> sentences(const std::string& text, const std::string& language = "en") {
  SentenceSplitter splitter(language);
  std::vector<std::string> out;
  for (const TextSpan& span : splitter.split(text))
    out.push_back(text.substr(span.begin, span.size()));
  return out;
}

using Sentences = std::vector<std::string>;

TEST(SentenceSplitter, SplitsAParagraphIntoItsSentences) {
  EXPECT_EQ(sentences("I like tea. She likes coffee! Do you?"),
            (Sentences{"I like tea.", "She likes coffee!", "Do you?"}));
}

TEST(SentenceSplitter, AbbreviationsEndNoSentence) {
  EXPECT_EQ(sentences("Mr. Smith went to Washington. He stayed."),
            (Sentences{"Mr. Smith went to Washington.", "He stayed."}));
  EXPECT_EQ(sentences("We walked, e.g. to the station. It rained."),
            (Sentences{"We walked, e.g. to the station.", "It rained."}));
  EXPECT_EQ(sentences("The U.S. economy grew. Prices rose."),
            (Sentences{"The U.S. economy grew.", "Prices rose."}));
  // Titles that ICU's list lacks.
  EXPECT_EQ(
      sentences("Dr. Smith met Gen. Lee in St. Louis. Sen. Warren and Gov. Brown came."),
      (Sentences{"Dr. Smith met Gen. Lee in St. Louis.", "Sen. Warren and Gov. Brown came."}));
  EXPECT_EQ(sentences("DR. SMITH IS HERE. HE LEFT."),
            (Sentences{"DR. SMITH IS HERE.", "HE LEFT."}));
  EXPECT_EQ(sentences("It was Ali vs. Frazier. We watched."),
            (Sentences{"It was Ali vs. Frazier.", "We watched."}));
}

TEST(SentenceSplitter, WordsAmongTheAbbreviationsEndSentences) {
  // ICU's English list holds "OK.", "Joe.", "All." and "Do." beside "Mr." and "Prof.".
  EXPECT_EQ(sentences("OK. Where is it?"), (Sentences{"OK.", "Where is it?"}));
  EXPECT_EQ(sentences("Ok. Where is it?"), (Sentences{"Ok.", "Where is it?"}));
  EXPECT_EQ(sentences("I saw Joe. He left."), (Sentences{"I saw Joe.", "He left."}));
  EXPECT_EQ(sentences("THAT'S ALL. WHAT CAN I DO. GO."),
            (Sentences{"THAT'S ALL.", "WHAT CAN I DO.", "GO."}));
  EXPECT_EQ(sentences("I bought a PC. It is fast."), (Sentences{"I bought a PC.", "It is fast."}));
  EXPECT_EQ(sentences("Prof. Smith and Capt. Jones came."),
            (Sentences{"Prof. Smith and Capt. Jones came."}));
}

TEST(SentenceSplitter, NoSentenceEndsInsideAnAddress) {
  // ICU alone ends a sentence at the "?" of a query.
  EXPECT_EQ(sentences("See https://x.org/a?b=1 for it. Thanks!"),
            (Sentences{"See https://x.org/a?b=1 for it.", "Thanks!"}));
  // An address between sentences ends the one before it as a word would (ICU alone reads on
  // into its lower-case letters).
  EXPECT_EQ(sentences("It is on the floor. (https://x.org/n) I can't find it."),
            (Sentences{"It is on the floor.", "(https://x.org/n) I can't find it."}));
  EXPECT_EQ(sentences("Don't go alone ❤️. I have to go."),
            (Sentences{"Don't go alone ❤️.", "I have to go."}));
  // Many sentences and addresses: each boundary looked up, not tested against every address.
  std::string many;
  for (int i = 0; i < 20000; ++i) many += "See https://x.org/" + std::to_string(i) + "?a=1 now. ";
  EXPECT_EQ(sentences(many).size(), 20000u);
}

TEST(SentenceSplitter, NumbersEllipsesQuotesAndMixedMarksComeOutRight) {
  EXPECT_EQ(sentences("It is 3.5 km away. We walked."),
            (Sentences{"It is 3.5 km away.", "We walked."}));
  EXPECT_EQ(sentences("Wait... what happened? I don't know!"),
            (Sentences{"Wait... what happened?", "I don't know!"}));
  EXPECT_EQ(sentences("He said \"Stop.\" Then he left."),
            (Sentences{"He said \"Stop.\"", "Then he left."}));
  EXPECT_EQ(sentences("Really?! Yes."), (Sentences{"Really?!", "Yes."}));
}

TEST(SentenceSplitter, ALineWithoutFinalPunctuationIsOneSentence) {
  EXPECT_EQ(sentences("no final punctuation here"), (Sentences{"no final punctuation here"}));
  EXPECT_EQ(sentences("First one. then a fragment"), (Sentences{"First one. then a fragment"}));
  EXPECT_EQ(sentences("First one. Then a fragment"), (Sentences{"First one.", "Then a fragment"}));
}

TEST(SentenceSplitter, SpansLeaveTheOriginalSpacingBetweenThem) {
  const std::string text = "  One.   Two.\tThree.  ";
  SentenceSplitter splitter("en");
  auto spans = splitter.split(text);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].begin, 2u);
  EXPECT_EQ(text.substr(spans[0].end, spans[1].begin - spans[0].end), "   ");
  EXPECT_EQ(text.substr(spans[1].end, spans[2].begin - spans[1].end), "\t");
  EXPECT_EQ(spans[2].end, text.size() - 2);
}

TEST(SentenceSplitter, UnicodeWhiteSpaceBetweenSentencesIsSpacingNotPartOfOne) {
  // A no-break space (web pages, word processors), an em space and U+2028 after a period.
  for (const std::string space : {"\u00A0", "\u2003", "\u2028", "\u00A0\u00A0 "}) {
    const std::string text = "\u00A0Tom left." + space + "Mary stayed.\u00A0";
    SentenceSplitter splitter("en");
    const auto spans = splitter.split(text);
    ASSERT_EQ(spans.size(), 2u) << text;
    EXPECT_EQ(text.substr(spans[0].begin, spans[0].size()), "Tom left.");
    EXPECT_EQ(text.substr(spans[0].end, spans[1].begin - spans[0].end), space);
    EXPECT_EQ(text.substr(spans[1].begin, spans[1].size()), "Mary stayed.");
  }
}

TEST(SentenceSplitter, TextInCapitalsSplitsAsInSentenceCase) {
  using S = std::vector<std::string>;
  // ICU alone takes "SALT." and "IT." for abbreviations and splits none of these.
  EXPECT_EQ(sentences("A BIT MORE SALT. TOM FELT IT. HE IS SAD."),
            (S{"A BIT MORE SALT.", "TOM FELT IT.", "HE IS SAD."}));
  EXPECT_EQ(sentences("WARNING: HOT. Do not touch."), (S{"WARNING: HOT.", "Do not touch."}));
  EXPECT_EQ(sentences("MR. SMITH WENT TO WASHINGTON. HE STAYED."),
            (S{"MR. SMITH WENT TO WASHINGTON.", "HE STAYED."}));
}

TEST(SentenceSplitter, TextInLowerCaseSplitsAsInSentenceCase) {
  using S = std::vector<std::string>;
  // ICU alone finds no sentence end at a period before a lower-case letter ("fine. where").
  EXPECT_EQ(sentences("fine. where is it? i don't know. mr. smith is here"),
            (S{"fine.", "where is it?", "i don't know.", "mr. smith is here"}));
  EXPECT_EQ(sentences("it is 3.5 km away. we walked"), (S{"it is 3.5 km away.", "we walked"}));
}

TEST(Segmentation, APieceOpensASentenceAfterASentenceEndNotAfterAClauseOrWord) {
  const std::string text = "Go. \"Now!\" Tom said, and left \u2014 fast; then (ok) we ran";
  auto at = [&](const std::string& word) { return text.find(word); };
  EXPECT_TRUE(opens_sentence(text, 0));
  EXPECT_TRUE(opens_sentence(text, at("\"Now")));
  EXPECT_TRUE(opens_sentence(text, at("Tom")));
  EXPECT_FALSE(opens_sentence(text, at("and")));
  EXPECT_FALSE(opens_sentence(text, at("left")));
  EXPECT_FALSE(opens_sentence(text, at("fast")));
  EXPECT_FALSE(opens_sentence(text, at("then")));
  EXPECT_TRUE(opens_sentence(text, at("we")));  // after a closing bracket
  EXPECT_TRUE(opens_sentence("  Go", 2));
}

TEST(SentenceSplitter, WhiteSpaceHasNoSentenceAndInvalidUtf8IsNotSplit) {
  SentenceSplitter splitter("en");
  EXPECT_TRUE(splitter.split("").empty());
  EXPECT_TRUE(splitter.split(" \t ").empty());
  const std::string broken = "One. \xff Two.";
  auto spans = splitter.split(broken);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].size(), broken.size());
}

TEST(SentenceSplitter, OffsetsAreBytesOfUtf8Text) {
  EXPECT_EQ(sentences("¿Dónde está? Aquí, señor. ¡Qué bien!", "es"),
            (Sentences{"¿Dónde está?", "Aquí, señor.", "¡Qué bien!"}));
}

TEST(SentenceSplitter, ReusedForManyTexts) {
  SentenceSplitter splitter("en");
  for (int i = 0; i < 3; ++i) {
    std::string text = "A" + std::string(i, 'a') + ". B.";
    EXPECT_EQ(splitter.split(text).size(), 2u);
  }
}

// --- pieces that fit the model's source length ----------------------------------------------

size_t words_in(std::string_view text) {
  size_t count = 0;
  bool in_word = false;
  for (char c : text) {
    const bool space = c == ' ' || c == '\t';
    if (!space && !in_word) ++count;
    in_word = !space;
  }
  return count;
}

// Too long with more than `words` words (a stand-in for the tokenizer's count), long with more
// than `long_words` (0: never).
PieceMeasure at_most_words(size_t words, size_t long_words = 0) {
  return [words, long_words](std::string_view text) {
    const size_t count = words_in(text);
    if (count > words) return PieceLength::kTooLong;
    return long_words > 0 && count > long_words ? PieceLength::kLong : PieceLength::kShort;
  };
}

std::vector<std::string> pieces(const std::string& text, size_t words, size_t long_words = 0) {
  std::vector<std::string> out;
  for (const Segment& s : split_to_fit(text, {0, text.size()}, at_most_words(words, long_words))) {
    out.push_back(text.substr(s.span.begin, s.span.size()) + (s.too_long ? "[cut]" : ""));
  }
  return out;
}

TEST(SplitToFit, ASentenceThatFitsStaysWhole) {
  EXPECT_EQ(pieces("one two three", 3), (Sentences{"one two three"}));
}

TEST(SplitToFit, ALongSentenceSplitsAtClauseBoundariesFirst) {
  EXPECT_EQ(pieces("one two, three four five; six seven", 4),
            (Sentences{"one two,", "three four five;", "six seven"}));
  EXPECT_EQ(pieces("we came \xE2\x80\x94 we saw it all", 4),
            (Sentences{"we came \xE2\x80\x94", "we saw it all"}));
  EXPECT_EQ(pieces("ratio: one to two", 3), (Sentences{"ratio:", "one to two"}));
}

TEST(SplitToFit, WithoutClausesItSplitsBetweenWordsAndCutsOnlyASingleRun) {
  EXPECT_EQ(pieces("a b c d e f", 2), (Sentences{"a", "b c", "d", "e f"}));
  EXPECT_EQ(pieces("see https://example.org/a/very/long/path", 1),
            (Sentences{"see", "https://example.org/a/very/long/path"}));
  auto cut = split_to_fit("xxxxxxxx", {0, 8}, [](std::string_view t) {
    return t.size() < 4 ? PieceLength::kShort : PieceLength::kTooLong;
  });
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_TRUE(cut[0].too_long);
}

TEST(SplitToFit, ALongSentenceSplitsAtClauseBoundariesOnly) {
  // Longer than the model's sentences but within its source length: clauses, never words.
  EXPECT_EQ(pieces("one two three, four five six, seven eight", 20, 4),
            (Sentences{"one two three,", "four five six,", "seven eight"}));
  EXPECT_EQ(pieces("one two three four five six", 20, 4),
            (Sentences{"one two three four five six"}));
  EXPECT_EQ(pieces("one two, three four five six seven", 20, 4),
            (Sentences{"one two,", "three four five six seven"}));
  EXPECT_EQ(pieces("one two, three", 20, 4), (Sentences{"one two, three"}));  // short: whole
}

TEST(ClauseEnding, TheMarkAPieceWasCutAfter) {
  EXPECT_EQ(clause_ending("I came,"), 6u);
  EXPECT_EQ(clause_ending("ratio:"), 5u);
  EXPECT_EQ(clause_ending("one;"), 3u);
  EXPECT_EQ(clause_ending("we came \xE2\x80\x94"), 7u);  // the space before the dash too
  EXPECT_EQ(clause_ending("we came -"), 7u);
  for (const char* none : {"I came.", "well-", "", "a, b", "we came \xE2\x80\x94 "}) {
    EXPECT_EQ(clause_ending(none), std::string_view::npos) << none;
  }
}

TEST(Segmentation, AnAsideInBracketsIsAPieceOfItsOwn) {
  SentenceSplitter splitter("en");
  auto segments = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const Segment& s : segment_text(splitter, text, at_most_words(50))) {
      out.push_back(text.substr(s.span.begin, s.span.size()));
    }
    return out;
  };
  EXPECT_EQ(
      segments("Tom (my brother) is a doctor. I bought apples (and pears)."),
      (Sentences{"Tom", "(my brother)", "is a doctor.", "I bought apples", "(and pears)", "."}));
  // No aside: a list item's enumerator, a bracket in a word, brackets that do not pair.
  EXPECT_EQ(segments("(a) Feed the dog."), (Sentences{"(a) Feed the dog."}));
  EXPECT_EQ(segments("Bring your friend(s)."), (Sentences{"Bring your friend(s)."}));
  EXPECT_EQ(segments("Smile :) (or not."), (Sentences{"Smile :) (or not."}));
}

// Property: over random texts and limits, the pieces keep every word, in order, and each fits
// unless it is a single run.
TEST(SplitToFit, NoTextIsLostWhateverTheLengthOrLimit) {
  std::mt19937 random(7);
  const std::vector<std::string> words = {
      "a",  "bb",  "ccc,", "dd;", "e:", "-", "\xE2\x80\x94", "ffff", "ggggggggggggggggg",
      "h.", "(ii", "jj)",  "kk)."};  // brackets: asides, and brackets that do not pair
  SentenceSplitter splitter("en");
  for (int trial = 0; trial < 300; ++trial) {
    std::string text;
    const int n = static_cast<int>(random() % 200);
    for (int i = 0; i < n; ++i)
      text += words[random() % words.size()] + (random() % 7 ? " " : "  ");
    const size_t limit = 1 + random() % 12;
    const auto fits = at_most_words(limit, random() % 2 ? limit / 2 : 0);
    std::string joined, expected;
    for (const Segment& s : segment_text(splitter, text, fits)) {
      const std::string piece = text.substr(s.span.begin, s.span.size());
      EXPECT_TRUE(words_in(piece) <= limit || (s.too_long && piece.find(' ') == std::string::npos))
          << piece;
      joined += piece;
    }
    for (char c : text) {
      if (c != ' ') expected += c;
    }
    joined.erase(std::remove(joined.begin(), joined.end(), ' '), joined.end());
    EXPECT_EQ(joined, expected) << "limit " << limit << ": " << text;
  }
}

}  // namespace
}  // namespace atento::data
