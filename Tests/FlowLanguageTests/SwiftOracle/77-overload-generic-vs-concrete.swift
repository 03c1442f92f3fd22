// A concrete overload wins over a generic one.
func render<T>(_ x: T) -> String { "generic" }
func render(_ x: Int) -> String { "Int" }
func render(_ x: String) -> String { "String" }
print(render(1))
print(render("s"))
print(render(2.5))
print(render([1]))
