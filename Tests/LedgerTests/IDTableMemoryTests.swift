import Events
import Foundation
import Testing
@testable import Ledger

/// The readers' id table keeps its slots in one region per size
/// (``SlotPools``), each region ``TableMemory``: huge pages on Linux once it
/// is 2 MiB or more. Checked here: the memory itself (zeroed, aligned,
/// writable to its end), the regions' lives, and a table grown past 2 MiB
/// answering exactly (against ids counted independently, in Python).
@Suite("Reader id table's memory (huge pages)")
struct IDTableMemoryTests {
    @Test("table memory: zeroed and writable to its end; 2 MiB and over is mapped on huge-page boundaries on Linux")
    func tableMemory() {
        for byteCount in [1, 4096, (2 << 20) - 8, 2 << 20, (4 << 20) + 24] {
            let memory = TableMemory(zeroed: byteCount)
            let bytes = UnsafeMutableRawBufferPointer(start: memory.bytes, count: byteCount)
            #expect(bytes.allSatisfy { $0 == 0 }, "\(byteCount) bytes not zeroed")
            for k in stride(from: 0, to: byteCount, by: 4093) { bytes[k] = UInt8(truncatingIfNeeded: k) }
            bytes[byteCount - 1] = 0xA5
            #expect(bytes[byteCount - 1] == 0xA5)
            #expect(Int(bitPattern: memory.bytes) % 64 == 0)
            #if os(Linux)
            #expect(memory.isAdvisedHuge == (byteCount >= TableMemory.hugePageSize), "\(byteCount)")
            if memory.isAdvisedHuge { #expect(Int(bitPattern: memory.bytes) % TableMemory.hugePageSize == 0) }
            #else
            #expect(!memory.isAdvisedHuge)
            #endif
        }
    }

    @Test("slot pools: each size's region holds every segment apart, zeroed, and goes when its last segment leaves")
    func slotPools() {
        let segments = 64
        let pools = SlotPools(segments: segments)
        var slots = (0..<segments).map { pools.enter($0, slots: 16) }
        #expect(pools.regionCounts.all == 1)
        // Each segment writes its own number everywhere; no other segment's slots change.
        for s in 0..<segments { slots[s].update(repeating: UInt64(s + 1), count: 16) }
        for s in 0..<segments { #expect((0..<16).allSatisfy { slots[s][$0] == UInt64(s + 1) }) }
        // Grow every segment, one at a time, up to 8,192 slots (a 4 MiB region):
        // at most two sizes' regions at once, the older freed with its last segment.
        var size = 16
        while size < 8192 {
            for s in 0..<segments {
                let grown = pools.enter(s, slots: size * 2)
                #expect((0..<(size * 2)).allSatisfy { grown[$0] == 0 }, "segment \(s) at \(size * 2) not zeroed")
                grown.update(from: slots[s], count: size)
                pools.leave(slots: size)
                slots[s] = grown
                #expect(pools.regionCounts.all == (s == segments - 1 ? 1 : 2))
            }
            size *= 2
            for s in 0..<segments { #expect((0..<16).allSatisfy { slots[s][$0] == UInt64(s + 1) } && (16..<size).allSatisfy { slots[s][$0] == 0 }) }
        }
        #if os(Linux)
        #expect(pools.regionCounts.huge == 1)
        #else
        #expect(pools.regionCounts.huge == 0)
        #endif
        for _ in 0..<segments { pools.leave(slots: size) }
        #expect(pools.regionCounts.all == 0)
    }

    /// A valid log of `n` events written by Python (hashlib), line `later` repeating line `earlier`'s id.
    static func pythonLog(_ path: String, events n: Int, repeating earlier: Int, at later: Int) throws {
        let script = #"""
        import hashlib, sys
        n, earlier, later = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
        prev = "0" * 64
        with open(sys.argv[1], "wb") as f:
            for k in range(1, n + 1):
                ident = "e-%d" % (earlier if k == later else k)
                line = ('{"v":1,"seq":%d,"id":"%s","at":"2025-10-21T08:15:00+03:00","user":"u-%d","type":"hints.granted",'
                        '"data":{"amount":1,"reason":"seed"},"prev":"%s"}' % (k, ident, k % 7, prev)).encode()
                f.write(line + b"\n")
                prev = hashlib.sha256(line).hexdigest()
        """#
        let made = try run("/usr/bin/python3", ["-c", script, path, "\(n)", "\(earlier)", "\(later)"])
        #expect(made.status == 0, "\(made.err)")
    }

    @Test("a table's first size from the bytes to read: the size the ids of lines of 256 bytes would grow it to, within bounds")
    func initialSize() {
        #expect(IDFingerprints.initialSlots(forBytes: 0) == 16)
        #expect(IDFingerprints.initialSlots(forBytes: -1) == 16)
        #expect(IDFingerprints.initialSlots(forBytes: 100_000) == 16)
        // 154 MB: ~601,000 lines of 256 bytes, ~9,400 a segment, to fill at most 3/4: 16,384 slots (8 MiB in all).
        #expect(IDFingerprints.initialSlots(forBytes: 154_000_000) == 16_384)
        for bytes in [1 << 20, 7 << 20, 154_000_000, 1 << 33] {
            let size = IDFingerprints.initialSlots(forBytes: bytes)
            let perSegment = bytes / 256 / 64 + 1
            #expect(size.nonzeroBitCount == 1 && size >= 16 && size <= 1 << 17)
            // Big enough for its share of the guessed lines at 3/4 full, and no bigger than it must (or at the cap).
            #expect(size == 1 << 17 || perSegment * 4 <= size * 3, "\(bytes)")
            #expect(size == 16 || perSegment * 4 > size / 2 * 3, "\(bytes)")
        }
        #expect(IDFingerprints.initialSlots(forBytes: Int.max / 2) == 1 << 17)
    }

    @Test("a table past 2 MiB (140,000 ids), started small, at its file's size or below: every id at its seq, new ids new, a repeat at its line",
          arguments: [0, -1, 1 << 20])
    func largeTable(expectedBytes: Int) throws {
        let dir = try TempDir("idtable")
        defer { dir.cleanup() }
        let path = dir.file("large.log")
        let n = 140_000
        try Self.pythonLog(path, events: n, repeating: 3, at: n - 10)

        // Through verify: the repeat of line 3's id (in the table's oldest region) at its line.
        let report = try LogReader(path: path).verify()
        #expect(report.problem?.description == "line \(n - 10): duplicate_id: id \"e-3\" is already used by line 3",
                "\(String(describing: report.problem))")
        #expect(report.events == n - 11)

        // The table itself, fed the lines (offsets from the file, so that matches are read back from it).
        let system = System()
        let fd = try system.open(path, .read)
        defer { _ = system.close(fd) }
        let bytes = try Files.bytes(path)
        // -1: the file's size (lines of ~190 bytes: a table of the size they need, never grown).
        let table = IDFingerprints(lines: EarlierLines(system: system, fd: fd, path: path),
                                   expectedBytes: expectedBytes < 0 ? bytes.count : expectedBytes)
        let hasher = IDHasher()
        func line(_ k: Int, offset: Int, id: String) throws -> CheckedLine {
            var line = CheckedLine(number: k, offset: offset, length: 0)
            line.id = try #require(LineID(id))
            line.idHash = hasher.hash(line.id)
            return line
        }
        var offset = 0
        var offsets: [Int] = []
        for (k, byte) in bytes.enumerated() where byte == 0x0A {
            offsets.append(offset)
            offset = k + 1
        }
        #expect(offsets.count == n)
        for k in 1...(n - 11) {
            let new = try table.insertIfNew(line(k, offset: offsets[k - 1], id: "e-\(k)"))
            if new != nil { Issue.record("id e-\(k) taken for a repeat of seq \(new ?? 0)"); break }
        }
        #expect(table.count == n - 11)
        for k in [1, 2, 3, 63, 64, 65, 70_001, n - 11] {
            #expect(try table.seq(of: line(n, offset: 0, id: "e-\(k)")) == k)
        }
        for k in [0, n - 10, n, 10 * n] {
            #expect(try table.seq(of: line(n, offset: 0, id: "e-\(k)")) == nil)
        }
        #expect(try table.insertIfNew(line(n - 10, offset: offsets[n - 11], id: "e-3")) == 3)
        #if os(Linux)
        #expect(table.regionCounts.huge >= 1)
        #endif
        #expect(table.regionCounts.all <= 2)
        if expectedBytes < 0 { #expect(table.regionCounts.all == 1) }
    }
}
