import Events
import Ledger
import SyncWire

extension Route {
    /// `POST /v1/learners/{user}/events`: the body's JSON lines appended to
    /// the learner's log, all or nothing, idempotent by id (the writer's rules).
    ///
    /// `200 {"events": [{"id", "seq", "appended"}], "head": "SEQ:SHA256"}` (``PushAnswer``);
    /// `400 invalid_data` (or the line's kind) naming each invalid line and member;
    /// `403 forbidden` for an event of another learner; `409
    /// conflicting_duplicate` naming the id and its seq. Nothing is written on
    /// a refusal. A learner past `--max-push-rate` is refused `429` before the
    /// body is read (``RequestIntake``); the events are counted here.
    static let pushEvents = Route(method: "POST", path: .learnerEvents, access: .learner, takesBody: true,
                                  pushRated: true) { request, context throws(HTTPError) in
        let lines = AppendInput.lines(request.body)
        guard !lines.isEmpty else { throw .badRequest("the body holds no event (JSON lines, one event a line)") }
        if let limit = context.pushRate, let seconds = limit.take(user: request.learner, events: lines.count) {
            throw .rateLimited(user: request.learner, rate: limit.eventsPerSecond, seconds: seconds)
        }
        let events: [NewEvent]
        switch AppendInput.decode(lines.map(\.bytes)) {
        case .events(let decoded): events = decoded
        case .invalid(let invalid): throw HTTPError(invalid: invalid.map { (lines[$0.index].number, $0.problems) })
        }
        let user = request.learner
        if let k = events.firstIndex(where: { !CodePoint.equal($0.user, user) }) {
            throw .forbidden("line \(lines[k].number): the event's user \"\(events[k].user)\" is not the learner of this URL, \"\(user)\"; nothing was written")
        }
        let (results, head, durable) = try context.store.push(user: user, events: events, lines: lines)
        context.metrics.pushed(results, fsync: durable)
        return .json(PushAnswer(results, head: head).encoded)
    }
}

extension HTTPError {
    /// `400` for invalid lines of a push: the first problem's kind, every
    /// problem as `line K: member: rule`, and `problems` listing them.
    init(invalid: [(line: Int, problems: [EventError])]) {
        let all = invalid.flatMap { line in line.problems.map { (line.line, $0) } }
        let first = all.first?.1.kind.rawValue ?? "invalid_data"
        let text = all.map { "line \($0.0): \(AppendInput.describe($0.1))" }.joined(separator: "; ")
        self.init(400, first, "\(invalid.count) invalid event\(invalid.count == 1 ? "" : "s"), nothing was written: \(text)")
        members = [JSONMember("problems", .array(all.map { line, problem in
            var members = [JSONMember("line", .number(String(line))), JSONMember("kind", .string(problem.kind.rawValue))]
            if let member = problem.member { members.append(JSONMember("member", .string(member))) }
            members.append(JSONMember("rule", .string(problem.rule)))
            return .object(members)
        }))]
    }

    /// The answer to an append the writer refused: `400` for an event that
    /// breaks a rule only the whole batch shows (its line named), `409` for
    /// `conflicting_duplicate` (its line, id and seq named), `500` otherwise.
    init(append error: LedgerError, lines: [AppendInput.Line], directory: LedgerDirectory?) {
        let line = AppendInput.refused(error, count: lines.count).map { lines[$0.index].number }
        let place = line.map { "line \($0): " } ?? ""
        switch error.code {
        case .invalidEvent:
            self.init(400, error.kind, place + error.detail)
        case .conflictingDuplicate:
            self.init(409, "conflicting_duplicate", place + error.detail)
        default:
            self.init(server: error, directory: directory)
        }
    }
}
