// A struct's methods named `map`, `merge`, `first` and `reduce`.
struct Bag {
    var items: [Int]
    func map(_ f: (Int) -> Int) -> Bag { Bag(items: items.map(f)) }
    func merge(_ other: Bag) -> Bag { Bag(items: items + other.items) }
    var first: Int { items.last ?? -1 }
    func reduce() -> Int { items.reduce(0, +) }
}
let b = Bag(items: [1, 2]).map { $0 * 10 }.merge(Bag(items: [3]))
print(b.items)
print(b.first)
print(b.reduce())
