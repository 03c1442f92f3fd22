// NotificationCenter: observe with a closure, post synchronously.
import Foundation
let center = NotificationCenter()
let name = Notification.Name("didLogin")
var seen: [String] = []
let token = center.addObserver(forName: name, object: nil, queue: nil) { note in
    seen.append(note.userInfo?["user"] as? String ?? "?")
}
center.post(name: name, object: nil, userInfo: ["user": "ann"])
center.post(name: name, object: nil, userInfo: ["user": "bob"])
center.removeObserver(token)
center.post(name: name, object: nil, userInfo: ["user": "eve"])
print(seen)
