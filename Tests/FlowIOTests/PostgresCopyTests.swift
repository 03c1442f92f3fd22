import Foundation
import FlowTestSupport
import Testing

/// `pg.copy` and `pg.insert`'s COPY path against a real PostgreSQL: what
/// arrives in the table is exactly what the CSV said, and a stop says how
/// many rows were committed, which is what the table holds.
@Suite(.enabled(if: TestDatabase.url != nil, Comment(rawValue: TestDatabase.reasonForSkipping)))
struct PostgresCopyTests {
    let url = TestDatabase.url ?? ""

    func flow(_ script: String) throws -> FlowProcess.Result {
        let path = temporaryPath("copy-\(UUID().uuidString).flow")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try FlowProcess.run(["run", path], timeout: 300, environment: ["DATABASE_URL": url])
    }

    /// Quotes, delimiters, a line break, a tab, backslashes, unicode, an
    /// empty text and a missing value, through csv.read into COPY.
    @Test func anOddCSVArrivesExactly() throws {
        let table = TestDatabase.uniqueName("copied")
        try TestDatabase.sql("CREATE TABLE \(table) (id int PRIMARY KEY, name text, note text, amount numeric)")
        let csv = temporaryPath("odd.csv")
        try "id,name,note,amount\n1,\"Smith, J\",\"said \"\"hi\"\"\",10\n2,\"\",\"two\nlines\",\n3,tab\there,back\\slash \\N é,-2.5\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: csv) }
        let loaded = try flow(#"csv.read("\#(csv)", header: true, typed: true).sink(pg.copy(into: "\#(table)"))"#)
        #expect(loaded.status == 0, "\(loaded.err)")
        let rows = try TestDatabase.sql("SELECT id, coalesce(name, '<null>'), replace(coalesce(note, '<null>'), E'\\n', '|'), coalesce(amount::text, '<null>') FROM \(table) ORDER BY id")
        #expect(rows == "1|Smith, J|said \"hi\"|10\n2||two|lines|<null>\n3|tab\there|back\\slash \\N é|-2.5", "\(rows)")
    }

    @Test func columnsNameAPositionalValuesFieldsAndBatchesCommitInTurn() throws {
        let table = TestDatabase.uniqueName("positional")
        try TestDatabase.sql("CREATE TABLE \(table) (a int, b text, c text DEFAULT 'd')")
        let loaded = try flow(#"range(0, 25).map { [$0, "row \($0)"] }.sink(pg.copy(into: "\#(table)", columns: ["a", "b"], batch: 10))"#)
        #expect(loaded.status == 0, "\(loaded.err)")
        #expect(try TestDatabase.sql("SELECT count(*), sum(a), min(c) FROM \(table)") == "25|300|d")
        let wrong = try flow(#"just([1]).sink(pg.copy(into: "\#(table)", columns: ["a", "b"]))"#)
        #expect(wrong.status == 1 && wrong.err.contains("a value of 1 fields for 2 columns"), "\(wrong.err)")
        let unknown = try flow(#"just((a: 1, zz: 2)).sink(pg.copy(into: "\#(table)"))"#)
        #expect(unknown.status == 1 && unknown.err.contains(#"has no column "zz""#), "\(unknown.err)")
    }

    /// A batch of pg.insert large enough goes by COPY: the same escapes
    /// must hold there too.
    @Test func aLargeInsertBatchKeepsEveryCharacter() throws {
        let table = TestDatabase.uniqueName("bulk")
        try TestDatabase.sql("CREATE TABLE \(table) (id int, note text, meta jsonb)")
        let loaded = try flow(#"range(0, 300).map { (id: $0, note: "a\tb\\c\nd \($0)", meta: ["n": $0]) }.sink(pg.insert("\#(table)"))"#)
        #expect(loaded.status == 0, "\(loaded.err)")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(table) WHERE note = E'a\\tb\\\\c\\nd ' || id AND (meta->>'n')::int = id") == "300")
    }

    /// pg.insert sends a batch of 64 rows or more with COPY and a smaller
    /// one as an INSERT: a statement trigger notes each statement's text.
    @Test func pgInsertChoosesCopyForALargeBatch() throws {
        let table = TestDatabase.uniqueName("chosen"), statements = TestDatabase.uniqueName("statements")
        try TestDatabase.sql("""
            CREATE TABLE \(table) (n int); CREATE TABLE \(statements) (sql text);
            CREATE FUNCTION \(table)_note() RETURNS trigger LANGUAGE plpgsql AS $$
              BEGIN INSERT INTO \(statements) VALUES (left(current_query(), 4)); RETURN NULL; END $$;
            CREATE TRIGGER \(table)_noted AFTER INSERT ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION \(table)_note()
            """)
        let large = try flow(#"range(0, 300).map { (n: $0) }.sink(pg.insert("\#(table)"))"#)
        #expect(large.status == 0, "\(large.err)")
        #expect(try TestDatabase.sql("SELECT string_agg(sql, ',') FROM \(statements)") == "COPY")
        try TestDatabase.sql("TRUNCATE \(statements)")
        let small = try flow(#"range(0, 3).map { (n: $0) }.sink(pg.insert("\#(table)"))"#)
        #expect(small.status == 0, "\(small.err)")
        #expect(try TestDatabase.sql("SELECT string_agg(sql, ',') FROM \(statements)") == "INSE")
        #expect(try TestDatabase.sql("SELECT count(*), sum(n) FROM \(table)") == "303|44853")
    }

    /// Text into a json column is a JSON string there, by COPY and by
    /// INSERT alike; into a text column it is the text itself.
    @Test func textIntoAJSONColumnIsAJSONString() throws {
        let table = TestDatabase.uniqueName("jsontext")
        try TestDatabase.sql("CREATE TABLE \(table) (id int, note text, meta jsonb)")
        let loaded = try flow(#"range(0, 100).map { (id: $0, note: "say \"hi\"\t\($0)", meta: "say \"hi\"\t\($0)") }.sink(pg.insert("\#(table)"))"#)
        #expect(loaded.status == 0, "\(loaded.err)")
        let few = try flow(#"of(1000, 1001).map { (id: $0, note: "x", meta: "plain") }.sink(pg.insert("\#(table)"))"#)
        #expect(few.status == 0, "\(few.err)")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(table) WHERE jsonb_typeof(meta) = 'string' AND meta #>> '{}' = note") == "100")
        #expect(try TestDatabase.sql("SELECT count(*) FROM \(table) WHERE meta = '\"plain\"'::jsonb") == "2")
    }

    /// SIGTERM in the middle of a load: the stop report's count of rows
    /// committed is what the table holds.
    @Test func aStopMidLoadReportsWhatTheTableHolds() throws {
        let table = TestDatabase.uniqueName("stopped")
        try TestDatabase.sql("CREATE TABLE \(table) (n int)")
        let path = temporaryPath("load.flow")
        try #"interval(1ms).flatMap { i in range(i * 200, 200) }.map { (n: $0) }.sink(pg.copy(into: "\#(table)", batch: 500))"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (process, _, err) = try FlowProcess.start(["run", path], environment: ["DATABASE_URL": url])
        try waitUntil { (Int((try? TestDatabase.sql("SELECT count(*) FROM \(table)")) ?? "0") ?? 0) >= 5000 }
        kill(process.processIdentifier, SIGTERM)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143, "\(message)")
        let line = message.split(separator: "\n").last { $0.contains("pg.copy(into: \"\(table)\")") }.map(String.init) ?? ""
        let reported = line.firstMatch(of: /: (\d+) rows? committed/).flatMap { Int($0.1) }
        let held = Int(try TestDatabase.sql("SELECT count(*) FROM \(table)")) ?? -1
        #expect(reported == held && held >= 5000, "reported \(String(describing: reported)), the table holds \(held): \(message)")
    }
}
