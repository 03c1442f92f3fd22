// Optional<Struct>.map applies the closure to the wrapped struct.
struct Profile {
    let name: String
    let age: Int
}
let p: Profile? = Profile(name: "ann", age: 30)
let none: Profile? = nil
print(p.map { $0.name } as Any)
print(p.map { $0.age + 1 } ?? 0)
print(none.map { $0.name } ?? "nobody")
let label = p.map { "\($0.name) (\($0.age))" }
print(label ?? "-")
print(p.flatMap { $0.age > 18 ? $0.name : nil } as Any)
