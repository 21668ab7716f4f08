import Events
import Foundation
import Testing
import Simulation
@testable import Ledger

/// The readers' id index keeps a hash of each id and reads the earlier line
/// back to confirm a match. Here the hash is narrowed so that ids collide
/// all the time: answers must stay exact (no false `duplicate_id`, every true
/// one at its line, naming the right earlier line).
@Suite("Reader id index (fingerprints confirmed from the file)")
struct IDFingerprintTests {
    /// Masks that force collisions: every id the same hash; 8 bits of hash;
    /// only the high half (every id in one segment and home slot, told
    /// apart by the stored bits); and the full hash.
    static let masks: [UInt64] = [0, 0xFF, 0xFFFF_FFFF_0000_0000, ~0]

    static func reader(_ path: String, mask: UInt64) -> LogReader {
        var reader = LogReader(path: path)
        reader.idHasher = IDHasher(mask: mask)
        return reader
    }

    /// How many lines a test can afford: with every id sharing one hash, each new id is compared with all before it.
    static func size(_ mask: UInt64) -> Int { mask == 0 ? 260 : 3_000 }

    /// A valid log of `n` events, line `later` (if any) repeating the id of line `earlier`.
    static func log(_ n: Int, repeating earlier: Int? = nil, at later: Int? = nil) throws -> ChainBuilder {
        var b = ChainBuilder()
        for k in 1...n { try b.event(k == later ? "e-\(earlier ?? 1)" : "e-\(k)") }
        return b
    }

    @Test("ids sharing a hash are told apart: no false duplicate", arguments: masks)
    func noFalseDuplicates(mask: UInt64) throws {
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        let n = Self.size(mask)
        let b = try Self.log(n)
        let path = dir.file("a.log")
        try Files.write(path, b.bytes)
        let reader = Self.reader(path, mask: mask)

        let report = try reader.verify()
        #expect(report.problem == nil, "\(String(describing: report.problem))")
        #expect(report.events == n)
        var ids: [String] = []
        let summary = try reader.read { ids.append($0.id) }.summary
        #expect(ids == (1...n).map { "e-\($0)" })
        #expect(summary == report.summary)
        var mine = 0
        try reader.read(.init(user: "u-1")) { _ in mine += 1 }
        #expect(mine == n)
        // An expected head checked on the way: a match, then a mismatch at a line whose id collides.
        #expect(try reader.verify(expectHead: report.head).problem == nil)
        let wrong = try #require(try reader.verify(expectHead: Head(seq: n / 2, sha256: .zero)).problem)
        #expect(wrong.line == n / 2 && wrong.kind == .headMismatch, "\(wrong)")
    }

    /// Pairs (earlier, later) around the every-64th-line marks the index keeps.
    static let pairs: [(Int, Int)] = [(1, 2), (1, 250), (63, 64), (64, 65), (65, 129), (128, 129), (129, 200), (199, 200)]

    @Test("a repeated id is duplicate_id at its line, naming the earlier line", arguments: masks, pairs)
    func trueDuplicate(mask: UInt64, pair: (Int, Int)) throws {
        let (earlier, later) = pair
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        let b = try Self.log(260, repeating: earlier, at: later)
        let path = dir.file("a.log")
        try Files.write(path, b.bytes)
        let reader = Self.reader(path, mask: mask)
        let expected = LineProblem(line: later, kind: .duplicateID, "id \"e-\(earlier)\" is already used by line \(earlier)")

        let report = try reader.verify()
        #expect(report.problem == expected)
        #expect(report.events == later - 1)
        let error = #expect(throws: LedgerError.self) { try reader.read { _ in } }
        #expect(error?.problem == expected)
        // The id check comes before the head check, as in the writer's exact index.
        #expect(try reader.verify(expectHead: Head(seq: later, sha256: .zero)).problem == expected)

        // The writer's chain (every id in memory) agrees.
        var chain = ChainState()
        var first: LineProblem? = nil
        for (k, line) in b.lines.enumerated() where first == nil {
            let outcome = line.withUnsafeBytes { bytes in
                chain.accept(ScannedLine(number: k + 1, offset: 0, length: bytes.count, bytes: bytes))
            }
            if case .failure(let problem) = outcome { first = problem }
        }
        #expect(first == expected)
    }

    @Test("a read resumed from a resume point finds a repeat within the tail, with its seq", arguments: [0, ~0] as [UInt64])
    func resumedRead(mask: UInt64) throws {
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        let b = try Self.log(240, repeating: 150, at: 230)
        let path = dir.file("a.log")
        try Files.write(path, b.lines[..<100].flatMap { $0 + [0x0A] })
        let reader = Self.reader(path, mask: mask)
        let first = try reader.scan(after: nil, .init(), tracking: true) { _ in }.get()
        #expect(first.summary.events == 100)

        // Lines 101...229: no repeat.
        try Files.append(path, b.lines[100..<229].flatMap { $0 + [0x0A] })
        let second = try reader.scan(after: first.resumePoint, .init(), tracking: true) { _ in }.get()
        #expect(second.linesRead == 129 && second.summary.events == 229)

        // Line 230 repeats line 150's id: both after the first resumePoint.
        try Files.append(path, b.lines[229...].flatMap { $0 + [0x0A] })
        let error = #expect(throws: LedgerError.self) { try reader.scan(after: first.resumePoint, .init(), tracking: true) { _ in } }
        #expect(error?.problem == LineProblem(line: 230, kind: .duplicateID, "id \"e-150\" is already used by line 150"))
    }

    @Test("seeded random logs: the first repeated id, wherever it is, as an independent count finds it")
    func randomLogs() throws {
        var random = SplitMix64(seed: 0x1D5)
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        for trial in 0..<12 {
            let mask = Self.masks[trial % Self.masks.count]
            let n = Int.random(in: 1...(mask == 0 ? 200 : 1_500), using: &random)
            // Ids from a pool a bit larger than the log: some logs repeat one, some do not.
            let pool = n + Int.random(in: 0...(n / 4 + 1), using: &random)
            var b = ChainBuilder()
            var seen: [String: Int] = [:]
            var expected: LineProblem? = nil
            for k in 1...n {
                let id = "r\(Int.random(in: 0..<pool, using: &random))"
                try b.event(id)
                if expected == nil, let j = seen[id] {
                    expected = LineProblem(line: k, kind: .duplicateID, "id \"\(id)\" is already used by line \(j)")
                }
                if seen[id] == nil { seen[id] = k }
            }
            let path = dir.file("r\(trial).log")
            try Files.write(path, b.bytes)
            let report = try Self.reader(path, mask: mask).verify()
            #expect(report.problem == expected, "trial \(trial), mask \(mask), \(n) lines")
            #expect(report.events == (expected.map { $0.line - 1 } ?? n))
        }
    }

    @Test("reading a line back: its id; a line that no longer decodes, or is gone, is an error")
    func earlierLines() throws {
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        let b = try ChainBuilder.valid(70)
        let path = dir.file("a.log")
        try Files.write(path, b.bytes)
        let system = System()
        let fd = try system.open(path, .read)
        defer { _ = system.close(fd) }
        let lines = EarlierLines(system: system, fd: fd, path: path)
        #expect(try lines.id(ofLine: 1, scanningFrom: 0, whereLine: 1).text == "e-1")
        #expect(try lines.id(ofLine: 64, scanningFrom: 0, whereLine: 1).text == "e-64")
        let offset65 = b.lines[..<64].reduce(0) { $0 + $1.count + 1 }
        #expect(try lines.id(ofLine: 70, scanningFrom: offset65, whereLine: 65).text == "e-70")

        // Line 2 rewritten while "the read" went on (same length, not an event any more).
        var bytes = b.bytes
        let start = b.lines[0].count + 1
        for k in start..<(start + b.lines[1].count) { bytes[k] = UInt8(ascii: "x") }
        try Files.write(path, bytes)
        let changed = #expect(throws: LedgerError.self) { try lines.id(ofLine: 2, scanningFrom: 0, whereLine: 1) }
        #expect(changed?.code == .damaged)
        #expect(changed?.message.hasPrefix("line 2 changed while the log was being read") == true, "\(String(describing: changed))")
        let gone = #expect(throws: LedgerError.self) { try lines.id(ofLine: 71, scanningFrom: offset65, whereLine: 65) }
        #expect(gone?.message.hasPrefix("line 71 changed while the log was being read") == true, "\(String(describing: gone))")
    }

    /// `line` with its `id` member's value written with a `\u` escape for its `-`.
    static func escapingID(_ line: [UInt8]) -> [UInt8] {
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: #""id":"e-"#) else { return line }
        return Array(text.replacingCharacters(in: range, with: #""id":"e\u002d"#).utf8)
    }

    @Test("an id written with escapes is the same id: a repeat either way is found, with the text as unescaped")
    func escapedIDs() throws {
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        for escapedFirst in [true, false] {
            var b = ChainBuilder()
            for k in 1...6 {
                try b.event(k == 5 ? "e-2" : "e-\(k)")
                // Line 2 or line 5 spells its id with an escape; the next line chains to these bytes.
                if (escapedFirst && k == 2) || (!escapedFirst && k == 5) { b.lines[k - 1] = Self.escapingID(b.lines[k - 1]) }
            }
            #expect(String(decoding: b.lines[escapedFirst ? 1 : 4], as: UTF8.self).contains(#""id":"e\u002d2""#))
            let path = dir.file("e\(escapedFirst).log")
            try Files.write(path, b.bytes)
            for mask in [0, ~0] as [UInt64] {
                let report = try Self.reader(path, mask: mask).verify()
                #expect(report.problem?.description == "line 5: duplicate_id: id \"e-2\" is already used by line 2", "\(String(describing: report.problem))")
            }
        }
    }

    @Test("past 65,536 ids (a second block of kept hash bits): a repeat is found, and no false one")
    func manyIDs() throws {
        let dir = try TempDir("fingerprints")
        defer { dir.cleanup() }
        let path = dir.file("many.log")
        // Written by Python (hashlib): 70,000 valid events, line 69,990 repeating line 66,000's id.
        let script = #"""
        import hashlib, sys
        prev = "0" * 64
        with open(sys.argv[1], "wb") as f:
            for k in range(1, 70001):
                ident = "e-66000" if k == 69990 else "e-%d" % k
                line = ('{"v":1,"seq":%d,"id":"%s","at":"2025-10-21T08:15:00+03:00","user":"u-%d","type":"hints.granted",'
                        '"data":{"amount":1,"reason":"seed"},"prev":"%s"}' % (k, ident, k % 7, prev)).encode()
                f.write(line + b"\n")
                prev = hashlib.sha256(line).hexdigest()
        """#
        let made = try run("/usr/bin/python3", ["-c", script, path])
        #expect(made.status == 0, "\(made.err)")
        let report = try Self.reader(path, mask: ~0).verify()
        #expect(report.problem?.description == "line 69990: duplicate_id: id \"e-66000\" is already used by line 66000",
                "\(String(describing: report.problem))")
        #expect(report.events == 69_989)
        // Cut before the repeat: no false duplicate among 69,989 ids.
        var lines = try Files.lines(path)
        lines.removeLast(lines.count - 69_989)
        try Files.write(path, lines.flatMap { $0 + [0x0A] })
        let intact = try Self.reader(path, mask: ~0).verify()
        #expect(intact.problem == nil && intact.events == 69_989)
    }
}
