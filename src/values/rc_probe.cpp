#include "values/rc_probe.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

#include "values/range_coder.hpp"
#include "values/residual_model.hpp"

namespace mtf::values {

namespace {

struct CostTable {
  double zero[4097];
  CostTable() {
    for (int p = 1; p < 4096; ++p) zero[p] = -std::log2(p / 4096.0);
    zero[0] = zero[4096] = 12;
  }
  double of(uint32_t p0, bool bit) const { return bit ? zero[4096 - p0] : zero[p0]; }
};
const CostTable kCost;

// The bit kinds: 0 coding 6's (AdaptiveBit), 1 slower after warm-up (1/d to d = 64),
// 2 two rates mixed (1/16 and 1/128: coding 7's MixedBit), 3 two rates (1/8 and 1/64),
// 4 coding 6's to d = 24 only.
struct ProbeBit {
  uint16_t a = 32768, b = 32768;  // 16-bit probabilities of 0
  uint16_t n = 0;
  AdaptiveBit base;
  MixedBit mixed;
  static int kind;

  uint32_t p() const {
    if (kind == 0) return base.probability();
    if (kind == 2) return mixed.probability();
    uint32_t q = kind == 1 || kind == 4 ? a >> 4 : (uint32_t{a} + b) >> 5;
    return q < 31 ? 31 : (q > 4065 ? 4065 : q);
  }
  static void step(uint16_t& x, bool bit, uint32_t d) {
    const int32_t target = bit ? 0 : 65535;
    int32_t v = x;
    v += (target - v) / static_cast<int32_t>(d);
    x = static_cast<uint16_t>(v);
  }
  void update(bool bit) {
    if (kind == 0) return base.update(bit);
    if (kind == 2) return mixed.update(bit);
    const uint32_t d = n + 2;
    if (kind == 1) step(a, bit, d < 64 ? d : 64);
    if (kind == 4) step(a, bit, d < 24 ? d : 24);
    if (kind == 3) step(a, bit, d < 8 ? d : 8), step(b, bit, d < 64 ? d : 64);
    if (n < 1000) ++n;
  }
};
int ProbeBit::kind = 0;

struct Config {
  int time;         // 0 one model; 1 a model per context; 2 bucket by the context's previous
                    // length; 3 tree per (context's previous, stream's previous) bucket
  int slotPrev;     // values: 1 bucket by the slot's previous length, not the stream's; 2 exact
  int valueCond;    // 1: value trees also by whether the event's time residual is 0
  int mantissa;     // adaptive bits below the leading one (today 2)
  int bit;          // ProbeBit::kind
  int lengths = 0;  // how a bit length is coded: 0 the tree of 7 bits (coding 7); 1, 2
                    // relative to the set's last length (same?, up?, then unary steps up
                    // to 4 or 2, else the tree); 3, 4 a window of 8 or 4 lengths by the
                    // set's bucket (in it?, then 3 or 2 bits, else the tree)
};

// Adaptive decisions coded, by the variant being costed (costOf resets it).
uint64_t gDecisions = 0;

// A residual model with `sets` trees of bit lengths.
struct ProbeModel {
  std::vector<ProbeBit> trees;
  std::vector<ProbeBit> mantissa;  // per length: a tree of up to 3 levels (8 nodes)
  unsigned previous = 0;
  std::vector<uint8_t> last;    // lengths 1, 2: per set, the last length coded there
  std::vector<ProbeBit> steps;  // per set: same?, up?, 4 steps up, 4 steps down
  static int lengths;
  explicit ProbeModel(unsigned sets = 8)
      : trees(sets * 128), mantissa(65 * 8), last(sets, 0), steps(sets * 10) {}

  double coded(ProbeBit& b, bool bit) {
    ++gDecisions;
    const double c = kCost.of(b.p(), bit);
    b.update(bit);
    return c;
  }
  double treeCost(unsigned n, unsigned set) {
    ProbeBit* tree = &trees[set * 128];
    double bits = 0;
    unsigned node = 1;
    for (int i = 6; i >= 0; --i) {
      const bool bit = (n >> i) & 1;
      bits += coded(tree[node], bit);
      node = 2 * node + bit;
    }
    return bits;
  }
  double relativeCost(unsigned n, unsigned set) {
    const unsigned c = last[set];
    last[set] = static_cast<uint8_t>(n);
    ProbeBit* b = &steps[set * 10];
    double bits = coded(b[0], n == c);
    if (n == c) return bits;
    const bool up = n > c;
    bits += coded(b[1], up);
    const unsigned d = up ? n - c : c - n;
    const unsigned most = lengths == 1 ? 4 : 2;
    ProbeBit* u = &b[up ? 2 : 6];
    for (unsigned k = 0; k < most; ++k) {
      const bool more = d > k + 1;
      bits += coded(u[k], more);
      if (!more) return bits;
    }
    return bits + treeCost(n, set);
  }

  // Lengths 3: is n among the 8 lengths around its bucket's (set % 8)? then 3 bits, else
  // the tree. Lengths 4: the same with 4 lengths and 2 bits.
  double windowCost(unsigned n, unsigned set) {
    static constexpr unsigned kStart8[8] = {0, 0, 0, 0, 1, 3, 7, 12};
    static constexpr unsigned kStart4[8] = {0, 0, 0, 1, 3, 5, 8, 13};
    const unsigned width = lengths == 3 ? 8 : 4, levels = lengths == 3 ? 3 : 2;
    const unsigned start = (lengths == 3 ? kStart8 : kStart4)[set % 8];
    ProbeBit* b = &steps[set * 10];
    const bool in = n >= start && n < start + width;
    double bits = coded(b[0], in);
    if (!in) return bits + treeCost(n, set);
    unsigned node = 1;
    for (int i = static_cast<int>(levels) - 1; i >= 0; --i) {
      const bool bit = ((n - start) >> i) & 1;
      bits += coded(b[node], bit);  // nodes 1 .. 7 of the set's 10
      node = 2 * node + bit;
    }
    return bits;
  }

  double cost(uint64_t v, unsigned set, int mantissaBits) {
    const unsigned n = static_cast<unsigned>(std::bit_width(v));
    double bits = lengths >= 3   ? windowCost(n, set)
                  : lengths != 0 ? relativeCost(n, set)
                                 : treeCost(n, set);
    unsigned node = 1;
    previous = n;
    if (n < 2) return bits;
    const unsigned below = n - 1;
    const unsigned adaptive = below < unsigned(mantissaBits) ? below : unsigned(mantissaBits);
    ProbeBit* m = &mantissa[n * 8];
    node = 1;
    for (unsigned k = 0; k < adaptive; ++k) {
      const bool bit = (v >> (below - 1 - k)) & 1;
      bits += coded(m[node], bit);
      node = 2 * node + bit;
    }
    return bits + (below - adaptive);
  }
};
int ProbeModel::lengths = 0;

double costOf(const RcProbeInput& in, const Config& c) {
  ProbeBit::kind = c.bit;
  ProbeModel::lengths = c.lengths;
  gDecisions = 0;
  double bits = 0;
  // Times.
  {
    const unsigned sets = c.time == 3 || c.time == 5 ? 64 : (c.time == 4 ? 24 : 8);
    std::unordered_map<uint32_t, unsigned> contextPrevious2;
    ProbeModel global(sets);
    std::unordered_map<uint32_t, ProbeModel> perContext;
    std::unordered_map<uint32_t, unsigned> contextPrevious;
    for (size_t i = 0; i < in.events; ++i) {
      const uint64_t v = in.times[i];
      const unsigned globalBucket = ResidualModel::bucketOf(global.previous);
      if (c.time == 1) {
        auto it = perContext.try_emplace(in.contexts[i], 8).first;
        bits += it->second.cost(v, ResidualModel::bucketOf(it->second.previous), c.mantissa);
        continue;
      }
      if (c.time == 0) {
        bits += global.cost(v, globalBucket, c.mantissa);
        continue;
      }
      unsigned& prev = contextPrevious[in.contexts[i]];
      const unsigned ctxBucket = ResidualModel::bucketOf(prev);
      unsigned& prev2 = contextPrevious2[in.contexts[i]];
      unsigned set = c.time == 2 ? ctxBucket : ctxBucket * 8 + globalBucket;
      if (c.time == 4) set = prev < 23 ? prev : 23;
      if (c.time == 5) set = ctxBucket * 8 + ResidualModel::bucketOf(prev2);
      bits += global.cost(v, set, c.mantissa);
      prev2 = prev;
      prev = static_cast<unsigned>(std::bit_width(v));
    }
  }
  // Values, in event order.
  const unsigned sets = c.slotPrev == 2 ? 24 : (c.valueCond ? 16 : 8);
  std::vector<ProbeModel> streams;
  for (size_t s = 0; s < in.slotCount; ++s)
    if (in.streamOfSlot[s] + 1 > streams.size())
      streams.resize(in.streamOfSlot[s] + 1, ProbeModel(sets));
  if (streams.empty()) streams.resize(1, ProbeModel(sets));
  std::vector<unsigned> slotPrevious(in.slotCount, 0);
  size_t k = 0;
  for (size_t e = 0; e < in.events; ++e) {
    const unsigned cond = c.valueCond && in.times[e] != 0 ? 8 : 0;
    for (uint32_t j = 0; j < in.counts[e]; ++j, ++k) {
      const uint32_t slot = in.slots[k];
      ProbeModel& m = streams[in.streamOfSlot[slot]];
      const unsigned prev = c.slotPrev ? slotPrevious[slot] : m.previous;
      const unsigned set =
          c.slotPrev == 2 ? (prev < 23 ? prev : 23) : ResidualModel::bucketOf(prev) + cond;
      bits += m.cost(in.values[k], set, c.mantissa);
      slotPrevious[slot] = m.previous;
    }
  }
  return bits / 8;
}

const Config kConfigs[kProbeVariants] = {
    {2, 1, 0, 2, 2},     // 0 base: coding 7 (time by the context's previous length, values by
                         //   the slot's, two rates)
    {4, 0, 0, 2, 0},     // 1 time: tree by the context's previous length (exact, to 23)
    {2, 0, 0, 2, 0},     // 2 time: bucket by the context's previous length
    {3, 0, 0, 2, 0},     // 3 time: (context's, stream's previous)
    {0, 0, 0, 2, 2},     // 4 bits: two rates 1/16 + 1/128
    {5, 0, 0, 2, 0},     // 5 time: (context's previous, the one before)
    {0, 2, 0, 2, 0},     // 6 values: slot's previous exact
    {0, 1, 0, 2, 0},     // 7 values: bucket by the slot's previous length
    {4, 1, 0, 2, 2},     // 8 = 1 + 7 + 4
    {5, 1, 0, 2, 2},     // 9 = 5 + 7 + 4
    {2, 1, 0, 2, 0},     // 10 = 2 + 7
    {0, 0, 0, 2, 0},     // 11 coding 6
    {4, 1, 0, 2, 0},     // 12 = 1 + 7
    {5, 1, 0, 2, 0},     // 13 = 5 + 7
    {4, 2, 0, 2, 2},     // 14 = 1 + 6 + 4
    {5, 1, 0, 3, 2},     // 15 = 5 + 7 + 8 + 4
    {2, 1, 0, 2, 2, 1},  // 16 base, lengths relative to the set's last (4 steps)
    {2, 1, 0, 2, 2, 2},  // 17 base, lengths relative to the set's last (2 steps)
    {2, 1, 0, 2, 2, 3},  // 18 base, lengths: a window of 8 by the bucket, else the tree
    {2, 1, 0, 2, 2, 4},  // 19 base, lengths: a window of 4 by the bucket, else the tree
};

const char* const kNames[kProbeVariants] = {
    "base",      "tCtxExact", "tCtxPrev", "tCtxGlob", "twoRate16", "tCtxPrev2", "vSlotExact",
    "vSlotPrev", "c1_7_4",    "c5_7_4",   "c2_7",     "coding6",   "c1_7",      "c5_7",
    "c1_6_4",    "c5_7_8_4",  "relLen4",  "relLen2",  "window8",   "window4"};

}  // namespace

bool rcProbeEnabled() {
  static const bool on = std::getenv("MTF_RC_PROBE") != nullptr;
  return on;
}

void rcProbe(const RcProbeInput& in, double (&bytes)[kProbeVariants]) {
  uint64_t decisions[kProbeVariants];
  for (size_t v = 0; v < kProbeVariants; ++v) {
    bytes[v] = costOf(in, kConfigs[v]);
    decisions[v] = gDecisions;
  }
  // What decoding would cost: each adaptive decision is about 40 instructions.
  std::fprintf(stderr, "rc-decisions events=%zu", in.events);
  for (size_t v : {size_t{0}, size_t{16}, size_t{18}, size_t{19}})
    std::fprintf(stderr, " %s=%llu", kNames[v], static_cast<unsigned long long>(decisions[v]));
  std::fprintf(stderr, "\n");
}

const char* rcProbeName(size_t variant) {
  return kNames[variant];
}

bool rcProbeCompressed(RcProbeChunk& probe, size_t zstdBytes) {
  if (!probe.probed) return true;
  probe.zstd = zstdBytes;
  return probe.within;
}

void rcProbeReport(const RcProbeChunk& probe, uint64_t events, size_t rangedBytes) {
  if (!probe.probed) return;
  std::fprintf(stderr, "rc-probe events=%llu within=%d zstd=%zu ranged=%zu",
               static_cast<unsigned long long>(events), probe.within ? 1 : 0, probe.zstd,
               rangedBytes);
  for (size_t v = 0; v < kProbeVariants; ++v)
    std::fprintf(stderr, " %s=%.1f", kNames[v], probe.variants[v]);
  std::fprintf(stderr, "\n");
}

}  // namespace mtf::values
