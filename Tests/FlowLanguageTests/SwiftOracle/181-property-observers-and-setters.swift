// willSet, didSet and set, as view models write them: observers run on
// every change from outside the type (a compound assignment, an append, a
// change of a struct an object holds), not in the type's own init, and a
// didSet that assigns its own property stores without running again.
struct Temperature {
    var celsius: Double = 0 {
        willSet(next) { print("about to set \(next)") }
        didSet {
            if celsius > 100 { celsius = 100 }
            print("changed from \(oldValue) to \(celsius)")
        }
    }
    var fahrenheit: Double {
        get { celsius * 9 / 5 + 32 }
        set { celsius = (newValue - 32) * 5 / 9 }
    }
    init(celsius: Double) { self.celsius = celsius }
}
var t = Temperature(celsius: 10)
t.celsius = 25
t.fahrenheit = 212
print(t.fahrenheit)
t.celsius += 200
var readings = [t]
readings[0].celsius = 1

struct Point {
    var x = 0 { didSet { print("x \(oldValue) -> \(x)") } }
}
final class ViewModel {
    var items: [String] = [] {
        didSet { print("items: \(items)") }
    }
    var point = Point() {
        didSet { print("point is now \(point.x)") }
    }
    var title = "" {
        willSet { print("title will be '\(newValue)'") }
    }
    private var stored = 1
    var doubled: Int {
        get { stored * 2 }
        set(twice) { stored = twice / 2 }
    }
    init(title: String) { self.title = title }
    func rename(_ name: String) { title = name }
}
let model = ViewModel(title: "first")
model.items.append("a")
model.items += ["b", "c"]
model.items[0] = "z"
model.point.x = 3
model.rename("second")
model.doubled = 10
model.doubled += 4
print(model.doubled, model.title)

class Counter {
    var total = 0 { didSet { print("total \(oldValue) -> \(total)") } }
}
class LoudCounter: Counter {}
let loud = LoudCounter()
loud.total = 9

class Owner { var count = 0 }
class Child {
    unowned let owner: Owner
    weak var other: Owner?
    init(owner: Owner) {
        self.owner = owner
        self.other = owner
    }
    func bump() {
        owner.count += 1
        other?.count += 10
    }
}
let owner = Owner()
let child = Child(owner: owner)
child.bump()
child.owner.count += 100
print(owner.count)

// A get-only property that gives an object: the object changes where it is.
final class Item { var name = "a" }
final class Catalog {
    let items = [Item(), Item()]
    var selected: Item { items[1] }
}
let catalog = Catalog()
catalog.selected.name = "chosen"
print(catalog.items.map { $0.name })
