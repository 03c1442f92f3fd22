// `return .just(task)`: a generic type's static factory chosen by the return type.
struct Observable<Element> {
    let elements: [Element]
    static func just(_ e: Element) -> Observable<Element> { Observable(elements: [e]) }
    static var empty: Observable<Element> { Observable(elements: []) }
}
struct Task { let title: String }
func load(_ title: String) -> Observable<Task> {
    let task = Task(title: title)
    return .just(task)
}
func none() -> Observable<Task> { .empty }
print(load("write").elements.map { $0.title })
print(none().elements.count)
let o: Observable<Double> = .just(2)
print(o.elements)
