import Testing

@testable import FlowRuntime

@Suite struct ValueTests {
    @Test func printsLikeSwift() {
        #expect(Value.int(1).description == "1")
        #expect(Value.double(1.5).description == "1.5")
        #expect(Value.double(2).description == "2.0")
        #expect(Value.string("a").description == "a")
        #expect(Value.array([1, "a"]).description == "[1, \"a\"]")
        #expect(Value.dictionary(["k": 1]).description == "[\"k\": 1]")
        #expect(Value.dictionary([:]).description == "[:]")
        #expect(Value.tuple([1, "a"]).description == "(1, \"a\")")
        #expect(Value.record(["value": 1, "time": .duration(.milliseconds(Int64(5)))]).description == "(value: 1, time: 5ms)")
        #expect(Value.null.description == "nil")
        #expect(Value.bool(true).description == "true")
        #expect(Value.string("q\"\n").literal == "\"q\\\"\\n\"")
    }

    @Test func durationsPrintAsLiterals() {
        #expect(TimeSpan.milliseconds(Int64(5)).description == "5ms")
        #expect(TimeSpan.milliseconds(Int64(1500)).description == "1.5s")
        #expect(TimeSpan.seconds(120).description == "2m")
        #expect(TimeSpan.seconds(3600).description == "1h")
        #expect(TimeSpan.milliseconds(0.5).description == "0.5ms")
    }

    @Test func eventsPrintInCollectionForm() {
        #expect(Value.event(.next("a")).description == "next(\"a\")")
        #expect(Value.event(.error(FlowError("boom"))).description == "error(\"boom\")")
        #expect(Value.event(.completed).description == "completed")
    }

    @Test func equalityAcrossNumbersAndOrderFreeDictionaries() {
        #expect(Value.int(1) == Value.double(1.0))
        #expect(Value.int(1).hashValue == Value.double(1.0).hashValue)
        #expect(Value.dictionary(["a": 1, "b": 2]) == Value.dictionary(["b": 2, "a": 1]))
        #expect(Value.dictionary(["a": 1, "b": 2]).hashValue == Value.dictionary(["b": 2, "a": 1]).hashValue)
        #expect(Value.string("1") != Value.int(1))
        #expect(Value.tuple([1, 2]) == Value.tuple([1, 2]))
    }

    @Test func arithmeticFaultsAreErrorsNotTraps() throws {
        #expect(try Value.add(1, 2) == 3)
        #expect(try Value.add("a", "b") == "ab")
        #expect(try Value.multiply(2, 1.5) == 3.0)
        #expect(throws: FlowError.self) { try Value.divide(1, 0) }
        #expect(throws: FlowError.self) { try Value.remainder(1, 0) }
        #expect(throws: FlowError.self) { try Value.multiply(.int(Int.max), 2) }
        #expect(throws: FlowError.self) { try Value.multiply("a", 2) }
        #expect(throws: FlowError.self) { try Value.negate(.int(Int.min)) }
        let message = (try? Value.multiply("a", 2)).map { _ in "" } ?? ""
        #expect(message.isEmpty)
    }

    @Test func comparisons() throws {
        #expect(try Value.int(1).compare(to: 2.5) == -1)
        #expect(try Value.string("b").compare(to: "a") == 1)
        #expect(try Value.array([1, 2]).compare(to: [1, 3]) == -1)
        #expect(throws: FlowError.self) { try Value.int(1).compare(to: "a") }
    }

    @Test func members() throws {
        let record = Value.record(["name": "x", "n": 2])
        #expect(try record.member("name") == "x")
        #expect(try Value.tuple([7, 8]).member("1") == 8)
        #expect(try Value.dictionary(["k": 1]).member("k") == 1)
        #expect(try Value.dictionary(["k": 1]).member("missing") == .null)
        #expect(try Value.event(.next(3)).member("kind") == "next")
        #expect(try Value.event(.next(3)).member("value") == 3)
        #expect(try Value.event(.error(FlowError("e"))).member("error") == "e")
        #expect(try Value.event(.completed).member("value") == .null)
        #expect(try Value.array([1, 2]).member("publisher").asStream() is Observable)
        // An array's count is a method of values in the language, not a member.
        #expect(throws: FlowError.self) { try Value.array([1, 2]).member("count") }
        #expect(throws: FlowError.self) { try Value.int(1).member("name") }
    }

    @Test func functionsTakeArgumentsEfficientlyAndSpreadTuples() throws {
        let sum = fn2 { try Value.add($0, $1) }
        #expect(try sum.call(1, 2) == 3)
        #expect(try sum.call([.tuple([1, 2])]) == 3)
        let nonBool = fn { $0 }
        #expect(throws: FlowError.self) { try nonBool.test(1) }
    }
}
