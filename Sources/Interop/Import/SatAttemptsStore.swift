import Events

/// `--from sat-attempts`: the second seed's attempts histories (4.3, 4.4), one
/// attempt one `submission.made` (docs/import.md).
enum SatAttemptsStore {
    static func map(files: [(path: String, bytes: [UInt8])], target: SubmissionTarget,
                    rules: ImportRules) -> Result<ImportBatch, ImportProblems> {
        var problems: [ImportProblem] = []
        var made: [(at: Timestamp, key: String, event: NewEvent)] = []
        var seen: [ExactString: String] = [:]
        var madeUp = 0
        let contentMember = target.kind == .passage ? "passage_id" : "lesson_id"
        for (path, bytes) in files {
            guard case .array(let attempts)? = try? JSONDocument.parse(bytes) else {
                problems.append(ImportProblem(file: path, "not a JSON array of attempts")); continue
            }
            for (i, value) in attempts.enumerated() {
                var row = "[\(i)]"
                func bad(_ member: String, _ message: String) { problems.append(ImportProblem(file: path, row: row, member: member, message)) }
                guard case .object(let members) = value else { bad("attempt", "not an object"); continue }
                func get(_ name: String) -> JSONValue? {
                    guard let v = members.first(where: { $0.name == name })?.value, v != .null else { return nil }
                    return v
                }
                guard case .string(let id)? = get("id"), (1...256).contains(id.count) else { bad("id", "missing"); continue }
                row += " (id \(id))"
                if let earlier = seen[ExactString(id)] { bad("id", "already at \(earlier)"); continue }
                seen[ExactString(id)] = "\(path): [\(i)]"
                if let v = get(contentMember), v != .string(target.content) {
                    bad(contentMember, "\(QuizAppStore.text(v).trimmingQuotes) is not --content \(target.content)"); continue
                }
                guard let correct = count(get("correct_count")) else { bad("correct_count", "not a count: " + show(get("correct_count"))); continue }
                guard let total = count(get("total_questions")) else { bad("total_questions", "not a count: " + show(get("total_questions"))); continue }
                var seconds: Int?
                if let v = get("time_spent_seconds") {
                    guard let s = count(v) else { bad("time_spent_seconds", "not a count: " + show(v)); continue }
                    seconds = s
                }
                guard let completed = get("completed_at") else { bad("completed_at", "missing"); continue }
                guard case .string(let when) = completed, let at = rules.timestamp(rfc3339: when) else {
                    bad("completed_at", "not an RFC 3339 time with an offset: " + show(completed)); continue
                }
                var answers: [SubmissionMade.Answer] = []
                var assumed: [String] = []
                let items: [JSONValue]
                if case .array(let a)? = get("answers") { items = a } else { items = [] }
                if items.isEmpty && total > 0 {
                    guard correct <= total else { bad("correct_count", "\(correct) is above total_questions \(total)"); continue }
                    answers = (0..<total).map { SubmissionMade.Answer(question: String($0), choice: 0, correct: $0 < correct) }
                    assumed = ["answers"]
                    madeUp += 1
                } else {
                    guard items.count == total else { bad("answers", "\(items.count) items, total_questions is \(total)"); continue }
                    var questions: Set<ExactString> = []
                    var failed = false
                    for (j, item) in items.enumerated() {
                        guard case .object(let m) = item else { bad("answers[\(j)]", "not an object"); failed = true; break }
                        func field(_ name: String) -> JSONValue? { m.first { $0.name == name }?.value }
                        guard case .string(let q)? = field("question_id"), (1...256).contains(q.count) else {
                            bad("answers[\(j)].question_id", "not a string of 1 to 256 characters: " + show(field("question_id"))); failed = true; break
                        }
                        guard questions.insert(ExactString(q)).inserted else {
                            bad("answers[\(j)].question_id", "\(q) already answered in this attempt"); failed = true; break
                        }
                        guard let choice = count(field("selected_option_index")) else {
                            bad("answers[\(j)].selected_option_index", "not a count: " + show(field("selected_option_index"))); failed = true; break
                        }
                        guard case .bool(let ok)? = field("is_correct") else {
                            bad("answers[\(j)].is_correct", "not a bool: " + show(field("is_correct"))); failed = true; break
                        }
                        answers.append(SubmissionMade.Answer(question: q, choice: choice, correct: ok))
                    }
                    if failed { continue }
                    let right = answers.filter(\.correct).count
                    guard right == correct else { bad("correct_count", "\(correct), the answers have \(right) correct"); continue }
                }
                let submission = SubmissionMade(content: target.content, kind: target.kind, category: target.category,
                                                seconds: seconds, answers: answers, extra: rules.marks(assumed: assumed))
                let key = target.kind.rawValue + "/" + target.content + "/" + id
                made.append((at, id, rules.event(rules.baseID(key), at: at, .submissionMade(submission))))
            }
        }
        guard problems.isEmpty else { return .failure(ImportProblems(problems: problems)) }
        var batch = rules.batch(oneEventPerRow: made)
        if madeUp > 0 {
            batch.assumptions.append("made up: the answers of \(madeUp) attempt\(madeUp == 1 ? "" : "s") without them (question index, choice 0, the first correct_count correct; marked \"assumed\")")
        }
        return .success(batch)
    }

    /// A JSON integer >= 0.
    static func count(_ v: JSONValue?) -> Int? {
        guard case .number(let literal)? = v, let n = Int(literal), n >= 0 else { return nil }
        return n
    }

    static func show(_ v: JSONValue?) -> String { v.map(QuizAppStore.text) ?? "missing" }
}

extension String {
    /// Without one pair of surrounding double quotes.
    var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
