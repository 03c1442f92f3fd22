/// A class a script declares, as its objects need it at run time: its
/// name, its stored properties (a subclass's after its superclass's), its
/// superclass, and what runs when one of its objects goes.
public final class ObjectClass: @unchecked Sendable {
    public let name: String
    public let fieldNames: [String]
    /// Which fields are `@Published`: each holds a `PublishedSubject`.
    public let publishedFields: [Bool]
    /// Which fields are `weak` (or `unowned`): an object in one is held
    /// by a `WeakObject`, which does not keep it.
    public let weakFields: [Bool]
    public let superclass: ObjectClass?
    /// The script's `deinit` bodies, the class's own first and then its
    /// superclass's, as Swift runs them; given the object's last fields.
    /// (@unchecked: set once, while the script compiles, before any object.)
    public var deinitializer: ((ScriptObject) -> Void)?
    /// What `deinitializer` was made for (a run's frame): a new run makes
    /// its own.
    public var deinitializerOwner: AnyObject?

    public init(name: String, fieldNames: [String], publishedFields: [Bool], weakFields: [Bool], superclass: ObjectClass?) {
        self.name = name
        self.fieldNames = fieldNames
        self.publishedFields = publishedFields
        self.weakFields = weakFields
        self.superclass = superclass
    }

    /// Whether objects of this class are also `name`: itself or an ancestor.
    public func isKind(of name: String) -> Bool {
        var type: ObjectClass? = self
        while let t = type {
            if t.name == name { return true }
            type = t.superclass
        }
        return false
    }

    public func fieldIndex(_ name: String) -> Int? { fieldNames.firstIndex(of: name) }
}

/// An object of a script's class: one identity that every name holding it
/// shares, as a Swift class instance is. It lives while something holds it;
/// when the last reference goes, its class's `deinit` runs, as in Swift.
public final class ScriptObject {
    public let objectClass: ObjectClass
    @exclusivity(unchecked) public var fields: [Value]
    /// The object a `deinit` runs on, standing in for one already gone: it
    /// has the last fields, and its own end runs no `deinit` again.
    private let isStandIn: Bool
    /// How many `deinit`s deep the object was made: 0 outside any, one more
    /// than the `deinit` that made it otherwise. A `deinit` that makes an
    /// object whose `deinit` makes another goes on without end (Swift's
    /// stack would overflow); the count is how it is seen.
    public let deinitGeneration: Int

    public init(_ objectClass: ObjectClass, fields: [Value]) {
        self.objectClass = objectClass
        self.fields = fields
        isStandIn = false
        deinitGeneration = ObjectRelease.generationOfNewObjects
        for (i, isPublished) in objectClass.publishedFields.enumerated() where isPublished {
            if case .stream(let stream) = fields[i], let published = stream as? PublishedSubject { published.object = self }
        }
    }

    private init(standingInFor objectClass: ObjectClass, fields: [Value], generation: Int) {
        self.objectClass = objectClass
        self.fields = fields
        isStandIn = true
        deinitGeneration = generation
    }

    /// Combine's `objectWillChange`: sent before any `@Published`
    /// property changes. Made when first asked for.
    public private(set) var willChange: PublishSubject?

    /// A property's value; `$name`, a `@Published` property's publisher;
    /// `objectWillChange`. A `lazy` property is made when first read.
    public func field(_ name: String) throws -> Value? {
        if let i = objectClass.fieldIndex(name) { return try fieldValue(i) }
        if name.hasPrefix("$"), let i = objectClass.fieldIndex(String(name.dropFirst())), objectClass.publishedFields[i] {
            return fields[i]
        }
        if name == "objectWillChange" {
            if willChange == nil { willChange = PublishSubject() }
            return .stream(willChange!)
        }
        return nil
    }

    /// Field `i`'s value as the script sees it.
    public func fieldValue(_ i: Int) throws -> Value {
        switch fields[i] {
        case .stream(let published as PublishedSubject) where objectClass.publishedFields[i]: return published.value
        case .function(let held as WeakObject): return held.value
        case .function(let lazy as LazyProperty):
            let value = try lazy.make(.object(self))
            fields[i] = stored(value, at: i)
            return value
        default: return fields[i]
        }
    }

    /// How field `i` holds `value`: a weak field does not keep an object.
    public func stored(_ value: Value, at i: Int) -> Value {
        if objectClass.weakFields[i], case .object(let object) = value { return .function(WeakObject(object)) }
        return value
    }

    /// Changes a property where it is; a `@Published` one publishes the
    /// new value (after `objectWillChange`).
    public func updateField(_ i: Int, _ body: (inout Value) throws -> Void) throws {
        if objectClass.publishedFields[i], case .stream(let stream) = fields[i], let published = stream as? PublishedSubject {
            var value = published.value
            try body(&value)
            published.send(value)
            return
        }
        if objectClass.weakFields[i] || { if case .function(let f) = fields[i] { f is LazyProperty } else { false } }() {
            var value = try fieldValue(i)
            try body(&value)
            fields[i] = stored(value, at: i)
            return
        }
        var element = fields[i]
        fields[i] = .null
        defer { fields[i] = element }
        try body(&element)
    }

    deinit {
        // Swift forbids a dying object to be held again, and a deinit may
        // store `self` anywhere: the script's deinit runs on a stand-in
        // with the same fields, and its own end runs no deinit again.
        let deinitializer = isStandIn ? nil : objectClass.deinitializer
        // Moved, not copied: nothing here may hold the fields once the list does.
        var last: [Value] = []
        swap(&last, &fields)
        ObjectRelease.gone(objectClass, fields: &last, deinitializer: deinitializer, generation: deinitGeneration)
    }

    fileprivate static func standIn(for objectClass: ObjectClass, fields: [Value], generation: Int) -> ScriptObject {
        ScriptObject(standingInFor: objectClass, fields: fields, generation: generation)
    }
}

/// What a `weak` or `unowned` property (or a method's `self` once only
/// `[weak self]` closures read it) holds: the object, without keeping it.
public final class WeakObject: Function {
    public weak var object: ScriptObject?

    /// The object, or nil once it is gone.
    public var value: Value { object.map(Value.object) ?? .null }

    public init(_ object: ScriptObject) {
        self.object = object
        super.init(name: "weak reference", parameterCount: 0)
    }
}

/// A `lazy` property not read yet: `make` computes its value from the
/// object, the first time it is read.
public final class LazyProperty: Function {
    public let make: (Value) throws -> Value

    public init(_ make: @escaping (Value) throws -> Value) {
        self.make = make
        super.init(name: "lazy property", parameterCount: 0)
    }
}

/// What objects leave behind goes one piece after another, not each
/// inside the last one's deinit: a linked list of a million nodes going
/// at once would otherwise overflow the stack. The script's deinits run
/// here too, each at the same depth.
public enum ObjectRelease {
    private enum Leftover {
        case values([Value])
        case deinitialiser(ObjectClass, fields: [Value], generation: Int, run: (ScriptObject) -> Void)
    }

    private final class Pending {
        @exclusivity(unchecked) var items: [Leftover] = []
        @exclusivity(unchecked) var draining = false
        /// The `deinitGeneration` of the object whose `deinit` runs now,
        /// plus one; 0 while none runs.
        @exclusivity(unchecked) var generationOfNewObjects = 0
        /// A deinit of this drain ended the chain (`endChain`): until the
        /// drain is over, what is let go of runs no deinit.
        @exclusivity(unchecked) var chainEnded = false
    }

    /// The most `deinit`s deep an object may be made: a chain of deinits
    /// each making the next object is endless long before this.
    public static let deepestGeneration = 10_000

    /// What `deinitGeneration` an object made now has.
    public static var generationOfNewObjects: Int { pending.generationOfNewObjects }

    /// One list per thread: each run is confined to its own thread.
    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in if let pointer { Unmanaged<Pending>.fromOpaque(pointer).release() } }
        return key
    }()

    private static var pending: Pending {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Pending>.fromOpaque(pointer).takeUnretainedValue()
        }
        let made = Pending()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Ends the chain of deinits under way on this thread: those it has
    /// queued are dropped, and objects let go of until it is over run no
    /// deinit. A deinit whose making of objects was stopped (Ctrl-C, the
    /// run's budget, the chain's depth) calls it: every deinit still
    /// queued would be stopped the same way, one error each, while the
    /// chain went on widening.
    public static func endChain() {
        let list = pending
        if list.draining { list.chainEnded = true }
    }

    /// Takes what a dying object held (leaving `fields` empty) and, unless
    /// an outer call is already at it, lets go of it piece by piece.
    static func gone(_ objectClass: ObjectClass, fields: inout [Value], deinitializer: ((ScriptObject) -> Void)?, generation: Int) {
        let list = pending
        let deinitializer = list.chainEnded ? nil : deinitializer
        if deinitializer == nil, !fields.contains(where: holdsObjects) { return }
        var taken: [Value] = []
        swap(&taken, &fields)
        if let deinitializer {
            list.items.append(.deinitialiser(objectClass, fields: taken, generation: generation, run: deinitializer))
        } else {
            list.items.append(.values(taken))
        }
        taken = []
        guard !list.draining else { return }
        list.draining = true
        defer {
            list.draining = false
            list.chainEnded = false
        }
        while let next = list.items.popLast() {
            if !list.chainEnded, case .deinitialiser(let objectClass, let fields, let generation, let run) = next {
                let outer = list.generationOfNewObjects
                list.generationOfNewObjects = generation + 1
                run(ScriptObject.standIn(for: objectClass, fields: fields, generation: generation))
                list.generationOfNewObjects = outer
            }
        }
    }

    private static func holdsObjects(_ value: Value) -> Bool {
        switch value {
        case .object, .array, .dictionary, .tuple, .function: true
        default: false
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
