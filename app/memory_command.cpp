// `threadmap memory`; see memory_command.hpp.
#include "memory_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "memory_report.hpp"
#include "model_launch.hpp"

namespace threadmap {

void add_memory_command(CLI::App& app, MemoryCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "memory",
        "Warp requests of a launch: global sectors per request (coalescing), shared-memory bank conflicts and active "
        "lanes, per source line and in all, counted in the kernel model as Nsight Compute counts them");
    add_launch_options(*cmd, o.launch);
    cmd->get_option("--backend")->description("memory runs in the kernel model on the CPU");
    auto* json = cmd->add_flag("--json", o.json, "JSON: kernel, launch, sites, totals, model (README has the schema)");
    cmd->add_flag("--csv", o.csv, "CSV: one row per access site")->excludes(json);
}

int run_memory_command(const MemoryCommandOptions& o) {
    if (o.launch.backend == "cuda") {
        std::fprintf(stderr,
                     "threadmap: memory runs in the kernel model on the CPU; --backend cuda is for map and "
                     "bench\n");
        return 2;
    }
    if (const auto refused = phase_not_applicable(o.launch, "memory", "the requests")) {
        std::fprintf(stderr, "threadmap: %s\n", refused->c_str());
        return 2;
    }
    auto launch = resolve_model_launch(o.launch);
    if (!launch.value) {
        std::fprintf(stderr, "threadmap: %s\n", launch.error.c_str());
        return 2;
    }
    ModelLaunch& l = *launch.value;
    l.record_requests = true;
    l.record_elements = false;  // the view needs no records or hazards: faster, far less memory
    if (auto problem = check_model_launch(l)) {
        std::fprintf(stderr, "threadmap: %s\n", problem->c_str());
        return 2;
    }
    const auto run = run_model(l);
    if (!run.value) {
        std::fprintf(stderr, "threadmap: %s\n", run.error.c_str());
        return failed_run_exit(l);
    }
    const MemoryView& view = *run.value->memory;
    if (o.json)
        std::cout << memory_json(l, view.sites).dump(1) << "\n";
    else if (o.csv)
        std::cout << memory_csv(l, view.sites);
    else
        std::cout << memory_text(l, view.sites);
    return 0;
}

}  // namespace threadmap
