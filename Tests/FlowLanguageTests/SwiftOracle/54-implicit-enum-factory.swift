// A static factory `.file("x")` and cases in an array of the enum.
enum Source {
    case memory
    case path(String)
    static func file(_ name: String) -> Source { .path(name + ".txt") }
}
let sources: [Source] = [.memory, .file("x"), .path("y")]
for s in sources {
    switch s {
    case .memory: print("memory")
    case .path(let p): print("path \(p)")
    }
}
