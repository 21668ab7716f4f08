import Events
import Foundation
import Testing
@testable import Ledger

/// Checks written logs with tools that share no code with the ledger:
/// Python's `json` and `hashlib`, and coreutils `sha256sum`.
@Suite("Independent check")
struct IndependentCheckTests {
    @Test func pythonAgreesWithEveryLinkAndTheHead() throws {
        let dir = try TempDir("python")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        // Strings that need escaping, non-ASCII text, optional members, many types.
        let events = try [
            Make.event(#"{"id":"q-1","at":"2025-10-21T23:55:12.120+03:00","user":"Zoë \"the\" learner\\","device":"ipad/7","type":"quiz.started","data":{"attempt":"a-1","quiz":"Daily — 日本語 🎌","questions":3,"daily":true,"title":"tab\there"}}"#),
            Make.event(#"{"at":"2025-10-22T00:01:00Z","user":"Zoë \"the\" learner\\","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":0,"correct":false,"extra":{"nested":[1,2.5e3,null,true]}}}"#),
            Make.event(#"{"id":"s-1","at":"2025-10-22T00:02:00-07:00","user":"u-2","type":"submission.made","data":{"content":"lesson-1","kind":"lesson","category":"math","answers":[{"question":"a","choice":1,"correct":true},{"question":"b","choice":2,"correct":false,"skill":"fractions"}]}}"#),
            Make.event(#"{"id":"p-1","at":"2025-10-22T00:03:00Z","user":"u-2","type":"puzzle.completed","data":{"puzzle":"c-9","encoding":"caesar","seconds":12.75}}"#),
            Make.event(#"{"id":"h-1","at":"2025-10-22T00:04:00Z","user":"u-2","type":"hints.granted","data":{"amount":3,"reason":"purchase"}}"#),
        ]
        try writer.append(events)
        for k in 0..<20 { try writer.append(try Make.answers((k * 5 + 1)...(k * 5 + 5))) }
        let python = try pythonCheck(log)
        #expect(python.status == 0, "\(python.out)\(python.err)")
        #expect(python.out == "ok 105 \(writer.head.sha256.hex)\n")

        // sha256sum of each line equals the next line's prev.
        let lines = try Files.lines(log)
        var paths: [String] = []
        for (k, line) in lines.enumerated() {
            let p = dir.file("line-\(k)")
            try Files.write(p, line)
            paths.append(p)
        }
        let sums = try run("/usr/bin/sha256sum", paths).out.split(separator: "\n").map { String($0.prefix(64)) }
        #expect(sums.count == lines.count)
        var prevs: [String] = []
        try LogReader(path: log).read { prevs.append($0.prev) }
        #expect(Array(prevs.dropFirst()) == Array(sums.dropLast()))
        #expect(sums.last == writer.head.sha256.hex)
    }

    @Test func pythonSeesTheBreakVerifyReports() throws {
        let dir = try TempDir("python")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        try LedgerWriter(path: log).append(try Make.answers(1...4))
        var lines = try Files.lines(log)
        lines[1] = Array(String(decoding: lines[1], as: UTF8.self).replacingOccurrences(of: "q2", with: "q9").utf8)
        try Files.write(log, lines.flatMap { $0 + [0x0A] })
        let python = try pythonCheck(log)
        #expect(python.status == 1)
        #expect(python.out.hasPrefix("line 3: prev"))
        #expect(try verify(path: log).problem?.description.hasPrefix("line 3: broken_chain") == true)
    }
}
