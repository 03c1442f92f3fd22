/// What a `@Published` property of a class is: its value, and the
/// publisher `$name` reads. As Combine's, a subscriber receives the current
/// value first, then each new value, sent before the property holds it
/// (in `willSet`): a subscriber that reads the property sees the old value.
public final class PublishedSubject: Subject {
    public private(set) var value: Value
    /// The object whose property this is: its `objectWillChange` is sent
    /// before each new value, however the value is set (`assign(to:)` too).
    public weak var object: ScriptObject?
    /// Values sent while one is delivered are delivered after it; the
    /// property holds the last one when all are.
    @exclusivity(unchecked) private var latest: Value = .null
    @exclusivity(unchecked) private var sending = 0

    public init(_ initial: Value) {
        value = initial
        super.init(name: "published")
    }

    override public func send(_ newValue: Value) {
        object?.willChange?.send(.null)
        latest = newValue
        sending += 1
        super.send(newValue)
        sending -= 1
        if sending == 0 { value = latest }
    }

    override func replay(to observer: Observer) {
        if terminal == nil { observer.onNext(value) }
    }
}
