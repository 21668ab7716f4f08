import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

/// Reading only the tail after a resume point, on real files: what is read,
/// what is refused, and that the result always equals a full read.
@Suite("Checkpointed reads")
struct SnapshotReadTests {
    /// A log of `n` valid lines in a fresh directory, and its resume point from a full read.
    struct Fixture {
        let dir: TempDir
        let log: String
        var chain: ChainBuilder

        init(_ n: Int) throws {
            dir = try TempDir("snapshot-read")
            log = dir.file("a.log")
            chain = try ChainBuilder.valid(n)
            try Files.write(log, chain.bytes)
        }

        /// Appends `n` more valid lines.
        mutating func append(_ n: Int, prefix: String = "e-") throws {
            let before = chain.lines.count
            for k in (before + 1)...(before + n) { try chain.event("\(prefix)\(k)") }
            try Files.append(log, chain.lines[before...].flatMap { $0 + [0x0A] })
        }

        /// A read after `resumePoint` that collects the seqs it is given.
        func read(after resumePoint: ResumePoint?) throws -> (Result<LogReader.Scanned, SnapshotRejection>, [Int]) {
            var seqs: [Int] = []
            let result = try LogReader(path: log).scan(after: resumePoint, .init(), tracking: true) { seqs.append($0.seq) }
            return (result, seqs)
        }

        /// The resume point and summary of a full read.
        func full() throws -> LogReader.Scanned {
            try read(after: nil).0.get()
        }
    }

    /// Changes the question id in an answer line (`"q7"` to `"Q7"`): still valid, other bytes.
    static func editQuestion(_ line: inout [UInt8]) throws {
        let at = try #require(line.indices.first { $0 >= 2 && line[$0 - 2] == UInt8(ascii: ":") && line[$0 - 1] == UInt8(ascii: "\"") && line[$0] == UInt8(ascii: "q") })
        line[at] = UInt8(ascii: "Q")
    }

    func rejection(_ result: Result<LogReader.Scanned, SnapshotRejection>) -> SnapshotRejection? {
        if case .failure(let r) = result { return r }
        return nil
    }

    @Test("a full read with no resumePoint: every record, the summary of read, a resume point at the end")
    func fullRead() throws {
        let f = try Fixture(12)
        defer { f.dir.cleanup() }
        let (result, seqs) = try f.read(after: nil)
        let read = try result.get()
        #expect(seqs == Array(1...12))
        #expect(read.summary == (try LogReader(path: f.log).read { _ in }.summary))
        #expect(read.linesRead == 12)
        #expect(read.resumePoint.offset == f.chain.bytes.count)
        #expect(read.resumePoint.head == Head(seq: 12, sha256: SHA256.hash(f.chain.lines[11])))
        #expect(read.resumePoint.ids.count == 12)
        let status = try System().lstat(f.log)
        #expect(read.resumePoint.file == FileIdentity(device: status.device, inode: status.inode))
    }

    @Test("appended lines: only they are read, and the result equals a full read", arguments: [1, 7, 300])
    func appendedTailOnly(added: Int) throws {
        var f = try Fixture(40)
        defer { f.dir.cleanup() }
        let first = try f.full()
        try f.append(added)
        let (result, seqs) = try f.read(after: first.resumePoint)
        let warm = try result.get()
        #expect(seqs == Array(41...(40 + added)))          // the callback never saw lines 1...40
        #expect(warm.linesRead == added)
        let cold = try f.full()
        #expect(warm.summary == cold.summary)
        #expect(warm.resumePoint == cold.resumePoint)         // same offset, head and id digests
        // And once more from the new resumePoint: nothing new, nothing read.
        let (again, none) = try f.read(after: warm.resumePoint)
        let unchanged = try again.get()
        #expect(none.isEmpty && unchanged.linesRead == 0 && unchanged.resumePoint == cold.resumePoint)
    }

    @Test("an empty log's resumePoint resumes at byte 0")
    func emptyLog() throws {
        var f = try Fixture(1)
        defer { f.dir.cleanup() }
        try Files.write(f.log, [])
        f.chain = ChainBuilder()
        let empty = try f.full()
        #expect(empty.resumePoint.offset == 0 && empty.resumePoint.head == .empty && empty.summary.events == 0)
        try f.append(3)
        let (result, seqs) = try f.read(after: empty.resumePoint)
        #expect(seqs == [1, 2, 3])
        #expect(try result.get().linesRead == 3)
    }

    @Test("a truncated log is refused before anything is read")
    func truncated() throws {
        var f = try Fixture(10)
        defer { f.dir.cleanup() }
        let first = try f.full()
        let keep = f.chain.lines[..<6].reduce(0) { $0 + $1.count + 1 }
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: f.log))
        try h.truncate(atOffset: UInt64(keep))
        try h.close()
        let (result, seqs) = try f.read(after: first.resumePoint)
        #expect(seqs.isEmpty)
        #expect(rejection(result)?.reason == .truncated)
        #expect(rejection(result)?.message == "\(f.log) is \(keep) bytes, shorter than the \(first.resumePoint.offset) bytes the snapshot covers (up to line 10): the log was truncated")
        // Truncated and appended again past the old size: the head line is no longer there.
        f.chain.lines.removeLast(4)
        try f.append(6, prefix: "other-")
        let (again, _) = try f.read(after: first.resumePoint)
        #expect(rejection(again)?.reason == .headMismatch)
    }

    @Test("an edited head line is refused: same length, and shifted by an edit before it")
    func editedHead() throws {
        let f = try Fixture(8)
        defer { f.dir.cleanup() }
        let first = try f.full()
        var bytes = f.chain.bytes
        // Same length: "correct":true -> "correct":fals (still 8 lines, the LF in place).
        let end = bytes.count - 1
        let at = try #require((0..<end).last { bytes[$0] == UInt8(ascii: "1") })
        bytes[at] = UInt8(ascii: "2")
        try Files.write(f.log, bytes)
        let (edited, seqs) = try f.read(after: first.resumePoint)
        #expect(seqs.isEmpty)
        #expect(rejection(edited)?.reason == .headMismatch)
        #expect(rejection(edited)?.message.hasPrefix("the line of \(f.log) that ends at byte \(first.resumePoint.offset) hashes to ") == true)
        // One byte inserted in line 3: no line ends where the head did.
        var shifted = f.chain.lines
        shifted[2].insert(UInt8(ascii: " "), at: 1)
        try Files.write(f.log, shifted.flatMap { $0 + [0x0A] }.dropLast())   // keep the size: drop the last LF
        let (moved, _) = try f.read(after: first.resumePoint)
        #expect(rejection(moved)?.reason == .headMismatch)
        #expect(rejection(moved)?.message == "no line of \(f.log) ends at byte \(first.resumePoint.offset), where the snapshot's head (line 8) ended: the log was edited or rewritten")
    }

    @Test("a damaged tail line is refused like a full read: the same error, verify's message")
    func damagedTail() throws {
        var f = try Fixture(20)
        defer { f.dir.cleanup() }
        let first = try f.full()
        try f.append(5)
        // Change line 23's bytes: line 24's prev no longer matches (broken_chain at line 24).
        var lines = f.chain.lines
        try Self.editQuestion(&lines[22])
        try Files.write(f.log, lines.flatMap { $0 + [0x0A] })
        let full = #expect(throws: LedgerError.self) { try LogReader(path: f.log).read { _ in } }
        let warm = #expect(throws: LedgerError.self) { _ = try f.read(after: first.resumePoint) }
        #expect(warm?.code == .damaged && warm?.problem?.kind == .brokenChain && warm?.problem?.line == 24)
        #expect(warm?.description == full?.description)
        #expect(warm?.problem == (try verify(path: f.log)).problem)
        // A seq gap and a bad line in the tail, likewise.
        for damage in [Array(#"{"v":1,"seq":99}"#.utf8), Array("not json".utf8)] {
            var bad = f.chain.lines
            bad[21] = damage
            try Files.write(f.log, bad.flatMap { $0 + [0x0A] })
            let w = #expect(throws: LedgerError.self) { _ = try f.read(after: first.resumePoint) }
            #expect(w?.problem == (try verify(path: f.log)).problem)
        }
    }

    @Test("a replaced log (same bytes, new inode) is refused")
    func replaced() throws {
        let f = try Fixture(6)
        defer { f.dir.cleanup() }
        let first = try f.full()
        let copy = f.dir.file("copy.log")
        try Files.write(copy, f.chain.bytes)
        #expect(rename(copy, f.log) == 0)
        let (result, seqs) = try f.read(after: first.resumePoint)
        #expect(seqs.isEmpty)
        #expect(rejection(result)?.reason == .otherFile)
        #expect(rejection(result)?.message.contains("is not the file the snapshot was made from") == true)
        // A log renamed (same inode) is the same file.
        let moved = f.dir.file("moved.log")
        #expect(rename(f.log, moved) == 0)
        let reader = LogReader(path: moved)
        let second = try reader.scan(after: try reader.scanWhole(.init(), tracking: true) { _ in }.resumePoint, .init(), tracking: true) { _ in }
        #expect(try second.get().linesRead == 0)
    }

    @Test("a tail id that repeats an id before the head is handed to a full read, which reports duplicate_id")
    func repeatedID() throws {
        var f = try Fixture(10)
        defer { f.dir.cleanup() }
        let first = try f.full()
        try f.chain.event("e-3")                      // a valid line but for its id, appended by hand
        try Files.append(f.log, f.chain.lines[10] + [0x0A])
        let (result, _) = try f.read(after: first.resumePoint)
        #expect(rejection(result)?.reason == .repeatedID)
        #expect(rejection(result)?.message == "line 11 of \(f.log) has id \"e-3\", which may repeat an id before the snapshot's head (line 10); only a full read can tell")
        let full = #expect(throws: LedgerError.self) { _ = try f.read(after: nil) }
        #expect(full?.problem?.kind == .duplicateID && full?.problem?.line == 11)
        // A repeat within the tail is damage found by the resumed read itself.
        var g = try Fixture(4)
        defer { g.dir.cleanup() }
        let start = try g.full()
        try g.chain.event("t-1")
        try g.chain.event("t-1")
        try Files.append(g.log, g.chain.lines[4...].flatMap { $0 + [0x0A] })
        let within = #expect(throws: LedgerError.self) { _ = try g.read(after: start.resumePoint) }
        #expect(within?.problem == (try verify(path: g.log)).problem)
    }

    @Test("what a resumed read does not re-check: a chain-breaking edit before the head (verify finds it)")
    func prefixNotReread() throws {
        var f = try Fixture(10)
        defer { f.dir.cleanup() }
        let first = try f.full()
        try f.append(2)
        var lines = f.chain.lines
        try Self.editQuestion(&lines[0])
        try Files.write(f.log, lines.flatMap { $0 + [0x0A] })
        let (result, seqs) = try f.read(after: first.resumePoint)
        #expect(seqs == [11, 12])
        #expect(try result.get().linesRead == 2)
        #expect((try verify(path: f.log)).problem?.kind == .brokenChain)
    }

    @Test("a torn tail: the resume point stops at the last complete line; after recovery and appends it resumes")
    func tornTail() throws {
        let f = try Fixture(5)
        defer { f.dir.cleanup() }
        try Files.append(f.log, Array(#"{"v":1,"seq":6,"id":"#.utf8))
        let first = try f.full()
        #expect(first.resumePoint.offset == f.chain.bytes.count)
        #expect(first.summary.tornTail?.line == 6)
        let writer = try LedgerWriter(path: f.log)       // moves the torn bytes aside
        _ = try writer.append(Make.answers(6...8))
        writer.close()
        let (result, seqs) = try f.read(after: first.resumePoint)
        #expect(seqs == [6, 7, 8])
        #expect(try result.get().summary == (try LogReader(path: f.log).read { _ in }.summary))
    }

    @Test("a head line of exactly 1 MiB is found; the read window is bounded")
    func longHeadLine() throws {
        let dir = try TempDir("snapshot-long")
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        var b = try ChainBuilder.valid(2)
        b.lines.append(try ReaderTests().paddedLine(length: LineCodec.maxLineLength, seq: 3, prev: b.prev))
        try Files.write(log, b.bytes)
        let first = try LogReader(path: log).scanWhole(.init(), tracking: true) { _ in }
        try b.event("e-4")
        try Files.append(log, b.lines[3] + [0x0A])
        var seqs: [Int] = []
        let warm = try LogReader(path: log).scan(after: first.resumePoint, .init(), tracking: true) { seqs.append($0.seq) }
        #expect(seqs == [4])
        #expect(try warm.get().linesRead == 1)
    }

    @Test("XXH64 matches the reference implementation")
    func xxh64() {
        #expect(XXH64.hash([UInt8]()) == 0xEF46_DB37_51D8_E999)
        #expect(XXH64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(XXH64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(XXH64.hash(Array("0123456789abcdef0123456789abcdef!".utf8)) == 0x8AFF_F4DA_AC4E_677E)
        #expect(XXH64.hash((0..<768).map { UInt8($0 % 256) }) == 0x8E03_C838_C596_036F)
        #expect(XXH64.hash("e-1") == 0x25B6_A912_ED7B_83AA)
        // In pieces: the same value, however the bytes are cut.
        var rng = SplitMix64(seed: 5)
        for length in [0, 1, 31, 32, 33, 64, 100, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var streaming = XXH64.Streaming()
            var i = 0
            while i < length {
                let n = min(length - i, Int.random(in: 1...40, using: &rng))
                streaming.update(Array(bytes[i..<(i + n)]))
                i += n
            }
            #expect(streaming.finalize() == XXH64.hash(bytes), "\(length) bytes")
        }
    }

    @Test("digests loaded from a snapshot file: a repeat is found in them, and new ones merge in order")
    func loadedDigests() throws {
        var f = try Fixture(30)
        defer { f.dir.cleanup() }
        let path = f.dir.file("s.snap")
        try Snapshot(resumePoint: try f.full().resumePoint, key: "k", lines: []).save(to: path)
        let loaded = try Snapshot.load(from: path, key: "k").resumePoint
        try f.append(20)
        let warm = try f.read(after: loaded).0.get()
        #expect(warm.resumePoint == (try f.full()).resumePoint)
        #expect(warm.resumePoint.ids.sorted == (1...50).map { IDDigests.digest("e-\($0)") }.sorted())
        for k in [1, 17, 30] {
            #expect(loaded.ids.contains(IDDigests.digest("e-\(k)")))
            #expect(!loaded.ids.contains(IDDigests.digest("e-\(k + 30)")))
        }
        try f.chain.event("e-12")
        try Files.append(f.log, f.chain.lines[50] + [0x0A])
        #expect(rejection(try f.read(after: loaded).0)?.reason == .repeatedID)
    }
}
