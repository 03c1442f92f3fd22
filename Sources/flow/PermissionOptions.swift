import ArgumentParser
import FlowLive

/// The permission flags every command that runs scripts takes, spelled as
/// Deno spells them. Each command starts from its own defaults; these
/// adjust them, and a `--deny-*` wins over any grant.
struct PermissionOptions: ParsableArguments {
    @Option(name: .customLong("allow-read"), help: ArgumentHelp(
        "Let scripts read these files and folders (comma-separated); alone, every file.", valueName: "paths"))
    var allowRead: [String] = []

    @Option(name: .customLong("allow-write"), help: ArgumentHelp(
        "Let scripts write these files and folders; alone, every file.", valueName: "paths"))
    var allowWrite: [String] = []

    @Option(name: .customLong("allow-net"), help: ArgumentHelp(
        "Let scripts request these hosts (host or host:port, comma-separated); alone, any host.", valueName: "hosts"))
    var allowNet: [String] = []

    @Option(name: .customLong("allow-env"), help: ArgumentHelp(
        "Let scripts read these environment variables through env (comma-separated names); alone, every one. None by default.",
        valueName: "names"))
    var allowEnv: [String] = []

    @Flag(name: [.customLong("allow-all"), .customShort("A")], help: "Let scripts reach every file and host.")
    var allowAll = false

    @Option(name: .customLong("deny-read"), help: ArgumentHelp(
        "Forbid reading these paths (alone, every file), whatever is granted.", valueName: "paths"))
    var denyRead: [String] = []

    @Option(name: .customLong("deny-write"), help: ArgumentHelp(
        "Forbid writing these paths (alone, every file), whatever is granted.", valueName: "paths"))
    var denyWrite: [String] = []

    @Option(name: .customLong("deny-net"), help: ArgumentHelp(
        "Forbid requesting these hosts (alone, every host), whatever is granted.", valueName: "hosts"))
    var denyNet: [String] = []

    @Option(name: .customLong("deny-env"), help: ArgumentHelp(
        "Forbid reading these environment variables (alone, every one), whatever is granted.", valueName: "names"))
    var denyEnv: [String] = []

    @Option(name: .customLong("max-redirects"), help: ArgumentHelp(
        "How many redirects one HTTP request follows, each judged as a new request (default 5).", valueName: "n"))
    var maximumRedirects: Int?

    func validate() throws {
        if let maximumRedirects, !(0...100).contains(maximumRedirects) {
            throw ValidationError("--max-redirects takes a number from 0 to 100, not \(maximumRedirects)")
        }
    }

    /// `defaults` as the flags adjust them. Where a command grants a kind
    /// of access entirely (`flow run` reads every file), naming what to
    /// grant narrows it to that, as in Deno: `--allow-read=data` reads
    /// `data` alone, instead of adding `data` to everything.
    func applied(to defaults: Permissions) -> Permissions {
        var permissions = defaults
        if allowAll { permissions.allowAll() }
        for (kind, values) in [(Permissions.Kind.read, allowRead), (.write, allowWrite), (.net, allowNet), (.env, allowEnv)] {
            let named = values.filter { $0 != Self.aloneMarker }
            if !allowAll, !named.isEmpty, named.count == values.count, permissions.scope(of: kind) == .all { permissions.narrow(kind) }
            for value in values { permissions.allow(kind, Self.listed(value)) }
        }
        for (kind, values) in [(Permissions.Kind.read, denyRead), (.write, denyWrite), (.net, denyNet), (.env, denyEnv)] {
            for value in values { permissions.deny(kind, Self.listed(value)) }
        }
        if let maximumRedirects { permissions.maximumRedirects = maximumRedirects }
        return permissions
    }

    /// The flags with their paths made absolute against the current folder
    /// now: `flow serve` changes into the served folder before it applies
    /// them, and `--deny-read=answers` means the folder the user saw.
    func absolute() -> PermissionOptions {
        let folder = Permissions.resolve(".")
        func absolute(_ values: [String]) -> [String] {
            values.map { value in
                guard value != Self.aloneMarker else { return value }
                return value.split(separator: ",", omittingEmptySubsequences: true)
                    .map { $0.hasPrefix("/") ? String($0) : folder + "/" + $0 }.joined(separator: ",")
            }
        }
        var copy = self
        copy.allowRead = absolute(allowRead)
        copy.allowWrite = absolute(allowWrite)
        copy.denyRead = absolute(denyRead)
        copy.denyWrite = absolute(denyWrite)
        return copy
    }

    /// The flags again, as a child `flow` is given them.
    var arguments: [String] {
        var words = allowAll ? ["--allow-all"] : []
        let lists = [("--allow-read", allowRead), ("--allow-write", allowWrite), ("--allow-net", allowNet), ("--allow-env", allowEnv),
                     ("--deny-read", denyRead), ("--deny-write", denyWrite), ("--deny-net", denyNet), ("--deny-env", denyEnv)]
        for (flag, values) in lists {
            for value in values { words.append(value == Self.aloneMarker ? flag : flag + "=" + value) }
        }
        if let maximumRedirects { words.append("--max-redirects=\(maximumRedirects)") }
        return words
    }

    /// nil for a flag given alone (everything), else its list.
    private static func listed(_ value: String) -> String? { value == aloneMarker ? nil : value }

    /// What a flag given alone carries once `normalized` has rewritten it:
    /// a NUL, which no real command line can hold, so it cannot be a path.
    static let aloneMarker = "\u{0}"

    static let names = ["--allow-read", "--allow-write", "--allow-net", "--allow-env", "--deny-read", "--deny-write", "--deny-net", "--deny-env"]

    /// Deno's flags take their value only after `=`: `--allow-read` alone
    /// grants every file and the next word is the script. ArgumentParser
    /// would take that word as the flag's value, so a flag given alone is
    /// rewritten to carry the marker first. For `flow run`, the words after
    /// the script are the script's own arguments and are left as they are.
    static func normalized(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var reachedScript = false
        for (index, word) in arguments.enumerated() {
            if reachedScript || word == "--" {
                result.append(contentsOf: arguments[index...])
                break
            }
            result.append(names.contains(word) ? word + "=" + aloneMarker : word)
            // The script of `flow run` (or `flow FILE`): what follows is its own.
            if word.hasSuffix(".flow") || word == "-" { reachedScript = runsOneScript(arguments) }
        }
        return result
    }

    /// Whether the command is `flow run` (named, or the default one), whose
    /// script takes arguments of its own.
    private static func runsOneScript(_ arguments: [String]) -> Bool {
        let commands = ["test", "grade", "grade-file", "check", "doc", "repl", "serve"]
        guard let first = arguments.first(where: { !$0.hasPrefix("-") }) else { return true }
        return !commands.contains(first)
    }
}
