import Testing
@testable import Ledger

/// How a long read cuts its bytes into the report's chunks (grown from the
/// first chunk's size, tapered over the read's end). What the lines are and say is
/// the pipeline's and fold thread's tests' (`ReaderPipelineTests`,
/// `FoldThreadTests`); these check the sizes themselves.
@Suite("Read sizes: the report's chunk sizes")
struct ReadSizesTests {
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
