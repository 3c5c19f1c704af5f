// `threadmap check`; see check_command.hpp.
#include "app/commands/check_command.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/reports/findings_report.hpp"
#include "app/reports/printed_report.hpp"
#include "app/reports/launch_sweep.hpp"
#include "app/launch/model_launch.hpp"

namespace threadmap {

namespace {

constexpr size_t kTextFindings = 20;  // a terminal's worth; JSON lists up to kMaxListedFindings
constexpr const char* kModelNote =
    "findings are the emulator's model of CUDA's rules (threads run one after another between barriers), "
    "not a GPU's observation";

}  // namespace

namespace {

nlohmann::json launch_json(const LaunchConfig& launch) {
    return {{"grid", {launch.grid.x, launch.grid.y, launch.grid.z}},
            {"block", {launch.block.x, launch.block.y, launch.block.z}}};
}

// A learner's kernel's warnings (`warnings`: Clang's text; empty for a built-in kernel): printed
// before the report, in JSON as "warnings".
const char* const kWarningsHeading = "Clang's warnings (the kernel compiled and ran as written):\n";

int report_sweep(const ModelLaunch& model_launch, const std::optional<ModelLaunch>& expected, const std::string& format,
                 const std::string& warnings) {
    const auto sweep = sweep_launches(model_launch, nullptr, expected ? &*expected : nullptr);
    if (!sweep.value) {
        std::fprintf(stderr, "threadmap: %s\n", sweep.error.c_str());
        return failed_run_exit(model_launch);
    }
    const LaunchSweep& s = *sweep.value;
    bool all_agree = true;
    for (const SweptLaunch& w : s.launches) all_agree = all_agree && w.agrees();
    if (format == "json") {
        nlohmann::json launches = nlohmann::json::array();
        for (const SweptLaunch& w : s.launches) {
            std::array<uint64_t, kFindingKinds> counts = w.counts;
            nlohmann::json c = nlohmann::json::object();
            for (size_t k = 0; k < kFindingKinds; ++k) c[finding_kind_name(FindingKind(k))] = counts[k];
            launches.push_back({{"why", w.why},
                                {"launch", launch_json(w.launch)},
                                {"error", w.error.empty() ? nlohmann::json() : nlohmann::json(w.error)},
                                {"compared", w.compared},
                                {"differing", w.differing},
                                {"first_difference", w.first_difference},
                                {"counts", c},
                                {"agrees", w.agrees()}});
        }
        nlohmann::json ref = nlohmann::json::object();
        for (size_t k = 0; k < kFindingKinds; ++k) ref[finding_kind_name(FindingKind(k))] = s.reference_counts[k];
        nlohmann::json j{{"kernel", model_launch.spec->name},
                         {"reference", {{"launch", launch_json(model_launch.launch)}, {"counts", ref}}},
                         {"expected", s.expected},
                         {"launches", launches},
                         {"not_compared", s.not_compared},
                         {"model", kModelNote}};
        if (!warnings.empty()) j["warnings"] = warnings;
        std::cout << j.dump(1) << "\n";
        return all_agree ? 0 : 3;
    }
    if (!warnings.empty()) std::cout << kWarningsHeading << warnings << "\n";
    std::cout << model_launch.spec->name << ": your launch (grid " << to_string(model_launch.launch.grid) << ", block "
              << to_string(model_launch.launch.block) << ") has " << findings_summary(s.reference_counts) << "; ";
    if (s.expected)
        std::cout
            << "it and " << s.launches.size() - 1
            << " awkward launches compared with the expected result (values; a launch should have no findings):\n";
    else
        std::cout << s.launches.size() << " awkward launches compared with it:\n";
    for (const SweptLaunch& w : s.launches)
        std::cout << (w.agrees() ? "  same     " : "  DIFFERS  ") << swept_launch_text(w) << "\n";
    for (const std::string& a : s.not_compared)
        std::cout << "(" << a << " is not compared: its shape follows the launch)\n";
    std::cout << (all_agree ? "every launch gives your launch's result and findings\n"
                            : "some launches give another result or other findings: those are where the kernel's "
                              "indexing or guards depend on the launch\n");
    return all_agree ? 0 : 3;
}

// `check --format json`: the launch, its findings and their counts, the accesses it made, what it printed.
void write_check_json(const ModelLaunch& model_launch, const ModelResult& result, const std::string& warnings) {
    nlohmann::json j = {
        {"kernel", model_launch.spec->name},
        {"launch",
         {{"grid", {model_launch.launch.grid.x, model_launch.launch.grid.y, model_launch.launch.grid.z}},
          {"block", {model_launch.launch.block.x, model_launch.launch.block.y, model_launch.launch.block.z}}}},
        {"findings", findings_json(result)},
        {"counts", finding_counts_json(result)},
        {"listed_at_most", ModelResult::kMaxListedFindings},
        {"ended_early", result.ended_early},
        {"accesses", result.accesses},
        {"model", kModelNote}};
    if (result.printed.calls > 0) j["printed"] = printed_json(result.printed);
    if (!warnings.empty()) j["warnings"] = warnings;
    std::cout << j.dump(1) << "\n";
}

// `check` as text: the compiler's warnings (often the bug: `if (i = n)`) before the findings,
// as a compiler shows them, then the first findings in a learner's words and what it printed.
void write_check_text(const ModelLaunch& model_launch, const ModelResult& result, const std::string& warnings) {
    if (!warnings.empty()) std::cout << kWarningsHeading << warnings << "\n";
    std::cout << model_launch.spec->name << " on grid " << to_string(model_launch.launch.grid) << ", block "
              << to_string(model_launch.launch.block) << ": " << findings_summary(result.counts) << "\n";
    for (size_t i = 0; i < std::min(result.findings.size(), kTextFindings); ++i) {
        const Finding& f = result.findings[i];
        std::cout << finding_kind_title(f.kind) << " (line " << f.line << "): " << f.message << "\n";
    }
    uint64_t total = 0;
    for (uint64_t c : result.counts) total += c;
    if (total > kTextFindings)
        std::cout << "... " << total - std::min<uint64_t>(total, kTextFindings)
                  << " more (each kind once per element; --format json lists the first "
                  << ModelResult::kMaxListedFindings << ")\n";
    if (result.ended_early) std::cout << "the launch ended at the divergent barrier\n";
    std::cout << "(" << kModelNote << ")\n" << std::flush;
    write_printed(stdout, model_launch.spec->name, result.printed);
}

}  // namespace

int run_check_command(const CheckCommandOptions& o) {
    if (o.launch.backend == "cuda") {
        std::fprintf(stderr,
                     "threadmap: check runs in the kernel model on the CPU; --backend cuda is for map and bench\n");
        return 2;
    }
    if (const Outcome<void> refused = phase_not_applicable(o.launch, "check", "the findings"); !refused.done()) {
        std::fprintf(stderr, "threadmap: %s\n", refused.error.c_str());
        return 2;
    }
    LaunchOptions options = o.launch;
    options.sweep_expected = o.sweep_launches;  // --expect is what the sweep compares with
    const auto resolved = resolve_launch(options);
    const Outcome<ModelLaunch> launch = resolved.value ? Outcome<ModelLaunch>{model_launch_for(*resolved.value), {}}
                                                       : Outcome<ModelLaunch>(failure_of(resolved));
    if (!launch.value) {
        std::fprintf(stderr, "threadmap: %s\n", launch.error.c_str());
        return 2;
    }
    ModelLaunch model_launch = *launch.value;
    model_launch.keep_records = 0;  // the findings, not who touched each element
    if (const Outcome<void> problem = check_model_launch(model_launch); !problem.done()) {
        std::fprintf(stderr, "threadmap: %s\n", problem.error.c_str());
        return 2;
    }
    if (o.sweep_launches) {
        std::optional<ModelLaunch> expected;  // one thread runs the learner's --expect statement
        if (const auto& m = resolved.value->model; m && m->expected) {
            expected.emplace();
            expected->spec = m->expected;
            expected->launch = {{1, 1, 1}, {1, 1, 1}};
            expected->keep = model_launch.keep;
        }
        return report_sweep(model_launch, expected, o.format,
                            resolved.value->model ? resolved.value->model->warnings : "");
    }
    const auto run = run_model(model_launch);
    if (!run.value) {
        std::fprintf(stderr, "threadmap: %s\n", run.error.c_str());
        return failed_run_exit(model_launch);
    }
    const std::string& warnings = resolved.value->model ? resolved.value->model->warnings : std::string();
    if (o.format == "json")
        write_check_json(model_launch, *run.value, warnings);
    else
        write_check_text(model_launch, *run.value, warnings);
    return run.value->findings.empty() ? 0 : 3;
}

}  // namespace threadmap
