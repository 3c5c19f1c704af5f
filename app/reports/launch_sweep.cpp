// The awkward launches; see launch_sweep.hpp.
#include "app/reports/launch_sweep.hpp"

#include <algorithm>
#include <optional>

#include "app/reports/findings_report.hpp"

namespace threadmap {

namespace {

bool written(const ArraySpec& a) {
    return a.space == MemorySpace::Global && (a.role == ArrayRole::Output || a.role == ArrayRole::InOut);
}

std::string index_text(const std::vector<uint64_t>& shape, uint64_t flat) {
    if (shape.size() == 2) return "[" + std::to_string(flat / shape[1]) + "][" + std::to_string(flat % shape[1]) + "]";
    return "[" + std::to_string(flat) + "]";
}

}  // namespace

bool SweptLaunch::agrees() const { return error.empty() && differing == 0 && !findings_changed; }

std::vector<std::pair<std::string, LaunchConfig>> awkward_launches(const KernelSpec& spec, const Params& p,
                                                                   const LaunchConfig& reference) {
    const Dim3 b = reference.block;
    const bool two_d = b.y > 1;
    const auto covering = [&](Dim3 block) { return LaunchConfig{spec.covering_grid(p, block), block}; };
    std::vector<std::pair<std::string, LaunchConfig>> out = {
        {"the grid that covers the data for this block", covering(b)},
        {"a single block", {{1, 1, 1}, b}},
        {"many small blocks (32 threads)", covering(two_d ? Dim3{8, 4, 1} : Dim3{32, 1, 1})},
        {"a block that does not divide the data", covering(two_d ? Dim3{12, 10, 1} : Dim3{100, 1, 1})},
        {"a 2-D block", covering(two_d ? Dim3{32, 2, 1} : Dim3{16, 4, 1})},
        {"a 3-D block", covering(Dim3{8, 4, 2})},
        {"one block of 1,024 threads", {{1, 1, 1}, two_d ? Dim3{32, 32, 1} : Dim3{1024, 1, 1}}},
    };
    LaunchConfig half = covering(b);
    half.grid.x = std::max(1u, half.grid.x / 2);
    out.push_back({"a grid smaller than the data (half the blocks along x)", half});
    LaunchConfig deeper = covering(b);
    deeper.grid.y = deeper.grid.y * 2;
    deeper.grid.z = 2;
    out.push_back({"more blocks along y and z than the data needs", deeper});
    std::vector<std::pair<std::string, LaunchConfig>> unique;
    for (auto& l : out) {
        if (l.second == reference) continue;
        bool seen = false;
        for (const auto& u : unique) seen |= u.second == l.second;
        if (!seen) unique.push_back(std::move(l));
    }
    return unique;
}

namespace {

// The written global arrays of `got` against `want`'s arrays of the same name and shape (by
// name: an expectation's kernel has the learner's parameters but no __shared__ arrays).
void compare_values(const KernelSpec& spec, const ModelResult& got, const KernelSpec& want_spec,
                    const ModelResult& want_result, const std::string& want_leaves, SweptLaunch& s) {
    for (size_t a = 0; a < spec.arrays.size(); ++a) {
        if (!written(spec.arrays[a])) continue;
        const size_t w = want_spec.array_index(spec.arrays[a].name);
        if (w == want_spec.arrays.size()) continue;
        const ArrayResult& want = want_result.arrays[w];
        const ArrayResult& have = got.arrays[a];
        if (want.shape != have.shape) continue;  // a partial sum per block: listed in not_compared
        const ValueType type = spec.arrays[a].type;
        for (size_t e = 0; e < want.bits.size() / value_words(type); ++e) {
            ++s.compared;
            if (same_value(type, want.bits, have.bits, e)) continue;
            if (s.differing++ == 0)
                s.first_difference = spec.arrays[a].name + index_text(want.shape, e) + " is " +
                                     value_text(type, have.bits, e) + ", " + want_leaves + " " +
                                     value_text(type, want.bits, e);
        }
    }
}

}  // namespace

namespace {

struct Want {  // what every launch of a sweep is compared with
    const KernelSpec& spec;
    const ModelResult& result;
    std::string leaves;  // "the reference launch leaves", in the sentence of a difference
    std::array<uint64_t, kFindingKinds> counts;
};

// A launch's findings and values against the wanted ones.
void judge(const KernelSpec& spec, const ModelResult& run, const Want& want, SweptLaunch& s) {
    s.counts = run.counts;
    s.findings_changed = s.counts != want.counts;
    compare_values(spec, run, want.spec, want.result, want.leaves, s);
}

// The written arrays whose shape follows the launch (or that the expectation lacks): their
// values cannot be compared.
std::vector<std::string> arrays_not_compared(const ModelLaunch& reference, const Want& want,
                                             const std::vector<SweptLaunch>& launches) {
    const KernelSpec& spec = *reference.spec;
    std::vector<std::string> names;
    for (size_t a = 0; a < spec.arrays.size(); ++a) {
        if (!written(spec.arrays[a])) continue;
        const size_t w = want.spec.array_index(spec.arrays[a].name);
        for (const SweptLaunch& s : launches)
            if (w == want.spec.arrays.size() ||
                spec.arrays[a].shape(reference.params, s.launch) != want.result.arrays[w].shape) {
                names.push_back(spec.arrays[a].name);
                break;
            }
    }
    return names;
}

}  // namespace

Outcome<LaunchSweep> sweep_launches(const ModelLaunch& reference, const std::atomic<bool>* cancel,
                                    const ModelLaunch* expected) {
    const KernelSpec& spec = *reference.spec;
    const auto cancelled = [&] { return cancel && cancel->load(); };
    // The sweep compares values and counts findings: no per-element records.
    ModelLaunch base = reference;
    base.keep_records = 0;
    const auto ref = run_model(base, cancel);
    if (cancelled()) return cancellation();
    if (!ref.value) return {std::nullopt, "the reference launch did not run: " + ref.error};
    std::optional<Outcome<ModelResult>> truth;
    if (expected) {
        ModelLaunch want_launch = *expected;
        want_launch.keep_records = 0;
        truth = run_model(want_launch, cancel);
        if (cancelled()) return cancellation();
        if (!truth->value) return {std::nullopt, "--expect did not run: " + truth->error};
    }
    // What every launch is compared with: the expected result, or the reference launch's; the
    // findings a launch should have are the reference launch's, or with an expectation none (a
    // right result with a race or an out-of-bounds access is luck).
    const Want want{expected ? *expected->spec : spec, expected ? *truth->value : *ref.value,
                    expected ? "the expected result is" : "the reference launch leaves",
                    expected ? std::array<uint64_t, kFindingKinds>{} : ref.value->counts};
    LaunchSweep sweep;
    sweep.reference_counts = ref.value->counts;
    sweep.expected = expected != nullptr;
    if (expected) {  // the learner's own launch, against the expectation
        SweptLaunch own;
        own.why = "your launch";
        own.launch = reference.launch;
        judge(spec, *ref.value, want, own);
        sweep.launches.push_back(std::move(own));
    }
    for (const auto& [why, launch] : awkward_launches(spec, reference.params, reference.launch)) {
        SweptLaunch s;
        s.why = why;
        s.launch = launch;
        ModelLaunch model_launch = base;
        model_launch.launch = launch;
        if (const Outcome<void> problem = check_model_launch(model_launch); !problem.done()) {
            s.error = problem.error;
            sweep.launches.push_back(std::move(s));
            continue;
        }
        const auto run = run_model(model_launch, cancel);
        if (cancelled()) return cancellation();
        if (!run.value) {
            s.error = run.error;
            sweep.launches.push_back(std::move(s));
            continue;
        }
        judge(spec, *run.value, want, s);
        sweep.launches.push_back(std::move(s));
    }
    sweep.not_compared = arrays_not_compared(reference, want, sweep.launches);
    return {std::move(sweep), {}};
}

std::string swept_launch_text(const SweptLaunch& w) {
    std::string s = w.why + " (grid " + to_string(w.launch.grid) + ", block " + to_string(w.launch.block) + ")";
    if (!w.error.empty()) return s + ": did not run: " + w.error;
    if (w.differing)
        s += ": " + std::to_string(w.differing) + " of " + std::to_string(w.compared) + " elements differ (" +
             w.first_difference + ")";
    if (w.findings_changed) s += (w.differing ? "; " : ": ") + findings_summary(w.counts);
    return s;
}

}  // namespace threadmap
