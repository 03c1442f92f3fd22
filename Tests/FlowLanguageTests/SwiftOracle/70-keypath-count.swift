// Key paths: `\.count`, a struct's property, and a key path applied by subscript.
struct Todo { let title: String; let done: Bool }
let todos = [Todo(title: "milk", done: true), Todo(title: "bread", done: false)]
print(todos.map(\.title))
print(todos.map(\.title.count))
print(todos.filter(\.done).count)
let kp = \Todo.title
print(todos[1][keyPath: kp])
print(["a", "bcd"].map(\.count))
