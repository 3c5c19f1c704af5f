// The oracle; see launch_oracle.hpp.
#include "tests/launch_oracle.hpp"

#include <set>
#include <string_view>

namespace oracle {

Map compute(const threadmap::Workload& w, const threadmap::LaunchConfig& l) {
    const uint64_t elements = threadmap::is_matrix(w.kernel) ? w.rows * w.cols : w.n;
    Map m{std::vector<uint64_t>(elements, ~uint64_t(0)), std::vector<uint64_t>(elements, 0), 0};
    const uint64_t gx = l.grid.x, gy = l.grid.y, gz = l.grid.z;
    const uint64_t bx_ = l.block.x, by_ = l.block.y, bz_ = l.block.z;
    for (uint64_t bz = 0; bz < gz; ++bz)
        for (uint64_t by = 0; by < gy; ++by)
            for (uint64_t bx = 0; bx < gx; ++bx)
                for (uint64_t tz = 0; tz < bz_; ++tz)
                    for (uint64_t ty = 0; ty < by_; ++ty)
                        for (uint64_t tx = 0; tx < bx_; ++tx) {
                            const uint64_t block_id = (bz * gy + by) * gx + bx;
                            const uint64_t gid = block_id * (bx_ * by_ * bz_) + (tz * by_ + ty) * bx_ + tx;
                            std::set<uint64_t> wrote;
                            const uint64_t x = bx * bx_ + tx;  // cuda.grid x
                            const uint64_t y = by * by_ + ty;  // cuda.grid y
                            // By name: the oracle knows the tutorial's four kernels apart from
                            // threadmap's own description of them.
                            const std::string_view name = threadmap::kernel_name(w.kernel);
                            if (name == "increment") {
                                if (x < w.n) wrote.insert(x);
                            } else if (name == "increment-stride") {
                                for (uint64_t p = x; p < w.n; p += bx_ * gx) wrote.insert(p);
                            } else if (name == "matmul") {
                                if (x < w.rows && y < w.cols) wrote.insert(x * w.cols + y);
                            } else if (name == "matmul-xcol") {
                                if (y < w.rows && x < w.cols) wrote.insert(y * w.cols + x);
                            }
                            for (uint64_t e : wrote) {
                                if (gid < m.first[e]) m.first[e] = gid;
                                ++m.touches[e];
                            }
                            if (!wrote.empty()) ++m.threads_active;
                        }
    return m;
}

}  // namespace oracle
