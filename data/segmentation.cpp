#include "data/segmentation.h"

#include <unicode/brkiter.h>
#include <unicode/filteredbrk.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>

#include <algorithm>
#include <stdexcept>

#include "data/letter_case.h"
#include "data/parenthetical.h"
#include "data/utf8.h"
#include "data/verbatim_spans.h"

namespace atento::data {

struct SentenceSplitter::Impl {
  std::unique_ptr<icu::BreakIterator> iterator;
};

namespace {

// Entries of ICU's English suppressions (CLDR's list, generated from a corpus) that are words
// or names ending sentences as often as abbreviations: with them suppressed, "OK. Where is it?"
// and "I saw Joe. He left." would stay one sentence, and so would "THAT'S ALL. GO." (read as
// "That's All. Go.", see split).
constexpr const char* kEnglishWordsEndingSentences[] = {
    "OK.",  "Ok.",  "All.",  "As.",   "By.",  "Do.",  "Go.",   "In.",  "Is.",
    "On.",  "Or.",  "To.",   "Up.",   "Act.", "Cap.", "Card.", "Hat.", "Jam.",
    "Job.", "Joe.", "Link.", "Long.", "AD.",  "DC.",  "PC."};

// Titles before a name that ICU's English suppressions lack ("Dr. Smith", "St. Louis", "Gen.
// Lee", "Sen. Warren"), and "vs.": each would end a sentence before the name. They end a
// sentence far more rarely than they stand before a name.
constexpr const char* kEnglishTitlesBeforeNames[] = {"Dr.",   "St.",     "Gen.", "Sen.",  "Gov.",
                                                     "Rep.",  "Maj.",    "Adm.", "Pres.", "Hon.",
                                                     "Mmes.", "Messrs.", "vs."};

void check_icu(UErrorCode status, const std::string& language, const char* step) {
  if (U_FAILURE(status)) {
    throw std::runtime_error("no sentence segmentation rules for language '" + language + "' (" +
                             step + "): " + u_errorName(status));
  }
}

}  // namespace

SentenceSplitter::SentenceSplitter(const std::string& language) : impl_(std::make_unique<Impl>()) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Locale locale(language.c_str());
  std::unique_ptr<icu::BreakIterator> rules(
      icu::BreakIterator::createSentenceInstance(locale, status));
  check_icu(status, language, "sentence rules");
  // The locale's sentence-break suppressions (abbreviations that end no sentence), as
  // "@ss=standard" applies them, less the English words among them, plus the titles they lack.
  std::unique_ptr<icu::FilteredBreakIteratorBuilder> suppressions(
      icu::FilteredBreakIteratorBuilder::createInstance(locale, status));
  check_icu(status, language, "suppressions");
  if (std::string(locale.getLanguage()) == "en") {
    for (const char* word : kEnglishWordsEndingSentences) {
      suppressions->unsuppressBreakAfter(icu::UnicodeString(word, -1, US_INV), status);
    }
    for (const char* title : kEnglishTitlesBeforeNames) {
      suppressions->suppressBreakAfter(icu::UnicodeString(title, -1, US_INV), status);
    }
  }
  impl_->iterator.reset(suppressions->wrapIteratorWithFilter(rules.release(), status));
  check_icu(status, language, "suppressions");
}

SentenceSplitter::~SentenceSplitter() = default;
SentenceSplitter::SentenceSplitter(SentenceSplitter&&) noexcept = default;
SentenceSplitter& SentenceSplitter::operator=(SentenceSplitter&&) noexcept = default;

namespace {

// [begin, end) without the white space at either end (Unicode's White_Space: a no-break space
// between two sentences is spacing to join their translations with, not a part of either);
// empty when there is nothing else.
TextSpan trimmed(std::string_view text, size_t begin, size_t end) {
  auto is_space = [](const CodePoint& cp) {
    return cp.valid && u_isUWhiteSpace(static_cast<UChar32>(cp.value));
  };
  for (CodePoint cp; begin < end && is_space(cp = decode_utf8(text, begin));) begin += cp.length;
  for (CodePoint cp; end > begin && is_space(cp = decode_utf8_before(text, end));) {
    end -= cp.length;
  }
  return {begin, end};
}

}  // namespace

std::vector<TextSpan> SentenceSplitter::split(std::string_view text) {
  std::vector<TextSpan> sentences;
  auto add = [&](size_t begin, size_t end) {
    TextSpan span = trimmed(text, begin, end);
    if (span.size() > 0) sentences.push_back(span);
  };
  if (!is_valid_utf8(text) || text.size() > static_cast<size_t>(INT32_MAX)) {
    add(0, text.size());
    return sentences;
  }
  // ICU reads a copy (as long, byte for byte) with words in capitals in title case: it takes
  // "SALT." for an abbreviation and would find no sentence end after it; and, in a text in
  // lower case, with each sentence's first letter capitalised: it finds no end before "where".
  // And with each address and emoji (data/verbatim_spans.h) as digits: what a sentence reads
  // like without them ("floor. (https://x.org) I can't…" ends after "floor.", where ICU reads on
  // into the lower-case "https"; capitals would be "SALT." again: "alone XXXX. I have…").
  std::string read = is_in_lower_case(text) ? capitalise_sentence_starts(text)
                                            : title_case_words_in_capitals(text);
  const std::vector<TextSpan> kept = verbatim_spans(text);
  for (const TextSpan& span : kept) read.replace(span.begin, span.size(), span.size(), '0');
  UErrorCode status = U_ZERO_ERROR;
  UText* utext = utext_openUTF8(nullptr, read.data(), static_cast<int64_t>(read.size()), &status);
  impl_->iterator->setText(utext, status);
  if (U_FAILURE(status)) {
    utext_close(utext);
    throw std::runtime_error(std::string("sentence segmentation failed: ") + u_errorName(status));
  }
  // Boundaries are native indexes of the UText: byte offsets into the UTF-8 text. None inside
  // an address.
  auto inside_kept = [&](size_t at) {  // the spans are in order and apart
    const auto after =
        std::upper_bound(kept.begin(), kept.end(), at,
                         [](size_t a, const TextSpan& span) { return a < span.begin; });
    return after != kept.begin() && std::prev(after)->begin < at && at < std::prev(after)->end;
  };
  size_t start = static_cast<size_t>(impl_->iterator->first());
  for (int32_t end = impl_->iterator->next(); end != icu::BreakIterator::DONE;
       end = impl_->iterator->next()) {
    if (inside_kept(static_cast<size_t>(end))) continue;
    add(start, static_cast<size_t>(end));
    start = static_cast<size_t>(end);
  }
  utext_close(utext);
  return sentences;
}

namespace {

// The dashes that stand between two clauses with a space on each side: -, en dash, em dash.
constexpr std::string_view kClauseDashes[] = {"-", "\xE2\x80\x93", "\xE2\x80\x94"};

// Where a clause may end: after ';', ':' or ',' (then a space), or after a dash standing
// between spaces (" - ", " – ", " — "). Returns the boundary's position (the end of the left
// part), or npos.
size_t clause_end(std::string_view text, size_t i) {
  const char c = text[i];
  if ((c == ';' || c == ':' || c == ',') && i + 1 < text.size() &&
      is_ascii_white_space(text[i + 1])) {
    return i + 1;
  }
  if (c == ' ') {
    for (std::string_view dash : kClauseDashes) {
      if (text.substr(i + 1, dash.size()) == dash && text.substr(i + 1 + dash.size(), 1) == " ") {
        return i + 1 + dash.size();
      }
    }
  }
  return std::string_view::npos;
}

// The boundary inside `span` nearest its middle that leaves text on both sides, of the kind
// `boundary` finds; npos when there is none.
template <typename Boundary>
size_t middle_boundary(std::string_view text, TextSpan span, Boundary boundary) {
  const size_t middle = span.begin + span.size() / 2;
  size_t best = std::string_view::npos, best_distance = std::string_view::npos;
  for (size_t i = span.begin; i < span.end; ++i) {
    const size_t at = boundary(text, i);
    if (at == std::string_view::npos || at <= span.begin || at >= span.end) continue;
    if (trimmed(text, span.begin, at).size() == 0 || trimmed(text, at, span.end).size() == 0) {
      continue;
    }
    const size_t distance = at > middle ? at - middle : middle - at;
    if (distance < best_distance) best = at, best_distance = distance;
  }
  return best;
}

size_t space_at(std::string_view text, size_t i) {
  return is_ascii_white_space(text[i]) ? i : std::string_view::npos;
}

void split_into(std::string_view text, TextSpan span, const PieceMeasure& measure,
                std::vector<Segment>& out) {
  span = trimmed(text, span.begin, span.end);
  if (span.size() == 0) return;
  const PieceLength length = measure(text.substr(span.begin, span.size()));
  if (length == PieceLength::kShort) {
    out.push_back({span, false});
    return;
  }
  size_t at = middle_boundary(text, span, clause_end);
  if (at == std::string_view::npos && length == PieceLength::kTooLong) {
    at = middle_boundary(text, span, space_at);
  }
  if (at == std::string_view::npos) {
    out.push_back({span, length == PieceLength::kTooLong});
    return;
  }
  split_into(text, {span.begin, at}, measure, out);
  split_into(text, {at, span.end}, measure, out);
}

}  // namespace

std::vector<Segment> split_to_fit(std::string_view text, TextSpan span,
                                  const PieceMeasure& measure) {
  std::vector<Segment> out;
  split_into(text, span, measure, out);
  return out;
}

std::vector<Segment> segment_text(SentenceSplitter& splitter, std::string_view text,
                                  const PieceMeasure& measure) {
  std::vector<Segment> out;
  for (const TextSpan& sentence : splitter.split(text)) {
    // Its asides (data/parenthetical.h) and the parts around them, each a piece of its own.
    size_t from = sentence.begin;
    for (const TextSpan& aside : parentheticals(text, sentence)) {
      split_into(text, {from, aside.begin}, measure, out);
      split_into(text, aside, measure, out);
      from = aside.end;
    }
    split_into(text, {from, sentence.end}, measure, out);
  }
  return out;
}

size_t clause_ending(std::string_view piece) {
  if (piece.empty()) return std::string_view::npos;
  const char last = piece.back();
  if (last == ';' || last == ':' || last == ',') return piece.size() - 1;
  for (std::string_view dash : kClauseDashes) {
    const size_t size = dash.size() + 1;  // the space before it
    if (piece.size() > size && piece.substr(piece.size() - size) == " " + std::string(dash)) {
      return piece.size() - size;
    }
  }
  return std::string_view::npos;
}

bool opens_sentence(std::string_view text, size_t begin) {
  size_t end = begin;
  while (end > 0 && is_ascii_white_space(text[end - 1])) --end;
  if (end == 0) return true;
  const CodePoint cp = decode_utf8_before(text, end);
  if (!cp.valid) return false;
  const auto c = static_cast<UChar32>(cp.value);
  const int8_t type = u_charType(c);
  return u_hasBinaryProperty(c, UCHAR_S_TERM) || type == U_FINAL_PUNCTUATION ||
         type == U_END_PUNCTUATION || c == '"' || c == '\'';
}

}  // namespace atento::data
