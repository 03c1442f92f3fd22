/// Names of Apple's frameworks that book code uses and flow does not run,
/// each with what to write instead, so a pasted snippet fails with one
/// error that says so rather than "unknown name" (or a wrong "did you
/// mean"). A name the script declares itself is never looked up here.
enum UnsupportedAPIs {
    struct Entry {
        let framework: String
        let instead: String
    }

    static func named(_ name: String) -> Entry? {
        if let entry = table[name] { return entry }
        // UIKit's and AppKit's classes share their prefixes.
        if name.count > 2, name.hasPrefix("UI") || name.hasPrefix("NS"), name.dropFirst(2).first?.isUppercase == true {
            return Entry(framework: name.hasPrefix("UI") ? "UIKit" : "AppKit",
                         instead: views)
        }
        return nil
    }

    private static let views = "flow has no views: keep the streams and print or draw them (marbles(...)); a subject stands for a control's events"

    private static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        for name in ["View", "Text", "Button", "VStack", "HStack", "ZStack", "List", "ForEach", "NavigationView", "NavigationStack",
                     "State", "Binding", "ObservedObject", "StateObject", "EnvironmentObject", "Environment", "Image", "Color"] {
            table[name] = Entry(framework: "SwiftUI", instead: views)
        }
        for name in ["XCTestCase", "XCTAssertEqual", "XCTAssertTrue", "XCTAssertFalse", "XCTAssertNil", "XCTAssertNotNil", "XCTFail",
                     "XCTestExpectation"] {
            table[name] = Entry(framework: "XCTest", instead: "write a test block with marbles: test \"name\" { expect(stream).toBe(\"-a-|\") }")
        }
        table["TestScheduler"] = Entry(framework: "RxTest", instead: "flow's marble tests run in virtual time already: test \"name\" { expect(stream).toBe(\"-a-|\") }")
        // `URLSession.shared`'s publishers are flow's (URLSessionCalls.swift); the rest of it is not.
        table["URLSession"] = Entry(framework: "Foundation", instead: "request with URLSession.shared.dataTaskPublisher(for:) (Combine), URLSession.shared.rx.data(request:) (RxSwift) or http.get(url), which are streams")
        table["UserDefaults"] = Entry(framework: "Foundation", instead: "keep settings in a file: file.read(\"settings.json\") and json.parse, or env[\"NAME\"]")
        table["FileManager"] = Entry(framework: "Foundation", instead: "read and write files with file.read, file.lines, file.write and file.append")
        table["Bundle"] = Entry(framework: "Foundation", instead: "read the file by its path with file.read(\"name.json\")")
        table["Timer"] = Entry(framework: "Foundation", instead: "a timer is a stream: interval(1s) ticks every second (Combine's Timer.publish(every: 1, ...) is read so), timer(2s) fires once")
        table["ProcessInfo"] = Entry(framework: "Foundation", instead: "read the environment with env[\"NAME\"] (under --allow-env) and the words after the script's name with args")
        table["DispatchGroup"] = Entry(framework: "Dispatch", instead: "wait for several streams with zip(a, b) or combineLatest, or merge(...).toArray()")
        table["DispatchSemaphore"] = Entry(framework: "Dispatch", instead: "limit concurrency with flatMap(maxConcurrent: n) or concatMap")
        table["OperationQueue"] = Entry(framework: "Foundation", instead: "run work as streams: concatMap runs one at a time, flatMap(maxConcurrent: n) n at a time")
        table["Thread"] = Entry(framework: "Foundation", instead: "flow runs every event on one loop: schedule work with delay(1s), observe(on:) or DispatchQueue.main.async")
        table["NSLock"] = Entry(framework: "Foundation", instead: "flow delivers every event on one loop, so state needs no lock")
        table["CLLocationManager"] = Entry(framework: "CoreLocation", instead: "stand a subject in for the locations, or replay them from a file with file.lines")
        table["NSManagedObjectContext"] = Entry(framework: "Core Data", instead: "keep records in PostgreSQL with pg.query and pg.insert, or in a file")
        return table
    }()
}
