#include "registry/registry.hpp"

#include <fstream>
#include <optional>
#include <string_view>

#include "util/error.hpp"
// One include and one line per format.
#include "converters/chrome/chrome_format.hpp"
#include "converters/mtf/binary/mtf_binary_format.hpp"
#include "converters/mtf/xml/mtf_xml_format.hpp"
#include "converters/otf2/otf2_format.hpp"
#include "converters/paraver/paraver_format.hpp"
#include "converters/tau/tau_format.hpp"

namespace fs = std::filesystem;

namespace mtf {

const std::vector<FormatEntry>& formats() {
  static const std::vector<FormatEntry> all = {
      otf2Format(), paraverFormat(), mtfBinaryFormat(), tauFormat(), mtfXmlFormat(), chromeFormat(),
  };
  return all;
}

const FormatEntry* formatByName(const std::string& name) {
  for (const FormatEntry& f : formats())
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

// Repositories often hold a Git LFS pointer (a small text file) instead of a large trace
// file that was never downloaded.
bool isGitLfsPointer(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return false;
  std::ifstream in(file, std::ios::binary);
  std::string start(40, '\0');
  in.read(start.data(), static_cast<std::streamsize>(start.size()));
  return std::string_view(start).starts_with("version https://git-lfs.github.com/spec/");
}

// The Git LFS pointer `input` is or holds, if any.
std::optional<fs::path> gitLfsPointerIn(const fs::path& input) {
  if (isGitLfsPointer(input)) return input;
  std::error_code ec;
  for (fs::directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec))
    if (isGitLfsPointer(it->path())) return it->path();
  return std::nullopt;
}

}  // namespace

const FormatEntry& detectInputFormat(const fs::path& input) {
  std::error_code ec;
  if (!fs::exists(input, ec)) throw InputError(input.string(), "", "no such file or directory");
  for (const FormatEntry& f : formats())
    if (f.openReader && f.sniff && f.sniff(input)) return f;
  if (const auto pointer = gitLfsPointerIn(input))
    throw InputError(pointer->string(), "",
                     "a Git LFS pointer, not the file itself (fetch it with git lfs pull)");
  throw InputError(input.string(), "",
                   "not a trace of any known format (" +
                       std::string(fs::is_directory(input, ec) ? "directory holds no trace"
                                                               : "content not recognised") +
                       ")");
}

const FormatEntry& formatForOutput(const fs::path& output) {
  const std::string name = output.string();
  const FormatEntry* best = nullptr;
  size_t bestLength = 0;
  for (const FormatEntry& f : formats()) {
    for (const std::string& ext : f.extensions) {
      if (name.size() >= ext.size() &&
          name.compare(name.size() - ext.size(), ext.size(), ext) == 0 && ext.size() > bestLength &&
          f.openWriter) {
        best = &f;
        bestLength = ext.size();
      }
    }
  }
  if (!best) throw UsageError(name + ": cannot tell the output format from the name (use --to)");
  return *best;
}

std::unique_ptr<TraceSource> openTrace(const fs::path& input, const ReadOptions& opts) {
  return detectInputFormat(input).openReader(input, opts);
}

}  // namespace mtf
