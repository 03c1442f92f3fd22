#ifndef FLOW_THREAD_STACK_H
#define FLOW_THREAD_STACK_H
#include <stddef.h>

/// The lowest address and size of the calling thread's stack.
/// Returns 0 on success, an errno value otherwise.
int flow_thread_stack_bounds(void **low, size_t *size);

#endif
