// `threadmap map`; see map_command.hpp.
#include "map_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "cpu_emulator.hpp"
#include "launch_check.hpp"
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
    const auto checked = check_launch(o.launch);
    if (!checked.value) {
        std::fprintf(stderr, "threadmap map: %s\n", checked.error.c_str());
        return 2;
    }
    const auto& r = *checked.value;
    const Emulation e = emulate(r.workload, r.launch);
    const MapFormat format = o.format == "json" ? MapFormat::Json
                             : o.format == "csv" ? MapFormat::Csv
                                                 : MapFormat::Table;
    const MapReport report{r.workload, e, "cpu-emulator", !o.no_elements};
    if (!write_map_report(stdout, report, format)) {
        std::fprintf(stderr, "threadmap map: could not write the output\n");
        return 1;
    }
    return 0;
}

}  // namespace threadmap
