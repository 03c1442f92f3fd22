// Metatypes written as expressions: optionals (Int?.self parses as a chain),
// generic arguments after the name, collections.
print(Int.self)
print([Int].self)
print(String?.self)
print(Optional<Int>.self)
print([String: Int].self)
print(Set<Int>.self)
print(Dictionary<String, [Int]>.self)
print(Result<Int, Error>.self)
