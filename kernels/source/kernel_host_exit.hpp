// How the kernel host ends, as threadmap reads its exit status.
#pragma once

namespace threadmap::kernel_host {

inline constexpr int kExitOutOfMemory = 3;  // a compile took all the memory the host may use
inline constexpr int kExitBadUsage = 2;     // started without its socket

}  // namespace threadmap::kernel_host
