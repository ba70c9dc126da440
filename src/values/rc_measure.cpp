#include "values/rc_measure.hpp"

#include <vector>

#include "values/residual_model.hpp"

namespace mtf::values {

size_t rangeCodedSize(const uint64_t* residuals, const uint32_t* streamOf, size_t n,
                      size_t streams) {
  std::vector<ResidualModel> models(streams);
  ByteBuffer out;
  RangeEncoder coder(out);
  for (size_t i = 0; i < n; ++i) models[streamOf[i]].encode(coder, residuals[i]);
  coder.finish();
  return out.size();
}

}  // namespace mtf::values
