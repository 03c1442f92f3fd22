// description is used for keys and values of a dictionary.
struct Money: CustomStringConvertible {
    let cents: Int
    var description: String { "$\(cents / 100).\(cents % 100)" }
}
let wallet: [String: Money] = ["ann": Money(cents: 1250)]
print(wallet)
print(wallet["ann"]!)
print(["k": [Money(cents: 5)]])
