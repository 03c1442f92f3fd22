import FlowFormat
import FlowLanguage
import Testing

/// The layout `flow fmt` gives, one rule at a time.
@Suite struct LayoutTests {
    /// Formats `input`, and checks that formatting the result changes nothing.
    func format(_ input: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let once = SourceFormatter.formatted(input) else { return nil }
        #expect(SourceFormatter.formatted(once) == once, "not a fixed point:\n\(once)", sourceLocation: sourceLocation)
        return once
    }

    @Test func indentationIsTwoSpacesALevel() {
        let input = """
            test "t" {
                    let a = cold("-a|")
               expect(a.map { x in
            x * 2
                }).toBe("-a|", a: 2)
            }
            """
        #expect(format(input) == """
            test "t" {
              let a = cold("-a|")
              expect(a.map { x in
                x * 2
              }).toBe("-a|", a: 2)
            }

            """)
    }

    @Test func operatorsCommasAndColonsGetTheirBlanks() {
        #expect(format("let x=1+2*3\nlet d=[\"a\" :1,\"b\":2]\nlet y=x>2 ?x: -x\nlet z = f(a : 1,b:[1,2])\n") == """
            let x = 1 + 2 * 3
            let d = ["a": 1, "b": 2]
            let y = x > 2 ? x : -x
            let z = f(a: 1, b: [1, 2])

            """)
    }

    @Test func lessAndGreaterCompareWithABlankEachSide() {
        #expect(format("let big = cold(\"-a|\").filter { $0>5 }\nlet small = xs.filter{ $0<=2||$0 >=9 }\nlet s = prices.sorted { $0.price<$1.price }\nlet t = a<b && c>d\nlet u = a < b ? -1 : 1\nif n<limit, m>3 { print(n) }\nlet v = xs.sorted(by: >)\n") == """
            let big = cold("-a|").filter { $0 > 5 }
            let small = xs.filter { $0 <= 2 || $0 >= 9 }
            let s = prices.sorted { $0.price < $1.price }
            let t = a < b && c > d
            let u = a < b ? -1 : 1
            if n < limit, m > 3 { print(n) }
            let v = xs.sorted(by: >)

            """)
    }

    /// As Swift's parser tells them: after a name, types up to the matching
    /// `>`, and after it what can follow a type.
    @Test func genericArgumentsTouchTheirBrackets() {
        let input = """
            let a = Array < Int >()
            let s = PassthroughSubject<Int,Never>()
            let o: Observable< [String: Int] > = Observable<[String: Int]>.just([:])
            let b = Box<Pair<Int, Double>>(value: Pair(first: 1, second: 2))
            var seen: Set<String> = []
            let f = Future<Int, Never> { promise in promise(.success(1)) }
            func first<T: Equatable>(_ items: [T]) -> Array<T> { items }
            struct Box<T> { var value: T }
            let maybe: Optional<Int>? = nil
            let m = CurrentValueSubject<(Int, String), Never>((1, "a"))
            let k = x < Array<Int>().count
            print(a<b, c>(d))
            print(a<b, c>d)

            """
        // flow reads a constructor's element type only from `Name<`: one
        // written apart from its name keeps its blanks.
        #expect(format(input) == """
            let a = Array < Int >()
            let s = PassthroughSubject<Int, Never>()
            let o: Observable<[String: Int]> = Observable<[String: Int]>.just([:])
            let b = Box<Pair<Int, Double>>(value: Pair(first: 1, second: 2))
            var seen: Set<String> = []
            let f = Future<Int, Never> { promise in promise(.success(1)) }
            func first<T: Equatable>(_ items: [T]) -> Array<T> { items }
            struct Box<T> { var value: T }
            let maybe: Optional<Int>? = nil
            let m = CurrentValueSubject<(Int, String), Never>((1, "a"))
            let k = x < Array<Int>().count
            print(a<b, c>(d))
            print(a < b, c > d)

            """)
    }

    @Test func signsAndPostfixMarksTouchTheirOperand() {
        #expect(format("let a = - 1\nlet b = a -1\nlet c = !true\nlet d = e!.count\nlet f = g?.h ?? 0\nlet i = j as! Int\n") == """
            let a = -1
            let b = a - 1
            let c = !true
            let d = e!.count
            let f = g?.h ?? 0
            let i = j as! Int

            """)
    }

    @Test func aSemicolonBecomesALineBreak() {
        #expect(format("let a = 1; let b = 2\nlet f = { (x: Int) in let y = x; return y }\n") == """
            let a = 1
            let b = 2
            let f = { (x: Int) in
              let y = x
              return y
            }

            """)
    }

    @Test func blankLinesAreKeptAtMostOne() {
        #expect(format("\n\nlet a = 1\n\n\n\nlet b = 2\n\n\n") == "let a = 1\n\nlet b = 2\n")
    }

    @Test func commentsStayWhereTheyStand() {
        let input = """
            # leading
            let a = cold("-a|")   # trailing, its distance kept
            test "t" {
                  // inside, before a statement
              expect(a).toBe("-a|")
                    /* dangling at the end of the block */
            }
            let b = [
              1, // one
              2  // two
            ]
            # at the end
            """
        #expect(format(input) == """
            # leading
            let a = cold("-a|")   # trailing, its distance kept
            test "t" {
              // inside, before a statement
              expect(a).toBe("-a|")
              /* dangling at the end of the block */
            }
            let b = [
              1, // one
              2,  // two
            ]
            # at the end

            """)
    }

    @Test func marbleStringsAndNumbersAreCopiedAsWritten() {
        let input = "let a = cold(\"--a  -(bc)-  10ms |\", a:1_000, b:1e3, c:\"x\\(1+2)y\")\nlet t = 300ms\n"
        #expect(format(input) == "let a = cold(\"--a  -(bc)-  10ms |\", a: 1_000, b: 1e3, c: \"x\\(1+2)y\")\nlet t = 300ms\n")
    }

    @Test func chainsOverTheWidthAreBrokenOneOperatorALine() {
        let input = "let result = source.map { $0 * 2 }.filter { $0 > 10 }.debounce(50ms).distinctUntilChanged().take(300)\n"
        #expect(format(input) == """
            let result = source
              .map { $0 * 2 }
              .filter { $0 > 10 }
              .debounce(50ms)
              .distinctUntilChanged()
              .take(300)

            """)
        // A short chain stays on its line; a type's member heads the chain.
        #expect(format("let a = b.map { $0 }.take(1)\n") == "let a = b.map { $0 }.take(1)\n")
        let typed = "let values = Observable.just(1).map { value in value * 1000 }.filter { value in value > 100 }.take(1)\n"
        #expect(format(typed) == """
            let values = Observable.just(1)
              .map { value in value * 1000 }
              .filter { value in value > 100 }
              .take(1)

            """)
    }

    @Test func aModulesFunctionStartsItsChain() {
        let input = "let n = http.get(\"http://127.0.0.1:8080/api/v3/categories\").map { $0.json()[\"categories\"] }.map { $0.count }\n"
        #expect(SourceFormatter.formatted(input, modules: ["http"]) == """
            let n = http.get("http://127.0.0.1:8080/api/v3/categories")
              .map { $0.json()["categories"] }
              .map { $0.count }

            """)
    }

    @Test func aScriptCanKeepItsLayout() {
        let input = "// flow fmt: off\nlet a=1;let b=2\n"
        #expect(SourceFormatter.formatted(input) == input)
        guard case .keptAsWritten = SourceFormatter.format(SourceFile(path: "a", text: input)) else {
            Issue.record("the switch was not heard")
            return
        }
        // Only on a line of its own.
        #expect(SourceFormatter.formatted("let a=1 // flow fmt: off\n") == "let a = 1 // flow fmt: off\n")
    }

    @Test func continuedLinesAreIndentedOneLevel() {
        let input = """
            let total = prices
            .map { $0 * 2 }
            .reduce(0, +)
            let sum = 1 +
            2
            let ok = total > 1
            && sum > 1
            """
        #expect(format(input) == """
            let total = prices
              .map { $0 * 2 }
              .reduce(0, +)
            let sum = 1 +
              2
            let ok = total > 1
              && sum > 1

            """)
        // A chain on a ternary's branch stands under the branch.
        #expect(format("let a = ok\n? x\n: y\n.map { $0 }\n.take(1)\n") == "let a = ok\n  ? x\n  : y\n    .map { $0 }\n    .take(1)\n")
    }

    @Test func aSwitchsCasesStandAtItsLevel() {
        let input = """
            func f(_ x: Int) -> String {
            switch x {
                case 1: return "one"
                default:
                return "many"
            }
            }
            """
        #expect(format(input) == """
            func f(_ x: Int) -> String {
              switch x {
              case 1: return "one"
              default:
                return "many"
              }
            }

            """)
    }

    @Test func theShebangAndCompilationConditionsAreKept() {
        let input = "#!/usr/bin/env flow\n#if DEBUG\nlet a = 1\n#else\nlet   a =   2\n#endif\nprint(a)\n"
        #expect(format(input) == input)
    }

    @Test func lineEndingsBecomeNewlines() {
        #expect(format("let a = 1\r\nlet b = 2\r\n") == "let a = 1\nlet b = 2\n")
    }

    @Test func aScriptThatDoesNotParseIsNotFormatted() {
        guard case .syntaxErrors(let errors) = SourceFormatter.format(SourceFile(path: "bad.flow", text: "let a = (1 +\n")) else {
            Issue.record("a broken script was formatted")
            return
        }
        #expect(!errors.isEmpty)
        #expect(SourceFormatter.formatted("let x = 'a'\n") == nil)
    }

    @Test func theFingerprintIgnoresLayoutButNotMeaning() {
        let a = SyntaxFingerprint.of(SourceFile(path: "a", text: "let x = [1,2].map { $0+1 }\n"))
        let b = SyntaxFingerprint.of(SourceFile(path: "b", text: "let x = [1, 2]\n  .map {\n    $0 + 1\n  }\n"))
        let c = SyntaxFingerprint.of(SourceFile(path: "c", text: "let x = [1, 2].map { $0 - 1 }\n"))
        #expect(a != nil)
        #expect(a == b)
        #expect(a != c)
        // A blank in a type is layout; in a string or a marble string it is meaning.
        func of(_ text: String) -> String? { SyntaxFingerprint.of(SourceFile(path: "t", text: text)) }
        #expect(of("let d: [String: Int] = [:]\n") == of("let d: [String:Int] = [:]\n"))
        #expect(of("let s = \"a b\"\n") != of("let s = \"ab\"\n"))
        #expect(of("let m = cold(\"-a -|\")\n") != of("let m = cold(\"-a-|\")\n"))
        #expect(of("let s = \"x\\(1)y z\"\n") != of("let s = \"x\\(1)yz\"\n"))
    }

    @Test func theDiffIsGNUDiffs() {
        let diff = UnifiedDiff.between("a\nb\nc\n", "a\nB\nc\nd\n", oldName: "x", newName: "y")
        #expect(diff == """
            --- x
            +++ y
            @@ -1,3 +1,4 @@
             a
            -b
            +B
             c
            +d

            """)
        #expect(UnifiedDiff.between("a", "a\n", oldName: "x", newName: "y") == "--- x\n+++ y\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n")
        #expect(UnifiedDiff.between("same\n", "same\n", oldName: "x", newName: "y").isEmpty)
    }
}
