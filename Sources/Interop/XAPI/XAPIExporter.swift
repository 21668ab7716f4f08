import Events
import Projections

/// Turns a log's events into xAPI 1.0.3 statements (docs/xapi.md): at most one
/// statement per event, one JSON object per line.
///
/// Fold the records in log order with ``statement(for:)``. Which attempt a quiz
/// event belongs to, and whether it is an anomaly that maps to nothing, is
/// decided per user by the attempt book `state` uses (``AttemptsBook``, the one
/// ``AttemptLifecycle``), never here. The output is a pure function of the
/// records and the options.
package struct XAPIExporter: Sendable {
    /// The IRIs the statements use.
    package let options: XAPIOptions
    /// Each user's attempts, as `state` folds them.
    private var books: [ExactString: AttemptsBook] = [:]
    private var writer = JSONWriter(capacity: 1024)

    /// Makes an exporter with these options.
    package init(options: XAPIOptions) { self.options = options }

    /// The statement of one record, as UTF-8 bytes ended by LF, or nil when
    /// the record maps to nothing (a grant of hints or streak freezes, a reset,
    /// a streak pause, an anomaly, a newer line).
    package mutating func statement(for record: Record) -> [UInt8]? {
        guard case .event(let envelope) = record else { return nil }
        let step = books[ExactString(envelope.user), default: AttemptsBook()].apply(envelope)
        guard let statement = map(step) else { return nil }
        writer = JSONWriter(capacity: 1024)
        statement.write(id: NameUUID.of("statement", envelope.user, envelope.id), user: envelope.user,
                        timestamp: envelope.at.text, options: options, to: &writer)
        writer.byte(UInt8(ascii: "\n"))
        return writer.bytes
    }

    /// The statement one step maps to (docs/xapi.md, "The mapping"), without its envelope members.
    private func map(_ step: Step) -> XAPIStatement? {
        let e = step.envelope
        let base = options.activityBase
        var extensions: [(name: String, value: XAPIStatement.Value)] = [("event", .string(e.id))]
        func quizIRI(_ a: Attempt) -> String { base + "quizzes/" + XAPIStatement.segment(a.quiz) }
        func questionIRI(_ a: Attempt, _ q: String) -> String { quizIRI(a) + "/questions/" + XAPIStatement.segment(q) }
        func registration(_ a: Attempt) -> String { NameUUID.of("registration", e.user, a.id) }
        switch step.effect {
        case .started(let a):
            if let category = a.start.category { extensions.append(("category", .string(category))) }
            var s = XAPIStatement(verb: .adl("initialized"), object: quizIRI(a), objectType: XAPIStatement.assessment)
            s.registration = registration(a)
            s.extensions = extensions
            return s
        case .answered(let a, let answer):
            guard case .answerSelected(let selected) = e.event else { return nil }
            var s = XAPIStatement(verb: .adl("answered"), object: questionIRI(a, answer.question),
                                  objectType: XAPIStatement.question)
            s.success = answer.correct
            s.response = String(selected.choice)
            if let ms = selected.ms { s.duration = ExactSeconds(Int64(ms), scale: 1_000_000) }
            s.registration = registration(a)
            s.parent = quizIRI(a)
            if let skill = selected.skill { extensions.append(("skill", .string(skill))) }
            if let item = selected.item { extensions.append(("item", .string(item))) }
            s.extensions = extensions
            return s
        case .hinted(let hint, let attempt):
            // An unknown attempt, or one already over, maps to nothing; the
            // hint limit does not (the learner did use the hint).
            guard let a = attempt, !step.anomalies.contains(where: { $0.kind == .afterEnd }) else { return nil }
            var s = XAPIStatement(verb: .init(id: base + "verbs/used-hint", display: "used hint"),
                                  object: questionIRI(a, hint.question), objectType: XAPIStatement.question)
            s.registration = registration(a)
            s.parent = quizIRI(a)
            extensions.append(("hint", .string(hint.hint.rawValue)))
            s.extensions = extensions
            return s
        case .finished(let a), .abandoned(let a):
            let finished = a.isFinished
            var s = XAPIStatement(verb: .adl(finished ? "completed" : "terminated"), object: quizIRI(a),
                                  objectType: XAPIStatement.assessment)
            s.score = .init(raw: a.score, max: a.questions)
            s.completion = finished
            let duration = a.startedAt.instant.duration(to: e.at.instant)
            if duration.nanoseconds >= 0 { s.duration = duration }
            s.registration = registration(a)
            s.extensions = extensions
            return s
        case .puzzle(let p, let completed):
            var s = XAPIStatement(verb: .adl(completed ? "passed" : "failed"),
                                  object: base + "puzzles/" + XAPIStatement.segment(p.puzzle) + "/" + XAPIStatement.segment(p.encoding),
                                  objectType: XAPIStatement.game)
            s.success = completed
            s.completion = completed
            s.duration = p.seconds.map(XAPIStatement.exact)
            s.extensions = extensions
            return s
        case .submitted(let m):
            let lesson = m.kind == .lesson
            var s = XAPIStatement(verb: .adl("completed"),
                                  object: base + (lesson ? "lessons/" : "passages/") + XAPIStatement.segment(m.content),
                                  objectType: lesson ? XAPIStatement.lesson : XAPIStatement.assessment)
            if !m.answers.isEmpty { s.score = .init(raw: m.correctCount, max: m.answers.count) }
            s.completion = true
            s.duration = m.seconds.map { ExactSeconds(Int64($0), scale: 1_000_000_000) }
            extensions.append(("category", .string(m.category)))
            if m.isDiagnostic { extensions.append(("diagnostic", .bool(true))) }
            s.extensions = extensions
            return s
        case .granted, .reset, .freezeGranted, .paused, .ignored:
            // Acts of a server or store, a plan, or an anomaly: not a learning experience (docs/xapi.md).
            return nil
        }
    }
}
