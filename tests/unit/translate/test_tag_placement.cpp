// Inline markup placed over a translation from a hand-made word alignment: around the aligned
// words, contiguous, nested, in order; points after the word before them.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/translate/tag_placement.h"
#include "data/html_document.h"

namespace atento {
namespace {

/// An alignment of `source` to `target`: links[t] the source words of target word t.
WordAlignment align(const std::string& source, const std::string& target,
                    std::vector<std::vector<size_t>> links) {
  return {data::text_words(source), data::text_words(target), std::move(links), {}};
}

data::InlineSpan span(const std::string& text, const std::string& words, const std::string& tag,
                      int parent = -1) {
  const size_t begin = text.find(words);
  return {begin, begin + words.size(), "<" + tag + ">", "</" + tag + ">", parent};
}

std::string placed(const std::string& source, const std::string& target,
                   const std::vector<data::InlineSpan>& spans, const WordAlignment& alignment) {
  return data::block_markup({target, place_spans(spans, alignment, source, target)});
}

TEST(TextWords, RunsBetweenWhiteSpace) {
  const auto words = data::text_words("  a bc\td\n");
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[1].begin, 4u);
  EXPECT_EQ(words[1].end, 6u);
  EXPECT_TRUE(data::text_words(" \n").empty());
}

TEST(TagPlacement, SpanFollowsItsWordsWhenTheyMove) {
  const std::string source = "I have a red car.", target = "Tengo un coche rojo.";
  // Tengo←I have, un←a, coche←car., rojo←red
  const auto alignment = align(source, target, {{0, 1}, {2}, {4}, {3}});
  // The period the source span left out stays out.
  EXPECT_EQ(placed(source, target, {span(source, "red", "b")}, alignment),
            "Tengo un coche <b>rojo</b>.");
  EXPECT_EQ(placed(source, target, {span(source, "red car.", "i")}, alignment),
            "Tengo un <i>coche rojo.</i>");
  EXPECT_EQ(placed(source, "\u00BFTengo?", {span(source, "I have", "i")},
                   align(source, "\u00BFTengo?", {{0, 1}})),
            "\u00BF<i>Tengo</i>?");
}

TEST(TagPlacement, ASpanOverEveryWordCoversTheWholeTranslation) {
  // "About us" → "Sobre nosotros", "About" aligned to nothing: the link is still every word.
  EXPECT_EQ(placed("About us", "Sobre nosotros", {span("About us", "About us", "a")},
                   align("About us", "Sobre nosotros", {{}, {1}})),
            "<a>Sobre nosotros</a>");
  // Without the punctuation its source words did not have; its children placed within it.
  const std::string source = "Opening hours.", target = "Horario de apertura.";
  EXPECT_EQ(
      placed(source, target, {span(source, "Opening hours", "b"), span(source, "hours", "i", 0)},
             align(source, target, {{1}, {}, {0}})),
      "<b><i>Horario</i> de apertura</b>.");
  // A question's opening mark with it.
  const std::string question = "Where is it?", pregunta = "\u00BFD\u00F3nde est\u00E1?";
  EXPECT_EQ(placed(question, pregunta, {span(question, question, "a")},
                   align(question, pregunta, {{0}, {1, 2}})),
            "<a>\u00BFD\u00F3nde est\u00E1?</a>");
}

TEST(TagPlacement, SeveralWordsBecomeOneContiguousSpan) {
  const std::string source = "the big house", target = "la casa muy grande";
  const auto alignment = align(source, target, {{0}, {2}, {1}, {1}});
  EXPECT_EQ(placed(source, target, {span(source, "big", "b")}, alignment),
            "la casa <b>muy grande</b>");
  EXPECT_EQ(placed(source, target, {span(source, "the big", "em")}, alignment),
            "<em>la casa muy grande</em>");
}

TEST(TagPlacement, NestedSpansStayNested) {
  const std::string source = "see the big house now", target = "mira ahora la casa grande";
  // mira←see, ahora←now, la←the, casa←house, grande←big
  const auto alignment = align(source, target, {{0}, {4}, {1}, {3}, {2}});
  const auto outer = span(source, "the big house", "a");
  auto inner = span(source, "big", "b", 0);
  EXPECT_EQ(placed(source, target, {outer, inner}, alignment),
            "mira ahora <a>la casa <b>grande</b></a>");
  // An inner span aligned outside its parent is pulled inside it.
  const auto odd = align(source, target, {{0}, {2}, {1}, {3}, {4}});
  const std::string out = placed(source, target, {outer, inner}, odd);
  EXPECT_EQ(out.find("<a>") < out.find("<b>"), true) << out;
  EXPECT_EQ(out.find("</b>") < out.find("</a>"), true) << out;
}

TEST(TagPlacement, SiblingsKeepTheirOrderAndDoNotOverlap) {
  const std::string source = "red and blue", target = "azul y rojo";
  const auto alignment = align(source, target, {{2}, {1}, {0}});
  // Swapped by the translation: kept in source order, apart.
  const std::string out =
      placed(source, target, {span(source, "red", "b"), span(source, "blue", "i")}, alignment);
  EXPECT_LT(out.find("<b>"), out.find("<i>")) << out;
  EXPECT_LT(out.find("</b>"), out.find("<i>")) << out;
  // In order: each gets its own word.
  const auto straight = align(source, "rojo y azul", {{0}, {1}, {2}});
  EXPECT_EQ(placed(source, "rojo y azul", {span(source, "red", "b"), span(source, "blue", "i")},
                   straight),
            "<b>rojo</b> y <i>azul</i>");
}

TEST(TagPlacement, UnalignedSpanTakesTheWordAtTheSamePlace) {
  const std::string source = "one two three four", target = "uno dos tres cuatro";
  const auto alignment = align(source, target, {{0}, {}, {}, {3}});
  EXPECT_EQ(placed(source, target, {span(source, "three", "b")}, alignment),
            "uno dos <b>tres</b> cuatro");
}

TEST(TagPlacement, PointsGoAfterTheWordBeforeThem) {
  const std::string source = "Run this now", target = "Ejecuta esto ahora";
  const auto alignment = align(source, target, {{0}, {1}, {2}});
  data::InlineSpan image{4, 4, "<img src=\"x\">", "", -1};  // after "Run ", before "this"
  EXPECT_EQ(placed(source, target, {image}, alignment), "Ejecuta <img src=\"x\">esto ahora");
  // With the white space it had around it, before the punctuation that followed it.
  const std::string code_source = "Run  now", code_target = "Ejecuta ahora";
  data::InlineSpan code{4, 4, "<code>ls</code>", "", -1};
  EXPECT_EQ(placed(code_source, code_target, {code}, align(code_source, code_target, {{0}, {1}})),
            "Ejecuta <code>ls</code> ahora");
  const std::string end_source = "Call me at , please.", end_target = "Ll\u00E1mame, por favor.";
  data::InlineSpan number{11, 11, "<code>555</code>", "", -1};
  EXPECT_EQ(placed(end_source, end_target, {number},
                   align(end_source, end_target, {{0, 1, 2}, {4}, {4}})),
            "Ll\u00E1mame <code>555</code>, por favor.");
  data::InlineSpan first{0, 0, "<!--c-->", "", -1};
  EXPECT_EQ(placed(source, target, {first}, alignment), "<!--c-->Ejecuta esto ahora");
}

TEST(TagPlacement, EmptyTranslationKeepsEveryTag) {
  const std::string source = "a <b>", target = "";
  const auto alignment = align("a b", target, {});
  const auto spans =
      place_spans({span("a b", "b", "b"), {1, 1, "<br>", "", -1}}, alignment, "a b", "");
  EXPECT_EQ(data::block_markup({target, spans}), "<b></b><br>");
}

TEST(TagPlacement, ManyRandomAlignmentsAlwaysNest) {
  const std::string source = "w0 w1 w2 w3 w4 w5 w6 w7", target = "t0 t1 t2 t3 t4 t5";
  uint32_t state = 7;
  auto next = [&] { return (state = state * 1103515245u + 12345u) >> 16; };
  for (int round = 0; round < 500; ++round) {
    std::vector<std::vector<size_t>> links(6);
    for (auto& l : links) {
      for (uint32_t k = next() % 3; k > 0; --k) l.push_back(next() % 8);
    }
    const auto alignment = align(source, target, links);
    std::vector<data::InlineSpan> spans = {{3, 14, "<a>", "</a>", -1},  {3, 5, "<b>", "</b>", 0},
                                           {6, 6, "<br>", "", 0},       {9, 11, "<i>", "</i>", 0},
                                           {15, 23, "<u>", "</u>", -1}, {18, 20, "<s>", "</s>", 4}};
    const std::string out = placed(source, target, spans, alignment);  // throws when badly nested
    for (const char* tag : {"<a>", "</a>", "<b>", "</b>", "<br>", "<i>", "</i>", "<u>", "<s>"}) {
      EXPECT_NE(out.find(tag), std::string::npos) << out;
    }
  }
}

TEST(TagPlacement, BadAlignmentIsRefused) {
  EXPECT_THROW(place_spans({}, align("a", "b", {{5}}), "a", "b"), std::invalid_argument);
}

}  // namespace
}  // namespace atento
