// Methods overloaded by argument labels.
final class Repository {
    func load(id: Int) -> String { "by id \(id)" }
    func load(name: String) -> String { "by name \(name)" }
    func load() -> String { "all" }
}
let repo = Repository()
print(repo.load(id: 7))
print(repo.load(name: "ann"))
print(repo.load())
