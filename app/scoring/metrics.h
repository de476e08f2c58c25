#pragma once
// Corpus-level machine-translation metrics (BLEU and chrF) that reproduce sacreBLEU 2.x defaults,
// so that scores reported by Atento are comparable with published sacreBLEU numbers.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace atento {

/// sacreBLEU's default '13a' tokenisation (mteval-v13a): returns tokens.
/// Input is UTF-8. The punctuation rules only concern ASCII characters, and tokens are split on
/// every Unicode whitespace character (as Python's str.split()), e.g. U+00A0 no-break space.
std::vector<std::string> tokenize_13a(const std::string& line);

/// Sufficient statistics of BLEU: one segment's, or their sum over a corpus (bootstrap
/// resampling sums segments drawn with replacement).
struct BleuStats {
  std::array<int64_t, 4> correct{};  ///< Clipped n-gram matches, n = 1..4.
  std::array<int64_t, 4> total{};    ///< Hypothesis n-grams, n = 1..4.
  int64_t sys_len = 0;               ///< Hypothesis tokens.
  int64_t ref_len = 0;               ///< Closest-reference tokens.

  BleuStats& operator+=(const BleuStats& other);
};

/// Result of corpus_bleu, mirroring the fields of sacreBLEU's BLEUScore.
struct BleuResult {
  double score;                      ///< BLEU in [0, 100].
  std::array<double, 4> precisions;  ///< Smoothed 1..4-gram precisions in percent, as sacreBLEU.
  double brevity_penalty;            ///< In [0, 1].
  int64_t hyp_len;                   ///< Total hypothesis tokens.
  int64_t ref_len;                   ///< Total closest-reference tokens.
};

/// Which n-gram orders the geometric mean of BLEU takes.
enum class BleuOrders {
  kAll,        ///< 1..4 always (corpus BLEU; sacreBLEU's eff:no)
  kEffective,  ///< 1..the highest order the hypothesis has (sentence BLEU; sacreBLEU's eff:yes)
};

/// One segment's BLEU statistics: 13a tokens, n-grams clipped by their largest count in any one
/// reference, the reference length closest to the hypothesis's (ties -> shorter). Empty-string
/// references are ignored; throws std::invalid_argument when no non-empty reference is left.
BleuStats bleu_stats(const std::string& hyp, const std::vector<std::string>& refs);

/// BLEU from (summed) statistics with 'exp' smoothing (mteval-v13a: the k-th order without a
/// match gets precision 1 / (2^k total)); statistics without a single match score 0.
BleuResult bleu_from_stats(const BleuStats& stats, BleuOrders orders = BleuOrders::kAll);

/// Corpus BLEU-4, case-sensitive, 13a tokenisation, brevity penalty against the closest reference
/// length (ties -> shorter), 'exp' smoothing as sacreBLEU. refs[i] holds every reference for
/// hyps[i] (>=1). As in sacreBLEU, references that are the empty string are ignored (so reference
/// sets of different sizes can be padded with ""), and a corpus without any matching unigram
/// scores 0. Throws std::invalid_argument if hyps.size() != refs.size() or if some refs[i] holds
/// no non-empty reference.
BleuResult corpus_bleu(const std::vector<std::string>& hyps,
                       const std::vector<std::vector<std::string>>& refs);

/// sacreBLEU's sentence_bleu(): one segment's statistics, 'exp' smoothing and effective order
/// (BleuOrders::kEffective), so that a hypothesis shorter than 4 tokens is not scored 0 for it.
double sentence_bleu(const std::string& hyp, const std::vector<std::string>& refs);

/// The variant of chrF: sacreBLEU's CHRF(char_order, word_order, beta).
struct ChrfOptions {
  int char_order = 6;  ///< Character n-grams 1..char_order (whitespace removed).
  int word_order = 0;  ///< Word n-grams 1..word_order as well; 2 = chrF++ (Popović 2017).
  int beta = 2;        ///< Recall weighs beta times as much as precision.
};

/// chrF statistics: for each character order, then each word order, hypothesis n-grams,
/// reference n-grams and matches (sacreBLEU's flat layout).
using ChrfStats = std::vector<int64_t>;

/// One segment's chrF statistics against its best reference (the first with the strictly
/// highest sentence chrF, as sacreBLEU). Empty references are ignored; errors as bleu_stats.
ChrfStats chrf_stats(const std::string& hyp, const std::vector<std::string>& refs,
                     const ChrfOptions& options = {});

/// chrF in [0, 100] from (summed) statistics: precision and recall averaged over the orders
/// both sides have (sacreBLEU's effective order, eff:yes), then F-beta.
double chrf_from_stats(const ChrfStats& stats, const ChrfOptions& options = {});

/// Corpus chrF2 (character n-grams up to 6, beta = 2, whitespace removed); per sentence the best
/// reference by sentence chrF, statistics summed over the corpus, as sacreBLEU >= 2. Characters
/// are Unicode code points decoded from UTF-8. Returns a score in [0, 100]. Empty-string
/// references are ignored and errors are reported as for corpus_bleu. With
/// options.word_order = 2 it is chrF++: word unigrams and bigrams too, words split on
/// whitespace with one leading or trailing ASCII punctuation mark split off, as sacreBLEU.
double corpus_chrf(const std::vector<std::string>& hyps,
                   const std::vector<std::vector<std::string>>& refs,
                   const ChrfOptions& options = {});

/// sacreBLEU's sentence-level chrF (the corpus formula on one segment).
double sentence_chrf(const std::string& hyp, const std::vector<std::string>& refs,
                     const ChrfOptions& options = {});

}  // namespace atento
