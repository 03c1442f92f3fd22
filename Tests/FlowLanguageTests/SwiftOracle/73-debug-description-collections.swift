// Strings and Characters inside collections print quoted; top-level strings do not.
let names = ["ann", "bob"]
print(names)
print(names[0])
print(["k": "v"])
print(("a", 1))
let c: Character = "x"
print([c])
print(["line\nbreak"])
print([1.5, 2])
