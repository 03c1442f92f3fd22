// A class's own `store(_:)` comes before any built-in name.
final class Cache {
    var items: [String] = []
    func store(_ item: String) {
        items.append(item)
    }
}
let cache = Cache()
cache.store("a")
cache.store("b")
print(cache.items)
