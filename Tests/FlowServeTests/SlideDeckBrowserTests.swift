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

    /// The slide presentation mode shows, measured: its title, the
    /// counter, whether every mark of it is inside the window, its
    /// smallest text on the screen (font size times scale), how many
    /// lane labels and legend lines it shows, and whether the page
    /// scrolls sideways.
    static let shownSlide = """
        const svg = document.querySelector('#diagram > svg');
        if (!svg || !document.getElementById('diagram').classList.contains('deck')) return null;
        const inside = [...svg.querySelectorAll('*')].filter((e) => {
          const r = e.getBoundingClientRect();
          return (r.width > 0 || r.height > 0) && !e.closest('title, desc, style');
        }).every((e) => {
          const r = e.getBoundingClientRect();
          return r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
        });
        const texts = [...svg.querySelectorAll('text')].filter((t) => t.getBoundingClientRect().width > 0);
        const sizes = texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
        const title = svg.querySelector('.slide-title');
        return [title ? title.textContent : '', document.getElementById('slide-count').textContent, inside ? 'inside' : 'outside',
                Math.min(...sizes), svg.querySelectorAll('text.muted').length, svg.querySelectorAll('text.legend').length,
                document.documentElement.scrollWidth <= innerWidth ? 'no scroll' : 'scrolls'];
        """

    /// A browser whose page is 1280×720, on `served`'s playground.
    func projector(_ served: ServedFolder, path: String? = nil) async throws -> Browser {
        let browser = try await Browser.start()
        try await browser.command("POST", "/window/rect", ["width": 1280, "height": 720])
        try await browser.open(served.address.absoluteString + (path.map { "?path=" + $0 } ?? ""))
        try await browser.waitFor("the page", "return !!document.getElementById('editor')")
        let inner = try await browser.run("return [innerWidth, innerHeight]") as? [Int] ?? [1280, 720]
        try await browser.command("POST", "/window/rect", ["width": 2560 - inner[0], "height": 1440 - inner[1]])
        try await browser.waitFor("a 1280×720 page", "return innerWidth === 1280 && innerHeight === 720")
        return browser
    }

    /// Steps through the whole deck with → and back with ←, checking each
    /// slide: inside the window, its text at least 20 px. The slides' titles.
    func stepThroughTheDeck(in browser: Browser, _ what: String) async throws -> [String] {
        try await browser.waitFor("the first slide of \(what)", "return document.getElementById('slide-count').textContent.startsWith('1 /')")
        let count = try #require(try await browser.run("return state.last.slides.length") as? Int)
        var titles: [String] = []
        for n in 1...count {
            try await browser.waitFor("slide \(n) of \(what)", "return document.getElementById('slide-count').textContent.startsWith('\(n) /')")
            let shown = try await browser.run(Self.shownSlide) as? [Any] ?? []
            #expect(shown.count == 7, "\(what), slide \(n): \(shown)")
            guard shown.count == 7 else { break }
            titles.append(shown[0] as? String ?? "")
            #expect(shown[1] as? String == "\(n) / \(count)")
            #expect(shown[2] as? String == "inside", "\(what), slide \(n) (\(titles.last!)) has something outside the window")
            let smallest = (shown[3] as? Double) ?? Double((shown[3] as? Int) ?? 0)
            #expect(smallest >= 20 - 0.01, "\(what), slide \(n) (\(titles.last!)) has text of \(smallest) px")
            #expect(shown[6] as? String == "no scroll", "\(what), slide \(n)")
            if n < count { try await browser.press("\u{E014}") }  // ArrowRight
        }
        // Back with ←, to the first.
        for n in stride(from: count - 1, through: 1, by: -1) {
            try await browser.press("\u{E012}")  // ArrowLeft
            try await browser.waitFor("back to slide \(n) of \(what)", "return document.getElementById('slide-count').textContent.startsWith('\(n) /')")
        }
        return titles
    }

    /// `flow serve`'s presentation mode is the same deck, live: `flow
    /// slides`'s slides laid out for the room the page has at 1280×720,
    /// titled by their comments, stepped with the arrow keys, nothing of
    /// a slide outside the window and no text under 20 px, a diagram too
    /// large split over several slides (so with the editor beside it, or
    /// a 40-frame lane), the marks still the page's own.
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
        let long = """
            // # Forty frames
            let letters = cold("-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-a-b-c-d-e-f-g-h-i-j-k-l-m-n|")
            marbles(letters, letters.map { $0.uppercased() }, letters.filter { $0 != "a" })

            """
        let served = try ServedFolder(files: ["deck.flow": script])
        let browser = try await projector(served)
        do {
            try await browser.setEditor(script)
            try await browser.waitFor("the diagrams", "return (state.last && state.last.slides || []).length >= 3")
            try await browser.run("document.activeElement && document.activeElement.blur()")
            try await browser.press("p")
            try await browser.waitFor("the deck", "return document.getElementById('diagram').classList.contains('deck')")
            let titles = try await stepThroughTheDeck(in: browser, "the groupBy and window lesson")
            #expect(titles.first == "Groups by parity", "\(titles)")
            #expect(titles.contains("Windows of three") || titles.contains { $0.hasPrefix("Windows of three (") }, "\(titles)")
            #expect(titles.last == "Twice" || titles.last?.hasPrefix("Twice (") == true, "\(titles)")
            // The speaker notes, the comment lines under a slide's title: in the counter's
            // tooltip, and shown under the slide with N, following the slide shown.
            let tooltip = try await browser.run("return document.getElementById('slide-count').title") as? String ?? ""
            #expect(tooltip.contains("Groups by parity") && tooltip.contains("Each group branches off where its key first appears."), "\(tooltip)")
            #expect(try await browser.run("return document.getElementById('slide-notes').hidden") as? Bool == true, "notes are shown only when asked")
            try await browser.press("n")
            try await browser.waitFor("the first slide's notes", """
                const notes = document.getElementById('slide-notes');
                return !notes.hidden && getComputedStyle(notes).display !== 'none' && notes.getBoundingClientRect().height > 0
                  && notes.textContent === 'Each group branches off where its key first appears.'
                """)
            let notesSize = try await browser.run("return parseFloat(getComputedStyle(document.getElementById('slide-notes')).fontSize)") as? Double ?? 0
            #expect(notesSize >= 20, "notes of \(notesSize) px")
            try await browser.press("\u{E014}")  // ArrowRight
            try await browser.waitFor("the next slide's notes", """
                return document.getElementById('slide-count').textContent.startsWith('2 /')
                  && !document.getElementById('slide-notes').hidden
                  && document.getElementById('slide-notes').textContent === '(no notes for this slide)'
                """)
            try await browser.press("\u{E012}")  // ArrowLeft
            try await browser.press("n")
            try await browser.waitFor("the notes hidden again", """
                return document.getElementById('slide-count').textContent.startsWith('1 /') && document.getElementById('slide-notes').hidden
                """)
            // A mark of a slide is the page's own: it names the diagram and lane it is in.
            let named = try await browser.run("""
                const mark = document.querySelector('#diagram [data-e]');
                return mark ? [Number(mark.dataset.d), Number(mark.dataset.l)] : [];
                """) as? [Int] ?? []
            #expect(named == [0, 0], "\(named)")

            // With the editor beside it the room is narrower: the deck is laid out again, still legible.
            try await browser.press("e")
            try await browser.waitFor("the deck for the narrower room", """
                return document.body.classList.contains('with-editor') && document.getElementById('diagram').classList.contains('deck')
                  && document.querySelector('#diagram > svg').viewBox.baseVal.width < 1000
                """)
            let beside = try await stepThroughTheDeck(in: browser, "the lesson beside the editor")
            #expect(beside.count >= titles.count, "\(beside) against \(titles)")
            try await browser.run("document.activeElement && document.activeElement.blur()")
            try await browser.press("e")
            try await browser.waitFor("the whole room again", "return document.querySelector('#diagram > svg').viewBox.baseVal.width > 1000")

            // Forty frames do not fit 1280 px at 20 px text: the diagram goes on over several slides.
            try await browser.setEditor(long)
            try await browser.run("document.activeElement && document.activeElement.blur()")
            try await browser.waitFor("the long lane's deck", """
                return state.last.slides.length > 1 && state.last.slides.every((s) => s.svg && s.title.startsWith('Forty frames ('))
                  && document.getElementById('diagram').classList.contains('deck')
                """)
            let parts = try await stepThroughTheDeck(in: browser, "the 40-frame lane")
            #expect(parts.count > 1 && parts.first == "Forty frames (1 of \(parts.count))", "\(parts)")

            // Leaving presentation shows the whole picture again.
            try await browser.press("\u{E00C}")  // Escape
            try await browser.waitFor("the whole picture", """
                return document.getElementById('slide-bar').hidden && !document.getElementById('diagram').classList.contains('deck')
                  && document.querySelectorAll('#diagram > svg .slide-title').length === 0
                """)
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// A diagram split in time is drawn on each slide at its own scale, so
    /// the time cursor on a later slide runs over that slide's stretch in
    /// the diagram's columns and reads the diagram's time: each mark's
    /// column, times the diagram's frames a column, is its event's time;
    /// the cursor set to a mark's column stands on that mark and says its
    /// frame.
    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func theTimeCursorOfASplitSlideReadsTheDiagramsTime() async throws {
        // Twenty events 10 ms apart, then the end at 200 ms: drawn 5 ms a column.
        let ticks = (0..<20).map { String(UnicodeScalar(UInt8(97 + $0))) }.joined(separator: " 9ms ") + " 9ms |"
        let script = """
            // # Every ten frames
            let ticks = cold("\(ticks)")
            marbles(ticks, ticks.map { $0.uppercased() })

            """
        let served = try ServedFolder(files: ["ticks.flow": script])
        let browser = try await projector(served)
        do {
            try await browser.setEditor(script)
            try await browser.waitFor("the diagram", "return state.last && state.last.columnFrames.length >= 1 && document.querySelectorAll('#diagram [data-e]').length > 40")
            let frames = try #require(try await browser.run("return state.last.columnFrames[0]") as? Int)
            #expect(frames > 1, "the diagram is drawn at a coarse scale: \(frames) frames a column")
            try await browser.run("document.activeElement && document.activeElement.blur()")
            try await browser.press("p")
            try await browser.waitFor("the deck, split", """
                return document.getElementById('diagram').classList.contains('deck') && state.last.slides.length > 1
                  && state.last.slides.every((s) => s.svg)
                """)
            let count = try #require(try await browser.run("return state.last.slides.length") as? Int)
            for n in 1...count {
                try await browser.waitFor("slide \(n)", "return document.getElementById('slide-count').textContent.startsWith('\(n) /')")
                // Every mark's column is its event's time at the diagram's scale.
                let columns = try await browser.run("""
                    return [...document.querySelectorAll('#diagram [data-e]')].map((m) => [Number(m.dataset.e), Number(m.dataset.t)]);
                    """) as? [[Int]] ?? []
                #expect(!columns.isEmpty, "slide \(n) has marks")
                for pair in columns where pair.count == 2 {
                    #expect(pair[1] * frames == pair[0] * 10, "slide \(n): event \(pair[0]) is at column \(pair[1]) of \(frames) frames")
                }
                // The cursor runs over the slide's stretch; set to its first mark, it stands there and says its time.
                let cursor = try await browser.run("""
                    const c = document.getElementById('cursor');
                    const first = [...document.querySelectorAll('#diagram [data-e]')].sort((a, b) => a.dataset.t - b.dataset.t)[0];
                    c.value = first.dataset.t;
                    c.dispatchEvent(new Event('input'));
                    const line = document.querySelector('#diagram .cursor-line');
                    const box = first.getBBox();
                    return [Number(c.min), Number(first.dataset.t), Number(first.dataset.e), Math.abs(Number(line.getAttribute('x1')) - (box.x + box.width / 2)),
                            document.getElementById('cursor-readout').textContent];
                    """) as? [Any] ?? []
                #expect(cursor.count == 5, "\(cursor)")
                guard cursor.count == 5, let min = cursor[0] as? Int, let column = cursor[1] as? Int, let event = cursor[2] as? Int else { break }
                #expect(min == column, "slide \(n): the cursor starts at the slide's first column \(column), not \(min)")
                #expect(((cursor[3] as? Double) ?? Double((cursor[3] as? Int) ?? 99)) < 0.5, "slide \(n): the cursor's line is off its mark: \(cursor)")
                #expect(cursor[4] as? String == "frame \(event * 10)", "slide \(n): \(cursor)")
                if n > 1 { #expect(column > 0, "slide \(n) shows a later stretch") }
                if n < count { try await browser.press("\u{E014}") }  // ArrowRight
            }
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// A live run presented: its snapshots are the deck's slides, so its
    /// lane labels and legend are on the slide, inside the window, and
    /// its text at least 20 px.
    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func aLiveRunPresentedKeepsItsLabelsAndLegend() async throws {
        let served = try ServedFolder()
        let browser = try await projector(served, path: "lesson.flow")
        do {
            try await browser.waitFor("the diagram", "return document.querySelectorAll('#diagram circle').length > 0")
            try await browser.setEditor(LiveRunBrowserTests.script)
            try await browser.waitFor("the offer to run live", "return !document.getElementById('run-live').hidden")
            try await browser.run("document.getElementById('run-live').click(); document.activeElement && document.activeElement.blur()")
            try await browser.waitFor("the run", "return document.getElementById('diagram').classList.contains('live') && document.querySelectorAll('#diagram circle').length > 10")
            try await browser.press("p")
            try await browser.waitFor("the run as a deck", """
                return document.getElementById('diagram').classList.contains('deck') && document.querySelectorAll('#diagram circle').length > 10
                """)
            // Snapshots come and go: measured on two of them.
            for _ in 0..<2 {
                let shown = try await browser.run(Self.shownSlide) as? [Any] ?? []
                #expect(shown.count == 7, "\(shown)")
                guard shown.count == 7 else { break }
                #expect(shown[2] as? String == "inside", "the live slide has something outside the window: \(shown)")
                let smallest = (shown[3] as? Double) ?? Double((shown[3] as? Int) ?? 0)
                #expect(smallest >= 20 - 0.01, "the live slide has text of \(smallest) px")
                #expect((shown[4] as? Int ?? 0) >= 2, "the lane labels: \(shown)")
                #expect((shown[5] as? Int ?? 0) >= 1, "the legend: \(shown)")
                try await browser.run("state.seen = document.querySelector('#diagram > svg')")
                try await browser.waitFor("the next snapshot", "return document.querySelector('#diagram > svg') !== state.seen")
            }
            try await browser.run("document.getElementById('run-live').click()")
            try await browser.waitFor("the stop", "return document.getElementById('run-live').textContent === '▶ Run live'")
            // The finished run's picture is a deck too.
            try await browser.waitFor("the finished run's deck", "return document.getElementById('diagram').classList.contains('deck')")
            let finished = try await browser.run(Self.shownSlide) as? [Any] ?? []
            #expect(finished.count == 7 && finished[2] as? String == "inside", "\(finished)")
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// A finished live run presented, then the window made smaller: its
    /// deck is laid out again for the new room (split anew into more
    /// slides, every one inside the window with its text at least 20 px),
    /// not the old slides scaled down.
    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func aFinishedLiveRunIsLaidOutAgainWhenTheWindowChanges() async throws {
        let script = """
            // # Sixty ticks
            let ticks = interval(10ms).take(60)
            marbles(ticks, ticks.map { $0 * 2 })

            """
        let served = try ServedFolder()
        let browser = try await projector(served)
        do {
            try await browser.setEditor(script)
            try await browser.waitFor("the offer to run live", "return !document.getElementById('run-live').hidden")
            try await browser.run("document.activeElement && document.activeElement.blur()")
            try await browser.press("p")
            try await browser.run("document.getElementById('run-live').click(); document.activeElement && document.activeElement.blur()")
            try await browser.waitFor("the finished run's deck", """
                return document.getElementById('run-live').textContent === '▶ Run live' && state.last && !state.last.running
                  && state.last.live && document.getElementById('diagram').classList.contains('deck') && state.last.slides.length > 0
                """)
            let large = try #require(try await browser.run("return state.last.slides.length") as? Int)
            _ = try await stepThroughTheDeck(in: browser, "the finished run at 1280×720")

            // A smaller window: 800×600 inside.
            let frame = try await browser.run("return [outerWidth - innerWidth, outerHeight - innerHeight]") as? [Int] ?? [0, 0]
            try await browser.command("POST", "/window/rect", ["width": 800 + frame[0], "height": 600 + frame[1]])
            try await browser.waitFor("an 800×600 page", "return innerWidth === 800 && innerHeight === 600")
            try await browser.waitFor("the finished run's deck laid out again", """
                return state.last && !state.last.running && state.last.slides.length > \(large)
                  && document.getElementById('diagram').classList.contains('deck')
                """)
            let small = try #require(try await browser.run("return state.last.slides.length") as? Int)
            let titles = try await stepThroughTheDeck(in: browser, "the finished run at 800×600")
            #expect(titles.count == small && titles.allSatisfy { $0.hasPrefix("Sixty ticks (") }, "\(titles)")

            // Back to 1280×720: laid out again, in fewer slides.
            try await browser.command("POST", "/window/rect", ["width": 1280 + frame[0], "height": 720 + frame[1]])
            try await browser.waitFor("a 1280×720 page", "return innerWidth === 1280 && innerHeight === 720")
            try await browser.waitFor("the deck for the larger room (\(large) slides at first, \(small) at 800×600)",
                                      "return state.last && state.last.slides.length < \(small)")
            _ = try await stepThroughTheDeck(in: browser, "the finished run at 1280×720 again")
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
