import Events
import Projections
import Testing

@Suite("Catalog and as-of")
struct CatalogAndAsOfTests {
    @Test("a catalog file: a JSON object of lists of content ids, over several lines")
    func parseCatalog() throws {
        let text = "{\n  \"vocab\": [\"l-1\", \"l-2\"],\r\n  \"grammar\": []\n}\n"
        let catalog = try Catalog(json: Array(text.utf8))
        #expect(catalog.contents(for: "vocab") == ["l-1", "l-2"])
        #expect(catalog.contents(for: "grammar") == [])
        #expect(catalog.contents(for: "missing") == [])
        #expect(catalog == Catalog(["vocab": ["l-1", "l-2"], "grammar": []]))
    }

    @Test("an ill-typed or unreadable catalog is an error that names the member or the position", arguments: [
        ("[\"l-1\"]", "catalog: must be a JSON object mapping a skill to a list of content ids, not a list"),
        ("{\"vocab\": \"l-1\"}", "catalog: member \"vocab\": must be a list of content ids (strings), not a string"),
        ("{\"vocab\": [\"l-1\", 2]}", "catalog: member \"vocab\"[1]: must be a non-empty string (a content id), not a number"),
        ("{\"vocab\": [\"\"]}", "catalog: member \"vocab\"[0]: must be a non-empty string (a content id), not an empty string"),
        ("{\n\"vocab\": [\"l-1\",]\n}", "catalog: not valid JSON: unexpected character (line 2, column 17)"),
        ("{\"a\": [], \"a\": []}", nil),
        ("", nil),
        ("\u{FEFF}{}", "catalog: not valid JSON: the document starts with a byte order mark (BOM) (line 1, column 1)"),
    ] as [(String, String?)])
    func badCatalog(text: String, message: String?) {
        #expect(throws: CatalogError.self) { try Catalog(json: Array(text.utf8)) }
        do {
            _ = try Catalog(json: Array(text.utf8))
        } catch {
            if let message { #expect(error.description == message) }
            #expect(error.description.hasPrefix("catalog: "))
        }
    }

    @Test("as-of parsing: all digits is a seq, else an RFC 3339 timestamp")
    func parseAsOf() throws {
        #expect(try AsOf(parsing: "12") == .seq(12))
        #expect(try AsOf(parsing: "99999999999999999999999") == .seq(Int.max))
        #expect(try AsOf(parsing: "2025-10-21T10:00:00+02:00") == .time(stamp("2025-10-21T10:00:00+02:00")))
        #expect(throws: AsOfError.self) { try AsOf(parsing: "yesterday") }
        #expect(throws: AsOfError.self) { try AsOf(parsing: "2025-10-21") }
        #expect(throws: AsOfError.self) { try AsOf(parsing: "-3") }
    }

    @Test("as-of a seq keeps seq <= N; as-of a time keeps events at or before the instant, per event, in log order")
    func asOf() {
        var log = LogBuilder()
        log.start("2025-10-21T09:00:00Z", "a-1", questions: 2)        // 1
        log.answer("2025-10-21T09:01:00Z", "a-1", "q1")               // 2
        log.answer("2025-10-21T12:00:00+02:00", "a-1", "q2")          // 3: 10:00Z
        log.answer("2025-10-21T09:30:00Z", "ghost", "q1")             // 4: late-synced, earlier instant
        log.finish("2025-10-21T11:00:00Z", "a-1")                     // 5
        #expect(fold(log, asOf: .seq(2)) == LearnerState(folding: log.records.prefix(2), options: StateOptions(user: "u-1")))
        #expect(fold(log, asOf: .seq(2)).dailyQuiz.answered == 1)
        let atTen = fold(log, asOf: .time(stamp("2025-10-21T12:00:00+02:00")))
        #expect(atTen.dailyQuiz.answered == 2)
        #expect(atTen.dailyQuiz.status == .inProgress)
        #expect(atTen.anomalies.map(\.seq) == [4])
        #expect(fold(log, asOf: .time(stamp("2025-10-21T09:59:59.999999999Z"))).dailyQuiz.answered == 1)
        #expect(fold(log, asOf: .seq(0)) == LearnerState(user: "u-1"))
    }

    @Test("other users' events are skipped, and a replayed record is ignored by the live projector")
    func otherUsersAndReplays() {
        var log = LogBuilder()
        log.start("2025-10-21T09:00:00Z", "a-1", questions: 2)
        log.start("2025-10-21T09:00:00Z", "a-1", questions: 2, user: "u-2")   // same attempt id, other user
        log.answer("2025-10-21T09:01:00Z", "a-1", "q1", user: "u-2")
        log.answer("2025-10-21T09:02:00Z", "a-1", "q1")
        var projector = LearnerProjector(options: StateOptions(user: "u-1"))
        projector.apply(contentsOf: log.records)
        projector.apply(contentsOf: log.records)            // replay: skipped
        #expect(projector.keptCount == 2)
        #expect(projector.state().anomalies == [])
        #expect(projector.state().dailyQuiz.answered == 1)
        #expect(projector.state() == fold(log))
    }
}
