// Batching: padding, keep-masks, the teacher-forcing shift, length buckets.

#include "data/batch.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "data/random.h"

namespace atento::data {
namespace {

// Batches are sorted by length inside windows of this many batches' worth of examples: large
// enough that buckets are tight, small enough that each epoch still mixes lengths globally.
constexpr int64_t kBucketWindowBatches = 100;

// Padded positions one example costs: the longer of its source and its decoder input.
int64_t example_length(const Example& example) {
  const auto src = static_cast<int64_t>(example.src.size());
  const auto tgt = static_cast<int64_t>(example.tgt.size()) - 1;
  return std::max<int64_t>({src, tgt, 1});
}

const Example& checked(const std::vector<Example>& examples, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(examples.size())) {
    throw std::invalid_argument("collate: index " + std::to_string(index) + " out of range [0, " +
                                std::to_string(examples.size()) + ")");
  }
  const Example& example = examples[static_cast<size_t>(index)];
  if (example.tgt.size() < 2) {
    throw std::invalid_argument("collate: example " + std::to_string(index) + " has a target of " +
                                std::to_string(example.tgt.size()) +
                                " ids; it needs at least [bos] and [eos]");
  }
  return example;
}

// Sorts `order` by length within windows of kBucketWindowBatches batches each, so that a batch
// holds similar lengths while the shuffle still reaches across the corpus.
void sort_in_windows(std::vector<int64_t>& order, const std::vector<int64_t>& lengths,
                     int64_t total_length, const BatchOptions& options) {
  const auto n = static_cast<int64_t>(order.size());
  const int64_t mean_length = std::max<int64_t>(1, total_length / n);
  const int64_t per_batch = options.batch_size > 0
                                ? options.batch_size
                                : std::max<int64_t>(1, options.batch_tokens / mean_length);
  const int64_t window = per_batch * kBucketWindowBatches;
  for (int64_t begin = 0; begin < n; begin += window) {
    const auto first = order.begin() + begin;
    const auto last = order.begin() + std::min(n, begin + window);
    // Stable, so equal lengths keep their shuffled order and the result stays seeded.
    std::stable_sort(first, last, [&](int64_t a, int64_t b) {
      return lengths[static_cast<size_t>(a)] < lengths[static_cast<size_t>(b)];
    });
  }
}

// Cuts `order` into consecutive batches of batch_size sentences, or under the padded token
// budget.
std::vector<std::vector<int64_t>> pack_batches(const std::vector<int64_t>& order,
                                               const std::vector<int64_t>& lengths,
                                               const BatchOptions& options) {
  std::vector<std::vector<int64_t>> batches;
  std::vector<int64_t> current;
  int64_t longest = 0;
  for (const int64_t index : order) {
    const int64_t length = lengths[static_cast<size_t>(index)];
    if (!current.empty()) {
      const auto size = static_cast<int64_t>(current.size());
      const bool full = options.batch_size > 0
                            ? size >= options.batch_size
                            : (size + 1) * std::max(longest, length) > options.batch_tokens;
      if (full) {
        batches.push_back(std::move(current));
        current.clear();
        longest = 0;
      }
    }
    // An example longer than the whole budget still gets a batch of its own.
    current.push_back(index);
    longest = std::max(longest, length);
  }
  if (!current.empty()) batches.push_back(std::move(current));
  return batches;
}

}  // namespace

Batch collate(const std::vector<Example>& examples, const std::vector<int64_t>& indices) {
  if (indices.empty()) throw std::invalid_argument("collate: no examples selected");
  // A source may be empty (the words tokenizer strips "?" to nothing); S stays >= 1 so the
  // tensors keep a usable shape, the row is simply all padding.
  int64_t S = 1;
  int64_t T = 1;
  for (const int64_t index : indices) {
    const Example& example = checked(examples, index);
    S = std::max(S, static_cast<int64_t>(example.src.size()));
    T = std::max(T, static_cast<int64_t>(example.tgt.size()) - 1);
  }
  const auto B = static_cast<int64_t>(indices.size());
  const auto long_options = at::TensorOptions().dtype(at::kLong);
  const auto bool_options = at::TensorOptions().dtype(at::kBool);
  Batch batch;
  batch.src = at::zeros({B, S}, long_options);       // [B,S]
  batch.src_keep = at::zeros({B, S}, bool_options);  // [B,S]
  batch.tgt_in = at::zeros({B, T}, long_options);    // [B,T]
  batch.tgt_out = at::zeros({B, T}, long_options);   // [B,T]
  batch.tgt_keep = at::zeros({B, T}, bool_options);  // [B,T]
  // Filled through raw pointers: per-element tensor indexing would cost a dispatch each.
  int64_t* src = batch.src.data_ptr<int64_t>();
  bool* src_keep = batch.src_keep.data_ptr<bool>();
  int64_t* tgt_in = batch.tgt_in.data_ptr<int64_t>();
  int64_t* tgt_out = batch.tgt_out.data_ptr<int64_t>();
  bool* tgt_keep = batch.tgt_keep.data_ptr<bool>();
  for (int64_t b = 0; b < B; ++b) {
    const Example& example = examples[static_cast<size_t>(indices[static_cast<size_t>(b)])];
    const auto src_len = static_cast<int64_t>(example.src.size());
    std::copy(example.src.begin(), example.src.end(), src + b * S);
    std::fill(src_keep + b * S, src_keep + b * S + src_len, true);
    // Teacher forcing: the decoder reads [bos] w1 … wn and predicts w1 … wn [eos].
    const auto tgt_len = static_cast<int64_t>(example.tgt.size()) - 1;
    std::copy(example.tgt.begin(), example.tgt.end() - 1, tgt_in + b * T);
    std::copy(example.tgt.begin() + 1, example.tgt.end(), tgt_out + b * T);
    std::fill(tgt_keep + b * T, tgt_keep + b * T + tgt_len, true);
    batch.target_tokens += tgt_len;
  }
  batch.indices = indices;
  return batch;
}

Batch pad_batch(const Batch& batch, int64_t rows, int64_t src_len, int64_t tgt_len) {
  const int64_t B = batch.src.size(0), S = batch.src.size(1), T = batch.tgt_in.size(1);
  if (B > rows || S > src_len || T > tgt_len) {
    throw std::invalid_argument("pad_batch: a batch of " + std::to_string(B) + " x " +
                                std::to_string(S) + " / " + std::to_string(T) + " does not fit " +
                                std::to_string(rows) + " x " + std::to_string(src_len) + " / " +
                                std::to_string(tgt_len));
  }
  // [B,L] → [rows,length], the new entries 0 (padding id, keep false)
  auto pad = [&](const at::Tensor& t, int64_t length) {
    auto out = at::zeros({rows, length}, t.options());
    out.narrow(0, 0, B).narrow(1, 0, t.size(1)).copy_(t);
    return out;
  };
  Batch out;
  out.src = pad(batch.src, src_len);
  out.src_keep = pad(batch.src_keep, src_len);
  out.tgt_in = pad(batch.tgt_in, tgt_len);
  out.tgt_out = pad(batch.tgt_out, tgt_len);
  out.tgt_keep = pad(batch.tgt_keep, tgt_len);
  out.target_tokens = batch.target_tokens;
  out.indices = batch.indices;
  return out;
}

std::vector<int64_t> shard(const std::vector<int64_t>& indices, int64_t rank, int64_t world) {
  if (world < 1 || rank < 0 || rank >= world) {
    throw std::invalid_argument("shard: rank " + std::to_string(rank) + " of " +
                                std::to_string(world));
  }
  const auto n = static_cast<int64_t>(indices.size());
  const int64_t begin = n * rank / world, end = n * (rank + 1) / world;
  return std::vector<int64_t>(indices.begin() + begin, indices.begin() + end);
}

int64_t target_tokens(const std::vector<Example>& examples, const std::vector<int64_t>& indices) {
  int64_t tokens = 0;
  for (int64_t i : indices) {
    tokens += std::max<int64_t>(static_cast<int64_t>(examples.at(i).tgt.size()) - 1, 0);
  }
  return tokens;
}

std::vector<std::vector<int64_t>> make_batches(const std::vector<Example>& examples,
                                               const BatchOptions& options, uint64_t seed,
                                               int64_t epoch, bool shuffle) {
  if (options.batch_size < 0) {
    throw std::invalid_argument("batch_size must be >= 0 (0 = batch by tokens), got " +
                                std::to_string(options.batch_size));
  }
  if (options.batch_size == 0 && options.batch_tokens <= 0) {
    throw std::invalid_argument("batch_tokens must be > 0 when batch_size is 0, got " +
                                std::to_string(options.batch_tokens));
  }
  const auto n = static_cast<int64_t>(examples.size());
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> lengths(static_cast<size_t>(n));
  int64_t total_length = 0;
  for (int64_t i = 0; i < n; ++i) {
    lengths[static_cast<size_t>(i)] = example_length(examples[static_cast<size_t>(i)]);
    total_length += lengths[static_cast<size_t>(i)];
  }

  SplitMix64 rng(mix_seed(seed, static_cast<uint64_t>(epoch)));
  if (shuffle) {
    shuffle_in_place(order, rng);
    if (options.bucket_by_length && n > 0) sort_in_windows(order, lengths, total_length, options);
  }

  auto batches = pack_batches(order, lengths, options);
  if (shuffle) shuffle_in_place(batches, rng);
  return batches;
}

}  // namespace atento::data
