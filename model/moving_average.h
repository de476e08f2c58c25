#pragma once
// Weight averaging: an exponential moving average of a model's parameters, kept beside the
// trained model and used in its place for validation and the saved model (Polyak & Juditsky
// 1992; the num_updates form of tf.train.ExponentialMovingAverage). Late in a run the average
// sits nearer the centre of the region the optimiser wanders in than any single step does.

#include <torch/nn/module.h>

#include <cstdint>

namespace atento::model {

/// The decay used after optimiser step `step` (1-based): min(decay, (1 + step) / (10 + step)),
/// so the first steps are not averaged with the random initialisation for long.
double average_decay(double decay, int64_t step);

/// average ← d · average + (1 − d) · model, parameter by parameter (buffers are copied).
/// Both modules must have the same architecture; no gradient is recorded.
void update_average(torch::nn::Module& average, const torch::nn::Module& model, double d);

/// Copies every parameter and buffer of `from` into `to` (same architecture).
void copy_weights(torch::nn::Module& to, const torch::nn::Module& from);

}  // namespace atento::model
