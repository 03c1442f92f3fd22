// A static and an instance method of one name.
struct Formatter {
    let prefix: String
    static func format(_ x: Int) -> String { "static \(x)" }
    func format(_ x: Int) -> String { "\(prefix) \(x)" }
}
print(Formatter.format(1))
let f = Formatter(prefix: "instance")
print(f.format(2))
