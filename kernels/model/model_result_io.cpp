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

std::string serialize_result(const ModelResult& result) {
    Writer w;
    w.value(kMagic);
    w.value(uint64_t(result.arrays.size()));
    for (const ArrayResult& a : result.arrays) {
        w.vector(a.shape);
        w.vector(a.bits);
        w.vector(a.records);
        w.vector(a.found);
        w.value(a.threads_writing);
        w.value(a.threads_reading);
        w.vector(a.past);
        w.value(a.past_elsewhere);
    }
    w.value(uint64_t(result.findings.size()));
    for (const Finding& f : result.findings) {
        w.value(f.kind);
        w.vector(f.threads);
        w.string(f.array);
        w.vector(f.index);
        w.value(f.line);
        w.string(f.message);
    }
    w.value(result.counts);
    w.value(result.ended_early);
    w.value(result.diverged.has_value());
    if (result.diverged) {
        w.value(result.diverged->block);
        w.value(result.diverged->line);
        w.vector(result.diverged->sides);
    }
    w.vector(result.undefined_shuffles);
    w.value(result.phases);
    w.value(result.accesses);
    w.value(result.memory.has_value());
    if (result.memory) {
        w.vector(result.memory->sites);
        w.value(uint64_t(result.memory->costs.size()));
        for (const auto& c : result.memory->costs) w.vector(c);
        w.vector(result.memory->kept_requests);
        w.vector(result.memory->kept_request_of);
        w.value(result.memory->kept_capped);
        w.vector(result.memory->places);
    }
    w.value(result.watched.has_value());
    if (result.watched) {
        w.vector(result.watched->listed);
        w.value(result.watched->threads);
        w.value(result.watched->accesses);
    }
    w.value(kMagic);
    return std::move(w.out);
}

std::optional<ModelResult> deserialize_result(std::string_view bytes) {
    Reader in(bytes);
    ModelResult result;
    uint64_t magic = 0, n = 0;
    if (!in.value(magic) || magic != kMagic || !in.value(n) || n > bytes.size()) return std::nullopt;
    result.arrays.resize(n);
    for (ArrayResult& a : result.arrays)
        if (!in.vector(a.shape) || !in.vector(a.bits) || !in.vector(a.records) || !in.vector(a.found) ||
            !in.value(a.threads_writing) || !in.value(a.threads_reading) || !in.vector(a.past) ||
            !in.value(a.past_elsewhere))
            return std::nullopt;
    if (!in.value(n) || n > bytes.size()) return std::nullopt;
    result.findings.resize(n);
    for (Finding& f : result.findings)
        if (!in.value(f.kind) || !in.vector(f.threads) || !in.string(f.array) || !in.vector(f.index) ||
            !in.value(f.line) || !in.string(f.message))
            return std::nullopt;
    bool memory = false, diverged = false;
    if (!in.value(result.counts) || !in.flag(result.ended_early) || !in.flag(diverged)) return std::nullopt;
    if (diverged) {
        DivergedBlock d;
        if (!in.value(d.block) || !in.value(d.line) || !in.vector(d.sides)) return std::nullopt;
        result.diverged = std::move(d);
    }
    if (!in.vector(result.undefined_shuffles)) return std::nullopt;
    if (!in.value(result.phases) || !in.value(result.accesses) || !in.flag(memory)) return std::nullopt;
    if (memory) {
        MemoryView m;
        if (!in.vector(m.sites) || !in.value(n) || n > bytes.size()) return std::nullopt;
        m.costs.resize(n);
        for (auto& c : m.costs)
            if (!in.vector(c)) return std::nullopt;
        if (!in.vector(m.kept_requests) || !in.vector(m.kept_request_of) || !in.flag(m.kept_capped) ||
            !in.vector(m.places))
            return std::nullopt;
        result.memory = std::move(m);
    }
    bool watched = false;
    if (!in.flag(watched)) return std::nullopt;
    if (watched) {
        WatchedElement w;
        if (!in.vector(w.listed) || !in.value(w.threads) || !in.value(w.accesses)) return std::nullopt;
        result.watched = std::move(w);
    }
    if (!in.value(magic) || magic != kMagic || !in.done()) return std::nullopt;
    return result;
}

namespace {

uint64_t volume(const std::vector<uint64_t>& shape) {
    uint64_t n = 1;
    for (uint64_t side : shape) n *= side;
    return n;
}

// The shape each array of the launch has in a result: a global or constant array's own; a
// __shared__ one's per-block shape when its block is kept, else none.
std::vector<std::vector<uint64_t>> expected_shapes(const ModelLaunch& model_launch) {
    std::vector<std::vector<uint64_t>> shapes;
    for (const ArraySpec& a : model_launch.spec->arrays)
        shapes.push_back(a.space != MemorySpace::Shared || model_launch.shared_block != UINT64_MAX
                             ? a.shape(model_launch.params, model_launch.launch)
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

Outcome<void> check_array(const ArrayResult& a, const std::vector<uint64_t>& shape, uint32_t words, uint64_t threads,
                          bool shared) {
    if (a.shape != shape) return failed("its shape");
    const uint64_t n = volume(shape);
    if (shape.empty()) {  // a __shared__ array whose block was not kept: nothing
        if (!a.bits.empty() || !a.records.empty() || !a.found.empty() || !a.past.empty())
            return failed("data for a block that was not kept");
        return done();
    }
    if (a.bits.size() != n * words) return failed("its values");
    if (!a.records.empty() && a.records.size() != n) return failed("its records");
    if (!a.found.empty() && a.found.size() != n) return failed("its findings per element");
    for (const ElementRecord& r : a.records)
        if (!valid_thread(r.first_writer, threads) || !valid_thread(r.first_reader, threads) || r.writers > threads ||
            r.readers > threads)
            return failed("a record's thread");
    if (a.threads_writing > threads || a.threads_reading > threads) return failed("its threads");
    if (a.past.size() > past_window(n) || (shared && !a.past.empty() && a.records.empty()))
        return failed("its accesses past the end");
    for (const PastRecord& p : a.past)
        if (!valid_thread(p.first_writer, threads) || !valid_thread(p.first_reader, threads))
            return failed("a thread past the end");
    return done();
}

std::optional<std::string> check_finding(const Finding& f, const ModelLaunch& model_launch) {
    if (size_t(f.kind) >= kFindingKinds) return "its kind";
    if (f.threads.size() > 2) return "its threads";
    for (const FindingThread& t : f.threads)
        if (t.block.x >= model_launch.launch.grid.x || t.block.y >= model_launch.launch.grid.y ||
            t.block.z >= model_launch.launch.grid.z || t.thread.x >= model_launch.launch.block.x ||
            t.thread.y >= model_launch.launch.block.y || t.thread.z >= model_launch.launch.block.z)
            return "a thread outside the launch";
    if (!f.array.empty() && model_launch.spec->array_index(f.array) == model_launch.spec->arrays.size())
        return "its array";
    if (f.index.size() > 3) return "its index";
    if (f.line < 0 || f.message.size() > kMaxMessageBytes || !utf8(f.message)) return "its line or sentence";
    return std::nullopt;
}

std::optional<std::string> check_memory(const MemoryView& m, const ModelLaunch& model_launch) {
    const size_t arrays = model_launch.spec->arrays.size();
    if (m.sites.size() > kMaxSites) return "its sites";
    for (const MemorySite& s : m.sites)
        if (s.array >= arrays || uint8_t(s.op) > 1 || int(s.space) < 0 || int(s.space) > 2 || s.line < 0 ||
            !(s.access_bytes == 1 || s.access_bytes == 2 || s.access_bytes == 4 || s.access_bytes == 8 ||
              s.access_bytes == 16))
            return "a site";
    if (m.costs.size() != arrays || m.places.size() != arrays) return "its arrays";
    for (size_t a = 0; a < arrays; ++a) {
        const uint64_t n = volume(model_launch.spec->arrays[a].shape(model_launch.params, model_launch.launch));
        const bool costed = model_launch.cost_array == SIZE_MAX || model_launch.cost_array == a;
        if (m.costs[a].size() != (costed ? n : 0)) return "an array's costs";
        const uint32_t b = m.places[a].element_bytes;
        if (!(b == 1 || b == 2 || b == 4 || b == 8)) return "an array's element size";
    }
    if (m.kept_requests.size() > kMaxKeptRequests) return "its kept requests";
    const size_t kept = model_launch.keep_requests;
    if (!m.kept_requests.empty() && kept >= arrays) return "requests of no array";
    const uint64_t kept_size =
        kept < arrays ? volume(model_launch.spec->arrays[kept].shape(model_launch.params, model_launch.launch)) : 0;
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

uint64_t largest_result_bytes(const ModelLaunch& model_launch) {
    uint64_t bytes = 4096;
    for (const ArraySpec& a : model_launch.spec->arrays) {
        const uint64_t n = volume(a.shape(model_launch.params, model_launch.launch));
        bytes += 256 + n * (4 * uint64_t(value_words(a.type)) + sizeof(ElementRecord) + 1 + sizeof(ElementCost) + 4) +
                 past_window(n) * sizeof(PastRecord);
    }
    bytes += ModelResult::kMaxListedFindings * kFindingBytes;
    bytes += model_launch.launch.threads_per_block() + 64;           // a diverged block's sides
    bytes += ModelResult::kMaxUndefinedShuffles * sizeof(uint32_t);  // shuffles
    bytes += kMaxSites * sizeof(MemorySite) + kMaxKeptRequests * sizeof(KeptRequest);
    bytes += 64 + WatchedElement::kListed * sizeof(ElementToucher);
    return bytes;
}

Outcome<void> check_result_fits(const ModelResult& result, const ModelLaunch& model_launch) {
    const auto wrong = [](const std::string& what) { return failed(what); };
    const KernelSpec& spec = *model_launch.spec;
    if (result.arrays.size() != spec.arrays.size()) return wrong("the number of arrays");
    const uint64_t threads = model_launch.launch.blocks() * model_launch.launch.threads_per_block();
    const auto shapes = expected_shapes(model_launch);
    for (size_t a = 0; a < result.arrays.size(); ++a)
        if (const Outcome<void> why = check_array(result.arrays[a], shapes[a], value_words(spec.arrays[a].type),
                                                  threads, spec.arrays[a].space == MemorySpace::Shared);
            !why.done())
            return wrong("array " + spec.arrays[a].name + ": " + why.error);
    if (result.findings.size() > ModelResult::kMaxListedFindings) return wrong("the number of findings");
    for (const Finding& f : result.findings)
        if (auto why = check_finding(f, model_launch)) return wrong("a finding: " + *why);
    if (result.diverged) {
        const DivergedBlock& d = *result.diverged;
        if (d.block >= model_launch.launch.blocks() || d.sides.size() != model_launch.launch.threads_per_block() ||
            d.line < 0)
            return wrong("the diverged block");
        for (BarrierSide s : d.sides)
            if (uint8_t(s) > uint8_t(BarrierSide::Exited)) return wrong("a thread of the diverged block");
    }
    if (result.undefined_shuffles.size() > ModelResult::kMaxUndefinedShuffles) return wrong("the shuffles");
    for (uint32_t id : result.undefined_shuffles)
        if (id >= threads) return wrong("a shuffle's thread");
    if (result.phases == 0) return wrong("the phases");
    if (result.memory.has_value() != model_launch.record_requests) return wrong("the memory view");
    if (result.memory)
        if (auto why = check_memory(*result.memory, model_launch)) return wrong("the memory view: " + *why);
    if (result.watched.has_value() != (model_launch.record_elements && model_launch.watch_array != SIZE_MAX))
        return wrong("the watched element");
    if (result.watched) {
        const WatchedElement& w = *result.watched;
        if (w.listed.size() > WatchedElement::kListed || w.listed.size() > w.threads || w.threads > threads ||
            w.threads > w.accesses)
            return wrong("the watched element's threads");
        for (const ElementToucher& t : w.listed)
            if (t.thread >= threads || t.read_line < 0 || t.write_line < 0 || t.ops == 0 || t.ops > 7)
                return wrong("a watched element's thread");
    }
    return done();
}

}  // namespace threadmap
