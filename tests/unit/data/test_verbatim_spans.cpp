// Verbatim spans: web and e-mail addresses, emoji, emoticons, @names and #tags found in running
// text, left out of what the model reads, and put back into a translation where they stood.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/verbatim_spans.h"

namespace atento::data {
namespace {

std::vector<std::string> found(const std::string& text) {
  std::vector<std::string> out;
  for (const TextSpan& span : verbatim_spans(text))
    out.push_back(text.substr(span.begin, span.size()));
  return out;
}

using Texts = std::vector<std::string>;

TEST(VerbatimSpans, FindsAddressesWithoutTheirSentencePunctuation) {
  EXPECT_EQ(found("Visit https://example.com/help for more."), (Texts{"https://example.com/help"}));
  EXPECT_EQ(found("Email tom@example.com."), (Texts{"tom@example.com"}));
  EXPECT_EQ(found("(see www.example.org/a?b=1), then"), (Texts{"www.example.org/a?b=1"}));
  // Brackets or quotes right around an address go with it.
  EXPECT_EQ(found("\"ftp://files.example.net/x.zip\""),
            (Texts{"\"ftp://files.example.net/x.zip\""}));
  EXPECT_EQ(found("Done. (https://x.org/n?a=1)"), (Texts{"(https://x.org/n?a=1)"}));
  EXPECT_EQ(found("Read https://en.wikipedia.org/wiki/Foo_(bar)."),
            (Texts{"https://en.wikipedia.org/wiki/Foo_(bar)"}));
}

TEST(VerbatimSpans, LeavesOrdinaryWordsNumbersAndAbbreviations) {
  EXPECT_TRUE(found("It costs $5.50, e.g. at 3:30 p.m. in the U.S.").empty());
  EXPECT_TRUE(found("He said: no. Tom@home is not an address; www. neither; a://").empty());
  EXPECT_TRUE(found("I met Tom at the café in Zürich.").empty());
}

TEST(VerbatimSpans, FindsRunsOfEmojiWithTheirJoinersAndModifiers) {
  EXPECT_EQ(found("I love it 😀."), (Texts{"😀"}));
  EXPECT_EQ(found("Great😀😀!"), (Texts{"😀😀"}));
  // family (ZWJ sequence), thumbs up with a skin tone, a flag (regional indicators), a heart
  // with its emoji variation selector
  EXPECT_EQ(found("👨‍👩‍👧 👍🏽 🇪🇸 ❤️"),
            (Texts{"👨‍👩‍👧", "👍🏽", "🇪🇸", "❤️"}));
}

TEST(VerbatimSpans, FindsEmoticonsWrittenAlone) {
  EXPECT_EQ(found("I love this song :)"), (Texts{":)"}));
  EXPECT_EQ(found("See you tomorrow ;-) Bye :(("), (Texts{";-)", ":(("}));
  EXPECT_EQ(found(":D that was fun <3 ^_^"), (Texts{":D", "<3", "^_^"}));
  // Colons and brackets in words, times, lists and addresses are no faces.
  EXPECT_TRUE(found("Note: call me (at 3:30); ratio 1:1 or :-").empty());
}

TEST(VerbatimSpans, FindsNamesAndTagsOfSocialNetworks) {
  EXPECT_EQ(found("@tom_92 Thanks for your help!"), (Texts{"@tom_92"}));
  EXPECT_EQ(found("I'm going to Paris #travel."), (Texts{"#travel"}));
  EXPECT_EQ(found("Ask (@mary), she knows #TBT"), (Texts{"(@mary)", "#TBT"}));
  // A number, a lone sign and an address with a name before the "@" are not.
  EXPECT_EQ(found("My #1 pick @ 5 is tom@example.com"), (Texts{"tom@example.com"}));
}

TEST(StripVerbatim, LeavesOneSpaceAndNoSpaceBeforePunctuation) {
  StrippedText s = strip_verbatim("Visit https://example.com/help for more information.");
  EXPECT_EQ(s.text, "Visit for more information.");
  ASSERT_EQ(s.kept.spans.size(), 1u);
  EXPECT_EQ(s.kept.spans[0].words_before, 1u);
  EXPECT_EQ(s.kept.words, 4u);
  s = strip_verbatim("I love this song 😀. Do you?");
  EXPECT_EQ(s.text, "I love this song. Do you?");
  s = strip_verbatim("😀 Hello there");
  EXPECT_EQ(s.text, "Hello there");
  EXPECT_EQ(s.kept.spans[0].words_before, 0u);
  s = strip_verbatim("https://example.com");
  EXPECT_EQ(s.text, "");
  EXPECT_EQ(s.kept.words, 0u);
}

std::string round_trip(const std::string& source, const std::string& translation) {
  const StrippedText s = strip_verbatim(source);
  return restore_verbatim(translation, s.kept);
}

TEST(RestoreVerbatim, PutsSpansAtTheStartTheEndOrTheSameShareOfTheWords) {
  EXPECT_EQ(round_trip("I love this song 😀.", "Me encanta esta canción."),
            "Me encanta esta canción 😀.");
  EXPECT_EQ(round_trip("Great😀!", "¡Genial!"), "¡Genial😀!");
  EXPECT_EQ(round_trip("Thanks! 😀", "¡Gracias!"), "¡Gracias! 😀");
  EXPECT_EQ(round_trip("😀 Good morning.", "Buenos días."), "😀 Buenos días.");
  EXPECT_EQ(round_trip("Email tom@example.com.", "Escribe a tom."),
            "Escribe a tom tom@example.com.");
  EXPECT_EQ(
      round_trip("Visit https://example.com/help for more information.", "Visita más información."),
      "Visita https://example.com/help más información.");
  // Before the mark that followed it, where the translation has one.
  EXPECT_EQ(round_trip("Send it to tom@example.com, please.", "Mándalo, por favor."),
            "Mándalo tom@example.com, por favor.");
  // An address in brackets after the sentence, which ICU leaves in it: the emoji still goes
  // before the final punctuation, the address after it.
  EXPECT_EQ(round_trip("I swim 😀. (https://x.org/n)", "Nado."), "Nado 😀. (https://x.org/n)");
  // Two spans: each where it stood, in their order.
  EXPECT_EQ(round_trip("😀 Visit www.example.org today 👍", "Visita hoy"),
            "😀 Visita www.example.org hoy 👍");
}

TEST(RestoreVerbatim, OffsetsMapBetweenTheTextsWithAndWithoutTheSpans) {
  const std::string source = "Visit https://x.org/a for more.";
  const StrippedText s = strip_verbatim(source);
  ASSERT_EQ(s.text, "Visit for more.");
  EXPECT_EQ(original_offset(s.kept, 0), 0u);                       // "Visit"
  EXPECT_EQ(source.substr(original_offset(s.kept, 6), 3), "for");  // after the address
  EXPECT_EQ(source.substr(original_offset(s.kept, 10), 4), "more");
  const std::string translation = "Visita más.";
  const auto inserted = verbatim_insertions(translation, s.kept);
  const std::string restored = restore_verbatim(translation, s.kept);
  ASSERT_EQ(restored, "Visita https://x.org/a más.");
  EXPECT_EQ(restored.substr(shifted_offset(0, inserted), 6), "Visita");
  EXPECT_EQ(restored.substr(shifted_offset(7, inserted), 5), "más.");  // á: 2 bytes
}

TEST(RestoreVerbatim, NothingKeptLeavesTheTranslationAlone) {
  EXPECT_EQ(round_trip("Where is it?", "¿Dónde está?"), "¿Dónde está?");
  EXPECT_EQ(round_trip("Look 😀", ""), " 😀");
}

TEST(StripVerbatim, ALongLineOfManySpansIsStrippedWhole) {
  // 200,000 words and spans: the text is read a bounded number of times, not once per span.
  std::string line;
  for (int i = 0; i < 40000; ++i) line += "go 😀 www.example.org/" + std::to_string(i) + " on. ";
  const StrippedText s = strip_verbatim(line);
  ASSERT_EQ(s.kept.spans.size(), 80000u);
  EXPECT_EQ(s.kept.words, 80000u);
  EXPECT_EQ(s.kept.spans[1].words_before, 1u);
  EXPECT_EQ(s.kept.spans.back().words_before, 79999u);
  EXPECT_EQ(s.text.substr(0, 14), "go on. go on. ");
}

TEST(HasWords, LettersOrDigitsInAnyScript) {
  EXPECT_TRUE(has_words("¿Qué?"));
  EXPECT_TRUE(has_words("42"));
  EXPECT_FALSE(has_words("(). 😀 !"));
}

}  // namespace
}  // namespace atento::data
