// What this binary was built with, and which backend it can use here, in words.
#pragma once

#include <string>

namespace threadmap {

// "threadmap 0.1.0" and a line on CUDA: compiled in or not, and if so whether a device is
// usable and, when not, CUDA's own reason (error 35 on a machine with no driver).
std::string version_text();

}  // namespace threadmap
