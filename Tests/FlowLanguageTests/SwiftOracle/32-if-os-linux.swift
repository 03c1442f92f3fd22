// #if os(Linux): the interpreter runs where this oracle was made, on Linux.
#if os(Linux)
print("linux")
#elseif os(macOS)
print("macOS")
#else
print("other")
#endif
#if !os(Windows)
print("not windows")
#endif
