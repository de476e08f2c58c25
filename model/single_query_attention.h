#pragma once
// Attention one query at a time on the CPU: each query row of each (batch, head) pair in one
// pass over its keys and values. Made for a cached decoding step (one query per pair): the
// tensor form (multiply-and-sum) writes a [B,H,S,Dh] product and reads it back twice per
// attention, and a decoding step spent about a quarter of its time there; this loop reads each
// key and value once and keeps the scores of a query in a buffer of S floats. Used for every
// attention without gradients on the CPU (the encoder's and a teacher-forced decoder's too):
// matmul's kernels sum in an order that depends on the matrix sizes, so a sentence's encoding
// changed with the padding and the sentences encoded beside it; here a query row's result
// depends on that row's query, keys, values and mask alone, bit for bit. Same arithmetic as
// dot_product_attention(): scores q·k / √Dh, masked keys exactly 0, a query with no kept key a
// zero output; the sums run in another order, so results agree within float rounding. bfloat16
// keys and values (bf16 decoding) are read as they are and widened to fp32 in registers; the
// sums are fp32, and the output and weights are rounded to bfloat16 once at the end.
// Shape legend: B batch, H heads, T queries, S keys, Dh head dim, Dv value width.

#include <torch/types.h>

#include "model/attention.h"

namespace atento::model {

/// Whether single_query_attention() takes these operands: CPU tensors of one dtype, fp32 or
/// bfloat16, q [B,H,T,Dh], k [B,H,S,Dh], v [B,H,S,Dv] with the same B and H, each with a
/// contiguous last axis; `keep` undefined or a bool tensor that broadcasts to [B,H,T,S]; and no
/// gradient to record.
bool single_query_attention_applies(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& keep);

/// softmax(q·kᵀ/√Dh) · v for operands that single_query_attention_applies() to
/// → {output [B,H,T,Dv], weights [B,H,T,S]} in the operands' dtype.
AttentionResult single_query_attention(const torch::Tensor& q, const torch::Tensor& k,
                                       const torch::Tensor& v, const torch::Tensor& keep);

}  // namespace atento::model
