import Foundation
import Ledger
import Testing

/// Issue 31, item 1: "café" written with U+00E9 and "cafe" + U+0301 are two
/// learners (events-v1.md, "Strings are compared by their code points"),
/// though Swift's `String ==` calls them equal. Every command that keys
/// learners, and the server's every learner route, keeps them apart.
@Suite("ids by code points: two spellings of café are two learners", .serialized)
struct CodePointIdentityTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// Each learner's own numbers, so a merge of the two shows: the composed
    /// one gets 3 hints and a daily quiz of 1 question answered right; the
    /// decomposed one 5 hints and a daily quiz of 2 questions, one answered
    /// wrong. The question ids are the two spellings too.
    static func events(_ user: String, _ tag: String) -> [String] {
        let composedLearner = user.unicodeScalars.elementsEqual(composed.unicodeScalars)
        let hints = composedLearner ? 3 : 5
        let questions = composedLearner ? 1 : 2
        let question = composedLearner ? composed : decomposed
        func line(_ n: Int, _ type: String, _ data: String) -> String {
            #"{"id":"\#(tag)-\#(n)","at":"2025-10-21T08:\#(10 + n):00+03:00","user":"\#(user)","type":"\#(type)","data":\#(data)}"#
        }
        return [
            line(1, "hints.granted", #"{"amount":\#(hints),"reason":"seed"}"#),
            line(2, "quiz.started", #"{"attempt":"a-\#(tag)","quiz":"\#(question)","questions":\#(questions),"daily":true}"#),
            line(3, "answer.selected", #"{"attempt":"a-\#(tag)","question":"\#(question)","choice":1,"correct":\#(composedLearner),"skill":"\#(question)"}"#),
            line(4, "quiz.finished", #"{"attempt":"a-\#(tag)"}"#),
        ]
    }

    /// One log holding both learners' events, interleaved.
    static func bothLog(in dir: TemporaryDirectory) throws -> String {
        let log = dir.path("both.log")
        let a = events(composed, "c"), b = events(decomposed, "d")
        let lines = zip(a, b).flatMap { [$0, $1] }.joined(separator: "\n") + "\n"
        let appended = try CLI.run(["append", log], input: lines)
        #expect(appended.status == 0, "\(appended.stderr)")
        return log
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The user member's exact scalars (Foundation's `==` would normalize too).
    static func scalars(_ value: Any?) -> [UInt32] { ((value as? String) ?? "").unicodeScalars.map(\.value) }

    @Test("split writes two learner logs and verify DIR passes; state over the log and the directory keeps them apart")
    func splitAndState() throws {
        #expect(Self.composed == Self.decomposed, "Swift's String == normalizes: the reason for this suite")
        let dir = try TemporaryDirectory()
        let log = try Self.bothLog(in: dir)
        let ledger = dir.path("ledger.d")
        let split = try CLI.run(["split", log, ledger, "--quiet"])
        #expect(split.status == 0, "\(split.stderr)")
        let directory = try LedgerDirectory(opening: ledger)
        let paths = [Self.composed, Self.decomposed].map { directory.learnerPath(user: $0) }
        #expect(paths[0] != paths[1])
        for (path, user) in zip(paths, [Self.composed, Self.decomposed]) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.split(separator: "\n").count == 4, "\(user.unicodeScalars.map(\.value)): \(text)")
        }
        let verify = try CLI.run(["verify", ledger])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

        for source in [log, ledger] {
            for (user, balance, score) in [(Self.composed, 3, 100), (Self.decomposed, 5, 0)] {
                let state = try CLI.run(["state", source, "--user", user, "--day", "2025-10-21", "--json"])
                #expect(state.status == 0, "\(state.stderr)")
                let object = try Self.json(state.stdout)
                #expect(Self.scalars(object["user"]) == user.unicodeScalars.map(\.value))
                #expect((object["hints"] as? [String: Any])?["balance"] as? Int == balance, "\(source) \(user.unicodeScalars.map(\.value))")
                let daily = object["daily_quiz"] as? [String: Any]
                #expect(daily?["attempts"] as? Int == 1)
                #expect(daily?["total"] as? Int == (balance == 3 ? 1 : 2))
                let history = object["history"] as? [[String: Any]]
                #expect(history?.count == 1)
                #expect(history?.first?["percent"] as? Int == score)
            }
        }
    }

    @Test("report, leaderboard and items count two learners and two questions")
    func analytics() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.bothLog(in: dir)
        let ledger = dir.path("ledger.d")
        #expect(try CLI.run(["split", log, ledger, "--quiet"]).status == 0)
        for source in [log, ledger] {
            let report = try CLI.run(["report", source, "--format", "json"])
            #expect(report.status == 0, "\(report.stderr)")
            let days = try #require(Self.json(report.stdout)["days"] as? [[String: Any]])
            #expect(days.count == 1)
            #expect(days.first?["active_users"] as? Int == 2, "\(source)")
            #expect(days.first?["quizzes_started"] as? Int == 2)
            #expect(days.first?["answers"] as? Int == 2)
            #expect(days.first?["accuracy"] as? Int == 50)

            let board = try CLI.run(["leaderboard", source, "--period", "week", "--on", "2025-10-21", "--json"])
            #expect(board.status == 0, "\(board.stderr)")
            let rows = try #require(Self.json(board.stdout)["rows"] as? [[String: Any]], "\(board.stdout)")
            #expect(rows.count == 2, "\(source): \(board.stdout)")
            #expect(Set(rows.map { Self.scalars($0["user"]) }) == Set([Self.composed, Self.decomposed].map { $0.unicodeScalars.map(\.value) }))

            let items = try CLI.run(["items", source, "--json"])
            #expect(items.status == 0, "\(items.stderr)")
            let quizzes = try #require(Self.json(items.stdout)["quizzes"] as? [[String: Any]], "\(items.stdout)")
            #expect(quizzes.count == 2, "\(source): two quizzes, one per spelling")
            for quiz in quizzes {
                let questions = quiz["questions"] as? [[String: Any]]
                #expect(questions?.count == 1)
                #expect(Self.scalars(questions?.first?["question"]) == Self.scalars(quiz["quiz"]))
            }
        }
    }

    /// `caf%C3%A9` and `cafe%CC%81`.
    static func segment(_ user: String) -> String {
        user.utf8.map { $0 < 0x80 ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }

    @Test("serve: a token of one spelling is 403 on every route of the other; an event of one pushed to the other's path is 403")
    func server() throws {
        let server = try ServerProcess()
        defer { server.terminate() }
        let tokens = try [Self.composed, Self.decomposed].map { try Tokens.one(server.secretFile, sub: $0) }
        let paths = [Self.composed, Self.decomposed].map { "/v1/learners/\(Self.segment($0))" }
        // Each learner pushes their own events to their own path.
        for k in 0..<2 {
            let user = k == 0 ? Self.composed : Self.decomposed
            let body = Array((Self.events(user, k == 0 ? "c" : "d").joined(separator: "\n") + "\n").utf8)
            let pushed = try RawHTTP(port: server.port).request("POST", paths[k] + "/events", token: tokens[k], body: body)
            #expect(pushed.status == 200, "\(pushed.text)")
        }
        let before = server.snapshot()
        for k in 0..<2 {
            let other = paths[1 - k]
            for route in ["/events?after=0", "/head", "/state", "/checkpoint"] {
                let answer = try RawHTTP(port: server.port).request("GET", other + route, token: tokens[k])
                #expect(answer.status == 403, "token \(k) on \(other)\(route): \(answer.status) \(answer.text)")
            }
            let otherUser = k == 0 ? Self.decomposed : Self.composed
            let push = try RawHTTP(port: server.port).request("POST", other + "/events", token: tokens[k],
                                                              body: Array((Self.events(otherUser, "x\(k)")[0] + "\n").utf8))
            #expect(push.status == 403, "token \(k) pushing to \(other): \(push.text)")
            // An event of the other spelling on one's own path.
            let mine = try RawHTTP(port: server.port).request("POST", paths[k] + "/events", token: tokens[k],
                                                              body: Array((Self.events(otherUser, "y\(k)")[0] + "\n").utf8))
            #expect(mine.status == 403, "event of the other spelling on path \(k): \(mine.text)")
        }
        #expect(server.snapshot() == before, "no refusal wrote anything")
        // Each learner reads their own four lines, and the directory verifies.
        for k in 0..<2 {
            let pull = try RawHTTP(port: server.port).request("GET", paths[k] + "/events?after=0", token: tokens[k])
            #expect(pull.status == 200)
            #expect(pull.text.split(separator: "\n").count == 4, "\(pull.text)")
            let state = try RawHTTP(port: server.port).request("GET", paths[k] + "/state?day=2025-10-21", token: tokens[k])
            #expect(state.status == 200)
            #expect(state.text.contains(k == 0 ? #""balance":3"# : #""balance":5"#), "\(state.text)")
        }
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        #expect(try RawHTTP(port: server.port).request("GET", "/v1/digest", token: admin).status == 200)
        #expect(try CLI.run(["verify", server.directory]).status == 0)
    }
}
