// What the kernel model found on one element of a global array, as bits: the model fills
// them (ArrayResult::found), the map's Findings colour mode paints them.
#pragma once

#include <cstdint>

namespace threadmap {

// kFoundUninit: shared memory read before its block wrote it.
enum ElementFinding : uint8_t { kFoundRace = 1, kFoundHazard = 2, kFoundUninit = 4 };

}  // namespace threadmap
