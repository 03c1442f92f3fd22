import FlowTestSupport
import Foundation
import Testing

/// The page by keyboard alone and its colours, in headless chromium at
/// 1280×720: Tab reaches every enabled button and field in reading order,
/// each shows where the focus is, an exercise is answered without a mouse,
/// and every text on the page is at least 4.5:1 against its background
/// (WCAG's AA for text), in the light scheme and the dark.
@Suite(.serialized) struct KeyboardAndContrastBrowserTests {
    static func withBrowser(_ body: (Browser) async throws -> Void) async throws {
        let browser = try await Browser.start()
        do {
            try await browser.command("POST", "/window/rect", ["width": 1280, "height": 720])
            try await body(browser)
            await browser.stop()
        } catch {
            await browser.stop()
            throw error
        }
    }

    /// Presses Tab until the focus comes round again, and says what each
    /// stop was (its id, or tag and class) and whether its focus shows.
    static func tabStops(in browser: Browser, most: Int = 120) async throws -> [(name: String, shows: Bool)] {
        try await browser.run("""
            document.activeElement.blur(); window.getSelection().removeAllRanges();
            for (const e of document.querySelectorAll('[data-tab-seen]')) delete e.dataset.tabSeen;
            """)
        var stops: [(String, Bool)] = []
        var outside = 0
        for _ in 0..<most {
            try await browser.press("\u{E004}")
            let stop = try await browser.run("""
                const e = document.activeElement;
                if (!e || e === document.body) return null;
                if (e.dataset.tabSeen) return ['↺', true];
                e.dataset.tabSeen = '1';
                const style = getComputedStyle(e);
                const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
                const name = e.id ? '#' + e.id : e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '')
                  + (e.matches('a, button, summary') && e.textContent.trim() ? ':' + e.textContent.trim().slice(0, 20) : '');
                return [name, outline || style.boxShadow !== 'none'];
                """) as? [Any]
            // Past the last stop the focus leaves the page once, then starts at its top.
            guard let stop else { outside += 1; if outside > 2 { break } else { continue } }
            guard let name = stop.first as? String, name != "↺" else { break }
            stops.append((name, stop.last as? Bool ?? false))
        }
        return stops
    }

    /// The contrast of every text of the page against what is behind it:
    /// a text's colour over its element's first opaque background, and an
    /// SVG text's fill over its marble or the picture's background.
    static let lowContrast = """
        const parse = (s) => { const m = /rgba?\\(([^)]+)\\)/.exec(s || ''); if (!m) return null;
          const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return { rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
        const luminance = (rgb) => { const [r, g, b] = rgb.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const ratio = (a, b) => (Math.max(luminance(a), luminance(b)) + 0.05) / (Math.min(luminance(a), luminance(b)) + 0.05);
        const over = (top, under) => top.rgb.map((v, i) => v * top.a + under[i] * (1 - top.a));
        const behind = (element) => {
          const layers = [];
          for (let e = element; e; e = e.parentElement) {
            const c = parse(getComputedStyle(e).backgroundColor);
            if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
          }
          let rgb = matchMedia('(prefers-color-scheme: dark)').matches ? [0, 0, 0] : [255, 255, 255];
          for (const layer of layers.reverse()) rgb = over(layer, rgb);
          return rgb;
        };
        const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
        const low = [];
        let checked = 0;
        for (const e of document.querySelectorAll('body *')) {
          // Disabled controls are exempt (WCAG 1.4.3: inactive components).
          if (e.closest('svg') || !visible(e) || e.disabled) continue;
          const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
          // A slider's value is no text: its track is a component (3:1, not measured here).
          if (!own && !e.matches('input:not([type=range]), textarea, select, button')) continue;
          const style = getComputedStyle(e);
          const under = behind(e);
          const shown = over(parse(style.color), under);
          const r = ratio(shown, under);
          checked++;
          if (r < 4.5) low.push((e.id ? '#' + e.id : e.tagName + '.' + e.className) + ' "' + (e.value || e.textContent).trim().slice(0, 24) + '" ' + r.toFixed(2));
        }
        for (const t of document.querySelectorAll('svg text')) {
          if (!visible(t) || !t.textContent.trim()) continue;
          const svg = t.closest('svg');
          const marble = t.previousElementSibling && t.previousElementSibling.matches('circle') ? t.previousElementSibling : null;
          const ground = parse(getComputedStyle(marble || svg.querySelector('rect.bg') || svg).fill) || { rgb: [255, 255, 255], a: 1 };
          const under = over(ground, behind(svg));
          const r = ratio(over(parse(getComputedStyle(t).fill), under), under);
          checked++;
          if (r < 4.5) low.push('svg text "' + t.textContent.trim().slice(0, 24) + '" ' + r.toFixed(2));
        }
        return [checked, low];
        """

    func darkScheme(_ dark: Bool, in browser: Browser) async throws {
        try await browser.command("POST", "/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia", "params": [
            "features": [["name": "prefers-color-scheme", "value": dark ? "dark" : "light"]],
        ]])
        try await browser.waitFor("the \(dark ? "dark" : "light") scheme", "return matchMedia('(prefers-color-scheme: dark)').matches === \(dark)")
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func thePlaygroundByKeyboardAndItsContrast() async throws {
        let served = try ServedFolder(files: ["lesson.flow": ServedFolder.lesson, "more.flow": "marbles(cold(\"-a|\"))\n"])
        try await Self.withBrowser { browser in
            try await browser.open(served.address.absoluteString + "?path=lesson.flow")
            try await browser.waitFor("the diagram", "return document.querySelectorAll('#diagram circle').length > 0 && document.querySelectorAll('#operators summary').length > 0")
            let stops = try await Self.tabStops(in: browser)
            let names = stops.map(\.name)
            // Every enabled button and field, and the scripts and operator families, in reading order.
            let wanted = try await browser.run("""
                return [...document.querySelectorAll('button, input, select, textarea')].filter((e) => e.id && !e.disabled && e.offsetParent !== null)
                  .map((e) => '#' + e.id);
                """) as? [String] ?? []
            #expect(!wanted.isEmpty)
            for id in wanted { #expect(names.contains(id), "\(id) is not reached by Tab: \(names)") }
            #expect(names.contains { $0.hasPrefix("a.file:more.flow") } && names.contains { $0.hasPrefix("summary") }, "\(names)")
            #expect(names.firstIndex(of: "#toggle-sidebar")! < names.firstIndex(of: "#operator-search")!
                    && names.firstIndex(of: "#operator-search")! < names.firstIndex(of: "#editor")!
                    && names.firstIndex(of: "#editor")! < names.firstIndex(of: "#cursor")!, "\(names)")
            let unseen = stops.filter { !$0.shows }.map(\.name)
            #expect(unseen.isEmpty, "focus not shown on \(unseen)")
            // A script opened, and an operator's page, by keyboard.
            try await browser.run("document.querySelector('#files a[data-path=\"more.flow\"]').focus()")
            try await browser.press("\u{E007}")
            try await browser.waitFor("more.flow", "return document.getElementById('editor').value.startsWith('marbles(cold(\"-a|\"))')")

            for dark in [false, true] {
                try await darkScheme(dark, in: browser)
                let found = try await browser.run(Self.lowContrast) as? [Any] ?? []
                let low = found.last as? [String] ?? ["not measured"]
                #expect((found.first as? Int ?? 0) > 20 && low.isEmpty, "\(dark ? "dark" : "light"): \(low)")
            }
        }
    }

    @Test(.enabled(if: BrowserTests.browserAvailable, "chromium and chromium-driver are not installed (.ci/run installs them)"))
    func anExerciseAnsweredByKeyboardAloneAndItsContrast() async throws {
        let served = try ServedFolder(files: ["zip.flow": ServedFolder.exercise], exercise: "zip.flow")
        try await Self.withBrowser { browser in
            try await browser.open(served.address.absoluteString)
            try await browser.waitFor("the name's field", "return document.activeElement && document.activeElement.id === 'student'")
            try await browser.typeKeys("Ada\u{E007}")
            try await browser.waitFor("the exercises", "return document.querySelectorAll('#exercises .question').length === 2")
            let stops = try await Self.tabStops(in: browser).map(\.name)
            // The first question's lane, its fields and buttons, then the next question's.
            let order = ["div.picture", "input.value", "input.marble", "button.check:Check", "button.give-up:Give up: show the an"]
            let first = try #require(stops.firstIndex(of: "div.picture"), "\(stops)")
            #expect(Array(stops[first..<Swift.min(stops.count, first + 5)]) == order, "\(stops)")
            #expect(stops.contains("#save-answers") && stops.contains("#present"), "\(stops)")

            // tenfold: -a-b-c| with 10, 20, 30, by keys only (Tab, Shift+Tab, arrows, Enter, typing).
            // From the header's first button, Tab on to the first lane.
            try await browser.run("document.getElementById('zoom-out').focus()")
            try await browser.press("\u{E004}")
            while (try await browser.run("return document.activeElement.className") as? String) != "picture" { try await browser.press("\u{E004}") }
            for (value, steps) in [("10", 1), ("20", 2), ("30", 2)] {
                try await browser.typeKeys("\u{E004}")   // to the value box
                try await browser.typeKeys("\u{E009}a\u{E009}" + value)
                try await browser.typeKeys("\u{E008}\u{E004}\u{E008}")   // Shift+Tab back to the lane
                try await browser.typeKeys(String(repeating: "\u{E014}", count: steps) + "\u{E007}")
                try await browser.waitFor("\(value) placed", "return exercise.sheet.questions[0].answer.some((e) => e.value === '\(value)')")
            }
            try await browser.typeKeys("\u{E014}|")
            try await browser.waitFor("the answer", #"return document.querySelector('#exercises .question input.marble').value === '"-a-b-c|", a: 10, b: 20, c: 30'"#)
            // Check, by Tab to its button and Enter.
            try await browser.typeKeys("\u{E004}\u{E004}\u{E004}\u{E007}")
            try await browser.waitFor("right", "return (document.querySelector('#exercises .question pre.result') || {}).textContent === '✓ right'")

            for dark in [false, true] {
                try await darkScheme(dark, in: browser)
                let found = try await browser.run(Self.lowContrast) as? [Any] ?? []
                let low = found.last as? [String] ?? ["not measured"]
                #expect((found.first as? Int ?? 0) > 10 && low.isEmpty, "\(dark ? "dark" : "light"): \(low)")
            }
        }
    }
}

extension Browser {
    /// Keys typed where the focus is, one after another (WebDriver's key
    /// codes: \u{E004} Tab, \u{E007} Enter, \u{E008} Shift held until
    /// pressed again, \u{E009} Control likewise, \u{E014} →).
    func typeKeys(_ keys: String) async throws {
        var actions: [[String: Any]] = []
        var held: Set<String> = []
        for key in keys.map(String.init) {
            if key == "\u{E008}" || key == "\u{E009}" {
                actions.append(["type": held.contains(key) ? "keyUp" : "keyDown", "value": key])
                if held.contains(key) { held.remove(key) } else { held.insert(key) }
                continue
            }
            actions.append(["type": "keyDown", "value": key])
            actions.append(["type": "keyUp", "value": key])
        }
        for key in held { actions.append(["type": "keyUp", "value": key]) }
        try await command("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    }
}
