// NotificationCenter.default: observers in the order added, a nil name observes every name,
// a token removed stops its observer, userInfo read with optional chaining.
import Foundation
let saved = Notification.Name("saved")
let deleted = Notification.Name("deleted")
var log: [String] = []
let first = NotificationCenter.default.addObserver(forName: saved, object: nil, queue: nil) { note in
    log.append("first \(note.name.rawValue) \(note.userInfo?["id"] as? Int ?? -1)")
}
let all = NotificationCenter.default.addObserver(forName: nil, object: nil, queue: nil) { note in
    if note.name == saved || note.name == deleted { log.append("any \(note.name.rawValue)") }
}
NotificationCenter.default.post(name: saved, object: nil, userInfo: ["id": 7])
NotificationCenter.default.post(name: deleted, object: nil)
NotificationCenter.default.removeObserver(first)
NotificationCenter.default.post(name: saved, object: nil, userInfo: ["id": 8])
NotificationCenter.default.removeObserver(all)
print(log)
