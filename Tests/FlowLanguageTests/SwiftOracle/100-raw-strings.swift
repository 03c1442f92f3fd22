// Raw strings: #"..."#, with a backslash as text unless followed by the #s, and their multi-line form.
let json = #"{"name": "Ada", "path": "C:\temp"}"#
print(json)
let name = "Ada"
print(#"Hello, \#(name)! \(not interpolated)"#)
print(##"a "# inside"##)
print(#"tab:\#tend"#)
let block = #"""
    {"id": 1,
     "note": "a \"quoted\" \n word"}
    """#
print(block)
print(#""#.isEmpty, #"\"#.count)
