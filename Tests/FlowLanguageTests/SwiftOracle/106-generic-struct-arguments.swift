// A generic struct used with its type arguments: Stack<Double> holds Doubles,
// whether the arguments are written at the call, by the declared type, or reached through a method.
struct Stack<Element> {
    var items: [Element] = []
    mutating func push(_ e: Element) { items.append(e) }
    func peek() -> Element? { items.last }
    static func of(_ e: Element) -> Stack<Element> { Stack(items: [e]) }
}
var s = Stack<Double>()
s.push(3)
print(s.items, s.peek()! / 2)
let t = Stack<Double>.of(4)
print(t.items[0] / 8)
let u: Stack<Double> = .of(5)
print(u.items)
var v: Stack<Double> = Stack()
v.push(1)
print(v.items)
struct Pair<A, B> { let first: A; let second: B }
let p = Pair<Int, Double>(first: 1, second: 2)
print(p.first / 2, p.second / 4)
func wrap<T>(_ x: T) -> [T] { [x] }
let w: [Double] = wrap(3)
print(w)
print(type(of: t), type(of: p))
