// Just<Double>(5): an integer literal for a Double output.
import Combine
let c1 = Just<Double>(5).sink { print($0) }
let c2 = Just<Double>(5).map { $0 / 2 }.sink { print($0) }
let c3 = Just(5).map { $0 / 2 }.sink { print($0) }
