// Tuple assignment `(a, b) = (b, a)`.
var a = 1
var b = 2
(a, b) = (b, a)
print(a, b)
var (lo, hi) = (0, 10)
(lo, hi) = (hi / 2, lo)
print(lo, hi)
var fib = (0, 1)
for _ in 0..<5 { fib = (fib.1, fib.0 + fib.1) }
print(fib)
