// Warp requests and their counts; see warp_requests.hpp and memory_view.hpp.
#include "kernels/model/warp_requests.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace threadmap {

const char* access_op_name(AccessOp op) { return op == AccessOp::Load ? "load" : "store"; }

namespace {

// The distinct elements the active lanes touch, ascending, in `values`; returns how many.
// Most requests are in lane order (ascending, or all one element), which needs no sort.
uint32_t distinct_elements(const WarpRequest& r, std::array<uint64_t, kWarpLanes>& values, uint32_t lanes = ~0u) {
    uint32_t n = 0;
    bool ascending = true;
    for (uint32_t mask = r.mask & lanes; mask; mask &= mask - 1) {
        const uint64_t v = r.index[std::countr_zero(mask)];
        if (n && v < values[n - 1]) ascending = false;
        values[n++] = v;
    }
    if (!ascending) std::sort(values.begin(), values.begin() + n);
    return uint32_t(std::unique(values.begin(), values.begin() + n) - values.begin());
}

// The distinct 32-byte sectors of `n` ascending elements of a 256-byte aligned array (an
// access no wider than a sector, and aligned to its size: it lies in the sector of its first
// element).
uint32_t sectors_of(const std::array<uint64_t, kWarpLanes>& elements, uint32_t n, uint32_t element_bytes) {
    uint32_t sectors = 0;
    for (uint32_t k = 0; k < n; ++k)
        if (k == 0 || elements[k] * element_bytes / kSectorBytes != elements[k - 1] * element_bytes / kSectorBytes)
            ++sectors;
    return sectors;
}

}  // namespace

RequestSectors request_sectors(const WarpRequest& r, uint32_t element_bytes) {
    const uint32_t ideal = ideal_sectors(uint32_t(std::popcount(r.mask)), element_bytes * r.width);
    // Most requests are in lane order: their sectors ascend too, and each one that differs from
    // the one before is another. Counted in one pass over the lanes, without a list.
    uint32_t sectors = 0;
    uint64_t last_element = 0, last_sector = ~uint64_t(0);
    for (uint32_t mask = r.mask; mask; mask &= mask - 1) {
        const uint64_t v = r.index[std::countr_zero(mask)];
        if (last_sector != ~uint64_t(0) && v < last_element) {  // out of order: sorted, then counted
            std::array<uint64_t, kWarpLanes> elements;
            const uint32_t n = distinct_elements(r, elements);
            return {sectors_of(elements, n, element_bytes), ideal};
        }
        const uint64_t sector = v * element_bytes / kSectorBytes;
        sectors += sector != last_sector;
        last_element = v;
        last_sector = sector;
    }
    return {sectors, ideal};
}

namespace {

// Per bank, the distinct 4-byte words the lanes of `lanes` (a mask) touch.
std::array<uint32_t, kSharedBanks> lanes_bank_words(const WarpRequest& r, uint32_t lanes, const ArrayPlace& place) {
    std::array<uint64_t, kWarpLanes> elements;
    const uint32_t n = distinct_elements(r, elements, lanes);
    std::array<uint64_t, 4 * kWarpLanes> words;  // a quarter-warp's 16-byte accesses: 8 lanes of 4 words
    uint32_t w = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const uint64_t first = place.base_byte + elements[k] * place.element_bytes,
                       last = first + place.element_bytes * r.width - 1;
        for (uint64_t word = first / 4; word <= last / 4; ++word) words[w++] = word;
    }
    w = uint32_t(std::unique(words.begin(), words.begin() + w) -
                 words.begin());  // ascending; narrow elements share words
    std::array<uint32_t, kSharedBanks> per_bank{};
    for (uint32_t k = 0; k < w; ++k) ++per_bank[words[k] % kSharedBanks];
    return per_bank;
}

// The lanes one wavefront serves at most: 128 bytes' worth (a warp of 4-byte accesses, a
// half-warp of 8-byte ones, a quarter-warp of 16-byte ones).
uint32_t phase_lanes(const WarpRequest& r, const ArrayPlace& place) {
    return std::min(kWarpLanes, 128 / std::max(4u, place.element_bytes * r.width));
}

}  // namespace

std::array<uint32_t, kSharedBanks> bank_words(const WarpRequest& r, const ArrayPlace& place) {
    std::array<uint32_t, kSharedBanks> per_bank{};
    const uint32_t lanes = phase_lanes(r, place);
    for (uint32_t first = 0; first < kWarpLanes; first += lanes) {
        const uint32_t mask = uint32_t(((uint64_t(1) << lanes) - 1) << first);
        const auto part = lanes_bank_words(r, mask, place);
        for (uint32_t b = 0; b < kSharedBanks; ++b) per_bank[b] += part[b];
    }
    return per_bank;
}

RequestWavefronts request_wavefronts(const WarpRequest& r, const ArrayPlace& place) {
    RequestWavefronts w;
    const uint32_t lanes = phase_lanes(r, place);
    for (uint32_t first = 0; first < kWarpLanes; first += lanes) {
        const uint32_t mask = uint32_t(((uint64_t(1) << lanes) - 1) << first);
        if (!(r.mask & mask)) continue;
        const auto part = lanes_bank_words(r, mask, place);
        const uint32_t most = *std::max_element(part.begin(), part.end());
        w.wavefronts += most;
        w.ideal += 1;
        w.ways = std::max(w.ways, most);
    }
    return w;
}

uint32_t request_addresses(const WarpRequest& r) {
    std::array<uint64_t, kWarpLanes> elements;
    return distinct_elements(r, elements);
}

MemoryTotals memory_totals(const std::vector<MemorySite>& sites, MemorySpace space, AccessOp op) {
    MemoryTotals t;
    for (const MemorySite& s : sites) {
        if (s.space != space || s.op != op) continue;
        t.requests += s.requests;
        t.sectors += s.sectors;
        t.ideal_sectors += s.ideal_sectors;
        t.wavefronts += s.wavefronts;
        t.ideal_wavefronts += s.ideal_wavefronts;
        t.active_lanes += s.active_lanes;
        t.conflict_ways_max = std::max(t.conflict_ways_max, s.conflict_ways_max);
        t.constant_addresses += s.constant_addresses;
        t.constant_addresses_max = std::max(t.constant_addresses_max, s.constant_addresses_max);
    }
    return t;
}

WarpRequests::WarpRequests(const KernelSpec& spec, const std::vector<uint64_t>& sizes, uint32_t tpb, size_t keep,
                           AccessOp keep_op, uint32_t global_element_bytes, size_t cost_array, bool lanes_in_turn)
    : arrays_(spec.arrays.size()),
      threads_per_block_(tpb),
      warps_((tpb + kWarpLanes - 1) / kWarpLanes),
      lanes_in_turn_(lanes_in_turn),
      logging_(lanes_in_turn),
      keep_(keep < spec.arrays.size() ? keep : SIZE_MAX),
      keep_op_(keep_op) {
    if (keep_ != SIZE_MAX) {
        kept_of_.assign(sizes[keep_], MemoryView::kNoRequest);
        // Address space only until used; growing by doubling would touch every page twice
        // (page faults are most of the cost of keeping).
        kept_.reserve(kMaxKeptRequests);
    }
    uint64_t shared_bytes = 0;
    for (size_t a = 0; a < arrays_; ++a) {
        spaces_.push_back(spec.arrays[a].space);
        const uint32_t bytes = value_bytes(spec.arrays[a].type);
        const bool shared = spaces_[a] == MemorySpace::Shared;
        if (shared) shared_bytes = (shared_bytes + bytes - 1) / bytes * bytes;
        places_.push_back({global_element_bytes && !shared ? global_element_bytes : bytes, shared ? shared_bytes : 0});
        if (shared) shared_bytes += sizes[a] * bytes;
        costs_.emplace_back(cost_array == SIZE_MAX || cost_array == a ? sizes[a] : 0);
    }
    next_.assign(size_t(tpb) * site_capacity_, 0);
    requests_.resize(size_t(warps_) * site_capacity_);
}

uint32_t WarpRequests::SiteRequests::find(uint64_t context, uint32_t lane, uint32_t at) {
    constexpr uint32_t kNone = UINT32_MAX;
    const auto add = [&](uint32_t last_of_context) {
        const uint32_t n = uint32_t(requests.size());
        requests.emplace_back();
        contexts.push_back(context);
        visited.push_back(0);
        if (indexed) {
            next_of.push_back(kNone);
            if (last_of_context == kNone)
                first_of.emplace(context, n);
            else
                next_of[last_of_context] = n;
        }
        return n;
    };
    if (!indexed) {
        // Every lane so far made the requests in the order they were made (each joined the one
        // after its last), so one that has made them all makes a new one.
        if (at == requests.size()) return add(kNone);
        indexed = true;
        next_of.assign(requests.size(), kNone);
        for (uint32_t k = uint32_t(requests.size()); k-- > 0;) {
            const auto [first, fresh] = first_of.try_emplace(contexts[k], k);
            if (!fresh) {
                next_of[k] = first->second;
                first->second = k;
            }
        }
    }
    uint32_t last = kNone;
    if (const auto first = first_of.find(context); first != first_of.end())
        for (uint32_t k = first->second; k != kNone; k = next_of[k]) {
            if (!(visited[k] >> lane & 1)) return k;
            last = k;
        }
    return add(last);
}

void WarpRequests::SiteRequests::clear() {
    requests.clear();
    contexts.clear();
    visited.clear();
    if (indexed) {
        first_of.clear();
        next_of.clear();
        indexed = false;
    }
}

uint32_t WarpRequests::add_site(size_t key, size_t array, int line, AccessOp op, uint32_t width) {
    if (key >= site_table_.size()) site_table_.resize(key + 1, -1);
    const uint32_t site = uint32_t(sites_.size());
    site_table_[key] = int32_t(site);
    MemorySite s;
    s.line = line;
    s.op = op;
    s.array = array;
    s.access_bytes = places_[array].element_bytes * width;
    s.space = spaces_[array];
    sites_.push_back(s);
    site_width_.push_back(width);
    if (sites_.size() > site_capacity_) {  // re-lay the per-site tables out, twice as wide
        const size_t old = site_capacity_;
        site_capacity_ *= 2;
        std::vector<uint32_t> next(size_t(threads_per_block_) * site_capacity_, 0);
        for (size_t t = 0; t < threads_per_block_; ++t)
            std::copy_n(next_.begin() + std::ptrdiff_t(t * old), old,
                        next.begin() + std::ptrdiff_t(t * site_capacity_));
        next_ = std::move(next);
        std::vector<SiteRequests> requests(size_t(warps_) * site_capacity_);
        for (size_t w = 0; w < warps_; ++w)
            for (size_t k = 0; k < old; ++k) requests[w * site_capacity_ + k] = std::move(requests_[w * old + k]);
        requests_ = std::move(requests);
    }
    return site;
}

namespace {

// Each element a request touches: the most its requests cost, and the fewest lanes one had.
// The costs and lanes named at compile time, the width read once, one element apart: chosen
// per element inside the loop, and a loop over one element vectorised, they took 27
// instructions a lane (cachegrind).
template <uint8_t ElementCost::*kMost, uint8_t ElementCost::*kFewest>
void add_costs(ElementCost* costs, const WarpRequest& r, uint8_t cost, uint8_t lanes) {
    const auto add = [&](ElementCost& c) {
        c.*kMost = std::max(c.*kMost, cost);
        c.*kFewest = c.*kFewest == 0 ? lanes : std::min(c.*kFewest, lanes);
    };
    const uint32_t width = r.width;
    for (uint32_t mask = r.mask; mask; mask &= mask - 1) {
        const uint64_t first = r.index[std::countr_zero(mask)];
        if (width == 1) {
            add(costs[first]);
            continue;
        }
        for (uint64_t i = first; i < first + width; ++i) add(costs[i]);
    }
}

}  // namespace

void WarpRequests::count(MemorySite& site, const WarpRequest& r) {
    const uint32_t lanes = uint32_t(std::popcount(r.mask));
    ++site.requests;
    site.active_lanes += lanes;
    uint32_t cost = 0;
    if (site.space == MemorySpace::Shared) {
        const RequestWavefronts w = request_wavefronts(r, places_[site.array]);
        cost = w.ways;
        site.wavefronts += w.wavefronts;
        site.ideal_wavefronts += w.ideal;
        site.conflict_ways_max = std::max(site.conflict_ways_max, w.ways);
        if (!keep_shared_costs_) return;
    } else if (site.space == MemorySpace::Constant) {
        cost = request_addresses(r);
        site.constant_addresses += cost;
        site.constant_addresses_max = std::max(site.constant_addresses_max, cost);
    } else {
        const auto [sectors, ideal] = request_sectors(r, places_[site.array].element_bytes);
        cost = sectors;
        site.sectors += sectors;
        site.ideal_sectors += ideal;
    }
    std::vector<ElementCost>& costs = costs_[site.array];
    if (costs.empty()) return;  // another array's than ModelLaunch::cost_array
    if (site.op == AccessOp::Load)
        add_costs<&ElementCost::load_cost, &ElementCost::load_lanes>(costs.data(), r, uint8_t(cost), uint8_t(lanes));
    else
        add_costs<&ElementCost::store_cost, &ElementCost::store_lanes>(costs.data(), r, uint8_t(cost), uint8_t(lanes));
}

bool WarpRequests::kept(const MemorySite& site) const {
    return site.array == keep_ && site.op == keep_op_ && (site.space != MemorySpace::Shared || keep_shared_costs_);
}

// One warp's kept requests, in program order (the n-th execution of each site before the
// n+1-th; within one, by line), and each element's first.
void WarpRequests::keep(std::vector<KeptRequest>& warp_requests) {
    const auto before = [](const KeptRequest& a, const KeptRequest& b) {
        return a.execution != b.execution ? a.execution < b.execution : a.line < b.line;
    };
    if (!std::is_sorted(warp_requests.begin(), warp_requests.end(), before))  // more than one site kept
        std::sort(warp_requests.begin(), warp_requests.end(), before);
    for (const KeptRequest& k : warp_requests) {
        if (kept_.size() == kMaxKeptRequests) {
            kept_capped_ = true;
            return;
        }
        kept_.push_back(k);
        for (uint32_t mask = k.request.mask; mask; mask &= mask - 1) {
            const uint64_t index = k.request.index[std::countr_zero(mask)];
            for (uint64_t i = index; i < index + k.request.width; ++i) {
                uint32_t& first = kept_of_[i];
                if (first == MemoryView::kNoRequest) first = uint32_t(kept_.size() - 1);
            }
        }
    }
}

void WarpRequests::replay_log(uint32_t warp) {
    size_t at = 0;
    for (uint32_t lane = 0; lane < kWarpLanes; ++lane)
        for (uint32_t n = 0; n < lane_entries_[lane]; ++n, ++at) {
            const LoggedAccess& e = log_[at];
            const uint32_t site = e.site & ~kInBounds;
            join(warp * kWarpLanes + lane, e.context, site, e.index, site_width_[site], e.site & kInBounds);
        }
    log_.clear();
    lane_entries_.fill(0);
    logging_ = false;
}

bool WarpRequests::count_logged(uint32_t warp) {
    const uint32_t first = lane_entries_[0];
    const LoggedAccess* lane0 = log_.data();
    std::array<const LoggedAccess*, kWarpLanes> logs{};  // each active lane's log
    std::array<uint32_t, kWarpLanes> made{}, lane_of{};
    uint32_t active = 0;  // lanes that made an access
    size_t at = 0;
    for (uint32_t lane = 0; lane < kWarpLanes; ++lane) {
        const uint32_t n = lane_entries_[lane];
        if (n > first) return false;
        for (uint32_t k = 0; k < n; ++k) {
            const LoggedAccess& e = log_[at + k];
            if (((e.site ^ lane0[k].site) & ~kInBounds) || e.context != lane0[k].context) return false;
        }
        if (n > 0) {
            logs[active] = log_.data() + at;
            made[active] = n;
            lane_of[active++] = lane;
        }
        at += n;
    }
    // Lane 0's k-th access opens a request (join makes one for each of them) and every lane's
    // k-th access joins it: the k-th request is the k-th entry of each lane's log. Counted in
    // that order here; close_warp counts one site's requests after another's, which sums to the
    // same figures, and the kept ones are put in its order below.
    executions_.assign(sites_.size(), 0);
    std::vector<KeptRequest>& warp_kept = warp_kept_;
    warp_kept.clear();
    warp_kept_sites_.clear();
    for (uint32_t k = 0; k < first; ++k) {
        const uint32_t site = lane0[k].site & ~kInBounds;
        const uint32_t execution = executions_[site]++;
        WarpRequest r;
        r.width = site_width_[site];
        for (uint32_t a = 0; a < active; ++a) {
            if (made[a] <= k || !(logs[a][k].site & kInBounds)) continue;
            r.index[lane_of[a]] = logs[a][k].index;
            r.mask |= 1u << lane_of[a];
        }
        if (!r.mask) continue;
        count(sites_[site], r);
        if (!kept_capped_ && kept(sites_[site])) {
            warp_kept.push_back({r, block_ * warps_ + warp, int32_t(sites_[site].line), execution});
            warp_kept_sites_.push_back(site);
        }
    }
    if (warp_kept.empty()) return true;
    if (!std::is_sorted(warp_kept_sites_.begin(), warp_kept_sites_.end())) {  // close_warp's: by site, then execution
        std::vector<uint32_t> order(warp_kept.size());
        for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return warp_kept_sites_[a] < warp_kept_sites_[b]; });
        std::vector<KeptRequest> sorted;
        sorted.reserve(order.size());
        for (uint32_t i : order) sorted.push_back(warp_kept[i]);
        warp_kept = std::move(sorted);
    }
    keep(warp_kept);
    return true;
}

void WarpRequests::close_warp(uint32_t warp) {
    if (lanes_in_turn_) {
        if (logging_ && !count_logged(warp)) replay_log(warp);
        const bool counted = logging_;  // else replayed: its requests are counted below
        clear_log();
        if (counted) return;
    }
    std::vector<KeptRequest>& warp_kept = warp_kept_;
    warp_kept.clear();
    for (size_t k = 0; k < sites_.size(); ++k) {
        SiteRequests& site = requests_[size_t(warp) * site_capacity_ + k];
        const std::vector<WarpRequest>& requests = site.requests;
        const bool keep_site = !kept_capped_ && kept(sites_[k]);
        for (size_t n = 0; n < requests.size(); ++n) {
            if (!requests[n].mask) continue;
            count(sites_[k], requests[n]);
            if (keep_site)
                warp_kept.push_back({requests[n], block_ * warps_ + warp, int32_t(sites_[k].line), uint32_t(n)});
        }
        site.clear();
    }
    if (!warp_kept.empty()) keep(warp_kept);
    const uint32_t first = warp * kWarpLanes, end = std::min(first + kWarpLanes, threads_per_block_);
    std::fill(next_.begin() + std::ptrdiff_t(size_t(first) * site_capacity_),
              next_.begin() + std::ptrdiff_t(size_t(end) * site_capacity_), 0u);
}

void WarpRequests::close_block() {
    for (uint32_t w = 0; w < warps_; ++w) close_warp(w);
}

MemoryView WarpRequests::finish() {
    MemoryView view;
    view.sites = sites_;
    std::sort(view.sites.begin(), view.sites.end(), [](const MemorySite& a, const MemorySite& b) {
        if (a.line != b.line) return a.line < b.line;
        if (a.op != b.op) return a.op < b.op;
        if (a.array != b.array) return a.array < b.array;
        return a.access_bytes < b.access_bytes;
    });
    view.costs = std::move(costs_);
    view.kept_requests = std::move(kept_);
    view.kept_request_of = std::move(kept_of_);
    view.kept_capped = kept_capped_;
    view.places = places_;
    return view;
}

}  // namespace threadmap
