import Foundation
import FlowTestSupport
import Testing

/// `flow test`'s reports cannot be forged by what a script controls: its
/// test names, what it prints, its errors' messages. A script of hostile
/// names and output is reported in every format, and each report is read
/// back by a real reader (Python's json and xml.etree, a strict TAP line
/// check with Python's own idea of a line break): the tests it holds are
/// the script's tests, each once, with its name.
@Suite struct ReportForgeryTests {
    /// Names and text written to break a report: line breaks of every kind,
    /// a TAP result and plan, terminal escapes, XML's impossible characters,
    /// markup, TAP directives, bidirectional overrides.
    static let hostile = [
        "line\nok 99 - forged", "1..2", "carriage\rreturn\r\nnot ok 3 - x", "esc \u{1B}[2J\u{1B}[H cleared \u{1B}]0;title\u{7}",
        "FFFF \u{FFFF} FFFE \u{FFFE} nul \u{0}", "sep \u{2028} para \u{2029} nel \u{85}", "bidi \u{202E}desrever\u{202C}",
        "# SKIP not skipped", "ok 5 # TODO", "back\\slash \\# hash", "<tag attr=\"x\">&amp;</tag> ]]> <!--", "tab\there",
        "vt\u{0B}ff\u{0C}fs\u{1C}", "emoji 🧪 e\u{301}", "  ---\n  status: passed\n  ...", "✓ fake.flow: forged row\n3 passed, 0 failed",
    ]

    /// `text` as a flow string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value > 0x7E:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Half the tests pass, half fail with a hostile error message; every
    /// one prints hostile text.
    static func script(printing: Bool = true) -> String {
        hostile.enumerated().map { i, name in
            let check = i % 2 == 0 ? "expect(just(\(i))).toBe(\"(a|)\", a: \(i))" : "expect(error(\(literal(name)))).toBe(\"|\")"
            return "test \(literal(name)) {\n" + (printing ? "  print(\(literal(name)))\n" : "") + "  \(check)\n}\n"
        }.joined()
    }

    static func report(_ format: String, printing: Bool = true) throws -> String {
        let folder = URL(fileURLWithPath: temporaryPath("forge"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try script(printing: printing).write(to: folder.appendingPathComponent("hostile.flow"), atomically: true, encoding: .utf8)
        let result = try FlowProcess.run(["test", "--format", format, "hostile.flow"], in: folder, timeout: 120)
        #expect(result.status == 1, "\(result.err)")
        return result.out
    }

    /// Runs python3 on `input` (its bytes), returning what it printed.
    static func python(_ program: String, input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (stdin, stdout, stderr)
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 could not read it: \(problem)")
        return String(decoding: data, as: UTF8.self)
    }

    static func strings(_ json: String) throws -> [String] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
    }

    @Test func jsonCarriesEveryNameAndOutputExactly() throws {
        let report = try Self.report("json")
        let names = try Self.strings(Self.python("""
            import json, sys
            report = json.loads(sys.stdin.buffer.read().decode('utf-8'))
            print(json.dumps([t['name'] for t in report['tests']] + [t['output'] for t in report['tests']]))
            """, input: report))
        #expect(Array(names.prefix(Self.hostile.count)) == Self.hostile)
        // What each test printed, its last line break aside.
        #expect(Array(names.dropFirst(Self.hostile.count)) == Self.hostile)
    }

    @Test func junitIsValidXMLForAnyName() throws {
        let report = try Self.report("junit")
        let names = try Self.strings(Self.python("""
            import json, sys, xml.etree.ElementTree as ET
            root = ET.fromstring(sys.stdin.buffer.read())
            print(json.dumps([case.get('name') for case in root.iter('testcase')]))
            """, input: report))
        // What XML cannot hold at all is shown as Swift writes it; the rest is exact.
        let expected = Self.hostile.map { name in
            name.unicodeScalars.map { c in
                (c.value < 0x20 && c != "\t" && c != "\n" && c != "\r") || c.value == 0xFFFE || c.value == 0xFFFF
                    ? "\\u{\(String(c.value, radix: 16, uppercase: true))}" : String(c)
            }.joined()
        }
        #expect(names == expected)
    }

    /// Every line (as Python splits lines, at every kind of break) is a
    /// TAP line of its kind; the results are numbered 1 to N, the plan says N.
    @Test func tapLinesCannotBeSplitOrForged() throws {
        let report = try Self.report("tap")
        let verdict = try Self.python(#"""
            import re, sys
            lines = sys.stdin.buffer.read().decode('utf-8').splitlines()
            problems, results, plans = [], [], []
            in_yaml = False
            for line in lines:
                if in_yaml:
                    if line == '  ...': in_yaml = False
                    elif not line.startswith('  '): problems.append('yaml: ' + repr(line))
                    continue
                m = re.fullmatch(r'(not ok|ok) (\d+) - (.*)', line)
                if m:
                    results.append(int(m.group(2)))
                    if re.search(r'(?<!\\)#', m.group(3)): problems.append('directive: ' + repr(line))
                elif re.fullmatch(r'1\.\.(\d+)', line): plans.append(int(line[3:]))
                elif line == '  ---': in_yaml = True
                elif line == 'TAP version 13' or line.startswith('# '): pass
                else: problems.append('stray: ' + repr(line))
            print(problems, results, plans)
            """#, input: report)
        let count = Self.hostile.count
        #expect(verdict == "[] \(Array(1...count)) [\(count)]\n", "\(verdict)")
        #expect(report.hasSuffix("1..\(count)\n"))
    }

    /// The text report: one ✓ or ✗ line per test, nothing a terminal acts
    /// on, whatever the names and messages hold. (What a test prints is
    /// the script's own output there: the other formats keep it apart.)
    @Test func textShowsControlCharactersVisibly() throws {
        let report = try Self.report("text", printing: false)
        let verdict = try Self.python(#"""
            import re, sys
            text = sys.stdin.buffer.read().decode('utf-8')
            hidden = re.findall('[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]', text)
            lines = text.splitlines()
            rows = [l for l in lines if l.startswith('\u2713 ') or l.startswith('\u2717 ')]
            print(len(hidden), len(rows), lines[-1])
            """#, input: report)
        let count = Self.hostile.count
        #expect(verdict == "0 \(count) \(count / 2) passed, \(count / 2) failed\n", "\(verdict)")
        #expect(report.contains("✓ hostile.flow: line\\nok 99 - forged\n"), "\(report)")
    }
}
