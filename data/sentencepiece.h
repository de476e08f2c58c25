#pragma once
// SentencePiece behind the Tokenizer interface. Every call goes through the plugin
// libatento_spm.so, loaded at run time or linked, as CMake's ATENTO_SPM_ISOLATION chose
// (data/spm/spm_api.h says why): this header and its implementation never include
// SentencePiece's headers.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "data/options.h"
#include "data/spm/spm_api.h"
#include "data/tokenizer.h"

namespace atento::data {

/// File name of the plugin, looked for next to the running executable.
inline constexpr const char* kSpmPluginName = "libatento_spm.so";

/// Environment variable that overrides where the plugin is looked for (a full path).
inline constexpr const char* kSpmPluginEnv = "ATENTO_SPM_LIB";

/// Where the plugin is looked for: $ATENTO_SPM_LIB if set, else libatento_spm.so next to
/// /proc/self/exe.
std::string spm_plugin_path();

/// How this build reaches the plugin (CMake's ATENTO_SPM_ISOLATION): false = loaded at run time
/// into a namespace of its own (`dlmopen`) or with RTLD_LOCAL | RTLD_DEEPBIND (`deepbind`), true
/// = linked normally (`direct`, for a LibTorch that exports no protobuf; spm_plugin_path and
/// $ATENTO_SPM_LIB are then unused).
bool spm_plugin_linked_directly();

/// The plugin's function table: the linked one (direct), or loaded on first use of each path
/// and kept for the life of the process (dlmopen, deepbind). Throws std::runtime_error naming the path
/// searched when the plugin is missing or is not a compatible Atento plugin.
const AtentoSpmApi& spm_plugin();

/// Seeds SentencePieceTokenizer::sample. SentencePiece keeps one generator per thread, seeded
/// at the thread's first sample, so the seed reaches threads that have not sampled yet: sample
/// on a new thread after seeding to draw a reproducible sequence.
void seed_subword_sampling(uint32_t seed);

/// A SentencePiece model as a Tokenizer: pad 0, unk 1, bos 2, eos 3. Thread-safe.
class SentencePieceTokenizer : public Tokenizer {
 public:
  /// Loads a .model file; throws std::runtime_error naming it when it is missing, unreadable
  /// or not a SentencePiece model with Atento's special ids.
  static std::shared_ptr<const SentencePieceTokenizer> load(const std::string& model_path);

  /// Trains a model on `sentences` (one per line) and writes `<model_prefix>.model` (and
  /// SentencePiece's `.vocab` listing). The text goes through a temporary file next to the
  /// model, removed afterwards. Throws std::runtime_error with SentencePiece's reason.
  static void train(const std::vector<std::string>& sentences, const std::string& model_prefix,
                    const TokenizerOptions& options);

  std::vector<int64_t> encode(const std::string& text) const override;
  /// A sampled segmentation: unigram models draw from the lattice with smoothing alpha, BPE
  /// models drop merges with probability alpha. Draws from the calling thread's generator
  /// (seed_subword_sampling).
  std::vector<int64_t> sample(const std::string& text, double alpha) const override;
  std::string decode(const std::vector<int64_t>& ids) const override;
  std::string piece(int64_t id) const override;
  int64_t vocab_size() const override { return vocab_size_; }
  int64_t bos_id() const override { return 2; }
  int64_t eos_id() const override { return 3; }
  /// The model file this tokenizer was loaded from.
  const std::string& path() const { return path_; }

 private:
  SentencePieceTokenizer(const AtentoSpmApi& api, std::shared_ptr<AtentoSpmModel> model,
                         std::string path);

  /// The ids of an encode call's result (its buffer released), or its error thrown.
  std::vector<int64_t> take_ids(int status, int32_t* ids, size_t count, char* error) const;

  const AtentoSpmApi* api_;
  std::shared_ptr<AtentoSpmModel> model_;
  std::string path_;
  int64_t vocab_size_;
};

}  // namespace atento::data
