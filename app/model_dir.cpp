#include "app/model_dir.h"

#include <malloc.h>
#include <torch/torch.h>

#include <utility>

#include "app/checkpoint_dir.h"
#include "app/directory_lock.h"
#include "app/files.h"
#include "model/checkpoint.h"

namespace atento {

torch::Device resolve_device(const std::string& name, const std::string& key) {
  const std::string where = key + " (--device or --set " + key + ")";
  if (!is_device_name(name)) {
    throw ConfigError(where + ": '" + name + "' is not a device (expected cpu, cuda or cuda:N)");
  }
  const torch::Device device(name);
  if (!device.is_cuda()) return device;
  if (!torch::cuda::is_available()) {
    throw ConfigError(where + ": " + name + " requested, but this LibTorch build or machine " +
                      "has no CUDA device (use --device cpu)");
  }
  const auto count = static_cast<int64_t>(torch::cuda::device_count());
  if (device.has_index() && device.index() >= count) {
    throw ConfigError(where + ": " + name + " requested, but this machine has " +
                      std::to_string(count) + " CUDA device(s)");
  }
  return device;
}

namespace {

// The tokenizers must fit the embeddings the weights were trained with: SentencePiece sizes
// the model exactly; the word vectorizer may find fewer words than the configured size.
void check_vocabulary(const std::string& side, int64_t tokenizer_size, int64_t model_size,
                      bool exact, const std::string& config_path) {
  if (tokenizer_size > model_size || (exact && tokenizer_size != model_size)) {
    throw std::runtime_error(config_path + ": model." + side + "_vocab is " +
                             std::to_string(model_size) + " but the " + side +
                             " tokenizer in this directory has " + std::to_string(tokenizer_size) +
                             " entries (tokenizer files from another model?)");
  }
}

}  // namespace

TrainedModel load_trained_model(const std::string& model_dir,
                                const std::vector<std::string>& overrides) {
  require_section(overrides, "translate");
  auto config_path = join_path(model_dir, model_files::kConfig);
  if (!file_exists(config_path) && directory_in_use(model_dir)) {
    throw std::runtime_error(model_dir + ": atento-train is still creating this model; try again "
                             "after its first checkpoint");
  }
  if (!file_exists(config_path)) {
    throw std::runtime_error(model_dir + ": not a model directory (no " +
                             std::string(model_files::kConfig) + "; train one with atento-train)");
  }
  TrainedModel loaded;
  loaded.config = load_config(config_path, overrides);
  loaded.vocab = std::make_unique<data::Vocabularies>(
      data::load_vocabularies(model_dir, loaded.config.tokenizer));
  const bool exact = loaded.config.tokenizer.kind == data::TokenizerKind::kSentencePiece;
  check_vocabulary("src", loaded.vocab->src().vocab_size(), loaded.config.model.src_vocab, exact,
                   config_path);
  check_vocabulary("tgt", loaded.vocab->tgt().vocab_size(), loaded.config.model.tgt_vocab, exact,
                   config_path);
  loaded.device = resolve_device(loaded.config.translate.device, "translate.device");
  auto best = join_path(model_dir, model_files::kBestWeights);
  if (file_exists(best)) {
    loaded.weights = best;
  } else if (auto checkpoint = latest_checkpoint(model_dir)) {
    // Before the first validation: the checkpoint's average if it keeps one, else its weights.
    auto average = join_path(*checkpoint, model_files::kAverageWeights);
    loaded.weights =
        file_exists(average) ? average : join_path(*checkpoint, model_files::kCheckpointWeights);
  } else if (directory_in_use(model_dir)) {
    throw std::runtime_error(model_dir + ": atento-train is still creating this model (no weights "
                             "yet); try again after its first checkpoint");
  } else {
    throw std::runtime_error(model_dir + ": holds no weights yet (" + best +
                             " missing and no checkpoint)");
  }
  // Read before building the model: the model then adopts the read tensors (one copy).
  auto stored = model::read_weights(loaded.weights);
  loaded.model = model::Seq2Seq(loaded.config.model);
  model::assign_weights(*loaded.model, std::move(stored), loaded.weights);
  // Return the built model's initial weights, now replaced by the loaded ones, to the system.
  malloc_trim(0);
  loaded.model->to(loaded.device);
  loaded.model->eval();
  return loaded;
}

}  // namespace atento
