// type(of:) of a closure whose signature Swift reads from the closure
// itself: its parameters' written types and its result, written or that of
// its one expression.
let double = { (x: Int) in x * 2 }
let add = { (a: Double, b: Double) -> Double in a + b }
let greet = { print("hi") }
let name = { "flow" }
let isBlank = { (s: String) -> Bool in s.isEmpty }
let log = { (s: String) -> Void in print(s) }
print(type(of: double), type(of: add), type(of: greet))
print(type(of: name), type(of: isBlank), type(of: log))
print(double(4), add(1, 2.5), name(), isBlank(""))
greet()
log("logged")
