// Overloads that differ by argument type, chosen by a declared variable's type.
func describe(_ x: Int) -> String { "an Int" }
func describe(_ x: Double) -> String { "a Double" }
func describe(_ x: Int?) -> String { "an optional Int" }
let a: Int = 1
let b: Double = 1
let c: Int? = 1
print(describe(a))
print(describe(b))
print(describe(c))
print(describe(2))
