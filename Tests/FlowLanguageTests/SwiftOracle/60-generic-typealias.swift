// Generic typealiases used as types and called as initialisers.
typealias Pair<T> = (T, T)
struct Action<Input, Output> {
    let run: (Input) -> Output
}
typealias CocoaAction = Action<Void, Void>
typealias Handler<T> = (T) -> String
let p: Pair<Int> = (1, 2)
print(p.0 + p.1)
let q: Pair<String> = ("a", "b")
print(q)
let tap = CocoaAction { print("tapped") }
tap.run(())
let h: Handler<Int> = { "got \($0)" }
print(h(3))
