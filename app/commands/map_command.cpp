// `threadmap map`; see map_command.hpp.
#include "app/commands/map_command.hpp"

#include <cstdio>

#include "app/launch/backend_choice.hpp"
#include "kernels/emulator/cpu_emulator.hpp"
#include "app/reports/map_report.hpp"
#include "app/launch/model_launch.hpp"
#include "app/launch/launch_check.hpp"
#include "app/reports/model_map_report.hpp"
#include "app/reports/printed_report.hpp"

namespace threadmap {

namespace {

// The kernel model's map: --array, --access, or a kernel only the model runs.
int run_model_map(const MapCommandOptions& o, const ResolvedLaunch& resolved, MapFormat format) {
    const auto fail = [](const std::string& why, int code) {
        std::fprintf(stderr, "threadmap map: %s\n", why.c_str());
        return code;
    };
    if (o.launch.backend == "cuda")
        return fail(
            "this map is made in the kernel model on the CPU (--array, --access, or a kernel only the model "
            "runs): --backend cuda does not apply",
            2);
    const CheckedLaunch checked = check_resolved(resolved);
    if (!checked.value) return fail(checked.error, 2);
    const ModelLaunch launch = model_launch_for(resolved);
    const size_t array = resolved.model->array;
    const auto run = run_model(launch);
    if (!run.value) return fail(run.error, failed_run_exit(launch));
    if (const Outcome<void> missing = missing_phase(launch.phase, run.value->phases); !missing.done())
        return fail(missing.error, 2);
    const ModelMapReport report{launch, *run.value, array, resolved.model->reads, !o.no_elements};
    if (!write_model_map_report(stdout, report, format)) return fail("could not write the output", 1);
    // A table is read by a person: the kernel's printf text follows it; CSV stays CSV.
    if (format != MapFormat::Json)
        write_printed(format == MapFormat::Table ? stdout : stderr, launch.spec->name, run.value->printed);
    return 0;
}

}  // namespace

int run_map_command(const MapCommandOptions& o) {
    const MapFormat format = o.format == "json"  ? MapFormat::Json
                             : o.format == "csv" ? MapFormat::Csv
                                                 : MapFormat::Table;
    const auto resolved = resolve_launch(o.launch);
    if (resolved.value && resolved.value->model) return run_model_map(o, *resolved.value, format);
    if (!o.launch.source.empty()) {  // its compile errors, once
        std::fprintf(stderr, "threadmap map: %s\n", resolved.error.c_str());
        return 2;
    }
    const auto fail = [](const std::string& why, int code) {
        std::fprintf(stderr, "threadmap map: %s\n", why.c_str());
        return code;
    };
    // The map is copied back to the host either way: the emulator's caps bound its size.
    const PrepareResult prepared = prepare_launch(o.launch);
    if (!prepared.value) return fail(prepared.error, 2);
    const BackendChoice& b = prepared.value->backend;
    const ResolvedLaunch& prepared_launch = prepared.value->launch;
    // JSON carries the kernel model's findings for the same launch (as `check` gives them):
    // found first, and only they kept, so that the model's state and the map are never held at once.
    std::optional<Outcome<ModelResult>> checked;
    if (format == MapFormat::Json) {
        ModelLaunch findings_only = model_launch_for(prepared_launch);
        findings_only.keep_records = 0;  // the map is the emulator's
        checked = run_model(findings_only);
        if (checked->value) checked->value->arrays = {};
    }
    Outcome<LaunchResult> run = b.executor->run(prepared_launch.workload, prepared_launch.launch);
    if (!run.value) return fail(run.error, 1);
    LaunchResult& result = *run.value;
    // Every element is printed (or counted): the map comes to the host.
    if (const Outcome<void> fetched = b.executor->fetch_map(result); !fetched.done()) return fail(fetched.error, 1);
    MapReport report{prepared_launch.workload, result, b.name, !o.no_elements, nullptr, {}};
    if (checked && checked->value)
        report.findings = &*checked->value;
    else if (checked)
        report.findings_not_checked = checked->error;
    if (!write_map_report(stdout, report, format)) {
        std::fprintf(stderr, "threadmap map: could not write the output\n");
        return 1;
    }
    return 0;
}

}  // namespace threadmap
