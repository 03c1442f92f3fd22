// JSONDecoder().decode(T.self, from:) into a script's Codable struct; Double fields.
import Foundation
struct Product: Codable {
    let name: String
    let price: Double
    let tags: [String]?
}
let json = "{\"name\": \"tea\", \"price\": 3, \"tags\": null}"
let product = try! JSONDecoder().decode(Product.self, from: Data(json.utf8))
print(product.name)
print(product.price)
print(product.price / 2)
print(product.tags as Any)
