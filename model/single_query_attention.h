#pragma once
// Attention of one query per (batch, head) — a cached decoding step — in one pass over the keys
// and values of each (batch, head) pair on the CPU. The tensor form (multiply-and-sum) writes a
// [B,H,S,Dh] product and reads it back twice per attention, and a decoding step spends about a
// quarter of its time there; this loop reads each key and value once and keeps the scores of a
// pair in a buffer of S floats. Same arithmetic as dot_product_attention(): scores q·k / √Dh,
// masked keys exactly 0, a pair with no kept key a zero output; the sums run in another order,
// so results agree within float rounding. A pair's result depends on that pair alone. bfloat16
// keys and values (bf16 decoding) are read as they are and widened to fp32 in registers; the
// sums are fp32, and the output and weights are rounded to bfloat16 once at the end.
// Shape legend: B batch, H heads, S keys, Dh head dim, Dv value width.

#include <torch/types.h>

#include "model/attention.h"

namespace atento::model {

/// Whether single_query_attention() takes these operands: CPU tensors of one dtype, fp32 or
/// bfloat16, q [B,H,1,Dh], k [B,H,S,Dh], v [B,H,S,Dv] with the same B and H, each with a
/// contiguous last axis; `keep` undefined or a bool tensor that broadcasts to [B,H,1,S]; and no
/// gradient to record.
bool single_query_attention_applies(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& keep);

/// softmax(q·kᵀ/√Dh) · v for operands that single_query_attention_applies() to
/// → {output [B,H,1,Dv], weights [B,H,1,S]} in the operands' dtype.
AttentionResult single_query_attention(const torch::Tensor& q, const torch::Tensor& k,
                                       const torch::Tensor& v, const torch::Tensor& keep);

}  // namespace atento::model
