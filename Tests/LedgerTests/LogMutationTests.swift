import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// Seeded mutations of whole logs (not single lines): bytes flipped, set,
/// inserted, deleted, ranges copied, lines removed, repeated, swapped or cut,
/// numbers rewritten, JSON tokens spliced in, the file truncated or extended.
/// Each mutated log is verified; verify must never crash or throw, and what it
/// reports must agree with where the log was changed:
///
/// - let d be the first complete line that differs from the original (or the
///   first missing one): every line before d is untouched, so the first
///   problem is never before d, and (a changed line d that is still valid
///   breaks the chain at d+1) never after d+1, except that lines added after
///   an untouched log are reported at N+1;
/// - verify passes only if the complete lines are the original's, a prefix of
///   them, or the original's with the last complete line changed into another
///   valid line (nothing follows it to break the chain); its count and head
///   are then those of the complete lines, and a torn tail is reported iff the
///   file does not end in LF;
/// - with `--expect-head` of the original head, verify passes only if the
///   complete lines are exactly the original ones; every other log gets a
///   problem: `head_mismatch` at line N when plain verify passed, or when its
///   problem lies after line N but line N changed; otherwise the same problem.
@Suite("Whole-log mutations")
struct LogMutationTests {
    /// The seeds and how many mutated logs each runs (2.5 mutations per log on average, 100,000 in all).
    static let runs: [(seed: UInt64, logs: Int)] = [(1, 10_200), (2, 10_200), (3, 10_200), (4, 10_200)]

    /// The logs mutated: a one-line log, a log with a newer-version line, and a mixed six-line log.
    static func baseLogs(in dir: TempDir) throws -> [[[UInt8]]] {
        var one = ChainBuilder()
        try one.event("only-1")
        var newer = try ChainBuilder.valid(2)
        newer.raw { seq, prev in #"{"v":3,"seq":\#(seq),"id":"n-1","prev":"\#(prev)","anything":{"new":[1,2.5,null]}}"# }
        try newer.event("e-4")

        let log = dir.file("mixed.log")
        let writer = try LedgerWriter(path: log)
        try writer.append([
            try Make.event(#"{"id":"m-1","at":"2025-10-21T08:15:00+03:00","user":"u-\u00fc\ud83d\ude42","device":"d\"1","type":"quiz.started","data":{"attempt":"a-1","quiz":"q","questions":3}}"#),
            try Make.event(#"{"id":"m-2","at":"2025-10-21T08:16:00.123456789+03:00","user":"u-1","type":"answer.selected","data":{"attempt":"a-1","question":"q1","choice":0,"correct":false,"correct_choice":2,"ms":900}}"#),
            try Make.event(#"{"id":"m-3","at":"2025-10-21T08:17:00+03:00","user":"u-1","type":"hint.used","data":{"attempt":"a-1","question":"q2","hint":"reveal"}}"#),
            try Make.event(#"{"id":"m-4","at":"2025-10-22T00:00:00-05:30","user":"u-1","type":"submission.made","data":{"content":"c","kind":"lesson","category":"math","answers":[{"question":"x","choice":1,"correct":true}]}}"#),
            try Make.event(#"{"id":"m-5","at":"2025-10-22T01:00:00Z","user":"u-2","type":"hints.granted","data":{"amount":3,"reason":"purchase"}}"#),
            try Make.event(#"{"id":"m-6","at":"2025-10-22T02:00:00Z","user":"u-2","type":"progress.reset","data":{"scope":"all"}}"#),
        ])
        return [one.lines, newer.lines, try Files.lines(log)]
    }

    /// Bytes that make interesting edits in JSON lines.
    static let interesting: [UInt8] = Array(#"{}[]":,\ 0123456789-.eE+tfnul"#.utf8) + [0x0A, 0x0D, 0x00, 0x09, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF, 0xEF, 0xBB, 0xBF]
    static let tokens: [String] = [",", ":", "{", "}", "[", "]", "\"", ",\"x\":1", "\"seq\":1,", "null", "1e999", "-0", "\\u0000",
                                   "\\ud800", "\u{FEFF}", "\r", "\n", "\n\n", ",\"id\":\"e-1\"", String(repeating: "[", count: 200), "9999999999999999999999"]

    /// One seeded mutation of `bytes`; returns its name.
    static func mutate(_ bytes: inout [UInt8], _ rng: inout SplitMix64) -> String {
        func pos(_ extra: Int = 0) -> Int { bytes.isEmpty ? 0 : Int.random(in: 0..<(bytes.count + extra), using: &rng) }
        func lineRanges() -> [Range<Int>] {
            var out: [Range<Int>] = []
            var start = 0
            for lf in Bytes.lineFeeds(bytes) { out.append(start..<(lf + 1)); start = lf + 1 }
            if start < bytes.count { out.append(start..<bytes.count) }
            return out
        }
        switch Int.random(in: 0..<14, using: &rng) {
        case 0:
            guard !bytes.isEmpty else { fallthrough }
            bytes[pos()] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            return "flip"
        case 1:
            guard !bytes.isEmpty else { fallthrough }
            bytes[pos()] = interesting.randomElement(using: &rng) ?? 0
            return "set"
        case 2:
            bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: pos(1))
            return "insert"
        case 3:
            guard !bytes.isEmpty else { fallthrough }
            let a = pos()
            bytes.removeSubrange(a..<min(bytes.count, a + Int.random(in: 1...16, using: &rng)))
            return "delete"
        case 4:
            guard !bytes.isEmpty else { fallthrough }
            let a = pos()
            let chunk = Array(bytes[a..<min(bytes.count, a + Int.random(in: 1...64, using: &rng))])
            bytes.insert(contentsOf: chunk, at: pos(1))
            return "copy-range"
        case 5:
            let lines = lineRanges()
            guard let r = lines.randomElement(using: &rng) else { fallthrough }
            bytes.removeSubrange(r)
            return "remove-line"
        case 6:
            let lines = lineRanges()
            guard let r = lines.randomElement(using: &rng) else { fallthrough }
            let copy = Array(bytes[r])
            let at = (lines.randomElement(using: &rng) ?? r).lowerBound
            bytes.insert(contentsOf: copy, at: at)
            return "repeat-line"
        case 7:
            let lines = lineRanges().filter { bytes[$0.upperBound - 1] == 0x0A }
            guard lines.count >= 2 else { fallthrough }
            let i = Int.random(in: 0..<(lines.count - 1), using: &rng)
            let a = Array(bytes[lines[i]]), b = Array(bytes[lines[i + 1]])
            bytes.replaceSubrange(lines[i].lowerBound..<lines[i + 1].upperBound, with: b + a)
            return "swap-lines"
        case 8:
            bytes.removeSubrange(pos(1)...)
            return "truncate"
        case 9:
            let n = Int.random(in: 1...40, using: &rng)
            bytes += (0..<n).map { _ in interesting.randomElement(using: &rng) ?? 0 }
            return "extend"
        case 10:
            // Rewrite a run of digits (a seq, a count, a time) as another number.
            var start = pos()
            while start < bytes.count, !(bytes[start] >= 0x30 && bytes[start] <= 0x39) { start += 1 }
            guard start < bytes.count else { fallthrough }
            var end = start
            while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
            let number = ["0", "1", "2", "7", "-1", "10", "00", "1.0", "1e0", "99999999999999999999"].randomElement(using: &rng) ?? "0"
            bytes.replaceSubrange(start..<end, with: Array(number.utf8))
            return "number"
        case 11:
            bytes.insert(contentsOf: Array((tokens.randomElement(using: &rng) ?? ",").utf8), at: pos(1))
            return "token"
        case 12:
            // Swap two bytes (often a quote with a letter).
            guard bytes.count >= 2 else { fallthrough }
            let a = pos(), b = pos()
            bytes.swapAt(a, b)
            return "swap-bytes"
        default:
            // Change the first character of a random string (an id, a user, a prev's first hex digit...).
            guard let quote = Bytes.index(of: 0x22, in: bytes, from: pos()), quote + 1 < bytes.count else {
                bytes.append(0x0A)
                return "lf"
            }
            bytes[quote + 1] = bytes[quote + 1] == 0x30 ? 0x31 : 0x30
            return "after-quote"
        }
    }

    @Test(arguments: LogMutationTests.runs.map(\.seed))
    func mutatedLogsAreReportedWhereTheyChanged(seed: UInt64) throws {
        let logs = LogMutationTests.runs.first { $0.seed == seed }?.logs ?? 0
        let dir = try TempDir("mutate")
        defer { dir.cleanup() }
        let bases = try LogMutationTests.baseLogs(in: dir)
        let scratch = try ScratchFile(dir.file("m.log"))
        var rng = SplitMix64(seed: seed)
        var mutations = 0
        var outcomes: [String: Int] = [:]
        var kinds: [String: Int] = [:]

        for iteration in 0..<logs {
            let original = bases[iteration % bases.count]
            let n = original.count
            let originalBytes: [UInt8] = original.flatMap { (line: [UInt8]) -> [UInt8] in line + [0x0A] }
            let head = Head(seq: n, sha256: SHA256.hash(original[n - 1]))
            var bytes = originalBytes
            var names: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) { names.append(LogMutationTests.mutate(&bytes, &rng)) }
            mutations += names.count
            try scratch.set(bytes)
            let label = "seed \(seed) log \(iteration) \(names)"

            // The complete lines, the tail, and the first line that differs.
            let (lines, start) = Bytes.lines(bytes)
            let tail = bytes.count - start
            let m = lines.count
            let d = (0..<min(m, n)).first { lines[$0] != original[$0] }.map { $0 + 1 } ?? (min(m, n) + 1)
            let unchanged = m == n && d == n + 1

            let report: VerifyReport
            do { report = try verify(path: scratch.path) } catch {
                Issue.record("\(label): verify threw \(error)")
                continue
            }
            if let p = report.problem {
                kinds[p.kind.rawValue, default: 0] += 1
                #expect(report.events == p.line - 1, "\(label): \(p)")
                if d > min(m, n) {
                    // The original lines are intact; lines were added after them.
                    #expect(m > n && p.line == n + 1, "\(label): \(p)")
                } else {
                    #expect(p.line == d || p.line == d + 1, "\(label): \(p) but the first changed line is \(d)")
                    if p.line == d + 1, d < m, d < n, lines[d] == original[d] {
                        #expect(p.kind == .brokenChain, "\(label): \(p)")
                    }
                }
                #expect(p.kind != .tornTail && p.kind != .headMismatch, "\(label): \(p)")
            } else {
                // Passing: the original, a prefix of it, or its last complete line changed into a valid one.
                #expect(d > min(m, n) ? m <= n : d == m, "\(label): verify passed a log changed at line \(d) of \(m)")
                #expect(report.events == m, "\(label)")
                #expect(report.head == (m == 0 ? Head.empty : Head(seq: m, sha256: SHA256.hash(lines[m - 1]))), "\(label)")
                #expect((report.summary.tornTail?.length ?? 0) == tail, "\(label)")
                #expect(report.summary.tornTail.map { $0.line == m + 1 && $0.offset == start } ?? true, "\(label)")
            }

            // With the kept head: passes only for the original lines.
            if report.isOK || iteration % 8 == 0 {
                let kept = try verify(path: scratch.path, expectHead: head)
                #expect(kept.isOK == unchanged, "\(label): \(String(describing: kept.problem))")
                if report.isOK && !unchanged {
                    #expect(kept.problem?.line == n && kept.problem?.kind == .headMismatch, "\(label): \(String(describing: kept.problem))")
                }
                if let p = report.problem {
                    // The head is checked when line N is reached: a problem before it comes first;
                    // one after it comes first only if lines 1...N are the original ones.
                    if p.line <= n || (m >= n && d > n) {
                        #expect(kept.problem == p, "\(label)")
                    } else {
                        #expect(kept.problem?.line == n && kept.problem?.kind == .headMismatch, "\(label): \(String(describing: kept.problem))")
                    }
                }
            }
            let outcome = unchanged ? "unchanged" : report.isOK ? (d > min(m, n) ? "prefix (kept head catches it)" : "last line edited (kept head catches it)") : "problem"
            outcomes[outcome, default: 0] += 1
        }
        #expect(mutations >= 25_000)
        print("log mutations (seed \(seed)): \(mutations) mutations in \(logs) logs: "
              + "\(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); problems by kind: "
              + "\(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    }
}
