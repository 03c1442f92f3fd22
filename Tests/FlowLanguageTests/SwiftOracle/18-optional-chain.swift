// An optional chain gives an Optional.
struct Address { let city: String }
struct User { let name: String; let address: Address? }
let u1: User? = User(name: "ann", address: Address(city: "Oslo"))
let u2: User? = User(name: "bob", address: nil)
let u3: User? = nil
print(u1?.address?.city as Any)
print(u2?.address?.city as Any)
print(u3?.name as Any)
print(u1?.name.count as Any)
