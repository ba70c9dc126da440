#include "converters/tau/tau_files.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>
#include <system_error>
#include <tuple>

#include "converters/tau/tau_records.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {
namespace {

bool parseNumber(std::string_view s, uint32_t& value) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// A per-thread set without thread files: names the edf that is there and the thread
// files it needs.
InputError noThreadFiles(const fs::path& dir) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    if (const auto node = parseEdfNode(entry.path()); node && isFile(entry.path()))
      return InputError(entry.path().string(), "",
                        "its thread files tautrace." + std::to_string(*node) +
                            ".<context>.<thread>.trc are missing beside it");
  return InputError(dir.string(), "", "no tautrace.*.trc files");
}

TraceFiles perThreadSet(const fs::path& dir) {
  TraceFiles files;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    if (auto t = parseThreadFileName(entry.path()); t && isFile(entry.path()))
      files.threads.push_back(*t);
  }
  if (ec) throw InputError(dir.string(), "", "cannot list directory: " + ec.message());
  if (files.threads.empty()) throw noThreadFiles(dir);
  std::sort(files.threads.begin(), files.threads.end(),
            [](const ThreadFile& a, const ThreadFile& b) {
              return std::tie(a.node, a.context, a.thread) < std::tie(b.node, b.context, b.thread);
            });
  for (const ThreadFile& t : files.threads) {
    const fs::path edf = dir / edfFileName(t.node);
    if (!isFile(edf))
      throw InputError(t.path.string(), "",
                       "event definitions " + edf.filename().string() + " missing beside it");
    files.edfOfNode.emplace(t.node, edf);
  }
  return files;
}

TraceFiles mergedPair(const fs::path& trc, const fs::path& edf) {
  if (!isFile(trc))
    throw InputError(edf.string(), "", trc.filename().string() + " missing beside it");
  if (!isFile(edf))
    throw InputError(trc.string(), "",
                     "event definitions " + edf.filename().string() + " missing beside it");
  TraceFiles files;
  files.merged = true;
  files.mergedTrc = trc;
  files.mergedEdf = edf;
  return files;
}

bool hasThreadFiles(const fs::path& dir) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    if (parseThreadFileName(entry.path())) return true;
  return false;
}

TraceFiles locateInDirectory(const fs::path& dir) {
  if (hasThreadFiles(dir)) return perThreadSet(dir);
  if (isFile(dir / "tau.trc") || isFile(dir / "tau.edf"))
    return mergedPair(dir / "tau.trc", dir / "tau.edf");
  return perThreadSet(dir);  // names an events.<node>.edf without its thread files
}

bool firstRecordIsInit(const fs::path& trc) {
  std::ifstream in(trc, std::ios::binary);
  unsigned char bytes[32] = {};
  in.read(reinterpret_cast<char*>(bytes), sizeof bytes);
  return !formatsFittingFirstRecord(bytes, static_cast<size_t>(in.gcount()), std::nullopt).empty();
}

bool edfHeaderOk(const fs::path& edf) {
  std::ifstream in(edf);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    return line.find("dynamic_trace_events") != std::string::npos;
  }
  return false;
}

}  // namespace

std::optional<ThreadFile> parseThreadFileName(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string prefix = "tautrace.", suffix = ".trc";
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) ||
      !name.ends_with(suffix))
    return std::nullopt;
  const std::string_view middle =
      std::string_view(name).substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const size_t dot1 = middle.find('.');
  const size_t dot2 = dot1 == std::string_view::npos ? dot1 : middle.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos) return std::nullopt;
  ThreadFile t;
  if (!parseNumber(middle.substr(0, dot1), t.node) ||
      !parseNumber(middle.substr(dot1 + 1, dot2 - dot1 - 1), t.context) ||
      !parseNumber(middle.substr(dot2 + 1), t.thread))
    return std::nullopt;
  t.path = path;
  return t;
}

std::optional<uint32_t> parseEdfNode(const fs::path& path) {
  const std::string name = path.filename().string();
  if (!name.starts_with("events.") || !name.ends_with(".edf") || name.size() <= 11)
    return std::nullopt;
  uint32_t node = 0;
  if (!parseNumber(std::string_view(name).substr(7, name.size() - 11), node)) return std::nullopt;
  return node;
}

TraceFiles locateTrace(const fs::path& input) {
  std::error_code ec;
  if (fs::is_directory(input, ec)) return locateInDirectory(input);
  if (!fs::exists(input, ec)) throw InputError(input.string(), "", "no such file or directory");
  const fs::path dir = input.has_parent_path() ? input.parent_path() : fs::path(".");
  if (parseThreadFileName(input) || parseEdfNode(input)) return perThreadSet(dir);
  const std::string ext = input.extension().string();
  if (ext == ".trc") return mergedPair(input, fs::path(input).replace_extension(".edf"));
  if (ext == ".edf") return mergedPair(fs::path(input).replace_extension(".trc"), input);
  throw InputError(input.string(), "", "not a TAU trace file (.trc or .edf)");
}

namespace {

// One file of a TAU trace, by name and content: a .trc starting with an EV_INIT record
// or an .edf starting with its "N dynamic_trace_events" line. In a directory only the
// names TAU gives (tautrace.*.trc, events.*.edf, tau.trc, tau.edf) count.
bool isTauFile(const fs::path& file, bool anyName) {
  if (!isFile(file)) return false;
  const std::string name = file.filename().string();
  const bool trc =
      parseThreadFileName(file) || name == "tau.trc" || (anyName && file.extension() == ".trc");
  const bool edf =
      parseEdfNode(file) || name == "tau.edf" || (anyName && file.extension() == ".edf");
  return (trc && firstRecordIsInit(file)) || (edf && edfHeaderOk(file));
}

}  // namespace

// Any one file of the trace is enough to recognise it: the reader (locateTrace) then
// names the files that are missing.
bool looksLikeTau(const fs::path& input) {
  try {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) return isTauFile(input, true);
    for (const fs::directory_entry& entry : fs::directory_iterator(input, ec))
      if (isTauFile(entry.path(), false)) return true;
    return false;
  } catch (const std::exception&) {
    return false;
  }
}

std::string threadFileName(uint32_t node, uint32_t context, uint32_t thread) {
  return "tautrace." + std::to_string(node) + "." + std::to_string(context) + "." +
         std::to_string(thread) + ".trc";
}

std::string edfFileName(uint32_t node) {
  return "events." + std::to_string(node) + ".edf";
}

}  // namespace mtf::tau
