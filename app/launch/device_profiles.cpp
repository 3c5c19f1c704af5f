// Device profiles; see device_profiles.hpp.
#include "app/launch/device_profiles.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/launch/catalog.hpp"
#include "app/launch/json_numbers.hpp"
#include "kernels/occupancy/sm_properties.hpp"

namespace threadmap {

extern const EmbeddedFile kEmbeddedDevices[];  // assets/devices/*.json, see app/launch/CMakeLists.txt
extern const int kEmbeddedDevicesCount;

namespace {

DeviceProfile read_device_profile(const std::string& text) {
    try {
        const auto j = nlohmann::json::parse(text);
        DeviceProfile p;
        p.name = j.at("name").get<std::string>();
        p.title = j.at("title").get<std::string>();
        for (const ProfileField& field : profile_fields()) {
            const std::string key = field.key;
            if (!j.contains(key)) throw std::runtime_error(key + " is missing");
            const auto& f = j.at(key);
            double& value = p.*field.value;
            value = f.at("value").get<double>();
            p.sources[key] = f.at("source").get<std::string>();
            if (!(value >= 0) || p.sources[key].empty())
                throw std::runtime_error(key + " needs a value of at least 0 and a source");
            if (f.contains("range")) {  // [low, high] around the value, from the same source
                const auto r = f.at("range").get<std::vector<double>>();
                if (r.size() != 2 || !(r[0] >= 0) || !(r[0] <= value) || !(value <= r[1]))
                    throw std::runtime_error(key + ": range must be [low, high] with low <= value <= high");
                p.ranges[key] = {r[0], r[1]};
            }
        }
        if (!j.contains("gpu")) throw std::runtime_error("gpu is missing");
        const auto& gpu = j.at("gpu");
        const SmProperties* sm = find_sm_properties(gpu.at("compute_capability").get<std::string>());
        if (!sm)
            throw std::runtime_error("gpu.compute_capability must be one the build targets: " + sm_property_names());
        p.cc_major = sm->major;
        p.cc_minor = sm->minor;
        p.sms = json_number<int>(gpu.at("sms"), "gpu.sms");
        p.gpu_source = gpu.at("source").get<std::string>();
        if (p.sms < 1 || p.gpu_source.empty()) throw std::runtime_error("gpu needs at least 1 SM and a source");
        if (p.pinned_gbps <= 0 || p.pageable_gbps <= 0 || p.memory_gbps <= 0 || p.fp32_gflops <= 0 ||
            p.fp64_gflops <= 0)
            throw std::runtime_error("bandwidths and FP32 and FP64 peaks must be above 0");
        if (!(p.memory_efficiency > 0 && p.memory_efficiency <= 1) ||
            (p.ranges.count("memory_efficiency") && p.ranges["memory_efficiency"].first <= 0) ||
            (p.ranges.count("memory_efficiency") && p.ranges["memory_efficiency"].second > 1))
            throw std::runtime_error("memory_efficiency is a fraction of the spec sheet: above 0, at most 1");
        return p;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("malformed device profile: ") + e.what());
    }
}

}  // namespace

Outcome<DeviceProfile> parse_device_profile(const std::string& text) {
    try {
        return {read_device_profile(text), {}};
    } catch (const std::exception& e) {
        return {std::nullopt, e.what()};
    }
}

namespace {

const Catalog<DeviceProfile>& profile_catalog() {
    static const Catalog<DeviceProfile> all(kEmbeddedDevices, kEmbeddedDevicesCount, parse_device_profile);
    return all;
}

}  // namespace

const std::vector<DeviceProfile>& device_profiles() { return profile_catalog().items(); }
const DeviceProfile* find_device_profile(const std::string& name) { return profile_catalog().find(name); }
std::string device_profile_names() { return profile_catalog().names(); }

Outcome<const DeviceProfile*> profile_to_model(const std::string& given, const std::string& lesson) {
    const std::string name = !given.empty() ? given : lesson;
    if (name.empty()) return failed("--backend model needs --device-profile NAME (" + device_profile_names() + ")");
    if (const DeviceProfile* p = find_device_profile(name)) return {p, {}};
    return failed("unknown device profile '" + name + "'; the profiles are: " + device_profile_names());
}

Outcome<TimingBackend> timing_backend(const std::string& backend, const std::string& given, const std::string& lesson) {
    if (backend != "model") return {TimingBackend{nullptr, backend}, {}};
    const auto profile = profile_to_model(given, lesson);
    if (!profile.value) return failure_of(profile);
    return {TimingBackend{*profile.value, "cpu"}, {}};
}

}  // namespace threadmap
