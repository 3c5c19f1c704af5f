// `threadmap map`; see map_command.hpp.
#include "map_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "backend_choice.hpp"
#include "cpu_emulator.hpp"
#include "map_report.hpp"
#include "model_launch.hpp"
#include "lessons.hpp"
#include "model_map_report.hpp"

namespace threadmap {

void add_map_command(CLI::App& app, MapCommandOptions& o) {
    auto* cmd = app.add_subcommand("map", "Print which thread touches which element, and the launch statistics");
    add_launch_options(*cmd, o.launch);
    cmd->add_option("--format", o.format, "table | csv | json (default table)")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    cmd->add_flag("--no-elements", o.no_elements, "Statistics only");
    cmd->add_option("--array", o.array,
                    "Map this array of the kernel (threadmap kernels lists them; default: its output)");
    cmd->add_option("--access", o.access, "write | read: who wrote or who read each element (default write)")
        ->check(CLI::IsMember({"write", "read"}));
}

namespace {

// The kernel model's map: --array, --access, or a kernel only the model runs.
int run_model_map(const MapCommandOptions& o, MapFormat format) {
    const auto fail = [](const std::string& why, int code) {
        std::fprintf(stderr, "threadmap map: %s\n", why.c_str());
        return code;
    };
    if (o.launch.backend == "cuda") return fail("--array and --access map in the kernel model on the CPU", 2);
    const auto resolved = resolve_launch(o.launch);
    if (!resolved.value) return fail(resolved.error, 2);
    const ModelLaunch launch = model_launch_for(*resolved.value);
    const KernelSpec& spec = *launch.spec;
    size_t array = o.array.empty() && resolved.value->model ? resolved.value->model->array : spec.arrays.size();
    std::string globals;
    for (size_t a = 0; a < spec.arrays.size(); ++a) {
        if (spec.arrays[a].space != MemorySpace::Global) continue;
        globals += (globals.empty() ? "" : ", ") + spec.arrays[a].name;
        const bool output = spec.arrays[a].role == ArrayRole::Output || spec.arrays[a].role == ArrayRole::InOut;
        if (o.array.empty() ? output && array == spec.arrays.size() : spec.arrays[a].name == o.array) array = a;
    }
    if (array == spec.arrays.size()) {
        const size_t named = spec.array_index(o.array);
        if (named < spec.arrays.size())
            return fail(o.array + " is __shared__ (one copy per block); map one of " + spec.name +
                            "'s global arrays: " + globals,
                        2);
        return fail("kernel " + spec.name + " has no array '" + o.array + "' (its arrays: " + globals + ")", 2);
    }
    const auto run = run_model(launch);
    if (!run.value) return fail(run.error, 2);
    const ModelMapReport report{launch, *run.value, array, o.access == "read", !o.no_elements};
    if (!write_model_map_report(stdout, report, format)) return fail("could not write the output", 1);
    return 0;
}

}  // namespace

int run_map_command(const MapCommandOptions& o) {
    const MapFormat format = o.format == "json"  ? MapFormat::Json
                             : o.format == "csv" ? MapFormat::Csv
                                                 : MapFormat::Table;
    const bool model_only_kernel = (!o.launch.kernel.empty() && !parse_kernel(o.launch.kernel)) ||
                                   (o.launch.kernel.empty() && !o.launch.preset.empty() &&
                                    find_lesson(o.launch.preset) && find_lesson(o.launch.preset)->model);
    if (!o.array.empty() || !o.access.empty() || o.launch.any_param() || model_only_kernel)
        return run_model_map(o, format);
    const auto fail = [](const std::string& why, int code) {
        std::fprintf(stderr, "threadmap map: %s\n", why.c_str());
        return code;
    };
    // The map is copied back to the host either way: the emulator's caps bound its size.
    const PrepareResult prepared = prepare_launch(o.launch);
    if (!prepared.value) return fail(prepared.error, 2);
    const BackendChoice& b = prepared.value->backend;
    const ResolvedLaunch& r = prepared.value->launch;
    Outcome<LaunchResult> run = b.executor->run(r.workload, r.launch);
    if (!run.value) return fail(run.error, 1);
    LaunchResult& e = *run.value;
    b.executor->fetch_map(e);  // every element is printed (or counted): the map comes to the host
    MapReport report{r.workload, e, b.name, !o.no_elements, nullptr, {}};
    // JSON carries the kernel model's findings for the same launch (as `check` gives them).
    std::optional<Outcome<ModelResult>> checked;
    if (format == MapFormat::Json) {
        checked = run_model(model_launch_for(r));
        if (checked->value)
            report.findings = &*checked->value;
        else
            report.findings_not_checked = checked->error;
    }
    if (!write_map_report(stdout, report, format)) {
        std::fprintf(stderr, "threadmap map: could not write the output\n");
        return 1;
    }
    return 0;
}

}  // namespace threadmap
