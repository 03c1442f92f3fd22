// Implicit members with Combine: `.finished`, `.failure(...)`, `.init(...)` returns.
import Combine
struct Settings { let volume: Double; static let quiet = Settings(volume: 1) }
func makeSubject() -> CurrentValueSubject<Settings, Never> { .init(.quiet) }
let s = makeSubject()
let c = s.map(\.volume).sink(receiveCompletion: { print($0) }, receiveValue: { print($0 / 2) })
s.send(.init(volume: 5))
s.send(completion: .finished)
