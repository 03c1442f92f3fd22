// Combine's decode(type:decoder:) and encode(encoder:) operators read into the script's types.
import Combine
import Foundation
struct Post: Codable { let id: Int; let title: String; let score: Double; let tags: [String]? }
let good = #"[{"id": 1, "title": "hello", "score": 3}, {"id": 2, "title": "again", "score": 4.5, "tags": ["a"]}]"#
let c1 = Just(Data(good.utf8))
    .decode(type: [Post].self, decoder: JSONDecoder())
    .sink(receiveCompletion: { print("done:", $0) }, receiveValue: { posts in
        print(posts.map(\.title), posts.map(\.score).reduce(0, +), posts[1].tags ?? [])
    })
let missing = #"{"id": 3, "score": 1}"#
let c2 = Just(Data(missing.utf8))
    .decode(type: Post.self, decoder: JSONDecoder())
    .map(\.title)
    .catch { _ in Just("no title") }
    .sink { print($0) }
let c3 = [Post(id: 4, title: "out", score: 2, tags: nil)].publisher
    .encode(encoder: JSONEncoder())
    .decode(type: Post.self, decoder: JSONDecoder())
    .sink(receiveCompletion: { print("round trip:", $0) }, receiveValue: { print($0.id, $0.title, $0.score) })
