import Foundation

/// What a flow SVG diagram draws where, read from its text as a test
/// reads a picture: each event's mark and its x, each lane's line and
/// where it ends, the cancellation bars, the axis breaks, and the boxes of
/// the elements (for a slide, to check nothing is cut).
public struct SVGGeometry {
    public struct Mark {
        public var diagram: Int
        public var lane: Int
        public var event: Int
        /// The centre of the mark: a marble's, a completion bar's, an error cross's.
        public var x: Double
        public var kind: String
    }

    public struct LaneLine {
        public var diagram: Int
        public var lane: Int
        public var x1: Double
        public var x2: Double
        /// "completed", "error", "cancelled" or "open".
        public var ends: String
    }

    public var marks: [Mark] = []
    public var laneLines: [LaneLine] = []
    /// Each cancellation bar's centre, by diagram and lane.
    public var cancellations: [(diagram: Int, lane: Int, x: Double)] = []
    /// The time written on each break of an axis.
    public var axisBreaks: [String] = []

    public init(_ svg: String) {
        for element in Self.elements(svg) {
            let a = element.attributes
            if let d = a["data-d"].flatMap(Int.init), let l = a["data-l"].flatMap(Int.init), let e = a["data-e"].flatMap(Int.init) {
                let x: Double?
                switch element.name {
                case "circle": x = a["cx"].flatMap(Double.init)
                case "line": x = a["x1"].flatMap(Double.init)
                case "path":
                    // `M x,y …` of a cross whose arms are 8 either side.
                    x = a["d"].flatMap { $0.dropFirst().split(separator: ",").first.flatMap { Double($0) } }.map { $0 + 8 }
                default: x = nil
                }
                if let x { marks.append(Mark(diagram: d, lane: l, event: e, x: x, kind: element.name)) }
            }
            if let d = a["data-line-d"].flatMap(Int.init), let l = a["data-lane-line"].flatMap(Int.init),
               let x1 = a["x1"].flatMap(Double.init), let x2 = a["x2"].flatMap(Double.init) {
                laneLines.append(LaneLine(diagram: d, lane: l, x1: x1, x2: x2, ends: a["data-ends"] ?? ""))
            }
            if let d = a["data-cancel-d"].flatMap(Int.init), let l = a["data-cancel-l"].flatMap(Int.init),
               let x1 = a["x1"].flatMap(Double.init), let x2 = a["x2"].flatMap(Double.init) {
                cancellations.append((d, l, (x1 + x2) / 2))
            }
            if a["class"] == "axis-break", let skipped = a["data-skipped"] { axisBreaks.append(skipped) }
        }
    }

    public struct Element {
        public var name: String
        public var attributes: [String: String]
    }

    /// Every start tag of the document, with its attributes (entities left as written).
    public static func elements(_ svg: String) -> [Element] {
        var found: [Element] = []
        for match in svg.matches(of: #/<([a-zA-Z]+)((?:\s+[a-zA-Z0-9:\-]+="[^"]*")*)\s*\/?>/#) {
            var attributes: [String: String] = [:]
            for pair in match.2.matches(of: #/([a-zA-Z0-9:\-]+)="([^"]*)"/#) { attributes[String(pair.1)] = String(pair.2) }
            found.append(Element(name: String(match.1), attributes: attributes))
        }
        return found
    }
}
