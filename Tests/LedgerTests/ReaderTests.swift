import Events
import Foundation
import Simulation
import Testing
@testable import Ledger

@Suite("Reader")
struct ReaderTests {
    /// Lines of many lengths read with a small chunk give the same lines, numbers and offsets.
    @Test(arguments: [4096, 5000, 1 << 20])
    func linesNumbersAndOffsetsAcrossChunks(chunk: Int) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        var rng = SplitMix64(seed: 3)
        var expected: [[UInt8]] = []
        for _ in 0..<300 {
            let n = Int.random(in: 1...9000, using: &rng)
            expected.append((0..<n).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) })
        }
        try Files.write(log, expected.flatMap { $0 + [0x0A] })
        var seen: [[UInt8]] = []
        var offsets: [Int] = []
        let summary = try LogReader(path: log, chunkSize: chunk).forEachLine { line in
            #expect(line.number == seen.count + 1)
            #expect(line.length == line.bytes.count)
            if case .success = line.record { Issue.record("random text decoded as an event") }
            if case .failure(let e) = line.record { #expect(e.line == line.number) }
            seen.append(line.copyBytes())
            offsets.append(line.offset)
        }
        #expect(seen == expected)
        var offset = 0
        for (k, line) in expected.enumerated() {
            #expect(offsets[k] == offset)
            offset += line.count + 1
        }
        #expect(summary.lines == 300 && summary.tornTail == nil)
    }

    /// A chained log of `lines` lines of 240 to 240 + `upTo` bytes (padded,
    /// lengths drawn from `seed`), written to `path`.
    private func writeChain(_ path: String, lines: Int, seed: UInt64, upTo: Int) throws -> ChainBuilder {
        var b = ChainBuilder()
        var rng = SplitMix64(seed: seed)
        for k in 1...lines {
            try b.lines.append(paddedLine(length: 240 + Int.random(in: 0...upTo, using: &rng), seq: k, prev: b.prev))
        }
        try Files.write(path, b.bytes)
        return b
    }

    /// The pipeline checks lines where the scanner read them, holding the
    /// buffers of the chunks in flight and reading on into fresh ones: with a
    /// 4 KiB read size, every few lines start a buffer while chunks still hold
    /// the last ones. Every line's bytes must be the ones the workers hashed:
    /// the chain, the head, a broken line and a torn tail come out as they do
    /// with one large read.
    @Test(arguments: [4096, 5000])
    func pipelineChecksLinesWhereTheyWereRead(chunk: Int) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        // Lines of 240 to 2,340 bytes, so they end anywhere in a read.
        let b = try writeChain(log, lines: 3000, seed: 36, upTo: 2100)
        let whole = try LogReader(path: log).verify()
        let small = try LogReader(path: log, chunkSize: chunk).verify()
        #expect(whole.isOK && small.isOK && small.events == 3000)
        #expect(small.head == whole.head)
        #expect(small.head.sha256.hex == SHA256.hash(b.lines[2999]).hex)
        var read: [Int] = []
        _ = try LogReader(path: log, chunkSize: chunk).readFoldEvents { _ in read.append(1) }
        #expect(read.count == 3000)

        // One byte of line 2,500's pad changed (so line 2,501's prev is wrong),
        // and a torn tail: the same problem either way.
        var bytes = b.bytes
        let at = b.lines[0..<2499].reduce(0) { $0 + $1.count + 1 } + 160
        bytes[at] = bytes[at] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        try Files.write(log, bytes + Array("{\"v\":1".utf8))
        let broken = try LogReader(path: log).verify()
        let brokenSmall = try LogReader(path: log, chunkSize: chunk).verify()
        #expect(broken.problem?.kind == .brokenChain && broken.problem?.line == 2501)
        #expect(brokenSmall.problem?.description == broken.problem?.description)
        try Files.write(log, b.bytes + Array("{\"v\":1".utf8))
        let torn = try LogReader(path: log, chunkSize: chunk).verify()
        #expect(torn.isOK && torn.summary.tornTail == TornTail(line: 3001, offset: b.bytes.count, length: 6))
    }

    /// The scanner's buffers: with nothing holding the lines it handed out,
    /// a scan goes on in its one buffer (each partial line moved to its
    /// front); while a holder keeps the lines of a buffer, it reads on into
    /// another, and the held lines' bytes stay as they were read.
    @Test func scannerBuffersReusedUnlessHeld() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let b = try writeChain(log, lines: 150, seed: 12, upTo: 900)
        let system = System()
        let fd = try system.open(log, .read)
        defer { _ = system.close(fd) }
        // Reads of 4 KiB: a partial line is moved at every read.
        let scanner = LineScanner(system: system, fd: fd, path: log, chunkSize: 4096, readLimit: 4096)

        let free = ReadBuffers()
        var lines = 0
        _ = try scanner.scan(from: 0, to: b.bytes.count, firstLine: 1, into: free) { line in
            #expect(Array(line.bytes) == b.lines[line.number - 1])
            lines += 1
        }
        #expect(lines == 150)
        #expect(free.made == 1)

        // Every line's buffer held to the end, as a pipeline's chunks hold them.
        let held = ReadBuffers()
        var kept: [(number: Int, bytes: UnsafeRawBufferPointer)] = []
        var holding: [ReadBuffer] = []
        _ = try scanner.scan(from: 0, to: b.bytes.count, firstLine: 1, into: held) { line in
            if let current = held.current, holding.last !== current { holding.append(current) }
            kept.append((line.number, line.bytes))
        }
        #expect(held.made > 1 && held.made == holding.count)
        #expect(kept.count == 150)
        for (number, bytes) in kept { #expect(Array(bytes) == b.lines[number - 1], "line \(number)") }
    }

    /// The read pipeline's small first `pread` (``LineScanner/firstReadLimit``):
    /// every line, its number, offset and bytes, and the torn tail, as with
    /// one read size; and the pipeline's first chunk, cut from that first
    /// read, changes no verdict (a problem in it, just after it, or later).
    @Test("a small first read moves no line and changes no verdict", arguments: [4096, 5000, 1 << 17])
    func smallFirstRead(limit: Int) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let b = try writeChain(log, lines: 3000, seed: 8, upTo: 2100)
        try Files.write(log, b.bytes + Array("{\"v\":1".utf8))
        let system = System()
        let fd = try system.open(log, .read)
        defer { _ = system.close(fd) }
        func lines(firstRead: Int?) throws -> (lines: [[Int]], tail: TornTail?) {
            var scanner = LineScanner(system: system, fd: fd, path: log)
            scanner.firstReadLimit = firstRead
            var seen: [[Int]] = []
            let tail = try scanner.scan(from: 0, to: b.bytes.count + 6, firstLine: 1) { line in
                #expect(Array(line.bytes) == b.lines[line.number - 1])
                seen.append([line.number, line.offset, line.length])
            }
            return (seen, tail)
        }
        let small = try lines(firstRead: limit), large = try lines(firstRead: nil)
        #expect(small.lines.count == 3000 && small.lines == large.lines)
        #expect(small.tail == TornTail(line: 3001, offset: b.bytes.count, length: 6) && small.tail == large.tail)

        // Through the pipeline (its first read and first chunk as set here):
        // the same head, then the same first problem wherever a line is broken.
        let expected = try LogReader(path: log, chunkSize: 4096).verify()
        #expect(expected.isOK && expected.events == 3000)
        for line in [1, 2, 20, 60, 61, 200, 2999] {
            var bytes = b.bytes
            let at = b.lines[0..<(line - 1)].reduce(0) { $0 + $1.count + 1 } + 1
            bytes[at] = UInt8(ascii: "x")                       // the line is no longer JSON
            try Files.write(log, bytes)
            let smallReads = try LogReader(path: log, chunkSize: 4096).verify()
            let threaded = try LogReader(path: log).verify()
            #expect(threaded.problem?.line == line && threaded.problem?.kind == smallReads.problem?.kind)
            #expect(threaded.problem?.description == smallReads.problem?.description)
        }
    }

    /// A valid event padded to exactly `length` bytes (an unknown `data` member is kept as written).
    func paddedLine(length: Int, seq: Int, prev: String) throws -> [UInt8] {
        func make(_ pad: Int) -> [UInt8] {
            Array(#"{"v":1,"seq":\#(seq),"id":"big-\#(seq)","at":"2025-10-21T10:00:00Z","user":"u","type":"hint.used","data":{"attempt":"a","question":"q","hint":"reveal","pad":"\#(String(repeating: "x", count: pad))"},"prev":"\#(prev)"}"#.utf8)
        }
        let base = make(0).count
        let line = make(length - base)
        #expect(line.count == length)
        return line
    }

    @Test func lineOfExactly1MiBIsALineAndOneMoreByteIsTooLong() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        var b = try ChainBuilder.valid(1)
        b.lines.append(try paddedLine(length: LineCodec.maxLineLength, seq: 2, prev: b.prev))
        try b.event("e-3")
        try Files.write(log, b.bytes)
        let ok = try verify(path: log)
        #expect(ok.isOK && ok.events == 3)

        var c = try ChainBuilder.valid(1)
        c.lines.append(try paddedLine(length: LineCodec.maxLineLength + 1, seq: 2, prev: c.prev))
        try c.event("e-3")
        try Files.write(log, c.bytes)
        #expect(try verify(path: log).problem?.description
                == "line 2: line_too_long: the line is 1048577 bytes; at most 1048576 are allowed")
        // The reader skips the long line without buffering it and goes on at the right place.
        var numbers: [Int] = []
        var offsets: [Int] = []
        var kinds: [EventError.Kind?] = []
        try LogReader(path: log, chunkSize: 4096).forEachLine { line in
            numbers.append(line.number)
            offsets.append(line.offset)
            if case .failure(let e) = line.record { kinds.append(e.kind) } else { kinds.append(nil) }
            if line.number == 2 { #expect(line.bytes.isEmpty && line.length == 1_048_577) }
        }
        #expect(numbers == [1, 2, 3])
        #expect(offsets == [0, c.lines[0].count + 1, c.lines[0].count + 1 + 1_048_578])
        #expect(kinds == [nil, .lineTooLong, nil])  // line 3 is valid by itself
    }

    @Test func writerRefusesAnEventOver1MiB() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...1))
        // The input is under 1 MiB; the stored line (with v, seq and prev) would be over it.
        func input(_ pad: Int) -> String {
            #"{"id":"big","at":"2025-10-21T10:00:00Z","user":"u","type":"hint.used","data":{"attempt":"a","question":"q","hint":"reveal","pad":"\#(String(repeating: "x", count: pad))"}}"#
        }
        let text = input(LineCodec.maxLineLength - 20 - input(0).utf8.count)
        #expect(text.utf8.count == LineCodec.maxLineLength - 20)
        let big = try Make.event(text)
        let before = try Files.bytes(log)
        let error = #expect(throws: LedgerError.self) { try writer.append([try Make.answer("e-2"), big]) }
        #expect(error?.code == .invalidEvent)
        #expect(error?.message.contains("line_too_long") == true)
        #expect(try Files.bytes(log) == before)
    }

    @Test func longTornTailIsReportedNotBuffered() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let b = try ChainBuilder.valid(2)
        let tail = [UInt8](repeating: UInt8(ascii: "z"), count: 3 << 20)
        try Files.write(log, b.bytes + tail)
        let summary = try LogReader(path: log).forEachLine { _ in }
        #expect(summary.lines == 2)
        #expect(summary.tornTail == TornTail(line: 3, offset: b.bytes.count, length: tail.count))
        // And the writer moves all of it aside.
        let writer = try LedgerWriter(path: log)
        let side = try #require(writer.recoveries.first?.sideFile)
        #expect(try Files.bytes(side) == tail)
        #expect(try Files.bytes(log) == b.bytes)
    }

    @Test func readerDoesNotLockAndSeesAWritersLines() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = dir.file("a.log")
        let writer = try LedgerWriter(path: log)
        try writer.append(try Make.answers(1...3))
        // While a writer holds the lock, a reader still reads.
        try writer.withLock { () throws(LedgerError) in
            let report = try verify(path: log)
            #expect(report.events == 3)
        }
        var ids: [String] = []
        try LogReader(path: log).read { ids.append($0.id) }
        #expect(ids == ["e-1", "e-2", "e-3"])
    }
}
