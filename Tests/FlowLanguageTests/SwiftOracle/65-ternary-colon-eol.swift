// A ternary laid out over lines, with `?` and `:` ending lines.
let score = 72
let grade = score >= 90 ? "A" :
    score >= 70 ? "B" :
    "C"
print(grade)
let isAdmin = false
let label = isAdmin ?
    "admin" :
    "user"
print(label)
let n = score > 50
    ? "high"
    : "low"
print(n)
