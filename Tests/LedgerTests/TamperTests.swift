import Events
import Foundation
import Testing
@testable import Ledger

/// Changes each byte of a small log in turn, to several values, and checks
/// that `verify` reports the change at exactly the line the chain says.
///
/// What "the right line" is, for a change that lands in line k (or in the LF
/// that ends it), with the log's lines L1...LN:
///
/// - line k no longer decodes (not JSON, a bad envelope or data, a CR, bad
///   UTF-8, a blank line when the first byte becomes an LF, or two lines
///   merged when its LF changes): the problem is at line k, with exactly the
///   kind and detail the line decoder gives for the changed line;
/// - it decodes but its `seq` is not k: `seq_gap` at line k; its `prev` is
///   not the hash of line k-1: `broken_chain` at line k; its `id` is taken
///   by an earlier line: `duplicate_id` at line k;
/// - it is still a valid line k (a changed answer, user, time, id...):
///   `broken_chain` at line k+1, whose `prev` no longer matches;
/// - for the last line, that valid change leaves the chain intact (nothing
///   follows it), so `verify` passes with the changed line's hash as head:
///   only `--expect-head N:SHA` with the head kept before catches it, as
///   `head_mismatch` at line N. The same holds when the last LF changes: the
///   last line becomes a torn tail (a warning), and `--expect-head` reports
///   line N missing.
///
/// So with `--expect-head` of the untouched log's head, every single-byte
/// change of the log is reported, and never at a line before the change.
@Suite("Tamper detection")
struct TamperTests {
    /// The values each byte is changed to (those equal to the byte are skipped).
    static func values(for byte: UInt8) -> [UInt8] {
        let candidates: [UInt8] = [byte ^ 0x01, byte ^ 0x20, 0x0A, 0x22, 0x30, 0x20, 0x00, 0xFF]
        var out: [UInt8] = []
        for c in candidates where c != byte && !out.contains(c) { out.append(c) }
        return out
    }

    /// What verify must report for `mutated`, from the original lines, worked out line by line as above.
    static func expected(original: [[UInt8]], mutated: [UInt8], expectHead: Bool) -> (problem: LineProblem?, events: Int, tornTail: Bool) {
        let n = original.count
        let (lines, start) = Bytes.lines(mutated)
        let hasTail = start < mutated.count
        let m = lines.count
        let d = (0..<min(m, n)).first { lines[$0] != original[$0] }.map { $0 + 1 } ?? (min(m, n) + 1)
        let headSHA = SHA256.hash(original[n - 1]).hex

        if d > min(m, n) {
            // Only possible here when the last LF changed: line N is now a torn tail.
            precondition(m == n - 1 && hasTail)
            if expectHead {
                return (LineProblem(line: n, kind: .headMismatch,
                                    "the log has only \(m) line\(m == 1 ? "" : "s"), so line \(n) (expected to hash to \(headSHA)) is missing"), m, false)
            }
            return (nil, m, true)
        }
        let line = lines[d - 1]
        let record: Record
        do {
            record = try LineCodec.decodeRecord(line)
        } catch {
            return (LineProblem(line: d, error), d - 1, false)
        }
        let prev = d == 1 ? Envelope.genesis : SHA256.hash(original[d - 2]).hex
        if record.seq != d {
            return (LineProblem(line: d, kind: .seqGap, "seq is \(record.seq), expected \(d) (line n must have seq n)"), d - 1, false)
        }
        if record.prev != prev {
            let detail = d == 1 ? "prev is \(record.prev), but the first line's prev must be 64 zeros"
                                : "prev is \(record.prev), but line \(d - 1) hashes to \(prev)"
            return (LineProblem(line: d, kind: .brokenChain, detail), d - 1, false)
        }
        let earlierIDs = try? original[0..<(d - 1)].map { try LineCodec.decodeRecord($0).id }
        if let k = earlierIDs?.firstIndex(of: record.id) {
            return (LineProblem(line: d, kind: .duplicateID, "id \"\(record.id)\" is already used by line \(k + 1)"), d - 1, false)
        }
        // A valid line d, but not the original one.
        let changedSHA = SHA256.hash(line).hex
        if d < m {
            return (LineProblem(line: d + 1, kind: .brokenChain, "prev is \(SHA256.hash(original[d - 1]).hex), but line \(d) hashes to \(changedSHA)"), d, false)
        }
        if expectHead {
            return (LineProblem(line: n, kind: .headMismatch,
                                "line \(n) hashes to \(changedSHA), not the expected \(headSHA): the log changed at or before this line"), n - 1, false)
        }
        return (nil, m, hasTail)
    }

    /// A small log written by the ledger: three events of different types, with a device, escapes and non-ASCII text.
    static func smallLog(in dir: TempDir) throws -> String {
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append([
            try Make.event(#"{"id":"e-1","at":"2025-10-21T08:15:00+03:00","user":"u-42","device":"ios-\u00e9","type":"quiz.started","data":{"attempt":"a-1","quiz":"q \"one\"","questions":5,"daily":true}}"#),
            try Make.event(#"{"id":"e-2","at":"2025-10-21T08:16:10.5+03:00","user":"u-42","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":1,"correct":true,"skill":"inference"}}"#),
            try Make.event(#"{"id":"e-3","at":"2025-10-21T05:20:00Z","user":"u-42","type":"puzzle.completed","data":{"puzzle":"p-1","encoding":"caesar","seconds":12.5}}"#),
        ])
        return log
    }

    @Test func everyByteOfASmallLogChangedToSeveralValues() throws {
        let dir = try TempDir("tamper")
        defer { dir.cleanup() }
        let log = try TamperTests.smallLog(in: dir)
        let original = try Files.bytes(log)
        let lines = try Files.lines(log)
        let n = lines.count
        let head = try verify(path: log).head
        #expect(head == Head(seq: n, sha256: SHA256.hash(lines[n - 1])))
        let target = dir.file("t.log")
        let scratch = try ScratchFile(target)

        // The line each byte is in (its LF counts as part of it).
        var lineOfByte: [Int] = []
        for (k, line) in lines.enumerated() { lineOfByte += Array(repeating: k + 1, count: line.count + 1) }
        var changes = 0
        var byKind: [String: Int] = [:]
        var passedWithoutHead = 0
        for position in original.indices {
            for value in TamperTests.values(for: original[position]) {
                var mutated = original
                mutated[position] = value
                try scratch.set(mutated)
                changes += 1
                let label = "byte \(position) (\(original[position])) -> \(value)"

                let plain = try verify(path: target)
                let want = TamperTests.expected(original: lines, mutated: mutated, expectHead: false)
                #expect(plain.problem == want.problem, "\(label)")
                #expect(plain.events == want.events, "\(label)")
                #expect((plain.summary.tornTail != nil) == want.tornTail, "\(label)")
                if plain.isOK {
                    passedWithoutHead += 1
                    // Only a change in the last line (or its LF) can pass plain verify.
                    #expect(position >= original.count - lines[n - 1].count - 1, "\(label)")
                }

                let kept = try verify(path: target, expectHead: head)
                let wantKept = TamperTests.expected(original: lines, mutated: mutated, expectHead: true)
                #expect(kept.problem == wantKept.problem, "\(label)")
                #expect(!kept.isOK, "\(label): a changed log verified against the kept head")
                if let p = kept.problem {
                    // Never before the line the changed byte is in.
                    #expect(p.line >= lineOfByte[position] && p.line <= lineOfByte[position] + 1, "\(label): \(p)")
                    byKind[p.kind.rawValue, default: 0] += 1
                }
            }
        }
        #expect(changes > 3000)
        #expect(passedWithoutHead > 0)  // the last line's valid edits: why --expect-head exists
        print("tamper: \(changes) single-byte changes of a \(original.count)-byte, \(n)-line log; all reported with --expect-head "
              + "(\(byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
              + "\(passedWithoutHead) pass plain verify (all in the last line or its LF)")
    }

    /// Whole lines removed, swapped or repeated: reported where the order first differs,
    /// or (the last line removed) by the kept head only.
    @Test func removedAndReorderedLinesAreReportedWhereTheyHappen() throws {
        let dir = try TempDir("tamper")
        defer { dir.cleanup() }
        let log = try TamperTests.smallLog(in: dir)
        let lines = try Files.lines(log)
        let head = try verify(path: log).head
        let target = dir.file("t.log")
        // Every removal of one line, every swap of two lines, every line duplicated after itself.
        var variants: [[[UInt8]]] = []
        for k in lines.indices { var v = lines; v.remove(at: k); variants.append(v) }
        for a in lines.indices { for b in lines.indices where a < b { var v = lines; v.swapAt(a, b); variants.append(v) } }
        for k in lines.indices { var v = lines; v.insert(lines[k], at: k + 1); variants.append(v) }
        for v in variants {
            let bytes: [UInt8] = v.flatMap { (line: [UInt8]) -> [UInt8] in line + [0x0A] }
            try Files.write(target, bytes)
            let first = (0..<min(v.count, lines.count)).first { v[$0] != lines[$0] }.map { $0 + 1 } ?? (min(v.count, lines.count) + 1)
            let report = try verify(path: target, expectHead: head)
            let problem = try #require(report.problem)
            if first <= v.count {
                // A moved line keeps its own seq: seq_gap exactly where the order first differs.
                #expect(problem.line == first && problem.kind == .seqGap, "\(problem)")
            } else {
                // The last line removed: the chain is intact, the kept head is missing.
                #expect(problem.line == lines.count && problem.kind == .headMismatch, "\(problem)")
                #expect(try verify(path: target).isOK)
            }
        }
    }
}
