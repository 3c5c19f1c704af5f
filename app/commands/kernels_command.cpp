// `threadmap kernels`; see kernels_command.hpp.
#include "app/commands/kernels_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "kernels/builtin/compiled_resources.hpp"
#include "kernels/builtin/registry.hpp"

namespace threadmap {

namespace {

// "float32", "int32", "uint8", … ("bool", "bfloat16").
std::string type_name(ValueType t) {
    if (t == ValueType::Bool) return "bool";
    if (t == ValueType::BFloat16) return "bfloat16";
    return std::string(value_is_float(t)    ? "float"
                       : value_is_signed(t) ? "int"
                                            : "uint") +
           std::to_string(8 * value_bytes(t));
}
const char* role_name(ArrayRole r) {
    switch (r) {
        case ArrayRole::Input:
            return "input";
        case ArrayRole::Output:
            return "output";
        case ArrayRole::InOut:
            return "input and output";
        case ArrayRole::Scratch:
            return "scratch";
    }
    return "?";
}

bool uses_shared(const KernelSpec& spec) {
    for (const ArraySpec& a : spec.arrays)
        if (a.space == MemorySpace::Shared) return true;
    return false;
}

std::string default_text(const KernelSpec& spec, const ParamSpec& p) {
    return p.default_from < spec.params.size() ? "--" + spec.params[p.default_from].name
                                               : std::to_string(p.default_value);
}

}  // namespace

int run_kernels_command(const KernelsCommandOptions& o) {
    if (o.format == "json") {
        nlohmann::json list = nlohmann::json::array();
        for (const KernelSpec* spec : builtin_kernels()) {
            nlohmann::json params = nlohmann::json::array(), arrays = nlohmann::json::array();
            for (const ParamSpec& p : spec->params)
                params.push_back({{"name", p.name}, {"help", p.help}, {"default", default_text(*spec, p)}});
            for (const ArraySpec& a : spec->arrays)
                arrays.push_back({{"name", a.name},
                                  {"space", memory_space_name(a.space)},
                                  {"type", type_name(a.type)},
                                  {"role", role_name(a.role)}});
            nlohmann::json compiled = nlohmann::json::object();
            for (const CompiledResources& r : kCompiledResources)
                if (spec->name == r.kernel)
                    compiled[std::to_string(r.sm / 10) + "." + std::to_string(r.sm % 10)] = {
                        {"registers", r.registers},
                        {"barriers", r.barriers},
                        {"static_shared_bytes", r.static_shared_bytes}};
            list.push_back({{"name", spec->name},
                            {"summary", spec->summary},
                            {"params", params},
                            {"arrays", arrays},
                            {"default_block", {spec->default_block.x, spec->default_block.y, spec->default_block.z}},
                            {"shared_memory", uses_shared(*spec)},
                            {"barriers", spec->uses_barriers},
                            {"atomics", spec->uses_atomics},
                            {"cuda_source", spec->cuda_source},
                            {"compiled", compiled},
                            {"compiled_with", kCompiledResourcesNvcc}});
        }
        std::cout << nlohmann::json{{"kernels", list}}.dump(1) << "\n";
        return 0;
    }
    for (const KernelSpec* spec : builtin_kernels()) {
        std::cout << spec->name << "\n  " << spec->summary << "\n  parameters:";
        for (const ParamSpec& p : spec->params)
            std::cout << " --" << p.name << " (" << p.help << "; default " << default_text(*spec, p) << ")";
        std::cout << "\n  arrays:";
        for (size_t i = 0; i < spec->arrays.size(); ++i) {
            const ArraySpec& a = spec->arrays[i];
            std::cout << (i ? ", " : " ") << a.name << " (" << memory_space_name(a.space) << " " << type_name(a.type)
                      << ", " << role_name(a.role) << ")";
        }
        std::cout << "\n  block " << to_string(spec->default_block)
                  << "; shared memory: " << (uses_shared(*spec) ? "yes" : "no")
                  << "; barriers: " << (spec->uses_barriers ? "yes" : "no")
                  << "; atomics: " << (spec->uses_atomics ? "yes" : "no") << "\n";
    }
    return 0;
}

}  // namespace threadmap
