// Future with a Result, and `try?` inside map giving an Optional.
import Combine
enum E: Error { case odd }
func half(_ x: Int) throws -> Int { if x % 2 == 1 { throw E.odd }; return x / 2 }
let f = Future<Int, Never> { promise in promise(.success(4)) }
let c1 = f.map { try? half($0) }.sink { print($0 as Any) }
let c2 = [1, 2, 3].publisher.map { try? half($0) }.sink { print($0 as Any) }
