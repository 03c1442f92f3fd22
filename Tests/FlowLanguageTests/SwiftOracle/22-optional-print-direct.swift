// print of an Optional directly (Swift warns at compile time, and prints Optional(...)).
let value: Int? = 42
let empty: Int? = nil
print(value as Int?)
print(empty as Int?)
let nested: Int?? = 1
print(nested as Any)
let text: String? = "quoted"
print([text])
