#include "data/letter_case.h"

#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <set>

#include "data/text_span.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

bool is_lower(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_LOWERCASE); }
bool is_upper(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_UPPERCASE); }
bool is_cased(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_CASED); }
bool is_letter(char32_t c) { return u_isalpha(static_cast<UChar32>(c)) != 0; }
char32_t lower(char32_t c) { return static_cast<char32_t>(u_tolower(static_cast<UChar32>(c))); }
char32_t title(char32_t c) { return static_cast<char32_t>(u_totitle(static_cast<UChar32>(c))); }

bool is_alnum(const CodePoint& cp) { return cp.valid && u_isalnum(static_cast<UChar32>(cp.value)); }

/// True when the byte at `i` of `text` is `letter` standing alone as a word ("I", "I'm",
/// "I’m"; not "Ian", "3I").
bool is_one_letter_word(std::string_view text, size_t i, char letter) {
  if (text[i] != letter) return false;
  if (i + 1 < text.size() && is_alnum(decode_utf8(text, i + 1))) return false;
  return i == 0 || !is_alnum(decode_utf8_before(text, i));
}

/// True when the byte at `i` of `text` is the English pronoun "I".
bool is_pronoun_i(std::string_view text, size_t i) { return is_one_letter_word(text, i, 'I'); }

/// The English pronoun "i" (alone, or before an apostrophe: "i'm") in upper case, as the
/// corpus writes it; "i.e." stays as it is.
void upper_case_pronoun_i(std::string& text) {
  for (size_t p = 0; p < text.size(); ++p) {
    if (!is_one_letter_word(text, p, 'i')) continue;
    if (p + 2 < text.size() && text[p + 1] == '.' && is_alnum(decode_utf8(text, p + 2))) continue;
    text[p] = 'I';
  }
}

/// Follows a text code point by code point to tell the cased letters that open a sentence: the
/// first of the text (when it opens one) and the first after ., !, ? or another sentence-ending
/// mark and a space; a letter, digit or SContinue mark ("3.5", "i.e., it") in between cancels.
class SentenceStarts {
 public:
  explicit SentenceStarts(bool opens_sentence) : start_(opens_sentence) {}

  /// True when `c` is a cased letter that opens a sentence; any other `c` moves the state.
  bool next(char32_t c) {
    const auto code = static_cast<UChar32>(c);
    if (is_cased(c)) {
      const bool opens = start_;
      start_ = after_end_mark_ = false;
      return opens;
    }
    if (u_hasBinaryProperty(code, UCHAR_S_TERM)) {
      after_end_mark_ = true;
    } else if (u_isUWhiteSpace(code)) {
      start_ = start_ || after_end_mark_;
      after_end_mark_ = false;
    } else if (u_isalnum(code) ||
               u_getIntPropertyValue(code, UCHAR_SENTENCE_BREAK) == U_SB_SCONTINUE) {
      start_ = after_end_mark_ = false;
    }  // other marks (quotes, brackets, ¡ ¿) keep the state
    return false;
  }

 private:
  bool start_;
  bool after_end_mark_ = false;
};

bool is_apostrophe(char32_t c) { return c == U'\'' || c == U'\u2019'; }

/// The end of the word that starts at `begin` (a letter): letters, and apostrophes followed
/// by a letter ("don't", "Tom's").
size_t word_end(std::string_view text, size_t begin) {
  size_t end = begin;
  while (end < text.size()) {
    const CodePoint cp = decode_utf8(text, end);
    if (cp.valid && is_letter(cp.value)) {
      end += cp.length;
      continue;
    }
    if (!cp.valid || !is_apostrophe(cp.value) || end + cp.length >= text.size()) break;
    const CodePoint next = decode_utf8(text, end + cp.length);
    if (!next.valid || !is_letter(next.value)) break;
    end += cp.length;
  }
  return end;
}

/// `word` with its first letter in title case.
std::string title_case_first(std::string_view word) {
  const CodePoint first = decode_utf8(word, 0);
  std::string out;
  append_utf8(out, title(first.value));
  out.append(word.substr(first.length));
  return out;
}

/// `word` (sentence-cased) in title case or in capitals where that form of its letters before
/// any apostrophe ("tom" of "tom's") is one piece for `pieces` and their sentence case is not;
/// else as it is. A run of letters that no vocabulary holds whole (a long URL's) is never
/// changed.
std::string best_known_form(std::string_view word, const WordPieces& pieces) {
  size_t stem_end = 0;
  while (stem_end < word.size()) {
    const CodePoint cp = decode_utf8(word, stem_end);
    if (!cp.valid || is_apostrophe(cp.value)) break;
    stem_end += cp.length;
  }
  const std::string_view stem = word.substr(0, stem_end);
  if (pieces(std::string(stem)) <= 1) return std::string(word);
  if (pieces(title_case_first(stem)) == 1) return title_case_first(word);
  if (pieces(upper_case(stem)) == 1) return upper_case(word);
  return std::string(word);
}

/// True for the English words that title case leaves in lower case ("How to Train Your
/// Dragon", "Terms of Service"): articles, coordinating conjunctions, short prepositions.
bool is_minor_word(std::string_view word) {
  static const std::set<std::string_view> kMinor = {
      "a",   "an",   "and", "as", "at",  "but", "by",   "for",  "from",
      "in",  "into", "nor", "of", "off", "on",  "onto", "or",   "over",
      "per", "so",   "the", "to", "up",  "via", "vs",   "with", "yet"};
  return kMinor.count(word) > 0;
}

/// `mapped` appended to `out` where its UTF-8 is as long as `bytes` (the code point it maps
/// from), else `bytes` as they are.
void append_same_length(std::string& out, std::string_view bytes, char32_t mapped) {
  std::string encoded;
  append_utf8(encoded, mapped);
  out += encoded.size() == bytes.size() ? encoded : std::string(bytes);
}

}  // namespace

bool has_letters(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    i += cp.length;
    if (cp.valid && is_letter(cp.value)) return true;
  }
  return false;
}

bool is_in_capitals(std::string_view text) {
  int upper = 0;
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    i += cp.length;
    if (!cp.valid) continue;
    if (is_lower(cp.value)) return false;
    if (is_upper(cp.value)) ++upper;
  }
  return upper >= 2;
}

bool is_in_lower_case(std::string_view text) {
  bool lower_case = false;
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    // The pronoun I opening the text is a sentence written as the corpus writes it.
    if (cp.valid && is_upper(cp.value) && !(lower_case && is_pronoun_i(text, i))) return false;
    lower_case = lower_case || (cp.valid && is_lower(cp.value));
    i += cp.length;
  }
  return lower_case;
}

bool is_in_title_case(std::string_view text) {
  if (is_in_capitals(text)) return false;
  int words = 0, capitalised = 0;  // capitalised: after the first word, the pronoun I aside
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    if (!cp.valid || !is_letter(cp.value)) {
      i += cp.length;
      continue;
    }
    const size_t end = word_end(text, i);
    if (is_upper(cp.value)) {
      capitalised += words > 0 && !is_pronoun_i(text, i) ? 1 : 0;
    } else if (!is_minor_word(text.substr(i, end - i))) {
      return false;
    }
    ++words;
    i = end;
  }
  return capitalised >= 2;
}

std::string sentence_case(std::string_view text, bool opens_sentence) {
  std::string out;
  SentenceStarts starts(opens_sentence);
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    if (!cp.valid) {
      out += text[i];
    } else if (is_cased(cp.value)) {
      append_utf8(out, starts.next(cp.value) ? title(cp.value) : lower(cp.value));
    } else {
      out.append(text, i, cp.length);
      starts.next(cp.value);
    }
    i += cp.length;
  }
  upper_case_pronoun_i(out);
  return out;
}

std::string capitalise_sentence_starts(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  SentenceStarts starts(true);
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    const std::string_view bytes = text.substr(i, cp.length);
    if (cp.valid && starts.next(cp.value) && is_lower(cp.value)) {
      append_same_length(out, bytes, title(cp.value));
    } else {
      out += bytes;
    }
    i += cp.length;
  }
  return out;
}

std::string sentence_case(std::string_view text, const WordPieces& pieces, bool opens_sentence) {
  const std::string cased = sentence_case(text, opens_sentence);
  std::string out;
  out.reserve(cased.size());
  for (size_t i = 0; i < cased.size();) {
    const CodePoint cp = decode_utf8(cased, i);
    if (!cp.valid || !is_letter(cp.value)) {
      out.append(cased, i, cp.length);
      i += cp.length;
      continue;
    }
    const size_t end = word_end(cased, i);
    out += best_known_form(std::string_view(cased).substr(i, end - i), pieces);
    i = end;
  }
  return out;
}

std::string capitalise_first_letter(std::string_view text) {
  if (text.empty()) return std::string(text);
  const CodePoint first = decode_utf8(text, 0);
  if (!first.valid || !is_lower(first.value)) return std::string(text);
  std::string out = title_case_first(text.substr(0, first.length));
  out.append(text.substr(first.length));
  return out;
}

std::string lower_case_first_letter(std::string_view text) {
  size_t i = 0;
  CodePoint cp{};
  while (i < text.size() && (cp = decode_utf8(text, i)).valid &&
         (cp.value == U'\u00BF' || cp.value == U'\u00A1' || is_ascii_white_space(text[i]))) {
    i += cp.length;
  }
  if (i >= text.size() || !cp.valid || !is_upper(cp.value)) return std::string(text);
  if (i + cp.length < text.size()) {
    const CodePoint next = decode_utf8(text, i + cp.length);
    if (next.valid && is_upper(next.value)) return std::string(text);  // a word in capitals
  }
  std::string out(text.substr(0, i));
  append_utf8(out, lower(cp.value));
  out.append(text.substr(i + cp.length));
  return out;
}

std::string upper_case(std::string_view text) {
  icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::string out;
  unicode.toUpper(icu::Locale::getRoot()).toUTF8String(out);
  return out;
}

std::string title_case_words_in_capitals(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    // The word (run of letters) at i, or one code point that is not a letter.
    size_t end = i, letters = 0;
    bool capitals = true;
    while (end < text.size()) {
      const CodePoint cp = decode_utf8(text, end);
      if (!cp.valid || !is_letter(cp.value)) break;
      capitals = capitals && !is_lower(cp.value);
      ++letters;
      end += cp.length;
    }
    if (letters == 0) {
      const size_t length = decode_utf8(text, i).length;
      out.append(text, i, length);
      i += length;
      continue;
    }
    for (size_t j = i, k = 0; j < end; ++k) {
      const CodePoint cp = decode_utf8(text, j);
      const std::string_view bytes = text.substr(j, cp.length);
      append_same_length(out, bytes,
                         capitals && letters >= 2 && k > 0 ? lower(cp.value) : cp.value);
      j += cp.length;
    }
    i = end;
  }
  return out;
}

}  // namespace atento::data
