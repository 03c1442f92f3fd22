import NIOConcurrencyHelpers

/// A name server that answers 127.0.0.1 the first time it is asked and ::1
/// after (DNS rebinding), and remembers what it was asked: a request must
/// reach the first answer and ask once.
final class RebindingResolver: Sendable {
    private let asked = NIOLockedValueBox<[String]>([])

    var lookUps: [String] { asked.withLockedValue { $0 } }

    func forget() { asked.withLockedValue { $0 = [] } }

    var resolve: @Sendable (String) -> [String] {
        { [asked] name in
            asked.withLockedValue {
                $0.append(name)
                return $0.count == 1 ? ["127.0.0.1"] : ["[::1]"]
            }
        }
    }
}
