import Testing
@testable import FlowLanguage

/// `split` and `components(separatedBy:)` give what swiftc's program
/// prints for the same lines (Swift 6.3, Foundation on Linux).
@Suite struct StringSplittingTests {
    @Test func splitAndComponentsAsSwiftHasThem() {
        let printed = OperatorDocs.printed(by: #"""
            print("a,b,,c".split(separator: ","))
            print("a,b,,c".split(separator: ",", omittingEmptySubsequences: false))
            print("a,b,,c".split(separator: ",", maxSplits: 1))
            print(",a,".split(separator: ",", omittingEmptySubsequences: false))
            print("a::b::".split(separator: "::"))
            print("a::b::".split(separator: "::", omittingEmptySubsequences: false))
            print("a,b,,c".components(separatedBy: ","))
            print("".split(separator: ","), "".split(separator: ",", omittingEmptySubsequences: false), "".components(separatedBy: ","))
            print("a  b c".split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false))
            print("a b".split(separator: " ", maxSplits: 0))
            print("a  b".split(separator: " "))
            print("a::b".components(separatedBy: "::"))
            """#)
        #expect(printed == #"""
            ["a", "b", "c"]
            ["a", "b", "", "c"]
            ["a", "b,,c"]
            ["", "a", ""]
            ["a", "b"]
            ["a", "b", ""]
            ["a", "b", "", "c"]
            [] [""] [""]
            ["a", " b c"]
            ["a b"]
            ["a", "b"]
            ["a", "b"]
            """#, "\(printed)")
    }

    @Test func aNegativeMaxSplitsIsAnErrorNotATrap() {
        let printed = OperatorDocs.printed(by: #"print("a,b".split(separator: ",", maxSplits: -1))"#)
        #expect(printed.contains("split takes maxSplits: of 0 or more, not -1"), "\(printed)")
    }
}
