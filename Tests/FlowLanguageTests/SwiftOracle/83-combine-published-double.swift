// @Published Double in a class; $price.sink sees the initial and new values.
import Combine
final class Basket {
    @Published var price: Double = 10
}
let basket = Basket()
let c = basket.$price.sink { print("price \($0)") }
basket.price = 3
basket.price /= 2
print(basket.price)
