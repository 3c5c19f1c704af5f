// `threadmap check`; see check_command.hpp.
#include "check_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "findings_report.hpp"
#include "model_launch.hpp"

namespace threadmap {

namespace {

constexpr size_t kTextFindings = 20;  // a terminal's worth; JSON lists up to kMaxListedFindings
constexpr const char* kModelNote =
    "findings are the emulator's model of CUDA's rules (threads run one after another between barriers), "
    "not a GPU's observation";

}  // namespace

void add_check_command(CLI::App& app, CheckCommandOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "check", "Run a launch in the kernel model and print its findings (exit 0: none, 3: some, 2: bad usage)");
    add_launch_options(*cmd, o.launch);
    cmd->get_option("--backend")->description("check always runs in the kernel model on the CPU");
    cmd->add_option("--format", o.format, "text | json")->check(CLI::IsMember({"text", "json"}));
}

int run_check_command(const CheckCommandOptions& o) {
    if (o.launch.backend == "cuda") {
        std::fprintf(stderr,
                     "threadmap: check runs in the kernel model on the CPU; --backend cuda is for map and bench\n");
        return 2;
    }
    const auto launch = resolve_model_launch(o.launch);
    if (!launch.value) {
        std::fprintf(stderr, "threadmap: %s\n", launch.error.c_str());
        return 2;
    }
    const ModelLaunch& l = *launch.value;
    if (auto problem = check_model_launch(l)) {
        std::fprintf(stderr, "threadmap: %s\n", problem->c_str());
        return 2;
    }
    const auto run = run_model(l);
    if (!run.value) {
        std::fprintf(stderr, "threadmap: %s\n", run.error.c_str());
        return failed_run_exit(l);
    }
    const ModelResult& r = *run.value;
    const bool any = !r.findings.empty();
    if (o.format == "json") {
        nlohmann::json j = {{"kernel", l.spec->name},
                            {"launch",
                             {{"grid", {l.launch.grid.x, l.launch.grid.y, l.launch.grid.z}},
                              {"block", {l.launch.block.x, l.launch.block.y, l.launch.block.z}}}},
                            {"findings", findings_json(r)},
                            {"counts", finding_counts_json(r)},
                            {"listed_at_most", ModelResult::kMaxListedFindings},
                            {"ended_early", r.ended_early},
                            {"model", kModelNote}};
        std::cout << j.dump(1) << "\n";
        return any ? 3 : 0;
    }
    std::cout << l.spec->name << " on grid " << to_string(l.launch.grid) << ", block " << to_string(l.launch.block)
              << ": " << findings_summary(r.counts) << "\n";
    for (size_t i = 0; i < std::min(r.findings.size(), kTextFindings); ++i) {
        const Finding& f = r.findings[i];
        std::cout << finding_kind_name(f.kind) << " (line " << f.line << "): " << f.message << "\n";
    }
    uint64_t total = 0;
    for (uint64_t c : r.counts) total += c;
    if (total > kTextFindings)
        std::cout << "... " << total - std::min<uint64_t>(total, kTextFindings)
                  << " more (each kind once per element; --format json lists the first "
                  << ModelResult::kMaxListedFindings << ")\n";
    if (r.ended_early) std::cout << "the launch ended at the divergent barrier\n";
    std::cout << "(" << kModelNote << ")\n";
    return any ? 3 : 0;
}

}  // namespace threadmap
