// Swift's keywords as names: in backticks, after a dot, and as labels.
enum Mode { case `default`, fast }
struct Config {
    var retries: Int
    static let standard = Config(retries: 2)
    func with(retries: Int) -> Config { .init(retries: retries) }
}
func describe(_ mode: Mode, in context: String, for name: String) -> String {
    switch mode {
    case .default: return "\(name) runs the default way in \(context)"
    case .fast: return "\(name) runs fast in \(context)"
    }
}
let `class` = "economy"
let m = Mode.default
print(describe(m, in: "tests", for: `class`))
print(describe(.fast, in: "production", for: "cron"))
let base: Config = .standard
print(base.with(retries: 5).retries, base.retries)
var counts: [String: Int] = [:]
for word in ["a", "b", "a"] where word != "b" { counts[word, default: 0] += 1 }
print(counts)
let value: Any = 3
if value is Int, let n = value as? Int { print("an Int", n) }
