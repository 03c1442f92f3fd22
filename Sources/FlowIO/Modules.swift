import FlowLanguage
import FlowRuntime

/// The I/O modules a script sees: `file`, `stdin` and `json`.
public enum IOModules {
    public static let all: [BuiltinModule] = [file, standardInput, json]

    static func function(
        _ name: String, _ family: OperatorSpec.Family, _ summary: String, _ parameters: [Parameter],
        _ build: @escaping @Sendable (Arguments) throws -> Value
    ) -> OperatorSpec {
        OperatorSpec(name, family, .function, summary, [Signature(parameters) { args in
            do { return try build(args) } catch { throw FlowError.wrap(error).located(at: args.context.location) }
        }])
    }

    static func path(_ args: Arguments) throws -> String { try args.string(0, default: "") }

    public static let file = BuiltinModule(name: "file", summary: "files as streams, and writers for sink", functions: [
        function("read", .creation, "the whole file as one string, then completion", [arg("path", .string)]) {
            .stream(FileLinesNode(path: try path($0), wholeFile: true, location: $0.context.location))
        },
        function("lines", .creation, "each line of the file, read as it goes (constant memory), then completion",
                 [arg("path", .string)]) {
            .stream(FileLinesNode(path: try path($0), wholeFile: false, location: $0.context.location))
        },
        function("watch", .creation, "the file's (path:, exists:, size:) each time it changes, checked every 100ms or `every`",
                 [arg("path", .string), labelled("every", .duration, optional: true)]) {
            .stream(FilePollNode(path: try path($0), period: try $0.optionalDuration(1) ?? .milliseconds(Int64(100)), mode: .watch))
        },
        function("tail", .creation, "the lines appended to the file after subscription, checked every 100ms or `every`",
                 [arg("path", .string), labelled("every", .duration, optional: true)]) {
            .stream(FilePollNode(path: try path($0), period: try $0.optionalDuration(1) ?? .milliseconds(Int64(100)), mode: .tail))
        },
        function("write", .utility, "for sink: writes each value as a line (replacing the file), closed when the stream ends",
                 [arg("path", .string)]) {
            .function(try FileWriter(path: try path($0), append: false))
        },
        function("append", .utility, "for sink: appends each value as a line, closed when the stream ends", [arg("path", .string)]) {
            .function(try FileWriter(path: try path($0), append: true))
        },
    ])

    public static let standardInput = BuiltinModule(name: "stdin", summary: "standard input", functions: [
        function("lines", .creation, "each line of standard input, then completion at its end", []) { _ in
            .stream(StandardInputNode())
        },
    ])

    public static let json = BuiltinModule(name: "json", summary: "JSON text to values and back", functions: [
        function("parse", .utility, "the value a JSON text describes (objects become dictionaries)", [arg("text", .string)]) {
            try JSON.parse(try $0.string(0, default: ""))
        },
        function("string", .utility, "the JSON text of a value", [arg("value", .value)]) {
            .string(try JSON.string($0.value(0)!))
        },
    ])
}
