// `typealias` inside a class and a struct.
final class Store {
    typealias State = [String: Int]
    typealias Reducer = (State, String) -> State
    var state: State = [:]
    let reducer: Reducer = { s, key in var t = s; t[key, default: 0] += 1; return t }
    func dispatch(_ key: String) { state = reducer(state, key) }
}
struct Point {
    typealias Coordinate = Double
    let x: Coordinate
}
let store = Store()
store.dispatch("tap")
store.dispatch("tap")
print(store.state)
let c: Store.State = ["a": 1]
print(c)
print(Point(x: 3).x)
