/// A deck of slides as one web page that needs nothing else: every slide
/// inline, one shown at a time, fitted to the window whatever its size;
/// the arrow keys (and Page Up/Down, Space, Home, End) step through them,
/// N shows the speaker notes, and the address keeps the slide's number.
public enum DeckPage {
    public static func html(_ slides: [SlideDeck.Slide], names: [String], title: String, size: SlideDeck.Size) -> String {
        let sections = zip(slides, names).enumerated().map { index, pair in
            let (slide, name) = pair
            let svg = slide.svg.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("<?xml") }.joined(separator: "\n")
            return """
                <section class="slide" id="slide-\(index + 1)" data-name="\(XML.escape(name))" data-part="\(slide.part)" data-parts="\(slide.parts)" \
                data-notes="\(XML.escape(slide.notes.joined(separator: "\n")))" aria-label="\(XML.escape(slide.title))">
                \(svg)
                </section>
                """
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XML.escape(title))</title>
            <style>
            html, body { margin: 0; height: 100%; overflow: hidden; background: #000; }
            .slide { display: none; position: absolute; inset: 0; }
            .slide.current { display: block; }
            .slide > svg { display: block; width: 100vw; height: 100vh; }
            #counter { position: fixed; right: 12px; bottom: 8px; font: 20px sans-serif; color: #777; }
            #notes { display: none; position: fixed; left: 0; right: 0; bottom: 0; max-height: 45vh; overflow: auto; margin: 0;
                     padding: 16px 24px; background: rgba(0, 0, 0, 0.88); color: #fff; font: 24px/1.4 sans-serif; white-space: pre-wrap; }
            body.notes #notes { display: block; }
            </style>
            </head>
            <body>
            \(sections.joined(separator: "\n"))
            <div id="counter" aria-live="polite"></div>
            <pre id="notes" aria-label="speaker notes"></pre>
            <script>
            "use strict";
            const slides = Array.from(document.querySelectorAll("section.slide"));
            const counter = document.getElementById("counter");
            const notes = document.getElementById("notes");
            let current = 0;
            function show(n) {
              current = Math.max(0, Math.min(slides.length - 1, n));
              slides.forEach((slide, i) => slide.classList.toggle("current", i === current));
              counter.textContent = (current + 1) + " / " + slides.length;
              notes.textContent = slides[current].dataset.notes || "(no notes for this slide)";
              if (location.hash !== "#" + (current + 1)) history.replaceState(null, "", "#" + (current + 1));
            }
            addEventListener("keydown", (event) => {
              if (event.altKey || event.ctrlKey || event.metaKey) return;
              const steps = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 };
              if (event.key in steps) show(current + steps[event.key]);
              else if (event.key === "Home") show(0);
              else if (event.key === "End") show(slides.length - 1);
              else if (event.key === "n" || event.key === "N") document.body.classList.toggle("notes");
              else return;
              event.preventDefault();
            });
            addEventListener("hashchange", () => show((parseInt(location.hash.slice(1), 10) || 1) - 1));
            show((parseInt(location.hash.slice(1), 10) || 1) - 1);
            </script>
            </body>
            </html>

            """
    }
}
