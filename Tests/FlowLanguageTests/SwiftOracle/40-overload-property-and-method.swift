// A property and a method with one base name.
final class Screen {
    var tableView = "the table"
    func tableView(_ table: String, rows section: Int) -> Int {
        return section * 10
    }
}
let s = Screen()
print(s.tableView)
print(s.tableView("t", rows: 3))
s.tableView = "another"
print(s.tableView)
