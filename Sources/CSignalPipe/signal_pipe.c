#include "signal_pipe.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// Written before the handler is installed, read in the handler.
static volatile sig_atomic_t forward_to[65];

static void forward(int signum) {
    int saved = errno;
    if (signum > 0 && signum < 65 && forward_to[signum] > 0) {
        char byte = 1;
        // Async-signal-safe; a full pipe means a delivery is already pending.
        (void)write(forward_to[signum], &byte, 1);
    }
    errno = saved;
}

int flow_signal_forward(int signum, int fd) {
    if (signum <= 0 || signum >= 65) return -1;
    forward_to[signum] = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(signum, &action, NULL) != 0) return -1;
    // A parent may have started us with the signal blocked (Foundation's
    // Process does): let at least this thread take it.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signum);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

void flow_signal_restore(int signum) {
    if (signum <= 0 || signum >= 65) return;
    signal(signum, SIG_DFL);
    forward_to[signum] = 0;
}
