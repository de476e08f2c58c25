#include "data/letter_case.h"

#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <cctype>

#include "data/utf8.h"

namespace atento::data {
namespace {

bool is_lower(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_LOWERCASE); }
bool is_upper(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_UPPERCASE); }
bool is_cased(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_CASED); }
bool is_letter(char32_t c) { return u_isalpha(static_cast<UChar32>(c)) != 0; }
char32_t lower(char32_t c) { return static_cast<char32_t>(u_tolower(static_cast<UChar32>(c))); }
char32_t title(char32_t c) { return static_cast<char32_t>(u_totitle(static_cast<UChar32>(c))); }

bool is_word_byte(unsigned char c) { return std::isalnum(c) || c >= 0x80; }

/// The English pronoun "i" (alone, or before an apostrophe: "i'm") in upper case, as the
/// corpus writes it; "i.e." stays as it is.
void upper_case_pronoun_i(std::string& text) {
  for (size_t p = 0; p < text.size(); ++p) {
    if (text[p] != 'i') continue;
    if (p > 0 && is_word_byte(static_cast<unsigned char>(text[p - 1]))) continue;
    const size_t next = p + 1;
    if (next < text.size() && is_word_byte(static_cast<unsigned char>(text[next]))) continue;
    if (next + 1 < text.size() && text[next] == '.' &&
        is_word_byte(static_cast<unsigned char>(text[next + 1]))) {
      continue;
    }
    text[p] = 'I';
  }
}

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

/// Of `word` (sentence-cased), its title case and its capitals, the form `pieces` splits least.
std::string best_known_form(std::string_view word, const WordPieces& pieces) {
  std::string best(word);
  size_t fewest = pieces(best);
  for (std::string form : {title_case_first(word), upper_case(word)}) {
    const size_t count = pieces(form);
    if (count < fewest) best = std::move(form), fewest = count;
  }
  return best;
}

/// `mapped` appended to `out` where its UTF-8 is as long as `bytes` (the code point it maps
/// from), else `bytes` as they are.
void append_same_length(std::string& out, std::string_view bytes, char32_t mapped) {
  std::string encoded;
  append_utf8(encoded, mapped);
  out += encoded.size() == bytes.size() ? encoded : std::string(bytes);
}

}  // namespace

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

std::string sentence_case(std::string_view text) {
  std::string out;
  bool sentence_start = true, after_end_mark = false;
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    const char32_t c = cp.value;
    if (!cp.valid) {
      out += text[i];
    } else if (is_cased(c)) {
      append_utf8(out, sentence_start ? title(c) : lower(c));
      sentence_start = after_end_mark = false;
    } else {
      out.append(text, i, cp.length);
      if (u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_S_TERM)) {
        after_end_mark = true;
      } else if (u_isUWhiteSpace(static_cast<UChar32>(c))) {
        sentence_start = sentence_start || after_end_mark;
        after_end_mark = false;
      } else if (u_isalnum(static_cast<UChar32>(c)) ||
                 u_getIntPropertyValue(static_cast<UChar32>(c), UCHAR_SENTENCE_BREAK) ==
                     U_SB_SCONTINUE) {
        sentence_start = after_end_mark = false;  // "3.5", "42 is", "i.e., it"
      }  // other marks (quotes, brackets, ¡ ¿) keep the state
    }
    i += cp.length;
  }
  upper_case_pronoun_i(out);
  return out;
}

std::string sentence_case(std::string_view text, const WordPieces& pieces) {
  const std::string cased = sentence_case(text);
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
