// A literal returned from a function declared `-> Double` is a Double.
func zero() -> Double { 0 }
func ten() -> Double {
    return 10
}
print(zero())
print(ten())
print(ten() / 4)
let r = ten()
print(r / 3 > 3)
