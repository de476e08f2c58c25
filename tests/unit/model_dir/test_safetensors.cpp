// The safetensors reader and writer: round trips (through memory and a mapped file), and every
// kind of truncated or hostile file refused with an error naming it, never read out of bounds.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstring>
#include <string>

#include "app/model_dir/checksums.h"
#include "app/model_dir/safetensors.h"
#include "app/model_dir/weights_file.h"
#include "data/text_io.h"
#include "model/checkpoint.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

using data::test_util::TempDir;

model::NamedTensors sample_weights() {
  torch::manual_seed(7);
  return {{"decoder.w", torch::randn({3, 5})},
          {"encoder.bias", torch::randn({5}).to(torch::kBFloat16)},
          {"empty", torch::zeros({0, 4})},
          {"steps", torch::arange(6, torch::kInt64).reshape({2, 3})}};
}

void expect_same(const model::NamedTensors& a, const model::NamedTensors& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, tensor] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    EXPECT_EQ(b.at(name).scalar_type(), tensor.scalar_type()) << name;
    EXPECT_TRUE(torch::equal(b.at(name), tensor)) << name;
  }
}

/// A file image: the 8-byte length, `header`, then `data`.
std::string image(const std::string& header, const std::string& data) {
  std::string out(8, '\0');
  const uint64_t n = header.size();
  std::memcpy(out.data(), &n, 8);
  return out + header + data;
}

std::string error_of(const std::string& bytes) {
  try {
    parse_safetensors(bytes, "w.safetensors");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Safetensors, RoundTripsInMemoryAndThroughAMappedFile) {
  const auto weights = sample_weights();
  const std::string bytes = serialize_safetensors(weights, {{"format", "pt"}});
  uint64_t header = 0;
  std::memcpy(&header, bytes.data(), 8);
  EXPECT_EQ((8 + header) % 8, 0u) << "data not 8-byte aligned";
  expect_same(weights, parse_safetensors(bytes, "mem"));
  TempDir dir;
  const std::string path = dir.file("w.safetensors");
  save_weights(weights, path);
  auto mapped = read_weights_file(path);
  expect_same(weights, mapped);
  mapped["decoder.w"].add_(1.0);  // copy-on-write: the file keeps its bytes
  expect_same(weights, read_weights_file(path));
}

TEST(Safetensors, AModuleIsSavedInTheFormatItsFileNameSays) {
  torch::manual_seed(3);
  torch::nn::Linear layer(4, 3);
  const auto expected = model::named_state(*layer);
  TempDir dir;
  save_weights(*layer, dir.file("model.safetensors"));  // a model directory's best weights
  save_weights(*layer, dir.file("model.pt"));           // a checkpoint's, or an older directory's
  expect_same(expected,
              parse_safetensors(data::read_whole_file(dir.file("model.safetensors"), "weights"),
                                "model.safetensors"));
  expect_same(expected, model::read_weights(dir.file("model.pt")));  // the pickle reader
  torch::nn::Linear loaded(4, 3);
  for (const char* name : {"model.safetensors", "model.pt"}) {
    for (auto& p : loaded->parameters()) p.data().zero_();
    load_weights_file(*loaded, dir.file(name));
    expect_same(expected, model::named_state(*loaded));
  }
}

TEST(Safetensors, RefusesTruncatedFiles) {
  const std::string bytes = serialize_safetensors(sample_weights());
  for (size_t size : {size_t{0}, size_t{7}, size_t{8}, size_t{20}, bytes.size() - 1}) {
    EXPECT_NE(error_of(bytes.substr(0, size)).find("w.safetensors"), std::string::npos) << size;
  }
}

TEST(Safetensors, RefusesHostileHeaders) {
  const std::string f32x2 = std::string(8, '\0');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"[1,2]", f32x2},
      {"{not json", f32x2},
      {R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,16]}})", f32x2},  // past the end
      {R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", f32x2},   // shape ≠ bytes
      {R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},
           "b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
       f32x2},                                                               // overlap + hole
      {R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", f32x2},  // hole
      {R"({"a":{"dtype":"X9","shape":[2],"data_offsets":[0,8]}})", f32x2},
      {R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", f32x2},
      {R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],
           "data_offsets":[0,8]}})",
       f32x2},  // overflow
      {R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", f32x2},
      {R"({"a":{"dtype":"F32","shape":[2]}})", f32x2},
      {R"({"__metadata__":7})", ""},
  };
  for (const auto& [header, data] : cases) {
    const std::string message = error_of(image(header, data));
    EXPECT_NE(message.find("w.safetensors: not a valid safetensors file"), std::string::npos)
        << header << " → " << message;
  }
  std::string huge(8, '\xff');  // header length 2^64 - 1
  EXPECT_NE(error_of(huge + "{}").find("header length"), std::string::npos);
}

TEST(Checksums, Sha256OfAKnownText) {
  TempDir dir;
  EXPECT_EQ(sha256_file(dir.write("abc", "abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256sums(dir.str(), {"abc"}),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  abc\n");
  EXPECT_THROW(sha256_file(dir.file("missing")), std::runtime_error);
}

}  // namespace
}  // namespace atento
