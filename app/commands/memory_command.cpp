// `threadmap memory`; see memory_command.hpp.
#include "app/commands/memory_command.hpp"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/reports/memory_report.hpp"
#include "app/launch/model_launch.hpp"

namespace threadmap {

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
