// What a call that returns nothing gives is Swift's `()`: a func without a
// result type, and `print` itself, as a value, in a collection and in a map.
func log(_ message: String) {
    print("log:", message)
}

let fromPrint = print("printed")
print(fromPrint)
let fromFunc: () = log("a")
print(fromFunc)
let calls = [1, 2].map { log("\($0)") }
print(calls)
let printed = ["x", "y"].map { print($0) }
print(printed.count, printed)
print(type(of: fromPrint))
