// GNU readline for the REPL, through the callback interface so that the
// event loop, not readline, owns the thread.
//
// Swift 6 rejects writing C globals ("not concurrency-safe"); the REPL
// touches readline's globals only through these setters, and only from
// the event loop's thread.
#ifndef FLOW_CREADLINE_SHIM_H
#define FLOW_CREADLINE_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>
#include <readline/history.h>

/// The application handles SIGINT and SIGWINCH on the event loop; readline
/// must not install handlers of its own.
static inline void flow_rl_leave_signals_to_application(void) {
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    // LINES and COLUMNS stay as the environment has them.
    rl_change_environment = 0;
}

static inline void flow_rl_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

/// Inside a completion function: what follows a single match (a space
/// after a command, nothing after a name, so `.map` can follow).
static inline void flow_rl_set_append_character(int character) {
    rl_completion_append_character = character;
}

/// Inside a completion function: no filename completion when it finds nothing.
static inline void flow_rl_completion_over(void) {
    rl_attempted_completion_over = 1;
}

static inline void flow_rl_set_word_breaks(const char *characters) {
    rl_basic_word_break_characters = characters;
    rl_completer_word_break_characters = characters;
}

static inline void flow_rl_set_readline_name(const char *name) {
    rl_readline_name = name;
}

/// The line being edited, and where the cursor is in it.
static inline const char *flow_rl_line_buffer(void) { return rl_line_buffer; }
static inline int flow_rl_point(void) { return rl_point; }
static inline int flow_rl_end(void) { return rl_end; }
static inline void flow_rl_set_point(int point) { rl_point = point; }

/// Puts the terminal back in readline's mode (no echo) while a line is
/// handled: readline leaves it in the normal mode then, and the terminal
/// would echo what is typed ahead, which readline then shows a second time.
static inline void flow_rl_keep_terminal_prepared(void) {
    const char *meta = rl_variable_value("input-meta");
    rl_prep_terminal(meta != NULL && strcmp(meta, "on") == 0);
}

/// Sends what readline has buffered for the terminal before the application writes.
static inline void flow_rl_flush_output(void) { fflush(rl_outstream ? rl_outstream : stdout); }

#endif
