// An array of optionals prints each element as Optional(...) or nil.
let some: Int? = 1
let none: Int? = nil
print([some, none])
let words: [String?] = ["a", nil, "c"]
print(words)
print(words.compactMap { $0 })
print(words.count)
