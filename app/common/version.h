#pragma once
// The version of Atento, as it appears in metric signatures ("version:atento-0.3.0").

namespace atento {

/// Raised with each round of the design (docs/ and DESIGN.md name the rounds).
inline constexpr char kAtentoVersion[] = "0.3.0";

}  // namespace atento
