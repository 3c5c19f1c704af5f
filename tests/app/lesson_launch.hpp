// A lesson's launch, resolved as the CLI and the window resolve --preset NAME (test helper).
#pragma once

#include <doctest/doctest.h>

#include "app/launch/launch_options.hpp"

inline threadmap::ResolvedLaunch lesson_launch(const std::string& name) {
    threadmap::LaunchOptions o;
    o.preset = name;
    auto r = threadmap::resolve_launch(o);
    REQUIRE_MESSAGE(r.value, r.error);
    return *r.value;
}
