// An array read by a range of positions gives those elements.
let xs = [10, 20, 30, 40]
print(xs[1..<3], xs[1...2], xs[0..<0])
let lo = 2
print(Array(xs[lo..<xs.count]), xs[0..<lo].reduce(0, +))
