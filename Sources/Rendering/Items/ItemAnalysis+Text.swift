import Events

extension ItemAnalysis {
    /// The CSV columns of a question row, in order.
    public static let csvColumns = [
        "kind", "id", "question", "answers", "correct", "p_correct", "choices", "top_wrong_choice",
        "discrimination", "median_ms", "hinted",
    ]

    /// One row per question (quizzes first, then submitted contents) after a
    /// header row; `kind` is `quiz` or `submission`; `choices` is `index:count`
    /// pairs separated by spaces; null (and a member a submission lacks) is an
    /// empty field. Ids that hold `,`, `"` or a line break are quoted.
    public var csv: String {
        var out = Self.csvColumns.joined(separator: ",") + "\n"
        func row(_ kind: String, _ id: String, _ q: Question, quiz: Bool) {
            let cells: [String?] = [
                kind, id, q.question, String(q.answers), String(q.correct), q.pCorrect.map(String.init), q.choicesText,
                q.topWrongChoice.map(String.init), quiz ? q.discrimination : nil, quiz ? q.medianMs.map(String.init) : nil,
                quiz ? String(q.hinted) : nil,
            ]
            out += cells.map { Self.csvField($0 ?? "") }.joined(separator: ",") + "\n"
        }
        for quiz in quizzes { for q in quiz.questions { row("quiz", quiz.quiz, q, quiz: true) } }
        for content in contents { for q in content.questions { row("submission", content.content, q, quiz: false) } }
        return out
    }

    static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }

    /// For a terminal: per quiz its attempts and drop-off, then a table of its
    /// questions; then the submitted contents.
    public var text: String {
        let range = "\(from?.description ?? "first day") to \(to?.description ?? "last day")"
        if quizzes.isEmpty && contents.isEmpty { return "Items \(range): no answer.\n" }
        var out = "Items \(range): \(quizzes.count) quiz\(quizzes.count == 1 ? "" : "zes"), "
            + "\(contents.count) submitted content\(contents.count == 1 ? "" : "s")\n"
        for quiz in quizzes {
            out += "\nquiz \(quiz.quiz): \(quiz.started) started, \(quiz.finished) finished, \(quiz.abandoned) abandoned"
            if !quiz.droppedAfter.isEmpty {
                out += " (after " + quiz.droppedAfter.map { "\($0.answered) answered: \($0.attempts)" }.joined(separator: ", ") + ")"
            }
            out += "\n"
            var table = TextTable([("question", .left), ("answers", .right), ("right", .right), ("choices", .left),
                                   ("top wrong", .right), ("discrimination", .right), ("median ms", .right), ("hinted", .right)])
            for q in quiz.questions {
                table.row([q.question, String(q.answers), Report.percent(q.pCorrect), q.choicesText,
                           q.topWrongChoice.map(String.init) ?? "–", q.discrimination ?? "–",
                           q.medianMs.map(String.init) ?? "–", String(q.hinted)])
            }
            if !quiz.questions.isEmpty { out += table.text }
        }
        for content in contents {
            out += "\n\(content.content): \(content.submissions) submission\(content.submissions == 1 ? "" : "s")\n"
            var table = TextTable([("question", .left), ("answers", .right), ("right", .right), ("choices", .left),
                                   ("top wrong", .right)])
            for q in content.questions {
                table.row([q.question, String(q.answers), Report.percent(q.pCorrect), q.choicesText,
                           q.topWrongChoice.map(String.init) ?? "–"])
            }
            if !content.questions.isEmpty { out += table.text }
        }
        out += "\nright: p_correct of counted answers; choices: index:count; discrimination: corrected point-biserial\n"
            + "over finished attempts (– under 10 or without variance); hinted: answered after a hint.\n"
        return out
    }
}
