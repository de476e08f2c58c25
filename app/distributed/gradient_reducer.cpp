#include "app/distributed/gradient_reducer.h"

#include <torch/torch.h>

namespace atento {

GradientReducer::GradientReducer(ProcessGroup& group, std::vector<torch::Tensor> parameters,
                                 int64_t bucket_bytes)
    : group_(group), parameters_(std::move(parameters)) {
  buckets_ = gradient_buckets(parameters_, bucket_bytes);
  bucket_of_.resize(parameters_.size());
  for (size_t b = 0; b < buckets_.size(); ++b) {
    for (size_t i : buckets_[b]) bucket_of_[i] = b;
  }
  reset();
  for (size_t i = 0; i < parameters_.size(); ++i) {
    hooks_.push_back(parameters_[i].register_hook(
        [this, i](const torch::Tensor& grad) { on_gradient(i, grad); }));
  }
}

GradientReducer::~GradientReducer() {
  for (size_t i = 0; i < hooks_.size(); ++i) parameters_[i].remove_hook(hooks_[i]);
}

void GradientReducer::reset() {
  pending_.assign(parameters_.size(), torch::Tensor());
  known_.assign(buckets_.size(), 0);
  flat_.assign(buckets_.size(), torch::Tensor());
  next_ = 0;
  armed_ = false;
}

void GradientReducer::arm() { armed_ = true; }

void GradientReducer::on_gradient(size_t index, const torch::Tensor& grad) {
  if (!armed_ || pending_[index].defined()) return;
  // The hook runs before backward adds `grad` into .grad: what .grad will hold is the sum.
  const auto& so_far = parameters_[index].grad();
  pending_[index] = so_far.defined() ? so_far + grad : grad;
  known_[bucket_of_[index]]++;
  start_ready_buckets();
}

void GradientReducer::start_ready_buckets() {
  while (next_ < buckets_.size() && known_[next_] == buckets_[next_].size()) start_bucket(next_++);
}

void GradientReducer::start_bucket(size_t bucket) {
  std::vector<torch::Tensor> parts;
  for (size_t i : buckets_[bucket]) {
    const auto& p = parameters_[i];
    parts.push_back(pending_[i].defined() ? pending_[i].reshape({-1})
                                          : torch::zeros({p.numel()}, p.options()));
  }
  flat_[bucket] = torch::cat(parts);  // [N]
  group_.start_all_reduce_sum(flat_[bucket]);
}

void GradientReducer::finish(torch::Tensor& extra) {
  // Gradients not seen by a hook: those of earlier micro-batches only, or none at all.
  for (size_t i = 0; i < parameters_.size(); ++i) {
    if (!pending_[i].defined() && parameters_[i].grad().defined()) {
      pending_[i] = parameters_[i].grad();
    }
  }
  while (next_ < buckets_.size()) start_bucket(next_++);
  const auto P = static_cast<int64_t>(parameters_.size());
  std::vector<double> had(parameters_.size());
  for (size_t i = 0; i < parameters_.size(); ++i) had[i] = pending_[i].defined() ? 1 : 0;
  auto flags = torch::cat({torch::tensor(had, torch::kDouble).to(extra.device()),
                           extra.to(torch::kDouble).reshape({-1})});  // [P + k]
  group_.start_all_reduce_sum(flags);
  group_.wait_started();
  auto counts = flags.narrow(0, 0, P).cpu().contiguous();
  const double* count = counts.data_ptr<double>();
  for (size_t b = 0; b < buckets_.size(); ++b) {
    int64_t offset = 0;
    for (size_t i : buckets_[b]) {
      auto p = parameters_[i];
      const int64_t n = p.numel();
      // [N] → the parameter's shape, a view of the summed bucket.
      p.mutable_grad() =
          count[i] > 0 ? flat_[b].narrow(0, offset, n).view(p.sizes()) : torch::Tensor();
      offset += n;
    }
  }
  extra.copy_(flags.narrow(0, P, extra.numel()).view(extra.sizes()));
  reset();
}

}  // namespace atento
