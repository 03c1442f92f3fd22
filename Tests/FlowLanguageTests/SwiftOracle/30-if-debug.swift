// #if DEBUG ... #else ... #endif: a debug build (swift run) defines DEBUG.
#if DEBUG
let mode = "debug"
print("debug branch")
#else
let mode = "release"
print("release branch")
#endif
print(mode)
