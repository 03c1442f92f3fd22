// `Swift.print`, qualified by the module, also where a type has its own print.
Swift.print("hello")
Swift.print(1, 2, 3, separator: "-")
final class Printer {
    var lines: [String] = []
    func print(_ s: String) { lines.append(s) }
    func flush() { Swift.print(lines.joined(separator: ",")) }
}
let p = Printer()
p.print("a")
p.print("b")
p.flush()
Swift.print("no newline", terminator: "")
Swift.print("")
