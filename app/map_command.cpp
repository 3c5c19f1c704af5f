// `threadmap map`; see map_command.hpp.
#include "map_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "backend_choice.hpp"
#include "cpu_emulator.hpp"
#include "map_report.hpp"

namespace threadmap {

void add_map_command(CLI::App& app, MapCommandOptions& o) {
    auto* cmd = app.add_subcommand("map", "Print which thread touches which element, and the launch statistics");
    add_launch_options(*cmd, o.launch);
    cmd->add_option("--format", o.format, "table | csv | json (default table)")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    cmd->add_flag("--no-elements", o.no_elements, "Statistics only");
}

int run_map_command(const MapCommandOptions& o) {
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
    const MapFormat format = o.format == "json"  ? MapFormat::Json
                             : o.format == "csv" ? MapFormat::Csv
                                                 : MapFormat::Table;
    const MapReport report{r.workload, e, b.name, !o.no_elements};
    if (!write_map_report(stdout, report, format)) {
        std::fprintf(stderr, "threadmap map: could not write the output\n");
        return 1;
    }
    return 0;
}

}  // namespace threadmap
