// Loading the SentencePiece plugin and the SentencePiece tokenizer built on it.

#include "data/sentencepiece.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "data/punctuation.h"
#include "data/text_io.h"

namespace atento::data {
namespace {

// Takes ownership of a plugin buffer and returns it as a std::string.
std::string take_string(const AtentoSpmApi& api, char* buffer) {
  if (buffer == nullptr) return {};
  std::string text(buffer);
  api.free_buffer(buffer);
  return text;
}

std::string take_error(const AtentoSpmApi& api, char* buffer) {
  return buffer == nullptr ? "unknown SentencePiece plugin error" : take_string(api, buffer);
}

#if !ATENTO_SPM_DIRECT
const AtentoSpmApi& open_plugin(const std::string& path) {
  // Handles are never closed: models may live until exit, and unloading SentencePiece's
  // static state is not worth the risk. The map is leaked so no destructor runs at exit.
  static std::mutex mutex;
  static auto* loaded = new std::map<std::string, const AtentoSpmApi*>();
  std::lock_guard<std::mutex> lock(mutex);
  const auto found = loaded->find(path);
  if (found != loaded->end()) return *found->second;

  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    const bool from_env = std::getenv(kSpmPluginEnv) != nullptr;
    const std::string where =
        from_env ? "as $ATENTO_SPM_LIB says" : "next to the executable; set ATENTO_SPM_LIB";
    throw std::runtime_error("SentencePiece plugin not found: " + path + " (searched " + where +
                             ")");
  }
#if ATENTO_SPM_DLMOPEN
  // A link-map namespace of its own: the plugin, libsentencepiece (with its embedded protobuf
  // 3.14) and their libstdc++ bind only among themselves, never to LibTorch's protobuf. Only
  // plain C data crosses (spm_api.h), each buffer freed by the side that allocated it.
  void* handle = ::dlmopen(LM_ID_NEWLM, path.c_str(), RTLD_NOW | RTLD_LOCAL);
#else
  // RTLD_DEEPBIND keeps the plugin's embedded protobuf 3.14 from binding to LibTorch's
  // protobuf 3.21 (linked together they crash before main); RTLD_LOCAL keeps its symbols out of
  // everyone else's way.
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
#endif
  if (handle == nullptr) {
    const char* reason = ::dlerror();
    throw std::runtime_error("cannot load SentencePiece plugin " + path + ": " +
                             (reason != nullptr ? reason : "unknown dlopen error"));
  }
  auto entry = reinterpret_cast<AtentoSpmEntryPoint>(::dlsym(handle, ATENTO_SPM_ENTRY_POINT));
  if (entry == nullptr) {
    ::dlclose(handle);
    throw std::runtime_error("SentencePiece plugin " + path + " lacks the entry point " +
                             ATENTO_SPM_ENTRY_POINT + " (not an Atento plugin?)");
  }
  const AtentoSpmApi* api = entry(ATENTO_SPM_ABI_VERSION);
  if (api == nullptr) {
    ::dlclose(handle);
    throw std::runtime_error("SentencePiece plugin " + path + " does not offer ABI version " +
                             std::to_string(ATENTO_SPM_ABI_VERSION) + " (stale build?)");
  }
  loaded->emplace(path, api);
  return *api;
}

#endif

// A path that names the temporary training text, unique per process.
std::string training_text_path(const std::string& model_prefix) {
  return model_prefix + ".train." + std::to_string(::getpid()) + ".txt";
}

}  // namespace

std::string spm_plugin_path() {
  const char* override_path = std::getenv(kSpmPluginEnv);
  if (override_path != nullptr && override_path[0] != '\0') return override_path;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    const std::string hint = "; set ATENTO_SPM_LIB to the plugin's path";
    throw std::runtime_error(
        "cannot read /proc/self/exe to find the SentencePiece plugin: " + ec.message() + hint);
  }
  return (exe.parent_path() / kSpmPluginName).string();
}

#if ATENTO_SPM_DIRECT
bool spm_plugin_linked_directly() { return true; }

const AtentoSpmApi& spm_plugin() {
  const AtentoSpmApi* api = atento_spm_api(ATENTO_SPM_ABI_VERSION);
  if (api == nullptr) {
    throw std::runtime_error("the linked SentencePiece plugin does not offer ABI version " +
                             std::to_string(ATENTO_SPM_ABI_VERSION) + " (stale build?)");
  }
  return *api;
}
#else
bool spm_plugin_linked_directly() { return false; }

const AtentoSpmApi& spm_plugin() { return open_plugin(spm_plugin_path()); }
#endif

SentencePieceTokenizer::SentencePieceTokenizer(const AtentoSpmApi& api,
                                               std::shared_ptr<AtentoSpmModel> model,
                                               std::string path)
    : api_(&api),
      model_(std::move(model)),
      path_(std::move(path)),
      vocab_size_(api_->vocab_size(model_.get())) {}

std::shared_ptr<const SentencePieceTokenizer> SentencePieceTokenizer::load(
    const std::string& model_path) {
  const AtentoSpmApi& api = spm_plugin();
  AtentoSpmModel* raw = nullptr;
  char* error = nullptr;
  if (api.load(model_path.c_str(), &raw, &error) != 0) {
    throw std::runtime_error(take_error(api, error));
  }
  std::shared_ptr<AtentoSpmModel> model(raw, api.free_model);
  return std::shared_ptr<const SentencePieceTokenizer>(
      new SentencePieceTokenizer(api, std::move(model), model_path));
}

void SentencePieceTokenizer::train(const std::vector<std::string>& sentences,
                                   const std::string& model_prefix,
                                   const TokenizerOptions& options) {
  if (options.vocab_size < kMinVocabSize || options.vocab_size > INT32_MAX) {
    throw std::invalid_argument("tokenizer.vocab_size must be in [" +
                                std::to_string(kMinVocabSize) + ", 2^31) for SentencePiece, got " +
                                std::to_string(options.vocab_size));
  }
  const AtentoSpmApi& api = spm_plugin();
  std::string text;
  for (const std::string& sentence : sentences) {
    text.append(plain_punctuation(sentence)).append(1, '\n');  // as encode() will read text
  }
  const std::string input = training_text_path(model_prefix);
  write_file_atomically(input, text);
  // The temporary text goes whatever happens next.
  struct Remove {
    const std::string& path;
    ~Remove() {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    }
  } remove_input{input};

  AtentoSpmTrainOptions train_options{};
  train_options.input = input.c_str();
  train_options.model_prefix = model_prefix.c_str();
  train_options.vocab_size = static_cast<int32_t>(options.vocab_size);
  train_options.model_type =
      options.subword_model == SubwordModel::kBpe ? ATENTO_SPM_BPE : ATENTO_SPM_UNIGRAM;
  train_options.character_coverage = options.character_coverage;
  train_options.num_threads =
      static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  train_options.verbose = options.verbose ? 1 : 0;
  train_options.byte_fallback = options.byte_fallback ? 1 : 0;
  char* error = nullptr;
  if (api.train(&train_options, &error) != 0) {
    throw std::runtime_error("cannot train SentencePiece model " + model_prefix +
                             ".model: " + take_error(api, error));
  }
}

std::vector<int64_t> SentencePieceTokenizer::take_ids(int status, int32_t* ids, size_t count,
                                                      char* error) const {
  if (status != 0) throw std::runtime_error(path_ + ": " + take_error(*api_, error));
  std::vector<int64_t> result(ids, ids + count);
  api_->free_buffer(ids);
  return result;
}

std::vector<int64_t> SentencePieceTokenizer::encode(const std::string& raw) const {
  const std::string text = plain_punctuation(raw);
  int32_t* ids = nullptr;
  size_t count = 0;
  char* error = nullptr;
  const int status = api_->encode(model_.get(), text.data(), text.size(), &ids, &count, &error);
  return take_ids(status, ids, count, error);
}

std::vector<int64_t> SentencePieceTokenizer::sample(const std::string& raw, double alpha) const {
  const std::string text = plain_punctuation(raw);
  int32_t* ids = nullptr;
  size_t count = 0;
  char* error = nullptr;
  const int status = api_->sample_encode(model_.get(), text.data(), text.size(),
                                         static_cast<float>(alpha), &ids, &count, &error);
  return take_ids(status, ids, count, error);
}

void seed_subword_sampling(uint32_t seed) { spm_plugin().set_sampling_seed(seed); }

std::string SentencePieceTokenizer::decode(const std::vector<int64_t>& ids) const {
  std::vector<int32_t> kept;
  kept.reserve(ids.size());
  for (const int64_t id : ids) {
    if (id == pad_id() || id == bos_id() || id == eos_id()) continue;
    if (id < 0 || id >= vocab_size_) {
      throw std::invalid_argument("decode: id " + std::to_string(id) + " out of range [0, " +
                                  std::to_string(vocab_size_) + ") of " + path_);
    }
    kept.push_back(static_cast<int32_t>(id));
  }
  char* text = nullptr;
  char* error = nullptr;
  if (api_->decode(model_.get(), kept.data(), kept.size(), &text, &error) != 0) {
    throw std::runtime_error(path_ + ": " + take_error(*api_, error));
  }
  return take_string(*api_, text);
}

std::string SentencePieceTokenizer::piece(int64_t id) const {
  if (id < 0 || id >= vocab_size_) {
    throw std::invalid_argument("piece: id " + std::to_string(id) + " out of range [0, " +
                                std::to_string(vocab_size_) + ") of " + path_);
  }
  char* piece = nullptr;
  char* error = nullptr;
  if (api_->id_to_piece(model_.get(), static_cast<int32_t>(id), &piece, &error) != 0) {
    throw std::runtime_error(path_ + ": " + take_error(*api_, error));
  }
  return take_string(*api_, piece);
}

}  // namespace atento::data
