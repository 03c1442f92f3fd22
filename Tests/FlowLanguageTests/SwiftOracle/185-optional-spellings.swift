// Optional spelled out: Optional(x), Optional<T>(x), .some/.none, Optional<T>.none,
// and as the type of a pattern: each prints as swiftc's program does.
let a: Int? = .some(3)
let b: Int? = .none
print(a as Any, b as Any)
let c = Optional(4)
print(c as Any)
let d = Optional<String>.none
print(d as Any)
let e: Optional<Int> = 5
print(e as Any)
if case .some(let v) = a { print("some", v) }
switch b {
case .none: print("none")
case .some(let v): print(v)
}
let f = Optional<Double>(5)
print(f as Any)
let g = Optional.some("x")
print(g as Any)
let h: Int? = Optional.none
print(h as Any)
print(type(of: Optional(2)))
print(Optional(3) == 3)
