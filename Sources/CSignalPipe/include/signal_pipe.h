#ifndef FLOW_SIGNAL_PIPE_H
#define FLOW_SIGNAL_PIPE_H

/// Forwards `signum` to a pipe: from now on each delivery writes one byte
/// to `fd`, from a real signal handler (so no thread can swallow it, as
/// happens when a signal meant for a dispatch source lands on a thread that
/// does not block it), and unblocks it for the calling thread. Returns 0,
/// or -1 if the handler could not be installed.
int flow_signal_forward(int signum, int fd);

/// Restores the default action of `signum` and stops forwarding it.
void flow_signal_restore(int signum);

#endif
