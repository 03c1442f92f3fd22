// `T?` declarations hold Optionals, printed as Swift prints them.
var name: String? = "flow"
var age: Int? = nil
print(name as Any)
print(age as Any)
age = 3
print(age as Any)
name = nil
print(name ?? "none")
let flag: Bool? = true
print(flag as Any)
