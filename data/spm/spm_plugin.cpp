// The SentencePiece plugin: the only code of Atento that calls SentencePiece (see spm_api.h).
// It exports one C entry point, never lets an exception or a SentencePiece abort escape through
// it, and checks inputs before handing them to SentencePiece, whose trainer may end the process
// (LOG(FATAL)) on inputs it cannot handle.

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "data/spm/spm_api.h"

struct AtentoSpmModel {
  sentencepiece::SentencePieceProcessor processor;
};

namespace {

char* copy_string(const std::string& text) {
  char* buffer = static_cast<char*>(std::malloc(text.size() + 1));
  if (buffer != nullptr) {
    std::memcpy(buffer, text.data(), text.size());
    buffer[text.size()] = '\0';
  }
  return buffer;
}

int fail(char** error, const std::string& message) {
  if (error != nullptr) *error = copy_string(message);
  return 1;
}

// Runs `body`, turning any exception into an error return: nothing may unwind into the host.
template <typename Body>
int guarded(char** error, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return fail(error, std::string("SentencePiece plugin: ") + e.what());
  } catch (...) {
    return fail(error, "SentencePiece plugin: unknown exception");
  }
}

// What the trainer needs from its input file; checked here because some trainer failures
// (unreadable input, NUL bytes, no sentences) are fatal inside SentencePiece.
std::string check_training_input(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::string("cannot read training text ") + path + ": " + std::strerror(errno);
  }
  std::string line;
  bool has_text = false;
  int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find('\0') != std::string::npos) {
      return std::string(path) + ":" + std::to_string(number) + ": NUL byte in training text";
    }
    if (line.find_first_not_of(" \t\r") != std::string::npos) has_text = true;
  }
  if (!has_text) return std::string("training text ") + path + " holds no sentences";
  return {};
}

int train(const AtentoSpmTrainOptions* options, char** error) {
  return guarded(error, [&] {
    if (options == nullptr || options->input == nullptr || options->model_prefix == nullptr ||
        options->model_prefix[0] == '\0') {
      return fail(error, "SentencePiece training: input and model_prefix are required");
    }
    // Four ids are reserved (pad, unk, bos, eos): a smaller vocabulary holds no piece at all.
    if (options->vocab_size <= 4) {
      const std::string got = std::to_string(options->vocab_size);
      return fail(error,
                  "SentencePiece training: vocab_size must exceed the 4 special ids, got " + got);
    }
    if (options->model_type != ATENTO_SPM_UNIGRAM && options->model_type != ATENTO_SPM_BPE) {
      return fail(error, "SentencePiece training: unknown model_type " +
                             std::to_string(options->model_type));
    }
    if (!(options->character_coverage > 0.0 && options->character_coverage <= 1.0)) {
      return fail(error, "SentencePiece training: character_coverage must be in (0, 1], got " +
                             std::to_string(options->character_coverage));
    }
    const std::string input_problem = check_training_input(options->input);
    if (!input_problem.empty()) return fail(error, "SentencePiece training: " + input_problem);

    const std::unordered_map<std::string, std::string> args = {
        {"input", options->input},
        {"model_prefix", options->model_prefix},
        {"model_type", options->model_type == ATENTO_SPM_BPE ? "bpe" : "unigram"},
        {"vocab_size", std::to_string(options->vocab_size)},
        // A small corpus may not support vocab_size pieces; take what it supports instead of
        // failing with "Vocabulary size too high".
        {"hard_vocab_limit", "false"},
        {"character_coverage", std::to_string(options->character_coverage)},
        {"num_threads", std::to_string(options->num_threads < 1 ? 1 : options->num_threads)},
        {"pad_id", "0"},
        {"unk_id", "1"},
        {"bos_id", "2"},
        {"eos_id", "3"},
        {"minloglevel", options->verbose != 0 ? "0" : "2"},
        {"byte_fallback", options->byte_fallback != 0 ? "true" : "false"},
    };
    const auto status = sentencepiece::SentencePieceTrainer::Train(args);
    if (!status.ok()) {
      return fail(error, std::string("SentencePiece training on ") + options->input + ": " +
                             status.ToString());
    }
    return 0;
  });
}

int load(const char* path, AtentoSpmModel** model, char** error) {
  return guarded(error, [&] {
    if (path == nullptr || model == nullptr) return fail(error, "load: null argument");
    {
      std::ifstream probe(path, std::ios::binary);
      if (!probe) {
        return fail(error, std::string("cannot open SentencePiece model ") + path + ": " +
                               std::strerror(errno));
      }
    }
    auto loaded = std::make_unique<AtentoSpmModel>();
    const auto status = loaded->processor.Load(path);
    if (!status.ok()) {
      return fail(error, std::string("invalid or corrupt SentencePiece model ") + path + ": " +
                             status.ToString());
    }
    const auto& p = loaded->processor;
    if (p.pad_id() != 0 || p.unk_id() != 1 || p.bos_id() != 2 || p.eos_id() != 3) {
      return fail(error, std::string("SentencePiece model ") + path + " has special ids pad=" +
                             std::to_string(p.pad_id()) + " unk=" + std::to_string(p.unk_id()) +
                             " bos=" + std::to_string(p.bos_id()) + " eos=" +
                             std::to_string(p.eos_id()) + "; Atento needs pad=0 unk=1 bos=2 eos=3");
    }
    *model = loaded.release();
    return 0;
  });
}

void free_model(AtentoSpmModel* model) { delete model; }

int32_t vocab_size(const AtentoSpmModel* model) {
  return model == nullptr ? 0 : model->processor.GetPieceSize();
}

// SentencePiece indexes its piece table without a bounds check; an id out of range would read
// past it.
std::string check_id(const AtentoSpmModel* model, int32_t id) {
  const int32_t size = model->processor.GetPieceSize();
  if (id < 0 || id >= size) {
    return "id " + std::to_string(id) + " out of range [0, " + std::to_string(size) + ")";
  }
  return {};
}

// Hands `pieces` over as a plugin buffer.
int give_ids(const std::vector<int>& pieces, int32_t** ids, size_t* count, char** error) {
  int32_t* out = nullptr;
  if (!pieces.empty()) {
    out = static_cast<int32_t*>(std::malloc(pieces.size() * sizeof(int32_t)));
    if (out == nullptr) return fail(error, "SentencePiece encode: out of memory");
    for (size_t i = 0; i < pieces.size(); ++i) out[i] = pieces[i];
  }
  *ids = out;
  *count = pieces.size();
  return 0;
}

// Encodes `size` bytes with `segment(text, &pieces)`: the best or a sampled segmentation.
template <typename Segment>
int encode_with(const AtentoSpmModel* model, const char* text, size_t size, int32_t** ids,
                size_t* count, char** error, Segment segment) {
  return guarded(error, [&] {
    if (model == nullptr || ids == nullptr || count == nullptr || (text == nullptr && size > 0)) {
      return fail(error, "encode: null argument");
    }
    std::vector<int> pieces;
    const auto status = segment(absl::string_view(text == nullptr ? "" : text, size), &pieces);
    if (!status.ok()) return fail(error, "SentencePiece encode: " + status.ToString());
    return give_ids(pieces, ids, count, error);
  });
}

int encode(const AtentoSpmModel* model, const char* text, size_t size, int32_t** ids, size_t* count,
           char** error) {
  return encode_with(model, text, size, ids, count, error,
                     [&](absl::string_view input, std::vector<int>* pieces) {
                       return model->processor.Encode(input, pieces);
                     });
}

int sample_encode(const AtentoSpmModel* model, const char* text, size_t size, float alpha,
                  int32_t** ids, size_t* count, char** error) {
  if (!(alpha > 0.0F)) return fail(error, "SentencePiece sampling: alpha must be positive");
  // nbest_size -1: sample from the whole lattice (unigram); ignored by BPE-dropout.
  return encode_with(model, text, size, ids, count, error,
                     [&](absl::string_view input, std::vector<int>* pieces) {
                       return model->processor.SampleEncode(input, -1, alpha, pieces);
                     });
}

void set_sampling_seed(uint32_t seed) { sentencepiece::SetRandomGeneratorSeed(seed); }

int decode(const AtentoSpmModel* model, const int32_t* ids, size_t count, char** text,
           char** error) {
  return guarded(error, [&] {
    if (model == nullptr || text == nullptr || (ids == nullptr && count > 0)) {
      return fail(error, "decode: null argument");
    }
    std::vector<int> pieces(ids, ids + count);
    for (const int id : pieces) {
      const std::string problem = check_id(model, id);
      if (!problem.empty()) return fail(error, "SentencePiece decode: " + problem);
    }
    std::string decoded;
    const auto status = model->processor.Decode(pieces, &decoded);
    if (!status.ok()) return fail(error, "SentencePiece decode: " + status.ToString());
    char* out = copy_string(decoded);
    if (out == nullptr) return fail(error, "SentencePiece decode: out of memory");
    *text = out;
    return 0;
  });
}

int id_to_piece(const AtentoSpmModel* model, int32_t id, char** piece, char** error) {
  return guarded(error, [&] {
    if (model == nullptr || piece == nullptr) return fail(error, "id_to_piece: null argument");
    const std::string problem = check_id(model, id);
    if (!problem.empty()) return fail(error, "SentencePiece id_to_piece: " + problem);
    char* out = copy_string(model->processor.IdToPiece(id));
    if (out == nullptr) return fail(error, "SentencePiece id_to_piece: out of memory");
    *piece = out;
    return 0;
  });
}

void free_buffer(void* buffer) { std::free(buffer); }

const AtentoSpmApi kApi = {
    ATENTO_SPM_ABI_VERSION,
    train,
    load,
    free_model,
    vocab_size,
    encode,
    sample_encode,
    set_sampling_seed,
    decode,
    id_to_piece,
    free_buffer,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const AtentoSpmApi* atento_spm_api(
    int32_t abi_version) {
  return abi_version == ATENTO_SPM_ABI_VERSION ? &kApi : nullptr;
}
