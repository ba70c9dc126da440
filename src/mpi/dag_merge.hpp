// The merge of mtf-mpi's per-process DAGs (one step of its reduction tree): the structure
// of several CompactModels over disjoint locations as one.
#pragma once

#include <vector>

#include "compaction/compact_model.hpp"

namespace mtf::mpi {

// The structure of `parts` (signatures, nodes, locations with their annotations; columns
// are not copied) as one model with `defs`:
//  - locations in the order of their definitions (locations without one after, by id);
//  - DAG nodes numbered in depth-first post-order from the locations' roots, in that
//    order, and signatures by first use; identical subtrees and signatures stored once.
// The numbering depends only on the locations' DAGs, not on how they were split into
// parts, so every reduction tree (every number of processes) gives the same structure.
// Nodes no location reaches (folded away during compaction) are left out. A location's
// value columns stay valid: they are coded by context, and the renumbering maps the
// contexts of one part one-to-one (values/columns.hpp).
compaction::CompactModel mergeStructures(const std::vector<const compaction::CompactModel*>& parts,
                                         const Definitions& defs);

}  // namespace mtf::mpi
