import Testing
@testable import Ledger

/// How a long read cuts its bytes: the scanner's buffers (whole huge pages
/// once they are past one) and the report's chunks (grown from the first
/// chunk's size, tapered over the read's end). What the lines are and say is
/// the pipeline's and fold thread's tests' (`ReaderPipelineTests`,
/// `FoldThreadTests`); these check the sizes themselves.
@Suite("Read sizes: huge-page read buffers, the report's chunk sizes")
struct ReadSizesTests {
    @Test("a read buffer past a huge page is whole huge pages, and still holds a longest line and 4 KiB more")
    func bufferCapacity() {
        let maxLine = 1 << 20
        // The readers' default: 1 MiB reads after a line of up to 1 MiB is exactly 2 MiB (was 2 MiB and a byte).
        #expect(ReadBuffer.capacity(forLinesUpTo: maxLine, reading: 1 << 20) == 2 << 20)
        // Small reads (a short log, a test's 4 KiB) are as they were.
        #expect(ReadBuffer.capacity(forLinesUpTo: maxLine, reading: 4096) == maxLine + 1 + 4096)
        #expect(ReadBuffer.capacity(forLinesUpTo: maxLine, reading: 64 << 10) == maxLine + 1 + (64 << 10))
        // Larger: rounded down to whole huge pages.
        #expect(ReadBuffer.capacity(forLinesUpTo: maxLine, reading: 3 << 20) == 4 << 20)
        for reading in [4096, 65_536, (1 << 20) - 4096, 1 << 20, (1 << 20) + 1, 3 << 20, 7 << 20] {
            let capacity = ReadBuffer.capacity(forLinesUpTo: maxLine, reading: reading)
            #expect(capacity >= maxLine + 1 + 4096, "\(reading)")
            #expect(capacity <= maxLine + 1 + reading, "\(reading)")
            if capacity >= TableMemory.hugePageSize { #expect(capacity % TableMemory.hugePageSize == 0, "\(reading)") }
        }
    }

    @Test("a read buffer is writable and readable to its last byte, on huge-page boundaries on Linux when 2 MiB")
    func bufferMemory() {
        for capacity in [4096 + (1 << 20) + 1, 2 << 20] {
            let buffer = ReadBuffer(capacity: capacity)
            #expect(buffer.bytes.count == capacity)
            for k in stride(from: 0, to: capacity, by: 4093) { buffer.bytes[k] = UInt8(truncatingIfNeeded: k) }
            buffer.bytes[capacity - 1] = 0x5A
            #expect(buffer.bytes[capacity - 1] == 0x5A)
            #expect(stride(from: 0, to: capacity - 1, by: 4093).allSatisfy { buffer.bytes[$0] == UInt8(truncatingIfNeeded: $0) })
            #if os(Linux)
            if capacity == 2 << 20, let base = buffer.bytes.baseAddress {
                #expect(Int(bitPattern: base) % TableMemory.hugePageSize == 0)
            }
            #endif
        }
    }

    @Test("the report's chunks: 64 KiB first, four times larger each up to 512 KiB, an eighth of what is left at the end, never under 64 KiB")
    func taperedChunks() {
        let first = 1 << 16, most = 1 << 19
        // A 154 MB read cut at its limits (as if every line ended on one).
        var limits: [Int] = [first]
        var offset = first
        let size = 154_000_000
        while offset < size {
            let limit = KeepingPipeline<FoldEvents>.taperedLimit(after: limits[limits.count - 1], remaining: size - offset, first: first, most: most)
            limits.append(limit)
            offset += limit
        }
        #expect(Array(limits.prefix(4)) == [first, first * 4, most, most])
        #expect(limits.allSatisfy { $0 >= first && $0 <= most })
        // Most of the read is in 512 KiB chunks: under 55% as many as of 256 KiB (~590).
        #expect(limits.count < size / (256 << 10) * 55 / 100, "\(limits.count) chunks")
        #expect(limits.filter { $0 == most }.count > 270)
        // Over the last 4 MiB the chunks shrink, to 64 KiB at the very end.
        #expect(limits.suffix(12).allSatisfy { $0 < most })
        #expect(limits.last == first)
        // Never more than an eighth of what was left (while that is over 64 KiB).
        var left = size - first
        for limit in limits.dropFirst() {
            #expect(limit <= max(first, left / 8))
            left -= limit
        }
    }
}
