// mtf public API, everything: #include <mtf/mtf.hpp>, link mtf::mtf (find_package(mtf)).
// docs/api.md describes it; the headers say what each call does.
#pragma once

#include "mtf/analysis.hpp"
#include "mtf/definitions.hpp"
#include "mtf/event.hpp"
#include "mtf/trace.hpp"
