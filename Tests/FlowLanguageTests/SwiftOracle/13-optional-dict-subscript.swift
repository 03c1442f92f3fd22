// A dictionary subscript gives an Optional; `as Any` prints it as Swift does.
let d = ["a": 1, "b": 2]
print(d["a"] as Any)
print(d["z"] as Any)
print(d["b"] ?? 0)
if let a = d["a"] {
    print(a)
}
let names: [String: String] = ["x": "ex"]
print(names["x"] as Any)
