#pragma once
// The model directory: everything a trained model needs, in one folder.
//   config.json        resolved configuration, architecture and vocabulary sizes included
//   vocab/tokenizer    files of data::train_vocabularies
//   lexicon.tsv        the word lexicon (data/word_lexicon.h), for aligning HTML tags
//   model.safetensors  best weights so far (by train.best_metric), best.json its figures
//                      (model.pt, a pickle, in directories written before; still read)
//   checkpoints/       step-N/{model.pt,optimizer.pt,state.json} and `latest` naming one
//                      (app/train/checkpoint_dir.h)
//   train.tsv valid.tsv test.tsv   the split
//   log.jsonl          one JSON object per event

#include <torch/types.h>

#include <memory>
#include <string>
#include <vector>

#include "app/common/config.h"
#include "app/model_dir/model_files.h"
#include "data/tokenizer.h"
#include "data/word_lexicon.h"
#include "model/seq2seq.h"

namespace atento {

/// Parses a device name (cpu, cuda, cuda:N) set by `key` (train.device, translate.device) and
/// checks that it exists here; throws ConfigError naming the key and its flag otherwise.
torch::Device resolve_device(const std::string& name, const std::string& key);

/// What a program expects a model directory to hold.
enum class ModelKind {
  kTranslation,  ///< a Seq2Seq translation model (atento-translate, -eval, -serve, -average)
  kFilter,       ///< a pair filter: a PairClassifier (filter.pretrained set; atento-filter)
};

/// A model directory opened and checked: everything a program needs but the network itself.
struct OpenedModelDir {
  Config config;
  std::unique_ptr<data::Vocabularies> vocab;
  torch::Device device = torch::kCPU;
  std::string weights;  ///< the file to load: the best weights, else the latest checkpoint's
};

/// Opens `model_dir` for a program that uses a `kind` model; every check of a model directory
/// is here. Reads config.json with `overrides` (translate.* only), refuses a directory of the
/// other kind, loads the tokenizers and checks them against the architecture's vocabulary
/// sizes, resolves translate.device, and finds the weights: model.safetensors, else an older
/// directory's model.pt, else (before the first validation) the latest checkpoint's average or
/// weights. Throws naming the directory, file or
/// key: not a model directory, still being created by atento-train, no weights yet.
OpenedModelDir open_model_dir(const std::string& model_dir, ModelKind kind,
                              const std::vector<std::string>& overrides);

/// A trained model ready for translation or evaluation.
struct TrainedModel {
  Config config;
  std::unique_ptr<data::Vocabularies> vocab;
  model::Seq2Seq model{nullptr};
  torch::Device device = torch::kCPU;
  std::string weights;  ///< file the weights came from
  std::string dir;      ///< the model directory
  /// The directory's word lexicon (data::kWordLexiconFile), read by word_lexicon() when first
  /// needed (only HTML translation uses it: text-mode programs do not hold it).
  std::shared_ptr<const data::WordLexicon> lexicon;
  bool lexicon_read = false;  ///< word_lexicon() has looked for it
};

/// `trained`'s word lexicon, read from its directory at the first call; null for a directory
/// without one (written before atento-train made it: HTML tags are then placed by attention
/// alone). Throws naming the file and line when it is malformed. Not thread-safe (HTML
/// documents are translated one at a time).
const data::WordLexicon* word_lexicon(TrainedModel& trained);

/// open_model_dir(kTranslation), then the Seq2Seq with its weights, on its device, in eval mode.
TrainedModel load_trained_model(const std::string& model_dir,
                                const std::vector<std::string>& overrides);

}  // namespace atento
