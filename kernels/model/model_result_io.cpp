#include "model_result_io.hpp"

#include <cstring>
#include <type_traits>

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
    if (!in.value(r.counts) || !in.value(r.ended_early) || !in.value(diverged)) return std::nullopt;
    if (diverged) {
        DivergedBlock d;
        if (!in.value(d.block) || !in.value(d.line) || !in.vector(d.sides)) return std::nullopt;
        r.diverged = std::move(d);
    }
    if (!in.vector(r.undefined_shuffles)) return std::nullopt;
    if (!in.value(r.phases) || !in.value(r.accesses) || !in.value(memory)) return std::nullopt;
    if (memory) {
        MemoryView m;
        if (!in.vector(m.sites) || !in.value(n) || n > bytes.size()) return std::nullopt;
        m.costs.resize(n);
        for (auto& c : m.costs)
            if (!in.vector(c)) return std::nullopt;
        if (!in.vector(m.kept_requests) || !in.vector(m.kept_request_of) || !in.value(m.kept_capped) ||
            !in.vector(m.places))
            return std::nullopt;
        r.memory = std::move(m);
    }
    if (!in.value(magic) || magic != kMagic || !in.done()) return std::nullopt;
    return r;
}

}  // namespace threadmap
