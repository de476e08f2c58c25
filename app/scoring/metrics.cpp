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
constexpr int kChrfOrder = 6;
constexpr double kChrfBeta = 2.0;

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

// Rejects inputs sacreBLEU would reject and returns, per segment, the references that count:
// sacreBLEU drops "" references so that segments may have different numbers of references.
std::vector<std::vector<const std::string*>> usable_references(
    const char* caller, const std::vector<std::string>& hyps,
    const std::vector<std::vector<std::string>>& refs) {
  if (hyps.size() != refs.size()) {
    throw std::invalid_argument(std::string(caller) + ": got " + std::to_string(hyps.size()) +
                                " hypotheses but " + std::to_string(refs.size()) +
                                " reference sets; they must be aligned one to one");
  }
  std::vector<std::vector<const std::string*>> usable(refs.size());
  for (std::size_t i = 0; i < refs.size(); ++i) {
    for (const std::string& ref : refs[i]) {
      if (!ref.empty()) usable[i].push_back(&ref);
    }
    if (usable[i].empty()) {
      throw std::invalid_argument(std::string(caller) + ": hypothesis " + std::to_string(i) +
                                  " has no reference (every segment needs at least one "
                                  "non-empty reference)");
    }
  }
  return usable;
}

// Word n-grams of one order, keyed by the tokens joined with ' ' (tokens never contain
// whitespace, so the key is unambiguous).
using WordNgramCounts = std::unordered_map<std::string, int64_t>;

std::array<WordNgramCounts, kBleuOrder> count_word_ngrams(const std::vector<std::string>& tokens) {
  std::array<WordNgramCounts, kBleuOrder> counts;
  for (int n = 1; n <= kBleuOrder; ++n) {
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

// Per order: hypothesis n-grams, reference n-grams and matches, flattened as in sacreBLEU.
using ChrfStats = std::array<int64_t, 3 * kChrfOrder>;
using CharNgramCounts = std::unordered_map<std::u32string, int64_t>;

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

std::array<CharNgramCounts, kChrfOrder> count_char_ngrams(const std::u32string& chars) {
  std::array<CharNgramCounts, kChrfOrder> counts;
  for (int n = 1; n <= kChrfOrder; ++n) {
    for (std::size_t i = 0; i + n <= chars.size(); ++i) ++counts[n - 1][chars.substr(i, n)];
  }
  return counts;
}

ChrfStats chrf_match_stats(const std::array<CharNgramCounts, kChrfOrder>& hyp,
                           const std::array<CharNgramCounts, kChrfOrder>& ref) {
  ChrfStats stats{};
  for (int n = 0; n < kChrfOrder; ++n) {
    int64_t hyp_count = 0;
    int64_t match_count = 0;
    for (const auto& entry : hyp[n]) {
      hyp_count += entry.second;
      const auto found = ref[n].find(entry.first);
      if (found != ref[n].end()) match_count += std::min(entry.second, found->second);
    }
    int64_t ref_count = 0;
    for (const auto& entry : ref[n]) ref_count += entry.second;
    // sacreBLEU does not count hypothesis n-grams of an order the reference is too short to
    // have; this keeps short references from dragging the corpus precision down.
    stats[3 * n] = ref[n].empty() ? 0 : hyp_count;
    stats[3 * n + 1] = ref_count;
    stats[3 * n + 2] = match_count;
  }
  return stats;
}

// chrF from summed statistics. Precision and recall are averaged over the "effective" orders
// only (both sides have n-grams of that order), as sacreBLEU does without eps smoothing. The
// arithmetic follows sacreBLEU's operation order so that equal-score reference ties resolve
// identically.
double chrf_from_stats(const ChrfStats& stats) {
  const double factor = kChrfBeta * kChrfBeta;
  double avg_prec = 0.0;
  double avg_rec = 0.0;
  int effective_order = 0;
  for (int n = 0; n < kChrfOrder; ++n) {
    const int64_t n_hyp = stats[3 * n];
    const int64_t n_ref = stats[3 * n + 1];
    const int64_t n_match = stats[3 * n + 2];
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

// Clipped n-gram matches and n-gram totals per order, and the two lengths, over the corpus.
struct BleuStats {
  std::array<int64_t, kBleuOrder> correct{};
  std::array<int64_t, kBleuOrder> total{};
  int64_t sys_len = 0;
  int64_t ref_len = 0;
};

// Adds one hypothesis scored against its references.
void add_sentence_stats(const std::string& hyp, const std::vector<const std::string*>& refs,
                        BleuStats& stats) {
  // An n-gram may be credited up to the largest count it has in any single reference.
  std::array<WordNgramCounts, kBleuOrder> max_ref_counts;
  std::vector<int64_t> ref_lens;
  for (const std::string* ref : refs) {
    const std::vector<std::string> tokens = tokenize_13a(rstrip_whitespace(*ref));
    ref_lens.push_back(static_cast<int64_t>(tokens.size()));
    const auto counts = count_word_ngrams(tokens);
    for (int n = 0; n < kBleuOrder; ++n) {
      for (const auto& entry : counts[n]) {
        int64_t& slot = max_ref_counts[n][entry.first];
        slot = std::max(slot, entry.second);
      }
    }
  }
  const std::vector<std::string> hyp_tokens = tokenize_13a(rstrip_whitespace(hyp));
  const int64_t hyp_len = static_cast<int64_t>(hyp_tokens.size());
  stats.sys_len += hyp_len;
  stats.ref_len += closest_reference_length(hyp_len, ref_lens);
  const auto hyp_counts = count_word_ngrams(hyp_tokens);
  for (int n = 0; n < kBleuOrder; ++n) {
    for (const auto& entry : hyp_counts[n]) {
      stats.total[n] += entry.second;
      const auto found = max_ref_counts[n].find(entry.first);
      if (found != max_ref_counts[n].end()) {
        stats.correct[n] += std::min(entry.second, found->second);
      }
    }
  }
}

BleuResult bleu_from_stats(const BleuStats& stats) {
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
  for (int n = 0; n < kBleuOrder; ++n) {
    // Too few hypothesis tokens for this order: sacreBLEU leaves this and the higher
    // precisions at 0, which makes the geometric mean, and the score, 0.
    if (stats.total[n] == 0) return result;
    const auto total = static_cast<double>(stats.total[n]);
    if (stats.correct[n] == 0) {
      smooth *= 2.0;
      result.precisions[n] = 100.0 / (smooth * total);
    } else {
      result.precisions[n] = 100.0 * static_cast<double>(stats.correct[n]) / total;
    }
  }
  double log_sum = 0.0;
  for (double p : result.precisions) log_sum += std::log(p);
  result.score = result.brevity_penalty * std::exp(log_sum / kBleuOrder);
  return result;
}

}  // namespace

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

BleuResult corpus_bleu(const std::vector<std::string>& hyps,
                       const std::vector<std::vector<std::string>>& refs) {
  const auto usable = usable_references("corpus_bleu", hyps, refs);
  BleuStats stats;
  for (std::size_t i = 0; i < hyps.size(); ++i) add_sentence_stats(hyps[i], usable[i], stats);
  return bleu_from_stats(stats);
}

double corpus_chrf(const std::vector<std::string>& hyps,
                   const std::vector<std::vector<std::string>>& refs) {
  const auto usable = usable_references("corpus_chrf", hyps, refs);
  ChrfStats corpus{};
  for (std::size_t i = 0; i < hyps.size(); ++i) {
    const auto hyp_ngrams = count_char_ngrams(code_points_without_whitespace(hyps[i]));
    // Keep the first reference with the strictly best sentence score, as sacreBLEU does.
    ChrfStats best{};
    double best_score = -1.0;
    for (const std::string* ref : usable[i]) {
      const ChrfStats stats =
          chrf_match_stats(hyp_ngrams, count_char_ngrams(code_points_without_whitespace(*ref)));
      const double score = chrf_from_stats(stats);
      if (score > best_score) {
        best_score = score;
        best = stats;
      }
    }
    for (std::size_t k = 0; k < corpus.size(); ++k) corpus[k] += best[k];
  }
  return chrf_from_stats(corpus);
}

}  // namespace atento
