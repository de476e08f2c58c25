#pragma once
// Helpers shared by the model tests: small configurations, random padded batches, and a tiny
// memorisation run.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "model/checkpoint.h"
#include "model/seq2seq.h"

namespace atento::model::testing {

/// Writes serialised bytes to `path` (the programs write through the application's durable
/// writer; the model tests only need the bytes on disk).
inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

inline void save_weights(const torch::nn::Module& module, const std::string& path) {
  write_bytes(path, serialize_weights(module));
}

inline void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path) {
  write_bytes(path, serialize_optimizer(optimizer));
}

constexpr int64_t kBos = 1;
constexpr int64_t kEos = 2;
constexpr int64_t kFirstWord = 3;

/// A model small enough that every invariant test runs in milliseconds.
inline ModelOptions small_options(Norm norm = Norm::kPost) {
  ModelOptions options;
  options.src_vocab = 23;
  options.tgt_vocab = 29;
  options.d_model = 32;
  options.n_heads = 4;
  options.head_dim = 8;
  options.d_ff = 64;
  options.encoder_layers = 2;
  options.decoder_layers = 2;
  options.dropout = 0.1;
  options.output_dropout = 0.5;
  options.max_len = 16;
  options.tie_embeddings = false;
  options.norm = norm;
  return options;
}

/// A model just large enough to memorise a handful of random pairs quickly (vocabulary 20,
/// no dropout); callers set the depth and length that their test needs.
inline ModelOptions memorisation_options(int64_t encoder_layers, int64_t max_len) {
  ModelOptions options;
  options.src_vocab = 20;
  options.tgt_vocab = 20;
  options.d_model = 64;
  options.n_heads = 4;
  options.head_dim = 16;
  options.d_ff = 128;
  options.encoder_layers = encoder_layers;
  options.decoder_layers = 2;
  options.dropout = 0.0;
  options.max_len = max_len;
  return options;
}

/// Right-padded [B,L] int64 batch of the given rows (pad 0).
inline torch::Tensor pad_rows(const std::vector<std::vector<int64_t>>& rows, int64_t length = 0) {
  for (const auto& row : rows) {
    length = std::max<int64_t>(length, static_cast<int64_t>(row.size()));
  }
  auto batch = torch::zeros({static_cast<int64_t>(rows.size()), length}, torch::kLong);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t j = 0; j < rows[i].size(); ++j) {
      batch[i][j] = rows[i][j];
    }
  }
  return batch;
}

/// Random words (ids kFirstWord..vocab-1) of the given length.
inline std::vector<int64_t> random_words(int64_t length, int64_t vocab) {
  auto ids = torch::randint(kFirstWord, vocab, {length}, torch::kLong);
  return {ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + length};
}

/// Source sentences and their targets (words only, no bos/eos).
struct Pairs {
  std::vector<std::vector<int64_t>> src, tgt;
};

inline Pairs random_pairs(int64_t count, int64_t src_vocab, int64_t tgt_vocab, int64_t min_len,
                          int64_t max_len) {
  Pairs pairs;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t n = min_len + (i * 7) % (max_len - min_len + 1);
    const int64_t m = min_len + (i * 5 + 3) % (max_len - min_len + 1);
    pairs.src.push_back(random_words(n, src_vocab));
    pairs.tgt.push_back(random_words(m, tgt_vocab));
  }
  return pairs;
}

/// Teacher-forcing tensors: src [B,S], decoder input bos+words [B,T], expected words+eos [B,T].
struct TeacherBatch {
  torch::Tensor src, tgt_in, tgt_out;
};

inline TeacherBatch teacher_batch(const Pairs& pairs) {
  std::vector<std::vector<int64_t>> in, out;
  for (const auto& words : pairs.tgt) {
    std::vector<int64_t> a{kBos}, b(words);
    a.insert(a.end(), words.begin(), words.end());
    b.push_back(kEos);
    in.push_back(a);
    out.push_back(b);
  }
  return {pad_rows(pairs.src), pad_rows(in), pad_rows(out)};
}

/// Teacher-forced next-token accuracy over real (non-padding) target positions.
inline double teacher_accuracy(Seq2Seq& model, const TeacherBatch& batch) {
  torch::NoGradGuard no_grad;
  const bool was_training = model->is_training();
  model->eval();
  const auto predicted = model->forward(batch.src, batch.tgt_in).argmax(-1);  // [B,T]
  model->train(was_training);
  const auto real = batch.tgt_out.ne(0);
  return predicted.eq(batch.tgt_out).logical_and(real).sum().item<double>() /
         real.sum().item<double>();
}

/// Trains on one full batch with Adam, projecting only real target positions (as the trainer
/// does), for at most `steps` steps, stopping once every target token is predicted. Returns the
/// final teacher-forced accuracy.
inline double memorise(Seq2Seq& model, const TeacherBatch& batch, int64_t steps, double lr) {
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(lr));
  model->train();
  const auto real = batch.tgt_out.ne(0);             // [B,T]
  const auto targets = batch.tgt_out.index({real});  // [N]
  for (int64_t step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    auto hidden = model->decode_hidden(model->encode(batch.src), batch.tgt_in);  // [B,T,D]
    auto loss = model->output_terms(hidden.index({real}), targets, false).nll.mean();
    loss.backward();
    optimizer.step();
    if (step % 25 == 24 && teacher_accuracy(model, batch) == 1.0) {
      break;
    }
  }
  return teacher_accuracy(model, batch);
}

/// Decodes tgt [B,T] one position at a time with a cached and an uncached state and expects
/// every step's logits to equal the teacher-forced logits (within `tolerance`), and the two
/// states to agree. Returns the cached state. Runs without gradients.
inline DecoderState expect_cached_steps_match(Seq2Seq& model, const torch::Tensor& src,
                                              const torch::Tensor& tgt, double tolerance) {
  torch::NoGradGuard no_grad;
  auto logits = model->forward(src, tgt);  // [B,T,V]
  auto encoded = model->encode(src);
  auto cached = model->start(encoded, DecodeOptions{true, false});
  auto uncached = model->start(encoded, DecodeOptions{false, false});
  for (int64_t t = 0; t < tgt.size(1); ++t) {
    auto step_cached = model->decode_step(cached, tgt.select(1, t));  // [B,V]
    auto step_uncached = model->decode_step(uncached, tgt.select(1, t));
    EXPECT_TRUE(torch::allclose(step_cached, logits.select(1, t), 0.0, tolerance)) << "step " << t;
    EXPECT_TRUE(torch::allclose(step_uncached, step_cached, 0.0, tolerance)) << "step " << t;
  }
  return cached;
}

}  // namespace atento::model::testing
