// A dictionary's `default:` is of its value type, read and changed in place.
var ratios: [String: Double] = [:]
ratios["x", default: 0] += 1
print(ratios, ratios["x"]! / 2)
var counts: [String: Int] = [:]
for word in ["a", "b", "a"] { counts[word, default: 0] += 1 }
print(counts.sorted { $0.key < $1.key })
let weights: [String: Double] = ["y": 2]
let w: Double = weights["z", default: 1]
print(w, weights["q", default: 3])
print(weights["q", default: 3] / 2)
