// What an MTF file (binary or XML) stores besides its events, read without reading an
// event: the compact model with its annotations, and the program model among them.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "compaction/compact_model.hpp"
#include "program/program_model.hpp"

namespace mtf::api_impl {

// The compact model of `path`, or nullptr if `path` is neither an .mtf nor an MTF XML file.
std::shared_ptr<const compaction::CompactModel> storedCompactModel(const std::string& path);

// The program model `model` (read from `path`) stores, if it stores one.
std::optional<program::ProgramModel> storedProgramModel(const compaction::CompactModel& model,
                                                        const std::string& path);

}  // namespace mtf::api_impl
