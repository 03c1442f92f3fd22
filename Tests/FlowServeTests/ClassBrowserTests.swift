import FlowTestSupport
import Foundation
import Testing

/// A class on `flow serve --exercise`, in headless chromium: a student
/// claims a name once and a second browser cannot take it; a give-up shows
/// the right lane and is recorded; a rostered student answers through a
/// personal link; the teacher's view follows the class and exports it.
@Suite(.serialized) struct ClassBrowserTests {
    static func withBrowser(_ body: (Browser) async throws -> Void) async throws {
        let browser = try await Browser.start()
        do {
            try await body(browser)
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func aNameIsOnesOwnAndTheTeacherSeesTheClass() async throws {
        let served = try ServedFolder(files: ["zip.flow": ServedFolder.exercise], exercise: "zip.flow")
        let printed = served.printedLines { $0.contains { $0.contains("/teacher?token=") } }
        let teacherLine = try #require(printed.first { $0.contains("/teacher?token=") })
        let start = try #require(teacherLine.range(of: "http://"))
        let teacher = String(teacherLine[start.lowerBound...])
        try await Self.withBrowser { browser in
            try await browser.command("POST", "/window/rect", ["width": 1280, "height": 900])
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("the name's field", "return !!document.getElementById('student')")
            // Nothing of the exercise before a name.
            #expect(try await browser.run("return document.querySelectorAll('#exercises .question').length") as? Int == 0)
            try await browser.type(into: "#student", "Ada Lovelace")
            try await browser.run("document.getElementById('claim-name').click()")
            try await browser.waitFor("Ada's exercises", "return document.querySelectorAll('#exercises .question').length === 2")

            // Ada gives up on tenfold: the right lane is shown, and the give-up recorded.
            let tenfold = #"#exercises .question[data-id="tenfold#1"]"#
            try await browser.run("window.confirm = () => true; document.querySelector(arguments[0] + ' button.give-up').click()", [tenfold])
            try await browser.waitFor("the right lane", """
                return document.querySelector(`\(tenfold) svg`).textContent.includes('right answer')
                  && [...document.querySelectorAll(`\(tenfold) pre.result`)].some((p) => p.textContent.startsWith('right answer: -a-b-c|'))
                """)
            #expect(try await browser.run("return !!document.querySelector(arguments[0] + ' button.give-up')", [tenfold]) as? Bool == false)
            let file = served.folder.appendingPathComponent("zip-answers/ada-lovelace.flow")
            #expect(await waitFor { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains(#""event":"give-up","question":"tenfold#1""#) })
            // Reloaded, the page is still Ada's, the lane still shown.
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("Ada again", """
                return document.getElementById('title').textContent === 'zip.flow · Ada Lovelace'
                  && document.querySelector(`\(tenfold) svg`) && document.querySelector(`\(tenfold) svg`).textContent.includes('right answer')
                """)

            // Another browser (no cookie) cannot take Ada's name.
            try await browser.command("DELETE", "/cookie")
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("the name's field", "return !!document.getElementById('student')")
            try await browser.type(into: "#student", "ada lovelace")
            try await browser.run("document.getElementById('claim-name').click()")
            try await browser.waitFor("the refusal", "return document.getElementById('status').textContent.includes('the name ada lovelace is taken')")
            #expect(try await browser.run("return document.querySelectorAll('#exercises .question').length") as? Int == 0)
            // Grace answers tenfold wrong, and checks it.
            try await browser.run("const f = document.getElementById('student'); f.value = 'Grace'")
            try await browser.run("document.getElementById('claim-name').click()")
            try await browser.waitFor("Grace's exercises", "return document.getElementById('title').textContent === 'zip.flow · Grace' && document.querySelectorAll('#exercises .question').length === 2")
            try await browser.run("const m = document.querySelector(arguments[0] + ' input.marble'); m.value = '-1-2-3|'; m.dispatchEvent(new Event('change'))", [tenfold])
            try await browser.waitFor("the typed answer", "return document.querySelectorAll(`\(tenfold) svg [data-l=\"1\"][data-e]`).length === 4")
            try await browser.run("document.querySelector(`\(tenfold) button.check`).click()")
            try await browser.waitFor("the verdict", "return !!document.querySelector(`\(tenfold) pre.result`)")

            // The teacher's view: both students, what each did.
            try await browser.command("DELETE", "/cookie")
            try await browser.open(teacher)
            try await browser.waitFor("the class", "return document.querySelectorAll('#class tbody tr').length === 2")
            let cells = try await browser.run("""
                const cell = (file, q) => document.querySelector(`#class tr[data-file="${file}"] td[data-question="${q}"]`);
                return [cell('ada-lovelace.flow', 'tenfold#1').className, cell('ada-lovelace.flow', 'tenfold#1').textContent,
                        cell('grace.flow', 'tenfold#1').className, cell('grace.flow', 'tenfold#1').textContent,
                        cell('grace.flow', 'zip#1').textContent];
                """) as? [String] ?? []
            #expect(cells.count == 5 && cells[0].contains("revealed") && cells[1].contains("gave up"), "\(cells)")
            #expect(cells.count == 5 && cells[2].contains("wrong") && cells[3].contains("-1-2-3|") && cells[3].contains("✗ · 1 check"), "\(cells)")
            #expect(cells.count == 5 && cells[4] == "—", "\(cells)")
            // It follows the class: a third student, right at once, appears.
            let raw = RawHTTP(port: served.port)
            let hopper = try served.claim("Hopper")
            _ = try raw.send("POST", "/api/exercise", json: ServedFolder.encode(["answers": ["tenfold#1": ExerciseServerTests.events([(1, "10"), (3, "20"), (5, "30"), (6, "|")])],
                                                                                 "check": true]), token: hopper)
            try await browser.waitFor("Hopper, right", """
                const cell = document.querySelector('#class tr[data-file="hopper.flow"] td[data-question="tenfold#1"]');
                return !!cell && cell.classList.contains('right') && cell.textContent.includes('✓ · 1 check')
                """)
            #expect(try await browser.run("return document.getElementById('export-csv').getAttribute('href')") as? String == "/api/class.csv")
            if let folder = ProcessInfo.processInfo.environment["FLOW_SCREENSHOT_TO"] {
                try await browser.screenshot().write(to: URL(fileURLWithPath: folder).appendingPathComponent("exercise-teacher.png"))
            }
        }
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func aRosteredStudentAnswersThroughTheirLink() async throws {
        let (served, students, _) = try ClassExerciseTests.rosteredClass()
        let ada = try #require(students["ada"])
        try await Self.withBrowser { browser in
            // The class's address alone asks for the personal link, and offers no name to claim.
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("the request for a link", "return document.getElementById('exercises').textContent.includes('Open the personal link')")
            #expect(try await browser.run("return !!document.getElementById('student')") as? Bool == false)
            try await browser.open(served.address.absoluteString + "?token=" + ada)
            try await browser.waitFor("Ada's exercises", """
                return document.getElementById('title').textContent === 'zip.flow · Ada Lovelace' && document.querySelectorAll('#exercises .question').length === 2
                """)
            // Her later requests carry the link's token as a cookie: she saves without it in the address.
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("Ada's page again", "return document.getElementById('title').textContent === 'zip.flow · Ada Lovelace' && !!document.getElementById('save-answers')")
            try await browser.run("document.getElementById('save-answers').click()")
            try await browser.waitFor("the saved answers", "return document.getElementById('status').textContent === 'saved as ada.flow'")
        }
    }
}
