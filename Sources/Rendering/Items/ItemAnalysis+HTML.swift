import Events
import Projections

extension ItemAnalysis {
    /// One self-contained page (no script, no network, inline SVG): per quiz,
    /// a chart of percent right per question and one of the drop-off, then
    /// the question table; then the submitted contents' tables.
    public var html: String {
        let e = HTMLText.escape
        let range = "\(from?.description ?? "first day") to \(to?.description ?? "last day")"
        var h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<meta name=\"color-scheme\" content=\"light dark\">\n"
        h += "<title>Question analysis: \(e(range))</title>\n<style>\n\(Report.style)</style>\n</head>\n<body>\n<main>\n"
        h += "<header><h1>Question analysis</h1><p class=\"range\">\(e(range))</p></header>\n"
        for (i, quiz) in quizzes.enumerated() {
            h += "<section><h2>Quiz \(e(quiz.quiz))</h2><p>\(quiz.started) started · \(quiz.finished) finished · "
                + "\(quiz.abandoned) abandoned</p>\n"
            let rows = quiz.questions.map {
                SVGBarList.Row(label: $0.question, value: $0.pCorrect,
                               tooltip: "\($0.question): \($0.correct) of \($0.answers) right")
            }
            h += "<figure><h3>Percent right per question</h3>"
                + SVGBarList(id: "chart-quiz-\(i)-right", title: "Percent right per question", xTitle: "answers right",
                             yTitle: "question", rows: rows).svg + "</figure>\n"
            if !quiz.droppedAfter.isEmpty {
                h += "<figure><h3>Abandoned after k answers</h3>" + Self.dropOffChart(quiz, id: "chart-quiz-\(i)-drop") + "</figure>\n"
            }
            h += Self.questionTable(quiz.questions, quiz: true).html(id: "table-quiz-\(i)") + "</section>\n"
        }
        for (i, content) in contents.enumerated() {
            h += "<section><h2>\(e(content.content))</h2><p>\(content.submissions) submissions</p>"
                + Self.questionTable(content.questions, quiz: false).html(id: "table-content-\(i)") + "</section>\n"
        }
        h += "<footer>Made by <code>progress-ledger items</code>. Counted answers are the first answers of each attempt; "
            + "discrimination is the corrected point-biserial over finished attempts (– under 10 or without variance).</footer>\n"
        return h + "</main>\n</body>\n</html>\n"
    }

    /// Bars of abandoned attempts by the number of answers they had.
    static func dropOffChart(_ quiz: Quiz, id: String) -> String {
        let points = quiz.droppedAfter.map {
            SVGChart.Point(key: String($0.answered), label: String($0.answered),
                           tooltip: "\($0.attempts) abandoned after \($0.answered) answer\($0.answered == 1 ? "" : "s")",
                           value: $0.attempts)
        }
        return SVGChart(id: id, title: "Abandoned attempts by answers given", xTitle: "answers given before quitting",
                        yTitle: "attempts", points: points, style: .bars).svg
    }
}
