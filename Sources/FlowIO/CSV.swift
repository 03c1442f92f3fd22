import Collections
import FlowLanguage
import FlowLive
import FlowRuntime

/// RFC 4180 text, read and written as Python's `csv` module does with its
/// default dialect: fields separated by commas (or `delimiter:`), a field
/// in double quotes may hold delimiters, line breaks and `""` for a quote;
/// records end at LF, CRLF or CR outside quotes; blank lines are skipped.
/// Empty fields are kept: `a,,c` is three fields.
struct CSVParser {
    let delimiter: Unicode.Scalar
    private var fields: [String] = []
    private var quoted: [Bool] = []
    private var fieldIsQuoted = false
    /// The field under way, as UTF-8: every character the format gives a
    /// meaning to is ASCII, so a byte that is not one of them is copied
    /// as it is, and a record is parsed without decoding its text.
    private var field: [UInt8] = []
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterCR }
    private var state = State.fieldStart
    /// The line (from 1) where the record under way began, for messages.
    private(set) var recordLine = 1
    private(set) var line = 1
    /// Whether the record under way has any content yet (a blank line has none).
    private var started = false

    init(delimiter: Unicode.Scalar = ",") { self.delimiter = delimiter }

    /// Reads `text`, calling `emit` with each record it completes.
    mutating func feed(_ text: String, _ emit: (CSVRecord) throws -> Void) rethrows {
        if delimiter.isASCII {
            try read(text.utf8, delimiter: UInt8(delimiter.value), quote: UInt8(ascii: "\""), lf: UInt8(ascii: "\n"), cr: UInt8(ascii: "\r"),
                     append: { $1.append($0) }, emit)
        } else {
            try read(text.unicodeScalars, delimiter: delimiter, quote: "\"", lf: "\n", cr: "\r",
                     append: { scalar, field in UTF8.encode(scalar) { field.append($0) } }, emit)
        }
    }

    /// Reads one line of a file without its line break (`csv.read`), as
    /// `feed(line + "\n")` would, without making that string.
    mutating func feed(line text: String, _ emit: (CSVRecord) throws -> Void) rethrows {
        try feed(text, emit)
        try read(CollectionOfOne(UInt8(ascii: "\n")), delimiter: delimiter.isASCII ? UInt8(delimiter.value) : 0, quote: UInt8(ascii: "\""),
                 lf: UInt8(ascii: "\n"), cr: UInt8(ascii: "\r"), append: { $1.append($0) }, emit)
    }

    /// The state machine, on bytes (an ASCII delimiter) or on scalars.
    private mutating func read<Units: Sequence>(_ units: Units, delimiter: Units.Element, quote: Units.Element, lf: Units.Element,
                                                cr: Units.Element, append: (Units.Element, inout [UInt8]) -> Void,
                                                _ emit: (CSVRecord) throws -> Void) rethrows where Units.Element: Equatable {
        for unit in units {
            if state == .afterCR {
                state = .fieldStart
                if unit == lf { continue }
            }
            switch state {
            case .fieldStart, .unquoted:
                if unit == quote && state == .fieldStart {
                    state = .quoted
                    fieldIsQuoted = true
                    started = true
                } else if unit == delimiter {
                    endField()
                    started = true
                    state = .fieldStart
                } else if unit == lf || unit == cr {
                    try endRecord(emit)
                    line += 1
                    state = unit == cr ? .afterCR : .fieldStart
                } else {
                    append(unit, &field)
                    started = true
                    state = .unquoted
                }
            case .quoted:
                if unit == quote {
                    state = .quoteInQuoted
                } else {
                    if unit == lf { line += 1 }
                    append(unit, &field)
                }
            case .quoteInQuoted:
                if unit == quote {
                    append(unit, &field)
                    state = .quoted
                } else if unit == delimiter {
                    endField()
                    state = .fieldStart
                } else if unit == lf || unit == cr {
                    try endRecord(emit)
                    line += 1
                    state = unit == cr ? .afterCR : .fieldStart
                } else {
                    // `"ab"c`: Python keeps what follows the closing quote.
                    append(unit, &field)
                    state = .unquoted
                }
            case .afterCR: break
            }
        }
    }

    /// The end of the input: the last record, if it has no line break.
    mutating func finish(_ emit: (CSVRecord) throws -> Void) throws {
        if state == .quoted {
            throw FlowError("csv: the quoted field that begins on line \(recordLine) is never closed")
        }
        try endRecord(emit)
    }

    /// Whether a quoted field is open, so a line break read so far belongs to it.
    var isInsideQuotes: Bool { state == .quoted }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        quoted.append(fieldIsQuoted)
        field.removeAll(keepingCapacity: true)
        fieldIsQuoted = false
    }

    private mutating func endRecord(_ emit: (CSVRecord) throws -> Void) rethrows {
        defer { recordLine = line + 1 }
        guard started || !field.isEmpty else { return }
        endField()
        let record = CSVRecord(fields: fields, quoted: quoted, line: recordLine)
        fields = []
        quoted = []
        started = false
        try emit(record)
    }
}

/// One record as read: its fields, which of them were quoted (a quoted
/// field is text even when it reads as a number or is empty), and the line
/// it began on.
struct CSVRecord {
    var fields: [String]
    var quoted: [Bool]
    var line: Int
}

/// What records become: arrays of strings, or with a header dictionaries
/// by column name; with `typed`, numbers and empty fields read as values.
struct CSVRecords {
    let header: Bool
    let typed: Bool
    private(set) var columns: [Value]?

    init(header: Bool, typed: Bool) {
        self.header = header
        self.typed = typed
    }

    /// The value for one record, or nil for the header itself.
    mutating func value(of record: CSVRecord) throws -> Value? {
        let fields = record.fields, line = record.line
        guard header else { return .array(fields.indices.map { field(fields[$0], quoted: record.quoted[$0]) }) }
        guard let columns else {
            var seen = Set<String>()
            for name in fields where !seen.insert(name).inserted {
                throw FlowError("csv: the header names the column \(name.debugDescription) twice")
            }
            self.columns = fields.map(Value.string)
            return nil
        }
        guard fields.count <= columns.count else {
            throw FlowError("csv: the record on line \(line) has \(fields.count) fields, more than the header's \(columns.count)")
        }
        var values = OrderedDictionary<Value, Value>(minimumCapacity: columns.count)
        for (i, name) in columns.enumerated() { values[name] = i < fields.count ? field(fields[i], quoted: record.quoted[i]) : .null }
        return .dictionary(values)
    }

    /// A field as text, or typed: a whole number, a decimal, nil when
    /// empty, unless it was quoted.
    private func field(_ text: String, quoted: Bool) -> Value {
        guard typed, !quoted else { return .string(text) }
        if text.isEmpty { return .null }
        if let i = Int(text) { return .int(i) }
        if let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (48...57).contains(first),
           let d = Double(text), d.isFinite { return .double(d) }
        return .string(text)
    }
}

/// `csv.read(path)` and `csv.parse(lines)`: the records of a stream of
/// lines (a file's, standard input's), parsed as they come: a record whose
/// quoted field spans lines is emitted once its last line has arrived.
final class CSVRecordsNode: Observable {
    let options: (header: Bool, typed: Bool, delimiter: Unicode.Scalar)
    let lines: Observable

    init(lines: Observable, header: Bool, typed: Bool, delimiter: Unicode.Scalar, name: String, location: SourceLocation?) {
        options = (header, typed, delimiter)
        self.lines = lines
        super.init(operatorName: name, input: lines)
        self.location = location
    }

    override func subscribeCore(_ observer: Observer, on scheduler: Scheduler) {
        lines.subscribe(CSVRecordsObserver(observer, options, location: location), on: scheduler)
    }
}

private final class CSVRecordsObserver: Observer {
    private let downstream: Observer
    private var parser: CSVParser
    private var records: CSVRecords
    private let location: SourceLocation?
    private var done = false
    private var subscription: Disposable?

    init(_ downstream: Observer, _ options: (header: Bool, typed: Bool, delimiter: Unicode.Scalar), location: SourceLocation?) {
        self.downstream = downstream
        parser = CSVParser(delimiter: options.delimiter)
        records = CSVRecords(header: options.header, typed: options.typed)
        self.location = location
    }

    func onSubscribe(_ subscription: Disposable) {
        self.subscription = subscription
        downstream.onSubscribe(subscription)
    }

    func onNext(_ value: Value) {
        guard !done else { return }
        do {
            let text = try value.asString()
            try parser.feed(line: text) { try emit($0) }
        } catch {
            fail(error)
        }
    }

    func onError(_ error: FlowError) {
        guard !done else { return }
        done = true
        downstream.onError(error)
    }

    func onCompleted() {
        guard !done else { return }
        do { try parser.finish { try emit($0) } } catch { return fail(error) }
        done = true
        downstream.onCompleted()
    }

    private func emit(_ record: CSVRecord) throws {
        if let value = try records.value(of: record) { downstream.onNext(value) }
    }

    private func fail(_ error: Error) {
        done = true
        subscription?.dispose()
        downstream.onError(FlowError.wrap(error).located(at: location))
    }
}

/// Writing records as CSV: each value a record (an array of fields, or a
/// dictionary whose keys the first one gives as the header line).
struct CSVFormatter {
    let delimiter: String
    /// What ends each record: CRLF, as RFC 4180 and Python's `csv` write
    /// it, or LF when asked.
    let lineTerminator: String
    private var columns: [Value]?

    init(delimiter: String, lineTerminator: String = "\r\n") {
        self.delimiter = delimiter
        self.lineTerminator = lineTerminator
    }

    /// The line(s) for one value, without the final line terminator.
    mutating func lines(for value: Value) throws -> String {
        switch value {
        case .array(let fields): return try line(fields)
        case .tuple(let t) where t.labels == nil: return try line(t.elements)
        case .dictionary(let record):
            guard let columns else {
                columns = Array(record.keys)
                return try line(Array(record.keys)) + lineTerminator + line(Array(record.values))
            }
            guard record.count == columns.count, columns.allSatisfy({ record[$0] != nil }) else {
                throw FlowError("csv.write: a record's keys \(Value.array(Array(record.keys)).literal) differ from the header's \(Value.array(columns).literal)")
            }
            return try line(columns.map { record[$0]! })
        default:
            return try line([value])
        }
    }

    private func line(_ fields: [Value]) throws -> String {
        try fields.map { try quoted($0) }.joined(separator: delimiter)
    }

    /// A field as RFC 4180 writes it: quoted when it holds the delimiter, a
    /// quote or a line break (or is empty text, so it differs from nil), its
    /// quotes doubled. nil is an empty field.
    private func quoted(_ value: Value) throws -> String {
        let text: String
        switch value {
        case .null: return ""
        case .string(let s): text = s
        case .int, .double, .bool: return value.description
        case .array, .dictionary, .tuple, .function, .stream, .object, .event, .duration: text = value.description
        }
        if text.isEmpty { return "\"\"" }
        guard text.contains(where: { $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || String($0) == delimiter }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}

extension IOModules {
    static let csvOptions = [
        labelled("header", .bool, optional: true), labelled("typed", .bool, optional: true), labelled("delimiter", .string, optional: true),
    ]

    /// `csv.write`'s `lineTerminator:` (Python's `lineterminator`): CRLF
    /// unless LF is asked for.
    static func lineTerminator(_ args: Arguments, _ i: Int) throws -> String {
        let text = try args.string(i, default: "\r\n")
        guard text == "\r\n" || text == "\n" else {
            throw FlowError("csv.write: lineTerminator is \"\\r\\n\" (RFC 4180's, the default) or \"\\n\", not \(text.debugDescription)",
                            at: args.context.location)
        }
        return text
    }

    static func delimiter(_ args: Arguments, _ i: Int) throws -> Unicode.Scalar {
        let text = try args.string(i, default: ",")
        guard text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first, scalar != "\"", scalar != "\n", scalar != "\r" else {
            throw FlowError("csv: the delimiter is one character other than a quote or a line break, not \(text.debugDescription)")
        }
        return scalar
    }

    public static func csv(_ access: Access) -> BuiltinModule { BuiltinModule(name: "csv", summary: "RFC 4180 records: read, parsed, written", functions: [
        function("read", .creation,
                 "each record of a CSV file as it is read: an array of fields, or with header: true a dictionary by column name; typed: true reads numbers as numbers and empty fields as nil",
                 [arg("path", .string)] + csvOptions) { args in
            // Lines with their CRs: a CRLF inside a quoted field is the field's.
            let lines = FileLinesNode(path: try path(args, access), wholeFile: false, location: args.context.location, access: access,
                                      keepingCarriageReturns: true)
            return .stream(CSVRecordsNode(lines: lines, header: try args.bool(1, default: false), typed: try args.bool(2, default: false),
                                          delimiter: try delimiter(args, 3), name: "csv.read", location: args.context.location))
        },
        function("parse", .transformation,
                 "the records of a stream of lines (a quoted field may span lines), or of one text as an array; options as csv.read",
                 [arg("lines", .value)] + csvOptions) { args in
            let (header, typed, separator) = (try args.bool(1, default: false), try args.bool(2, default: false), try delimiter(args, 3))
            switch args.value(0) {
            case .stream(let lines)?:
                return .stream(CSVRecordsNode(lines: lines, header: header, typed: typed, delimiter: separator, name: "csv.parse",
                                              location: args.context.location))
            case .string(let text)?:
                var parser = CSVParser(delimiter: separator)
                var records = CSVRecords(header: header, typed: typed)
                var result: [Value] = []
                let emit: (CSVRecord) throws -> Void = { record in
                    if let value = try records.value(of: record) { result.append(value) }
                }
                try parser.feed(text, emit)
                try parser.finish(emit)
                return .array(result)
            case let other:
                throw FlowError("csv.parse takes a stream of lines or a text, not \(other.map { "\($0.typeName) \($0.literal)" } ?? "nothing")")
            }
        },
        function("write", .utility,
                 "for sink: writes each value as a CSV record (an array's fields; dictionaries under a header line of the first one's keys), each ended by CRLF as RFC 4180 and Python's csv write it (lineTerminator: \"\\n\" for LF), replacing the file when the stream ends",
                 [arg("path", .string), labelled("delimiter", .string, optional: true), labelled("lineTerminator", .string, optional: true)]) { args in
            let terminator = try lineTerminator(args, 2)
            var formatter = CSVFormatter(delimiter: String(Character(try delimiter(args, 1))), lineTerminator: terminator)
            return .function(try FileWriter(path: try path(args, access), append: false, location: args.context.location, access: access,
                                            name: "csv.write", lineTerminator: terminator, format: { try formatter.lines(for: $0) },
                                            context: args.context, claims: args.context.runClaims))
        },
    ], examples: ["read": #"csv.read("orders.csv", header: true, typed: true).filter { $0.total > 100 }"#,
                  "parse": #"csv.parse(stdin.lines(), header: true)"#,
                  "write": #"rows.sink(csv.write("out.csv"))"#]) }
}
