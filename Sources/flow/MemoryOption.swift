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
        if let maxMemory, Self.bytes(maxMemory) == nil {
            throw ValidationError("--max-memory takes a size of at least 16MB, such as 512MB or 1GB, not '\(maxMemory)'")
        }
    }

    /// `watchesProcess`: the command runs one script in its process (`flow
    /// run`), so the whole process is the script's; a server or a REPL is not.
    func apply(watchesProcess: Bool = false) {
        if let bytes = maxMemory.flatMap(Self.bytes) {
            MemoryBudget.set(bytes: bytes)
            if watchesProcess { MemoryBudget.set(processBytes: bytes) }
        }
    }

    /// `512MB`, `1GB`, `1.5G`: a size in bytes, at least 16 MB.
    static func bytes(_ text: String) -> Int? {
        let units: [(String, Double)] = [("GB", 0x1p30), ("G", 0x1p30), ("MB", 0x1p20), ("M", 0x1p20)]
        for (unit, scale) in units where text.uppercased().hasSuffix(unit) {
            guard let amount = Double(text.dropLast(unit.count)), amount * scale >= 0x1p24, amount * scale < 1e15 else { return nil }
            return Int(amount * scale)
        }
        return nil
    }
}
