// THREADMAP_ASAN: 1 in a build with AddressSanitizer (GCC's or Clang's), else 0. Code that maps
// memory on its own (fiber stacks) or limits it (a learner's kernel's process) needs to know.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define THREADMAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define THREADMAP_ASAN 1
#endif
#endif
#ifndef THREADMAP_ASAN
#define THREADMAP_ASAN 0
#endif
