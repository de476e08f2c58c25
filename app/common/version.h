#pragma once
// The version of Atento, as it appears in metric signatures ("version:atento-0.3.0").

namespace atento {

/// Raised when what the programs compute or write changes (a new round of features).
inline constexpr char kAtentoVersion[] = "0.3.0";

}  // namespace atento
