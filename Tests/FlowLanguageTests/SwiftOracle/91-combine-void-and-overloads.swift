// A view model with overloaded methods, a Void subject, and an own `filter(_:)`.
import Combine
final class SearchModel {
    let refresh = PassthroughSubject<Void, Never>()
    var results = ["swift", "rx", "combine"]
    func filter(_ text: String) -> [String] { results.filter { $0.contains(text) } }
    func filter(_ length: Int) -> [String] { results.filter { $0.count == length } }
}
let model = SearchModel()
let c = model.refresh.sink { print("refresh", $0) }
model.refresh.send()
model.refresh.send(())
print(model.filter("i"))
print(model.filter(2))
