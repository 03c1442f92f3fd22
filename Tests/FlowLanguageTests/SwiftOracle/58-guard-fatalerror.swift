// `guard ... else { fatalError() }` on a path not taken; a Never call ends a block.
func index(of name: String, in names: [String]) -> Int {
    guard let i = names.firstIndex(of: name) else {
        fatalError("no \(name)")
    }
    return i
}
func pick(_ x: Int) -> String {
    if x > 0 { return "positive" }
    preconditionFailure("not positive")
}
print(index(of: "b", in: ["a", "b"]))
print(pick(3))
