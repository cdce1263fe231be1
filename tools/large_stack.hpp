#pragma once
// Runs a host tool's work on a thread with a large stack: the passes take and return modules by value,
// and a model-sized module does not fit the default stack (the stack is reserved, touched only as used).
#include <pthread.h>

#include <cstddef>

namespace ctnn_tools {

// Calls work(arg) on a thread with a 256 MiB stack and waits for it; false if the thread cannot start.
inline bool run_with_large_stack(void* (*work)(void*), void* arg) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{256} << 20);
  pthread_t thread;
  const bool started = pthread_create(&thread, &attr, work, arg) == 0;
  if (started) pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return started;
}

}  // namespace ctnn_tools
