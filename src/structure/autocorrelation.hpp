// The autocorrelation of a sampled signal (the structure paper's equation 1), computed as
// the paper says: a DFT, the squared modulus of each coefficient, an inverse DFT (FFTW3).
#pragma once

#include <fftw3.h>

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace mtf::structure {

// A buffer from fftw_malloc (aligned for FFTW's vector code), freed by fftw_free.
template <typename T>
class FftwBuffer {
 public:
  explicit FftwBuffer(size_t count);
  T* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const { fftw_free(p); }
  };
  std::unique_ptr<T, Free> data_;
  size_t size_;
};

// An FFTW plan, destroyed with fftw_destroy_plan.
class FftwPlan {
 public:
  explicit FftwPlan(fftw_plan plan);
  void execute() const { fftw_execute(plan_.get()); }

 private:
  struct Destroy {
    void operator()(fftw_plan p) const { fftw_destroy_plan(p); }
  };
  std::unique_ptr<std::remove_pointer_t<fftw_plan>, Destroy> plan_;
};

// A(k) = sum_{i=0}^{N-1-k} (x_i - mean)(x_{i+k} - mean) for k = 0 .. N-1 (the signal is
// zero-padded to twice its length, so the sum is the linear one, not a circular one).
std::vector<double> autocorrelation(std::span<const double> x);

}  // namespace mtf::structure
