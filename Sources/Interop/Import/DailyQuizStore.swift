import Events
import Projections

/// `--from daily-quiz`: the first seed's UserDefaults as JSON, `quizHistory`
/// ([QuizHistoryEntry]) and `quizProgress.YYYYMMDD` (QuizProgress), as daily
/// quiz attempts (docs/import.md).
enum DailyQuizStore {
    /// One attempt to append: its events and its place in the order.
    private struct Planned {
        let start: Instant
        let rank: Int       // history entries before progress keys on a tie
        let key: String     // entry id (uppercase) or progress key
        let events: [NewEvent]
    }

    /// A checked history entry.
    private struct Entry {
        let id: String, title: String, score: Int, total: Int
        let date: Timestamp, completedAt: Timestamp
    }

    /// A row's fault: member and message.
    private struct Bad: Error { let member: String?; let message: String }

    static func map(files: [(path: String, bytes: [UInt8])], rules: ImportRules) -> Result<ImportBatch, ImportProblems> {
        var values: [(key: String, value: JSONValue, file: String)] = []
        var origin: [ExactString: String] = [:]
        var problems: [ImportProblem] = []
        for (path, bytes) in files {
            guard let root = try? JSONDocument.parse(bytes) else { problems.append(ImportProblem(file: path, "not JSON")); continue }
            guard case .object(let members) = root else {
                problems.append(ImportProblem(file: path, "not a JSON object of UserDefaults keys")); continue
            }
            for m in members where m.name == "quizHistory" || m.name.hasPrefix("quizProgress.") {
                if let other = origin[ExactString(m.name)] {
                    problems.append(ImportProblem(file: path, row: m.name, "also in \(other)")); continue
                }
                origin[ExactString(m.name)] = path
                values.append((m.name, m.value, path))
            }
        }
        guard problems.isEmpty else { return .failure(ImportProblems(problems: problems)) }

        var planned: [Planned] = []
        var entries: [Entry] = []
        var instants = 0, madeUpAnswers = 0, madeUpStarts = 0
        if let history = values.first(where: { $0.key == "quizHistory" }) {
            guard case .array(let items) = history.value else {
                return .failure(ImportProblems(problems: [ImportProblem(file: history.file, row: "quizHistory", "not an array")]))
            }
            var seen: [ExactString: Int] = [:]
            for (i, item) in items.enumerated() {
                do {
                    let entry = try checkEntry(item, seen: &seen, index: i, rules: rules)
                    entries.append(entry)
                } catch {
                    problems.append(ImportProblem(file: history.file, row: "quizHistory[\(i)]", member: error.member, error.message))
                }
            }
        }
        for e in entries {
            let h = rules.baseID("quizHistory/" + e.id)
            var events = [rules.event(h + ":start", at: e.date, .quizStarted(QuizStarted(
                attempt: h, quiz: e.title, questions: e.total, daily: true, title: e.title, extra: rules.marks(assumed: ["at"]))))]
            for q in 0..<e.total {
                events.append(rules.event(h + ":q\(q)", at: e.date, .answerSelected(AnswerSelected(
                    attempt: h, question: String(q), choice: 0, correct: q < e.score,
                    extra: rules.marks(assumed: ["at", "question", "choice", "correct"])))))
            }
            events.append(rules.event(h + ":finish", at: e.completedAt, .quizFinished(AttemptEnded(attempt: h, extra: rules.marks()))))
            planned.append(Planned(start: e.date.instant, rank: 0, key: e.id, events: events))
            instants += 2; madeUpAnswers += e.total; madeUpStarts += 1
        }
        for (key, value, file) in values.filter({ $0.key.hasPrefix("quizProgress.") }).sorted(by: { CodePoint.less($0.key, $1.key) }) {
            do {
                if let p = try progress(key, value, entries: entries, rules: rules) {
                    planned.append(p.planned)
                    instants += p.planned.events.count > 0 ? (p.finished ? 2 : 1) : 0
                    madeUpAnswers += p.answers; madeUpStarts += 1
                }
            } catch {
                problems.append(ImportProblem(file: file, row: key, member: error.member, error.message))
            }
        }
        guard problems.isEmpty else { return .failure(ImportProblems(problems: problems)) }
        planned.sort { a, b in
            if a.start != b.start { return a.start < b.start }
            if a.rank != b.rank { return a.rank < b.rank }
            return CodePoint.less(a.key, b.key)
        }
        var batch = ImportBatch(events: planned.flatMap(\.events))
        if instants > 0 { batch.assumptions.append(rules.offsetNote(instants)) }
        if madeUpStarts > 0 {
            batch.assumptions.append("made up: \(madeUpAnswers) answers' question, choice or correct; \(madeUpStarts) start times (marked \"assumed\")")
        }
        return .success(batch)
    }

    private static func member(_ members: [JSONMember], _ name: String) -> JSONValue? {
        members.first { $0.name == name }?.value
    }

    private static func checkEntry(_ item: JSONValue, seen: inout [ExactString: Int], index: Int,
                                   rules: ImportRules) throws(Bad) -> Entry {
        guard case .object(let m) = item else { throw Bad(member: nil, message: "not a QuizHistoryEntry object") }
        for name in ["id", "date", "quizTitle", "score", "totalQuestions", "completedAt"] where member(m, name) == nil {
            throw Bad(member: name, message: "missing")
        }
        guard case .string(let rawID)? = member(m, "id"), isUUID(rawID) else {
            throw Bad(member: "id", message: "not a UUID: " + SatAttemptsStore.show(member(m, "id")))
        }
        let id = rawID.uppercased()
        if let earlier = seen[ExactString(id)] { throw Bad(member: "id", message: "\(rawID) already at quizHistory[\(earlier)]") }
        seen[ExactString(id)] = index
        guard case .string(let title)? = member(m, "quizTitle"), (1...256).contains(title.count) else {
            throw Bad(member: "quizTitle", message: "not a string of 1 to 256 characters")
        }
        guard let total = SatAttemptsStore.count(member(m, "totalQuestions")), total >= 1 else {
            throw Bad(member: "totalQuestions", message: "not an integer >= 1: " + SatAttemptsStore.show(member(m, "totalQuestions")))
        }
        guard let score = SatAttemptsStore.count(member(m, "score")), score <= total else {
            throw Bad(member: "score", message: "not a count up to totalQuestions \(total): " + SatAttemptsStore.show(member(m, "score")))
        }
        let date = try time(member(m, "date"), "date", rules)
        let done = try time(member(m, "completedAt"), "completedAt", rules)
        guard !(done.instant < date.instant) else { throw Bad(member: "completedAt", message: "before date") }
        return Entry(id: id, title: title, score: score, total: total, date: date, completedAt: done)
    }

    private static func progress(_ key: String, _ value: JSONValue, entries: [Entry],
                                 rules: ImportRules) throws(Bad) -> (planned: Planned, finished: Bool, answers: Int)? {
        let ymd = String(key.dropFirst("quizProgress.".count))
        let u = Array(ymd.utf8)
        guard u.count == 8, let y = Day.digits(u, 0, 4), let mo = Day.digits(u, 4, 2), let d = Day.digits(u, 6, 2),
              let day = Day(year: y, month: mo, day: d) else {
            throw Bad(member: "key", message: "not quizProgress.YYYYMMDD with a real date")
        }
        guard case .object(let m) = value else { throw Bad(member: nil, message: "not a QuizProgress object") }
        for name in ["date", "quizTitle", "currentIndex", "score", "userAnswers", "isCompleted"] where member(m, name) == nil {
            throw Bad(member: name, message: "missing")
        }
        guard member(m, "date") == .string(ymd) else {
            throw Bad(member: "date", message: "\(SatAttemptsStore.show(member(m, "date"))) is not the key's day \(ymd)")
        }
        guard case .string(let title)? = member(m, "quizTitle"), (1...256).contains(title.count) else {
            throw Bad(member: "quizTitle", message: "not a string of 1 to 256 characters")
        }
        guard case .array(let answers)? = member(m, "userAnswers"), !answers.isEmpty else {
            throw Bad(member: "userAnswers", message: "not an array of at least one question")
        }
        var chosen: [(question: Int, choice: Int)] = []
        for (i, a) in answers.enumerated() where a != .null {
            guard let c = SatAttemptsStore.count(a) else {
                throw Bad(member: "userAnswers[\(i)]", message: "not null or a count: " + QuizAppStore.text(a))
            }
            chosen.append((i, c))
        }
        guard case .bool(let completed)? = member(m, "isCompleted") else { throw Bad(member: "isCompleted", message: "not a bool") }
        let final = member(m, "finalScore").flatMap { $0 == .null ? nil : $0 }
        let scoreMember = completed && final != nil ? "finalScore" : "score"
        let scoreValue = member(m, scoreMember)
        guard let score = SatAttemptsStore.count(scoreValue), score <= chosen.count else {
            throw Bad(member: scoreMember, message: "\(SatAttemptsStore.show(scoreValue)) is more than the \(chosen.count) answered questions")
        }
        var done: Timestamp?
        if completed {
            guard let c = member(m, "completedAt"), c != .null else {
                throw Bad(member: "completedAt", message: "missing on a completed QuizProgress")
            }
            done = try time(c, "completedAt", rules)
            // The same completion as a history entry: that entry made it.
            if entries.contains(where: { $0.date.day == day && $0.title == title && $0.score == score && $0.total == answers.count }) {
                return nil
            }
        }
        let midnight = Timestamp(instant: Instant(seconds: Int64(day.ordinal) * 86_400 - Int64(rules.settings.offsetMinutes * 60),
                                                  nanoseconds: 0), offsetMinutes: rules.settings.offsetMinutes)
        var start = midnight
        if let done {
            if done.day == day { start = done }
        } else {
            for e in entries where e.date.day == day && start.instant < e.completedAt.instant { start = e.completedAt }
        }
        let h = rules.baseID(key + "@" + (rules.settings.device ?? ""))
        var events = [rules.event(h + ":start", at: start, .quizStarted(QuizStarted(
            attempt: h, quiz: title, questions: answers.count, daily: true, title: title, extra: rules.marks(assumed: ["at"]))))]
        for (n, a) in chosen.enumerated() {
            events.append(rules.event(h + ":q\(a.question)", at: start, .answerSelected(AnswerSelected(
                attempt: h, question: String(a.question), choice: a.choice, correct: n < score,
                extra: rules.marks(assumed: ["at", "correct"])))))
        }
        if let done {
            events.append(rules.event(h + ":finish", at: done, .quizFinished(AttemptEnded(attempt: h, extra: rules.marks()))))
        }
        return (Planned(start: start.instant, rank: 1, key: key, events: events), done != nil, chosen.count)
    }

    /// A `Date` as `JSONEncoder` writes it (seconds since 2001-01-01T00:00:00Z,
    /// rounded half up to milliseconds) or an RFC 3339 string, in `--utc-offset`.
    private static func time(_ v: JSONValue?, _ name: String, _ rules: ImportRules) throws(Bad) -> Timestamp {
        switch v {
        case .string(let s)?:
            guard let t = rules.timestamp(rfc3339: s) else {
                throw Bad(member: name, message: "not an RFC 3339 time with an offset: " + SatAttemptsStore.show(v))
            }
            return t
        case .number(let literal)?:
            guard let ms = milliseconds(literal) else {
                throw Bad(member: name, message: "not a date (seconds since 2001-01-01 or RFC 3339): " + literal)
            }
            let since1970 = ms + 978_307_200_000
            let seconds = since1970 >= 0 ? since1970 / 1000 : (since1970 - 999) / 1000
            let instant = Instant(seconds: seconds, nanoseconds: Int32((since1970 - seconds * 1000) * 1_000_000))
            return Timestamp(instant: instant, offsetMinutes: rules.settings.offsetMinutes, fractionDigits: 3)
        default:
            throw Bad(member: name, message: "not a date (seconds since 2001-01-01 or RFC 3339): " + SatAttemptsStore.show(v))
        }
    }

    /// A decimal literal times 1000, rounded half up (away from zero on the half), exactly.
    static func milliseconds(_ literal: String) -> Int64? {
        var u = Substring(literal)
        var negative = false
        if u.first == "-" { negative = true; u = u.dropFirst() }
        var exponent = 0
        if let e = u.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let x = Int(u[u.index(after: e)...]) else { return nil }
            exponent = x; u = u[..<e]
        }
        let parts = u.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        var digits = Array(parts[0]) + (parts.count == 2 ? Array(parts[1]) : [])
        var point = parts[0].count + exponent + 3   // digits before the point of value * 1000
        while point > digits.count { digits.append("0") }
        while point < 0 { digits.insert("0", at: 0); point += 1 }
        guard point <= 18 else { return nil }
        var whole: Int64 = 0
        for c in digits[..<point] { whole = whole * 10 + Int64(c.wholeNumberValue ?? 0) }
        if point < digits.count, (digits[point].wholeNumberValue ?? 0) >= 5 { whole += 1 }
        return negative ? -whole : whole
    }

    /// 8-4-4-4-12 hex digits.
    static func isUUID(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 36 else { return false }
        for (i, c) in u.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 { if c != UInt8(ascii: "-") { return false }; continue }
            let hex = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)
            if !hex { return false }
        }
        return true
    }
}
