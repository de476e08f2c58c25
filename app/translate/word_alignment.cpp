#include "app/translate/word_alignment.h"

#include <algorithm>

namespace atento {

namespace {

using Grid = std::vector<std::vector<char>>;  // [t][s]: linked or not

/// The two directions: forward[t][s] when s is t's most attended word, backward when t is s's
/// most attending word.
void directions(const std::vector<std::vector<float>>& weights, size_t n_source, Grid& forward,
                Grid& backward) {
  const size_t n_target = weights.size();
  forward.assign(n_target, std::vector<char>(n_source, 0));
  backward = forward;
  for (size_t t = 0; t < n_target; ++t) {
    const auto& row = weights[t];
    const auto best = std::max_element(row.begin(), row.end());
    if (best != row.end() && *best > 0) forward[t][static_cast<size_t>(best - row.begin())] = 1;
  }
  for (size_t s = 0; s < n_source; ++s) {
    size_t best = n_target;
    for (size_t t = 0; t < n_target; ++t) {
      if (weights[t][s] > 0 && (best == n_target || weights[t][s] > weights[best][s])) best = t;
    }
    if (best < n_target) backward[best][s] = 1;
  }
}

}  // namespace

std::vector<std::vector<size_t>> symmetric_alignment(
    const std::vector<std::vector<float>>& weights) {
  const size_t n_target = weights.size();
  size_t n_source = 0;
  for (const auto& row : weights) n_source = std::max(n_source, row.size());
  std::vector<std::vector<float>> square = weights;
  for (auto& row : square) row.resize(n_source, 0.0f);
  Grid forward, backward;
  directions(square, n_source, forward, backward);
  Grid linked(n_target, std::vector<char>(n_source, 0));
  std::vector<char> target_aligned(n_target, 0), source_aligned(n_source, 0);
  auto link = [&](size_t t, size_t s) {
    linked[t][s] = 1;
    target_aligned[t] = source_aligned[s] = 1;
  };
  auto in_union = [&](size_t t, size_t s) { return forward[t][s] || backward[t][s]; };
  for (size_t t = 0; t < n_target; ++t)
    for (size_t s = 0; s < n_source; ++s)
      if (forward[t][s] && backward[t][s]) link(t, s);
  // final-and: links of the union between two words the intersection left unaligned.
  for (size_t t = 0; t < n_target; ++t)
    for (size_t s = 0; s < n_source; ++s)
      if (in_union(t, s) && !target_aligned[t] && !source_aligned[s]) link(t, s);
  // final on the source side: a source word still without a link keeps its backward one, into
  // a target word that may have links already ("need" in "Do you need" -> "Necesitas").
  for (size_t t = 0; t < n_target; ++t)
    for (size_t s = 0; s < n_source; ++s)
      if (backward[t][s] && !source_aligned[s]) link(t, s);
  std::vector<std::vector<size_t>> links(n_target);
  for (size_t t = 0; t < n_target; ++t)
    for (size_t s = 0; s < n_source; ++s)
      if (linked[t][s]) links[t].push_back(s);
  return links;
}

std::vector<std::vector<float>> weigh_with_lexicon(std::vector<std::vector<float>> attention,
                                                   const std::vector<std::string>& source_words,
                                                   const std::vector<std::string>& target_words,
                                                   const data::WordLexicon& lexicon) {
  for (size_t t = 0; t < attention.size() && t < target_words.size(); ++t) {
    auto& row = attention[t];
    float attended = 0.0f;
    for (float w : row) attended += w;
    if (attended <= 0.0f) continue;
    std::vector<float> lexical(row.size(), 0.0f);
    float linked = 0.0f;
    for (size_t s = 0; s < row.size() && s < source_words.size(); ++s) {
      if (row[s] > 0.0f && !source_words[s].empty() && !target_words[t].empty()) {
        lexical[s] = lexicon.probability(source_words[s], target_words[t]);
        linked += lexical[s];
      }
    }
    const float empty = linked > 0.0f ? lexicon.probability("", target_words[t]) : 0.0f;
    for (size_t s = 0; s < row.size(); ++s) {
      row[s] /= attended;
      if (linked > 0.0f) row[s] = 0.5f * (row[s] + lexical[s] / (empty + linked));
    }
  }
  return attention;
}

}  // namespace atento
