// Free functions overloaded by type and by arity.
func show(_ x: Int) -> String { "int \(x)" }
func show(_ x: Double) -> String { "double \(x)" }
func show(_ x: String) -> String { "string \(x)" }
func show(_ x: Int, _ y: Int) -> String { "pair \(x) \(y)" }
print(show(1))
print(show(1.5))
print(show("a"))
print(show(1, 2))
let d: Double = 3
print(show(d))
