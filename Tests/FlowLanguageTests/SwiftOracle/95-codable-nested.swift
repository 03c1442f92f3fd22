// Codable as the networking chapters write it: CodingKeys, nested structs,
// arrays of structs, raw-value enums, a missing key caught, and encoding back.
import Foundation
enum Status: String, Codable { case open, shipped }
struct Line: Codable {
    let sku: String
    let quantity: Int
    let unitPrice: Double
    enum CodingKeys: String, CodingKey {
        case sku
        case quantity = "qty"
        case unitPrice = "unit_price"
    }
}
struct Order: Codable {
    let id: Int
    let status: Status
    let lines: [Line]
    let note: String?
}
let text = """
{"id": 7, "status": "shipped", "lines": [{"sku": "tea", "qty": 2, "unit_price": 4}, {"sku": "cup", "qty": 1, "unit_price": 2.5}], "note": null}
"""
let order = try! JSONDecoder().decode(Order.self, from: text.data(using: .utf8)!)
print(order.id, order.status, order.lines.count)
let total = order.lines.map { Double($0.quantity) * $0.unitPrice }.reduce(0, +)
print(total)
print(order.lines[0].unitPrice, order.note as Any)
do {
    _ = try JSONDecoder().decode(Line.self, from: Data("{\"sku\": \"x\"}".utf8))
    print("decoded")
} catch {
    print("missing quantity")
}
let wrong = try? JSONDecoder().decode([Int].self, from: Data("[1, \"two\"]".utf8))
print(wrong as Any)
let numbers = try! JSONDecoder().decode([Int].self, from: Data("[1, 2, 3]".utf8))
print(numbers)
struct Point: Codable { let x: Int }
let data = try! JSONEncoder().encode(Point(x: 3))
print(data, String(data: data, encoding: .utf8)!)
