import FlowRuntime

extension TimeSpan {
    /// A duration written as in scripts (`500ms`, `1.5s`, `10m`), as a
    /// command-line option or an environment variable gives one; nil for
    /// anything else, zero and negative durations included.
    public init?(written text: String) {
        let units: [(String, Double)] = [("ms", 1e6), ("us", 1e3), ("ns", 1), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        for (unit, scale) in units where text.hasSuffix(unit) {
            guard let amount = Double(text.dropLast(unit.count)), amount > 0, amount * scale < 9e18 else { return nil }
            self.init(nanoseconds: Int64((amount * scale).rounded()))
            return
        }
        return nil
    }
}
