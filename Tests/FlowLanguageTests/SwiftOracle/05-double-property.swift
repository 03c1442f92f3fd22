// A stored property declared Double, in a struct and a class.
struct Account {
    var balance: Double = 0
}
final class Wallet {
    var cash: Double
    init() { cash = 9 }
}
var a = Account()
a.balance = 5
print(a.balance / 2)
let w = Wallet()
print(w.cash)
print(w.cash / 2)
