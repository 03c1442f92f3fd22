// type(of:) and T.self: a value's type as Swift prints it, declared types first, compared with ==.
struct P { let x: Int }
enum E { case a }
final class C {}
print(type(of: 5), type(of: 2.5), type(of: "s"), type(of: true), type(of: [1, 2]), type(of: ["a": 1]), type(of: (1, "a")))
print(type(of: P(x: 1)), type(of: E.a), type(of: C()), type(of: ()), type(of: Int("3")), type(of: [P(x: 1)]))
print(type(of: 5) == Int.self, type(of: 5) == Double.self, Int.self, P.self, String(describing: type(of: P(x: 1))))
let f: (Int) -> Int = { x in x }
print(type(of: f))
print("\(type(of: 5))")
let price: Double = 5
let names: [String] = []
let maybe: Int? = nil
print(type(of: price), type(of: names), type(of: maybe), [Int].self, [String: Double].self, Void.self)
