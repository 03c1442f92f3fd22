// description inside an Optional: Optional(<description>).
struct Tag: CustomStringConvertible {
    let name: String
    var description: String { "#" + name }
}
let t: Tag? = Tag(name: "swift")
let none: Tag? = nil
print(t as Any)
print(none as Any)
print(String(describing: t))
print([t, none])
print(t!)
