// Resources of a built-in kernel's launch; see launch_resources.hpp.
#include "kernels/occupancy/launch_resources.hpp"

#include "kernels/builtin/compiled_resources.hpp"

namespace threadmap {

Outcome<LaunchResources> launch_resources(const ModelLaunch& model_launch, const SmProperties& sm,
                                          std::optional<int> registers, std::optional<uint64_t> shared_bytes) {
    LaunchResources r;
    if (registers) {
        r.resources.registers_per_thread = *registers;
        r.registers_origin = "given (--registers)";
    } else {
        const CompiledResources* c = find_compiled_resources(model_launch.spec->name, sm.sm());
        if (!c)
            return {std::nullopt, "no compiler figures for " + model_launch.spec->name + " on compute capability " +
                                      sm.name() + "; give --registers R"};
        r.resources.registers_per_thread = c->registers;
        r.registers_origin = std::string(kCompiledResourcesNvcc) + " for sm_" + std::to_string(sm.sm());
    }
    if (shared_bytes) {
        r.resources.shared_bytes_per_block = *shared_bytes;
        r.shared_origin = "given (--shared-bytes)";
    } else {
        r.resources.shared_bytes_per_block =
            shared_bytes_per_block(*model_launch.spec, model_launch.params, model_launch.launch.block);
        r.shared_origin = "the kernel's __shared__ arrays at blockDim " + to_string(model_launch.launch.block);
    }
    return {r, ""};
}

}  // namespace threadmap
