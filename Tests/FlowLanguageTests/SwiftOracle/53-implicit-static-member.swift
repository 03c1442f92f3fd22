// `let s: Config = .standard`: a static property by the declared type.
struct Config {
    let retries: Int
    static let standard = Config(retries: 3)
    static var none: Config { Config(retries: 0) }
}
let s: Config = .standard
print(s.retries)
var t: Config = .none
print(t.retries)
t = .standard
print(t.retries)
func use(_ c: Config) -> Int { c.retries }
print(use(.standard))
