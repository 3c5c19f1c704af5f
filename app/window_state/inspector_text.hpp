// What the inspector says about one cell of the map: which thread, the launch's numbers,
// and the kernel's index formula with those numbers in.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/window_state/map_picture.hpp"

namespace threadmap {

struct CellDescription {
    std::string heading;                                      // "a[100]", "C[3, 7]", "idle thread (no element)"
    std::vector<std::pair<std::string, std::string>> fields;  // label, value
    std::vector<std::string> formulas;                        // the index arithmetic, numbers filled in
};

// Empty heading when the cell is outside the map or shows nothing.
CellDescription describe_cell(MapPicture& picture, int column, int row);

// "thread (3, 0, 0) of block (1, 0, 0): read at line 5, wrote at line 7": one of the threads
// that touched the pinned element (touchers_job.hpp).
std::string toucher_text(const ElementToucher& t, const LaunchConfig& launch);

// "Go to element": the element of an array of `shape` ([n] or [rows, cols]) that `text` names
// ("47", "63, 47", "63 47", "[63][47]"), as its row-major index; error: what is wrong with it.
Outcome<uint64_t> parse_element(const std::string& text, const std::vector<uint64_t>& shape);

}  // namespace threadmap
