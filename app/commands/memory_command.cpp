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
    if (const Outcome<void> refused = phase_not_applicable(o.launch, "memory", "the requests"); !refused.done()) {
        std::fprintf(stderr, "threadmap: %s\n", refused.error.c_str());
        return 2;
    }
    auto launch = resolve_model_launch(o.launch);
    if (!launch.value) {
        std::fprintf(stderr, "threadmap: %s\n", launch.error.c_str());
        return 2;
    }
    ModelLaunch& model_launch = *launch.value;
    model_launch.record_requests = true;
    model_launch.record_elements = false;  // the view needs no records or hazards: faster, far less memory
    if (const Outcome<void> problem = check_model_launch(model_launch); !problem.done()) {
        std::fprintf(stderr, "threadmap: %s\n", problem.error.c_str());
        return 2;
    }
    const auto run = run_model(model_launch);
    if (!run.value) {
        std::fprintf(stderr, "threadmap: %s\n", run.error.c_str());
        return failed_run_exit(model_launch);
    }
    const MemoryView& view = *run.value->memory;
    if (o.json)
        std::cout << memory_json(model_launch, view.sites).dump(1) << "\n";
    else if (o.csv)
        std::cout << memory_csv(model_launch, view.sites);
    else
        std::cout << memory_text(model_launch, view.sites);
    return 0;
}

}  // namespace threadmap
