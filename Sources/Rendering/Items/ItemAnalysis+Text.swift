import Events
import Projections

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
        var table = Table(Self.csvColumns)
        func row(_ kind: String, _ id: String, _ q: Question, quiz: Bool) {
            let cells: [String?] = [
                kind, id, q.question, String(q.answers), String(q.correct), q.pCorrect.map(String.init), q.choicesText,
                q.topWrongChoice.map(String.init), quiz ? q.discrimination : nil, quiz ? q.medianMs.map(String.init) : nil,
                quiz ? String(q.hinted) : nil,
            ]
            table.row(cells.map { $0 ?? "" })
        }
        for quiz in quizzes { for q in quiz.questions { row("quiz", quiz.quiz, q, quiz: true) } }
        for content in contents { for q in content.questions { row("submission", content.content, q, quiz: false) } }
        return table.csv
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
            if !quiz.questions.isEmpty { out += Self.questionTable(quiz.questions, quiz: true).text }
        }
        for content in contents {
            out += "\n\(content.content): \(content.submissions) submission\(content.submissions == 1 ? "" : "s")\n"
            if !content.questions.isEmpty { out += Self.questionTable(content.questions, quiz: false).text }
        }
        out += "\nright: p_correct of counted answers; choices: index:count; discrimination: corrected point-biserial\n"
            + "over finished attempts (– under 10 or without variance); hinted: answered after a hint.\n"
        return out
    }

    /// A row per question: a quiz's (with discrimination, median ms and
    /// hinted) or a submitted content's; the text's and the HTML's table.
    static func questionTable(_ questions: [Question], quiz: Bool) -> Table {
        let shared: [(String, Table.Alignment)] = [("question", .left), ("answers", .right), ("right", .right), ("choices", .left),
                                                   ("top wrong", .right)]
        var table = Table(shared + (quiz ? [("discrimination", .right), ("median ms", .right), ("hinted", .right)] : []))
        for q in questions {
            let cells = [q.question, String(q.answers), Report.percent(q.pCorrect), q.choicesText, q.topWrongChoice.map(String.init) ?? "–"]
            table.row(cells + (quiz ? [q.discrimination ?? "–", q.medianMs.map(String.init) ?? "–", String(q.hinted)] : []))
        }
        return table
    }
}
