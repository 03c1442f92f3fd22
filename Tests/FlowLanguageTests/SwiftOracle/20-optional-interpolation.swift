// Interpolating an Optional shows Optional(...) or nil.
let n: Int? = 3
let m: Int? = nil
print("n is \(String(describing: n))")
print("m is \(String(describing: m))")
let s: String? = "hi"
print("s is \(s as Any)")
print("n unwrapped: \(n!)")
print("m or 0: \(m ?? 0)")
