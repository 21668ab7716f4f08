import Foundation
import Testing

@Suite("progress-ledger verify")
struct VerifyCommandTests {
    /// A log of `n` events written by `append`.
    static func makeLog(_ dir: TemporaryDirectory, events n: Int = 5) throws -> String {
        let log = dir.path("l.log")
        let input = (1...n).map {
            #"{"id":"e-\#($0)","at":"2025-10-21T08:\#(10 + $0):00+03:00","user":"u-1","type":"hints.granted","data":{"amount":\#($0),"reason":"seed"}}"#
        }.joined(separator: "\n")
        let r = try CLI.run(["append", log], input: input)
        #expect(r.status == 0)
        return log
    }

    static func lines(_ dir: TemporaryDirectory) -> [[UInt8]] {
        dir.bytes("l.log").split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }

    static func write(_ dir: TemporaryDirectory, _ lines: [[UInt8]], tail: [UInt8] = []) throws {
        let bytes = lines.flatMap { $0 + [0x0A] } + tail
        try Data(bytes).write(to: dir.url.appendingPathComponent("l.log"))
    }

    @Test("an intact log: count and head, exit 0")
    func intact() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.makeLog(dir)
        let r = try CLI.run(["verify", log])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("\(log): ok: 5 events, head 5:"))
    }

    @Test("an edited middle line is reported at the next line as broken_chain")
    func editedLine() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.makeLog(dir)
        var lines = Self.lines(dir)
        let text = String(decoding: lines[2], as: UTF8.self).replacingOccurrences(of: #""amount":3"#, with: #""amount":9"#)
        lines[2] = Array(text.utf8)
        try Self.write(dir, lines)
        let r = try CLI.run(["verify", log])
        #expect(r.status == 1)
        #expect(r.stdout.contains(": line 4: broken_chain: "), "\(r.stdout)")
    }

    @Test("a removed line is a seq gap where it was")
    func removedLine() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.makeLog(dir)
        var lines = Self.lines(dir)
        lines.remove(at: 1)
        try Self.write(dir, lines)
        let r = try CLI.run(["verify", log])
        #expect(r.status == 1)
        #expect(r.stdout.contains(": line 2: seq_gap: "), "\(r.stdout)")
    }

    @Test("a torn tail is a warning and exit 0")
    func tornTail() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.makeLog(dir)
        try Self.write(dir, Self.lines(dir), tail: Array(#"{"v":1,"seq":6,"id":"#.utf8))
        let r = try CLI.run(["verify", log])
        #expect(r.status == 0)
        #expect(r.stdout.contains("ok: 5 events"))
        #expect(r.stderr.contains("torn_tail"))
    }

    @Test("--expect-head: a kept head matches; a changed or missing line is head_mismatch")
    func expectHead() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.makeLog(dir)
        let first = try CLI.run(["verify", log])
        let head = try #require(first.stdout.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try CLI.run(["verify", log, "--expect-head", head]).status == 0)

        // Appending more keeps the old head valid.
        _ = try CLI.run(["append", log, "--event", #"{"at":"2025-10-22T08:00:00Z","user":"u-1","type":"progress.reset","data":{"scope":"all"}}"#])
        #expect(try CLI.run(["verify", log, "--expect-head", head]).status == 0)

        let seq = try #require(head.split(separator: ":").first)
        let wrong = "\(seq):" + String(repeating: "0", count: 64)
        let r = try CLI.run(["verify", log, "--expect-head", wrong])
        #expect(r.status == 1)
        #expect(r.stdout.contains(": line \(seq): head_mismatch: "))

        let beyond = try CLI.run(["verify", log, "--expect-head", "99:" + String(repeating: "a", count: 64)])
        #expect(beyond.status == 1)
        #expect(beyond.stdout.contains(": line 99: head_mismatch: "))

        // The empty log's head, as verify prints it for an empty log, holds for every log (a prefix of each);
        // seq 0 with any other hash names no log and is refused.
        let emptyLog = dir.path("empty.log")
        FileManager.default.createFile(atPath: emptyLog, contents: Data())
        let empty = try CLI.run(["verify", emptyLog])
        let emptyHead = try #require(empty.stdout.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Array(emptyHead.utf8) == Array(("0:" + String(repeating: "0", count: 64)).utf8), "\(empty.stdout)")
        #expect(try CLI.run(["verify", emptyLog, "--expect-head", emptyHead]).status == 0)
        #expect(try CLI.run(["verify", log, "--expect-head", emptyHead]).status == 0)
        let zeroSeq = try CLI.run(["verify", log, "--expect-head", "0:" + String(repeating: "a", count: 64)])
        #expect(zeroSeq.status == 64)
        #expect(zeroSeq.stderr.contains("--expect-head takes SEQ:SHA256"), "\(zeroSeq.stderr)")
    }

    @Test("a missing log, a directory and a bad --expect-head are clear errors")
    func errors() throws {
        let dir = try TemporaryDirectory()
        let missing = try CLI.run(["verify", dir.path("nope.log")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nope.log") && missing.stderr.contains("does not exist"))
        let directory = try CLI.run(["verify", dir.url.path])
        #expect(directory.status == 1)
        #expect(directory.stderr.contains("directory"))
        let bad = try CLI.run(["verify", dir.path("x.log"), "--expect-head", "seven"])
        #expect(bad.status == 64)
    }
}
