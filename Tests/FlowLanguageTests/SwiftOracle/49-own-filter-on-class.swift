// A class's own `filter(_: String)` and `sorted(byKeyPath:)`.
final class TaskList {
    var tasks = ["buy milk", "walk dog", "buy bread"]
    func filter(_ text: String) -> [String] {
        tasks.filter { $0.contains(text) }
    }
    func sorted(byKeyPath key: String) -> [String] {
        key == "name" ? tasks.sorted() : tasks
    }
}
let list = TaskList()
print(list.filter("buy"))
print(list.sorted(byKeyPath: "name"))
print(list.filter("cat").isEmpty)
