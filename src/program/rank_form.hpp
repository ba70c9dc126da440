// Rank expressions: how the partner of a point-to-point event that covers several ranks
// follows from each rank r. The seed coalesces processes whose constructs are alike under
// `r+k`; real codes also pair ranks (`r xor 1`) and wrap around rings and tori
// (`(r+1) mod 12`, a grid neighbour `(r+(0,1)) mod 3x4`), so that a symmetric exchange or
// a periodic torus is one construct over all its ranks.
//
// The event's signature keeps the form's constant: Offset: partner = k (r+k, the seed's
// form, or an absolute partner when !partnerRelative); Xor: partner = x (r xor x); Torus:
// partner = the step as a rank of the grid (row-major, the last dimension fastest), the
// partner being r's grid coordinates plus the step's, each modulo its dimension. A torus
// of one dimension P is `(r+k) mod P`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "nlr/signature.hpp"

namespace mtf::program {

struct RankForm {
  enum class Kind : uint8_t { Offset = 0, Xor = 1, Torus = 2 };
  static constexpr size_t kMaxDims = 3;
  Kind kind = Kind::Offset;
  uint8_t dimensions = 0;                   // Torus: 1 to kMaxDims
  std::array<uint32_t, kMaxDims> extent{};  // Torus: the grid's extents (unused: 0)
  bool operator==(const RankForm&) const = default;
  uint64_t gridSize() const;  // Torus: the product of the extents
};

// The world rank of the partner of event `s` (point to point) of the rank `own`, or -1
// if it has none (an unknown own rank, outside the grid).
int64_t partnerRank(const nlr::Signature& s, const RankForm& form, int64_t own);
// How the partner reads for any rank r: "r+1", "r xor 1", "(r-1) mod 12",
// "(r+(0,1)) mod 3x4"; empty for an absolute partner.
std::string partnerExpression(const nlr::Signature& s, const RankForm& form);
const char* formName(const RankForm& form, bool relative);  // offset|absolute|xor|torus

// The forms the grouping tries for a world of `worldSize` ranks: the offset, xor, and
// the tori of one, two and three dimensions whose extents (each >= 2) multiply to it.
std::vector<RankForm> candidateForms(uint64_t worldSize);
// The constant of `form` that takes rank `own` to `partner`, or false if none does.
bool formConstant(const RankForm& form, int64_t own, int64_t partner, int64_t& constant);

}  // namespace mtf::program
