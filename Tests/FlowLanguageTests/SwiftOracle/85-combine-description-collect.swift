// description of a CustomStringConvertible element inside a collected array.
import Combine
enum Phase: CustomStringConvertible {
    case idle, loading, done
    var description: String { "<\(phase)>" }
    var phase: String {
        switch self { case .idle: return "idle"; case .loading: return "loading"; case .done: return "done" }
    }
}
let c = [Phase.idle, .loading, .done].publisher.collect().sink { print($0) }
let d = [Phase.done].publisher.sink { print($0) }
