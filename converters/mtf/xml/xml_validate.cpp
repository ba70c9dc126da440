#include "converters/mtf/xml/xml_validate.hpp"

#include <dlfcn.h>

#include <string>
#include <system_error>

#include "converters/mtf/xml/xsd_validator_abi.h"
#include "util/error.hpp"

#ifndef MTF_SCHEMA_SOURCE_DIR
#define MTF_SCHEMA_SOURCE_DIR ""
#endif
// Set by CMake: the module's file name, its folder relative to the installed programs'
// folder and as installed, and the module as built.
#ifndef MTF_VALIDATOR_FILE
#define MTF_VALIDATOR_FILE "mtf-xsd-validator.so"
#endif
#ifndef MTF_VALIDATOR_RELATIVE_DIR
#define MTF_VALIDATOR_RELATIVE_DIR ""
#endif
#ifndef MTF_VALIDATOR_INSTALL_DIR
#define MTF_VALIDATOR_INSTALL_DIR ""
#endif
#ifndef MTF_VALIDATOR_BUILD_PATH
#define MTF_VALIDATOR_BUILD_PATH ""
#endif

namespace fs = std::filesystem;

namespace mtf::xml {

namespace {

fs::path runningProgramDir() {
  std::error_code ec;
  const fs::path binary = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : binary.parent_path();
}

// RAII around a dlopen handle. RTLD_NODELETE: the module and Xerces stay mapped after
// dlclose, so a second validation does not load them again and what Xerces' libraries keep
// in their globals till exit is not reported as leaked (LeakSanitizer) once unmapped.
class SharedModule {
 public:
  explicit SharedModule(const fs::path& path)
      : handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
    if (!handle_) {
      const char* why = dlerror();
      throw IoError(path.string(), std::string("cannot load the XSD validation module: ") +
                                       (why ? why : "unknown reason"));
    }
  }
  ~SharedModule() { dlclose(handle_); }
  SharedModule(const SharedModule&) = delete;
  SharedModule& operator=(const SharedModule&) = delete;

  template <typename Function>
  Function symbol(const fs::path& path, const char* name) const {
    void* address = dlsym(handle_, name);
    if (!address)
      throw IoError(path.string(), std::string("not an mtf validation module: no ") + name);
    return reinterpret_cast<Function>(address);
  }

 private:
  void* handle_;
};

fs::path firstExisting(const std::vector<fs::path>& modules) {
  std::error_code ec;
  for (const fs::path& candidate : modules)
    if (fs::is_regular_file(candidate, ec)) return candidate;
  std::string looked;
  for (const fs::path& candidate : modules)
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  throw IoError(MTF_VALIDATOR_FILE,
                "the XSD validation module (Xerces-C) is not installed; looked in: " +
                    (looked.empty() ? std::string("nowhere") : looked));
}

struct Report {
  std::string place;
  std::string message;
};

void keepReport(void* context, const char* place, const char* message) {
  auto* report = static_cast<Report*>(context);
  report->place = place ? place : "";
  report->message = message ? message : "";
}

}  // namespace

fs::path locateSchema(const fs::path& explicitPath) {
  std::error_code ec;
  if (!explicitPath.empty()) {
    if (!fs::is_regular_file(explicitPath, ec))
      throw IoError(explicitPath.string(), "schema not found");
    return explicitPath;
  }
  const fs::path binary = runningProgramDir();
  std::vector<fs::path> candidates;
  if (!binary.empty()) {
    candidates.push_back(binary / ".." / "share" / "mtf" / "mtf.xsd");
    candidates.push_back(binary / "schema" / "mtf.xsd");
  }
  if (*MTF_SCHEMA_SOURCE_DIR) candidates.push_back(fs::path(MTF_SCHEMA_SOURCE_DIR) / "mtf.xsd");
  for (const fs::path& candidate : candidates)
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal();
  throw IoError("mtf.xsd",
                "schema not found beside the program nor in the source tree (use --schema)");
}

std::vector<fs::path> validatorModuleCandidates() {
  std::vector<fs::path> candidates;
  const fs::path binary = runningProgramDir();
  if (!binary.empty()) {
    candidates.push_back(binary / MTF_VALIDATOR_FILE);
    if (*MTF_VALIDATOR_RELATIVE_DIR)
      candidates.push_back(
          (binary / MTF_VALIDATOR_RELATIVE_DIR / MTF_VALIDATOR_FILE).lexically_normal());
  }
  if (*MTF_VALIDATOR_INSTALL_DIR)
    candidates.push_back(fs::path(MTF_VALIDATOR_INSTALL_DIR) / MTF_VALIDATOR_FILE);
  if (*MTF_VALIDATOR_BUILD_PATH) candidates.push_back(MTF_VALIDATOR_BUILD_PATH);
  return candidates;
}

void validateAgainstSchema(const fs::path& document, const fs::path& schema,
                           const std::vector<fs::path>& modules) {
  std::error_code ec;
  if (!fs::is_regular_file(document, ec)) throw IoError(document.string(), "no such file");
  const fs::path modulePath = firstExisting(modules);
  const SharedModule module(modulePath);
  const auto abiVersion =
      module.symbol<MtfXsdAbiVersion>(modulePath, "mtf_xsd_validator_abi_version");
  if (abiVersion() != MTF_XSD_VALIDATOR_ABI_VERSION)
    throw IoError(modulePath.string(), "the XSD validation module is of another mtf version");
  const auto validate = module.symbol<MtfXsdValidate>(modulePath, "mtf_xsd_validate");
  Report report;
  switch (validate(document.c_str(), schema.c_str(), keepReport, &report)) {
    case MTF_XSD_VALID:
      return;
    case MTF_XSD_SCHEMA_UNUSABLE:
      throw IoError(schema.string(),
                    report.place.empty() ? report.message : report.place + ": " + report.message);
    default:
      throw InputError(document.string(), report.place, report.message);
  }
}

}  // namespace mtf::xml
