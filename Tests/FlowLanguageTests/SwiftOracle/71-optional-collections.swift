// Optionals holding collections, and collections holding optionals.
let xs: [Int]? = [1, 2]
print(xs as Any)
print(xs?.count as Any)
let d: [String: Int?] = ["a": 1, "b": nil]
print(d["a"] as Any)
print(d["b"] as Any)
print(d["c"] as Any)
let first = [3, 4].first
print(first as Any)
print([Int]().first as Any)
