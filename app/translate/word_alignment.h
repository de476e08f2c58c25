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
#include <string>
#include <vector>

#include "data/word_lexicon.h"

namespace atento {

/// `weights[t][s]`: how much target word t attends to source word s (≥ 0; 0 = never). Returns
/// per target word the source words aligned to it, in increasing order. A row or column of
/// zeros gets no link.
std::vector<std::vector<size_t>> symmetric_alignment(
    const std::vector<std::vector<float>>& weights);

/// `attention` (as symmetric_alignment takes it) weighed with a Model 1 lexicon: each target
/// word's row made a distribution over the source words it attends to, and averaged with the
/// lexicon's posterior over those same words, p(s | t) = p(t | s) / (p(t | empty word) +
/// sum over them of p(t | s')). The lexicon never links words that attention keeps apart (other
/// sentences, punctuation), and a row whose target word it links to none of them keeps its
/// attention alone. Words are given as data::lexicon_word reads them.
std::vector<std::vector<float>> weigh_with_lexicon(std::vector<std::vector<float>> attention,
                                                   const std::vector<std::string>& source_words,
                                                   const std::vector<std::string>& target_words,
                                                   const data::WordLexicon& lexicon);

}  // namespace atento
