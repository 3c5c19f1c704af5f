// What the map reports (`map`'s tutorial kernels and the kernel model's arrays) share: a
// buffered writer that streams (a 16M-element JSON is ~1 GB and must not be built in memory)
// and the table's cell labels.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "app/reports/map_report.hpp"
#include "kernels/core/thread_map.hpp"

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

// A map's stats, the same keys for the tutorial's kernels and the kernel model's arrays:
// {"blocks":…,"threads_launched":…,…} and "stat,value" rows.
inline void write_stats(Writer& w, const LaunchStats& s, bool json) {
    const std::pair<const char*, uint64_t> stats[] = {{"blocks", s.blocks},
                                                      {"threads_launched", s.threads_launched},
                                                      {"threads_active", s.threads_active},
                                                      {"threads_idle", s.threads_idle},
                                                      {"elements", s.elements},
                                                      {"elements_untouched", s.elements_untouched},
                                                      {"elements_multi", s.elements_multi},
                                                      {"warps", s.warps},
                                                      {"partial_warps", s.partial_warps}};
    w << (json ? "{" : "stat,value\n");
    for (size_t i = 0; i < std::size(stats); ++i) {
        if (json)
            w << (i ? "," : "") << '"' << stats[i].first << "\":" << stats[i].second;
        else
            w << stats[i].first << ',' << stats[i].second << '\n';
    }
    if (json) w << '}';
}
inline void write_stats_json(Writer& w, const LaunchStats& s) { write_stats(w, s, true); }
inline void write_stats_csv(Writer& w, const LaunchStats& s) { write_stats(w, s, false); }

// The same stats as the table's lines. Active and idle in percent of the threads they split
// (the launch's, or one block's for a shared array); `active`: what made a thread active
// ("wrote to it"), `multi`: what more than one thread did to an element ("written").
inline void write_stats_table(Writer& w, const LaunchStats& s, const std::string& active, const char* multi) {
    const auto pct = [whole = s.threads_active + s.threads_idle](uint64_t part) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " (%.1f%%)", whole ? 100.0 * double(part) / double(whole) : 0.0);
        return std::string(buf);
    };
    w << "blocks              " << s.blocks << "\nthreads launched    " << s.threads_launched
      << "\nthreads active      " << s.threads_active << pct(s.threads_active) << (active.empty() ? "" : " " + active)
      << "\nthreads idle        " << s.threads_idle << pct(s.threads_idle) << "\nwarps               " << s.warps
      << "\npartial warps       " << s.partial_warps << "\nelements            " << s.elements
      << "\nelements untouched  " << s.elements_untouched << "\nelements multi      " << s.elements_multi << " ("
      << multi << " by more than one thread)\n";
}

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

inline int launch_dims(const LaunchConfig& launch) {
    if (launch.grid.z > 1 || launch.block.z > 1) return 3;
    if (launch.grid.y > 1 || launch.block.y > 1) return 2;
    return 1;
}

inline void pad(Writer& w, const std::string& s, size_t width) {
    for (size_t i = s.size(); i < width; ++i) w << ' ';
    w << s;
}

// The per-element table of `map --format table`: one label per element — "blockIdx/threadIdx"
// of its first toucher, '*' when more than one thread touched it, '.' for nobody — `per_row`
// to a line, each line headed by its row (`numbered_rows`, a matrix) or its first element;
// above kTableElementLimit elements a line pointing to CSV and JSON instead.
// who(e): the element's first toucher and touch count, or nothing.
template <class Who>
void write_cell_table(Writer& w, uint64_t elements, uint64_t per_row, bool numbered_rows, const LaunchConfig& launch,
                      const std::string& heading, Who who) {
    if (elements > kTableElementLimit) {
        w << "(" << elements << " elements: the per-element table stops at " << kTableElementLimit
          << "; use --format csv or json for all of them)\n\n";
        return;
    }
    const int dims = launch_dims(launch);
    std::vector<std::string> cells(elements);
    size_t width = 1;
    for (uint64_t e = 0; e < elements; ++e) {
        const std::optional<std::pair<Toucher, uint64_t>> t = who(e);
        cells[e] = t ? cell_label(t->first, dims) + (t->second > 1 ? "*" : "") : ".";
        width = std::max(width, cells[e].size());
    }
    w << heading << '\n';
    for (uint64_t e = 0; e < elements; ++e) {
        if (e % per_row == 0) {
            if (e) w << '\n';
            pad(w, std::to_string(numbered_rows ? e / per_row : e), 6);
            w << " |";
        }
        w << ' ';
        pad(w, cells[e], width);
    }
    w << "\n\n";
}

}  // namespace threadmap
