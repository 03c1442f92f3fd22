import Foundation
import Testing

@testable import FlowIO
@testable import FlowLanguage
import FlowRuntime
import FlowTestSupport

/// CSV as RFC 4180 and Python's `csv` module read it: the expected records
/// are what `csv.reader` gave for the same bytes (Python 3.11).
@Suite struct CSVTests {
    /// Quotes with delimiters, doubled quotes, an empty field, a field
    /// across lines, CRLF and LF ends, a blank line, text after a closing
    /// quote and a quote inside an unquoted field, no final line break.
    static let odd = "id,name,note,amount\r\n1,\"Smith, J\",\"said \"\"hi\"\"\",10\r\n2,,\"two\nlines\",\r\n\r\n3,plain,\"\",-2.5\n4,\"x\"y,a\"b,7"

    static let pythonRecords = [
        ["id", "name", "note", "amount"], ["1", "Smith, J", "said \"hi\"", "10"], ["2", "", "two\nlines", ""],
        ["3", "plain", "", "-2.5"], ["4", "xy", "a\"b", "7"],
    ]

    @Test func theParserReadsWhatPythonReads() throws {
        var parser = CSVParser()
        var records: [[String]] = []
        try parser.feed(Self.odd) { records.append($0.fields) }
        try parser.finish { records.append($0.fields) }
        #expect(records == Self.pythonRecords)

        // Fed line by line (as file.lines gives them), the same records.
        var byLine = CSVParser()
        var again: [[String]] = []
        for line in Self.odd.split(separator: "\n", omittingEmptySubsequences: false) {
            try byLine.feed(String(line) + "\n") { again.append($0.fields) }
        }
        try byLine.finish { again.append($0.fields) }
        #expect(again == Self.pythonRecords)
    }

    /// Text beyond ASCII is kept whole, whether the delimiter is ASCII (the
    /// parser reads bytes) or not (it reads characters), fed whole or a
    /// line at a time.
    @Test func textBeyondASCIIAndAnyDelimiterAreKept() throws {
        for delimiter in [",", "§"] {
            let d = delimiter
            let text = "名前\(d)note\r\n\"Zoë\(d) \"\"ß\"\"\"\(d)🙂 ok\n\"two\nlines 日本\"\(d)\n"
            let expected = [["名前", "note"], ["Zoë\(d) \"ß\"", "🙂 ok"], ["two\nlines 日本", ""]]
            var whole = CSVParser(delimiter: Unicode.Scalar(delimiter)!)
            var records: [[String]] = []
            try whole.feed(text) { records.append($0.fields) }
            try whole.finish { records.append($0.fields) }
            #expect(records == expected, "delimiter \(delimiter)")
            var byLine = CSVParser(delimiter: Unicode.Scalar(delimiter)!)
            var again: [[String]] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                try byLine.feed(line: String(line)) { again.append($0.fields) }
            }
            try byLine.finish { again.append($0.fields) }
            #expect(again == expected, "delimiter \(delimiter), by line")
        }
    }

    @Test func recordsByColumnNameTypedOnRequest() throws {
        let path = temporaryPath("odd.csv")
        try Self.odd.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let named = try run("""
            csv.read("\(path)", header: true).map { "\\($0["name"]!)|\\($0.amount!)" }.sink { print($0) }
            """)
        #expect(named.outcome.passed, "\(named.err)")
        #expect(named.out == ["Smith, J|10", "|", "plain|-2.5", "xy|7"], "\(named.out)")
        // Each run reads the file on its own: the streams' chunks interleave.
        let result = try run("""
            csv.read("\(path)", header: true, typed: true).sink { print($0) }
            csv.read("\(path)").count().sink { print($0) }
            """)
        #expect(result.outcome.passed, "\(result.err)")
        #expect(result.out == [
            #"["id": 1, "name": "Smith, J", "note": "said \"hi\"", "amount": 10]"#,
            #"["id": 2, "name": nil, "note": "two\nlines", "amount": nil]"#,
            #"["id": 3, "name": "plain", "note": "", "amount": -2.5]"#,
            #"["id": 4, "name": "xy", "note": "a\"b", "amount": 7]"#,
            "5",
        ], "\(result.out)")
    }

    @Test func parseTakesAStreamOfLinesOrAText() throws {
        let result = try run(#"""
            csv.parse(of("a;b", "\"1;2\";\"x", "y\"\";z\""), header: true, delimiter: ";").sink { print($0) }
            print(csv.parse("x,,z\n\n1,2", typed: true))
            """#)
        #expect(result.outcome.passed, "\(result.err)")
        #expect(result.out == [#"["a": "1;2", "b": "x\ny\";z"]"#, #"[["x", nil, "z"], [1, 2]]"#], "\(result.out)")
    }

    @Test func malformedInputIsALocatedError() throws {
        let unclosed = try run(#"csv.parse(of("a,\"open", "still open")).sink { print($0) }"#)
        #expect(unclosed.err.joined().contains("io.flow:1:"), "\(unclosed.err)")
        #expect(unclosed.err.joined().contains("csv: the quoted field that begins on line 1 is never closed"), "\(unclosed.err)")
        let wide = try run(#"print(csv.parse("a,b\n1,2\n1,2,3", header: true))"#)
        #expect(wide.err.joined().contains("csv: the record on line 3 has 3 fields, more than the header's 2"), "\(wide.err)")
        let twice = try run(#"print(csv.parse("a,a\n1,2", header: true))"#)
        #expect(twice.err.joined().contains(#"csv: the header names the column "a" twice"#), "\(twice.err)")
        let delimiter = try run(#"print(csv.parse("a", delimiter: "::"))"#)
        #expect(delimiter.err.joined().contains("the delimiter is one character"), "\(delimiter.err)")
    }

    /// What csv.write writes, csv.read reads back as it was; nil and empty
    /// text stay apart (an empty field and `""`, as PostgreSQL's CSV has them).
    @Test func writeThenReadRoundTrips() throws {
        let path = temporaryPath("out.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try run(#"""
            of(["id": 1, "text": "a, \"b\"", "memo": "two\nlines"], ["id": 2, "text": "", "memo": nil]).sink(csv.write("\#(path)"))
            """#)
        #expect(written.outcome.passed, "\(written.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "id,text,memo\r\n1,\"a, \"\"b\"\"\",\"two\nlines\"\r\n2,\"\",\r\n")
        let read = try run(#"csv.read("\#(path)", header: true, typed: true).sink { print($0) }"#)
        #expect(read.out == [#"["id": 1, "text": "a, \"b\"", "memo": "two\nlines"]"#, #"["id": 2, "text": "", "memo": nil]"#], "\(read.out)")
        let mismatch = try run(#"of(["a": 1], ["b": 2]).sink(csv.write("\#(path)"))"#)
        #expect(mismatch.err.joined().contains(#"csv.write: a record's keys ["b"] differ from the header's ["a"]"#), "\(mismatch.err)")
    }

    /// Records end with CRLF, as RFC 4180 says and Python's `csv.writer`
    /// writes by default; a line break inside a quoted field is kept as it
    /// is. The expected bytes are what Python 3's
    /// `csv.writer(f).writerows(...)` wrote for the same rows.
    @Test func writeEndsRecordsWithCRLFAsPythonDoes() throws {
        let path = temporaryPath("crlf.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try run(#"""
            of(["id", "text", "price"], [1, "a, \"b\"", 2.5], [2, "two\nlines", nil], [3, "x\r\ny", 0]).sink(csv.write("\#(path)"))
            """#)
        #expect(written.outcome.passed, "\(written.err)")
        let python = "id,text,price\r\n1,\"a, \"\"b\"\"\",2.5\r\n2,\"two\nlines\",\r\n3,\"x\r\ny\",0\r\n"
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(python.utf8))
        let read = try run(#"csv.read("\#(path)").sink { print($0) }"#)
        #expect(read.out == [#"["id", "text", "price"]"#, #"["1", "a, \"b\"", "2.5"]"#, #"["2", "two\nlines", ""]"#, #"["3", "x\r\ny", "0"]"#],
                "\(read.out)")
    }

    /// `lineTerminator: "\n"` (Python's `lineterminator`) writes LF; any
    /// other terminator is a located error saying which are taken.
    @Test func writeEndsRecordsWithLFWhenAsked() throws {
        let path = temporaryPath("lf.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try run(#"of(["a": 1, "b": "x,y"], ["a": 2, "b": nil]).sink(csv.write("\#(path)", lineTerminator: "\n"))"#)
        #expect(written.outcome.passed, "\(written.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\n1,\"x,y\"\n2,\n")
        let wrong = try run(#"of([1]).sink(csv.write("\#(path)", lineTerminator: ";"))"#)
        #expect(wrong.err.joined().contains("io.flow:1:"), "\(wrong.err)")
        #expect(wrong.err.joined().contains(#"csv.write: lineTerminator is "\r\n" (RFC 4180's, the default) or "\n", not ";""#), "\(wrong.err)")
    }
}
