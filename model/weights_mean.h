#pragma once
// Checkpoint averaging: the element-wise mean of the weights that several checkpoints of one run
// hold (Vaswani et al. 2017 average the last 5 or 20 checkpoints of a run). Late in training the
// checkpoints lie around one region of the loss surface, and their mean often lies nearer its
// centre than any one of them.

#include <string>
#include <vector>

#include "model/checkpoint.h"

namespace atento::model {

/// The mean of the weights files at `paths` (at least one), read one at a time. Every file must
/// hold the names and shapes of the first. Floating-point tensors are summed in fp64 and stored
/// in the first file's element type; other tensors (counters) are taken from the last file.
/// Throws std::runtime_error naming the file and the parameter that differs.
NamedTensors average_weights_files(const std::vector<std::string>& paths);

}  // namespace atento::model
