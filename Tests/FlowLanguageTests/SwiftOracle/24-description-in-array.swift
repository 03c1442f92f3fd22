// description (CustomStringConvertible) is used for elements of an array.
enum Phase: CustomStringConvertible {
    case idle, loading
    var description: String {
        switch self {
        case .idle: return "Idle"
        case .loading: return "Loading…"
        }
    }
}
print(Phase.idle)
print([Phase.idle])
print([Phase.idle, Phase.loading])
print("now \(Phase.loading)")
