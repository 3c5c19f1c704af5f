// Checked file reads and atomic writes; see input_file.hpp.
#include "app/launch/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace threadmap {

Outcome<std::string> read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return {std::nullopt, "cannot read the " + what + " " + path + ": " + std::strerror(errno)};
    if (S_ISDIR(st.st_mode)) return {std::nullopt, "the " + what + " " + path + " is a directory, not a file"};
    if (!S_ISREG(st.st_mode))
        return {std::nullopt, "the " + what + " " + path + " is not a regular file (a pipe, socket or device)"};
    if (uint64_t(st.st_size) > max_bytes)
        return {std::nullopt, "the " + what + " " + path + " is " + std::to_string(st.st_size) + " bytes, above the " +
                                  std::to_string(max_bytes) + " a " + what + " may have"};
    // O_NONBLOCK: should the path have turned into a FIFO since stat, open does not wait.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return {std::nullopt, "cannot read the " + what + " " + path + ": " + std::strerror(errno)};
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            return {std::nullopt, "cannot read the " + what + " " + path + ": " + why};
        }
        content.append(buffer, size_t(n));
        if (content.size() > max_bytes) {  // it grew while we read
            ::close(fd);
            return {std::nullopt, "the " + what + " " + path + " is above the " + std::to_string(max_bytes) +
                                      " bytes a " + what + " may have"};
        }
    }
    ::close(fd);
    return {std::move(content), {}};
}

bool path_exists(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0;
}

Outcome<void> write_file(const std::string& path, const std::string& content) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return failed("cannot write " + path + ": " + std::strerror(errno));
    const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0;
    const int saved_errno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed)
        return failed("cannot write " + path + ": " + std::strerror(saved_errno ? saved_errno : EIO));
    return done();
}

Outcome<void> write_file_atomically(const std::string& path, const std::string& content) {
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    std::FILE* f = std::fopen(temporary.c_str(), "wb");
    if (!f) return failed("cannot write " + temporary + ": " + std::strerror(errno));
    const bool written = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    const int saved_errno = errno;
    const bool closed = std::fclose(f) == 0;
    if (!written || !flushed || !closed) {
        std::remove(temporary.c_str());
        return failed("cannot write " + path + ": " + std::strerror(saved_errno ? saved_errno : EIO));
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(temporary.c_str());
        return failed("cannot replace " + path + ": " + why);
    }
    return done();
}

}  // namespace threadmap
