// `(animals[0] as? Dog)?.name ?? "not a dog"`.
class Animal {}
final class Dog: Animal { let name: String; init(name: String) { self.name = name } }
final class Cat: Animal {}
let animals: [Animal] = [Dog(name: "Rex"), Cat()]
print((animals[0] as? Dog)?.name ?? "not a dog")
print((animals[1] as? Dog)?.name ?? "not a dog")
let dogs = animals.compactMap { $0 as? Dog }
print(dogs.count)
print(animals[1] is Cat)
