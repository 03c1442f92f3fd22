// pthread_getattr_np is a GNU extension: Swift's Glibc module does not show it.
#define _GNU_SOURCE
#include <pthread.h>
#include "thread_stack.h"

int flow_thread_stack_bounds(void **low, size_t *size) {
#if defined(__linux__)
    pthread_attr_t attr;
    int rc = pthread_getattr_np(pthread_self(), &attr);
    if (rc != 0) return rc;
    rc = pthread_attr_getstack(&attr, low, size);
    pthread_attr_destroy(&attr);
    return rc;
#elif defined(__APPLE__)
    *size = pthread_get_stacksize_np(pthread_self());
    *low = (char *)pthread_get_stackaddr_np(pthread_self()) - *size;
    return 0;
#else
    return -1;
#endif
}
