// A struct's memberwise init: an integer literal for a Double field.
struct Item {
    let name: String
    let price: Double
}
let item = Item(name: "tea", price: 5)
print(item.price)
print(item.price / 2)
let items = [Item(name: "a", price: 3), Item(name: "b", price: 2)]
let mean = items.map { $0.price }.reduce(0, +) / Double(items.count)
print(mean)
