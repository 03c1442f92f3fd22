import ArgumentParser
import FlowRuntime

/// `--max-memory`: the most memory the process may hold in a live run, and
/// one value a script builds may take (`MemoryBudget`), for the commands
/// that run scripts in this process.
struct MemoryOption: ParsableArguments {
    @Option(name: .customLong("max-memory"), help: ArgumentHelp(
        "The most memory one string, array or operator buffer a script builds may take (default 1GB); for flow run, also the most the whole process may hold in a live run.", valueName: "size"))
    var maxMemory: String?

    func validate() throws {
        if let maxMemory { _ = try Self.checked(maxMemory, for: "running a script") }
    }

    /// `watchesProcess`: the command runs one script in its process (`flow
    /// run`), so the whole process is the script's; a server or a REPL is not.
    func apply(watchesProcess: Bool = false) { Self.apply(maxMemory: maxMemory, watchesProcess: watchesProcess) }

    static func apply(maxMemory: String?, watchesProcess: Bool) {
        if let bytes = maxMemory.flatMap(bytes) {
            MemoryBudget.set(bytes: bytes)
            if watchesProcess { MemoryBudget.set(processBytes: bytes) }
        }
    }

    /// The least `--max-memory` a command accepts, `flow grade`'s included:
    /// flow itself holds about 30 MB before a script builds anything (its
    /// code, the runtime, the loop), so a smaller limit would stop every run
    /// at its first statement (or every graded file, as "over the limit").
    static let leastBytes = 64 << 20

    /// `text` as a size for `--max-memory`, or a usage error that says what
    /// to write: a size flow can read, and at least `leastBytes` for
    /// `purpose` ("grading one file").
    static func checked(_ text: String, for purpose: String) throws -> Int {
        guard let size = bytes(text) else {
            throw ValidationError("--max-memory takes a size such as 512MB or 1GB (at least \(leastBytes >> 20)MB), not '\(text)'")
        }
        guard size >= leastBytes else {
            throw ValidationError("--max-memory \(text) is less than \(purpose) needs: flow itself takes about 30 MB; "
                                  + "write --max-memory \(leastBytes >> 20)MB or more, such as 512MB or 1GB")
        }
        return size
    }

    /// `512MB`, `1GB`, `1.5G`: a size in bytes, more than none.
    static func bytes(_ text: String) -> Int? {
        let units: [(String, Double)] = [("GB", 0x1p30), ("G", 0x1p30), ("MB", 0x1p20), ("M", 0x1p20)]
        for (unit, scale) in units where text.uppercased().hasSuffix(unit) {
            guard let amount = Double(text.dropLast(unit.count)), amount * scale >= 1, amount * scale < 1e15 else { return nil }
            return Int(amount * scale)
        }
        return nil
    }
}
