// A class's own `sync()` and `async(_:)`.
final class Cart {
    var log: [String] = []
    func sync() -> Int {
        log.append("synced")
        return log.count
    }
    func async(_ label: String) {
        log.append("async " + label)
    }
}
let cart = Cart()
cart.async("first")
print(cart.sync())
print(cart.log)
