#include "structure/structure.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "structure/burst_train.hpp"
#include "structure/morphology.hpp"

namespace mtf::structure {

std::string_view regionKindName(RegionKind kind) {
  switch (kind) {
    case RegionKind::NonPeriodic:
      return "non-periodic";
    case RegionKind::Periodic:
      return "periodic";
    case RegionKind::Perturbed:
      return "perturbed";
  }
  return "?";
}

std::string_view foundByName(FoundBy by) {
  switch (by) {
    case FoundBy::None:
      return "";
    case FoundBy::Autocorrelation:
      return "autocorrelation";
    case FoundBy::BurstTrain:
      return "burst-train";
  }
  return "?";
}

namespace {

// Bins [first, last) of the input.
struct Span {
  size_t first = 0, last = 0;
  size_t size() const { return last - first; }
};

class Search {
 public:
  Search(const StructureInput& in, const StructureOptions& o) : in_(in), o_(o) {}
  // minIterations: 2 for a level's own span, 3 for what lies beside a zone (see piece()).
  std::vector<StructureRegion> segment(Span s, unsigned level, size_t minIterations = 2) const;
  StructureRegion region(RegionKind kind, Span s) const;

 private:
  // A periodic zone of a segment, in bins of the segment's own (maybe closed) signal.
  struct Zone {
    Span span;          // absolute bins
    double period = 0;  // bins
    size_t iterations = 0;
    size_t fullWindow = 0;    // absolute start of one whole iteration in the zone's middle
    size_t windowLength = 0;  // that iteration's length in bins (0: the rounded period)
    FoundBy foundBy = FoundBy::Autocorrelation;
  };
  struct Candidates {  // the best zone so far, over closings and resolutions
    Zone best;
    size_t cover = 0;
    bool found = false;
  };
  bool bestZone(Span s, size_t minIterations, Zone& zone) const;
  void searchAt(Span s, size_t f, size_t minIterations, Candidates& c,
                size_t maxWidth = ~size_t{0}) const;
  bool withTrain(Span s, size_t minIterations, bool periodic, Zone& zone) const;
  std::vector<StructureRegion> piece(Span s, const Zone& z, unsigned level) const;
  // A repeating pattern of calls has at least two events (an Enter and a Leave) per period.
  bool eventful(size_t first, size_t last, size_t iterations) const {
    const double events =
        std::accumulate(in_.events.begin() + first, in_.events.begin() + last, 0.0);
    return events >= 2.0 * static_cast<double>(iterations);
  }
  void addInnerLevel(StructureRegion& r, const Zone& z, unsigned level) const;
  Tick tickOf(double bin) const {
    return in_.grid.start +
           static_cast<Tick>(std::llround(bin * static_cast<double>(in_.grid.width)));
  }

  const StructureInput& in_;
  const StructureOptions& o_;
};

StructureRegion Search::region(RegionKind kind, Span s) const {
  StructureRegion r;
  r.kind = kind;
  r.start = in_.grid.binStart(s.first);
  r.end = in_.grid.binStart(s.last);
  const double mpi = std::accumulate(in_.mpi.begin() + s.first, in_.mpi.begin() + s.last, 0.0);
  const double bins = static_cast<double>(std::max<size_t>(1, s.size()));
  r.mpiFraction = mpi / (bins * static_cast<double>(std::max<size_t>(1, in_.processes)));
  r.events = static_cast<uint64_t>(std::llround(
      std::accumulate(in_.events.begin() + s.first, in_.events.begin() + s.last, 0.0)));
  return r;
}

// Pearson correlation of y[a + j] and y[b + j], j < length, over the j where both exist.
double similarity(std::span<const double> y, int64_t a, int64_t b, size_t length) {
  double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, n = 0;
  const auto size = static_cast<int64_t>(y.size());
  for (int64_t j = 0; j < static_cast<int64_t>(length); ++j) {
    const int64_t i = a + j, k = b + j;
    if (i < 0 || k < 0 || i >= size || k >= size) continue;
    const double u = y[static_cast<size_t>(i)], v = y[static_cast<size_t>(k)];
    sa += u, sb += v, saa += u * u, sbb += v * v, sab += u * v, n += 1;
  }
  if (n < 2) return 0.0;
  const double cab = sab - sa * sb / n, caa = saa - sa * sa / n, cbb = sbb - sb * sb / n;
  if (caa <= 1e-12 || cbb <= 1e-12) return 0.0;  // a flat window (no activity) repeats nothing
  return cab / std::sqrt(caa * cbb);
}

// The start of the iteration after the one at `previous`: about one period later, where the
// window resembles the previous one best (iterations vary in length, so a fixed grid of
// periods drifts away from them). Offsets up to a quarter period, in 64 steps.
int64_t nextStart(std::span<const double> y, int64_t previous, size_t length, double& best) {
  const auto l = static_cast<int64_t>(length);
  const int64_t reach = l / 4, step = std::max<int64_t>(1, l / 128);
  int64_t at = previous + l;
  best = similarity(y, previous, at, length);
  for (int64_t d = -reach; d <= reach; d += step) {
    const double c = similarity(y, previous, previous + l + d, length);
    if (c > best + 1e-9) best = c, at = previous + l + d;
  }
  return at;
}

// Where iterations begin: at the start of the quietest stretch of y folded over the period
// (each phase's samples averaged over all periods).
size_t phaseOf(std::span<const double> y, double period) {
  const auto length = static_cast<size_t>(period);
  std::vector<double> folded(length, 0.0);
  std::vector<size_t> counts(length, 0);
  for (size_t i = 0; i < y.size(); ++i) {
    const auto p = static_cast<size_t>(std::fmod(static_cast<double>(i), period));
    if (p < length) folded[p] += y[i], ++counts[p];
  }
  for (size_t p = 0; p < length; ++p)
    folded[p] /= static_cast<double>(std::max<size_t>(1, counts[p]));
  size_t best = 0;
  for (size_t p = 1; p < length; ++p)
    if (folded[p] < folded[best]) best = p;
  for (size_t steps = 0; steps < length; ++steps) {  // back to the stretch's start
    const size_t previous = (best + length - 1) % length;
    if (folded[previous] > folded[best] + 1e-9) break;
    best = previous;
  }
  return best;
}

// A window whose activity (the signal's sum) is under half or over twice the windows'
// median is no iteration, however its shape correlates: at a zone's edge a window half
// in the set-up still resembles its neighbour.
void dropUnlikeActivity(std::span<const double> y, const std::vector<int64_t>& starts,
                        size_t length, std::vector<bool>& alike) {
  std::vector<double> sums;
  for (int64_t a : starts) {
    double sum = 0;
    for (int64_t i = std::max<int64_t>(0, a);
         i < std::min<int64_t>(static_cast<int64_t>(y.size()), a + static_cast<int64_t>(length));
         ++i)
      sum += y[static_cast<size_t>(i)];
    sums.push_back(sum);
  }
  std::vector<double> sorted = sums;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double median = sorted[sorted.size() / 2];
  for (size_t k = 0; k < starts.size(); ++k)
    if (sums[k] < 0.5 * median || sums[k] > 2 * median) alike[k] = false;
}

// Iteration windows cut at the phase (a window cut by the segment's edge counts when 3/4
// of it is inside); the zone is the longest run of windows that each resemble a neighbour.
bool zoneOf(std::span<const double> y, double& period, double minSimilarity, size_t& first,
            size_t& last, size_t& iterations, size_t& fullWindow) {
  const auto length = static_cast<size_t>(std::llround(period));
  const auto n = static_cast<int64_t>(y.size());
  if (length < 2 || y.size() < 2 * length) return false;
  // Iteration windows: from the phase on, each tracked from the previous one.
  auto mostlyInside = [&](int64_t a) {
    const int64_t inside =
        std::min<int64_t>(n, a + static_cast<int64_t>(length)) - std::max<int64_t>(0, a);
    return 4 * inside >= 3 * static_cast<int64_t>(length);
  };
  std::vector<int64_t> starts;
  std::vector<bool> alike;
  const auto phase = static_cast<int64_t>(phaseOf(y, period));
  starts.push_back(mostlyInside(phase - static_cast<int64_t>(length))
                       ? phase - static_cast<int64_t>(length)
                       : phase);
  alike.push_back(false);
  while (true) {
    double c = 0;
    const int64_t next = nextStart(y, starts.back(), length, c);
    if (next <= starts.back() || !mostlyInside(next)) break;
    const bool similar = c >= minSimilarity;
    if (similar) alike.back() = true;
    starts.push_back(next);
    alike.push_back(similar);
  }
  if (starts.size() < 2) return false;
  dropUnlikeActivity(y, starts, length, alike);
  size_t bestFirst = 0, bestCount = 0;
  for (size_t k = 0; k < starts.size();) {
    size_t j = k;
    while (j < starts.size() && alike[j]) ++j;
    if (j - k > bestCount) bestFirst = k, bestCount = j - k;
    k = std::max(j, k + 1);
  }
  if (bestCount < 2) return false;
  first = static_cast<size_t>(std::max<int64_t>(0, starts[bestFirst]));
  last = static_cast<size_t>(
      std::min<int64_t>(n, starts[bestFirst + bestCount - 1] + static_cast<int64_t>(length)));
  iterations = bestCount;
  // The tracked iterations' mean length refines the autocorrelation's period (windows of
  // unlike activity at the zone's edges were dropped: they would pull it).
  if (bestCount >= 3)
    period = static_cast<double>(starts[bestFirst + bestCount - 1] - starts[bestFirst]) /
             static_cast<double>(bestCount - 1);
  const int64_t middle = starts[bestFirst + bestCount / 2];
  fullWindow =
      static_cast<size_t>(std::clamp<int64_t>(middle, 0, n - static_cast<int64_t>(length)));
  return true;
}

// The segment's signal averaged down to samples of `factor` bins each: a level's search
// looks at its own span at a bounded resolution (the next level, inside one iteration,
// sees the finer bins again), which keeps every level's FFTs small.
std::vector<double> downsampled(std::span<const double> raw, size_t factor) {
  std::vector<double> y((raw.size() + factor - 1) / factor, 0.0);
  for (size_t i = 0; i < raw.size(); ++i) y[i / factor] += raw[i];
  for (size_t i = 0; i < y.size(); ++i) {
    const size_t n = std::min(factor, raw.size() - i * factor);
    y[i] /= static_cast<double>(n);
  }
  return y;
}

// The paper closes the signal only when its main period is unclear. A fine oscillation
// (a wavefront's pipeline steps) is clear on the raw signal but repeats only inside one
// phase; the iteration becomes clear once a closing fills the steps. So the search tries
// the signal and its closings of widths 3, 5, 9, 17, ... up to an eighth of the segment,
// and keeps the clear period whose zone covers most of the segment (within 10%: the
// shortest such period). `f` bins make one sample.
void Search::searchAt(Span s, size_t f, size_t minIterations, Candidates& c,
                      size_t maxWidth) const {
  const std::vector<double> coarse =
      downsampled(std::span<const double>(in_.signal).subspan(s.first, s.size()), f);
  maxWidth = std::min(maxWidth, coarse.size() / 8);
  for (size_t width = 0; width <= maxWidth; width = width ? 2 * width - 1 : 3) {
    const std::vector<double> closed = width ? closing(coarse, width) : std::vector<double>();
    const std::span<const double> y = width ? std::span<const double>(closed) : coarse;
    const std::optional<Period> p = clearPeriod(y, o_.period);
    size_t first = 0, last = 0, iterations = 0, window = 0;
    double period = p ? p->samples : 0;
    const bool zoned = p && zoneOf(y, period, o_.similarity, first, last, iterations, window);
    if (!zoned || iterations < minIterations) continue;
    first = s.first + first * f;
    last = std::min(s.last, s.first + last * f);
    period *= static_cast<double>(f);
    const size_t cover = last - first;
    if (!eventful(first, last, iterations)) continue;
    const bool wider = 10 * cover > 11 * c.cover;
    const bool asWideButShorter = 10 * cover >= 9 * c.cover && period < c.best.period;
    if (!c.found || wider || asWideButShorter) {
      const auto length = static_cast<size_t>(std::llround(period));
      const size_t full = std::min(s.first + window * f, s.last - std::min(s.size(), length));
      c.best = {{first, last}, period, iterations, full, 0, FoundBy::Autocorrelation};
      c.cover = std::max(c.cover, cover);
      c.found = true;
    }
  }
}

// Each span is first searched at searchSamples samples (its FFTs stay small). When that
// grid is too coarse for the signal (fewer than 8 samples per burst of the signal: bursts
// on the trace's grid, counted once, bound how short an iteration can be) and no zone of
// at least 16 iterations covers 90% of the span, the span is searched again at 4 and then 16 times
// more samples (at most the trace's grid), and the widest zone of all resolutions wins (as above).
// With 8,000 iterations over 262,144 bins the 16,384 samples hold 2 samples per iteration: the
// coarse search finds a drift of 7 "iterations" over the whole run; the finer one the
// 8,000. A zone of 16 or more iterations over the span is trusted: the refinement's FFTs
// (up to 16 times larger) are then not paid. The finer searches try closings up to width
// 16 only: a wider closing of the finer signal is about one of the coarse signal, tried.
bool Search::bestZone(Span s, size_t minIterations, Zone& best) const {
  Candidates c;
  size_t f = (s.size() + o_.searchSamples - 1) / o_.searchSamples;
  searchAt(s, f, minIterations, c);
  size_t bursts = 0;
  for (size_t i = s.first; i < s.last; ++i)
    bursts += in_.signal[i] > 0 && (i == s.first || in_.signal[i - 1] <= 0);
  for (unsigned step = 0; step < 2 && f > 1; ++step) {
    const bool covered = 10 * c.cover >= 9 * s.size() && c.best.iterations >= 16;
    if (covered || 8 * bursts <= s.size() / f) break;
    f = std::max<size_t>(1, f / 4);
    searchAt(s, f, minIterations, c, 16);
  }
  best = c.best;
  return c.found;
}

// Iterations of varying length (burst_train.hpp) where the autocorrelation finds no zone,
// or where its period is no whole multiple of the train's iteration (then it is a slow drift
// of the signal, not an iteration of the program: on casita-jacobi-gpu 2,205 ms = 51.1
// iterations of 43.1 ms) and the train covers about as much (90%). A period k >= 2 times
// the train's (within a tenth of an iteration) is a super-period (a check every k
// iterations): kept, and the next level finds the train inside one of its iterations. A
// period within 10% of the train's, or shorter, is the same iteration or a finer one, and
// the autocorrelation's zone (whose windows were compared sample by sample) is kept.
// The train is searched on the level's own bins (the trace's grid): it needs no FFT, and
// a coarser grid would merge the bursts.
bool Search::withTrain(Span s, size_t minIterations, bool periodic, Zone& z) const {
  BurstTrainOptions options;
  options.minIterations = std::max(options.minIterations, minIterations);
  const auto t =
      findBurstTrain(std::span<const double>(in_.signal).subspan(s.first, s.size()),
                     std::span<const double>(in_.events).subspan(s.first, s.size()), options);
  // Irregular bursts carry less evidence than a zone whose windows were compared sample by
  // sample: a train must span half the searched span (else the few alike calls of a set-up
  // phase, or the neighbour exchanges inside one iteration, would pass for a loop).
  if (!t || 2 * (t->last - t->first) < s.size()) return periodic;
  if (periodic) {
    const double ratio = z.period / t->period;
    const bool multiple = std::abs(ratio - std::round(ratio)) <= 0.1;
    const bool asWide = 10 * (t->last - t->first) >= 9 * z.span.size();
    if (ratio < 1.1 || multiple || !asWide) return true;
  }
  z = {{s.first + t->first, s.first + t->last},
       t->period,
       t->iterations,
       s.first + t->middleStart,
       t->middleLength,
       FoundBy::BurstTrain};
  return true;
}

// The next level: the same search inside one whole iteration in the zone's middle.
void Search::addInnerLevel(StructureRegion& r, const Zone& z, unsigned level) const {
  const auto length = z.windowLength ? z.windowLength : static_cast<size_t>(std::llround(z.period));
  const Span one{z.fullWindow, z.fullWindow + length};
  r.sampleStart = in_.grid.binStart(one.first);
  r.sampleEnd = in_.grid.binStart(one.last);
  if (level < o_.levels && length >= o_.minBinsPerPeriod) r.children = segment(one, level + 1);
}

// Periods within 10% of each other: the same iteration.
bool samePeriod(const StructureRegion& a, const StructureRegion& b) {
  const auto longer = static_cast<double>(std::max(a.period, b.period));
  return std::abs(static_cast<double>(a.period) - static_cast<double>(b.period)) <= 0.1 * longer;
}

// a, then what lies between (maybe nothing), then b, as one zone: the inner level of the
// one with more iterations; MPI share weighted by time.
StructureRegion merged(const StructureRegion& a, const StructureRegion* between,
                       const StructureRegion& b) {
  StructureRegion m = a.iterations >= b.iterations ? a : b;
  const double gap = between ? static_cast<double>(between->end - between->start) : 0;
  const double period = static_cast<double>(a.period * a.iterations + b.period * b.iterations) /
                        static_cast<double>(a.iterations + b.iterations);
  m.start = a.start;
  m.end = b.end;
  m.iterations = a.iterations + b.iterations + static_cast<uint64_t>(std::llround(gap / period));
  m.period = static_cast<Tick>(std::llround(period));
  auto weighted = [](const StructureRegion& r) {
    return r.mpiFraction * static_cast<double>(r.end - r.start);
  };
  m.mpiFraction = (weighted(a) + weighted(b) + (between ? weighted(*between) : 0)) /
                  static_cast<double>(std::max<Tick>(1, m.end - m.start));
  m.events = a.events + b.events + (between ? between->events : 0);
  return m;
}

// The seed is silent on a zone whose tracking breaks: one unlike iteration (noise, a rare
// collective) ends the run of alike windows, and the search beside the zone finds the rest
// as zones of their own (three zones of 56, 103 and 41 iterations of one loop). Neighbouring
// zones of the same period, next to each other or with less than two and a half periods
// between them, are one zone (an unlike iteration fails two comparisons: with the one
// before and with the one after, so the tracking loses up to two iterations).
void mergeAlikeNeighbours(std::vector<StructureRegion>& regions) {
  std::vector<StructureRegion> out;
  for (StructureRegion& r : regions) {
    const size_t n = out.size();
    if (r.kind == RegionKind::Periodic && n >= 1) {
      const bool adjacent = out[n - 1].kind == RegionKind::Periodic && samePeriod(out[n - 1], r);
      const bool acrossGap =
          n >= 2 && out[n - 2].kind == RegionKind::Periodic && samePeriod(out[n - 2], r) &&
          out[n - 1].kind == RegionKind::NonPeriodic &&
          2 * (out[n - 1].end - out[n - 1].start) < 5 * std::max(r.period, out[n - 2].period);
      if (adjacent) {
        out[n - 1] = merged(out[n - 1], nullptr, r);
        continue;
      }
      if (acrossGap) {
        StructureRegion m = merged(out[n - 2], &out[n - 1], r);
        out.pop_back();
        out.back() = std::move(m);
        continue;
      }
    }
    out.push_back(std::move(r));
  }
  regions = std::move(out);
}

// What lies before or after zone `z` at the same level: searched again if it is longer
// than the zone's period (shorter, it cannot hold a phase of this level: it is the rest of
// an iteration the zone did not count, or the program's set-up), and a zone there needs
// three iterations: two look-alike stretches of a set-up or final phase are chance.
std::vector<StructureRegion> Search::piece(Span s, const Zone& z, unsigned level) const {
  if (static_cast<double>(s.size()) < z.period) return {region(RegionKind::NonPeriodic, s)};
  return segment(s, level, 3);
}

// The regions of an unperturbed segment at `level`: a periodic zone and, before and after
// it, whatever the same search finds there.
std::vector<StructureRegion> Search::segment(Span s, unsigned level, size_t minIterations) const {
  Zone z;
  if (s.size() < 4 * o_.period.minPeriod) return {region(RegionKind::NonPeriodic, s)};
  const bool periodic = bestZone(s, minIterations, z);
  if (!withTrain(s, minIterations, periodic, z)) return {region(RegionKind::NonPeriodic, s)};
  std::vector<StructureRegion> out;
  // Pieces shorter than half a period join the zone: they are the cut's slack.
  const auto slack = static_cast<size_t>(z.period / 2);
  if (z.span.first - s.first > slack) {
    auto before = piece({s.first, z.span.first}, z, level);
    out.insert(out.end(), before.begin(), before.end());
  } else {
    z.span.first = s.first;
  }
  const bool after = s.last - z.span.last > slack;
  if (!after) z.span.last = s.last;
  StructureRegion zone = region(RegionKind::Periodic, z.span);
  zone.period = tickOf(z.period) - in_.grid.start;
  zone.iterations = z.iterations;
  zone.foundBy = z.foundBy;
  addInnerLevel(zone, z, level);
  out.push_back(std::move(zone));
  if (after) {
    auto rest = piece({z.span.last, s.last}, z, level);
    out.insert(out.end(), rest.begin(), rest.end());
  }
  mergeAlikeNeighbours(out);
  return out;
}

}  // namespace

namespace {
bool anyPeriodic(const std::vector<StructureRegion>& regions, uint64_t minIterations = 2) {
  return std::any_of(regions.begin(), regions.end(), [&](const StructureRegion& r) {
    return r.kind == RegionKind::Periodic && r.iterations >= minIterations;
  });
}
}  // namespace

std::vector<StructureRegion> findStructureOrMpi(const StructureInput& in, const StructureOptions& o,
                                                bool& usedMpi) {
  usedMpi = false;
  std::vector<StructureRegion> regions = findStructure(in, o);
  if (anyPeriodic(regions) || in.mpi.size() != in.signal.size()) return regions;
  StructureInput mpi = in;
  mpi.signal = in.mpi;
  std::vector<StructureRegion> fromMpi = findStructure(mpi, o);
  // A second signal is a second chance: its zone needs 4 iterations (a program that only
  // waits in MPI calls has a nearly constant MPI signal whose few blocks look alike).
  if (!anyPeriodic(fromMpi, 4)) return regions;
  usedMpi = true;
  return fromMpi;
}

std::vector<StructureRegion> findStructure(const StructureInput& in, const StructureOptions& o) {
  const Search search(in, o);
  const size_t n = in.signal.size();
  std::vector<Run> perturbed;
  if (!in.perturbation.empty()) {
    const auto width =
        std::max<size_t>(3, static_cast<size_t>(o.perturbedClosing * static_cast<double>(n)));
    perturbed = positiveRuns(closing(in.perturbation, width));
  }
  std::vector<StructureRegion> out;
  size_t at = 0;
  auto unperturbed = [&](size_t until) {
    if (until <= at) return;
    auto regions = search.segment({at, until}, 1);
    out.insert(out.end(), regions.begin(), regions.end());
  };
  for (const Run& r : perturbed) {
    unperturbed(r.first);
    out.push_back(search.region(RegionKind::Perturbed, {r.first, r.last}));
    at = r.last;
  }
  unperturbed(n);
  return out;
}

}  // namespace mtf::structure
