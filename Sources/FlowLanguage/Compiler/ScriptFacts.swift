/// What compiling learns about a script as a whole, which decides how it
/// is run: kept by the compiler, handed to the `Program`, never part of a
/// run's `Environment`.
struct ScriptFacts {
    /// It plays marble strings (`cold`, `hot`).
    var playsMarbles = false
    /// Something in it needs the wall clock: a timer, `asyncAfter`, a file,
    /// a request, standard input. A script of marbles alone draws exact
    /// lanes in virtual time, which `flow run` then uses.
    var needsLiveClock = false
    /// It draws lanes (`marbles(...)`).
    var drawsMarbles = false
    /// The modules it calls (`file`, `http`, …).
    var usedModules: Set<String> = []
}
