@testable import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// The reads that keep records without decoding every line whole: a fold of
/// every learner (`Options.forFold`: `report`, `items`, `leaderboard`) and
/// one learner's (`Options(user:)`: cold `state`), on a demo log written
/// through the ledger, against each line decoded whole by itself.
@Suite("Records kept for a fold or for one learner")
struct KeptRecordsTests {
    /// A demo log written through the ledger; its lines.
    static func demo(_ dir: TempDir, users: Int, days: Int) throws -> (path: String, lines: [[UInt8]]) {
        let path = dir.file("progress.log")
        let writer = try LedgerWriter(path: path)
        try writer.append(Array(DemoLog(.init(users: users, days: days, seed: 36))))
        writer.close()
        return (path, try Files.lines(path))
    }

    /// `record` with the envelope's text a fold does not read left empty, as `forFold` makes it.
    static func forFold(_ record: Record) -> Record {
        guard case .event(var e) = record else { return record }
        e.id = ""
        e.prev = ""
        e.device = e.device.map { _ in "" }
        e.at = Timestamp(text: "", instant: e.at.instant, offsetMinutes: e.at.offsetMinutes, day: e.at.day)
        return .event(e)
    }

    @Test("forFold: every record, whose, when and what as decoded whole; the id, at's text, device and prev not made",
          arguments: [(3, 4), (40, 20)])
    func foldRecords(users: Int, days: Int) throws {
        let dir = try TempDir("kept")
        defer { dir.cleanup() }
        let (path, lines) = try Self.demo(dir, users: users, days: days)
        var options = LogReader.Options()
        options.forFold = true
        var records: [Record] = []
        let summary = try LogReader(path: path).read(options) { records.append($0) }.summary
        #expect(summary.events == lines.count)
        let whole = try lines.map { try LineCodec.decodeRecord($0) }
        #expect(records == whole.map(Self.forFold))
        #expect(records.allSatisfy { $0.user?.isEmpty == false })
    }

    @Test("forFold and one learner's read stop at a damaged line with verify's message", arguments: [nil, "u-1"] as [String?])
    func damaged(user: String?) throws {
        let dir = try TempDir("kept")
        defer { dir.cleanup() }
        var (path, lines) = try Self.demo(dir, users: 3, days: 4)
        let broken = lines.count / 2
        lines[broken] = Array(String(decoding: lines[broken], as: UTF8.self).replacingOccurrences(of: #""seq":"#, with: #""seq":-"#).utf8)
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        let expected = try verify(path: path).problem
        #expect(expected?.line == broken + 1)
        var options = LogReader.Options(user: user)
        options.forFold = true
        do {
            try LogReader(path: path).read(options) { _ in }
            Issue.record("a damaged log was read")
        } catch {
            #expect(error.problem?.description == expected?.description, "\(error)")
        }
    }

    @Test("one learner's read: exactly their records, decoded whole, every other line checked")
    func learnerRecords() throws {
        let dir = try TempDir("kept")
        defer { dir.cleanup() }
        let (path, lines) = try Self.demo(dir, users: 12, days: 10)
        let whole = try lines.map { try LineCodec.decodeRecord($0) }
        let users = Set(whole.compactMap(\.user))
        #expect(users.count == 12)
        for user in users.sorted() {
            var mine: [Record] = []
            let summary = try LogReader(path: path).read(.init(user: user)) { mine.append($0) }.summary
            #expect(mine == whole.filter { $0.user.map { Array($0.utf8) == Array(user.utf8) } == true })
            #expect(summary.events == lines.count)
        }
    }

    /// `lines` chained again: each line's `prev` (its last 64 hex digits, as
    /// the writer lays a line out) set to the SHA-256 of the line before.
    static func rechained(_ lines: [[UInt8]]) -> [[UInt8]] {
        var prev = Array(Envelope.genesis.utf8)
        return lines.map { line in
            var line = line
            let end = line.count - 2   // before `"}`
            line.replaceSubrange((end - 64)..<end, with: prev)
            prev = Array(LineDigest.of(line).hex.utf8)
            return line
        }
    }

    @Test("one learner's read: a user written with escapes, a newer-version line with or without a string user, each kept as the full decode says")
    func learnerRecordsEscaped() throws {
        let dir = try TempDir("kept")
        defer { dir.cleanup() }
        let (path, written) = try Self.demo(dir, users: 5, days: 4)
        // Every third line's user written `u\u002dK`: the same user in other bytes.
        var lines = written.enumerated().map { (k, line) -> [UInt8] in
            guard k % 3 == 0 else { return line }
            return Array(String(decoding: line, as: UTF8.self).replacingOccurrences(of: #""user":"u-"#, with: #""user":"u\u002d"#).utf8)
        }
        let n = lines.count
        let users = Set(try written.compactMap { try LineCodec.decodeRecord($0).user }).sorted()
        #expect(users.count == 5)
        // Newer-version lines: one learner's, one without a string user, another learner's.
        for (k, user) in ["\"\(users[1])\"", "7", "\"\(users[2])\""].enumerated() {
            lines.append(Array(#"{"v":3,"seq":\#(n + k + 1),"id":"n-\#(k)","user":\#(user),"prev":"\#(Envelope.genesis)"}"#.utf8))
        }
        lines = Self.rechained(lines)
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        #expect(try verify(path: path).problem == nil)
        let whole = try lines.map { try LineCodec.decodeRecord($0) }
        #expect(whole.filter { if case .newer = $0 { true } else { false } }.count == 3)
        for user in users + ["u-0", "u"] {
            var mine: [Record] = []
            let summary = try LogReader(path: path).read(.init(user: user)) { mine.append($0) }.summary
            let expected = whole.filter { $0.user.map { Array($0.utf8) == Array(user.utf8) } ?? true }
            #expect(mine == expected, "\(user)")
            #expect(summary.events == lines.count && summary.newerVersionLines == 3)
        }
        // Some of the learners' own lines were written with escapes.
        let escaped = lines.filter { String(decoding: $0, as: UTF8.self).contains(#""user":"u\u002d"#) }
        #expect(escaped.count >= lines.count / 3)
    }

    /// One event of every type for `user`, as an app sends them, with strings
    /// the writer must escape (quotes, backslashes, control characters) or
    /// writes as they are (non-ASCII, `/`), optional members and extra ones.
    static func everyType(_ user: String) throws -> [NewEvent] {
        let s = #"q \"x\" \\ /é\t😀\u0001"#
        let events = [
            #"{"type":"quiz.started","data":{"attempt":"\#(s)","quiz":"\#(s)","questions":2,"daily":false,"title":"\#(s)","category":"c\"1","difficulty":"easy","extra":{"k":[1,"\#(s)"]}}}"#,
            #"{"type":"answer.selected","data":{"attempt":"\#(s)","question":"1\n","choice":0,"correct":true,"skill":"\#(s)","ms":1200}}"#,
            #"{"type":"hint.used","data":{"attempt":"\#(s)","question":"2\n","hint":"reveal"}}"#,
            #"{"type":"answer.selected","data":{"attempt":"\#(s)","question":"2\n","choice":3,"correct":false}}"#,
            #"{"type":"quiz.finished","data":{"attempt":"\#(s)"}}"#,
            #"{"type":"quiz.started","data":{"attempt":"b\/2","quiz":"q","questions":3,"daily":true}}"#,
            #"{"type":"quiz.abandoned","data":{"attempt":"b\/2"}}"#,
            #"{"type":"puzzle.completed","data":{"puzzle":"\#(s)","encoding":"caesar","seconds":12.75}}"#,
            #"{"type":"puzzle.failed","data":{"puzzle":"p \"2\"","encoding":"caesar"}}"#,
            #"{"type":"submission.made","data":{"content":"\#(s)","kind":"lesson","category":"math","answers":[{"question":"x\"","choice":1,"correct":true},{"question":"y","choice":0,"correct":false}]}}"#,
            #"{"type":"hints.granted","data":{"amount":3,"reason":"seed"}}"#,
            #"{"type":"streak.freeze_granted","data":{"amount":1,"reason":"reward"}}"#,
            #"{"type":"streak.paused","data":{"from":"2026-03-03","to":"2026-03-04"}}"#,
            #"{"type":"progress.reset","data":{"scope":"all"}}"#,
        ]
        return try events.enumerated().map { (k, event) in
            let line = #"{"id":"t-\#(k)","at":"2026-03-0\#(1 + k % 2)T08:00:0\#(k % 10).5-05:30","user":"\#(user)","device":"d\\\"\#(k)","#
                + event.dropFirst()
            return try LineCodec.decodeNewEvent(Array(line.utf8))
        }
    }

    @Test("a one-learner log, every line theirs: each record made from the check's scan equals the line decoded whole, every type, escapes the writer writes and escapes it does not, lines it does not lay out")
    func oneLearnerEveryLine() throws {
        let dir = try TempDir("kept")
        defer { dir.cleanup() }
        let path = dir.file("one.log")
        let writer = try LedgerWriter(path: path)
        try writer.append(Array(DemoLog(.init(users: 1, days: 30, seed: 36))))
        let user = try #require(LineCodec.decodeRecord(try Files.lines(path)[0]).user)
        try writer.append(try Self.everyType(user))
        writer.close()
        // Escapes the writer does not write (the same values in other bytes), and lines it does not lay out.
        let lines = Self.rechained(try Files.lines(path).enumerated().map { (k, line) -> [UInt8] in
            var text = String(decoding: line, as: UTF8.self)
            if k % 3 == 0 { text = text.replacingOccurrences(of: #""user":"u-"#, with: #""user":"u\u002d"#) }
            if k % 4 == 1 { text = text.replacingOccurrences(of: #""attempt":"a-"#, with: #""attempt":"a\u002d"#) }
            if k % 5 == 2 { text = text.replacingOccurrences(of: #""at":"20"#, with: #""at":"2\u0030"#) }
            if k % 7 == 3 { text = text.replacingOccurrences(of: #""device":"p"#, with: #""device":"\u0070"#) }
            if k % 11 == 4 { text = "{ " + text.dropFirst().replacingOccurrences(of: #","type":"#, with: #" , "type" :"#) }
            return Array(text.utf8)
        })
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        #expect(try verify(path: path).problem == nil)
        let whole = try lines.map { try LineCodec.decodeRecord($0) }
        #expect(Set(whole.compactMap { if case .event(let e) = $0 { e.event.type } else { nil } }) == Set(EventType.allCases))
        #expect(whole.allSatisfy { $0.user == user })
        var mine: [Record] = []
        let summary = try LogReader(path: path).read(.init(user: user)) { mine.append($0) }.summary
        #expect(summary.events == lines.count)
        #expect(mine == whole)
        // Both walks and both kinds of user were read.
        let general = lines.filter { line in !line.withUnsafeBytes { LineCodec.walksAsWriter($0) } }.count
        #expect(general >= lines.count / 11 && general < lines.count / 2)
        #expect(lines.filter { String(decoding: $0, as: UTF8.self).contains(#""user":"u\u002d"#) }.count >= lines.count / 3)
        // Another learner's read of the same log keeps nothing.
        var others = 0
        try LogReader(path: path).read(.init(user: user + "x")) { _ in others += 1 }
        #expect(others == 0)
    }

    @Test("one learner's check of each line: the checked line verify's check makes, and the record exactly when the line is the learner's as decoded whole, for learners of the log and ids one byte off at either end or inside")
    func userRecordsAgree() throws {
        let dir = try TempDir("kept")
        defer { dir.cleanup() }
        let (_, written) = try Self.demo(dir, users: 12, days: 6)
        // Lines as they are, a user written with escapes, a broken line, a redaction-stub-like line.
        var lines = written
        lines[3] = Array(String(decoding: lines[3], as: UTF8.self).replacingOccurrences(of: #""user":"u-"#, with: #""user":"u\u002d"#).utf8)
        lines[5] = Array(String(decoding: lines[5], as: UTF8.self).replacingOccurrences(of: #""seq":"#, with: #""seq":-"#).utf8)
        lines.append(Array(#"{"v":3,"seq":1,"id":"n-1","user":"u-10","prev":"x"}"#.utf8))
        lines.append(Array(#"{"v":1}"#.utf8))
        let users = Set(try written.compactMap { try LineCodec.decodeRecord($0).user }).sorted()
        #expect(users.count == 12)
        // Learners of the log and ids of the same length one byte off: first, middle or last byte.
        let wanted = users + ["v-10", "u_10", "u-19", "u-1", "x", ""]
        for user in wanted {
            let bytes = Array(user.utf8)
            for (k, line) in lines.enumerated() {
                var viaFilter: [Record] = [], viaUser: [Record] = []
                let (a, b) = line.withUnsafeBytes { raw -> (CheckedLine, CheckedLine) in
                    let scanned = ScannedLine(number: k + 1, offset: 0, length: raw.count, bytes: raw)
                    return (RecordFilter.none.check(scanned, hasher: IDHasher()) { viaFilter.append($0) },
                            RecordFilter.user(bytes).check(scanned, hasher: IDHasher()) { viaUser.append($0) })
                }
                #expect(viaFilter.isEmpty)
                #expect(a.seq == b.seq && a.id.text == b.id.text && a.prev == b.prev && a.digest == b.digest && a.idHash == b.idHash)
                #expect(b.hasRecord == !viaUser.isEmpty && a.isNewer == b.isNewer && a.isRedacted == b.isRedacted)
                #expect(a.problem.map { "\($0)" } == b.problem.map { "\($0)" }, "\(user) line \(k + 1)")
                // Kept exactly when the line is the learner's as decoded whole (or a newer-version line without a user).
                let whole: Record? = try? LineCodec.decodeRecord(line)
                let mine = whole.map { $0.user.map { Array($0.utf8) == bytes } ?? true } ?? false
                #expect(viaUser == (mine ? whole.map { [$0] } ?? [] : []), "\(user) line \(k + 1)")
            }
        }
    }
}
