// Closures returning Void, and () as a value.
let action: () -> Void = { print("tapped") }
let result: () = action()
print(result)
let unit = ()
print(unit)
let actions: [() -> Void] = [{ print("a") }, { print("b") }]
actions.forEach { $0() }
print(type(of: result) == Void.self)
