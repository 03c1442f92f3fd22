// Properties named `subscriptions` and `value`.
final class Box {
    var value: Int = 0
    var subscriptions: [String] = []
    func subscribe(_ name: String) { subscriptions.append(name) }
}
let box = Box()
box.value = 5
box.value += 1
print(box.value)
box.subscribe("a")
print(box.subscriptions)
print(box.subscriptions.count)
struct Wrapper { let value: Double }
print(Wrapper(value: 1).value)
