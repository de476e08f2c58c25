// Tests for app/metrics: 13a tokenisation, corpus BLEU and corpus chrF against reference values.
//
// Unless a test says otherwise, expected scores were computed once with the independent scorer
// shared/tools/mtscore.py, one line per hypothesis/reference file:
//   python3 shared/tools/mtscore.py HYP_FILE REF_FILE [REF2_FILE]
// It prints two decimals, hence the 0.01 tolerance. Where mtscore.py departs from sacreBLEU 2.x
// (which these metrics follow), the expected value is derived by hand and the comment says why.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/scoring/metrics.h"

namespace atento {
namespace {

constexpr double kTol = 0.01;

using Tokens = std::vector<std::string>;
using RefSets = std::vector<std::vector<std::string>>;

// --- 13a tokenisation ---------------------------------------------------------------------------

TEST(Tokenize13aTest, SplitsPunctuationFromWords) {
  EXPECT_EQ(tokenize_13a("Hello, world!"), (Tokens{"Hello", ",", "world", "!"}));
}

TEST(Tokenize13aTest, KeepsDecimalPointsAndThousandsCommasInsideNumbers) {
  EXPECT_EQ(tokenize_13a("It costs 3.50 or 1,000 euros."),
            (Tokens{"It", "costs", "3.50", "or", "1,000", "euros", "."}));
  EXPECT_EQ(tokenize_13a("1.000.000,50 €"), (Tokens{"1.000.000,50", "€"}));
  EXPECT_EQ(tokenize_13a("Son las 10.30, ¿no?"), (Tokens{"Son", "las", "10.30", ",", "¿no", "?"}));
}

TEST(Tokenize13aTest, SplitsPeriodThatEndsANumber) {
  EXPECT_EQ(tokenize_13a("In 2024."), (Tokens{"In", "2024", "."}));
}

TEST(Tokenize13aTest, SplitsDashAfterDigitButKeepsHyphenatedWords) {
  EXPECT_EQ(tokenize_13a("pages 10-12, well-known"),
            (Tokens{"pages", "10", "-", "12", ",", "well-known"}));
}

TEST(Tokenize13aTest, KeepsApostropheAndSplitsOtherAsciiSymbols) {
  EXPECT_EQ(tokenize_13a("l'homme (sic) 5$ 20% x/y"),
            (Tokens{"l'homme", "(", "sic", ")", "5", "$", "20", "%", "x", "/", "y"}));
}

TEST(Tokenize13aTest, UnescapesHtmlEntitiesOnce) {
  EXPECT_EQ(tokenize_13a("&quot;Hola&quot; &amp; &lt;b&gt;"),
            (Tokens{"\"", "Hola", "\"", "&", "<", "b", ">"}));
  // Entities are replaced in sequence, so a double-escaped quote only loses one level.
  EXPECT_EQ(tokenize_13a("&amp;quot;"), (Tokens{"&", "quot", ";"}));
}

TEST(Tokenize13aTest, DropsSkippedMarkerAndJoinsWordsBrokenAcrossLines) {
  EXPECT_EQ(tokenize_13a("a <skipped> b infor-\nmation"), (Tokens{"a", "b", "information"}));
}

TEST(Tokenize13aTest, LeavesNonAsciiPunctuationAttachedToWords) {
  // 13a's rules only know ASCII punctuation: Spanish '¿' stays glued to the next word.
  EXPECT_EQ(tokenize_13a("¿Qué tal, señor?"), (Tokens{"¿Qué", "tal", ",", "señor", "?"}));
}

TEST(Tokenize13aTest, SplitsOnUnicodeWhitespace) {
  // No-break space, ideographic space and tab all separate tokens, as Python's str.split().
  EXPECT_EQ(tokenize_13a("a\u00a0b\u3000c\td"), (Tokens{"a", "b", "c", "d"}));
}

TEST(Tokenize13aTest, BlankInputGivesNoTokens) {
  EXPECT_TRUE(tokenize_13a("").empty());
  EXPECT_TRUE(tokenize_13a("   ").empty());
}

// --- corpus BLEU --------------------------------------------------------------------------------

TEST(CorpusBleuTest, IdenticalSentenceScores100) {
  const BleuResult r =
      corpus_bleu({"El gato se sentó en la alfombra."}, {{"El gato se sentó en la alfombra."}});
  EXPECT_NEAR(r.score, 100.0, kTol);  // mtscore.py: BLEU 100.00
  EXPECT_DOUBLE_EQ(r.brevity_penalty, 1.0);
  EXPECT_EQ(r.hyp_len, 8);
  EXPECT_EQ(r.ref_len, 8);
}

TEST(CorpusBleuTest, NoMatchingTokenScoresZero) {
  // sacreBLEU returns 0 when no n-gram matches at all (metrics/bleu.py, "Early stop if there are
  // no matches (#141)"). mtscore.py prints 7.99 here because it applies 'exp' smoothing to every
  // order even then; that is a deviation of mtscore.py, not of sacreBLEU.
  const BleuResult r = corpus_bleu({"aaa bbb ccc ddd"}, {{"xxx yyy zzz www"}});
  EXPECT_DOUBLE_EQ(r.score, 0.0);
}

TEST(CorpusBleuTest, PartialOverlapWithBrevityPenalty) {
  const BleuResult r = corpus_bleu({"El perro marrón salta sobre la valla."},
                                   {{"El rápido perro marrón saltó sobre la cerca."}});
  EXPECT_NEAR(r.score, 15.25, kTol);  // mtscore.py: BLEU 15.25
  EXPECT_EQ(r.hyp_len, 8);
  EXPECT_EQ(r.ref_len, 9);
  EXPECT_NEAR(r.brevity_penalty, std::exp(1.0 - 9.0 / 8.0), 1e-12);
}

TEST(CorpusBleuTest, ReportsPrecisionsInPercent) {
  // Hand-checkable: 4/5 unigrams, 3/4 bigrams, 2/3 trigrams, 1/2 4-grams match.
  const BleuResult r = corpus_bleu({"a b c d e"}, {{"a b c d f"}});
  EXPECT_NEAR(r.precisions[0], 80.0, 1e-9);
  EXPECT_NEAR(r.precisions[1], 75.0, 1e-9);
  EXPECT_NEAR(r.precisions[2], 200.0 / 3.0, 1e-9);
  EXPECT_NEAR(r.precisions[3], 50.0, 1e-9);
  EXPECT_NEAR(r.score, 66.87, kTol);  // mtscore.py: BLEU 66.87
}

TEST(CorpusBleuTest, ExpSmoothingHalvesEachFurtherOrderWithoutMatches) {
  // Trigrams 0/3 and 4-grams 0/2 match: 'exp' smoothing uses 1/(2*3) and 1/(4*2).
  const BleuResult r = corpus_bleu({"a b x c d"}, {{"a b y c d"}});
  EXPECT_NEAR(r.precisions[0], 80.0, 1e-9);
  EXPECT_NEAR(r.precisions[1], 50.0, 1e-9);
  EXPECT_NEAR(r.precisions[2], 100.0 / 6.0, 1e-9);
  EXPECT_NEAR(r.precisions[3], 12.5, 1e-9);
  EXPECT_NEAR(r.score, 30.21, kTol);  // mtscore.py: BLEU 30.21
}

TEST(CorpusBleuTest, CountsSpanishAccentedWordsExactly) {
  // "canción" and "cancion" are different tokens: only La/del/en/el/. match.
  const BleuResult r = corpus_bleu({"La canción del niño está en el corazón."},
                                   {{"La cancion del nino esta en el corazon."}});
  EXPECT_NEAR(r.score, 11.99, kTol);  // mtscore.py: BLEU 11.99
  const BleuResult r2 = corpus_bleu({"Mañana comeré pescado con mi señora."},
                                    {{"Mañana comeré pescado con mi esposa."}});
  EXPECT_NEAR(r2.score, 64.35, kTol);  // mtscore.py: BLEU 64.35
}

TEST(CorpusBleuTest, ClipsNgramsByTheBestCountOverAllReferences) {
  const std::string hyp = "Ella compró una casa muy grande ayer.";
  const std::string ref1 = "Ayer ella adquirió una vivienda enorme.";
  const std::string ref2 = "Ella compró ayer una casa muy grande en el centro de la ciudad.";
  // mtscore.py: BLEU 44.18 with both references, 6.57 with ref1 only, 20.87 with ref2 only.
  const BleuResult both = corpus_bleu({hyp}, {{ref1, ref2}});
  EXPECT_NEAR(both.score, 44.18, kTol);
  EXPECT_NEAR(corpus_bleu({hyp}, {{ref1}}).score, 6.57, kTol);
  EXPECT_NEAR(corpus_bleu({hyp}, {{ref2}}).score, 20.87, kTol);
  EXPECT_EQ(both.hyp_len, 8);
  EXPECT_EQ(both.ref_len, 7);  // ref1 (7 tokens) is closer to 8 than ref2 (14 tokens).
}

TEST(CorpusBleuTest, BrevityPenaltyUsesClosestReferenceLength) {
  // Hypothesis has 6 tokens; references have 7 and 13: the 7-token one sets the penalty.
  const BleuResult r =
      corpus_bleu({"Hoy hace mucho frío aquí ."},
                  {{"Hoy hace mucho frío aquí fuera .",
                    "Hoy hace mucho frío aquí en la montaña del norte de España ."}});
  EXPECT_NEAR(r.score, 67.32, kTol);  // mtscore.py: BLEU 67.32
  EXPECT_EQ(r.ref_len, 7);
  EXPECT_NEAR(r.brevity_penalty, std::exp(1.0 - 7.0 / 6.0), 1e-12);
}

TEST(CorpusBleuTest, EquallyCloseReferenceLengthsResolveToTheShorter) {
  // 6 hypothesis tokens, references of 4 and 8 tokens. Choosing 4 means no brevity penalty
  // (score 100); choosing 8 would give 71.65.
  const BleuResult r =
      corpus_bleu({"uno dos tres cuatro cinco seis"},
                  {{"uno dos tres cuatro", "uno dos tres cuatro cinco seis siete ocho"}});
  EXPECT_NEAR(r.score, 100.0, kTol);  // mtscore.py: BLEU 100.00
  EXPECT_EQ(r.ref_len, 4);
  EXPECT_DOUBLE_EQ(r.brevity_penalty, 1.0);
}

TEST(CorpusBleuTest, EmptyHypothesisScoresZero) {
  const BleuResult r = corpus_bleu({""}, {{"Buenos días a todos."}});
  EXPECT_DOUBLE_EQ(r.score, 0.0);  // mtscore.py: BLEU 0.00
  EXPECT_DOUBLE_EQ(r.brevity_penalty, 0.0);
  EXPECT_EQ(r.hyp_len, 0);
  EXPECT_EQ(r.ref_len, 5);
}

TEST(CorpusBleuTest, CorpusWithoutAnyFourGramScoresZero) {
  const BleuResult r = corpus_bleu({"Sí ."}, {{"Sí ."}});
  EXPECT_DOUBLE_EQ(r.score, 0.0);  // mtscore.py: BLEU 0.00
}

TEST(CorpusBleuTest, SumsStatisticsOverTheCorpus) {
  const std::vector<std::string> hyps = {"Hola, ¿cómo estás?",
                                         "El tren sale a las 10.30 de la mañana.", "No lo sé.",
                                         "Compré 1,5 kilos de manzanas y 3 peras."};
  const RefSets refs = {{"Hola, ¿qué tal estás?"},
                        {"El tren sale a las 10.30 por la mañana."},
                        {"No lo sé."},
                        {"Compré kilo y medio de manzanas y tres peras."}};
  const BleuResult r = corpus_bleu(hyps, refs);
  EXPECT_NEAR(r.score, 44.32, kTol);  // mtscore.py: BLEU 44.32
  EXPECT_EQ(r.hyp_len, 28);
  EXPECT_EQ(r.ref_len, 30);
}

TEST(CorpusBleuTest, IgnoresEmptyStringReferences) {
  // sacreBLEU drops "" references so that reference sets of different sizes can be padded.
  const std::string hyp = "Ella compró una casa muy grande ayer.";
  const std::string ref = "Ayer ella adquirió una vivienda enorme.";
  EXPECT_DOUBLE_EQ(corpus_bleu({hyp}, {{"", ref, ""}}).score, corpus_bleu({hyp}, {{ref}}).score);
}

// --- corpus chrF --------------------------------------------------------------------------------

TEST(CorpusChrfTest, IdenticalSentenceScores100) {
  EXPECT_NEAR(
      corpus_chrf({"El gato se sentó en la alfombra."}, {{"El gato se sentó en la alfombra."}}),
      100.0, kTol);  // mtscore.py: chrF2 100.00
}

TEST(CorpusChrfTest, NoSharedCharacterScoresZero) {
  EXPECT_DOUBLE_EQ(corpus_chrf({"aaa bbb ccc ddd"}, {{"xxx yyy zzz www"}}), 0.0);  // mtscore: 0.00
}

TEST(CorpusChrfTest, PartialOverlap) {
  EXPECT_NEAR(corpus_chrf({"El perro marrón salta sobre la valla."},
                          {{"El rápido perro marrón saltó sobre la cerca."}}),
              53.48, kTol);  // mtscore.py: chrF2 53.48
}

TEST(CorpusChrfTest, CountsAccentedLettersAsSingleCharacters) {
  // Byte n-grams would give other values: 'ó' is two bytes in UTF-8.
  EXPECT_NEAR(corpus_chrf({"La canción del niño está en el corazón."},
                          {{"La cancion del nino esta en el corazon."}}),
              55.27, kTol);  // mtscore.py: chrF2 55.27
  EXPECT_NEAR(corpus_chrf({"Mañana comeré pescado con mi señora."},
                          {{"Mañana comeré pescado con mi esposa."}}),
              78.59, kTol);  // mtscore.py: chrF2 78.59
}

TEST(CorpusChrfTest, UsesTheBestReferencePerSentence) {
  const std::string hyp = "Ella compró una casa muy grande ayer.";
  const std::string ref1 = "Ayer ella adquirió una vivienda enorme.";
  const std::string ref2 = "Ella compró ayer una casa muy grande en el centro de la ciudad.";
  // mtscore.py: chrF2 50.95 with both references, 17.27 with ref1 only, 50.95 with ref2 only.
  EXPECT_NEAR(corpus_chrf({hyp}, {{ref1, ref2}}), 50.95, kTol);
  EXPECT_NEAR(corpus_chrf({hyp}, {{ref1}}), 17.27, kTol);
  EXPECT_NEAR(corpus_chrf({hyp}, {{ref2}}), 50.95, kTol);
}

TEST(CorpusChrfTest, EmptyHypothesisScoresZero) {
  EXPECT_DOUBLE_EQ(corpus_chrf({""}, {{"Buenos días a todos."}}), 0.0);  // mtscore.py: 0.00
}

TEST(CorpusChrfTest, SumsStatisticsOverTheCorpus) {
  const std::vector<std::string> hyps = {"Hola, ¿cómo estás?",
                                         "El tren sale a las 10.30 de la mañana.", "No lo sé.",
                                         "Compré 1,5 kilos de manzanas y 3 peras."};
  const RefSets refs = {{"Hola, ¿qué tal estás?"},
                        {"El tren sale a las 10.30 por la mañana."},
                        {"No lo sé."},
                        {"Compré kilo y medio de manzanas y tres peras."}};
  EXPECT_NEAR(corpus_chrf(hyps, refs), 62.53, kTol);  // mtscore.py: chrF2 62.53
}

TEST(CorpusChrfTest, AveragesOnlyOverOrdersBothSidesHave) {
  // sacreBLEU 2.x (metrics/chrf.py) reports no hypothesis n-grams for an order the reference is
  // too short to have, and averages precision and recall over the remaining orders only.
  // "abcdefgh" vs "ab": order 1 P = 2/8, R = 1; order 2 P = 1/7, R = 1; orders 3-6 drop out.
  // P = (1/4 + 1/7) / 2 = 11/56, R = 1, F2 = 5PR / (4P + R) = 0.55. mtscore.py instead averages
  // over all six orders and prints 18.33, which differs from sacreBLEU.
  EXPECT_NEAR(corpus_chrf({"abcdefgh"}, {{"ab"}}), 55.0, 1e-9);
  // Likewise a short exact match is perfect for sacreBLEU (mtscore.py: 50.00).
  EXPECT_NEAR(corpus_chrf({"Sí ."}, {{"Sí ."}}), 100.0, 1e-9);
}

TEST(CorpusChrfTest, RemovesEveryKindOfWhitespace) {
  const std::vector<std::string> ref = {"Hoy hace mucho frío aquí fuera."};
  const double plain = corpus_chrf({"Hoy hace mucho frío aquí."}, {ref});
  EXPECT_DOUBLE_EQ(corpus_chrf({"Hoy\u00a0hace\tmucho  frío\u2009aquí."}, {ref}), plain);
  EXPECT_DOUBLE_EQ(corpus_chrf({"Hoyhacemuchofríoaquí."}, {ref}), plain);
}

TEST(CorpusChrfTest, IgnoresEmptyStringReferences) {
  const std::string hyp = "Ella compró una casa muy grande ayer.";
  const std::string ref = "Ayer ella adquirió una vivienda enorme.";
  EXPECT_DOUBLE_EQ(corpus_chrf({hyp}, {{ref, ""}}), corpus_chrf({hyp}, {{ref}}));
}

TEST(CorpusChrfTest, InvalidUtf8StillScores) {
  // Stray bytes count as characters of their own instead of aborting an evaluation run.
  const double score = corpus_chrf({"caf\xe9 con leche"}, {{"café con leche"}});
  EXPECT_GT(score, 0.0);
  EXPECT_LT(score, 100.0);
}

// --- input validation ---------------------------------------------------------------------------

TEST(MetricsInputTest, HypothesisAndReferenceCountMismatchThrows) {
  const std::vector<std::string> hyps = {"uno", "dos"};
  const RefSets refs = {{"uno"}};
  EXPECT_THROW(corpus_bleu(hyps, refs), std::invalid_argument);
  EXPECT_THROW(corpus_chrf(hyps, refs), std::invalid_argument);
}

TEST(MetricsInputTest, SegmentWithoutReferenceThrows) {
  const std::vector<std::string> hyps = {"uno", "dos"};
  EXPECT_THROW(corpus_bleu(hyps, {{"uno"}, {}}), std::invalid_argument);
  EXPECT_THROW(corpus_chrf(hyps, {{"uno"}, {}}), std::invalid_argument);
  // Only empty strings leaves no usable reference either.
  EXPECT_THROW(corpus_bleu(hyps, {{"uno"}, {""}}), std::invalid_argument);
  EXPECT_THROW(corpus_chrf(hyps, {{"uno"}, {""}}), std::invalid_argument);
}

TEST(MetricsInputTest, ErrorMessageNamesTheProblem) {
  try {
    corpus_bleu({"uno", "dos"}, {{"uno"}});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2 hypotheses but 1 reference sets"), std::string::npos);
  }
}

TEST(MetricsInputTest, EmptyCorpusScoresZero) {
  EXPECT_DOUBLE_EQ(corpus_bleu({}, {}).score, 0.0);
  EXPECT_DOUBLE_EQ(corpus_chrf({}, {}), 0.0);
}

}  // namespace
}  // namespace atento

namespace atento {
namespace {

// --- sentence BLEU, chrF++ ---------------------------------------------------------------------

TEST(SentenceBleuTest, UsesTheEffectiveOrderAndExpSmoothing) {
  // "a b c" against "a b d": unigrams 2/3, bigrams 1/2, trigrams 0/1 -> exp smoothing 1/(2*1);
  // no 4-grams, so the mean stops at order 3: (2/3 * 1/2 * 1/2)^(1/3) = (1/6)^(1/3).
  EXPECT_NEAR(sentence_bleu("a b c", {"a b d"}), 100.0 * std::cbrt(1.0 / 6.0), 1e-9);
  // Corpus BLEU of the same pair is 0: it takes all four orders.
  EXPECT_DOUBLE_EQ(corpus_bleu({"a b c"}, {{"a b d"}}).score, 0.0);
  EXPECT_NEAR(sentence_bleu("Sí .", {"Sí ."}), 100.0, 1e-9);
  EXPECT_DOUBLE_EQ(sentence_bleu("x y", {"a b"}), 0.0);
}

TEST(SentenceBleuTest, EqualsCorpusBleuWhenAllOrdersArePresent) {
  const std::string hyp = "El perro marrón salta sobre la valla.";
  const std::string ref = "El rápido zorro marrón salta sobre el perro perezoso.";
  EXPECT_NEAR(sentence_bleu(hyp, {ref}), corpus_bleu({hyp}, {{ref}}).score, 1e-9);
}

TEST(BleuStatsTest, SegmentStatisticsSumToTheCorpusScore) {
  const std::vector<std::string> hyps = {"a b c d e", "x y z", "El gato ."};
  const RefSets refs = {{"a b c d f"}, {"x y w"}, {"El gato duerme ."}};
  BleuStats sum;
  for (size_t i = 0; i < hyps.size(); ++i) sum += bleu_stats(hyps[i], refs[i]);
  EXPECT_DOUBLE_EQ(bleu_from_stats(sum).score, corpus_bleu(hyps, refs).score);
}

TEST(ChrfPlusPlusTest, HandComputedExample) {
  // hyp "ab c." against ref "ab.": characters without spaces "abc." and "ab.".
  //   chars 1: hyp 4, ref 3, match 3 (a b .)   chars 2: hyp 3 (ab bc c.), ref 2 (ab b.), match 1
  //   chars 3: hyp 2, ref 1, match 0           chars 4..6: the reference has none (not effective)
  // Words (one trailing punctuation mark split off): hyp [ab, c, .], ref [ab, .]
  //   words 1: hyp 3, ref 2, match 2           words 2: hyp 2 (ab c, c .), ref 1 (ab .), match 0
  // chrF++: P = (3/4 + 1/3 + 0 + 2/3 + 0) / 5 = 0.35, R = (1 + 1/2 + 0 + 1 + 0) / 5 = 0.5,
  //   F2 = 5PR / (4P + R) = 0.875 / 1.9.
  ChrfOptions plus;
  plus.word_order = 2;
  EXPECT_NEAR(corpus_chrf({"ab c."}, {{"ab."}}, plus), 100.0 * 0.875 / 1.9, 1e-9);
  // chrF2 (characters only): P = (3/4 + 1/3 + 0) / 3, R = (1 + 1/2 + 0) / 3.
  const double p = (0.75 + 1.0 / 3.0) / 3.0, r = 1.5 / 3.0;
  EXPECT_NEAR(corpus_chrf({"ab c."}, {{"ab."}}), 100.0 * 5 * p * r / (4 * p + r), 1e-9);
  EXPECT_NEAR(sentence_chrf("ab c.", {"ab."}, plus), 100.0 * 0.875 / 1.9, 1e-9);
}

TEST(ChrfPlusPlusTest, SplitsALeadingMarkOnlyWhenNoTrailingOne) {
  // "(hi)" becomes "(hi" and ")" (sacreBLEU issue #124: only the trailing mark is split), while
  // "( hi )" gives "(", "hi", ")": the two share the word ")" alone.
  ChrfOptions words_only;
  words_only.char_order = 1;
  words_only.word_order = 1;
  const ChrfStats stats = chrf_stats("(hi)", {"( hi )"}, words_only);
  ASSERT_EQ(stats.size(), 6u);
  EXPECT_EQ(stats[3], 2);  // hypothesis words
  EXPECT_EQ(stats[4], 3);  // reference words
  EXPECT_EQ(stats[5], 1);  // ")"
  // A leading ASCII mark is split when the word does not end in one; "¿" is not ASCII.
  const ChrfStats lead = chrf_stats("¿qué", {"\"hola"}, words_only);
  EXPECT_EQ(lead[3], 1);  // "¿qué"
  EXPECT_EQ(lead[4], 2);  // "\"" "hola"
}

TEST(ChrfPlusPlusTest, IdenticalTextScores100) {
  ChrfOptions plus;
  plus.word_order = 2;
  EXPECT_NEAR(corpus_chrf({"El gato, ¿dónde está?"}, {{"El gato, ¿dónde está?"}}, plus), 100.0,
              1e-9);
}

}  // namespace
}  // namespace atento
