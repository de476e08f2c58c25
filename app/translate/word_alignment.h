#pragma once
// Word alignment from attention, symmetrised: a target word's most attended source word
// (forward) and a source word's most attending target word (backward) give two alignments;
// the links they agree on are kept, a link of either between two words that have no link yet
// is added ("intersection" + "final-and" of Koehn, Och and Marcu 2003, as phrase-based MT
// symmetrises the two directions of its word aligners), and a source word left without a link
// keeps its backward one. The forward direction alone stretches a tag: a source word that
// several target words attend to most (a preposition, a word translated with two) takes them
// all. The last step is for the English words that Spanish folds into one ("Do you need" ->
// "Necesitas", "There are" -> "Hay"), which the first two link to one source word only. Each
// step's effect on hand-checked tags: docs/results.md#real-text-html.

#include <cstddef>
#include <vector>

namespace atento {

/// `weights[t][s]`: how much target word t attends to source word s (≥ 0; 0 = never). Returns
/// per target word the source words aligned to it, in increasing order. A row or column of
/// zeros gets no link.
std::vector<std::vector<size_t>> symmetric_alignment(
    const std::vector<std::vector<float>>& weights);

}  // namespace atento
