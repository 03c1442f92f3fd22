// `as?` gives an Optional.
let values: [Any] = [1, "two", 3.5]
for v in values {
    print(v as? Int as Any)
}
let s = values[1] as? String
print(s as Any)
let n = values[0] as? String
print(n == nil)
