// Device profiles for the timing model: assets/devices/*.json, embedded at build time.
// Every number in a profile carries its source; a profile missing one is refused.
#pragma once

#include <string>
#include <vector>

#include "kernels/core/outcome.hpp"
#include "kernels/timing/timing_model.hpp"

namespace threadmap {

// Parses one profile, or says what is wrong with it (the field by name).
Outcome<DeviceProfile> parse_device_profile(const std::string& json_text);

const std::vector<DeviceProfile>& device_profiles();  // sorted by name
const DeviceProfile* find_device_profile(const std::string& name);
std::string device_profile_names();  // "a, b, c"
// The profile `--backend model` times with: --device-profile's, else the lesson's; a message
// when neither names one, or the name is unknown.
Outcome<const DeviceProfile*> profile_to_model(const std::string& given, const std::string& lesson);

// What a timing command runs a launch with: for `--backend model`, the profile it times with
// (profile_to_model) and the CPU's backend, whose limits check the launch; for any other
// backend, no profile and the backend as given.
struct TimingBackend {
    const DeviceProfile* model = nullptr;
    std::string backend;
};
Outcome<TimingBackend> timing_backend(const std::string& backend, const std::string& given, const std::string& lesson);

}  // namespace threadmap
