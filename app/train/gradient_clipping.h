#pragma once
// Global gradient-norm clipping that never waits for the device.

#include <torch/types.h>

#include <vector>

namespace atento {

/// Scales the gradients of `parameters` by min(1, max_norm / (‖g‖₂ + 1e-6)), ‖g‖₂ the norm of
/// all their gradients together (torch::nn::utils::clip_grad_norm_'s arithmetic). Returns that
/// norm ([] on the gradients' device). Unlike clip_grad_norm_, which reads the norm back to the
/// host, nothing here waits for the device, so a CUDA graph can capture it. Parameters without
/// a gradient are skipped; with none, returns an undefined tensor.
torch::Tensor clip_gradients(const std::vector<torch::Tensor>& parameters, double max_norm);

}  // namespace atento
