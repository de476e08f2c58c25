#include "app/model_dir/model_dir.h"

#include <torch/torch.h>

#include <utility>

#include "app/common/directory_lock.h"
#include "app/common/files.h"
#include "app/common/heap.h"
#include "app/model_dir/checkpoint_pointer.h"
#include "app/model_dir/weights_file.h"
#include "model/checkpoint.h"
#include "model/initialisation.h"
#include "model/int8_linear.h"

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

namespace {

// config.json of `model_dir`, or an error saying why the directory is not (yet) a model's.
std::string config_file(const std::string& model_dir) {
  auto path = join_path(model_dir, model_files::kConfig);
  if (file_exists(path)) return path;
  if (directory_in_use(model_dir)) {
    throw std::runtime_error(model_dir +
                             ": atento-train is still creating this model; try again "
                             "after its first checkpoint");
  }
  throw std::runtime_error(model_dir + ": not a model directory (no " +
                           std::string(model_files::kConfig) + "; train one with atento-train)");
}

// A translation program given a filter, or atento-filter given a translation model.
void check_kind(const Config& config, ModelKind kind, const std::string& model_dir) {
  const bool filter = !config.filter.pretrained.empty();
  if (kind == ModelKind::kFilter && !filter) {
    throw ConfigError(model_dir +
                      " holds a translation model, not a filter (train one with "
                      "atento-train and a filter.pretrained setting, e.g. configs/filter.json)");
  }
  if (kind == ModelKind::kTranslation && filter) {
    throw ConfigError(model_dir +
                      " holds a pair filter, not a translation model (use it with "
                      "atento-filter)");
  }
}

// The weights file of `model_dir`: model.safetensors (a training directory's best weights or
// a release's), else an older directory's model.pt, else the latest checkpoint's average if
// it keeps one, else its weights.
std::string weights_file(const std::string& model_dir) {
  auto best = join_path(model_dir, model_files::kBestWeights);
  if (file_exists(best)) return best;
  auto legacy = join_path(model_dir, model_files::kLegacyBestWeights);
  if (file_exists(legacy)) return legacy;
  if (auto checkpoint = latest_checkpoint(model_dir)) {
    auto average = join_path(*checkpoint, model_files::kAverageWeights);
    return file_exists(average) ? average : join_path(*checkpoint, model_files::kCheckpointWeights);
  }
  if (directory_in_use(model_dir)) {
    throw std::runtime_error(model_dir +
                             ": atento-train is still creating this model (no weights "
                             "yet); try again after its first checkpoint");
  }
  throw std::runtime_error(model_dir + ": holds no weights yet (" + best +
                           " missing and no checkpoint)");
}

}  // namespace

OpenedModelDir open_model_dir(const std::string& model_dir, ModelKind kind,
                              const std::vector<std::string>& overrides) {
  require_section(overrides, "translate");
  const std::string config_path = config_file(model_dir);
  OpenedModelDir opened;
  opened.config = load_config(config_path, overrides);
  check_kind(opened.config, kind, model_dir);
  opened.vocab = std::make_unique<data::Vocabularies>(
      data::load_vocabularies(model_dir, opened.config.tokenizer));
  const bool exact = opened.config.tokenizer.kind == data::TokenizerKind::kSentencePiece;
  check_vocabulary("src", opened.vocab->src().vocab_size(), opened.config.model.src_vocab, exact,
                   config_path);
  check_vocabulary("tgt", opened.vocab->tgt().vocab_size(), opened.config.model.tgt_vocab, exact,
                   config_path);
  opened.device = resolve_device(opened.config.translate.device, "translate.device");
  opened.weights = weights_file(model_dir);
  return opened;
}

TrainedModel load_trained_model(const std::string& model_dir,
                                const std::vector<std::string>& overrides) {
  OpenedModelDir opened = open_model_dir(model_dir, ModelKind::kTranslation, overrides);
  TrainedModel loaded;
  loaded.config = std::move(opened.config);
  loaded.vocab = std::move(opened.vocab);
  loaded.device = opened.device;
  loaded.weights = opened.weights;
  loaded.dir = model_dir;
  // Checked here, not with the rest of the configuration: it asks the LibTorch in use.
  if (loaded.config.translate.precision == Precision::kInt8 && !model::int8_supported()) {
    throw ConfigError(
        "configuration: translate.precision: int8 needs an x86 CPU with AVX2 or LibTorch's "
        "oneDNN or fbgemm quantized engine, which this machine lacks");
  }
  // Read before building the model: the model then adopts the read tensors (one copy).
  auto stored = read_weights_file(loaded.weights);
  {
    const model::SkipInitialisation every_parameter_is_loaded;
    loaded.model = model::Seq2Seq(loaded.config.model);
  }
  model::assign_weights(*loaded.model, std::move(stored), loaded.weights);
  // Return the built model's placeholder buffers, now replaced by the loaded ones, to the system.
  release_free_memory();
  loaded.model->to(loaded.device);
  loaded.model->eval();
  return loaded;
}

const data::WordLexicon* word_lexicon(TrainedModel& trained) {
  if (!trained.lexicon_read) {
    const std::string path = join_path(trained.dir, data::kWordLexiconFile);
    if (file_exists(path)) {
      trained.lexicon = std::make_shared<const data::WordLexicon>(data::WordLexicon::load(path));
    }
    trained.lexicon_read = true;
  }
  return trained.lexicon.get();
}

}  // namespace atento
