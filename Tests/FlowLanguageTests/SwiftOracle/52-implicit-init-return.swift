// `.init(...)` as a return value: the return type is the expected type.
struct Config {
    let retries: Int
    static func make() -> Config {
        return .init(retries: 1)
    }
}
func makeConfig() -> Config { .init(retries: 3) }
print(Config.make().retries)
print(makeConfig().retries)
let c: Config = .init(retries: 2)
print(c.retries)
