// String(describing:) and String(reflecting:) of an Optional.
let a: Int? = 5
let b: String? = "x"
let c: Double? = nil
print(String(describing: a))
print(String(describing: b))
print(String(describing: c))
print(String(reflecting: b))
print(String(describing: 5))
