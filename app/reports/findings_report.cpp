// Findings as JSON and text; see findings_report.hpp.
#include "app/reports/findings_report.hpp"

#include <nlohmann/json.hpp>

#include "app/reports/lesson_text.hpp"

namespace threadmap {

namespace {

nlohmann::json dim(const Dim3& d) { return {d.x, d.y, d.z}; }

// "write-write race" / "write-write races"
std::string kind_words(FindingKind kind, uint64_t n) {
    static const char* const singular[] = {"out-of-bounds access", "write-write race", "read-write hazard",
                                           "uninitialised read", "divergent barrier"};
    std::string s = singular[size_t(kind)];
    if (n != 1) s += kind == FindingKind::OutOfBounds ? "es" : "s";
    return s;
}

}  // namespace

nlohmann::json findings_json(const ModelResult& result) {
    nlohmann::json list = nlohmann::json::array();
    for (const Finding& f : result.findings) {
        nlohmann::json threads = nlohmann::json::array();
        for (const FindingThread& t : f.threads)
            threads.push_back({{"block", dim(t.block)}, {"thread", dim(t.thread)}});
        // An index before an array's start (a learner's a[i - 1] at i = 0) is negative.
        nlohmann::json index = nlohmann::json::array();
        for (uint64_t i : f.index)
            index.push_back(i > uint64_t(INT64_MAX) ? nlohmann::json(int64_t(i)) : nlohmann::json(i));
        list.push_back({{"kind", finding_kind_name(f.kind)},
                        {"threads", threads},
                        {"array", f.array},
                        {"index", index},
                        {"line", f.line},
                        {"message", f.message}});
    }
    return list;
}

nlohmann::json finding_counts_json(const ModelResult& result) {
    nlohmann::json counts = nlohmann::json::object();
    for (size_t k = 0; k < kFindingKinds; ++k) counts[finding_kind_name(FindingKind(k))] = result.counts[k];
    return counts;
}

std::string findings_summary(const std::array<uint64_t, kFindingKinds>& counts, bool grouped_digits) {
    std::string s;
    for (size_t k = 0; k < kFindingKinds; ++k) {
        if (counts[k] == 0) continue;
        const std::string count = grouped_digits ? grouped(counts[k]) : std::to_string(counts[k]);
        s += (s.empty() ? "" : ", ") + count + " " + kind_words(FindingKind(k), counts[k]);
    }
    return s.empty() ? "no findings" : s;
}

}  // namespace threadmap
