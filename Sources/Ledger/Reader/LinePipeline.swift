import Dispatch
import Events

/// Reads a file region's lines and checks each by itself (decode, SHA-256,
/// `prev`) on worker threads, a chunk of lines at a time, then hands the
/// results back in log order on the calling thread.
///
/// Decoding and hashing a line depend on that line alone, so they run in
/// parallel; everything that depends on the lines before (the chain checks,
/// the caller's fold) stays on the calling thread, in order. The calling
/// thread also reads the file (through ``LineScanner``, unchanged: same torn
/// tail, same too-long lines) and copies each line into a chunk.
///
/// Memory stays flat: at most `inFlight` chunks of at most `chunkBytes` and
/// `chunkLines` each exist at once (plus one being filled and the spares), with
/// their decoded records.
struct LinePipeline {
    var scanner: LineScanner
    /// Which records the checked lines carry (the others only the keys the chain needs).
    var keep: RecordFilter
    /// A chunk is handed to a worker once it holds this many bytes of lines...
    var chunkBytes = 1 << 20
    /// ...or this many lines (empty lines take no bytes but a checked line each).
    var chunkLines = 4096
    /// Chunks read ahead of the one being consumed (bounds memory).
    var inFlight = 4

    /// Scans `[start, end)`, calling `consume` with every line checked by
    /// itself, in order (`inout`, so it can take the record without a copy). Returns the torn tail, if any. When `consume` throws,
    /// the scan stops (after the workers have finished the chunks they hold).
    func run(from start: Int, to end: Int, firstLine: Int,
             _ consume: (inout CheckedLine) throws(LedgerError) -> Void) throws(LedgerError) -> TornTail? {
        let capacity = max(chunkBytes, LineCodec.maxLineLength) + 1
        var pending: [LineChunk] = []      // handed to workers, oldest first
        var spare: [LineChunk] = []        // consumed, ready for reuse
        var current = LineChunk(capacity: capacity)
        // Workers hold their chunks until they signal; never return before they have.
        defer { for chunk in pending { chunk.ready.wait() } }

        func dispatch(_ chunk: LineChunk) {
            pending.append(chunk)
            let keep = self.keep
            DispatchQueue.global(qos: .userInitiated).async { [chunk] in
                chunk.check(keeping: keep)
                chunk.ready.signal()
            }
        }
        func consumeOldest() throws(LedgerError) {
            let chunk = pending.removeFirst()
            chunk.ready.wait()
            // Moved out one by one (not copied): no retain and release of every string.
            var lines = chunk.takeChecked()
            lines.reverse()
            while var line = lines.popLast() { try consume(&line) }
            chunk.reset(keeping: lines)
            spare.append(chunk)
        }

        let tail = try scanner.scan(from: start, to: end, firstLine: firstLine) { (line) throws(LedgerError) in
            if current.used >= chunkBytes || current.lines.count >= chunkLines || !current.fits(line) {
                dispatch(current)
                current = spare.popLast() ?? LineChunk(capacity: capacity)
                if pending.count >= inFlight { try consumeOldest() }
            }
            current.add(line)
        }
        if !current.lines.isEmpty { dispatch(current) }
        while !pending.isEmpty { try consumeOldest() }
        return tail
    }
}

/// Lines copied out of the scanner's buffer, and (once a worker has run
/// ``check()``) each one decoded and hashed.
///
/// Unchecked-sendable: the reading thread fills it, hands it to one worker,
/// and reads `checked` only after `ready` is signalled; nobody else touches it.
final class LineChunk: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    /// Bytes of `storage` in use.
    private(set) var used = 0
    /// Each line: where its bytes are in `storage` (a too-long line has none).
    private(set) var lines: [(number: Int, offset: Int, length: Int, start: Int)] = []
    /// The lines checked by themselves, in order (after ``check()``).
    private(set) var checked: [CheckedLine] = []
    /// Signalled when ``check()`` is done.
    let ready = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        lines.reserveCapacity(4096)
        checked.reserveCapacity(4096)
    }

    deinit { storage.deallocate() }

    /// The bytes a line takes here (none for a too-long one: its bytes were never kept).
    private func size(_ line: ScannedLine) -> Int { line.isTooLong ? 0 : line.length }

    func fits(_ line: ScannedLine) -> Bool { used + size(line) <= storage.count }

    func add(_ line: ScannedLine) {
        let n = size(line)
        if n > 0, let to = storage.baseAddress, let from = line.bytes.baseAddress {
            (to + used).copyMemory(from: from, byteCount: n)
        }
        lines.append((line.number, line.offset, line.length, used))
        used += n
    }

    /// Decodes and hashes every line (on a worker).
    func check(keeping filter: RecordFilter) {
        checked.removeAll(keepingCapacity: true)
        let base = UnsafeRawBufferPointer(storage)
        for line in lines {
            let bytes = UnsafeRawBufferPointer(rebasing: base[line.start..<(line.start + (line.length > LineCodec.maxLineLength ? 0 : line.length))])
            let scanned = ScannedLine(number: line.number, offset: line.offset, length: line.length, bytes: bytes)
            checked.append(scanned.checked(keeping: filter))
        }
    }

    /// The checked lines, leaving none here.
    func takeChecked() -> [CheckedLine] {
        var taken: [CheckedLine] = []
        swap(&taken, &checked)
        return taken
    }

    /// Empties the chunk for reuse; `storage` is an emptied array whose capacity to reuse for `checked`.
    func reset(keeping storage: [CheckedLine]) {
        used = 0
        lines.removeAll(keepingCapacity: true)
        checked = storage
        checked.removeAll(keepingCapacity: true)
    }
}
