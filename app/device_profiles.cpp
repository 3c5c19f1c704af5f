// Device profiles; see device_profiles.hpp.
#include "device_profiles.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "catalog.hpp"

namespace threadmap {

extern const EmbeddedFile kEmbeddedDevices[];  // assets/devices/*.json, see app/CMakeLists.txt
extern const int kEmbeddedDevicesCount;

DeviceProfile parse_device_profile(const std::string& text) {
    try {
        const auto j = nlohmann::json::parse(text);
        DeviceProfile p;
        p.name = j.at("name").get<std::string>();
        p.title = j.at("title").get<std::string>();
        const std::pair<const char*, double*> fields[] = {{"pinned_gbps", &p.pinned_gbps},
                                                          {"pageable_gbps", &p.pageable_gbps},
                                                          {"copy_latency_s", &p.copy_latency_s},
                                                          {"memory_gbps", &p.memory_gbps},
                                                          {"fp32_gflops", &p.fp32_gflops},
                                                          {"launch_latency_s", &p.launch_latency_s},
                                                          {"startup_s", &p.startup_s}};
        for (const auto& [key, value] : fields) {
            const auto& f = j.at(key);
            *value = f.at("value").get<double>();
            p.sources[key] = f.at("source").get<std::string>();
            if (!(*value >= 0) || p.sources[key].empty())
                throw std::runtime_error(std::string(key) + " needs a value of at least 0 and a source");
        }
        if (p.pinned_gbps <= 0 || p.pageable_gbps <= 0 || p.memory_gbps <= 0 || p.fp32_gflops <= 0)
            throw std::runtime_error("bandwidths and FP32 peak must be above 0");
        return p;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("malformed device profile: ") + e.what());
    }
}

namespace {

const Catalog<DeviceProfile>& catalog() {
    static const Catalog<DeviceProfile> all(kEmbeddedDevices, kEmbeddedDevicesCount, parse_device_profile);
    return all;
}

}  // namespace

const std::vector<DeviceProfile>& device_profiles() { return catalog().items(); }
const DeviceProfile* find_device_profile(const std::string& name) { return catalog().find(name); }
std::string device_profile_names() { return catalog().names(); }

}  // namespace threadmap
