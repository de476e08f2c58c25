#pragma once
// Greedy decoding with CUDA graphs (translate.cuda_graphs): each batch is padded to its bucket
// (rows up to a power of two, source length up to a multiple of 8) and decoded in the fixed
// form of model/static_greedy.h on that bucket's buffers; a bucket's first step is run and
// captured (app/common/cuda_graph.h), every later step of any batch of that bucket replays
// it with one launch. Where the build or the device has no CUDA graphs (the CPU), the steps
// run eagerly on the buffers: the same arithmetic, which is what the CPU's tests check.

#include <torch/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "model/search.h"
#include "model/seq2seq.h"

namespace atento {

class GreedyGraphs {
 public:
  /// `options`: greedy (beam 1), cached, without attention. `capture`: capture CUDA graphs
  /// (needs cuda_graphs_built() and a CUDA device), else every step runs eagerly. At most
  /// `max_graphs` buckets are captured; a batch of any other bucket then runs eagerly.
  GreedyGraphs(model::Seq2Seq model, const model::SearchOptions& options,
               const torch::Device& device, bool capture, int64_t max_graphs = 32);
  ~GreedyGraphs();

  /// Greedy hypotheses for src [B,S] (int64, padding 0, on the device), as
  /// model::greedy_search gives them.
  std::vector<std::vector<model::Hypothesis>> run(const torch::Tensor& src);

  /// Graphs captured so far.
  int64_t graphs() const { return captured_; }
  /// Whether steps are captured (else they all run eagerly).
  bool capturing() const { return capture_; }

 private:
  struct Bucket;
  Bucket& bucket_for(int64_t rows, int64_t src_len);

  model::Seq2Seq model_;
  model::SearchOptions options_;
  torch::Device device_;
  bool capture_;
  int64_t max_graphs_;
  int64_t captured_ = 0;
  std::map<std::pair<int64_t, int64_t>, std::unique_ptr<Bucket>> buckets_;
};

}  // namespace atento
