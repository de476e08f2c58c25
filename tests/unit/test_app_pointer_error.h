#pragma once
// Shared by the checkpoint tests: what latest_checkpoint says about a model directory.
#include <stdexcept>
#include <string>

#include "app/model_dir/checkpoint_pointer.h"
#include "tests/unit/test_data_util.h"

namespace atento::checkpoint_test {

/// The message of the std::runtime_error latest_checkpoint throws ("" when none).
inline std::string pointer_error(const data::test_util::TempDir& dir) {
  try {
    latest_checkpoint(dir.str());
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace atento::checkpoint_test
