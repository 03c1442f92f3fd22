import FlowTestSupport
import Foundation

/// A student on `flow serve --exercise`'s page in headless Chromium at a
/// projector's 1280×720, the suites that answer an exercise by drawing
/// share: the student named, the exercise's card shown, values typed into
/// a card's box and keys pressed on its picture.
struct ExercisePage {
    let card: String

    /// Serves `source` as the exercise `file`, names the student and waits
    /// for the exercise, then runs `body` on the page.
    func asStudent(_ file: String, _ source: String, _ body: (ServedFolder, Browser) async throws -> Void) async throws {
        let served = try ServedFolder(files: [file: source], exercise: file)
        let browser = try await Browser.start()
        do {
            try await browser.command("POST", "/window/rect", ["width": 1280, "height": 720])
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("the name's field", "return !!document.getElementById('student')")
            try await browser.type(into: "#student", "Ada")
            try await browser.run("document.getElementById('claim-name').click()")
            try await browser.waitFor("the exercise", "return document.querySelectorAll('#exercises .question').length === 1")
            try await body(served, browser)
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// The card's value box holds `value` (as typed), and its picture has the focus.
    func ready(_ value: String, in browser: Browser) async throws {
        try await browser.run("""
            const v = document.querySelector(arguments[0] + ' input.value'); v.value = arguments[1]; v.dispatchEvent(new Event('input'));
            document.querySelector(arguments[0] + ' .picture').focus();
            """, [card, value])
    }

    func press(_ keys: [String], in browser: Browser) async throws {
        for key in keys { try await browser.press(key) }
    }
}
