// A conditional expression with an optional chain and `??` in both arms.
struct User { let nickname: String?; let name: String }
let users = [User(nickname: nil, name: "Ann"), User(nickname: "bo", name: "Bob")]
for u in users {
    let shown = u.nickname != nil ? u.nickname! : u.name
    print(shown)
    print(u.nickname.map { "@" + $0 } ?? u.name)
}
let maybeUser: User? = users.first
print(maybeUser?.nickname ?? "no nickname")
