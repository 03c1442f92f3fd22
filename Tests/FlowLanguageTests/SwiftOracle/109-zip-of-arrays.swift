// Swift's zip of arrays is a sequence of pairs: its map is the array's.
let quantities = [1, 2, 3]
let prices = [0.5, 1.5, 2.0]
let totals = zip(quantities, prices).map { Double($0) * $1 }
print(totals, totals.reduce(0, +))
let labelled = zip(["a", "b"], [1, 2]).map { "\($0)=\($1)" }
print(labelled)
