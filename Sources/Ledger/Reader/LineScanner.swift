import Events

/// One complete line found by the scanner. `bytes` points into the scanner's
/// buffer and is valid only during the callback; it is empty for a line too
/// long to buffer.
struct ScannedLine {
    /// 1-based line number.
    var number: Int
    /// Byte offset of the line's first byte in the file.
    var offset: Int
    /// The line's length without its LF.
    var length: Int
    /// The line's bytes without the LF (empty when the line is too long).
    var bytes: UnsafeRawBufferPointer
    /// The SHA-256 of `bytes` when the reader hashed it with other lines
    /// (``LineDigest/of(_:into:lanes:)``); nil: ``digest`` hashes it alone.
    var hashed: SHA256.Digest? = nil

    /// Whether the line is over `LineCodec.maxLineLength` (its bytes were not kept).
    var isTooLong: Bool { length > LineCodec.maxLineLength }
}

/// Splits a file region into LF-ended lines, reading it in chunks with
/// `pread`: memory stays flat in the file's size (one buffer of 1 MiB plus a
/// chunk; each `pread` fills what the buffer has free, or at most
/// `readLimit` bytes). A line over 1 MiB is never buffered whole: it is counted and skipped
/// to its LF. Bytes after the last LF are returned as the torn tail.
struct LineScanner {
    /// The default read size.
    static let defaultChunkSize = 1 << 20

    var system: System
    var fd: CInt
    var path: String
    var chunkSize: Int = LineScanner.defaultChunkSize
    /// The most bytes one `pread` reads (nil: as many as the buffer has room
    /// for). A reader that wants one line near `start` sets it low.
    var readLimit: Int? = nil
    /// The most bytes the first `pread` reads (nil: as the others). The read
    /// pipeline sets it low, so that its first lines reach a worker before
    /// the first megabytes are copied in (and the buffer's pages touched).
    var firstReadLimit: Int? = nil

    /// Scans `[start, end)` of the file, calling `body` for each complete line,
    /// numbering them from `firstLine`. Returns the bytes after the last LF, if any.
    func scan(from start: Int, to end: Int, firstLine: Int,
              _ body: (ScannedLine) throws(LedgerError) -> Void) throws(LedgerError) -> TornTail? {
        try scan(from: start, to: end, firstLine: firstLine, into: ReadBuffers(), body)
    }

    /// ``scan(from:to:firstLine:_:)``, reading into `buffers`: a line's bytes
    /// stay valid after the call for as long as something holds its buffer
    /// (``ReadBuffers/current`` during the call).
    ///
    /// Inlined, so that each caller's `body` is specialized into the loop:
    /// reached through a thunk, every line was copied for the call
    /// (docs/performance.md, "where verify's cores go idle, eighth pass").
    @inline(__always)
    func scan(from start: Int, to end: Int, firstLine: Int, into buffers: ReadBuffers,
              _ body: (ScannedLine) throws(LedgerError) -> Void) throws(LedgerError) -> TornTail? {
        let maxLine = LineCodec.maxLineLength
        let capacity = maxLine + 1 + max(chunkSize, 4096)
        let readSize = max(readLimit ?? capacity, 4096)
        var nextReadSize = max(firstReadLimit ?? readSize, 4096)
        guard var base = buffers.start(capacity: capacity).baseAddress else { return nil }

        var fileOffset = start      // next byte to read from the file
        var bufferBase = start      // file offset of buffer[0]
        var lineStart = 0           // buffer index where the current line starts
        var filled = 0              // buffer[0..<filled] holds data
        var searchFrom = 0          // where the LF search resumes
        var number = firstLine
        var skipping: (offset: Int, length: Int)? = nil   // a too-long line in progress

        while true {
            let window = UnsafeRawBufferPointer(start: base, count: filled)
            if let skip = skipping {
                if let lf = System.firstIndex(of: 0x0A, in: window, from: lineStart) {
                    let line = ScannedLine(number: number, offset: skip.offset,
                                           length: skip.length + (lf - lineStart), bytes: UnsafeRawBufferPointer(start: base, count: 0))
                    try body(line)
                    number += 1
                    lineStart = lf + 1
                    searchFrom = lineStart
                    skipping = nil
                    continue
                }
                skipping = (skip.offset, skip.length + (filled - lineStart))
                lineStart = filled
                searchFrom = filled
            } else if let lf = System.firstIndex(of: 0x0A, in: window, from: searchFrom) {
                let length = lf - lineStart
                // A line over the limit is never handed out, even when it happens to fit the buffer.
                let line = ScannedLine(number: number, offset: bufferBase + lineStart, length: length,
                                       bytes: UnsafeRawBufferPointer(start: base + lineStart, count: length > maxLine ? 0 : length))
                try body(line)
                number += 1
                lineStart = lf + 1
                searchFrom = lineStart
                continue
            } else {
                searchFrom = filled
                if filled - lineStart > maxLine {
                    skipping = (bufferBase + lineStart, filled - lineStart)
                    lineStart = filled
                }
            }

            // Need more bytes: keep the partial line, move it to the front, read.
            guard fileOffset < end else { break }
            let keep = filled - lineStart
            if lineStart > 0 {
                // Into the same buffer (moved to its front), or a fresh one
                // when the lines handed out of this one are still held.
                guard let next = buffers.renew().baseAddress else { break }
                if keep > 0 { next.copyMemory(from: base + lineStart, byteCount: keep) }
                base = next
                bufferBase += lineStart
                searchFrom -= lineStart
                filled = keep
                lineStart = 0
            }
            let want = min(nextReadSize, capacity - filled, end - fileOffset)
            nextReadSize = readSize
            let n: Int
            do {
                n = try system.pread(fd, into: UnsafeMutableRawBufferPointer(start: base + filled, count: want), at: fileOffset)
            } catch {
                throw LedgerError(error, path: path, doing: "reading at byte \(fileOffset)")
            }
            if n == 0 { break }  // the file is shorter than it was: stop at what is there
            filled += n
            fileOffset += n
        }

        if let skip = skipping {
            return TornTail(line: number, offset: skip.offset, length: skip.length)
        }
        if filled > lineStart {
            return TornTail(line: number, offset: bufferBase + lineStart, length: filled - lineStart)
        }
        return nil
    }
}

/// What a ``LineScanner`` reads into: a buffer, and another whenever it must
/// move a partial line to a buffer's front while lines handed out of that
/// buffer are still held (a pipeline checks lines where they were read, on
/// other threads). A holder keeps its lines' ``ReadBuffer``s; a buffer nobody
/// else holds is used again.
///
/// Used by one thread (the scanning one); holders release buffers on it too.
final class ReadBuffers {
    /// The buffer the scanner reads into now.
    private(set) var current: ReadBuffer? = nil
    /// Counts the buffers started: a holder compares it with the one it
    /// last held to know (without touching `current`) that it must hold `current` too.
    private(set) var generation = 0
    /// Buffers made, the current one among them.
    private var all: [ReadBuffer] = []
    /// How many buffers were made (a scan nobody holds lines of makes one).
    var made: Int { all.count }

    /// Starts a scan (one per instance) in buffers of `capacity` bytes.
    func start(capacity: Int) -> UnsafeMutableRawBufferPointer {
        let buffer = make(capacity)
        current = buffer
        generation += 1
        return buffer.bytes
    }

    /// The buffer to go on in: the current one when nobody else holds it
    /// (the caller then moves its partial line to the front), or one of the
    /// same size nobody holds, or a new one.
    func renew() -> UnsafeMutableRawBufferPointer {
        guard let capacity = current?.bytes.count, let now = current.map(ObjectIdentifier.init) else {
            return UnsafeMutableRawBufferPointer(start: nil, count: 0)
        }
        // Let go of the current buffer (only its identity is kept), so that
        // it counts as free when no holder has it.
        current = nil
        var next: ReadBuffer? = nil
        for k in all.indices where all[k].bytes.count == capacity && isKnownUniquelyReferenced(&all[k]) {
            next = all[k]
            if ObjectIdentifier(all[k]) == now { break }   // the same buffer: its partial line moves to its front
        }
        let buffer = next ?? make(capacity)
        current = buffer
        generation += 1
        return buffer.bytes
    }

    private func make(_ capacity: Int) -> ReadBuffer {
        let buffer = ReadBuffer(capacity: capacity)
        all.append(buffer)
        return buffer
    }
}

/// One buffer of ``ReadBuffers``, freed when nothing holds it any more.
final class ReadBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) { bytes = .allocate(byteCount: capacity, alignment: 16) }

    deinit { bytes.deallocate() }
}
