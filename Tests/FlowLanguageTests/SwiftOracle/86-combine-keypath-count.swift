// `\.count` key path on a stream of a class's @Published state.
import Combine
final class TodoStore {
    @Published var todos: [String] = []
}
let store = TodoStore()
let c = store.$todos.map(\.count).sink { print("count \($0)") }
store.todos.append("milk")
store.todos += ["bread", "eggs"]
