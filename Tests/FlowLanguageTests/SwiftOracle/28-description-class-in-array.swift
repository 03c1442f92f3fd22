// A class's description inside an array and in a tuple.
final class Node: CustomStringConvertible {
    let id: Int
    init(id: Int) { self.id = id }
    var description: String { "Node#\(id)" }
}
let nodes = [Node(id: 1), Node(id: 2)]
print(nodes)
print((nodes[0], 5))
let byName = ["first": nodes[0]]
print(byName)
