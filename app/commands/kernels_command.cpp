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

bool uses_shared(const KernelSpec& k) {
    for (const ArraySpec& a : k.arrays)
        if (a.space == MemorySpace::Shared) return true;
    return false;
}

std::string default_text(const KernelSpec& k, const ParamSpec& p) {
    return p.default_from < k.params.size() ? "--" + k.params[p.default_from].name : std::to_string(p.default_value);
}

}  // namespace

int run_kernels_command(const KernelsCommandOptions& o) {
    if (o.format == "json") {
        nlohmann::json list = nlohmann::json::array();
        for (const KernelSpec* k : builtin_kernels()) {
            nlohmann::json params = nlohmann::json::array(), arrays = nlohmann::json::array();
            for (const ParamSpec& p : k->params)
                params.push_back({{"name", p.name}, {"help", p.help}, {"default", default_text(*k, p)}});
            for (const ArraySpec& a : k->arrays)
                arrays.push_back({{"name", a.name},
                                  {"space", memory_space_name(a.space)},
                                  {"type", type_name(a.type)},
                                  {"role", role_name(a.role)}});
            nlohmann::json compiled = nlohmann::json::object();
            for (const CompiledResources& r : kCompiledResources)
                if (k->name == r.kernel)
                    compiled[std::to_string(r.sm / 10) + "." + std::to_string(r.sm % 10)] = {
                        {"registers", r.registers},
                        {"barriers", r.barriers},
                        {"static_shared_bytes", r.static_shared_bytes}};
            list.push_back({{"name", k->name},
                            {"summary", k->summary},
                            {"params", params},
                            {"arrays", arrays},
                            {"default_block", {k->default_block.x, k->default_block.y, k->default_block.z}},
                            {"shared_memory", uses_shared(*k)},
                            {"barriers", k->uses_barriers},
                            {"atomics", k->uses_atomics},
                            {"cuda_source", k->cuda_source},
                            {"compiled", compiled},
                            {"compiled_with", kCompiledResourcesNvcc}});
        }
        std::cout << nlohmann::json{{"kernels", list}}.dump(1) << "\n";
        return 0;
    }
    for (const KernelSpec* k : builtin_kernels()) {
        std::cout << k->name << "\n  " << k->summary << "\n  parameters:";
        for (const ParamSpec& p : k->params)
            std::cout << " --" << p.name << " (" << p.help << "; default " << default_text(*k, p) << ")";
        std::cout << "\n  arrays:";
        for (size_t i = 0; i < k->arrays.size(); ++i) {
            const ArraySpec& a = k->arrays[i];
            std::cout << (i ? ", " : " ") << a.name << " (" << memory_space_name(a.space) << " " << type_name(a.type)
                      << ", " << role_name(a.role) << ")";
        }
        std::cout << "\n  block " << to_string(k->default_block)
                  << "; shared memory: " << (uses_shared(*k) ? "yes" : "no")
                  << "; barriers: " << (k->uses_barriers ? "yes" : "no")
                  << "; atomics: " << (k->uses_atomics ? "yes" : "no") << "\n";
    }
    return 0;
}

}  // namespace threadmap
