import FlowTestSupport
import Foundation
import Testing

/// The deck `flow slides` writes, in headless chromium at a projector's
/// 1280×720, opened from disk (no server, no network): the arrow keys
/// step through every slide and back, a diagram too large for one slide
/// goes on over several, nothing of a slide is outside the window, and no
/// text is smaller than 20 px.
@Suite(.serialized) struct SlideDeckBrowserTests {
    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func stepThroughALessonAtAProjectorsSize() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-deck-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try FlowProcess.run(["slides", "examples/lesson.flow", "--out", folder.path, "--no-png"], in: projectDirectory)
        #expect(made.status == 0, "\(made.err)")
        let browser = try await Browser.start()
        do {
            try await check(folder, in: browser)
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// `flow serve`'s presentation mode is the same deck, live: one
    /// diagram a slide, titled by its comment, stepped with the arrow
    /// keys, each fitted to a 1280×720 window however many lanes it has
    /// (a groupBy trace too), its marks still the page's own.
    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func presentationModeIsADeck() async throws {
        let script = """
            let numbers = cold("-1-2-3-4-5-6-7-8-9|")
            // # Groups by parity
            // Each group branches off where its key first appears.
            marbles(numbers, numbers.groupBy { $0 % 2 == 0 ? "even" : "odd" }.flatMap { $0.scan(0) { $0 + $1 } })
            // # Windows of three
            marbles(numbers.window(count: 3))
            marbles(title: "Twice", numbers.map { $0 * 2 })

            """
        let served = try ServedFolder(files: ["deck.flow": script])
        let browser = try await Browser.start()
        do {
            try await browser.command("POST", "/window/rect", ["width": 1280, "height": 720])
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("the page", "return !!document.getElementById('editor')")
            let inner = try await browser.run("return [innerWidth, innerHeight]") as? [Int] ?? [1280, 720]
            try await browser.command("POST", "/window/rect", ["width": 2560 - inner[0], "height": 1440 - inner[1]])
            try await browser.waitFor("a 1280×720 page", "return innerWidth === 1280 && innerHeight === 720")
            try await browser.setEditor(script)
            try await browser.waitFor("the diagrams", "return (state.last && state.last.slides || []).length >= 3")
            try await browser.run("document.activeElement && document.activeElement.blur()")
            try await browser.press("p")
            try await browser.waitFor("the deck", "return !document.getElementById('slide-bar').hidden")
            let count = try #require(try await browser.run("return state.last.slides.length") as? Int)
            var titles: [String] = []
            for n in 1...count {
                let shown = try await browser.run("""
                    const svg = document.querySelector('#diagram svg'), r = svg.getBoundingClientRect();
                    return [document.getElementById('slide-title').textContent, document.getElementById('slide-count').textContent,
                            r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 ? 'fits' : 'overflows',
                            document.documentElement.scrollWidth <= innerWidth ? 'no scroll' : 'scrolls'];
                    """) as? [String] ?? []
                #expect(shown.count == 4 && shown[1] == "\(n) / \(count)", "\(shown)")
                #expect(shown.dropFirst(2).elementsEqual(["fits", "no scroll"]), "slide \(n): \(shown)")
                titles.append(shown.first ?? "")
                if n < count {
                    try await browser.press("\u{E014}")  // ArrowRight
                    try await browser.waitFor("slide \(n + 1)", "return document.getElementById('slide-count').textContent.startsWith('\(n + 1) /')")
                }
            }
            #expect(Array(titles.prefix(3)) == ["Groups by parity", "Windows of three", "Twice"], "\(titles)")
            try await browser.press("\u{E012}")  // ArrowLeft
            try await browser.waitFor("the slide before", "return document.getElementById('slide-count').textContent.startsWith('\(count - 1) /')")
            // Leaving presentation shows the whole picture again.
            try await browser.press("\u{E00C}")  // Escape
            try await browser.waitFor("the whole picture", "return document.getElementById('slide-bar').hidden && document.querySelector('#diagram svg').getAttribute('viewBox') === document.querySelector('#diagram svg').dataset.wholeBox")
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    func check(_ folder: URL, in browser: Browser) async throws {
        try await browser.command("POST", "/window/rect", ["width": 1280, "height": 720])
        try await browser.open(folder.appendingPathComponent("index.html").absoluteString)
        try await browser.waitFor("the first slide", "return document.querySelector('.slide.current') !== null")
        // The page itself 1280×720, whatever the window's frame takes.
        let inner = try await browser.run("return [innerWidth, innerHeight]") as? [Int] ?? [1280, 720]
        try await browser.command("POST", "/window/rect", ["width": 2560 - inner[0], "height": 1440 - inner[1]])
        try await browser.waitFor("a 1280×720 page", "return innerWidth === 1280 && innerHeight === 720")
        // The keys go to the page once it has the focus, as after a first click.
        try await browser.click(x: 640, y: 360)
        let count = try #require(try await browser.run("return document.querySelectorAll('section.slide').length") as? Int)
        #expect(count >= 8)
        var titles: [String] = []
        var sawSplit = false
        for n in 1...count {
            let shown = try await browser.run("""
                const slide = document.querySelector('.slide.current');
                const inside = [...slide.querySelectorAll('svg *')].filter((e) => {
                  const r = e.getBoundingClientRect();
                  return r.width > 0 || r.height > 0;
                }).every((e) => {
                  const r = e.getBoundingClientRect();
                  return r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
                });
                // Each text's size on the screen: its font size times its scale.
                const sizes = [...slide.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
                return [slide.id, slide.querySelector('.slide-title').textContent, inside ? 'inside' : 'outside', Math.min(...sizes),
                        Number(slide.dataset.parts), document.getElementById('counter').textContent];
                """) as? [Any] ?? []
            #expect(shown.count == 6, "\(shown)")
            guard shown.count == 6 else { break }
            #expect(shown[0] as? String == "slide-\(n)")
            titles.append(shown[1] as? String ?? "")
            #expect(shown[2] as? String == "inside", "slide \(n) (\(titles.last!)) has something outside the window")
            let smallest = (shown[3] as? Double) ?? Double((shown[3] as? Int) ?? 0)
            #expect(smallest >= 20 - 0.01, "slide \(n) (\(titles.last!)) has text of \(smallest) px")
            if let parts = shown[4] as? Int, parts > 1 { sawSplit = true }
            #expect(shown[5] as? String == "\(n) / \(count)")
            if n < count {
                try await browser.press("\u{E014}")  // ArrowRight
                try await browser.waitFor("slide \(n + 1)", "return document.querySelector('.slide.current').id === 'slide-\(n + 1)'")
            }
        }
        #expect(sawSplit, "a diagram too large for one slide goes on over several: \(titles)")
        #expect(titles.first == "One request per click: flatMap")
        // Past the last slide it stays; back with the left arrow; the address keeps the slide.
        try await browser.press("\u{E014}")
        #expect(try await browser.run("return document.querySelector('.slide.current').id") as? String == "slide-\(count)")
        try await browser.press("\u{E012}")  // ArrowLeft
        try await browser.waitFor("the slide before", "return document.querySelector('.slide.current').id === 'slide-\(count - 1)'")
        #expect(try await browser.run("return location.hash") as? String == "#\(count - 1)")
        try await browser.press("\u{E011}")  // Home
        try await browser.waitFor("the first slide again", "return document.querySelector('.slide.current').id === 'slide-1'")
        // N shows the speaker notes.
        try await browser.press("n")
        try await browser.waitFor("the notes", "return getComputedStyle(document.getElementById('notes')).display !== 'none'")
        let notes = try await browser.run("return document.getElementById('notes').textContent") as? String ?? ""
        #expect(notes.contains("Ask the class"), "\(notes)")
    }
}
