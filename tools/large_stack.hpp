#pragma once
// The patch planner (pass::plan_patches, pass::patch_module_if_lower) is constant-evaluable code that keeps
// candidate modules in its frame: about 12 MB for a module<1024, 768> under AddressSanitizer, more than
// the default 8 MiB stack. Until it plans on the heap (issue 16), the tools and tests that run it at run
// time do so on a thread with a 256 MiB stack (reserved, touched only as used). Nothing else needs it.
#include <pthread.h>

#include <cstddef>

namespace ctnn_tools {

// Calls work() on a thread with a 256 MiB stack and waits for it; false if the thread cannot start.
template <class Work>
bool run_on_large_stack(Work& work) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{256} << 20);
  pthread_t thread;
  void* (*const trampoline)(void*) = [](void* w) -> void* {
    (*static_cast<Work*>(w))();
    return nullptr;
  };
  const bool started = pthread_create(&thread, &attr, trampoline, &work) == 0;
  if (started) pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return started;
}

}  // namespace ctnn_tools
