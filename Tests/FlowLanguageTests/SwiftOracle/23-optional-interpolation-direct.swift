// "\(optional)" in a string (Swift warns but prints Optional(...)).
let score: Int? = 10
let missing: String? = nil
let line = "score: \(score), missing: \(missing)"
print(line)
let d = ["k": 2.5]
print("k -> \(d["k"])")
