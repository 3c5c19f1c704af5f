#include "kernels/model/model_result_io.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "kernels/model/warp_collective.hpp"

namespace threadmap {
namespace {

constexpr uint64_t kMagic = 0x316c7573726d7474ull;  // "ttmresl1"

class Writer {
  public:
    template <class T>
    void value(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    template <class T>
    void vector(const std::vector<T>& v) {
        value(uint64_t(v.size()));
        if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
    void string(const std::string& s) {
        value(uint64_t(s.size()));
        out += s;
    }
    std::string out;
};

class Reader {
  public:
    explicit Reader(std::string_view in) : in_(in) {}
    template <class T>
    bool value(T& v) {
        if (in_.size() < sizeof v) return false;
        std::memcpy(&v, in_.data(), sizeof v);
        in_.remove_prefix(sizeof v);
        return true;
    }
    template <class T>
    bool vector(std::vector<T>& v) {
        uint64_t n = 0;
        if (!value(n) || n > in_.size() / sizeof(T)) return false;
        v.resize(n);
        if (n) std::memcpy(v.data(), in_.data(), n * sizeof(T));  // an empty vector's data() may be null
        in_.remove_prefix(n * sizeof(T));
        return true;
    }
    bool string(std::string& s) {
        uint64_t n = 0;
        if (!value(n) || n > in_.size()) return false;
        s.assign(in_.data(), n);
        in_.remove_prefix(n);
        return true;
    }
    // A bool as the byte serialize_result wrote: 0 or 1, anything else refused (a byte of 2 read
    // into a bool would be undefined behaviour).
    bool flag(bool& b) {
        uint8_t byte = 0;
        if (!value(byte) || byte > 1) return false;
        b = byte == 1;
        return true;
    }
    bool done() const { return in_.empty(); }

  private:
    std::string_view in_;
};

}  // namespace

std::string serialize_result(const ModelResult& r) {
    Writer w;
    w.value(kMagic);
    w.value(uint64_t(r.arrays.size()));
    for (const ArrayResult& a : r.arrays) {
        w.vector(a.shape);
        w.vector(a.bits);
        w.vector(a.records);
        w.vector(a.found);
        w.value(a.threads_writing);
        w.value(a.threads_reading);
        w.vector(a.past);
        w.value(a.past_elsewhere);
    }
    w.value(uint64_t(r.findings.size()));
    for (const Finding& f : r.findings) {
        w.value(f.kind);
        w.vector(f.threads);
        w.string(f.array);
        w.vector(f.index);
        w.value(f.line);
        w.string(f.message);
    }
    w.value(r.counts);
    w.value(r.ended_early);
    w.value(r.diverged.has_value());
    if (r.diverged) {
        w.value(r.diverged->block);
        w.value(r.diverged->line);
        w.vector(r.diverged->sides);
    }
    w.vector(r.undefined_shuffles);
    w.value(r.phases);
    w.value(r.accesses);
    w.value(r.memory.has_value());
    if (r.memory) {
        w.vector(r.memory->sites);
        w.value(uint64_t(r.memory->costs.size()));
        for (const auto& c : r.memory->costs) w.vector(c);
        w.vector(r.memory->kept_requests);
        w.vector(r.memory->kept_request_of);
        w.value(r.memory->kept_capped);
        w.vector(r.memory->places);
    }
    w.value(r.watched.has_value());
    if (r.watched) {
        w.vector(r.watched->listed);
        w.value(r.watched->threads);
        w.value(r.watched->accesses);
    }
    w.value(kMagic);
    return std::move(w.out);
}

std::optional<ModelResult> deserialize_result(std::string_view bytes) {
    Reader in(bytes);
    ModelResult r;
    uint64_t magic = 0, n = 0;
    if (!in.value(magic) || magic != kMagic || !in.value(n) || n > bytes.size()) return std::nullopt;
    r.arrays.resize(n);
    for (ArrayResult& a : r.arrays)
        if (!in.vector(a.shape) || !in.vector(a.bits) || !in.vector(a.records) || !in.vector(a.found) ||
            !in.value(a.threads_writing) || !in.value(a.threads_reading) || !in.vector(a.past) ||
            !in.value(a.past_elsewhere))
            return std::nullopt;
    if (!in.value(n) || n > bytes.size()) return std::nullopt;
    r.findings.resize(n);
    for (Finding& f : r.findings)
        if (!in.value(f.kind) || !in.vector(f.threads) || !in.string(f.array) || !in.vector(f.index) ||
            !in.value(f.line) || !in.string(f.message))
            return std::nullopt;
    bool memory = false, diverged = false;
    if (!in.value(r.counts) || !in.flag(r.ended_early) || !in.flag(diverged)) return std::nullopt;
    if (diverged) {
        DivergedBlock d;
        if (!in.value(d.block) || !in.value(d.line) || !in.vector(d.sides)) return std::nullopt;
        r.diverged = std::move(d);
    }
    if (!in.vector(r.undefined_shuffles)) return std::nullopt;
    if (!in.value(r.phases) || !in.value(r.accesses) || !in.flag(memory)) return std::nullopt;
    if (memory) {
        MemoryView m;
        if (!in.vector(m.sites) || !in.value(n) || n > bytes.size()) return std::nullopt;
        m.costs.resize(n);
        for (auto& c : m.costs)
            if (!in.vector(c)) return std::nullopt;
        if (!in.vector(m.kept_requests) || !in.vector(m.kept_request_of) || !in.flag(m.kept_capped) ||
            !in.vector(m.places))
            return std::nullopt;
        r.memory = std::move(m);
    }
    bool watched = false;
    if (!in.flag(watched)) return std::nullopt;
    if (watched) {
        WatchedElement w;
        if (!in.vector(w.listed) || !in.value(w.threads) || !in.value(w.accesses)) return std::nullopt;
        r.watched = std::move(w);
    }
    if (!in.value(magic) || magic != kMagic || !in.done()) return std::nullopt;
    return r;
}

namespace {

uint64_t volume(const std::vector<uint64_t>& shape) {
    uint64_t n = 1;
    for (uint64_t side : shape) n *= side;
    return n;
}

// The shape each array of the launch has in a result: a global or constant array's own; a
// __shared__ one's per-block shape when its block is kept, else none.
std::vector<std::vector<uint64_t>> expected_shapes(const ModelLaunch& l) {
    std::vector<std::vector<uint64_t>> shapes;
    for (const ArraySpec& a : l.spec->arrays)
        shapes.push_back(a.space != MemorySpace::Shared || l.shared_block != UINT64_MAX ? a.shape(l.params, l.launch)
                                                                                        : std::vector<uint64_t>{});
    return shapes;
}

// What an honest result holds at most beyond its arrays: a finding's sentence (with the names
// in it), the memory view's sites (a site per line, load or store, array and access width).
constexpr uint64_t kMaxMessageBytes = 16384;
constexpr uint64_t kFindingBytes = 5 * 8 + 2 * sizeof(FindingThread) + 256 + 3 * 8 + kMaxMessageBytes;
constexpr uint64_t kMaxSites = uint64_t(1) << 16;

// Whether `s` is UTF-8 (what the reports write it into, JSON, must be).
bool utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
        i += n;
    }
    return true;
}

bool valid_thread(uint32_t id, uint64_t threads) { return id == ElementRecord::kNone || id < threads; }

std::optional<std::string> check_array(const ArrayResult& a, const std::vector<uint64_t>& shape, uint32_t words,
                                       uint64_t threads, bool shared) {
    if (a.shape != shape) return "its shape";
    const uint64_t n = volume(shape);
    if (shape.empty()) {  // a __shared__ array whose block was not kept: nothing
        if (!a.bits.empty() || !a.records.empty() || !a.found.empty() || !a.past.empty())
            return "data for a block that was not kept";
        return std::nullopt;
    }
    if (a.bits.size() != n * words) return "its values";
    if (!a.records.empty() && a.records.size() != n) return "its records";
    if (!a.found.empty() && a.found.size() != n) return "its findings per element";
    for (const ElementRecord& r : a.records)
        if (!valid_thread(r.first_writer, threads) || !valid_thread(r.first_reader, threads) || r.writers > threads ||
            r.readers > threads)
            return "a record's thread";
    if (a.threads_writing > threads || a.threads_reading > threads) return "its threads";
    if (a.past.size() > past_window(n) || (shared && !a.past.empty() && a.records.empty()))
        return "its accesses past the end";
    for (const PastRecord& p : a.past)
        if (!valid_thread(p.first_writer, threads) || !valid_thread(p.first_reader, threads))
            return "a thread past the end";
    return std::nullopt;
}

std::optional<std::string> check_finding(const Finding& f, const ModelLaunch& l) {
    if (size_t(f.kind) >= kFindingKinds) return "its kind";
    if (f.threads.size() > 2) return "its threads";
    for (const FindingThread& t : f.threads)
        if (t.block.x >= l.launch.grid.x || t.block.y >= l.launch.grid.y || t.block.z >= l.launch.grid.z ||
            t.thread.x >= l.launch.block.x || t.thread.y >= l.launch.block.y || t.thread.z >= l.launch.block.z)
            return "a thread outside the launch";
    if (!f.array.empty() && l.spec->array_index(f.array) == l.spec->arrays.size()) return "its array";
    if (f.index.size() > 3) return "its index";
    if (f.line < 0 || f.message.size() > kMaxMessageBytes || !utf8(f.message)) return "its line or sentence";
    return std::nullopt;
}

std::optional<std::string> check_memory(const MemoryView& m, const ModelLaunch& l) {
    const size_t arrays = l.spec->arrays.size();
    if (m.sites.size() > kMaxSites) return "its sites";
    for (const MemorySite& s : m.sites)
        if (s.array >= arrays || uint8_t(s.op) > 1 || int(s.space) < 0 || int(s.space) > 2 || s.line < 0 ||
            !(s.access_bytes == 1 || s.access_bytes == 2 || s.access_bytes == 4 || s.access_bytes == 8 ||
              s.access_bytes == 16))
            return "a site";
    if (m.costs.size() != arrays || m.places.size() != arrays) return "its arrays";
    for (size_t a = 0; a < arrays; ++a) {
        const uint64_t n = volume(l.spec->arrays[a].shape(l.params, l.launch));
        if (!m.costs[a].empty() && m.costs[a].size() != n) return "an array's costs";
        const uint32_t b = m.places[a].element_bytes;
        if (!(b == 1 || b == 2 || b == 4 || b == 8)) return "an array's element size";
    }
    if (m.kept_requests.size() > kMaxKeptRequests) return "its kept requests";
    const size_t kept = l.keep_requests;
    if (!m.kept_requests.empty() && kept >= arrays) return "requests of no array";
    const uint64_t kept_size = kept < arrays ? volume(l.spec->arrays[kept].shape(l.params, l.launch)) : 0;
    for (const KeptRequest& k : m.kept_requests) {
        if (k.request.width == 0 || k.request.width > 16 || k.line < 0) return "a kept request";
        for (uint32_t lane = 0; lane < kWarpLanes; ++lane)
            if ((k.request.mask >> lane & 1) && uint64_t(k.request.index[lane]) + k.request.width > kept_size)
                return "a kept request's element";
    }
    if (!m.kept_request_of.empty()) {
        if (m.kept_request_of.size() != kept_size) return "the requests per element";
        for (uint32_t r : m.kept_request_of)
            if (r != MemoryView::kNoRequest && r >= m.kept_requests.size()) return "a request per element";
    }
    return std::nullopt;
}

}  // namespace

uint64_t largest_result_bytes(const ModelLaunch& l) {
    uint64_t bytes = 4096;
    for (const ArraySpec& a : l.spec->arrays) {
        const uint64_t n = volume(a.shape(l.params, l.launch));
        bytes += 256 + n * (4 * uint64_t(value_words(a.type)) + sizeof(ElementRecord) + 1 + sizeof(ElementCost) + 4) +
                 past_window(n) * sizeof(PastRecord);
    }
    bytes += ModelResult::kMaxListedFindings * kFindingBytes;
    bytes += l.launch.threads_per_block() + 64;                      // a diverged block's sides
    bytes += ModelResult::kMaxUndefinedShuffles * sizeof(uint32_t);  // shuffles
    bytes += kMaxSites * sizeof(MemorySite) + kMaxKeptRequests * sizeof(KeptRequest);
    bytes += 64 + WatchedElement::kListed * sizeof(ElementToucher);
    return bytes;
}

std::optional<std::string> check_result_fits(const ModelResult& r, const ModelLaunch& l) {
    const auto wrong = [](const std::string& what) { return std::optional<std::string>(what); };
    const KernelSpec& spec = *l.spec;
    if (r.arrays.size() != spec.arrays.size()) return wrong("the number of arrays");
    const uint64_t threads = l.launch.blocks() * l.launch.threads_per_block();
    const auto shapes = expected_shapes(l);
    for (size_t a = 0; a < r.arrays.size(); ++a)
        if (auto why = check_array(r.arrays[a], shapes[a], value_words(spec.arrays[a].type), threads,
                                   spec.arrays[a].space == MemorySpace::Shared))
            return wrong("array " + spec.arrays[a].name + ": " + *why);
    if (r.findings.size() > ModelResult::kMaxListedFindings) return wrong("the number of findings");
    for (const Finding& f : r.findings)
        if (auto why = check_finding(f, l)) return wrong("a finding: " + *why);
    if (r.diverged) {
        const DivergedBlock& d = *r.diverged;
        if (d.block >= l.launch.blocks() || d.sides.size() != l.launch.threads_per_block() || d.line < 0)
            return wrong("the diverged block");
        for (BarrierSide s : d.sides)
            if (uint8_t(s) > uint8_t(BarrierSide::Exited)) return wrong("a thread of the diverged block");
    }
    if (r.undefined_shuffles.size() > ModelResult::kMaxUndefinedShuffles) return wrong("the shuffles");
    for (uint32_t id : r.undefined_shuffles)
        if (id >= threads) return wrong("a shuffle's thread");
    if (r.phases == 0) return wrong("the phases");
    if (r.memory.has_value() != l.record_requests) return wrong("the memory view");
    if (r.memory)
        if (auto why = check_memory(*r.memory, l)) return wrong("the memory view: " + *why);
    if (r.watched.has_value() != (l.record_elements && l.watch_array != SIZE_MAX)) return wrong("the watched element");
    if (r.watched) {
        const WatchedElement& w = *r.watched;
        if (w.listed.size() > WatchedElement::kListed || w.listed.size() > w.threads || w.threads > threads ||
            w.threads > w.accesses)
            return wrong("the watched element's threads");
        for (const ElementToucher& t : w.listed)
            if (t.thread >= threads || t.read_line < 0 || t.write_line < 0 || t.ops == 0 || t.ops > 7)
                return wrong("a watched element's thread");
    }
    return std::nullopt;
}

}  // namespace threadmap
