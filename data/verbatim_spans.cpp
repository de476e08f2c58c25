#include "data/verbatim_spans.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "data/utf8.h"

namespace atento::data {

namespace {

bool is_ascii_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_ascii_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// A code point that starts or continues a run of emoji.
bool starts_emoji(char32_t c) {
  const auto u = static_cast<UChar32>(c);
  return c > 0x7F && (u_hasBinaryProperty(u, UCHAR_EXTENDED_PICTOGRAPHIC) ||
                      u_hasBinaryProperty(u, UCHAR_REGIONAL_INDICATOR));
}
bool continues_emoji(char32_t c) {
  return starts_emoji(c) || c == 0x200D || c == 0xFE0E || c == 0xFE0F || c == 0x20E3 ||
         u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_EMOJI_MODIFIER) ||
         (c >= 0xE0020 && c <= 0xE007F);  // tag characters (subdivision flags)
}

// scheme://rest: a scheme of 2 or more letters (then letters, digits, + - .), something after.
bool is_url_with_scheme(std::string_view core) {
  const size_t at = core.find("://");
  if (at == std::string_view::npos || at < 2 || at + 3 >= core.size()) return false;
  if (!is_ascii_alpha(core[0])) return false;
  return std::all_of(core.begin(), core.begin() + static_cast<std::ptrdiff_t>(at),
                     [](char c) { return is_ascii_alnum(c) || c == '+' || c == '-' || c == '.'; });
}

// www.domain.tld…
bool is_www_address(std::string_view core) {
  if (core.size() < 8) return false;
  std::string head(core.substr(0, 4));
  std::transform(head.begin(), head.end(), head.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  if (head != "www.") return false;
  const size_t dot = core.find('.', 4);
  return dot != std::string_view::npos && dot > 4 && dot + 1 < core.size() &&
         is_ascii_alpha(core[dot + 1]);
}

// name@domain.tld: one @, a name of letters, digits and . _ % + -, a domain with a dot and a
// top-level part of letters.
bool is_email_address(std::string_view core) {
  const size_t at = core.find('@');
  if (at == 0 || at == std::string_view::npos || core.find('@', at + 1) != std::string_view::npos) {
    return false;
  }
  const auto name = core.substr(0, at), domain = core.substr(at + 1);
  const bool name_ok = std::all_of(name.begin(), name.end(), [](char c) {
    return is_ascii_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
  });
  const size_t dot = domain.rfind('.');
  if (!name_ok || dot == std::string_view::npos || dot == 0 || dot + 2 > domain.size()) {
    return false;
  }
  const bool domain_ok = std::all_of(domain.begin(), domain.end(), [](char c) {
    return is_ascii_alnum(c) || c == '.' || c == '-';
  });
  const auto tld = domain.substr(dot + 1);
  return domain_ok && tld.size() >= 2 && std::all_of(tld.begin(), tld.end(), is_ascii_alpha);
}

// @name (a user on a social network or chat) or #tag (a hashtag: a letter after the "#", so
// that "#1" is a number): letters, digits and "_" after the sign.
bool is_handle(std::string_view core) {
  if (core.size() < 2 || (core[0] != '@' && core[0] != '#') || !is_ascii_alpha(core[1])) {
    return false;
  }
  return std::all_of(core.begin() + 1, core.end(),
                     [](char c) { return is_ascii_alnum(c) || c == '_'; });
}

// A text emoticon written alone: eyes (: ; =), a nose (- ') or none, and a mouth repeated
// (":)", ";-)", ":((", ":D", ":P", ":/"), or one of the faces and hearts without eyes.
bool is_emoticon(std::string_view run) {
  static constexpr std::array<std::string_view, 12> kFaces = {
      "<3", "</3", "xD", "XD", "^_^", "^^", "-_-", "o_O", "O_o", "T_T", ":'(", ":')"};
  if (std::find(kFaces.begin(), kFaces.end(), run) != kFaces.end()) return true;
  if (run.size() < 2 || std::string_view(":;=").find(run[0]) == std::string_view::npos) {
    return false;
  }
  const size_t mouth = run[1] == '-' ? 2 : 1;
  if (mouth >= run.size()) return false;
  const char shape = run[mouth];
  return std::string_view(")(DPpOo/|*]").find(shape) != std::string_view::npos &&
         std::all_of(run.begin() + static_cast<std::ptrdiff_t>(mouth), run.end(),
                     [shape](char c) { return c == shape; });
}

// The address inside the run [begin, end) of `text` without white space: the run less the
// brackets and quotes before it and the sentence punctuation, quotes and unmatched closing
// brackets after it. {npos, npos} when the core is no address.
TextSpan address_in(std::string_view text, size_t begin, size_t end) {
  constexpr std::string_view kOpening = "([{<\"'";
  constexpr std::string_view kClosing = ".,;:!?\"')]}>";
  while (begin < end && kOpening.find(text[begin]) != std::string_view::npos) ++begin;
  while (end > begin && kClosing.find(text[end - 1]) != std::string_view::npos) {
    const char c = text[end - 1];
    if (c == ')') {  // "…/Foo_(bar)" keeps its own closing bracket
      const auto core = text.substr(begin, end - begin);
      if (std::count(core.begin(), core.end(), '(') >= std::count(core.begin(), core.end(), ')')) {
        break;
      }
    }
    --end;
  }
  const auto core = text.substr(begin, end - begin);
  if (is_url_with_scheme(core) || is_www_address(core) || is_email_address(core) ||
      is_handle(core)) {
    return {begin, end};
  }
  return {std::string_view::npos, std::string_view::npos};
}

// `span` with the brackets or quotes right around it, where a pair encloses it within `run`
// ("(https://x.org/a)." → "(https://x.org/a)"): the model would read them alone.
TextSpan enclosed(std::string_view text, TextSpan span, TextSpan run) {
  constexpr std::string_view kOpen = "([{<\"'", kClose = ")]}>\"'";
  if (span.begin > run.begin && span.end < run.end) {
    const size_t pair = kOpen.find(text[span.begin - 1]);
    if (pair != std::string_view::npos && text[span.end] == kClose[pair]) {
      return {span.begin - 1, span.end + 1};
    }
  }
  return span;
}

// The emoji runs in [begin, end) of `text`, appended to `out`.
void add_emoji_runs(std::string_view text, size_t begin, size_t end, std::vector<TextSpan>& out) {
  for (size_t i = begin; i < end;) {
    const CodePoint cp = decode_utf8(text, i);
    if (!cp.valid || !starts_emoji(cp.value)) {
      i += cp.length;
      continue;
    }
    size_t run_end = i + cp.length;
    while (run_end < end) {
      const CodePoint next = decode_utf8(text, run_end);
      if (!next.valid || !continues_emoji(next.value)) break;
      run_end += next.length;
    }
    out.push_back({i, run_end});
    i = run_end;
  }
}

// Where each word of `text` ends: its runs without white space holding a letter or digit.
std::vector<size_t> word_ends(std::string_view text) {
  std::vector<size_t> ends;
  for (const TextSpan& run : text_words(text)) {
    if (has_words(text.substr(run.begin, run.size()))) ends.push_back(run.end);
  }
  return ends;
}

// Where the last letter or digit of `text` ends (0 for none).
size_t last_word_end(std::string_view text) {
  for (size_t at = text.size(); at > 0;) {
    const CodePoint cp = decode_utf8_before(text, at);
    if (cp.valid && has_words(text.substr(at - cp.length, cp.length))) return at;
    at -= cp.length;
  }
  return 0;
}

// Where the punctuation (and white space) at the end of `text` starts.
size_t final_punctuation_start(std::string_view text) {
  size_t at = text.size();
  while (at > 0) {
    const CodePoint cp = decode_utf8_before(text, at);
    const bool punctuation =
        cp.valid && (u_ispunct(static_cast<UChar32>(cp.value)) || cp.value == ' ');
    if (!punctuation) break;
    at -= cp.length;
  }
  return at;
}

// The place of `mark` in `translation` (after at least one word, before the final
// punctuation) whose share of the words before it (of `ends`) is nearest `share`; npos when
// there is none.
size_t nearest_mark(std::string_view translation, const std::vector<size_t>& ends,
                    const std::string& mark, double share) {
  if (mark.empty() || ends.empty()) return std::string_view::npos;
  const size_t final = final_punctuation_start(translation);
  size_t best = std::string_view::npos;
  double best_distance = 2.0;
  for (size_t at = translation.find(mark); at != std::string_view::npos && at < final;
       at = translation.find(mark, at + mark.size())) {
    // The words before it: those ending where it ends at the latest ("Mándalo," holds it).
    const auto words = static_cast<size_t>(
        std::upper_bound(ends.begin(), ends.end(), at + mark.size()) - ends.begin());
    if (words == 0) continue;
    const double distance =
        std::abs(static_cast<double>(words) / static_cast<double>(ends.size()) - share);
    if (distance < best_distance) best = at, best_distance = distance;
  }
  return best;
}

}  // namespace

bool has_words(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    if (cp.valid && u_isalnum(static_cast<UChar32>(cp.value)) && !starts_emoji(cp.value)) {
      return true;
    }
    i += cp.length;
  }
  return false;
}

std::vector<TextSpan> verbatim_spans(std::string_view text) {
  std::vector<TextSpan> spans;
  for (const TextSpan& run : text_words(text)) {
    const size_t start = run.begin, i = run.end;
    if (is_emoticon(text.substr(start, i - start))) {
      spans.push_back(run);
      continue;
    }
    const TextSpan address = address_in(text, start, i);
    if (address.begin == std::string_view::npos) {
      add_emoji_runs(text, start, i, spans);
      continue;
    }
    add_emoji_runs(text, start, address.begin, spans);
    spans.push_back(enclosed(text, address, {start, i}));
    add_emoji_runs(text, address.end, i, spans);
  }
  return spans;
}

StrippedText strip_verbatim(std::string_view text, const std::vector<TextSpan>& also) {
  std::vector<TextSpan> spans = verbatim_spans(text);
  for (const TextSpan& extra : also) {
    const bool overlaps = std::any_of(spans.begin(), spans.end(), [&](const TextSpan& s) {
      return extra.begin < s.end && s.begin < extra.end;
    });
    if (!overlaps && extra.begin < extra.end && extra.end <= text.size()) spans.push_back(extra);
  }
  std::sort(spans.begin(), spans.end(),
            [](const TextSpan& a, const TextSpan& b) { return a.begin < b.begin; });
  StrippedText out;
  std::vector<size_t> stripped_at;  // where each span was left out of out.text
  size_t from = 0;
  for (const TextSpan& span : spans) {
    out.kept.runs.push_back({out.text.size(), from});
    out.text.append(text, from, span.begin - from);
    KeptSpan kept;
    kept.text = std::string(text.substr(span.begin, span.size()));
    kept.space_before = span.begin > 0 && is_ascii_white_space(text[span.begin - 1]);
    kept.space_after = span.end < text.size() && is_ascii_white_space(text[span.end]);
    from = span.end;
    const bool at_end = span.end == text.size();
    const bool before_punctuation =
        !at_end && !kept.space_after &&
        !has_words(text.substr(span.end, decode_utf8(text, span.end).length));
    if (!out.text.empty() && is_ascii_white_space(out.text.back()) &&
        (at_end || kept.space_after || before_punctuation)) {
      out.text.pop_back();  // "for URL here" → "for here", "song 😀." → "song."
    } else if (out.text.empty()) {
      while (from < text.size() && is_ascii_white_space(text[from])) ++from;  // "😀 Hello" → "Hello"
    }
    if (before_punctuation) {
      kept.mark_after = std::string(text.substr(span.end, decode_utf8(text, span.end).length));
    }
    stripped_at.push_back(out.text.size());
    out.kept.spans.push_back(std::move(kept));
  }
  out.kept.runs.push_back({out.text.size(), from});
  out.text.append(text, from, std::string_view::npos);
  // Once over the stripped text, so that a line of many spans costs no more than its length:
  // the words before each span, and whether only punctuation follows it.
  std::vector<size_t> word_begins;
  for (const TextSpan& run : text_words(out.text)) {
    if (has_words(std::string_view(out.text).substr(run.begin, run.size()))) {
      word_begins.push_back(run.begin);
    }
  }
  out.kept.words = word_begins.size();
  const size_t last_word = last_word_end(out.text);
  const size_t last_mark = out.text.find_last_not_of(" \t\n\r\f\v") + 1;  // 0 for none
  for (size_t k = 0; k < stripped_at.size(); ++k) {
    const size_t at = stripped_at[k];
    out.kept.spans[k].words_before = static_cast<size_t>(
        std::lower_bound(word_begins.begin(), word_begins.end(), at) - word_begins.begin());
    out.kept.spans[k].punctuation_after = at >= last_word && at < last_mark;
  }
  return out;
}

size_t original_offset(const KeptSpans& kept, size_t at) {
  const auto run = std::upper_bound(kept.runs.begin(), kept.runs.end(), at,
                                    [](size_t a, const auto& r) { return a < r.first; });
  if (run == kept.runs.begin()) return at;
  return std::prev(run)->second + (at - std::prev(run)->first);
}

std::vector<Insertion> verbatim_insertions(std::string_view translation, const KeptSpans& kept) {
  const size_t source_words = kept.words;
  std::vector<Insertion> inserts;
  const auto ends = word_ends(translation);
  for (const KeptSpan& span : kept.spans) {
    if (span.words_before == 0 && source_words > 0) {
      inserts.push_back({0, span.text + (span.space_after ? " " : "")});
      continue;
    }
    const std::string spaced = (span.space_before ? " " : "") + span.text;
    if (span.words_before >= source_words || ends.size() < 2) {
      const bool inside = span.punctuation_after && !span.space_after && span.words_before > 0;
      inserts.push_back(
          {inside ? final_punctuation_start(translation) : translation.size(), spaced});
      continue;
    }
    const double share = static_cast<double>(span.words_before) / static_cast<double>(source_words);
    const size_t mark = nearest_mark(translation, ends, span.mark_after, share);
    if (mark != std::string_view::npos) {
      inserts.push_back({mark, spaced});
      continue;
    }
    const auto word = std::clamp<size_t>(
        static_cast<size_t>(share * static_cast<double>(ends.size()) + 0.5), 1, ends.size() - 1);
    inserts.push_back({ends[word - 1], " " + span.text});
  }
  std::stable_sort(inserts.begin(), inserts.end(),
                   [](const Insertion& a, const Insertion& b) { return a.at < b.at; });
  return inserts;
}

std::string restore_verbatim(std::string_view translation, const KeptSpans& kept) {
  const auto inserts = verbatim_insertions(translation, kept);
  // Last first: each place still holds for the ones before it, and spans at one place keep
  // their order.
  std::string out(translation);
  for (size_t i = inserts.size(); i-- > 0;) out.insert(inserts[i].at, inserts[i].text);
  return out;
}

size_t shifted_offset(size_t at, const std::vector<Insertion>& insertions) {
  size_t shifted = at;
  for (const Insertion& insertion : insertions) {
    if (insertion.at <= at) shifted += insertion.text.size();
  }
  return shifted;
}

}  // namespace atento::data
