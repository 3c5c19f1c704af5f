// What the map reports (`map`'s tutorial kernels and the kernel model's arrays) share: a
// buffered writer that streams (a 16M-element JSON is ~1 GB and must not be built in memory)
// and the table's cell labels.
#pragma once

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "thread_map.hpp"

namespace threadmap {

class Writer {
  public:
    explicit Writer(std::FILE* f) : f_(f) { buf_.reserve(kFlushAt + 256); }
    ~Writer() { flush(); }
    Writer& operator<<(std::string_view s) {
        buf_.insert(buf_.end(), s.begin(), s.end());
        return maybe_flush();
    }
    Writer& operator<<(char c) {
        buf_.push_back(c);
        return maybe_flush();
    }
    Writer& operator<<(uint64_t v) {
        char tmp[24];
        const auto end = std::to_chars(tmp, tmp + sizeof tmp, v).ptr;
        buf_.insert(buf_.end(), tmp, end);
        return maybe_flush();
    }
    bool flush() {
        if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) ok_ = false;
        buf_.clear();
        return ok_;
    }
    bool finish() { return flush() && std::fflush(f_) == 0 && ok_; }

  private:
    static constexpr size_t kFlushAt = 1 << 16;
    Writer& maybe_flush() {
        if (buf_.size() >= kFlushAt) flush();
        return *this;
    }
    std::FILE* f_;
    std::vector<char> buf_;
    bool ok_ = true;
};

inline void write_json_dim(Writer& w, const Dim3& d) {
    w << '[' << uint64_t(d.x) << ',' << uint64_t(d.y) << ',' << uint64_t(d.z) << ']';
}

// "3/4" for a 1D launch, "3,1/4,0" for 2D, "3,1,0/4,0,2" for 3D: blockIdx/threadIdx.
inline std::string cell_label(const Toucher& t, int dims) {
    const auto part = [dims](const Dim3& d) {
        std::string s = std::to_string(d.x);
        if (dims > 1) s += "," + std::to_string(d.y);
        if (dims > 2) s += "," + std::to_string(d.z);
        return s;
    };
    return part(t.block) + "/" + part(t.thread);
}

inline int launch_dims(const LaunchConfig& l) {
    if (l.grid.z > 1 || l.block.z > 1) return 3;
    if (l.grid.y > 1 || l.block.y > 1) return 2;
    return 1;
}

inline void pad(Writer& w, const std::string& s, size_t width) {
    for (size_t i = s.size(); i < width; ++i) w << ' ';
    w << s;
}

}  // namespace threadmap
