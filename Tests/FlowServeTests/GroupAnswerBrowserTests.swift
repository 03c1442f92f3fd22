import FlowTestSupport
import Foundation
import Testing

/// A lane of groups answered on `flow serve --exercise`'s page, in headless
/// chromium at a projector's 1280×720: each group the student makes on the
/// answer lane gets a lane of its own beneath it, where its values are
/// placed with the flat lane's editor, by mouse and by keyboard; a group is
/// removed with its marble; a right answer passes, and a wrong one is told
/// which group is wrong.
@Suite(.serialized) struct GroupAnswerBrowserTests {
    static let exercise = """
        # Numbers by parity: each group is a lane of its own.
        let numbers = cold("-1-2-3-4|")
        let parity = numbers.groupBy { $0 % 2 == 0 ? "even" : "odd" }

        test "parity" {
          expect(parity).toBe("???")
        }

        """
    static let card = #"#exercises .question[data-id="parity#1"]"#
    static let right = #""-a-b----|", a: cold("1---3--|"), b: cold("2---4|")"#

    static let page = ExercisePage(card: card)

    /// A student named, at 1280×720, with the exercise drawn as a lane of groups.
    func asStudent(_ body: (Browser) async throws -> Void) async throws {
        try await Self.page.asStudent("parity.flow", Self.exercise) { _, browser in
            let nested = try await browser.run("return exercise.sheet.questions[0].nested") as? Bool
            #expect(nested == true)
            try await body(browser)
        }
    }

    func ready(_ value: String, in browser: Browser) async throws { try await Self.page.ready(value, in: browser) }
    func press(_ keys: [String], in browser: Browser) async throws { try await Self.page.press(keys, in: browser) }

    func waitForGroups(_ count: Int, in browser: Browser) async throws {
        try await browser.waitFor("\(count) group lanes", "return exercise.sheet.questions[0].groups.length === \(count)")
    }

    /// Waits until the answer lane or group `group` (from 1) holds `count` events.
    func waitForEvents(_ count: Int, group: Int, in browser: Browser) async throws {
        try await browser.waitFor("\(count) events in group \(group)", """
            const q = exercise.sheet.questions[0], made = q.answer.filter((e) => e.inner);
            return !!made[\(group - 1)] && made[\(group - 1)].inner.length === \(count);
            """)
    }

    func waitForMarble(_ marble: String, in browser: Browser) async throws {
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [Self.card + " input.marble", marble]), as: UTF8.self)
        try await browser.waitFor("the marble box to read \(marble)", "const [box, want] = \(quoted); return document.querySelector(box).value === want")
    }

    /// Where column `column` of the answer lane (`lane` 0) or of group
    /// `lane`'s lane is on the screen, the picture scrolled into view.
    func point(lane: Int, column: Int, in browser: Browser) async throws -> [Double] {
        try #require(try await browser.run("""
            const card = document.querySelector(arguments[0]);
            card.querySelector('.picture').scrollIntoView({ block: 'center' });
            const q = exercise.sheet.questions[0];
            const band = arguments[1] === 0 ? q.answerBand : q.groups[arguments[1] - 1].band;
            const ctm = card.querySelector('svg').getScreenCTM();
            return [ctm.a * q.columns[arguments[2]] + ctm.e, ctm.d * (band.top + band.bottom) / 2 + ctm.f];
            """, [Self.card, lane, column]) as? [Double])
    }

    func place(_ value: String, lane: Int, column: Int, in browser: Browser) async throws {
        try await browser.run("const v = document.querySelector(arguments[0] + ' input.value'); v.value = arguments[1]; v.dispatchEvent(new Event('input'))",
                              [Self.card, value])
        let count = try await browser.run("""
            const q = exercise.sheet.questions[0]; return q.answer.filter((e) => e.inner)[arguments[0] - 1].inner.length
            """, [lane]) as? Int ?? -1
        let at = try await point(lane: lane, column: column, in: browser)
        try await browser.click(x: at[0], y: at[1])
        try await waitForEvents(count + 1, group: lane, in: browser)
    }

    func end(lane: Int, column: Int, in browser: Browser) async throws {
        let at = try await point(lane: lane, column: column, in: browser)
        try await browser.hover(x: at[0], y: at[1])
        try await browser.press("|")
    }

    func check(in browser: Browser) async throws -> String {
        try await browser.run("document.querySelector(arguments[0] + ' button.check').click()", [Self.card])
        try await browser.waitFor("the verdict", "return !!document.querySelector(`\(Self.card) pre.result`)")
        return try await browser.run("return document.querySelector(arguments[0] + ' pre.result').textContent", [Self.card]) as? String ?? ""
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func aLaneOfGroupsAnsweredByKeyboardPasses() async throws {
        try await asStudent { browser in
            let right = "\u{E014}", left = "\u{E012}", up = "\u{E013}", down = "\u{E015}", enter = "\u{E007}", home = "\u{E011}"
            // → to frame 1, Enter on the answer lane: group 1, whose lane the cursor moves to.
            try await ready("", in: browser)
            try await press([right, enter], in: browser)
            try await waitForGroups(1, in: browser)
            try await ready("1", in: browser)
            try await press([enter], in: browser)
            try await waitForEvents(1, group: 1, in: browser)
            try await ready("3", in: browser)
            try await press([right, right, right, right, enter], in: browser)
            try await waitForEvents(2, group: 1, in: browser)
            try await press([right, right, right, "|"], in: browser)
            try await waitForEvents(3, group: 1, in: browser)
            // ↑ to the answer lane, group 2 at frame 3; its lane is the cursor's.
            try await press([up, home, right, right, right, enter], in: browser)
            try await waitForGroups(2, in: browser)
            try await ready("2", in: browser)
            try await press([enter], in: browser)
            try await waitForEvents(1, group: 2, in: browser)
            try await ready("4", in: browser)
            try await press([right, right, right, right, enter], in: browser)
            try await waitForEvents(2, group: 2, in: browser)
            try await press([right, "|"], in: browser)
            try await waitForEvents(3, group: 2, in: browser)

            // A group made by mistake at frame 6, selected with Space and removed with Delete.
            try await press([up, up, left, left, enter], in: browser)
            try await waitForGroups(3, in: browser)
            try await press([up, up, up, " "], in: browser)
            try await browser.waitFor("the group selected", "return document.getElementById('status').textContent === 'selected a group at frame 6'")
            try await press(["\u{E017}"], in: browser)
            try await waitForGroups(2, in: browser)

            // The answer lane completes at 8; the marble box reads as toBe takes it.
            try await ready("", in: browser)
            try await press([right, right, "|"], in: browser)
            try await waitForMarble(Self.right, in: browser)
            // Each group drawn on a lane of its own, from the frame it was made.
            let drawn = try await browser.run("""
                const q = exercise.sheet.questions[0], svg = document.querySelector(arguments[0] + ' svg');
                return q.groups.map((g) => [g.start, svg.querySelectorAll(`[data-l="${g.lane}"][data-e]`).length]);
                """, [Self.card]) as? [[Int]] ?? []
            #expect(drawn == [[1, 3], [3, 3]], "\(drawn)")
            #expect(try await check(in: browser) == "✓ right")
        }
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func aWrongGroupPlacedByMouseIsNamed() async throws {
        try await asStudent { browser in
            // A click on the answer lane makes a group; clicks on its lane place values.
            let made = try await point(lane: 0, column: 1, in: browser)
            try await browser.click(x: made[0], y: made[1])
            try await waitForGroups(1, in: browser)
            try await place("1", lane: 1, column: 1, in: browser)
            try await place("3", lane: 1, column: 5, in: browser)
            try await end(lane: 1, column: 8, in: browser)
            try await waitForEvents(3, group: 1, in: browser)
            let second = try await point(lane: 0, column: 3, in: browser)
            try await browser.click(x: second[0], y: second[1])
            try await waitForGroups(2, in: browser)
            try await place("2", lane: 2, column: 3, in: browser)
            // 4 one frame early.
            try await place("4", lane: 2, column: 6, in: browser)
            try await end(lane: 2, column: 8, in: browser)
            try await waitForEvents(3, group: 2, in: browser)
            try await end(lane: 0, column: 8, in: browser)
            try await waitForMarble(#""-a-b----|", a: cold("1---3--|"), b: cold("2--4-|")"#, in: browser)

            let told = try await check(in: browser)
            #expect(told.hasPrefix("group 2, made at frame 3, is not right:\nyour answer: ---2--4-|\n"), "\(told)")
            #expect(told.contains("^ frame differs in group 2"), "\(told)")
            for word in ["expected", "actual", "right answer"] { #expect(!told.contains(word), "\(word) in \(told)") }
            // The difference is marked on the picture, at the frame.
            let marked = try await browser.run("return document.querySelector(arguments[0] + ' svg .difference').dataset.t", [Self.card]) as? String
            #expect(marked == "6")

            // Moved by a drag of its marble one column right, 4 is right.
            let four = try await point(lane: 2, column: 6, in: browser)
            let scale = try await browser.run("""
                const svg = document.querySelector(arguments[0] + ' svg'); const q = exercise.sheet.questions[0];
                return (q.columns[1] - q.columns[0]) * svg.getScreenCTM().a;
                """, [Self.card]) as? Double ?? 0
            try await browser.drag(fromX: four[0], y: four[1], byX: scale)
            try await waitForMarble(Self.right, in: browser)
            #expect(try await check(in: browser) == "✓ right")
        }
    }
}
