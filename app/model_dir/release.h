#pragma once
// A release: the lean, self-describing model directory that atento-release writes for others
// to use. Only what translation needs:
//   config.json        the model's configuration, as trained
//   tokenizer files    (data::tokenizer_files)
//   model.safetensors  the best weights (no optimizer state, no checkpoints, no corpus copy)
//   MODEL.md           the model card: languages, corpus, recipe, training, metrics, limits
//   SHA256SUMS         the checksum of every other file (`sha256sum -c SHA256SUMS`)
// Every program opens a release as it opens a training directory (open_model_dir).

#include <string>

namespace atento {

struct ReleaseArgs {
  std::string model_dir;  ///< a training directory (or a release)
  std::string out;        ///< the release directory to create; must not exist, or be empty
  /// Optional: `atento-eval --json` output on the test split, quoted in MODEL.md.
  std::string metrics_file;
};

/// Writes the release, all or nothing: into a temporary directory beside `out`, renamed to
/// `out` once complete. Throws naming the file or directory at fault.
void write_release(const ReleaseArgs& args);

}  // namespace atento
