#include "program/rank_form.hpp"

namespace mtf::program {

namespace {

// At most this many tori are tried (a world size with very many divisors).
constexpr size_t kMaxTori = 64;

using Coords = std::array<int64_t, RankForm::kMaxDims>;

Coords coordsOf(const RankForm& f, int64_t rank) {
  Coords c{};
  for (size_t i = f.dimensions; i-- > 0;) {
    c[i] = rank % f.extent[i];
    rank /= f.extent[i];
  }
  return c;
}

int64_t rankOf(const RankForm& f, const Coords& c) {
  int64_t rank = 0;
  for (size_t i = 0; i < f.dimensions; ++i) rank = rank * f.extent[i] + c[i];
  return rank;
}

bool inGrid(const RankForm& f, int64_t rank) {
  return rank >= 0 && static_cast<uint64_t>(rank) < f.gridSize();
}

std::string signedText(int64_t v) {
  return (v < 0 ? "-" : "+") + std::to_string(v < 0 ? -v : v);
}

// A step modulo `extent` as the nearer of its two directions (3 of 4 is -1).
int64_t nearest(int64_t step, int64_t extent) {
  return 2 * step > extent ? step - extent : step;
}

std::string torusExpression(const RankForm& f, int64_t constant) {
  const Coords step = coordsOf(f, constant);
  std::string shape, offset;
  for (size_t i = 0; i < f.dimensions; ++i) {
    shape += (i ? "x" : "") + std::to_string(f.extent[i]);
    offset += (i ? "," : "") + std::to_string(nearest(step[i], f.extent[i]));
  }
  if (f.dimensions == 1) return "(r" + signedText(nearest(step[0], f.extent[0])) + ") mod " + shape;
  return "(r+(" + offset + ")) mod " + shape;
}

RankForm torus(std::initializer_list<uint64_t> extents) {
  RankForm f;
  f.kind = RankForm::Kind::Torus;
  for (uint64_t e : extents) f.extent[f.dimensions++] = static_cast<uint32_t>(e);
  return f;
}

}  // namespace

uint64_t RankForm::gridSize() const {
  uint64_t n = 1;
  for (size_t i = 0; i < dimensions; ++i) n *= extent[i];
  return n;
}

int64_t partnerRank(const nlr::Signature& s, const RankForm& form, int64_t own) {
  switch (form.kind) {
    case RankForm::Kind::Xor:
      return own >= 0 && s.partner >= 0 ? own ^ s.partner : -1;
    case RankForm::Kind::Torus: {
      if (!inGrid(form, own) || !inGrid(form, s.partner)) return -1;
      Coords c = coordsOf(form, own);
      const Coords step = coordsOf(form, s.partner);
      for (size_t i = 0; i < form.dimensions; ++i) c[i] = (c[i] + step[i]) % form.extent[i];
      return rankOf(form, c);
    }
    default:
      if (!s.partnerRelative) return s.partner;
      return own >= 0 ? own + s.partner : -1;
  }
}

std::string partnerExpression(const nlr::Signature& s, const RankForm& form) {
  switch (form.kind) {
    case RankForm::Kind::Xor:
      return "r xor " + std::to_string(s.partner);
    case RankForm::Kind::Torus:
      return torusExpression(form, s.partner);
    default:
      if (!s.partnerRelative) return "";
      return s.partner == 0 ? "r" : "r" + signedText(s.partner);
  }
}

const char* formName(const RankForm& form, bool relative) {
  switch (form.kind) {
    case RankForm::Kind::Xor:
      return "xor";
    case RankForm::Kind::Torus:
      return "torus";
    default:
      return relative ? "offset" : "absolute";
  }
}

std::vector<RankForm> candidateForms(uint64_t worldSize) {
  std::vector<RankForm> out{RankForm{}, RankForm{RankForm::Kind::Xor}};
  if (worldSize < 2 || worldSize > UINT32_MAX) return out;
  out.push_back(torus({worldSize}));
  for (uint64_t a = 2; a * 2 <= worldSize && out.size() < kMaxTori; ++a) {
    if (worldSize % a) continue;
    out.push_back(torus({a, worldSize / a}));
    for (uint64_t b = 2; a * b * 2 <= worldSize && out.size() < kMaxTori; ++b)
      if ((worldSize / a) % b == 0) out.push_back(torus({a, b, worldSize / a / b}));
  }
  return out;
}

bool formConstant(const RankForm& form, int64_t own, int64_t partner, int64_t& constant) {
  if (own < 0 || partner < 0) return false;
  switch (form.kind) {
    case RankForm::Kind::Xor:
      constant = own ^ partner;
      return true;
    case RankForm::Kind::Torus: {
      if (!inGrid(form, own) || !inGrid(form, partner)) return false;
      const Coords o = coordsOf(form, own), p = coordsOf(form, partner);
      Coords step{};
      for (size_t i = 0; i < form.dimensions; ++i)
        step[i] = (p[i] - o[i] + form.extent[i]) % form.extent[i];
      constant = rankOf(form, step);
      return true;
    }
    default:
      constant = partner - own;
      return true;
  }
}

}  // namespace mtf::program
