// What Swift prints for the value-semantics tests of
// Tests/FlowLanguageTests/Scripts/collections.flow (compiled with swiftc
// 6.3.1 here: swiftc value-semantics.swift && ./value-semantics).
// It printed:
//   [1, 2, 3, 4] [1, 2] [9, 2]
//   [1, 2] [3] ["k": [1]]
//   abcab
//   6 [2, 4, 6] [(key: "a", value: 2), (key: "b", value: 1)]
//   [1, 5] 3
//   [0, 7, 0] ["x", "x"]

var a = [1, 2]; let b = a; var c = a
a.append(3); c[0] = 9; a += [4]
print(a, b, c)
var d = ["k": [1]]; let e = d
d["k"]!.append(2); d["n"] = [3]
print(d["k"]!, d["n"]!, e)
var s = "ab"; let t = s; s += "c"; print(s + t)
print([1, 2, 3].reduce(into: 0) { $0 += $1 }, [1, 2, 3].reduce(into: [Int]()) { $0.append($1 * 2) }, ["a", "b", "a"].reduce(into: [:]) { $0[$1, default: 0] += 1 }.sorted { $0.key < $1.key })
var state = [1]; let reducer: (inout [Int], Int) -> Void = { s, action in s.append(action) }; reducer(&state, 5)
let bump: (inout Int) -> Void = { $0 += 1 }; var n = 1; bump(&n); bump(&n); print(state, n)
var grid = [Int](repeating: 0, count: 3); grid[1] = 7; print(grid, Array(repeating: "x", count: 2))
