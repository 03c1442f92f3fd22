// #if inside a function body, and #elseif.
func log(_ message: String) {
    #if DEBUG
    print("[debug] \(message)")
    #elseif TESTING
    print("[test] \(message)")
    #else
    print(message)
    #endif
}
log("started")
log("done")
