#include "data/subword_sampling.h"

#include <algorithm>
#include <exception>
#include <thread>

#include "data/random.h"
#include "data/sentencepiece.h"

namespace atento::data {
namespace {

// Pairs per slice: one thread start (tens of microseconds) per slice is noise next to sampling.
constexpr size_t kSlice = 4096;

// Samples examples[begin, end) on the calling thread.
void sample_slice(const Vocabularies& vocab, const std::vector<Pair>& pairs, double alpha,
                  size_t begin, size_t end, std::vector<Example>& examples) {
  for (size_t i = begin; i < end; ++i) {
    examples[i] = {vocab.sample_source(pairs[i].src, alpha),
                   vocab.sample_target(pairs[i].tgt, alpha)};
  }
}

}  // namespace

std::vector<Example> sample_examples(const Vocabularies& vocab, const std::vector<Pair>& pairs,
                                     double alpha, uint64_t seed) {
  std::vector<Example> examples(pairs.size());
  const bool subwords = vocab.options().kind == TokenizerKind::kSentencePiece;
  for (size_t begin = 0; begin < pairs.size(); begin += kSlice) {
    const size_t end = std::min(pairs.size(), begin + kSlice);
    // A new thread draws its first sample after the seed is set: its generator starts there.
    if (subwords) seed_subword_sampling(static_cast<uint32_t>(mix_seed(seed, begin / kSlice)));
    std::exception_ptr failure;
    std::thread worker([&] {
      try {
        sample_slice(vocab, pairs, alpha, begin, end, examples);
      } catch (...) {
        failure = std::current_exception();
      }
    });
    worker.join();
    if (failure) std::rethrow_exception(failure);
  }
  return examples;
}

}  // namespace atento::data
