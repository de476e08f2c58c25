#pragma once
// The narrow C interface of the SentencePiece plugin (libatento_spm.so).
//
// Why a plugin: Debian's libsentencepiece embeds protobuf 3.14 and LibTorch loads protobuf
// 3.21; linked into one process they crash before main. So every SentencePiece call lives in a
// plugin that never links LibTorch, loaded into a link-map namespace of its own with
// dlmopen(LM_ID_NEWLM) (or with dlopen(RTLD_LOCAL | RTLD_DEEPBIND)). With a LibTorch that
// exports no protobuf the same plugin is linked normally instead (CMake's
// ATENTO_SPM_ISOLATION=direct); this interface is the same either way. Only
// plain C data crosses this boundary (no std::string, no exceptions), so the plugin and its host
// need not agree on C++ ABI settings such as _GLIBCXX_USE_CXX11_ABI.
//
// Conventions: functions returning int return 0 on success; on failure they store a message in
// *error (allocated by the plugin, released with free_buffer) and leave outputs untouched.
// Buffers returned by the plugin are released with free_buffer.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Version of the function table; bumped on any incompatible change.
#define ATENTO_SPM_ABI_VERSION 3

/// Name of the single exported entry point.
#define ATENTO_SPM_ENTRY_POINT "atento_spm_api"

/// A loaded SentencePiece model (opaque).
typedef struct AtentoSpmModel AtentoSpmModel;

/// Algorithm values of AtentoSpmTrainOptions::model_type.
enum { ATENTO_SPM_UNIGRAM = 0, ATENTO_SPM_BPE = 1 };

/// What to train. Special ids are fixed: pad 0, unk 1, bos 2, eos 3.
typedef struct AtentoSpmTrainOptions {
  const char* input;          ///< UTF-8 text file, one sentence per line
  const char* model_prefix;   ///< writes <model_prefix>.model and <model_prefix>.vocab
  int32_t vocab_size;         ///< upper bound; smaller corpora give smaller vocabularies
  int32_t model_type;         ///< ATENTO_SPM_UNIGRAM or ATENTO_SPM_BPE
  double character_coverage;  ///< fraction of characters covered by the vocabulary, (0, 1]
  int32_t num_threads;        ///< trainer threads, >= 1
  int32_t verbose;            ///< 0 keeps SentencePiece's log quiet
  int32_t byte_fallback;      ///< 1: unknown characters become byte pieces <0x00>..<0xFF>
} AtentoSpmTrainOptions;

/// The plugin's function table.
typedef struct AtentoSpmApi {
  int32_t abi_version;
  /// Trains a model from options->input.
  int (*train)(const AtentoSpmTrainOptions* options, char** error);
  /// Loads a model file into *model.
  int (*load)(const char* path, AtentoSpmModel** model, char** error);
  /// Releases a model from load (null is ignored).
  void (*free_model)(AtentoSpmModel* model);
  /// Number of pieces, special ones included.
  int32_t (*vocab_size)(const AtentoSpmModel* model);
  /// Encodes `size` bytes of UTF-8 text into *ids (*count of them; *ids may be null when 0).
  int (*encode)(const AtentoSpmModel* model, const char* text, size_t size, int32_t** ids,
                size_t* count, char** error);
  /// Like encode, but samples one segmentation (subword regularisation, Kudo 2018): unigram
  /// models draw from the whole lattice with smoothing `alpha` (smaller = more varied), BPE
  /// models drop each merge with probability `alpha` (BPE-dropout).
  int (*sample_encode)(const AtentoSpmModel* model, const char* text, size_t size, float alpha,
                       int32_t** ids, size_t* count, char** error);
  /// Sets the seed of sample_encode's generator. SentencePiece keeps one generator per thread,
  /// seeded at that thread's first sample: the seed reaches only threads that have not sampled.
  void (*set_sampling_seed)(uint32_t seed);
  /// Decodes ids into a NUL-terminated UTF-8 *text; control ids (pad, bos, eos) decode to "".
  int (*decode)(const AtentoSpmModel* model, const int32_t* ids, size_t count, char** text,
                char** error);
  /// The piece of one id as a NUL-terminated string.
  int (*id_to_piece)(const AtentoSpmModel* model, int32_t id, char** piece, char** error);
  /// Releases a buffer (ids, text, piece, error) returned by the plugin.
  void (*free_buffer)(void* buffer);
} AtentoSpmApi;

/// The entry point: the function table when `abi_version` matches the plugin's, else null.
typedef const AtentoSpmApi* (*AtentoSpmEntryPoint)(int32_t abi_version);

/// The entry point itself, for a build that links the plugin (ATENTO_SPM_ISOLATION=direct).
const AtentoSpmApi* atento_spm_api(int32_t abi_version);

#ifdef __cplusplus
}
#endif
