// A class's own `observe(_:)` taking a closure.
final class Model {
    private var observers: [(Int) -> Void] = []
    func observe(_ handler: @escaping (Int) -> Void) {
        observers.append(handler)
    }
    func set(_ v: Int) { observers.forEach { $0(v) } }
}
let m = Model()
m.observe { print("got \($0)") }
m.observe { print("twice \($0 * 2)") }
m.set(3)
