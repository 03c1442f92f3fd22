// #if around members of a type, and a nested #if with &&.
struct Settings {
    #if DEBUG
    let endpoint = "http://localhost"
    #else
    let endpoint = "https://example.com"
    #endif
}
print(Settings().endpoint)
#if DEBUG && os(Linux)
print("debug on linux")
#endif
#if !DEBUG
print("never printed in a debug build")
#endif
