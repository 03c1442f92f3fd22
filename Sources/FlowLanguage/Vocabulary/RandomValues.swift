import FlowRuntime

/// Where a run's random numbers come from (`Int.random(in:)`,
/// `randomElement()`, `shuffled()`): in virtual time a fixed seed, so a
/// test block, `flow test` and a marble run draw the same numbers every
/// time; live, the system's generator. flow has no `--seed`: a run that
/// must repeat is run in virtual time.
final class RandomSource {
    /// SplitMix64's state, or nil for the system's generator.
    private var state: UInt64?

    static let virtualTimeSeed: UInt64 = 0x5EED_F10A_0000_0034

    init(seeded: Bool) { state = seeded ? Self.virtualTimeSeed : nil }

    func next() -> UInt64 {
        guard var z = state else {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        z &+= 0x9E37_79B9_7F4A_7C15
        state = z
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A run's source as Swift's generators are used (`shuffled(using:)`).
struct RandomDraws: RandomNumberGenerator {
    let source: RandomSource?

    mutating func next() -> UInt64 {
        if let source { return source.next() }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }
}

/// `Int.random(in:)`, `Double.random(in:)` and `Bool.random()`: the
/// range's bounds as the call writes them.
enum RandomValues {
    static let typeNames: Set<String> = ["Int", "Double", "Bool"]

    static func int(in low: Int, _ high: Int, closed: Bool, using draws: inout RandomDraws) throws -> Value {
        if closed {
            guard low <= high else { throw FlowError("Int.random(in: \(low)...\(high)): the range is empty (Swift traps)") }
            return .int(Int.random(in: low...high, using: &draws))
        }
        guard low < high else { throw FlowError("Int.random(in: \(low)..<\(high)): the range is empty (Swift traps)") }
        return .int(Int.random(in: low..<high, using: &draws))
    }

    static func double(in low: Double, _ high: Double, closed: Bool, using draws: inout RandomDraws) throws -> Value {
        guard low.isFinite, high.isFinite else { throw FlowError("Double.random(in:) takes finite bounds, not \(low) and \(high)") }
        if closed {
            guard low <= high else { throw FlowError("Double.random(in: \(low)...\(high)): the range is empty (Swift traps)") }
            return .double(Double.random(in: low...high, using: &draws))
        }
        guard low < high else { throw FlowError("Double.random(in: \(low)..<\(high)): the range is empty (Swift traps)") }
        return .double(Double.random(in: low..<high, using: &draws))
    }
}
