import Events
import Foundation
import Testing
@testable import Ledger

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hostile logs, built on disk (the 2 GiB line as a sparse file).
enum Hostile {
    static let gib2 = 1 << 31

    /// A valid first line (seq 1), so the hostile line is line 2 where wanted.
    static func validLine(_ id: String = "ok-1") throws -> [UInt8] {
        var b = ChainBuilder()
        try b.event(id)
        return b.lines[0]
    }

    /// `before`, then a line of `length` bytes ("{" and zeros, sparse), LF, then `after`.
    static func hugeLine(_ path: String, length: Int, before: [UInt8] = [], after: [UInt8] = []) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let head = before + [UInt8(ascii: "{")]
        let tail = [UInt8(0x0A)] + after
        let start = before.count
        guard head.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, 0) }) == head.count,
              tail.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, off_t(start + length)) }) == tail.count
        else { throw CocoaError(.fileWriteUnknown) }
    }

    /// `[[[...]]]` or `{"a":{"a":...1...}}`, `depth` deep.
    static func nested(depth: Int, objects: Bool) -> [UInt8] {
        if objects {
            return Array(repeating: Array(#"{"a":"#.utf8), count: depth).flatMap { $0 } + [UInt8(ascii: "1")]
                + Array(repeating: UInt8(ascii: "}"), count: depth)
        }
        return Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
    }

    /// One line: an object of `members` distinct members (`"m0":0,"m1":0,...`), written by Python in chunks.
    static func manyMembers(_ path: String, members: Int) throws {
        let script = """
        import sys
        n = int(sys.argv[2])
        with open(sys.argv[1], "wb") as f:
            f.write(b"{")
            for start in range(0, n, 100000):
                f.write((("," if start else "") + ",".join('"m%d":0' % i for i in range(start, min(n, start + 100000)))).encode())
            f.write(b"}\\n")
        """
        let r = try run("/usr/bin/python3", ["-c", script, path, "\(members)"])
        guard r.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: r.err]) }
    }

    /// A valid `hints.granted` line at seq 1 whose data holds `extra` more members (kept and ignored, as the spec says).
    static func validLineWithExtraMembers(_ extra: Int, duplicateLast: Bool = false) -> [UInt8] {
        var s = #"{"v":1,"seq":1,"id":"big-1","at":"2025-10-21T10:00:00Z","user":"u-1","type":"hints.granted","data":{"amount":1,"reason":"grant""#
        s.reserveCapacity(extra * 12 + 200)
        for i in 0..<extra { s += #","m\#(i)":0"# }
        if duplicateLast { s += #","m0":1"# }
        s += #"},"prev":"\#(Envelope.genesis)"}"#
        return Array(s.utf8)
    }

    /// A line whose `member` holds a number of `digits` digits: "seq", "choice" (in data) or "extra" (an unknown data member).
    static func longNumber(in member: String, digits: Int) -> [UInt8] {
        let number = "1" + String(repeating: "0", count: digits - 1)
        let seq = member == "seq" ? number : "1"
        let choice = member == "choice" ? number : "1"
        let extra = member == "extra" ? #","extra":\#(number)"# : ""
        return Array(#"{"v":1,"seq":\#(seq),"id":"n-1","at":"2025-10-21T10:00:00Z","user":"u-1","type":"answer.selected","data":{"attempt":"a","question":"q","choice":\#(choice),"correct":true\#(extra)},"prev":"\#(Envelope.genesis)"}"#.utf8)
    }

    /// `count` blank lines after `before`.
    static func blankLines(_ path: String, count: Int, before: [UInt8] = []) throws {
        try Files.write(path, before + Array(repeating: 0x0A, count: count))
    }
}

/// Hostile input through the reader: each is refused (or, where the spec
/// allows it, accepted) with a clear message, without a crash or a stack
/// overflow, in bounded memory. Memory is measured in a child process,
/// `ledger-stress read` (the raw read, then the checked read), which prints
/// its own peak RSS (VmHWM; a parent's wait4 rusage would include the test
/// process's memory, which the child's maxrss inherits at exec), against the
/// same reader on a 5-line log.
@Suite("Hostile input: the reader", .serialized)
struct HostileInputTests {
    /// The reader may use at most this much more than on a 5-line log (one 1 MiB line buffer plus one line's parse tree).
    static let boundMiB = 32.0

    /// The peak RSS `ledger-stress read` printed, in MiB.
    static func peakMiB(_ r: MeasuredRun) -> Double? {
        guard let line = r.stdout.split(separator: "\n").first(where: { $0.hasPrefix("peak-rss-kib ") }),
              let kib = Double(line.dropFirst("peak-rss-kib ".count)) else { return nil }
        return kib / 1024
    }

    static let baselineMiB: Double = {
        guard let small = try? TempDir("hostile") else { return 0 }
        defer { small.cleanup() }
        guard (try? Files.write(small.file("small.log"), try ChainBuilder.valid(5).bytes)) != nil,
              let r = try? MeasuredRun.run(Products.ledgerStress, ["read", small.file("small.log")]) else { return 0 }
        return peakMiB(r) ?? 0
    }()

    /// Runs `ledger-stress read` on `path`; checks it did not crash and stayed within the bound; returns it.
    func readInChild(_ path: String, label: String) throws -> MeasuredRun {
        let baseline = HostileInputTests.baselineMiB
        #expect(baseline > 0, "no baseline")
        let r = try MeasuredRun.run(Products.ledgerStress, ["read", path])
        #expect(r.signal == nil, "\(label): the reader was killed by signal \(r.signal ?? 0): \(r.stderr)")
        let peak = try #require(HostileInputTests.peakMiB(r), "\(label): no peak RSS in \(r.stdout)")
        #expect(peak <= baseline + HostileInputTests.boundMiB, "\(label): peak RSS \(peak) MiB, baseline \(baseline) MiB")
        print("hostile reader: \(label): peak RSS \(String(format: "%.1f", peak)) MiB (a 5-line log: \(String(format: "%.1f", baseline)) MiB), "
              + "\(String(format: "%.2f", r.seconds)) s; \(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines).prefix(160))")
        return r
    }

    @Test func aLineOf2GiBIsSkippedNotBuffered() throws {
        let dir = try TempDir("hostile")
        defer { dir.cleanup() }
        let log = dir.file("huge.log")
        let first = try Hostile.validLine("ok-1")
        var b = ChainBuilder()
        try b.event("ok-1")
        try b.event("ok-2")  // decodes, though its seq is 2 and it is line 3: the scanner found its start after the huge line
        try Hostile.hugeLine(log, length: Hostile.gib2, before: first + [0x0A], after: b.lines[1] + [0x0A])

        var seen: [(Int, Int, Bool)] = []
        let summary = try LogReader(path: log).forEachLine { line in
            seen.append((line.number, line.length, (try? line.record.get()) != nil))
            if line.number == 2 {
                #expect(line.bytes.isEmpty)
                #expect(throws: EventError.self) { try line.record.get() }
                if case .failure(let e) = line.record { #expect(e.kind == .lineTooLong) }
            }
        }
        #expect(seen.map(\.0) == [1, 2, 3])
        #expect(seen.map(\.1) == [first.count, Hostile.gib2, b.lines[1].count])
        #expect(seen.map(\.2) == [true, false, true])
        #expect(summary.tornTail == nil)
        let report = try verify(path: log)
        #expect(report.problem?.description == "line 2: line_too_long: the line is \(Hostile.gib2) bytes; at most 1048576 are allowed")
        #expect(report.events == 1)

        let r = try readInChild(log, label: "2 GiB line")
        #expect(r.exitCode == 1)
        #expect(r.stdout.hasPrefix("lines 3 undecodable 1 torn 0"))
        #expect(r.stderr.contains("line 2: line_too_long: the line is 2147483648 bytes"))
        // The same bytes without the final LF: a 2 GiB torn tail, a warning only.
        try Files.write(log, first + [0x0A, UInt8(ascii: "{")])
        #expect(truncate(log, off_t(first.count + 1 + Hostile.gib2)) == 0)
        let torn = try verify(path: log)
        #expect(torn.isOK && torn.events == 1)
        #expect(torn.warnings.first?.description.hasPrefix("line 2: torn_tail: \(Hostile.gib2) bytes after the last LF") == true)
    }

    @Test(arguments: [false, true])
    func nesting100000DeepIsRefusedWithoutRecursion(objects: Bool) throws {
        let dir = try TempDir("hostile")
        defer { dir.cleanup() }
        let log = dir.file("deep.log")
        let line = Hostile.nested(depth: 100_000, objects: objects)
        #expect(line.count < LineCodec.maxLineLength)
        try Files.write(log, line + [0x0A])
        let report = try verify(path: log)
        let column = objects ? 5 * 128 + 1 : 129
        #expect(report.problem?.description == "line 1: not_json: nested deeper than 128 levels (column \(column))")
        var lines = 0
        try LogReader(path: log).forEachLine { l in
            lines += 1
            if case .failure(let e) = l.record { #expect(e.kind == .notJSON) } else { Issue.record("decoded") }
        }
        #expect(lines == 1)
        let r = try readInChild(log, label: "JSON nested 100,000 deep (\(objects ? "objects" : "arrays"))")
        #expect(r.exitCode == 1 && r.stderr.contains("nested deeper than 128 levels"))
    }

    @Test func tenMillionMembersIsTooLongAndAMiBOfMembersStaysBounded() throws {
        let dir = try TempDir("hostile")
        defer { dir.cleanup() }
        let log = dir.file("members.log")
        try Hostile.manyMembers(log, members: 10_000_000)
        let size = try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? 0
        #expect(size > 100_000_000)
        let report = try verify(path: log)
        #expect(report.problem?.description == "line 1: line_too_long: the line is \(size - 1) bytes; at most 1048576 are allowed")
        let r = try readInChild(log, label: "an object of 10,000,000 members (\(size >> 20) MiB line)")
        #expect(r.exitCode == 1 && r.stderr.contains("line_too_long"))

        // The most members a line can hold: kept and ignored in data, as the spec says; with one repeated, refused.
        let big = Hostile.validLineWithExtraMembers(85_000)
        #expect(big.count <= LineCodec.maxLineLength)
        try Files.write(log, big + [0x0A])
        let ok = try verify(path: log)
        #expect(ok.isOK && ok.events == 1, "\(String(describing: ok.problem))")
        let rb = try readInChild(log, label: "a valid 1 MiB line with 85,002 data members")
        #expect(rb.exitCode == 0 && rb.stdout.contains("events 1 head 1:"))
        try Files.write(log, Hostile.validLineWithExtraMembers(85_000, duplicateLast: true) + [0x0A])
        let dup = try #require(try verify(path: log).problem)
        #expect(dup.line == 1 && dup.kind == .format(.duplicateMember), "\(dup)")
        #expect(dup.detail.contains("m0"))
    }

    @Test func aNumberOf10000Digits() throws {
        let dir = try TempDir("hostile")
        defer { dir.cleanup() }
        let log = dir.file("number.log")
        let cases: [(String, LineProblem.Kind?, String)] = [
            ("seq", .format(.invalidEnvelope), "seq"),
            ("choice", .format(.invalidData), "data.choice"),
            ("extra", nil, ""),  // an unknown data member: kept as written, never converted
        ]
        for (member, kind, path) in cases {
            try Files.write(log, Hostile.longNumber(in: member, digits: 10_000) + [0x0A])
            let report = try verify(path: log)
            if let kind {
                let p = try #require(report.problem)
                #expect(p.line == 1 && p.kind == kind && p.detail.hasPrefix(path + ": "), "\(p)")
                #expect(p.description.count < 400, "the message should not echo 10,000 digits: \(p.description.count) characters")
            } else {
                #expect(report.isOK, "\(String(describing: report.problem))")
                // The number survives a round trip exactly.
                var kept: Record? = nil
                try LogReader(path: log).read { kept = $0 }
                if case .event(let e)? = kept {
                    #expect(LineCodec.encode(e) == Hostile.longNumber(in: member, digits: 10_000))
                } else { Issue.record("not read back") }
            }
            let r = try readInChild(log, label: "a 10,000-digit number in \(member)")
            #expect(r.exitCode == (kind == nil ? 0 : 1))
        }
    }

    @Test func aMillionBlankLines() throws {
        let dir = try TempDir("hostile")
        defer { dir.cleanup() }
        let log = dir.file("blank.log")
        try Hostile.blankLines(log, count: 1_000_000)
        #expect(try verify(path: log).problem?.description == "line 1: blank_line: the line is empty")
        // The raw read hands out all 1,000,000 (each a blank_line), in the child.
        let r = try readInChild(log, label: "1,000,000 blank lines")
        #expect(r.exitCode == 1 && r.stdout.hasPrefix("lines 1000000 undecodable 1000000 torn 0"))

        try Hostile.blankLines(log, count: 1_000_000, before: try Hostile.validLine() + [0x0A])
        #expect(try verify(path: log).problem?.description == "line 2: blank_line: the line is empty")
    }
}
