import FlowTestSupport
import Foundation
import Testing

/// `flow serve`'s API against a real server on loopback: the engine's
/// diagrams, the marble rewrite, saving, and the requests it refuses.
@Suite struct ServerTests {
    @Test func servesThePageAndItsScripts() async throws {
        let served = try ServedFolder()
        let page = try await served.request("/")
        #expect(page.status == 200)
        #expect(page.body.contains("<textarea id=\"editor\""))
        #expect(try await served.request("/playground.js").body.contains("/api/render"))
        let files = try await served.json("/api/files")
        #expect(files["scripts"] as? [String] == ["lesson.flow"])
        let file = try await served.json("/api/file?path=lesson.flow")
        #expect(file["text"] as? String == ServedFolder.lesson)
    }

    @Test func rendersWithTheEngine() async throws {
        let served = try ServedFolder()
        let result = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": ServedFolder.lesson, "name": "lesson.flow"]))
        #expect(result["ok"] as? Bool == true)
        let svg = try #require(result["svg"] as? String)
        #expect(svg.contains("<svg") && svg.contains("data-e="))
        #expect((result["text"] as? String)?.contains("shouted  -c--d|") == true)
        let tests = try #require(result["tests"] as? [[String: Any]])
        #expect(tests.first?["name"] as? String == "map shouts")
        #expect(tests.first?["passed"] as? Bool == true)
        // The lane of cold("-a--b|") is an input: its marble sits at these offsets.
        let inputs = try #require(result["inputs"] as? [[String: Any]])
        let input = try #require(inputs.first)
        let utf16 = Array(ServedFolder.lesson.utf16)
        let start = try #require(input["start"] as? Int), end = try #require(input["end"] as? Int)
        #expect(String(decoding: utf16[start..<end], as: UTF16.self) == "-a--b|")
        // Each lane's subscription, for the time cursor: src lives from 0 to its end at frame 5.
        let lifetimes = try #require(result["lifetimes"] as? [[[String: Any]]])
        #expect(lifetimes.first?.first?["start"] as? Int == 0)
        #expect(lifetimes.first?.first?["end"] as? Int == 5)
    }

    /// The playground traces every chain, and a stream of streams is
    /// drawn nested there as `marbles(...)` draws it: groups under the
    /// `groupBy` that made them, in the text and in the picture, where
    /// each group's line begins at the mark of the value that made it.
    @Test func thePlaygroundsTraceDrawsAStreamOfStreamsNested() async throws {
        let served = try ServedFolder()
        let text = """
            let groups = cold("-1-2-3-4|").groupBy { $0 % 2 }
            groups.subscribe()
            let made = cold("-1|").map { n in cold("-x|", x: n) }
            made.subscribe()

            """
        let result = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": text, "name": "nested.flow"]))
        #expect(result["ok"] as? Bool == true)
        let lanes = try #require(result["text"] as? String)
        for row in ["  ↳ group 1                   1---3--|", "  ↳ group 0                     2---4|", #"a = cold("1---3--|"), b = cold("2---4|")"#,
                    #"  ↳ cold("-x|", x: n)                   -1|"#] {
            #expect(lanes.contains(row), "\(row) in \(lanes)")
        }
        #expect(!lanes.contains("<group"), "\(lanes)")
        let geometry = SVGGeometry(try #require(result["svg"] as? String))
        let groupMarks = geometry.marks.filter { $0.diagram == 0 && $0.lane == 1 }.sorted { $0.event < $1.event }
        #expect(groupMarks.count == 3)
        for (lane, made) in [(2, 0), (3, 1)] {
            let line = try #require(geometry.laneLines.first { $0.diagram == 0 && $0.lane == lane })
            #expect(abs(line.x1 - groupMarks[made].x) < 0.01, "lane \(lane) begins at \(line.x1), its group was made at \(groupMarks[made].x)")
            #expect(line.ends == "completed")
        }
    }

    /// Presentation mode's deck, asked with the room the page has: `flow
    /// slides`'s slides laid out for it (its text at least 20 px), test
    /// blocks' `marbles(...)` calls among them in their place, and each
    /// slide's marks numbering the whole picture's diagram.
    @Test func theDeckIsLaidOutForThePagesRoom() async throws {
        let served = try ServedFolder()
        let text = """
            let numbers = cold("-1-2-3|")
            // # First
            marbles(numbers)
            test "doubling" {
              marbles(numbers.map { $0 * 2 })
            }
            marbles(title: "Last", numbers.filter { $0 > 1 })

            """
        let plain = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": text, "name": "t.flow"]))
        let titles = try #require(plain["slides"] as? [[String: Any]]).map { $0["title"] as? String ?? "" }
        #expect(titles == ["First", "doubling", "Last"], "\(titles)")
        #expect(try #require(plain["slides"] as? [[String: Any]]).allSatisfy { $0["svg"] == nil }, "no room, no pictures")
        let room = ["width": 1000, "height": 560]
        let laidOut = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": text, "name": "t.flow", "deck": room]))
        let slides = try #require(laidOut["slides"] as? [[String: Any]])
        #expect(slides.map { $0["title"] as? String ?? "" } == ["First", "doubling", "Last"])
        for (n, slide) in slides.enumerated() {
            let svg = try #require(slide["svg"] as? String)
            #expect(svg.contains(#"width="1000" height="560" viewBox="0 0 1000 560""#), "slide \(n + 1)")
            let elements = SVGGeometry.elements(svg)
            let nested = try #require(elements.dropFirst().first { $0.name == "svg" })
            let box = ["width"].map { Double(nested.attributes[$0] ?? "") ?? 0 }
            let viewBox = (nested.attributes["viewBox"] ?? "").split(separator: " ").compactMap { Double($0) }
            // The axis's labels, the smallest text, are 12 units: at least 20 px.
            #expect(viewBox.count == 4 && 12 * box[0] / viewBox[2] >= 20 - 0.01, "slide \(n + 1): \(box) for \(viewBox)")
        }
        // The first slide's marks are the picture's first diagram's; the test's are past the picture's.
        #expect((slides.first?["svg"] as? String)?.contains(#"data-d="0" data-l="0" data-e="0""#) == true)
        #expect((slides[1]["svg"] as? String)?.contains(#"data-d="2""#) == true)
        // A room too small to lay a slide out in is no room.
        let tiny = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": text, "name": "t.flow", "deck": ["width": 20, "height": 10]]))
        #expect(try #require(tiny["slides"] as? [[String: Any]]).allSatisfy { $0["svg"] == nil })
    }

    @Test func theDialectIsTheImportsUnlessThePageChoosesOne() async throws {
        let served = try ServedFolder()
        let text = "import RxSwift\nmarbles(cold(\"-t|\").withLatestFrom(just(\"x\")))\n"
        func lanes(_ dialect: String?) async throws -> String {
            var request = ["text": text, "name": "d.flow"]
            if let dialect { request["dialect"] = dialect }
            let result = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(request))
            return result["text"] as? String ?? ""
        }
        #expect(try await lanes(nil).contains("\"x\""))
        #expect(try await lanes("").contains("\"x\""))
        #expect(try await lanes("flow").contains("(\"t\", \"x\")"))
        #expect(try await lanes("rxjs").contains("[\"t\", \"x\"]"))
        let refused = try await served.request("/api/render", method: "POST", body: ServedFolder.encode(["text": text, "dialect": "Rx"]))
        #expect(refused.status == 400)
        #expect(refused.body.contains("unknown dialect"))
    }

    @Test func errorsComeWithTheirPlace() async throws {
        let served = try ServedFolder()
        let broken = "let src = cold(\"-a|\")\nlet x = src.mapp { $0 }\n"
        let result = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": broken, "name": "lesson.flow"]))
        #expect(result["ok"] as? Bool == false)
        let error = try #require((result["errors"] as? [[String: Any]])?.first)
        #expect(error["line"] as? Int == 2)
        #expect(error["column"] as? Int == 13)
        #expect((error["text"] as? String)?.contains("lesson.flow:2:13") == true)
        #expect((error["help"] as? String)?.contains("map") == true)
    }

    @Test func draggingAMarbleRewritesItsString() async throws {
        let served = try ServedFolder()
        let text = ServedFolder.lesson
        let start = Array(text.utf16).count - Array(text[text.range(of: "-a--b|")!.lowerBound...].utf16).count
        let moved = try await served.json("/api/move", method: "POST", body: ServedFolder.encode([
            "text": text, "start": start, "end": start + 6, "event": 1, "frames": 2,
        ]))
        // Past the end: the end moves a frame after it.
        #expect((moved["text"] as? String)?.contains(#"cold("-a----b|")"#) == true, "\(moved)")
        // The end dragged before a value takes the value along.
        let early = try await served.json("/api/move", method: "POST", body: ServedFolder.encode([
            "text": text, "start": start, "end": start + 6, "event": 2, "frames": -3,
        ]))
        #expect((early["text"] as? String)?.contains(#"cold("-a(b|)")"#) == true, "\(early)")
    }

    /// A hot marble's events after `^` are dragged as a cold one's; what
    /// comes before the subscription stays as written, and a lane
    /// subscribed late counts from the first event it saw.
    @Test func draggingAHotMarbleMovesWhatFollowsTheSubscription() async throws {
        let served = try ServedFolder()
        let text = "let h = hot(\"-a-^-b-c-|\")\nmarbles(h, h.delaySubscription(3ms))\n"
        let rendering = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": text, "name": "hot.flow"]))
        let inputs = try #require(rendering["inputs"] as? [[String: Any]])
        let firstDiagram = inputs.filter { $0["diagram"] as? Int == 0 }
        #expect(firstDiagram.count == 1 && firstDiagram.first?["firstEvent"] as? Int == 0, "\(inputs)")
        // In the trace of h.delaySubscription(3ms), h's lane starts at frame 3: after b.
        #expect(inputs.contains { $0["firstEvent"] as? Int == 1 }, "\(inputs)")
        let start = try #require(firstDiagram.first?["start"] as? Int)
        let end = try #require(firstDiagram.first?["end"] as? Int)
        let moved = try await served.json("/api/move", method: "POST", body: ServedFolder.encode([
            "text": text, "start": start, "end": end, "event": 0, "frames": 1,
        ]))
        #expect((moved["text"] as? String)?.hasPrefix(#"let h = hot("-a-^--bc-|")"#) == true, "\(moved)")
        // Never before the subscription: dragged far left, b lands just after `^`.
        let early = try await served.json("/api/move", method: "POST", body: ServedFolder.encode([
            "text": text, "start": start, "end": end, "event": 0, "frames": -9,
        ]))
        #expect((early["text"] as? String)?.hasPrefix(#"let h = hot("-a-^b--c-|")"#) == true, "\(early)")
    }

    @Test func savesTheScriptBack() async throws {
        let served = try ServedFolder()
        let saved = try await served.request("/api/file?path=lesson.flow", method: "PUT", body: "marbles(cold(\"-a|\"))\n")
        #expect(saved.status == 200)
        let onDisk = try String(contentsOf: served.folder.appendingPathComponent("lesson.flow"), encoding: .utf8)
        #expect(onDisk == "marbles(cold(\"-a|\"))\n")
    }

    /// Only the scripts under the folder: no `..`, no absolute paths, no
    /// symbolic link out of it, nothing but `.flow` files.
    @Test func pathsOutOfTheFolderAreRefused() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("flow-outside-\(UUID().uuidString).flow")
        try "let secret = 1\n".write(to: outside, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: outside) }
        let served = try ServedFolder()
        try FileManager.default.createSymbolicLink(at: served.folder.appendingPathComponent("link.flow"), withDestinationURL: outside)
        try "x".write(to: served.folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        for path in ["../\(outside.lastPathComponent)", outside.path, "link.flow", "notes.txt", "a/../lesson.flow", "%2e%2e/x.flow", ""] {
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? path
            let read = try await served.request("/api/file?path=\(encoded)")
            #expect(read.status == 403 || read.status == 400, "\(path): \(read)")
            #expect(!read.body.contains("secret"))
            let write = try await served.request("/api/file?path=\(encoded)", method: "PUT", body: "overwritten")
            #expect(write.status == 403 || write.status == 400, "\(path): \(write)")
        }
        #expect(try String(contentsOf: outside, encoding: .utf8) == "let secret = 1\n")
        #expect(try await served.json("/api/files")["scripts"] as? [String] == ["lesson.flow"])
    }

    @Test func badRequestsGetClearAnswers() async throws {
        let served = try ServedFolder()
        #expect(try await served.request("/api/render", method: "POST", body: "not json").status == 400)
        #expect(try await served.request("/api/file").status == 400)
        #expect(try await served.request("/api/move", method: "POST", body: "{}").status == 400)
        let outOfRange = try await served.request("/api/move", method: "POST", body: ServedFolder.encode([
            "text": "x", "start": 5, "end": 9, "event": 0, "frames": 1,
        ]))
        // Numbers outside the script are a bad request, checked before use.
        #expect(outOfRange.status == 400)
        #expect(try await served.request("/api/doc?name=nosuchoperator").status == 404)
        #expect(try await served.request("/nothing-here").status == 404)
    }

    /// A runaway script cannot hang the server: it stops at the limits of
    /// `flow run --virtual`, and the next request is answered.
    @Test func aRunawayScriptDoesNotHangTheServer() async throws {
        let served = try ServedFolder()
        let runaway = "marbles(cold(\"-a|\").repeat())\nvar n = 0\nwhile true { n += 1 }\n"
        let result = try await served.json("/api/render", method: "POST", body: ServedFolder.encode(["text": runaway, "name": "runaway.flow"]))
        #expect(result["ok"] as? Bool == true)
        #expect(((result["errors"] as? [[String: Any]]) ?? []).isEmpty == false)
        #expect(try await served.request("/api/files").status == 200)
    }

    @Test func operatorDocsAreExamplesToEdit() async throws {
        let served = try ServedFolder()
        let doc = try await served.json("/api/doc?name=debounce")
        #expect((doc["example"] as? String)?.contains("debounce") == true)
        let families = try await served.request("/api/operators")
        #expect(families.body.contains("\"higher-order\""))
    }
}

extension ServerTests {
    /// Ctrl-C stops the server at once, even with a page connected.
    @Test func ctrlCStopsTheServerAtOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-serve-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "marbles(cold(\"-a|\"))\n".write(to: folder.appendingPathComponent("a.flow"), atomically: true, encoding: .utf8)
        let (process, out, _) = try FlowProcess.start(["serve", folder.path, "--port", "0"])
        #expect(ServedFolder.firstLine(of: out).hasPrefix("flow serve: http://127.0.0.1:"))
        process.interrupt()
        let deadline = Date().addingTimeInterval(waitingDeadline)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning, "flow serve did not stop on Ctrl-C")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) } else { #expect(process.terminationStatus == 130) }
    }

    @Test func aMissingFolderOrABadPortIsAUsageError() throws {
        let missing = try FlowProcess.run(["serve", "/nonexistent/place"], timeout: 30)
        #expect(missing.status == 2)
        #expect(missing.err.contains("no such file or folder"))
        let badPort = try FlowProcess.run(["serve", ".", "--port", "70000"], timeout: 30)
        #expect(badPort.status == 2)
        #expect(badPort.err.contains("--port"))
    }
}
