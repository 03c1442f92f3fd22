import FlowTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Exercises over the API: `flow serve --exercise` serves one file and
/// nothing else, checks answers without giving the right lane away (until
/// the file or the learner allows it), and saves each student's answers
/// for `flow grade`; the playground answers the exercises of the script
/// it edits and writes the answers into it.
@Suite struct ExerciseServerTests {
    static func answers(_ answers: [String: Any], check: Bool = true, gaveUp: [String] = [], more: [String: Any] = [:]) -> String {
        ServedFolder.encode(["answers": answers, "check": check, "gaveUp": gaveUp].merging(more) { $1 })
    }

    static func events(_ events: [(Int, String)]) -> [String: Any] {
        ["events": events.map { t, value -> [String: Any] in
            value == "|" ? ["t": t, "kind": "complete"] : value == "#" ? ["t": t, "kind": "error"] : ["t": t, "kind": "value", "value": value]
        }]
    }

    static func questions(_ sheet: [String: Any]) -> [String: [String: Any]] {
        Dictionary(uniqueKeysWithValues: (sheet["questions"] as? [[String: Any]] ?? []).map { ($0["id"] as? String ?? "", $0) })
    }

    @Test func anExerciseIsServedAloneAndCheckedWithoutGivingTheAnswerAway() async throws {
        let served = try ServedFolder(files: ["zip.flow": ServedFolder.exercise], exercise: "zip.flow")
        #expect(try await served.json("/api/files")["exercise"] as? String == "zip.flow")
        // Nothing but the exercise: no other script, no editing, no live run.
        for (path, method) in [("/api/render", "POST"), ("/api/file?path=zip.flow", "GET"), ("/api/move", "POST")] {
            #expect(try await served.request(path, method: method, body: method == "GET" ? nil : "{}").status == 404, "\(path)")
        }

        let ada = try served.claim("Ada")
        let unanswered = Self.questions(try await served.json("/api/exercise", method: "POST", body: Self.answers([:], check: false), token: ada))
        let tenfold = try #require(unanswered["tenfold#1"])
        #expect(tenfold["prompt"] as? String == "numbers.map { $0 * 10 }")
        #expect(tenfold["answerLane"] as? Int == 1)
        #expect((tenfold["svg"] as? String)?.contains("numbers") == true)
        #expect(tenfold["check"] == nil)

        // Wrong by a frame: told where and how, never what the stream sent.
        let late = Self.events([(1, "10"), (3, "20"), (6, "30"), (7, "|")])
        let wrong = try #require(Self.questions(try await served.json("/api/exercise", method: "POST", body: Self.answers(["tenfold#1": late]),
                                                                      token: ada))["tenfold#1"])
        let told = try #require((wrong["check"] as? [String: Any])?["text"] as? String)
        #expect(told.contains("your answer: -a-b--c|\n") && told.contains("^ frame differs\n"), "\(told)")
        #expect(told.contains("legend:      a = 10, b = 20, c = 30"), "\(told)")
        #expect(!told.contains("right answer") && !(wrong["svg"] as? String ?? "").contains("right answer") && wrong["right"] == nil)
        #expect((wrong["check"] as? [String: Any])?["column"] as? Int == 5)
        #expect((wrong["svg"] as? String)?.contains(#"class="difference" data-t="5""#) == true)

        // Given up (recorded by the server): the right lane is shown.
        let shown = try #require(Self.questions(try await served.json("/api/give-up", method: "POST", body: #"{"question":"tenfold#1"}"#,
                                                                        token: ada))["tenfold#1"])
        #expect((shown["svg"] as? String)?.contains("right answer") == true)
        #expect(shown["right"] as? String == "-a-b-c|   (a = 10, b = 20, c = 30)")

        // Values typed as a script writes them: zip's tuples are right.
        let pairs = Self.events([(2, #"(1, "a")"#), (6, #"(2, "b")"#), (7, "|")])
        let zip = try #require(Self.questions(try await served.json("/api/exercise", method: "POST", body: Self.answers(["zip#1": pairs]),
                                                                    token: ada))["zip#1"])
        #expect((zip["check"] as? [String: Any])?["passed"] as? Bool == true, "\(zip["check"] ?? "")")
        // A marble that does not read is said to, as the answer's problem.
        let bad = try #require(Self.questions(try await served.json("/api/exercise", method: "POST",
                                                                      body: Self.answers(["zip#1": ["marble": "--(a"]]), token: ada))["zip#1"])
        #expect(((bad["check"] as? [String: Any])?["text"] as? String)?.hasPrefix("the marble does not read") == true)
    }

    @Test func answersAreSavedUnderTheStudentsNameAndGraded() async throws {
        let served = try ServedFolder(files: ["zip.flow": ServedFolder.exercise], exercise: "zip.flow")
        let right = Self.events([(1, "10"), (3, "20"), (5, "30"), (6, "|")])
        let ada = try served.claim("Ada Lovelace")
        let saved = try await served.json("/api/answers", method: "POST", body: Self.answers(["tenfold#1": right]), token: ada)
        #expect(saved["saved"] as? String == "ada-lovelace.flow", "\(saved)")
        let folder = served.folder.appendingPathComponent("zip-answers")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") } == ["ada-lovelace.flow"])
        // No name, no file.
        let nameless = try RawHTTP(port: served.port).send("POST", "/api/identity", json: #"{"name": " ../ "}"#)
        #expect(nameless.status == 422 && nameless.body.contains("type your name"), "\(nameless)")
        // Saved again, replaced; graded as a class.
        _ = try await served.json("/api/answers", method: "POST", body: Self.answers(["tenfold#1": right, "zip#1": ["marble": "--a---b|"]]), token: ada)
        let text = try String(contentsOf: folder.appendingPathComponent("ada-lovelace.flow"), encoding: .utf8)
        #expect(text.hasPrefix("# zip.flow: the answers of Ada Lovelace\n"))
        #expect(text.contains(#"toBe("-a-b-c|", a: 10, b: 20, c: 30)"#) && text.contains(#"toBe("--a---b|", reveal: true)"#), "\(text)")
        let graded = try FlowProcess.run(["grade", folder.path])
        #expect(graded.status == 0)
        #expect(graded.out.contains("ada-lovelace.flow") && graded.out.contains("1 of 2") && graded.out.contains("2 of 3"), "\(graded.out)")
    }

    /// `--answers DIR` is taken from where flow was started, and the
    /// command the server prints to grade the answers works when pasted there.
    /// An answers folder named like an option is printed so that no
    /// command reads it as one.
    @Test func anAnswersFolderNamedLikeAnOptionIsPrintedAsAPath() async throws {
        let start = FileManager.default.temporaryDirectory.appendingPathComponent("flow-answers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: start, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: start) }
        try ServedFolder.exercise.write(to: start.appendingPathComponent("zip.flow"), atomically: true, encoding: .utf8)
        let (process, out, _) = try FlowProcess.start(["serve", "--exercise", "zip.flow", "--answers=-answers", "--port", "0"], in: start)
        defer {
            process.interrupt()
            _ = waitFor { !process.isRunning }
        }
        var printed = ""
        #expect(await waitFor { printed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self); return printed.contains("grade them with") })
        #expect(printed.contains("answers are saved in ./-answers; grade them with: flow grade ./-answers\n"), "\(printed)")
    }

    @Test func theAnswersFolderAndTheGradeCommandAreTheTeachersOwn() async throws {
        let start = FileManager.default.temporaryDirectory.appendingPathComponent("flow-answers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: start.appendingPathComponent("lesson one"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: start) }
        try ServedFolder.exercise.write(to: start.appendingPathComponent("lesson one/zip.flow"), atomically: true, encoding: .utf8)
        let (process, out, _) = try FlowProcess.start(["serve", "--exercise", "lesson one/zip.flow", "--answers", "lesson one/answers", "--port", "0"],
                                                      in: start)
        defer {
            process.interrupt()
            _ = waitFor { !process.isRunning }
        }
        var printed = ""
        #expect(await waitFor { printed += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self); return printed.contains("grade them with") })
        let range = try #require(printed.range(of: #"http://[0-9.:]+/"#, options: .regularExpression))
        let address = try #require(URL(string: String(printed[range])))
        let raw = RawHTTP(port: try #require(address.port))
        let ada = try #require(try raw.send("POST", "/api/identity", json: #"{"name": "Ada"}"#).token)
        let saved = try raw.send("POST", "/api/answers", json: Self.answers(["tenfold#1": Self.events([(1, "10"), (3, "20"), (5, "30"), (6, "|")])]), token: ada)
        #expect(saved.status == 200, "\(saved)")
        // Saved under the folder as typed from the starting folder, not inside the served one.
        #expect(FileManager.default.fileExists(atPath: start.appendingPathComponent("lesson one/answers/ada.flow").path))
        #expect(!FileManager.default.fileExists(atPath: start.appendingPathComponent("lesson one/lesson one").path))
        // The printed command, pasted into a shell where flow was started, grades them.
        let line = try #require(printed.split(separator: "\n").first { $0.contains("grade them with: ") })
        let command = String(line[line.range(of: "grade them with: ")!.upperBound...])
        #expect(command == "flow grade 'lesson one/answers'", "\(line)")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "flow() { \"$FLOW\" \"$@\"; }; " + command]
        shell.currentDirectoryURL = start
        shell.environment = ProcessInfo.processInfo.environment.merging(["FLOW": FlowProcess.defaultBinary.path, "NO_COLOR": "1"]) { $1 }
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let graded = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(graded.contains("ada.flow") && graded.contains("1 file: "), "\(graded)")
    }

    @Test func thePlaygroundAnswersTheExercisesOfTheScriptItEdits() async throws {
        let served = try ServedFolder()
        let request = Self.answers(["tenfold#1": Self.events([(1, "10"), (3, "20"), (5, "30"), (6, "|")])],
                                   more: ["text": ServedFolder.exercise, "name": "zip.flow"])
        let sheet = try await served.json("/api/exercise", method: "POST", body: request)
        #expect(sheet["preamble"] as? String == "# Predict each lane.\nlet numbers = cold(\"-1-2-3|\")\nlet letters = cold(\"--a---b|\")")
        #expect((Self.questions(sheet)["tenfold#1"]?["check"] as? [String: Any])?["passed"] as? Bool == true)
        let written = try await served.json("/api/answers", method: "POST", body: request)
        let text = try #require(written["text"] as? String)
        #expect(text.contains(#"toBe("-a-b-c|", a: 10, b: 20, c: 30)"#) && text.contains(#"toBe("???", reveal: true)"#), "\(text)")
    }

    /// The marble box shows the answer as it goes into the file, values and
    /// all, and whatever is typed there keeps the values it shows: a value
    /// placed in full (`"a!"`, `10`) is never read back as its letter.
    @Test func theMarbleBoxAndThePlacedMarblesStayInStep() async throws {
        let served = try ServedFolder()
        func question(_ answer: [String: Any]) async throws -> [String: Any] {
            let request = Self.answers(["tenfold#1": answer], check: false, more: ["text": ServedFolder.exercise, "name": "zip.flow"])
            return try #require(Self.questions(try await served.json("/api/exercise", method: "POST", body: request))["tenfold#1"])
        }
        func placed(_ question: [String: Any]) -> [String] {
            (question["answer"] as? [[String: Any]] ?? []).map { "\($0["t"] ?? "")=" + (($0["value"] as? String) ?? ($0["kind"] as? String ?? "")) }
        }
        let clicked = try await question(Self.events([(1, "a!"), (3, "10"), (4, "|")]))
        #expect(clicked["marble"] as? String == #""-a-b|", a: "a!", b: 10"#, "\(clicked)")
        let values = try #require(clicked["values"] as? [String: String])
        #expect(values == ["a": "a!", "b": "10"])
        // Retyped bare, a frame later: the symbols keep the values the box showed.
        let retyped = try await question(["marble": "--a-b|", "values": values])
        #expect(placed(retyped) == ["2=a!", "4=10", "5=complete"], "\(retyped)")
        #expect(retyped["marble"] as? String == #""--a-b|", a: "a!", b: 10"#)
        // Typed with its values, as toBe takes them: those win.
        let given = try await question(["marble": #""-a-b|", a: "x y", b: 10"#, "values": values])
        #expect(placed(given) == ["1=x y", "3=10", "4=complete"], "\(given)")
        let grouped = try await question(["marble": #""-(ab)|", values: ["a": 1, "b": "z"]"#])
        #expect(placed(grouped) == ["1=1", "1=z", "5=complete"], "\(grouped)")
        #expect(grouped["marble"] as? String == #""-(1z)|""#)
        // A symbol the box gave no value stands for itself.
        #expect(placed(try await question(["marble": "-a-c|", "values": values])) == ["1=a!", "3=c", "4=complete"])
        let wrong = try await question(["marble": #""-a|", 5"#])
        #expect(((wrong["check"] as? [String: Any])?["text"] as? String)?.contains(#"write the marble in quotes, then each symbol's value"#) == true,
                "\(wrong)")
    }

    /// Feedback names the learner's lane "your answer" and the stream's "the
    /// right answer", draws both in one legend (a letter is one value on the
    /// card), and says what each has at the first difference.
    @Test func feedbackSaysYourAnswerAndTheRightAnswerInOneLegend() async throws {
        let served = try ServedFolder()
        func check(_ events: [(Int, String)], gaveUp: Bool) async throws -> [String: Any] {
            let request = Self.answers(["tenfold#1": Self.events(events)], gaveUp: gaveUp ? ["tenfold#1"] : [],
                                       more: ["text": ServedFolder.exercise, "name": "zip.flow"])
            return try #require(Self.questions(try await served.json("/api/exercise", method: "POST", body: request))["tenfold#1"])
        }
        let late = try await check([(1, "10"), (3, "20"), (6, "30"), (7, "|")], gaveUp: true)
        let told = try #require((late["check"] as? [String: Any])?["text"] as? String)
        #expect(told == """
            your answer:  -a-b--c|
            right answer: -a-b-c|
                               ^ frame differs: your answer has 30 'c' at frame 6, the right answer at frame 5
            hint:         your event is right but 1 frame too late: each - is one frame, a group (ab) takes one frame per character, and [ab] is a group of one frame
            legend:       a = 10, b = 20, c = 30
            """, "\(told)")
        #expect(late["right"] as? String == "-a-b-c|   (a = 10, b = 20, c = 30)")
        // The learner's "a" and "b" keep their letters: the right lane's 10 and 20 take others.
        let letters = try await check([(1, "a"), (3, "b"), (5, "30"), (6, "|")], gaveUp: true)
        let lettered = try #require((letters["check"] as? [String: Any])?["text"] as? String)
        let lines = lettered.split(separator: "\n").map(String.init)
        #expect(lines.first == "your answer:  -a-b-c|" && lines.count > 2 && lines[1].hasPrefix("right answer: ")
                && !lines[1].dropFirst(14).contains("a") && !lines[1].dropFirst(14).contains("b"), "\(lettered)")
        #expect(lines.contains { $0.hasPrefix("legend:") } && !lettered.contains("a = 10") && !lettered.contains("b = 20"), "\(lettered)")
        #expect(lines[2].contains(#"at frame 1 your answer has "a", the right answer 10"#), "\(lettered)")
        for word in ["expected", "actual", "answered:"] { #expect(!told.contains(word) && !lettered.contains(word), "\(word)") }
        #expect((letters["right"] as? String)?.hasPrefix(lines[1].dropFirst("right answer: ".count)) == true, "\(letters["right"] ?? "")")
    }

    /// A lane of groups (`groupBy`, `window`, `map { cold(...) }`) is
    /// answered group by group: each group a value of the answer lane with
    /// its own events (placed at the frames they come, or typed as `toBe`
    /// takes a stream of streams, `a: cold("1---3--|")`), graded as the
    /// stream's groups are, and a wrong answer is told which group is wrong.
    @Test func aLaneOfGroupsIsGradedGroupByGroup() async throws {
        let exercise = """
            let numbers = cold("-1-2-3-4|")
            let parity = numbers.groupBy { $0 % 2 == 0 ? "even" : "odd" }

            test "parity" {
              expect(parity).toBe("???")
            }

            """
        let served = try ServedFolder()
        func question(_ answer: [String: Any]?, gaveUp: Bool = false) async throws -> [String: Any] {
            let request = Self.answers(answer.map { ["parity#1": $0] } ?? [:], gaveUp: gaveUp ? ["parity#1"] : [],
                                       more: ["text": exercise, "name": "parity.flow"])
            return try #require(Self.questions(try await served.json("/api/exercise", method: "POST", body: request))["parity#1"])
        }
        func told(_ question: [String: Any]) -> String { (question["check"] as? [String: Any])?["text"] as? String ?? "" }
        func passed(_ question: [String: Any]) -> Bool { (question["check"] as? [String: Any])?["passed"] as? Bool == true }
        /// Group events: the frame each group is made at and its events, at the frames they come.
        func groups(_ groups: [(Int, [(Int, String)])], end: Int) -> [String: Any] {
            let made: [[String: Any]] = groups.map { t, inner in
                ["t": t, "kind": "value", "inner": Self.events(inner)["events"] ?? []]
            }
            return ["events": made + [["t": end, "kind": "complete"]]]
        }

        let unanswered = try await question(nil)
        #expect(unanswered["nested"] as? Bool == true && (unanswered["groups"] as? [Any])?.isEmpty == true)

        // Right, placed: odd made at 1 (1, 3), even at 3 (2, 4), all ending at 8.
        let rightGroups = groups([(1, [(1, "1"), (5, "3"), (8, "|")]), (3, [(3, "2"), (7, "4"), (8, "|")])], end: 8)
        let placed = try await question(rightGroups)
        #expect(passed(placed), "\(told(placed))")
        #expect(placed["marble"] as? String == #""-a-b----|", a: cold("1---3--|"), b: cold("2---4|")"#)
        let lanes = (placed["groups"] as? [[String: Any]] ?? []).map { [$0["lane"] as? Int ?? -1, $0["start"] as? Int ?? -1] }
        #expect(lanes == [[2, 1], [3, 3]], "\(lanes)")
        #expect((placed["svg"] as? String)?.contains("↳ group 2") == true)
        // Right, typed as toBe takes it; and its marble typed bare keeps its groups.
        #expect(passed(try await question(["marble": #""-a-b----|", a: cold("1---3--|"), b: cold("2---4|")"#])))
        #expect(passed(try await question(["marble": "-a-b----|", "values": placed["values"] ?? [:]])))

        // 4 a frame early in the even group: that group is named, with its own lane.
        let early = try await question(groups([(1, [(1, "1"), (5, "3"), (8, "|")]), (3, [(3, "2"), (6, "4"), (8, "|")])], end: 8))
        #expect(told(early) == """
            group 2, made at frame 3, is not right:
            your answer: ---2--4-|
                               ^ frame differs in group 2
            hint:        your event is right but 1 frame too early: each - is one frame, a group (ab) takes one frame per character, and [ab] is a group of one frame
            """, "\(told(early))")
        #expect((early["check"] as? [String: Any])?["column"] as? Int == 6)
        // The README's section on a lane of groups shows this exercise and this feedback.
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + exercise + "```") && readme.contains("```\n" + told(early) + "\n```"))
        #expect(readme.contains("```\n" + (placed["marble"] as? String ?? "-") + "\n```"))
        // A group made a frame late is the answer lane's difference.
        let late = try await question(groups([(1, [(1, "1"), (5, "3"), (8, "|")]), (4, [(4, "2"), (7, "4"), (8, "|")])], end: 8))
        #expect(told(late).hasPrefix("your answer: -a--b---|\n                 ^ frame differs\n"), "\(told(late))")
        #expect(told(late).contains("hint:        a group is made where the stream sends it: yours is 1 frame too late"), "\(told(late))")
        // Given up: the right groups are drawn under the answer's, a group that is right keeps its letter.
        let shown = try await question(groups([(1, [(1, "1"), (5, "3"), (8, "|")]), (3, [(3, "2"), (6, "4"), (8, "|")])], end: 8), gaveUp: true)
        #expect(shown["right"] as? String == #"-a-c----|   (a = cold("1---3--|"), c = cold("2---4|"))"#, "\(shown["right"] ?? "")")
        #expect(told(shown).contains("right answer: ---2---4|\n") && told(shown).contains("your answer has 4 at frame 6, the right answer at frame 7"),
                "\(told(shown))")
        #expect((shown["svg"] as? String ?? "").components(separatedBy: #"lane-label">↳ group"#).count - 1 == 4)
        // A group's event before the group is made is refused, naming the group.
        let before = try await question(groups([(1, [(1, "1")]), (3, [(2, "2")])], end: 8))
        #expect(told(before) == "group 2 is made at frame 3: its events are placed from there to frame 100000", "\(told(before))")

        // Written into the script, the answer is the expectation `flow test` passes.
        let request = Self.answers(["parity#1": rightGroups], more: ["text": exercise, "name": "parity.flow"])
        let text = try #require(try await served.json("/api/answers", method: "POST", body: request)["text"] as? String)
        #expect(text.contains(#"expect(parity).toBe("-a-b----|", a: cold("1---3--|"), b: cold("2---4|"))"#), "\(text)")
        let script = temporaryPath("parity.flow")
        try text.write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }
        let tested = try FlowProcess.run(["test", script])
        #expect(tested.status == 0 && tested.out.contains("1 passed, 0 failed"), "\(tested.out)\(tested.err)")
    }

    /// A window's and a `map { cold(...) }`'s lanes are lanes of groups too.
    @Test func windowsAndMarbleStreamsAreLanesOfGroups() async throws {
        let exercise = """
            let clicks = cold("-a--b|")
            let requests = clicks.map { _ in cold("--r|") }
            let windows = cold("-1-2-3-4|").window(count: 2)

            test "requests" {
              expect(requests).toBe("???")
            }

            test "windows" {
              expect(windows).toBe("???")
            }

            """
        let served = try ServedFolder()
        let request = Self.answers(["requests#1": ["marble": #""-a--a|", a: cold("--r|")"#],
                                    "windows#1": ["marble": #""a--b---c|", a: cold("-1-(2|)"), b: cold("--3-(4|)"), c: cold("-|")"#]],
                                   more: ["text": exercise, "name": "lanes.flow"])
        let sheet = Self.questions(try await served.json("/api/exercise", method: "POST", body: request))
        for id in ["requests#1", "windows#1"] {
            let question = try #require(sheet[id])
            #expect(question["nested"] as? Bool == true)
            #expect((question["check"] as? [String: Any])?["passed"] as? Bool == true, "\(id): \(question["check"] ?? "")")
        }
        #expect((sheet["windows#1"]?["groups"] as? [Any])?.count == 3)
    }

    /// The README's walkthrough is of the exercise these tests serve.
    @Test func theReadmesExerciseIsTheOneTested() throws {
        let readme = try String(contentsOf: projectDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + ServedFolder.exercise + "```"))
        #expect(readme.contains(#"toBe("-a-b-c|", a: 10, b: 20, c: 30)"#) && readme.contains("zip-answers/ada-lovelace.flow"))
        #expect(FileManager.default.fileExists(atPath: projectDirectory.appendingPathComponent("docs/exercise.png").path))
        #expect(FileManager.default.fileExists(atPath: projectDirectory.appendingPathComponent("docs/exercise-teacher.png").path))
    }

    @Test func anExerciseThatCannotBeServedIsRefusedAtTheStart() throws {
        let folder = URL(fileURLWithPath: temporaryPath("exercises"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in ["plain.flow": "test \"t\" { expect(just(1)).toBe(\"(1|)\") }\n",
                             "broken.flow": "let x = cold(\"-1|\"\ntest \"t\" { expect(x).toBe(\"???\") }\n",
                             "timer.flow": "test \"t\" { expect(interval(1.0).take(1)).toBe(\"???\") }\n"] {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let plain = try FlowProcess.run(["serve", "--exercise", folder.appendingPathComponent("plain.flow").path, "--port", "0"])
        #expect(plain.status == 2 && plain.err.contains("holds no exercise"), "\(plain.err)")
        let broken = try FlowProcess.run(["serve", "--exercise", folder.appendingPathComponent("broken.flow").path, "--port", "0"])
        #expect(broken.status == 2 && broken.err.contains("broken.flow:2:1: error: expected ')' to close the call"), "\(broken.err)")
        let timer = try FlowProcess.run(["serve", "--exercise", folder.appendingPathComponent("timer.flow").path, "--port", "0"])
        #expect(timer.status == 2 && timer.err.contains("exercises run in virtual time"), "\(timer.err)")
        let both = try FlowProcess.run(["serve", folder.path, "--exercise", folder.appendingPathComponent("plain.flow").path])
        #expect(both.status == 2 && both.err.contains("--exercise serves its one file"), "\(both.err)")
    }
}
