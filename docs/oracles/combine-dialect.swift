// What Combine does at the points where the `import Combine` dialect
// differs from flow's own choices, run against OpenCombine 0.14 (Combine's
// open-source implementation) as a plain Swift program. It is not part of
// flow's build: to run it, make an executable package that depends on
// https://github.com/OpenCombine/OpenCombine 0.14.0 (products OpenCombine
// and OpenCombineDispatch) with this file as its main.swift.
//
// What it printed, on 2026-11-26:
//
//   first empty: finished
//   last empty: finished
//   output at 1 of [1]: finished
//   fail completion: failure(oracle.E.boom)
//   share first v 1
//   share first v 2
//   share first: finished
//   share late: finished
//   share subscriptions: 1
//   retry(2): failure(oracle.E.boom) attempts 3
//   debounce: finished
//   timeout: finished
//
// Tests/FlowLanguageTests/Dialects/combine.flow checks flow's Combine
// dialect against each line; docs/semantics.md's table cites it.

import Dispatch
import Foundation
import OpenCombine
import OpenCombineDispatch

enum E: Error { case boom }

func endings() {
    var bag = Set<AnyCancellable>()
    Empty<Int, Never>().first().sink(receiveCompletion: { print("first empty:", $0) }, receiveValue: { print("first v", $0) }).store(in: &bag)
    Empty<Int, Never>().last().sink(receiveCompletion: { print("last empty:", $0) }, receiveValue: { print("last v", $0) }).store(in: &bag)
    [1].publisher.output(at: 1).sink(receiveCompletion: { print("output at 1 of [1]:", $0) }, receiveValue: { print("output v", $0) }).store(in: &bag)
    Fail<Int, E>(error: .boom).sink(receiveCompletion: { print("fail completion:", $0) }, receiveValue: { print("v", $0) }).store(in: &bag)
}

func shareAfterCompletion() {
    var bag = Set<AnyCancellable>()
    var subscriptions = 0
    let shared = Deferred { () -> Publishers.Sequence<[Int], Never> in subscriptions += 1; return [1, 2].publisher }.share()
    shared.sink(receiveCompletion: { print("share first:", $0) }, receiveValue: { print("share first v", $0) }).store(in: &bag)
    shared.sink(receiveCompletion: { print("share late:", $0) }, receiveValue: { print("share late v", $0) }).store(in: &bag)
    print("share subscriptions:", subscriptions)
}

func retries() {
    var bag = Set<AnyCancellable>()
    var attempts = 0
    Deferred { () -> Fail<Int, E> in attempts += 1; return Fail(error: .boom) }.retry(2)
        .sink(receiveCompletion: { print("retry(2):", $0, "attempts", attempts) }, receiveValue: { _ in }).store(in: &bag)
}

func timed() {
    let queue = DispatchQueue(label: "oracle")
    let scheduler = queue.ocombine
    var bag = Set<AnyCancellable>()
    let typed = PassthroughSubject<Int, Never>()
    typed.debounce(for: .milliseconds(100), scheduler: scheduler)
        .sink(receiveCompletion: { print("debounce:", $0) }, receiveValue: { print("debounce v", $0) }).store(in: &bag)
    let silent = PassthroughSubject<Int, Never>()
    silent.timeout(.milliseconds(50), scheduler: scheduler)
        .sink(receiveCompletion: { print("timeout:", $0) }, receiveValue: { print("timeout v", $0) }).store(in: &bag)
    queue.sync {
        typed.send(1)
        typed.send(completion: .finished)
    }
    Thread.sleep(forTimeInterval: 0.5)
    _ = bag
}

endings()
shareAfterCompletion()
retries()
timed()
