#include "structure/autocorrelation.hpp"

#include <bit>
#include <complex>
#include <mutex>
#include <new>
#include <numeric>

namespace mtf::structure {

template <typename T>
FftwBuffer<T>::FftwBuffer(size_t count)
    : data_(static_cast<T*>(fftw_malloc(sizeof(T) * count))), size_(count) {
  if (!data_) throw std::bad_alloc();
}
template class FftwBuffer<double>;
template class FftwBuffer<fftw_complex>;

FftwPlan::FftwPlan(fftw_plan plan) : plan_(plan) {
  if (!plan) throw std::runtime_error("FFTW could not make a plan");
}

namespace {
// FFTW's planner is not thread-safe; execution of distinct plans is.
std::mutex& plannerMutex() {
  static std::mutex m;
  return m;
}
}  // namespace

std::vector<double> autocorrelation(std::span<const double> x) {
  const size_t n = x.size();
  if (n == 0) return {};
  const size_t m = std::bit_ceil(2 * n);  // padding: no wrap-around terms
  FftwBuffer<double> real(m);
  FftwBuffer<fftw_complex> spectrum(m / 2 + 1);
  std::unique_ptr<FftwPlan> forward, backward;
  {
    std::lock_guard lock(plannerMutex());
    const int size = static_cast<int>(m);
    forward = std::make_unique<FftwPlan>(
        fftw_plan_dft_r2c_1d(size, real.data(), spectrum.data(), FFTW_ESTIMATE));
    backward = std::make_unique<FftwPlan>(
        fftw_plan_dft_c2r_1d(size, spectrum.data(), real.data(), FFTW_ESTIMATE));
  }
  const double mean = std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(n);
  for (size_t i = 0; i < m; ++i) real.data()[i] = i < n ? x[i] - mean : 0.0;
  forward->execute();
  for (size_t i = 0; i < m / 2 + 1; ++i) {
    fftw_complex& c = spectrum.data()[i];
    c[0] = c[0] * c[0] + c[1] * c[1];  // |X|^2
    c[1] = 0.0;
  }
  backward->execute();  // unnormalised: m times the autocorrelation
  std::vector<double> a(n);
  for (size_t k = 0; k < n; ++k) a[k] = real.data()[k] / static_cast<double>(m);
  return a;
}

}  // namespace mtf::structure
