// A Void function returns (), not its last expression's value.
var counter = 0
func bump() {
    counter += 1
}
let r: () = bump()
print(r)
print(counter)
func log(_ s: String) -> Void { print(s) }
let v: Void = log("hello")
print(v)
