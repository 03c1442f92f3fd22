extension OperatorSpec {
    static let groupBy = method("groupBy", .transformation, "splits values into one stream per key", [arg("key", .function)],
        example: #"""
            let source = cold("-1-2-3-4|")
            let groups = source.groupBy { $0 % 2 }
            marbles(source, groups, groups.flatMap { $0.toArray() })
            """#,
        differences: "RxSwift's and RxJS's: each group is a stream with its `key`; Combine has none.") { $0.groupBy(try $1.function(0)) }
}

extension Observable {
    /// Splits values by `key`: emits one grouped stream (with a `key`
    /// member) per new key, and routes each value to its group. Completion
    /// and errors reach every group. Disposing the outer subscription stops
    /// the source for all groups.
    public func groupBy(_ key: Function) -> Observable {
        SinkNode("groupBy", self) { observer, _ in GroupBySink(observer, key: key) }
    }
}

/// A group of `groupBy`: a stream of the values with one key.
public final class GroupedSubject: Subject {
    public let key: Value
    init(key: Value) {
        self.key = key
        super.init(name: "group")
        // Its key names it in lanes, legends and traces.
        label = "group \(key.literal)"
    }
}

final class GroupBySink: Sink {
    private let key: Function
    private var groups: [Value: GroupedSubject] = [:]
    private var order: [GroupedSubject] = []

    init(_ downstream: Observer, key: Function) {
        self.key = key
        super.init(downstream)
    }

    override func onNext(_ value: Value) {
        let k: Value
        do { k = try key.call(value) } catch { return onError(FlowError.wrap(error)) }
        if let group = groups[k] {
            group.send(value)
            return
        }
        let group = GroupedSubject(key: k)
        groups[k] = group
        order.append(group)
        sendNext(.stream(group))
        group.send(value)
    }

    override func onError(_ error: FlowError) {
        for group in order { group.fail(error) }
        sendError(error)
    }

    override func onCompleted() {
        for group in order { group.complete() }
        sendCompleted()
    }

    override func disposeResources() {
        groups = [:]
        order = []
    }
}
