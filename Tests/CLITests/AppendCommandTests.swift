import Foundation
import Testing

/// The corpus of bad lines shared with the Events tests.
enum BadLines {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let kind: String
        let member: String?
        let bytes: [UInt8]
        var testDescription: String { name }
    }

    static let all: [Case] = {
        let url = CLI.packageRoot.appendingPathComponent("Tests/EventsTests/Resources/bad-lines.jsonl")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { row in
            guard let o = try? JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any],
                  let name = o["case"] as? String, let kind = o["kind"] as? String else { return nil }
            var bytes: [UInt8] = []
            if let hex = o["hex"] as? String {
                let u = Array(hex.utf8)
                bytes = stride(from: 0, to: u.count, by: 2).compactMap { UInt8(String(decoding: u[$0..<$0 + 2], as: UTF8.self), radix: 16) }
            } else if let line = o["line"] as? String {
                bytes = Array(line.utf8)
            }
            return Case(name: name, kind: kind, member: o["member"] as? String, bytes: bytes)
        }
    }()
}

@Suite("progress-ledger append")
struct AppendCommandTests {
    static let valid = [
        #"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-42","type":"quiz.started","data":{"attempt":"a-1","quiz":"quran-basics","questions":5,"daily":true}}"#,
        #"{"at":"2025-10-21T08:16:10+03:00","user":"u-42","device":"phone","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference","note":{"k":[1,"é"]}}}"#,
        #"{"id":"e-3","at":"2025-10-21T08:16:40.5+03:00","user":"u-42","type":"hint.used","data":{"attempt":"a-1","question":"q2","hint":"fifty_fifty"}}"#,
    ]

    @Test("prints seq and id per event; the log passes Python's independent hash-chain and JSON check")
    func appendAndCheckIndependently() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("learner.log")
        let r = try CLI.run(["append", log], input: Self.valid.joined(separator: "\n") + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        let printed = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(printed.map { $0[0] } == ["1", "2", "3"])
        #expect(printed[0][1] == "e-1" && printed[2][1] == "e-3")
        #expect(printed[1][1].count == 36, "a UUID was made for the event without an id")

        let more = try CLI.run(["append", log, "--event",
                                #"{"id":"e-4","at":"2025-10-21T08:20:00+03:00","user":"u-42","type":"quiz.finished","data":{"attempt":"a-1"}}"#])
        #expect(more.stdout == "4 e-4\n")

        let check = """
            import hashlib, json, sys
            prev = "0" * 64
            order = ["v", "seq", "id", "at", "user", "device", "type", "data", "prev"]
            with open(sys.argv[1], "rb") as f:
                data = f.read()
            assert data.endswith(b"\\n"), "the log ends with LF"
            for n, line in enumerate(data.split(b"\\n")[:-1], start=1):
                obj = json.loads(line)
                assert obj["seq"] == n, (n, obj["seq"])
                assert obj["prev"] == prev, ("broken link at line", n)
                keys = [k for k in obj]
                assert keys == [k for k in order if k in obj], keys
                assert b" " not in line.replace(b'"Quran Basics"', b""), "compact form"
                prev = hashlib.sha256(line).hexdigest()
            print(n, prev)
            """
        let py = try CLI.python(check, [log])
        #expect(py.status == 0, "\(py.stderr)")
        let verify = try CLI.run(["verify", log])
        #expect(verify.status == 0)
        let pyHead = py.stdout.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: " ", with: ":")
        #expect(verify.stdout.contains("head \(pyHead)"), "verify and Python agree on the head: \(verify.stdout) vs \(pyHead)")
        #expect(dir.bytes("learner.log").count > 0)
        let mode = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("the same ids appended again write nothing and report the seqs they have")
    func idempotent() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("l.log")
        let input = Self.valid[0] + "\n" + Self.valid[2] + "\n"
        _ = try CLI.run(["append", log], input: input)
        let before = dir.bytes("l.log")
        let again = try CLI.run(["append", log], input: input)
        #expect(again.status == 0)
        #expect(again.stdout == "1 e-1\n2 e-3\n")
        #expect(again.stderr.contains("already in the log at seq 1"))
        #expect(dir.bytes("l.log") == before)
    }

    @Test("a bad line names the member and the rule, and the log stays byte-identical", arguments: BadLines.all)
    func refusesBadLine(_ bad: BadLines.Case) throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("l.log")
        _ = try CLI.run(["append", log], input: Self.valid[0] + "\n")
        let before = dir.bytes("l.log")
        // The bad line comes second, after a valid one: all or nothing.
        let input = Array((Self.valid[2] + "\n").utf8) + bad.bytes + [0x0A]
        let r = try CLI.run(["append", log], stdin: input)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let expected = "stdin:2: " + (bad.member.map { "\($0): " } ?? "\(bad.kind): ")
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stderr.contains("nothing was appended"))
        #expect(dir.bytes("l.log") == before)
    }

    @Test("every invalid event is listed, with its input line")
    func listsEveryProblem() throws {
        let dir = try TemporaryDirectory()
        let input = "{}\n" + Self.valid[0] + "\n[1]\n"
        let r = try CLI.run(["append", dir.path("l.log")], input: input)
        #expect(r.status == 1)
        #expect(r.stderr.contains("stdin:1: at: is required"))
        #expect(r.stderr.contains("stdin:3: not_object:"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("l.log")) || dir.bytes("l.log").isEmpty)
    }

    @Test("the same event twice within one batch is written once")
    func repeatedIDInBatch() throws {
        let dir = try TemporaryDirectory()
        let r = try CLI.run(["append", dir.path("l.log")], input: Self.valid[0] + "\n" + Self.valid[0] + "\n")
        #expect(r.status == 0)
        #expect(r.stdout == "1 e-1\n1 e-1\n", "\(r.stdout)")
        #expect(r.stderr.contains("id e-1 is already in the log at seq 1"), "\(r.stderr)")
    }

    @Test("usage errors exit 64", arguments: [["append"], ["append", "a.log", "b.log"], ["append", "a.log", "--bogus"]])
    func usage(_ args: [String]) throws {
        let r = try CLI.run(args, input: "")
        #expect(r.status == 64)
        #expect(r.stderr.contains("--help"))
    }

    @Test("--help describes the command")
    func help() throws {
        let r = try CLI.run(["append", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Usage: progress-ledger append LOG"))
    }
}
