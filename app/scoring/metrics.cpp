// BLEU and chrF as computed by sacreBLEU 2.x with its default settings. Every detail that can
// move a score (tokenisation, smoothing, reference selection, which n-gram counts are summed) is
// kept identical to sacreBLEU so that Atento's numbers can be compared with published ones.
#include "app/scoring/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "data/utf8.h"

namespace atento {
namespace {

constexpr int kBleuOrder = 4;

// The code point at byte `i` of `s` into `*cp`; returns its length in bytes. A byte that starts
// no well-formed sequence becomes U+DC00 + byte, one byte at a time, like Python's
// 'surrogateescape': distinct bad bytes stay distinct characters instead of collapsing into one
// replacement character, and decoding never gets stuck.
std::size_t decode_utf8_at(const std::string& s, std::size_t i, char32_t* cp) {
  const data::CodePoint decoded = data::decode_utf8(s, i);
  *cp = decoded.valid ? decoded.value : 0xDC00 + decoded.value;
  return decoded.length;
}

// The characters Python's str.isspace() accepts. sacreBLEU splits tokens (BLEU) and strips
// whitespace (chrF) with str.split(), so e.g. a no-break space separates words there too.
bool is_python_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 ||
         c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
         c == 0x205F || c == 0x3000;
}

// Splits UTF-8 text on runs of Python whitespace, like str.split() with no argument.
std::vector<std::string> split_on_whitespace(const std::string& s) {
  std::vector<std::string> out;
  std::string current;
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8_at(s, i, &cp);
    if (is_python_space(cp)) {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
    } else {
      current.append(s, i, len);
    }
    i += len;
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

// Python's str.rstrip(): sacreBLEU applies it to every segment before BLEU tokenisation, which
// matters for the "-\n" joining rule of 13a.
std::string rstrip_whitespace(const std::string& s) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t len = decode_utf8_at(s, i, &cp);
    i += len;
    if (!is_python_space(cp)) end = i;
  }
  return s.substr(0, end);
}

// Python's str.replace(): left to right, non-overlapping, no rescanning of inserted text.
std::string replace_all(const std::string& s, const std::string& from, const std::string& to) {
  std::string out;
  out.reserve(s.size());
  std::size_t pos = 0;
  for (std::size_t hit = s.find(from); hit != std::string::npos; hit = s.find(from, pos)) {
    out.append(s, pos, hit - pos);
    out += to;
    pos = hit + from.size();
  }
  out.append(s, pos, std::string::npos);
  return out;
}

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool is_period_or_comma(char c) { return c == '.' || c == ','; }

// The character class [\{-\~\[-\` -\&\(-\+\:-\@\/] of 13a's first rule: ASCII punctuation and
// symbols except the apostrophe, comma, hyphen and period, which later rules treat specially.
bool is_split_punctuation(char c) {
  return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= ' ' && c <= '&') ||
         (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

// 13a's regex rules are applied byte-wise to the UTF-8 text. This gives exactly what Python's
// re.sub gives on code points: every character class involved is ASCII (the negated [^0-9]
// accepts any non-digit, and a multi-byte character's lead and continuation bytes are all
// non-digits and non-punctuation), and a match never starts on a byte >= 0x80, so scanning a
// multi-byte character one byte at a time never creates or hides a match.
std::string split_punctuation(const std::string& s) {
  std::string out;
  out.reserve(s.size() * 2);
  for (char c : s) {
    if (is_split_punctuation(c)) {
      out += ' ';
      out += c;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// re.sub(r'([^0-9])([\.,])', r'\1 \2 '): a period or comma not preceded by a digit.
std::string split_period_comma_after_non_digit(const std::string& s) {
  std::string out;
  out.reserve(s.size() * 2);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && !is_ascii_digit(s[i]) && is_period_or_comma(s[i + 1])) {
      out += s[i];
      out += ' ';
      out += s[i + 1];
      out += ' ';
      i += 2;  // re.sub resumes after the whole match.
    } else {
      out += s[i];
      ++i;
    }
  }
  return out;
}

// re.sub(r'([\.,])([^0-9])', r' \1 \2'): a period or comma not followed by a digit.
std::string split_period_comma_before_non_digit(const std::string& s) {
  std::string out;
  out.reserve(s.size() * 2);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && is_period_or_comma(s[i]) && !is_ascii_digit(s[i + 1])) {
      out += ' ';
      out += s[i];
      out += ' ';
      out += s[i + 1];
      i += 2;
    } else {
      out += s[i];
      ++i;
    }
  }
  return out;
}

// re.sub(r'([0-9])(-)', r'\1 \2 '): a hyphen preceded by a digit.
std::string split_dash_after_digit(const std::string& s) {
  std::string out;
  out.reserve(s.size() * 2);
  std::size_t i = 0;
  while (i < s.size()) {
    if (i + 1 < s.size() && is_ascii_digit(s[i]) && s[i + 1] == '-') {
      out += s[i];
      out += " - ";
      i += 2;
    } else {
      out += s[i];
      ++i;
    }
  }
  return out;
}

// The references of one segment that count: sacreBLEU drops "" references so that segments
// may have different numbers of references. Throws when none is left.
std::vector<const std::string*> usable_references(const char* caller, std::size_t segment,
                                                  const std::vector<std::string>& refs) {
  std::vector<const std::string*> usable;
  for (const std::string& ref : refs) {
    if (!ref.empty()) usable.push_back(&ref);
  }
  if (usable.empty()) {
    throw std::invalid_argument(std::string(caller) + ": hypothesis " + std::to_string(segment) +
                                " has no reference (every segment needs at least one "
                                "non-empty reference)");
  }
  return usable;
}

void check_aligned(const char* caller, const std::vector<std::string>& hyps,
                   const std::vector<std::vector<std::string>>& refs) {
  if (hyps.size() != refs.size()) {
    throw std::invalid_argument(std::string(caller) + ": got " + std::to_string(hyps.size()) +
                                " hypotheses but " + std::to_string(refs.size()) +
                                " reference sets; they must be aligned one to one");
  }
  // Every segment is checked before any is scored, so that the error names the first bad one.
  for (std::size_t i = 0; i < refs.size(); ++i) usable_references(caller, i, refs[i]);
}

// Word n-grams of orders 1..max_order, keyed by the tokens joined with ' ' (tokens never
// contain whitespace, so the key is unambiguous).
using WordNgramCounts = std::unordered_map<std::string, int64_t>;

std::vector<WordNgramCounts> count_word_ngrams(const std::vector<std::string>& tokens,
                                               int max_order) {
  std::vector<WordNgramCounts> counts(max_order);
  for (int n = 1; n <= max_order; ++n) {
    for (std::size_t i = 0; i + n <= tokens.size(); ++i) {
      std::string key = tokens[i];
      for (int k = 1; k < n; ++k) {
        key += ' ';
        key += tokens[i + k];
      }
      ++counts[n - 1][key];
    }
  }
  return counts;
}

// Reference length that is closest to the hypothesis length, the shorter one on ties.
int64_t closest_reference_length(int64_t hyp_len, const std::vector<int64_t>& ref_lens) {
  int64_t best_diff = -1;
  int64_t best_len = -1;
  for (int64_t len : ref_lens) {
    const int64_t diff = len > hyp_len ? len - hyp_len : hyp_len - len;
    if (best_diff == -1 || diff < best_diff || (diff == best_diff && len < best_len)) {
      best_diff = diff;
      best_len = len;
    }
  }
  return best_len;
}

// One segment's BLEU statistics against the references that count.
BleuStats segment_bleu_stats(const std::string& hyp, const std::vector<const std::string*>& refs) {
  // An n-gram may be credited up to the largest count it has in any single reference.
  std::vector<WordNgramCounts> max_ref_counts(kBleuOrder);
  std::vector<int64_t> ref_lens;
  for (const std::string* ref : refs) {
    const std::vector<std::string> tokens = tokenize_13a(rstrip_whitespace(*ref));
    ref_lens.push_back(static_cast<int64_t>(tokens.size()));
    const auto counts = count_word_ngrams(tokens, kBleuOrder);
    for (int n = 0; n < kBleuOrder; ++n) {
      for (const auto& entry : counts[n]) {
        int64_t& slot = max_ref_counts[n][entry.first];
        slot = std::max(slot, entry.second);
      }
    }
  }
  const std::vector<std::string> hyp_tokens = tokenize_13a(rstrip_whitespace(hyp));
  BleuStats stats;
  stats.sys_len = static_cast<int64_t>(hyp_tokens.size());
  stats.ref_len = closest_reference_length(stats.sys_len, ref_lens);
  const auto hyp_counts = count_word_ngrams(hyp_tokens, kBleuOrder);
  for (int n = 0; n < kBleuOrder; ++n) {
    for (const auto& entry : hyp_counts[n]) {
      stats.total[n] += entry.second;
      const auto found = max_ref_counts[n].find(entry.first);
      if (found != max_ref_counts[n].end()) {
        stats.correct[n] += std::min(entry.second, found->second);
      }
    }
  }
  return stats;
}

// chrF ignores whitespace entirely: it is removed before n-grams are taken, so n-grams span
// word boundaries.
std::u32string code_points_without_whitespace(const std::string& s) {
  std::u32string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    i += decode_utf8_at(s, i, &cp);
    if (!is_python_space(cp)) out += cp;
  }
  return out;
}

using CharNgramCounts = std::unordered_map<std::u32string, int64_t>;

std::vector<CharNgramCounts> count_char_ngrams(const std::u32string& chars, int max_order) {
  std::vector<CharNgramCounts> counts(max_order);
  for (int n = 1; n <= max_order; ++n) {
    for (std::size_t i = 0; i + n <= chars.size(); ++i) ++counts[n - 1][chars.substr(i, n)];
  }
  return counts;
}

// Python's string.punctuation: what chrF++ splits off the ends of words.
bool is_ascii_punctuation(char c) {
  return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
         (c >= '{' && c <= '~');
}

// chrF++'s words (sacreBLEU's _remove_punctuation, after Popović's chrF++.py): whitespace-split
// words, with a punctuation mark at the end (or else at the start) of a word of two or more
// characters split off as a word of its own. Only ASCII marks count, so checking bytes is
// checking characters: a multi-byte character never ends or starts with an ASCII byte.
std::vector<std::string> chrf_words(const std::string& s) {
  std::vector<std::string> words;
  for (std::string& w : split_on_whitespace(s)) {
    if (w.size() > 1 && is_ascii_punctuation(w.back())) {
      const char mark = w.back();
      w.pop_back();
      words.push_back(std::move(w));
      words.emplace_back(1, mark);
    } else if (w.size() > 1 && is_ascii_punctuation(w.front())) {
      words.emplace_back(1, w.front());
      words.push_back(w.substr(1));
    } else {
      words.push_back(std::move(w));
    }
  }
  return words;
}

// The n-grams chrF compares: character orders, then word orders (chrF++).
struct ChrfNgrams {
  std::vector<CharNgramCounts> chars;
  std::vector<WordNgramCounts> words;
};

ChrfNgrams chrf_ngrams(const std::string& s, const ChrfOptions& options) {
  ChrfNgrams out;
  out.chars = count_char_ngrams(code_points_without_whitespace(s), options.char_order);
  if (options.word_order > 0) out.words = count_word_ngrams(chrf_words(s), options.word_order);
  return out;
}

// Hypothesis n-grams, reference n-grams and matches of one order, appended to `stats`.
template <typename Counts>
void append_match_stats(const Counts& hyp, const Counts& ref, ChrfStats& stats) {
  int64_t hyp_count = 0;
  int64_t match_count = 0;
  for (const auto& entry : hyp) {
    hyp_count += entry.second;
    const auto found = ref.find(entry.first);
    if (found != ref.end()) match_count += std::min(entry.second, found->second);
  }
  int64_t ref_count = 0;
  for (const auto& entry : ref) ref_count += entry.second;
  // sacreBLEU does not count hypothesis n-grams of an order the reference is too short to
  // have; this keeps short references from dragging the corpus precision down.
  stats.push_back(ref.empty() ? 0 : hyp_count);
  stats.push_back(ref_count);
  stats.push_back(match_count);
}

ChrfStats chrf_match_stats(const ChrfNgrams& hyp, const ChrfNgrams& ref) {
  ChrfStats stats;
  stats.reserve(3 * (hyp.chars.size() + hyp.words.size()));
  for (std::size_t n = 0; n < hyp.chars.size(); ++n) {
    append_match_stats(hyp.chars[n], ref.chars[n], stats);
  }
  for (std::size_t n = 0; n < hyp.words.size(); ++n) {
    append_match_stats(hyp.words[n], ref.words[n], stats);
  }
  return stats;
}

// One segment's chrF statistics against the best of the references that count.
ChrfStats segment_chrf_stats(const std::string& hyp, const std::vector<const std::string*>& refs,
                             const ChrfOptions& options) {
  const ChrfNgrams hyp_ngrams = chrf_ngrams(hyp, options);
  // Keep the first reference with the strictly best sentence score, as sacreBLEU does.
  ChrfStats best;
  double best_score = -1.0;
  for (const std::string* ref : refs) {
    ChrfStats stats = chrf_match_stats(hyp_ngrams, chrf_ngrams(*ref, options));
    const double score = chrf_from_stats(stats, options);
    if (score > best_score) {
      best_score = score;
      best = std::move(stats);
    }
  }
  return best;
}

void check_chrf_options(const ChrfOptions& options) {
  if (options.char_order < 1 || options.word_order < 0 || options.beta < 1) {
    throw std::invalid_argument("chrF: needs char_order >= 1, word_order >= 0 and beta >= 1");
  }
}

}  // namespace

BleuStats& BleuStats::operator+=(const BleuStats& other) {
  for (int n = 0; n < kBleuOrder; ++n) {
    correct[n] += other.correct[n];
    total[n] += other.total[n];
  }
  sys_len += other.sys_len;
  ref_len += other.ref_len;
  return *this;
}

std::vector<std::string> tokenize_13a(const std::string& line) {
  std::string s = replace_all(line, "<skipped>", "");
  s = replace_all(s, "-\n", "");
  s = replace_all(s, "\n", " ");
  // Sequential replacement on purpose: "&amp;quot;" becomes "&quot;", not '"', as in sacreBLEU.
  s = replace_all(s, "&quot;", "\"");
  s = replace_all(s, "&amp;", "&");
  s = replace_all(s, "&lt;", "<");
  s = replace_all(s, "&gt;", ">");
  // The padding lets the period/comma rules see a non-digit before the first and after the last
  // character.
  s = " " + s + " ";
  s = split_punctuation(s);
  s = split_period_comma_after_non_digit(s);
  s = split_period_comma_before_non_digit(s);
  s = split_dash_after_digit(s);
  return split_on_whitespace(s);
}

BleuStats bleu_stats(const std::string& hyp, const std::vector<std::string>& refs) {
  return segment_bleu_stats(hyp, usable_references("bleu_stats", 0, refs));
}

BleuResult bleu_from_stats(const BleuStats& stats, BleuOrders orders) {
  BleuResult result{};
  result.hyp_len = stats.sys_len;
  result.ref_len = stats.ref_len;
  result.precisions.fill(0.0);
  result.brevity_penalty = 1.0;
  if (stats.sys_len < stats.ref_len) {
    result.brevity_penalty = stats.sys_len > 0
                                 ? std::exp(1.0 - static_cast<double>(stats.ref_len) /
                                                      static_cast<double>(stats.sys_len))
                                 : 0.0;
  }
  result.score = 0.0;
  // Without a single matching n-gram sacreBLEU reports 0 rather than a smoothed score.
  bool any_correct = false;
  for (int64_t c : stats.correct) any_correct = any_correct || c > 0;
  if (!any_correct) return result;
  // 'exp' smoothing (mteval-v13a): the k-th order with no match gets precision 1 / (2^k total).
  double smooth = 1.0;
  int used_orders = 0;
  for (int n = 0; n < kBleuOrder; ++n) {
    // Too few hypothesis tokens for this order. With all orders, sacreBLEU leaves this and the
    // higher precisions at 0, which makes the geometric mean, and the score, 0; with the
    // effective order the mean stops at the orders seen so far.
    if (stats.total[n] == 0) {
      if (orders == BleuOrders::kAll) return result;
      break;
    }
    const auto total = static_cast<double>(stats.total[n]);
    if (stats.correct[n] == 0) {
      smooth *= 2.0;
      result.precisions[n] = 100.0 / (smooth * total);
    } else {
      result.precisions[n] = 100.0 * static_cast<double>(stats.correct[n]) / total;
    }
    ++used_orders;
  }
  double log_sum = 0.0;
  for (int n = 0; n < used_orders; ++n) log_sum += std::log(result.precisions[n]);
  result.score = result.brevity_penalty * std::exp(log_sum / used_orders);
  return result;
}

BleuResult corpus_bleu(const std::vector<std::string>& hyps,
                       const std::vector<std::vector<std::string>>& refs) {
  check_aligned("corpus_bleu", hyps, refs);
  BleuStats stats;
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    stats += segment_bleu_stats(hyps[i], usable_references("corpus_bleu", i, refs[i]));
  }
  return bleu_from_stats(stats);
}

double sentence_bleu(const std::string& hyp, const std::vector<std::string>& refs) {
  return bleu_from_stats(bleu_stats(hyp, refs), BleuOrders::kEffective).score;
}

ChrfStats chrf_stats(const std::string& hyp, const std::vector<std::string>& refs,
                     const ChrfOptions& options) {
  check_chrf_options(options);
  return segment_chrf_stats(hyp, usable_references("chrf_stats", 0, refs), options);
}

// Precision and recall are averaged over the "effective" orders only (both sides have n-grams
// of that order), as sacreBLEU does without eps smoothing. The arithmetic follows sacreBLEU's
// operation order so that equal-score reference ties resolve identically.
double chrf_from_stats(const ChrfStats& stats, const ChrfOptions& options) {
  const double factor = static_cast<double>(options.beta) * options.beta;
  double avg_prec = 0.0;
  double avg_rec = 0.0;
  int effective_order = 0;
  for (std::size_t k = 0; k + 2 < stats.size(); k += 3) {
    const int64_t n_hyp = stats[k];
    const int64_t n_ref = stats[k + 1];
    const int64_t n_match = stats[k + 2];
    if (n_hyp > 0 && n_ref > 0) {
      avg_prec += static_cast<double>(n_match) / static_cast<double>(n_hyp);
      avg_rec += static_cast<double>(n_match) / static_cast<double>(n_ref);
      ++effective_order;
    }
  }
  if (effective_order == 0) return 0.0;
  avg_prec /= effective_order;
  avg_rec /= effective_order;
  if (avg_prec + avg_rec == 0.0) return 0.0;
  double score = (1.0 + factor) * avg_prec * avg_rec;
  score /= (factor * avg_prec) + avg_rec;
  return 100.0 * score;
}

double corpus_chrf(const std::vector<std::string>& hyps,
                   const std::vector<std::vector<std::string>>& refs, const ChrfOptions& options) {
  check_chrf_options(options);
  check_aligned("corpus_chrf", hyps, refs);
  ChrfStats corpus(3 * static_cast<std::size_t>(options.char_order + options.word_order), 0);
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    const ChrfStats best =
        segment_chrf_stats(hyps[i], usable_references("corpus_chrf", i, refs[i]), options);
    for (std::size_t k = 0; k < corpus.size(); ++k) corpus[k] += best[k];
  }
  return chrf_from_stats(corpus, options);
}

double sentence_chrf(const std::string& hyp, const std::vector<std::string>& refs,
                     const ChrfOptions& options) {
  return chrf_from_stats(chrf_stats(hyp, refs, options), options);
}

}  // namespace atento
