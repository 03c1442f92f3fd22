// Methods overloaded by parameter type.
struct Counter {
    func count(_ x: Int) -> String { "Int \(x)" }
    func count(_ s: String) -> String { "String of \(s.count)" }
    func count(_ xs: [Int]) -> String { "Array of \(xs.count)" }
}
let c = Counter()
print(c.count(3))
print(c.count("abc"))
print(c.count([1, 2]))
let word = "hello"
print(c.count(word))
