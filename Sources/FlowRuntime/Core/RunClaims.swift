/// What one run has claimed for its whole life, by key: the files its
/// sinks write (`file.write`, `file.append`, `csv.write`, by real path).
/// The language keeps one per run (a script's top level, a test block, a
/// line of the REPL, a page's run or render) and hands it to operators
/// through their `OperatorContext`. A claim stays until the run ends, not
/// until its writer finishes: a file written by two sinks one after the
/// other loses the first one's lines as surely as two at once.
public final class RunClaims {
    public struct Claim: Sendable, Equatable {
        /// What claims the key, for messages ("file.write").
        public var operation: String
        /// Whether other shared claims may hold the key too: lines
        /// appended by two sinks are all kept.
        public var isShared: Bool
        /// The call that claimed it: the place a conflict names.
        public var location: SourceLocation?

        public init(operation: String, isShared: Bool, location: SourceLocation?) {
            self.operation = operation
            self.isShared = isShared
            self.location = location
        }

        /// Whether `self` and `other` may both hold one key: both shared, or
        /// one call made again (per event, in a closure: it replaces its
        /// own earlier file, as a status file is rewritten).
        public func admits(_ other: Claim) -> Bool {
            if isShared && other.isShared { return true }
            guard let place = location else { return false }
            return place == other.location && operation == other.operation
        }
    }

    private var claims: [String: Claim] = [:]

    public init() {}

    /// The earlier claim of `key` that `claim` conflicts with, if any.
    public func conflict(for key: String, with claim: Claim) -> Claim? {
        guard let first = claims[key], !first.admits(claim) else { return nil }
        return first
    }

    /// Records `claim` of `key` for the rest of the run; the first claim is
    /// the one a later conflict names.
    public func record(_ key: String, _ claim: Claim) {
        if claims[key] == nil { claims[key] = claim }
    }
}
