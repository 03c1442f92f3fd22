import FlowTestSupport
import Foundation
import Testing

/// Drawing an answer on `flow serve --exercise`'s page, in headless chromium
/// at a projector's 1280×720: two events in one frame and values of more than
/// one letter placed by keyboard alone, the marble box and the placed marbles
/// in step when the box is retyped, feedback that says "your answer" and "the
/// right answer" in one legend, and the exercise's fields as large as the
/// pictures in presentation mode.
@Suite(.serialized) struct ExerciseDrawingBrowserTests {
    /// Two streams merged: each frame with an event holds two, and the words
    /// are more than a letter each.
    static let exercise = """
        # Two streams merged: what does the lane hold?
        let words = cold("-a-b|", a: "hi!", b: "yo")
        let digits = cold("-1-2|")

        test "merged" {
          expect(words.merge(digits)).toBe("???")
        }

        """
    static let card = #"#exercises .question[data-id="merged#1"]"#

    static let page = ExercisePage(card: card)

    /// A student named, at 1280×720, with the exercise drawn.
    func asStudent(_ body: (ServedFolder, Browser) async throws -> Void) async throws {
        try await Self.page.asStudent("merged.flow", Self.exercise, body)
    }

    func ready(_ value: String, in browser: Browser) async throws { try await Self.page.ready(value, in: browser) }
    func press(_ keys: [String], in browser: Browser) async throws { try await Self.page.press(keys, in: browser) }

    func waitForMarble(_ marble: String, in browser: Browser) async throws {
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [Self.card + " input.marble", marble]), as: UTF8.self)
        try await browser.waitFor("the marble box to read \(marble)", "const [box, want] = \(quoted); return document.querySelector(box).value === want")
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func twoEventsInOneFrameAndWholeValuesByKeyboard() async throws {
        try await asStudent { _, browser in
            // → to frame 1, Enter: "hi!" placed whole; Enter again there: 1 beside it, in one frame.
            try await ready("hi!", in: browser)
            try await press(["\u{E014}", "\u{E007}"], in: browser)
            try await waitForMarble(#""-a", a: "hi!""#, in: browser)
            try await ready("1", in: browser)
            try await press(["\u{E007}"], in: browser)
            try await waitForMarble(#""-(a1)", a: "hi!""#, in: browser)
            // "yo" at frame 3, 2 at frame 4; then 2 grouped with "yo": Space selects it, G groups.
            try await ready("yo", in: browser)
            try await press(["\u{E014}", "\u{E014}", "\u{E007}"], in: browser)
            try await waitForMarble(#""-[a1]-b", a: "hi!", b: "yo""#, in: browser)
            try await ready("2", in: browser)
            try await press(["\u{E014}", "\u{E007}"], in: browser)
            try await waitForMarble(#""-[a1]-b2", a: "hi!", b: "yo""#, in: browser)
            try await browser.run("document.querySelector(arguments[0] + ' .picture').focus()", [Self.card])
            try await press(["\u{E012}", " "], in: browser)
            try await browser.waitFor("yo selected", "return document.getElementById('status').textContent === 'selected yo at frame 3'")
            try await press(["g"], in: browser)
            try await waitForMarble(#""-[a1]-(b2)", a: "hi!", b: "yo""#, in: browser)

            // The marble retyped bare, with its end: "hi!" and "yo" stay themselves.
            // ([a1] is a group of one frame: the next event comes before (a1) would end.)
            try await browser.run("document.querySelector(arguments[0] + ' input.marble').value = ''", [Self.card])
            try await browser.type(into: "\(Self.card) input.marble", "-[a1]-[b2]|\u{E007}")
            try await waitForMarble(#""-[a1]-[b2]|", a: "hi!", b: "yo""#, in: browser)
            let values = try await browser.run("return exercise.sheet.questions[0].answer.map((e) => e.value || e.kind)") as? [String] ?? []
            #expect(values == ["hi!", "1", "yo", "2", "complete"], "\(values)")
            try await browser.run("document.querySelector(arguments[0] + ' button.check').click()", [Self.card])
            try await browser.waitFor("right", "return (document.querySelector(`\(Self.card) pre.result`) || {}).textContent === '✓ right'")
        }
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func feedbackSaysYourAnswerAndTheRightAnswer() async throws {
        try await asStudent { _, browser in
            // "b" at frame 1, the end at 2: wrong; given up, the right lane is shown.
            try await ready("b", in: browser)
            try await press(["\u{E014}", "\u{E007}"], in: browser)
            try await waitForMarble(#""-b""#, in: browser)
            try await browser.run("document.querySelector(arguments[0] + ' .picture').focus()", [Self.card])
            try await press(["\u{E014}", "|"], in: browser)
            try await waitForMarble(#""-b|""#, in: browser)
            try await browser.run("document.querySelector(arguments[0] + ' button.check').click()", [Self.card])
            try await browser.waitFor("the verdict", "return !!document.querySelector(`\(Self.card) pre.result`)")
            try await browser.run("window.confirm = () => true; document.querySelector(arguments[0] + ' button.give-up').click()", [Self.card])
            try await browser.waitFor("the right lane", "return document.querySelector(`\(Self.card) svg`).textContent.includes('right answer')")
            let shown = try await browser.run("""
                const card = document.querySelector(arguments[0]);
                return [[...card.querySelectorAll('pre.result')].map((p) => p.textContent).join('\\n---\\n'),
                        card.querySelector('svg').textContent.includes('right answer') ? 'drawn' : 'not drawn'];
                """, [Self.card]) as? [String] ?? []
            let told = try #require(shown.first)
            // Theirs is "your answer"; the right lane sits under it once, its "yo" not drawn as their "b".
            #expect(told.hasPrefix("your answer:  -b   |\nright answer: -[a1]-[c2]|\n"), "\(told)")
            #expect(told.contains(#"value differs: at frame 1 your answer has "b", the right answer "hi!" 'a'"#), "\(told)")
            #expect(told.contains(#"legend:       a = "hi!", c = "yo""#) && !told.contains("---"), "\(told)")
            for word in ["expected", "actual"] { #expect(!told.contains(word), "\(word) in \(told)") }
            #expect(shown.last == "drawn")
        }
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func theExercisesFieldsAreLegibleInPresentationMode() async throws {
        try await asStudent { _, browser in
            let sizes = """
                return [...document.querySelectorAll('#exercises input, #exercises button, #exercises label, #exercises pre, #exercises h3, #exercises .how')]
                  .filter((e) => e.offsetParent !== null).map((e) => parseFloat(getComputedStyle(e).fontSize));
                """
            let before = try await browser.run(sizes) as? [Double] ?? []
            #expect(!before.isEmpty && before.min()! < 20, "\(before)")
            try await browser.run("document.activeElement.blur()")
            try await browser.press("p")
            try await browser.waitFor("presentation mode", "return document.body.classList.contains('presenting')")
            let presented = try await browser.run(sizes) as? [Double] ?? []
            #expect(presented.count == before.count && presented.min()! >= 22 - 0.01, "\(presented)")
            // Still answered there: the fields fit the window, and a value placed shows.
            let fits = try await browser.run("""
                return [...document.querySelectorAll(arguments[0] + ' .tools > *')].every((e) => e.getBoundingClientRect().right <= innerWidth);
                """, [Self.card]) as? Bool
            #expect(fits == true)
            try await ready("hi!", in: browser)
            try await press(["\u{E014}", "\u{E007}"], in: browser)
            try await waitForMarble(#""-a", a: "hi!""#, in: browser)
        }
    }
}
