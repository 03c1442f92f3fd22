// Multi-line string literals: indentation taken from the closing delimiter,
// quotes inside, escapes, interpolation, blank lines, line continuation.
let name = "Ada"
let greeting = """
    Hello, \(name)!
      "indented" and \t tabbed
    total: \(2 + 3)

    a line \
    joined
    """
print(greeting)
print(greeting.count)
func report() -> String {
    let body = """
        {"user": "\(name)", "ok": true}
        """
    return body
}
print(report())
let empty = """
    """
print("[\(empty)]")
let trailing = """
    last line ends with a break

    """
print("[\(trailing)]")
