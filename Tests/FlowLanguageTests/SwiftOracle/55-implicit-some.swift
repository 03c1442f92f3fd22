// `.some(.standard)` and `.none` by an Optional's declared type.
struct Config {
    let retries: Int
    static let standard = Config(retries: 3)
}
let a: Config? = .some(.standard)
let b: Config? = .none
print(a?.retries as Any)
print(b?.retries as Any)
func pick(_ c: Config?) -> Int { c?.retries ?? -1 }
print(pick(.standard))
print(pick(nil))
