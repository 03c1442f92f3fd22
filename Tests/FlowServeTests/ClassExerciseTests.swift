import FlowTestSupport
import Foundation
import Testing

/// `flow serve --exercise` for a class with identities, attacked as a
/// student would attack it: with raw HTTP requests, not through the page.
/// Each student answers under a token (a roster's personal link, or a name
/// claimed once); nobody writes another's file, a right lane is shown only
/// after a give-up the server recorded, every check, give-up and reveal is
/// in the answer file, and `flow grade --after-reveal` grades by it.
@Suite struct ClassExerciseTests {
    static let roster = """
        file,name,id,email
        ada,Ada Lovelace,1001,ada@example.org
        bob,Bob,1002,bob@example.org
        eve,"=HYPERLINK(""http://evil.example/"")",1003,eve@example.org

        """

    /// A class served with `roster.csv`; its links as printed: file → token, and the teacher's.
    static func rosteredClass(options: [String] = []) throws -> (ServedFolder, students: [String: String], teacher: String) {
        let served = try ServedFolder(files: ["zip.flow": ServedFolder.exercise, "roster.csv": roster], options: ["--roster", "{root}/roster.csv"] + options,
                                      exercise: "zip.flow")
        let lines = served.printedLines { lines in lines.filter { $0.hasPrefix("  ") }.count == 3 }
        var students: [String: String] = [:]
        for line in lines where line.hasPrefix("  ") {
            guard let match = line.firstMatch(of: #/^  ([a-z]+): .*\?token=([0-9a-f]{32})$/#) else { continue }
            students[String(match.1)] = String(match.2)
        }
        let teacher = lines.lazy.compactMap { $0.firstMatch(of: #/the class as it answers \(yours alone\): http://\S+/teacher\?token=([0-9a-f]{32})$/#) }.first
        return (served, students, String(try #require(teacher, "\(lines)").1))
    }

    static func answers(_ answers: [String: Any], check: Bool = false, question: String? = nil) -> String {
        var body: [String: Any] = ["answers": answers, "check": check]
        if let question { body["question"] = question }
        return ServedFolder.encode(body)
    }

    static var rightTenfold: [String: Any] { ExerciseServerTests.events([(1, "10"), (3, "20"), (5, "30"), (6, "|")]) }
    static var lateTenfold: [String: Any] { ExerciseServerTests.events([(1, "10"), (3, "20"), (6, "30"), (7, "|")]) }
    static var rightZip: [String: Any] { ExerciseServerTests.events([(2, #"(1, "a")"#), (6, #"(2, "b")"#), (7, "|")]) }

    static func question(_ answer: RawHTTP.Answer, _ id: String) -> [String: Any]? {
        (answer.json["questions"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    @Test func eachStudentOfTheRosterAnswersThroughTheirOwnLinkAlone() throws {
        let (served, students, teacher) = try Self.rosteredClass()
        #expect(Set(students.keys) == ["ada", "bob", "eve"], "\(students)")
        let raw = RawHTTP(port: served.port)
        let ada = try #require(students["ada"]), bob = try #require(students["bob"])
        let answers = served.folder.appendingPathComponent("zip-answers")

        // A personal link sets the page's cookie, and the page knows whose it is.
        let opened = try raw.send("GET", "/api/me?token=\(ada)")
        #expect(opened.token == ada && opened.json["student"] as? String == "Ada Lovelace", "\(opened)")
        // Without a token, or with one that is nobody's, nothing is answered or saved.
        let forged = [nil, "", String(ada.dropLast()), ada + "0", ada.uppercased(), String(repeating: "0", count: 32), teacher]
        for token in forged {
            for (method, path, body) in [("POST", "/api/exercise", Self.answers([:])), ("POST", "/api/answers", Self.answers([:])),
                                         ("POST", "/api/give-up", #"{"question":"tenfold#1"}"#)] {
                let refused = try raw.send(method, path, json: body, token: token)
                #expect(refused.status == 401 && refused.body.contains("personal link"), "\(path) with \(token ?? "no token"): \(refused)")
            }
        }
        // With a roster nobody claims a name, not even one on the roster.
        let claimed = try raw.send("POST", "/api/identity", json: #"{"name": "Ada Lovelace"}"#)
        #expect(claimed.status == 403 && claimed.token == nil, "\(claimed)")

        // Ada saves; Bob, naming Ada in every way a body can, saves his own file only.
        #expect(try raw.send("POST", "/api/answers", json: Self.answers(["tenfold#1": Self.rightTenfold]), token: ada).json["saved"] as? String == "ada.flow")
        let adas = try String(contentsOf: answers.appendingPathComponent("ada.flow"), encoding: .utf8)
        let bobs = try raw.send("POST", "/api/answers", json: ServedFolder.encode(["answers": [:], "student": "Ada Lovelace", "file": "ada.flow",
                                                                                    "name": "ada"]), token: bob)
        #expect(bobs.json["saved"] as? String == "bob.flow", "\(bobs)")
        #expect(try String(contentsOf: answers.appendingPathComponent("ada.flow"), encoding: .utf8) == adas)
        #expect(adas.hasPrefix("# zip.flow: the answers of Ada Lovelace\n") && adas.contains(#"toBe("-a-b-c|", a: 10, b: 20, c: 30)"#), "\(adas)")
        // Two cookies, or a cookie and a query: the query's token is the one judged, and it must be a real one.
        let doubled = try raw.send("POST", "/api/answers?token=\(bob)", json: Self.answers([:]), token: ada)
        #expect(doubled.json["saved"] as? String == "bob.flow", "\(doubled)")
        #expect(try String(contentsOf: answers.appendingPathComponent("ada.flow"), encoding: .utf8) == adas)

        // The class's view is the teacher's alone.
        for token in [ada, bob, nil] {
            for path in ["/teacher", "/api/class", "/api/class.csv", "/teacher.js"] {
                #expect(try raw.send("GET", path, token: token).status == 403, "\(path)")
            }
        }
        #expect(try raw.send("GET", "/teacher?token=\(teacher)").status == 200)
        // The teacher's token answers as nobody.
        #expect(try raw.send("POST", "/api/answers", json: Self.answers([:]), token: teacher).status == 401)

        // The register that keeps the tokens is the teacher's to read alone, and no file is outside the folder.
        var info = stat()
        #expect(stat(answers.appendingPathComponent(".flow-serve-class.json").path, &info) == 0 && info.st_mode & 0o077 == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: answers.path).sorted() == [".flow-serve-class.json", "ada.flow", "bob.flow"])
    }

    @Test func withoutARosterANameIsClaimedOnceAndKeptByItsBrowser() throws {
        let served = try ServedFolder(files: ["zip.flow": ServedFolder.exercise, "zip-answers/carol.flow": "# handed in before\n"],
                                      exercise: "zip.flow")
        let raw = RawHTTP(port: served.port)
        #expect(try raw.send("POST", "/api/exercise", json: Self.answers([:])).status == 401)
        let ada = try served.claim("Ada Lovelace")
        #expect(try raw.send("GET", "/api/me", token: ada).json["student"] as? String == "Ada Lovelace")
        // A second browser cannot take the name, however it is spelled, nor a name whose file is already there.
        for name in ["Ada Lovelace", "ada lovelace", "ADA-LOVELACE", "../Ada Lovelace", "Ada\tLovelace", "  Ada   Lovelace ", "Carol"] {
            let taken = try raw.send("POST", "/api/identity", json: ServedFolder.encode(["name": name]))
            #expect(taken.status == 409 && taken.token == nil && taken.body.contains("is taken"), "\(name): \(taken)")
        }
        // A browser that has a name keeps it.
        let again = try raw.send("POST", "/api/identity", json: #"{"name": "Somebody Else"}"#, token: ada)
        #expect(again.status == 409 && again.body.contains("already answers as Ada Lovelace"), "\(again)")
        // Names that try to leave the folder are names, inside it.
        let tricky = try served.claim("../../etc/passwd\u{0}")
        #expect(try raw.send("POST", "/api/answers", json: Self.answers([:]), token: tricky).json["saved"] as? String == "etc-passwd.flow")
        for name in ["", "../", "///", "\u{202E}"] {
            #expect(try raw.send("POST", "/api/identity", json: ServedFolder.encode(["name": name])).status == 422, "\(name.debugDescription)")
        }
        #expect(try raw.send("POST", "/api/identity", json: "{").status == 400)
        // Carol's file from before is untouched.
        let carol = try String(contentsOf: served.folder.appendingPathComponent("zip-answers/carol.flow"), encoding: .utf8)
        #expect(carol == "# handed in before\n")
    }

    @Test func nothingIsRevealedWithoutAGiveUpAndEverythingIsRecorded() throws {
        let (served, students, _) = try Self.rosteredClass()
        let raw = RawHTTP(port: served.port)
        let ada = try #require(students["ada"]), bob = try #require(students["bob"])
        // A request that says it gave up reveals nothing: only a recorded give-up does.
        let claimed = try raw.send("POST", "/api/exercise", json: ServedFolder.encode(["answers": ["tenfold#1": Self.lateTenfold], "check": true,
                                                                                         "gaveUp": ["tenfold#1", "zip#1"]]), token: ada)
        for id in ["tenfold#1", "zip#1"] {
            let question = try #require(Self.question(claimed, id), "\(claimed)")
            #expect(question["right"] == nil && question["revealed"] as? Bool == false && !(question["svg"] as? String ?? "").contains("right answer"))
        }
        #expect(!claimed.body.contains("-a-b-c|"), "\(claimed)")
        // Give-ups of questions that are not there, or paths, are refused and recorded nowhere.
        for id in ["", "tenfold", "tenfold#2", "../tenfold#1", "tenfold#1/../zip#1", "zip.flow", "tenfold#1\n# flow serve: {}"] {
            let refused = try raw.send("POST", "/api/give-up", json: ServedFolder.encode(["question": id]), token: ada)
            #expect(refused.status == 404, "\(id.debugDescription): \(refused)")
        }
        #expect(try raw.send("POST", "/api/give-up", json: #"{"id":"tenfold#1"}"#, token: ada).status == 400)

        // Ada gives up on tenfold: shown to her, and to her alone.
        let gaveUp = try raw.send("POST", "/api/give-up", json: #"{"question":"tenfold#1"}"#, token: ada)
        #expect(Self.question(gaveUp, "tenfold#1")?["right"] as? String == "-a-b-c|   (a = 10, b = 20, c = 30)", "\(gaveUp)")
        #expect(Self.question(gaveUp, "zip#1")?["right"] == nil)
        let bobs = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.lateTenfold], check: true), token: bob)
        #expect(Self.question(bobs, "tenfold#1")?["right"] == nil && !bobs.body.contains("right answer"), "\(bobs)")
        // Bob checks zip wrong. The file says `reveal: true`, but in a class a
        // check never shows a lane: only a give-up does, which is recorded.
        let wrongZip = ExerciseServerTests.events([(2, #"(1, "a")"#), (5, #"(2, "b")"#), (7, "|")])
        let bobsZip = try raw.send("POST", "/api/exercise", json: Self.answers(["zip#1": wrongZip], check: true, question: "zip#1"), token: bob)
        #expect(Self.question(bobsZip, "zip#1")?["revealed"] as? Bool == false && Self.question(bobsZip, "zip#1")?["right"] == nil
                && Self.question(bobsZip, "zip#1")?["reveals"] as? Bool == false && !bobsZip.body.contains("right answer"), "\(bobsZip)")
        #expect((Self.question(bobsZip, "zip#1")?["check"] as? [String: Any])?["passed"] as? Bool == false)
        let bobGivesUp = try raw.send("POST", "/api/give-up", json: #"{"question":"zip#1"}"#, token: bob)
        #expect(Self.question(bobGivesUp, "zip#1")?["revealed"] as? Bool == true && Self.question(bobGivesUp, "zip#1")?["right"] != nil)
        // Then both answer right and save.
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.rightTenfold, "zip#1": Self.rightZip], check: true), token: ada)
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.rightTenfold, "zip#1": Self.rightZip], check: true), token: bob)
        for token in [ada, bob] { #expect(try raw.send("POST", "/api/answers", json: Self.answers(["tenfold#1": Self.rightTenfold, "zip#1": Self.rightZip]), token: token).status == 200) }

        // The answer files hold the record, in order.
        let folder = served.folder.appendingPathComponent("zip-answers")
        func record(_ file: String) throws -> [String] {
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("# flow serve: ") }.map { line in
                    let entry = try JSONSerialization.jsonObject(with: Data(line.dropFirst(14).utf8)) as? [String: Any] ?? [:]
                    #expect((entry["at"] as? String)?.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/#) != nil, "\(entry)")
                    return [entry["event"] as? String, entry["question"] as? String, (entry["right"] as? Bool).map { $0 ? "right" : "wrong" }]
                        .compactMap { $0 }.joined(separator: " ")
                }
        }
        #expect(try record("ada.flow") == ["check tenfold#1 wrong", "give-up tenfold#1", "reveal tenfold#1", "check tenfold#1 right", "check zip#1 right"])
        #expect(try record("bob.flow") == ["check tenfold#1 wrong", "check zip#1 wrong", "give-up zip#1", "reveal zip#1", "check tenfold#1 right",
                                           "check zip#1 right"])

        // Graded as the teacher chooses: tenfold is worth 2, zip 1; each revealed lane as --after-reveal says.
        for (choice, ada, bob) in [("zero", 1, 2), ("half", 2, 2), ("full", 3, 3)] {
            let graded = try FlowProcess.run(["grade", "--after-reveal", choice, "--format", "csv", folder.path])
            #expect(graded.status == 0, "\(graded.err)")
            let rows = graded.out.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            #expect(rows.first { $0.first?.hasSuffix("ada.flow") == true }?.dropFirst(3).first == "\(ada)", "\(choice): \(graded.out)")
            #expect(rows.first { $0.first?.hasSuffix("bob.flow") == true }?.dropFirst(3).first == "\(bob)", "\(choice): \(graded.out)")
        }
        let told = try FlowProcess.run(["grade", "--details", folder.path])
        #expect(told.out.contains("! tenfold: the right lane was shown to the student after a give-up, before they had it right: --after-reveal zero keeps 0 of the 2 points earned"), "\(told.out)")
        #expect(told.out.contains("! zip: the right lane was shown to the student after a give-up, before they had it right"), "\(told.out)")
        #expect(try FlowProcess.run(["grade", "--after-reveal", "some", folder.path]).status == 2)
    }

    @Test func theTeacherIsToldThatAClassSeesNoLaneWithoutAGiveUp() throws {
        let (served, _, _) = try Self.rosteredClass()
        let told = served.errorLines { $0.contains { $0.contains("reveal: true") } }
        #expect(told.contains("flow serve: note: zip.flow:10:3: reveal: true is not honoured in a class: a student sees this lane only after giving up on it (recorded for flow grade)"),
                "\(told)")
    }

    /// Answer files an earlier flow wrote record a lane shown on a check,
    /// with no give-up: graded as shown, and said so.
    @Test func aLaneShownOnACheckByAnEarlierServerIsGradedAsShown() throws {
        let folder = URL(fileURLWithPath: temporaryPath("earlier-answers"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let answered = ServedFolder.exercise.replacingOccurrences(of: #"toBe("???")"#, with: #"toBe("-a-b-c|", a: 10, b: 20, c: 30)"#)
            .replacingOccurrences(of: #"toBe("???", reveal: true)"#, with: #"toBe("--a---b|", a: (1, "a"), b: (2, "b"))"#)
        let record = ["# zip.flow: the answers of Bob",
                      #"# flow serve: {"at":"2026-11-27T09:14:03Z","event":"check","question":"zip#1","right":false}"#,
                      #"# flow serve: {"at":"2026-11-27T09:14:03Z","event":"reveal","question":"zip#1"}"#].joined(separator: "\n")
        try (record + "\n" + answered).write(to: folder.appendingPathComponent("bob.flow"), atomically: true, encoding: .utf8)
        let told = try FlowProcess.run(["grade", "--details", folder.path])
        #expect(told.out.contains("! zip: the right lane was shown to the student on a check, before they had it right (--after-reveal zero)")
                || told.out.contains("! zip: the right lane was shown to the student on a check, before they had it right: --after-reveal zero keeps 0"),
                "\(told.out)\(told.err)")
    }

    /// In an answer file the expected lanes are the student's answers and
    /// the stream's lane is the right one: below `--feedback answer` the
    /// report tells where and how the answer is wrong, as a check does,
    /// never the stream's lane (which `why` shows of a student's own code).
    @Test func anAnswerFilesFeedbackIsOfTheAnswerNotTheRightLane() throws {
        let folder = URL(fileURLWithPath: temporaryPath("answered"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Tenfold's last value a frame late, zip's second a frame early.
        let answered = ServedFolder.exercise.replacingOccurrences(of: #"toBe("???")"#, with: #"toBe("-a-b--c|", a: 10, b: 20, c: 30)"#)
            .replacingOccurrences(of: #"toBe("???", reveal: true)"#, with: #"toBe("--a--b-|", a: (1, "a"), b: (2, "b"), reveal: true)"#)
        try ("# zip.flow: the answers of Ada\n" + answered).write(to: folder.appendingPathComponent("ada.flow"), atomically: true, encoding: .utf8)
        let right = ["-a-b-c|", "--a---b|", "next(30) at frame 5", "frame 6"]
        for format in ["text", "json"] {
            let why = try FlowProcess.run(["grade", "--details", "--format", format, folder.path])
            #expect(why.status == 0, "\(why.err)")
            #expect(right.allSatisfy { !why.out.contains($0) }, "\(format): the right lane is shown: \(why.out)")
            // Said as a check says it: of the answer, never "expected" or the stream's lane.
            #expect(why.out.contains("your answer: -a-b--c|") && why.out.contains("your answer: --a--b-|"), "\(why.out)")
            #expect(why.out.contains("^ frame differs") && !why.out.contains("your lane") && !why.out.contains("expected"), "\(why.out)")
            #expect(why.out.contains("your event is right but 1 frame too late: each - is one frame")
                    && why.out.contains("your event is right but 1 frame too early: each - is one frame"), "\(why.out)")
            let whereLevel = try FlowProcess.run(["grade", "--feedback", "where", "--format", format, folder.path])
            #expect(whereLevel.out.contains("expectation failed: frame differs") && right.allSatisfy { !whereLevel.out.contains($0) }, "\(whereLevel.out)")
            let answer = try FlowProcess.run(["grade", "--feedback", "answer", "--format", format, folder.path])
            #expect(answer.out.contains("-a-b-c|") && answer.out.contains("--a---b|"), "\(answer.out)")
        }
    }

    /// An answer file's lane of groups is graded as a check grades it:
    /// the first group that is wrong is named, drawn as the student placed
    /// it, and the stream's groups are not shown below `--feedback answer`.
    @Test func anAnswerFileOfALaneOfGroupsNamesTheWrongGroup() throws {
        let folder = URL(fileURLWithPath: temporaryPath("grouped"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The even group's 4 a frame early (the stream's is cold("2---4|")).
        let answered = """
            # parity.flow: the answers of Ada
            let numbers = cold("-1-2-3-4|")
            let parity = numbers.groupBy { $0 % 2 == 0 ? "even" : "odd" }

            test "parity" {
              expect(parity).toBe("-a-b----|", a: cold("1---3--|"), b: cold("2--4-|"))
            }

            """
        try answered.write(to: folder.appendingPathComponent("ada.flow"), atomically: true, encoding: .utf8)
        for format in ["text", "json"] {
            let why = try FlowProcess.run(["grade", "--details", "--format", format, folder.path])
            #expect(why.status == 0, "\(why.err)")
            #expect(why.out.contains("group 2, made at frame 3, is not right:") && why.out.contains("^ frame differs in group 2"), "\(why.out)")
            #expect(!why.out.contains("2---4") && !why.out.contains("expected"), "\(format): the right group is shown: \(why.out)")
        }
        let whereLevel = try FlowProcess.run(["grade", "--feedback", "where", folder.path])
        #expect(whereLevel.out.contains("expectation failed: frame differs in group 2"), "\(whereLevel.out)")
    }

    @Test func theTeacherSeesTheClassAndExportsIt() throws {
        let (served, students, teacher) = try Self.rosteredClass()
        let raw = RawHTTP(port: served.port)
        let ada = try #require(students["ada"])
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.lateTenfold], check: true, question: "tenfold#1"), token: ada)
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.rightTenfold], check: true, question: "tenfold#1"), token: ada)
        _ = try raw.send("POST", "/api/give-up", json: #"{"question":"zip#1"}"#, token: ada)
        let view = try raw.send("GET", "/api/class", token: teacher).json
        #expect(view["questions"] as? [String] == ["tenfold#1", "zip#1"])
        let rows = view["students"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["file"] as? String } == ["ada.flow", "bob.flow", "eve.flow"], "\(rows)")
        let adas = rows.first?["questions"] as? [String: [String: Any]] ?? [:]
        #expect(adas["tenfold#1"]?["lastCheck"] as? String == "right" && adas["tenfold#1"]?["checks"] as? Int == 2
                && adas["tenfold#1"]?["answer"] as? String == "-a-b-c|", "\(adas)")
        #expect(adas["zip#1"]?["gaveUp"] as? Bool == true && adas["zip#1"]?["revealed"] as? Bool == true && adas["zip#1"]?["checks"] as? Int == 0)
        #expect(rows.first?["seen"] != nil && rows.last?["seen"] == nil)

        let csv = try raw.send("GET", "/api/class.csv", token: teacher)
        #expect(csv.status == 200 && csv.header("Content-Type")?.hasPrefix("text/csv") == true)
        #expect(csv.header("Content-Disposition") == #"attachment; filename="zip-class.csv""#)
        // Read back as Python's csv reads it: a formula in a name is text.
        let table = try Self.pythonCSV(csv.body)
        #expect(table.first == ["name", "id", "email", "file", "last seen", "tenfold#1: answer", "tenfold#1: last check", "tenfold#1: checks",
                                "tenfold#1: revealed", "zip#1: answer", "zip#1: last check", "zip#1: checks", "zip#1: revealed"], "\(table)")
        let adaRow = try #require(table.first { $0.first == "Ada Lovelace" })
        #expect(Array(adaRow[5...]) == ["'-a-b-c|", "right", "2", "", "", "", "0", "gave up"], "\(adaRow)")
        let eve = try #require(table.first { $0.contains("eve.flow") })
        #expect(eve.first == #"'=HYPERLINK("http://evil.example/")"#, "\(eve)")
        #expect(table.allSatisfy { row in row.allSatisfy { !"=+-@".contains($0.first ?? " ") } }, "\(table)")
    }

    @Test func aClassOutlivesItsServer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-class-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ServedFolder.exercise.write(to: folder.appendingPathComponent("zip.flow"), atomically: true, encoding: .utf8)
        func start() throws -> (Process, RawHTTP, [String]) {
            let (process, out, _) = try FlowProcess.start(["serve", "--exercise", "zip.flow", "--port", "0"], in: folder)
            var printed = ""
            _ = waitFor(seconds: 60) {
                printed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
                return printed.contains("once; the name is then theirs")
            }
            let port = Int(try #require(printed.firstMatch(of: #/127\.0\.0\.1:(\d+)/#)).1)!
            return (process, RawHTTP(port: port), printed.split(separator: "\n").map(String.init))
        }
        var (process, raw, _) = try start()
        let ada = try #require(try raw.send("POST", "/api/identity", json: #"{"name": "Ada"}"#).token)
        _ = try raw.send("POST", "/api/give-up", json: #"{"question":"tenfold#1"}"#, token: ada)
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["zip#1": Self.rightZip]), token: ada)
        process.interrupt()
        #expect(waitFor { !process.isRunning })
        (process, raw, _) = try start()
        defer { process.interrupt(); _ = waitFor { !process.isRunning } }
        // The name is still Ada's, her browser still hers, her give-up still given, her answers still there.
        #expect(try raw.send("POST", "/api/identity", json: #"{"name": "Ada"}"#).status == 409)
        let me = try raw.send("GET", "/api/me", token: ada).json
        #expect(me["student"] as? String == "Ada" && (me["answers"] as? [String: Any])?["zip#1"] != nil, "\(me)")
        let sheet = try raw.send("POST", "/api/exercise", json: Self.answers([:]), token: ada)
        #expect(Self.question(sheet, "tenfold#1")?["revealed"] as? Bool == true)
    }

    /// Beyond loopback a personal link is the token the server asks for:
    /// the student needs no other.
    @Test func beyondLoopbackAPersonalLinkIsTheToken() throws {
        let (served, students, teacher) = try Self.rosteredClass(options: ["--host", "0.0.0.0"])
        let raw = RawHTTP(port: served.port)
        #expect(try raw.send("GET", "/api/files").status == 403)
        let ada = try #require(students["ada"])
        #expect(try raw.send("GET", "/?token=\(ada)").token == ada)
        #expect(try raw.send("POST", "/api/exercise", json: Self.answers([:]), token: ada).status == 200)
        #expect(try raw.send("GET", "/api/class", token: teacher).status == 200)
        #expect(try raw.send("GET", "/api/files", token: String(repeating: "a", count: 32)).status == 403)
    }

    /// The README's walkthrough is what the server prints, records and
    /// grades: its roster served as it says, a student answering as it says.
    @Test func theReadmesWalkthroughIsTheServers() throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let section = String(readme[try #require(readme.range(of: "## Exercises students answer by drawing")).upperBound...])
        func block(after opening: String) throws -> [String] {
            let start = try #require(section.range(of: opening))
            let end = try #require(section[start.upperBound...].range(of: "```"))
            return section[start.lowerBound..<end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let roster = try block(after: "file,name,id,email")
        let command = try block(after: "$ flow serve --exercise zip.flow --roster roster.csv --host 0.0.0.0")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-readme-class-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ServedFolder.exercise.write(to: folder.appendingPathComponent("zip.flow"), atomically: true, encoding: .utf8)
        try (roster.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("roster.csv"), atomically: true, encoding: .utf8)
        let arguments = command[0].split(separator: " ").dropFirst(2).map(String.init) + ["--port", "0"]
        let (process, out, _) = try FlowProcess.start(arguments, in: folder)
        defer { process.interrupt(); _ = waitFor { !process.isRunning } }
        var printed = ""
        _ = waitFor(seconds: 60) {
            printed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            return printed.contains("  bob: ")
        }
        let port = try #require(printed.firstMatch(of: #/0\.0\.0\.0:(\d+)/#)).1
        let shown = printed.replacing(#/:\d+(?=\/)/#, with: ":8080").replacing(#/token=[0-9a-f]{32}/#, with: "token=…")
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(shown == Array(command.dropFirst()), "\(printed)")

        // Ada answers as the walkthrough says: wrong, gives up, right.
        let line = try #require(printed.split(separator: "\n").first { $0.contains("ada-lovelace: ") })
        let ada = String(try #require(line.firstMatch(of: #/token=([0-9a-f]{32})/#)).1)
        let raw = RawHTTP(port: Int(port)!)
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.lateTenfold], check: true, question: "tenfold#1"), token: ada)
        _ = try raw.send("POST", "/api/give-up", json: #"{"question":"tenfold#1"}"#, token: ada)
        _ = try raw.send("POST", "/api/exercise", json: Self.answers(["tenfold#1": Self.rightTenfold], check: true, question: "tenfold#1"), token: ada)
        let file = try String(contentsOf: folder.appendingPathComponent("zip-answers/ada-lovelace.flow"), encoding: .utf8)
        func timeless(_ lines: [String]) -> [String] { lines.map { $0.replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/#, with: "TIME") } }
        let record = try block(after: "# zip.flow: the answers of Ada Lovelace")
        #expect(timeless(record) == timeless(file.split(separator: "\n").prefix(record.count).map(String.init)), "\(file)")
        #expect(file.contains(#"toBe("-a-b-c|", a: 10, b: 20, c: 30)"#))

        // Graded as it says.
        let graded = try FlowProcess.run(["grade", "--details", "zip-answers"], in: folder)
        func words(_ text: some StringProtocol) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let said = try #require(section.range(of: "`! tenfold:")).lowerBound
        let quoted = section[section.index(after: said)...].prefix { $0 != "`" }
        #expect(words(graded.out).contains(words(quoted)), "\(graded.out)")
    }

    @Test func aRosterThatCannotServeTheClassIsRefusedAtTheStart() throws {
        let folder = URL(fileURLWithPath: temporaryPath("rosters"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ServedFolder.exercise.write(to: folder.appendingPathComponent("zip.flow"), atomically: true, encoding: .utf8)
        for (roster, said) in [("file,name,id\n", "roster.csv: the roster names no student"),
                               ("file,name,id\nada lovelace,Ada,1\n", "'ada lovelace' cannot name an answer file: use letters, digits, '-', '_' and '.'"),
                               ("file,name\nada,Ada\n", "the roster names neither an 'id' nor an 'email' column"),
                               ("file,name,id\nada,Ada,1\nada.flow,Ada again,2\n", "roster.csv:3: 'ada.flow' is on the roster twice")] {
            try roster.write(to: folder.appendingPathComponent("roster.csv"), atomically: true, encoding: .utf8)
            let refused = try FlowProcess.run(["serve", "--exercise", "zip.flow", "--roster", "roster.csv", "--port", "0"], in: folder)
            #expect(refused.status == 2 && refused.err.contains(said), "\(roster): \(refused.err)")
        }
        let missing = try FlowProcess.run(["serve", "--exercise", "zip.flow", "--roster", "nobody.csv", "--port", "0"], in: folder)
        #expect(missing.status == 2 && missing.err.contains("nobody.csv"), "\(missing.err)")
        let alone = try FlowProcess.run(["serve", "--roster", "roster.csv", "--port", "0"], in: folder)
        #expect(alone.status == 2 && alone.err.contains("--roster goes with --exercise FILE"), "\(alone.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("zip-answers").path))
    }

    static func pythonCSV(_ text: String) throws -> [[String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import csv, json, sys; print(json.dumps(list(csv.reader(sys.stdin))))"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONSerialization.jsonObject(with: data) as? [[String]] ?? []
    }
}
