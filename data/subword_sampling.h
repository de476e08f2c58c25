#pragma once
// Subword regularisation (Kudo 2018; for BPE, BPE-dropout, Provilkov et al. 2020): the training
// pairs are segmented anew every epoch by sampling, so the model meets each word in several
// segmentations and learns its pieces rather than one fixed spelling of it. Validation, test
// and translation keep the best segmentation.

#include <cstdint>
#include <vector>

#include "data/corpus.h"
#include "data/example.h"
#include "data/tokenizer.h"

namespace atento::data {

/// `pairs` as training examples in sampled segmentations (Vocabularies::sample_source and
/// sample_target with `alpha`). The same (pairs, alpha, seed) give the same examples: each
/// slice of pairs is sampled on a new thread whose SentencePiece generator is seeded from
/// (seed, slice). Throws what the tokenizers throw.
std::vector<Example> sample_examples(const Vocabularies& vocab, const std::vector<Pair>& pairs,
                                     double alpha, uint64_t seed);

}  // namespace atento::data
