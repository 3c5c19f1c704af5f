// Reading and writing the files a learner hands us (recordings, settings, replay scripts):
// a path is checked before it is opened — a directory, FIFO or device is refused without
// blocking, and so is a file above its kind's size cap — and every refusal is one sentence
// naming the file. Writes go to a temporary file renamed into place, so a crash or a full
// disk never leaves half a file where a good one was.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/core/outcome.hpp"

namespace threadmap {

// Size caps per kind of file, far above any real one.
inline constexpr uint64_t kMaxRecordingBytes = 4u << 20;  // a bench --json report is about 2 KB
inline constexpr uint64_t kMaxSettingsBytes = 1u << 20;   // settings.json is about 300 bytes
inline constexpr uint64_t kMaxReplayBytes = 4u << 20;     // a replay script is a few KB

// The whole file. `what` names the kind for messages ("recording", "replay script").
Outcome<std::string> read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what);

// Whether `path` names something that exists (a file, a directory, anything).
bool path_exists(const std::string& path);

// Writes `content` to path.tmp-PID, flushes it, renames it over `path`: for our own files
// (settings), never for a path a user names (which may be a device such as /dev/null).
Outcome<void> write_file_atomically(const std::string& path, const std::string& content);

// Writes `content` to `path` itself, every step checked (a full disk is an error).
Outcome<void> write_file(const std::string& path, const std::string& content);

}  // namespace threadmap
