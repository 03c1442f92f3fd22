// Implicit members where a subject's element type is expected: its initial value and send(_:).
import Combine
struct Settings { let volume: Double; static let quiet = Settings(volume: 1) }
let s = CurrentValueSubject<Settings, Never>(.quiet)
let c = s.map(\.volume).sink { print($0 / 2) }
s.send(.init(volume: 5))
s.send(.quiet)
let p = PassthroughSubject<Settings, Never>()
let d = p.sink { print($0.volume) }
p.send(.init(volume: 3))
