// mtf-spec-example OUT.mtf: writes the worked example of docs/mtf-format.md.
#include <iostream>

#include "example_trace.hpp"
#include "util/error.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mtf-spec-example OUT.mtf\n";
    return 1;
  }
  try {
    mtf::spec::writeExampleArchive(argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "mtf-spec-example: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
