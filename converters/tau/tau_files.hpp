// Finding the files of a TAU trace from a directory or from any one of its files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <vector>

namespace mtf::tau {

struct ThreadFile {
  uint32_t node = 0;
  uint32_t context = 0;
  uint32_t thread = 0;
  std::filesystem::path path;
};

struct TraceFiles {
  bool merged = false;
  // Per-thread set: the thread files sorted by (node, context, thread), one edf per node.
  std::vector<ThreadFile> threads;
  std::map<uint32_t, std::filesystem::path> edfOfNode;
  // Merged: one trc and its edf.
  std::filesystem::path mergedTrc;
  std::filesystem::path mergedEdf;
};

// Parses "tautrace.<node>.<context>.<thread>.trc".
std::optional<ThreadFile> parseThreadFileName(const std::filesystem::path& path);
// Parses "events.<node>.edf".
std::optional<uint32_t> parseEdfNode(const std::filesystem::path& path);

// The trace `input` belongs to. A directory with both a per-thread set and a merged pair
// gives the per-thread set (the merged file is read by naming it). Throws InputError
// when the input is not a TAU trace or an edf is missing.
TraceFiles locateTrace(const std::filesystem::path& input);

// Content check for sniffing: `input` is, or is a directory holding, one file of a TAU
// trace (a .trc whose first record is an EV_INIT (par 3), an edf starting
// "N dynamic_trace_events"), even if the others are missing: locateTrace names them.
// Never throws.
bool looksLikeTau(const std::filesystem::path& input);

// The file names a writer produces.
std::string threadFileName(uint32_t node, uint32_t context, uint32_t thread);
std::string edfFileName(uint32_t node);

}  // namespace mtf::tau
