import FlowLanguage
import FlowMarbles
import Foundation
import Hummingbird
import NIOCore

/// `flow serve --exercise`'s API, for a class whose every student has an
/// identity (a token: a personal link from the roster, or a name claimed
/// once and kept as a cookie). The server, not the page, decides what is
/// shown: a right lane only after a give-up the server recorded for that
/// student and question, `reveal: true` lanes included (a check never
/// shows one: what a student saw is what they chose to see); each check,
/// give-up and reveal is written into the student's answer file, for
/// `flow grade --after-reveal`.
/// The teacher's token opens `/teacher`, the class as it answers.
struct ExerciseServer: Sendable {
    let exercise: ExerciseFile
    let register: ClassRegister
    let playground: Playground

    typealias Context = PlaygroundServer.Context

    struct Me: Codable {
        var exercise: String
        var rostered: Bool
        var student: String?
        var file: String?
        var answers: [String: ExerciseSheet.Answer]?
    }
    struct Claim: Codable { var name: String? }
    struct GiveUp: Codable { var question: String? }

    func routes(on router: Router<Context>, guardian: RequestGuard, page: Page) {
        router.get("/api/files") { _, _ in
            PlaygroundServer.json(PlaygroundServer.FileList(scripts: [], single: nil, exercise: exercise.name))
        }
        router.get("/api/me") { request, _ in
            let student = register.student(presenting: guardian.presentedToken(request))
            return PlaygroundServer.json(Me(exercise: exercise.name, rostered: register.roster != nil, student: student?.name, file: student?.file,
                                            answers: student?.answers))
        }
        router.post("/api/identity") { request, _ in
            if let student = register.student(presenting: guardian.presentedToken(request)) {
                return PlaygroundServer.problem(.conflict, "this browser already answers as \(student.name)")
            }
            guard let claim: Claim = await PlaygroundServer.decode(request), let name = claim.name else {
                return PlaygroundServer.problem(.badRequest, "send {\"name\": \"your name\"}")
            }
            do {
                let student = try register.claim(name)
                var response = PlaygroundServer.json(Me(exercise: exercise.name, rostered: false, student: student.name, file: student.file,
                                                        answers: [:]))
                response.headers[.setCookie] = "\(RequestGuard.cookieName)=\(student.token); Path=/; HttpOnly; SameSite=Strict"
                return response
            } catch let refused as ClassRegister.Refused {
                return PlaygroundServer.problem(HTTPResponse.Status(code: refused.status), refused.description)
            } catch {
                return PlaygroundServer.problem(.internalServerError, "\(error)")
            }
        }
        router.post("/api/exercise") { request, _ in
            guard let student = register.student(presenting: guardian.presentedToken(request)) else { return notIdentified }
            guard let input: PlaygroundServer.ExerciseRequest = await PlaygroundServer.decode(request) else {
                return PlaygroundServer.problem(.badRequest, "send {\"answers\": {...}, \"check\": true}")
            }
            return await sheet(for: student, answers: input.answers, check: input.check ?? false, only: input.question)
        }
        router.post("/api/give-up") { request, _ in
            guard let student = register.student(presenting: guardian.presentedToken(request)) else { return notIdentified }
            guard let input: GiveUp = await PlaygroundServer.decode(request), let question = input.question else {
                return PlaygroundServer.problem(.badRequest, "send {\"question\": \"test name#1\"}")
            }
            return await giveUp(question, student: student)
        }
        router.post("/api/answers") { request, _ in
            guard let student = register.student(presenting: guardian.presentedToken(request)) else { return notIdentified }
            let input: PlaygroundServer.ExerciseRequest? = await PlaygroundServer.decode(request)
            do {
                let saved = try register.update(student.token, lasting: true) { if let answers = input?.answers { $0.answers = answers } } ?? student
                return PlaygroundServer.json(PlaygroundServer.SavedAnswers(saved: try await write(saved, strictly: true)))
            } catch {
                return PlaygroundServer.problem(.unprocessableContent, "\(error)")
            }
        }
        router.get("/teacher") { request, _ in
            guard register.isTeacher(guardian.presentedToken(request)) else { return teachersOnly }
            return page.response("teacher.html")
        }
        router.get("/teacher.js") { request, _ in
            guard register.isTeacher(guardian.presentedToken(request)) else { return teachersOnly }
            return page.response("teacher.js")
        }
        router.get("/api/class") { request, _ in
            guard register.isTeacher(guardian.presentedToken(request)) else { return teachersOnly }
            return PlaygroundServer.json(await classView())
        }
        router.get("/api/class.csv") { request, _ in
            guard register.isTeacher(guardian.presentedToken(request)) else { return teachersOnly }
            let name = (exercise.name as NSString).deletingPathExtension.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
                                                   .contentDisposition: "attachment; filename=\"\(name.isEmpty ? "class" : name)-class.csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: await classView().csv)))
        }
    }

    var notIdentified: Response {
        PlaygroundServer.problem(.unauthorized, register.roster != nil
            ? "open the personal link your teacher gave you: this class answers by name"
            : "tell your name first: send {\"name\": ...} to /api/identity")
    }

    var teachersOnly: Response {
        PlaygroundServer.problem(.forbidden, "the class's view is the teacher's: open the teacher's link flow serve printed")
    }

    /// The sheet as `student` sees it: the lanes they gave up on shown, the
    /// rest checked without the right lane; a check is recorded (each
    /// answered lane checked, right or wrong).
    func sheet(for student: ClassRegister.Student, answers given: [String: ExerciseSheet.Answer]?, check: Bool, only: String?) async -> Response {
        let answers = given ?? student.answers
        if check && student.record.entries.count >= ExerciseRecord.mostEntries {
            return PlaygroundServer.problem(.tooManyRequests, "\(ExerciseRecord.mostEntries) checks and give-ups are recorded for you already: ask your teacher")
        }
        let shown = Set(student.record.entries.filter { $0.kind == .reveal }.map(\.question))
        let text: String
        do { text = try exercise.text() } catch { return PlaygroundServer.problem(.internalServerError, "\(error)") }
        let sheet = await playground.exercises(text, name: exercise.name, dialect: nil, answers: answers, check: check, gaveUp: shown, checksReveal: false, only: only)
        let now = ClassRegister.now()
        var entries: [ExerciseRecord.Entry] = []
        if check {
            for question in sheet.questions where only == nil || question.id == only {
                guard let result = question.check, Self.hasAnswer(answers[question.id]) else { continue }
                entries.append(.init(time: now, kind: .check, question: question.id, right: result.passed))
            }
        }
        do {
            // Kept on disk at once: a server started again has every answer.
            let updated = try register.update(student.token, lasting: true) {
                $0.answers = answers
                $0.record.entries += entries
            }
            if let updated, !entries.isEmpty { _ = try? await write(updated, strictly: false) }
        } catch {
            return PlaygroundServer.problem(.internalServerError, "\(error)")
        }
        return PlaygroundServer.json(sheet)
    }

    func giveUp(_ question: String, student: ClassRegister.Student) async -> Response {
        let text: String
        do { text = try exercise.text() } catch { return PlaygroundServer.problem(.internalServerError, "\(error)") }
        let plain = await playground.exercises(text, name: exercise.name, dialect: nil, answers: [:], check: false, gaveUp: [], checksReveal: false)
        guard plain.questions.contains(where: { $0.id == question }) else {
            return PlaygroundServer.problem(.notFound, "no question \(question.debugDescription) in \(exercise.name)")
        }
        if !student.record.gaveUp(question) {
            let now = ClassRegister.now()
            do {
                let updated = try register.update(student.token, lasting: true) {
                    $0.record.entries.append(.init(time: now, kind: .giveUp, question: question))
                    if !$0.record.wasRevealed(question) { $0.record.entries.append(.init(time: now, kind: .reveal, question: question)) }
                }
                if let updated { _ = try? await write(updated, strictly: false) }
            } catch {
                return PlaygroundServer.problem(.internalServerError, "\(error)")
            }
        }
        let now = register.student(presenting: student.token) ?? student
        return await sheet(for: now, answers: nil, check: false, only: nil)
    }

    static func hasAnswer(_ answer: ExerciseSheet.Answer?) -> Bool {
        guard let answer else { return false }
        return !(answer.events ?? []).isEmpty || !(answer.marble ?? "").trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// Writes the student's answer file: who, the record, and the exercise
    /// with each answered lane written in. At a check, an answer that does
    /// not read is left `???` (`strictly`: it is refused, with why).
    @discardableResult
    func write(_ student: ClassRegister.Student, strictly: Bool) async throws -> String {
        var answers = student.answers
        if !strictly { answers = answers.filter { (try? ExerciseSheet.events(of: $0.value)) != nil } }
        let text = try await playground.answered(try exercise.text(), name: exercise.name, dialect: nil, answers: answers)
        let who = student.name.filter(AnswerFolder.isShownInALine).prefix(AnswerFolder.longestName)
        let header = ExerciseRecord.firstLine(exercise: exercise.name, student: String(who)) + student.record.lines
        return try register.answers.save(header + text, file: student.file)
    }
}
