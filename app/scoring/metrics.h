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

/// Result of corpus_bleu, mirroring the fields of sacreBLEU's BLEUScore.
struct BleuResult {
  double score;                      ///< BLEU in [0, 100].
  std::array<double, 4> precisions;  ///< Smoothed 1..4-gram precisions in percent, as sacreBLEU.
  double brevity_penalty;            ///< In [0, 1].
  int64_t hyp_len;                   ///< Total hypothesis tokens.
  int64_t ref_len;                   ///< Total closest-reference tokens.
};

/// Corpus BLEU-4, case-sensitive, 13a tokenisation, brevity penalty against the closest reference
/// length (ties -> shorter), 'exp' smoothing as sacreBLEU. refs[i] holds every reference for
/// hyps[i] (>=1). As in sacreBLEU, references that are the empty string are ignored (so reference
/// sets of different sizes can be padded with ""), and a corpus without any matching unigram
/// scores 0. Throws std::invalid_argument if hyps.size() != refs.size() or if some refs[i] holds
/// no non-empty reference.
BleuResult corpus_bleu(const std::vector<std::string>& hyps,
                       const std::vector<std::vector<std::string>>& refs);

/// Corpus chrF2 (character n-grams up to 6, beta = 2, whitespace removed); per sentence the best
/// reference by sentence chrF, statistics summed over the corpus, as sacreBLEU >= 2. Characters
/// are Unicode code points decoded from UTF-8. Returns a score in [0, 100]. Empty-string
/// references are ignored and errors are reported as for corpus_bleu.
double corpus_chrf(const std::vector<std::string>& hyps,
                   const std::vector<std::vector<std::string>>& refs);

}  // namespace atento
