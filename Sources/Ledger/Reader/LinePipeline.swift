import CSHA256
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
/// tail, same too-long lines) and adds each line to a chunk where it was
/// read: the chunk holds the scanner's buffer (``ReadBuffers``) until its
/// lines are consumed, and the scanner reads on into another meanwhile.
///
/// Memory stays flat: at most `inFlight` chunks of at most `chunkBytes` and
/// `chunkLines` each (a fold read's: `foldChunkBytes` and `foldChunkLines`,
/// and its fold's limit more) exist at once (plus one being filled and the spares), with
/// their decoded records, and the scanner's buffers they hold (two or three
/// of about 2 MiB). A chunk's records are handed to the caller where
/// they lie and released by the worker that next fills the chunk, so the
/// calling thread neither moves nor frees them.
///
/// What a checked line carries is `Keeping`'s: records (``LinePipeline``,
/// over a ``RecordFilter``) or the report's fold events (``FoldEvents``).
struct KeepingPipeline<Keeping: LineKeeping> {
    var scanner: LineScanner
    /// What the checked lines carry (records of a ``RecordFilter``: the
    /// others only the keys the chain needs).
    var keep: Keeping
    /// How ids are hashed (``CheckedLine/idHash``).
    var hasher = IDHasher()
    /// A chunk is handed to a worker once it holds this many bytes of lines...
    var chunkBytes = 1 << 18
    /// ...or this many lines (empty lines take no bytes but a checked line each).
    var chunkLines = 1024
    /// Chunks read ahead of the one being consumed (bounds memory).
    var inFlight = 4
    /// A read that hands its chunks to a fold thread (the report's) cuts
    /// them larger: each chunk costs the reading thread a wake-up of a
    /// worker and one of the fold's thread (a `futex` call, and on a
    /// virtual machine an interrupt to the other core), which 256 KiB
    /// chunks made ~1,100 times on the bench log. Chunks of 512 KiB or
    /// 2,048 lines make half of them; such a read starts at
    /// ``firstChunkBytes`` and grows its chunks fourfold each, and its
    /// chunks shrink again over its last megabytes (at most an eighth of
    /// what is left to read), so that the workers start as soon and the
    /// last chunks' check, chain and fold do not wait on one large chunk.
    /// (1 MiB chunks measured the same, with 8 MiB more at the peak:
    /// docs/performance.md, "the report, eleventh pass".)
    var foldChunkBytes = 1 << 19
    /// ...and at most this many lines.
    var foldChunkLines = 2048
    /// The quality of service the workers' blocks run at. On Linux,
    /// libdispatch runs a QoS's blocks at a nice level of its own
    /// (user-initiated −2 where it may, default 0, utility 2, background 10).
    /// User-initiated workers outranked the calling thread (0), whose chain
    /// and ids are the read's critical path: they ran ahead in time slices
    /// while it waited. At default they no longer outrank it (nor the
    /// report's fold queue, ``KeptFoldThread/qos``), and they are not below
    /// other work either: lower levels (utility, background) were faster
    /// on an idle machine but let any busy thread of the same process or
    /// session starve the read (background: 3.3× slower beside two busy
    /// threads). Measured in docs/performance.md ("the workers yield to the
    /// ordered threads"). Elsewhere a QoS means more than a nice level, so
    /// the workers stay user-initiated there.
    static var workerQoS: DispatchQoS.QoSClass {
        #if os(Linux)
        .default
        #else
        .userInitiated
        #endif
    }
    /// The first chunk is handed to a worker once it holds this many bytes
    /// (fewer than the others: the workers start sooner).
    var firstChunkBytes = 1 << 16
    /// The byte limit of a fold read's chunk after one whose limit was
    /// `previous`, with `remaining` bytes of the read left from its first
    /// line: four times the one before, at most `most`, and at most an
    /// eighth of what is left, but never under `first`.
    static func taperedLimit(after previous: Int, remaining: Int, first: Int, most: Int) -> Int {
        min(most, previous &* 4, max(first, remaining / 8))
    }

    /// The most bytes a pipeline's scanner should read first
    /// (``LineScanner/firstReadLimit``, set where the scanner is made:
    /// ``LogReader/pipeline(_:keeping:)``): the first chunk is cut from it,
    /// before the rest of the buffer is read.
    static var firstReadBytes: Int { 1 << 17 }

    /// Scans `[start, end)`, calling `consumer` with every line checked by
    /// itself, in order (``CheckedLineConsumer/consume(_:)``), then with its
    /// kept value when it was kept (``CheckedLineConsumer/give(_:)``: for good,
    /// the consumer owns it), and with the id hashes of lines a few ahead of
    /// the one consumed (``CheckedLineConsumer/ahead(_:)``, to prefetch the
    /// index). Returns the torn tail, if any. When the consumer throws, the
    /// scan stops (after the workers have finished the chunks they hold).
    func run<Consumer: CheckedLineConsumer>(from start: Int, to end: Int, firstLine: Int,
                                            into consumer: inout Consumer) throws(LedgerError) -> TornTail?
    where Consumer.Kept == Keeping.Kept {
        if let fold = consumer.foldThread {
            // The chain here; the kept values stay in the chunk for the fold's thread.
            return try run(from: start, to: end, firstLine: firstLine, fold: fold) { (chunk) throws(LedgerError) in
                try chunk.forEachChecked(lookahead: 16, handsKept: false, into: &consumer)
            }
        }
        return try run(from: start, to: end, firstLine: firstLine, fold: nil) { (chunk) throws(LedgerError) in
            try chunk.forEachChecked(lookahead: 16, bytesAhead: Keeping.readsLines ? 8 : 0, into: &consumer)
        }
    }

    /// ``run(from:to:firstLine:into:)`` with closures for the consumer's three calls.
    func run(from start: Int, to end: Int, firstLine: Int, ahead: (UInt64) -> Void = { _ in },
             _ consume: (borrowing CheckedLine) throws(LedgerError) -> Void,
             give: (consuming Keeping.Kept) throws(LedgerError) -> Void = { _ in }) throws(LedgerError) -> TornTail? {
        try withoutActuallyEscaping(ahead) { ahead throws(LedgerError) in
            try withoutActuallyEscaping(consume) { consume throws(LedgerError) in
                try withoutActuallyEscaping(give) { give throws(LedgerError) in
                    var consumer = ClosureConsumer(prefetch: ahead, consumeLine: consume, giveKept: give)
                    return try run(from: start, to: end, firstLine: firstLine, into: &consumer)
                }
            }
        }
    }

    /// Scans `[start, end)` into chunks, has each checked on a worker, and
    /// calls `consume` with each checked chunk in order; with a `fold`, then
    /// hands the chunk to it (its kept values folded there), and fills the
    /// chunks it gives back. A fold's error is thrown in preference to a
    /// later one (it is of an earlier line: the chunk the read stops in is
    /// never handed to the fold).
    private func run(from start: Int, to end: Int, firstLine: Int, fold: KeptFoldThread<Keeping.Kept>?,
                     consume: (LineChunk<Keeping.Kept>) throws(LedgerError) -> Void) throws(LedgerError) -> TornTail? {
        do throws(LedgerError) {
            let tail = try run(from: start, to: end, firstLine: firstLine, handingTo: fold, consume: consume)
            fold?.finish()
            if let failure = fold?.failure { throw failure }
            return tail
        } catch {
            fold?.finish()
            throw fold?.failure ?? error
        }
    }

    /// ``run(from:to:firstLine:fold:consume:)`` without the fold's ending.
    private func run(from start: Int, to end: Int, firstLine: Int, handingTo fold: KeptFoldThread<Keeping.Kept>?,
                     consume: (LineChunk<Keeping.Kept>) throws(LedgerError) -> Void) throws(LedgerError) -> TornTail? {
        let tapers = fold != nil
        let lines = fold == nil ? chunkLines : foldChunkLines
        let mostBytes = fold == nil ? chunkBytes : foldChunkBytes
        var pending: [LineChunk<Keeping.Kept>] = []      // handed to workers, oldest first
        var spare: [LineChunk<Keeping.Kept>] = []        // consumed, ready for reuse
        var current = LineChunk<Keeping.Kept>(lines: lines)
        current.byteLimit = min(firstChunkBytes, mostBytes)
        func nextLimit(after previous: Int, at offset: Int) -> Int {
            tapers ? Self.taperedLimit(after: previous, remaining: end - offset, first: firstChunkBytes, most: mostBytes) : mostBytes
        }
        // The lines stay where the scanner read them; each chunk holds their buffers.
        let buffers = ReadBuffers()
        // Workers hold their chunks until they signal; never return before they have.
        defer { for chunk in pending { chunk.ready.wait() } }

        func dispatch(_ chunk: LineChunk<Keeping.Kept>) {
            pending.append(chunk)
            let keep = self.keep, hasher = self.hasher
            DispatchQueue.global(qos: Self.workerQoS).async { [chunk] in
                chunk.check(keeping: keep, hasher: hasher)
                chunk.ready.signal()
            }
        }
        func consumeOldest() throws(LedgerError) {
            let chunk = pending.removeFirst()
            chunk.ready.wait()
            try consume(chunk)
            if let fold {
                try fold.hand(chunk)
            } else {
                chunk.reset()
                spare.append(chunk)
            }
        }

        let tail = try scanner.scan(from: start, to: end, firstLine: firstLine, into: buffers) { (line) throws(LedgerError) in
            if current.used >= current.byteLimit || current.count >= lines {
                dispatch(current)
                if spare.isEmpty { fold?.reclaim(into: &spare) }
                let previous = current.byteLimit
                current = spare.popLast() ?? LineChunk<Keeping.Kept>(lines: lines)
                current.byteLimit = nextLimit(after: previous, at: line.offset)
                if pending.count >= inFlight { try consumeOldest() }
            }
            current.add(line, in: buffers)
        }
        if current.count > 0 { dispatch(current) }
        while !pending.isEmpty { try consumeOldest() }
        return tail
    }
}

/// The pipeline of every read but the report's: records out.
typealias LinePipeline = KeepingPipeline<RecordFilter>

/// Lines where the scanner read them (the chunk holds their buffers), and (once a worker has run
/// ``check(keeping:hasher:)``) each one decoded and hashed, with what is
/// kept of it (`Kept`: a record, or the report's fold event).
///
/// Unchecked-sendable: the reading thread fills it, hands it to one worker,
/// and reads the checked lines only after `ready` is signalled; then, for
/// the report, hands it to the fold's queue (``KeptFoldThread``), which
/// moves its kept values out and gives it back; nobody else touches it, and
/// one thread at a time. The checked lines and records stay until the next
/// worker to check the chunk releases them (or the chunk is freed).
final class LineChunk<Kept>: @unchecked Sendable {
    /// A line, and where its bytes are (in a buffer of `held`; none of a too-long line's are kept).
    private struct Span {
        var number: Int, offset: Int, length: Int, bytes: UnsafeRawPointer?
    }

    /// The buffers the lines are in, held until the lines are consumed (``reset()``).
    @exclusivity(unchecked) private var held: [ReadBuffer] = []
    /// The ``ReadBuffers/generation`` of the last buffer held (0: none).
    @exclusivity(unchecked) private var heldGeneration = 0
    private let spans: UnsafeMutablePointer<Span>
    private let checked: UnsafeMutablePointer<CheckedLine>
    private let records: UnsafeMutablePointer<Kept>
    /// Each line's bytes and SHA-256, for hashing several lines at once (``LineDigest``).
    private let lineSpans: UnsafeMutablePointer<LineDigest.Span>
    private let digests: UnsafeMutablePointer<SHA256.Digest>
    /// Each checked line's ``CheckedLine/idHash``, side by side: the
    /// consumer reads them a few lines ahead (to prefetch the id index)
    /// from here, eight lines to a cache line, instead of touching each
    /// ~190-byte line that early.
    private let idHashes: UnsafeMutablePointer<UInt64>
    /// `keptLines[r]`: the line whose kept value is `records[r]` (to prefetch its bytes).
    private let keptLines: UnsafeMutablePointer<Int32>
    private let capacityLines: Int
    // One thread at a time uses a chunk (handed over through `ready`), one
    // access at a time: its counters go without the runtime's exclusivity checks.
    /// Bytes of the lines added.
    @exclusivity(unchecked) private(set) var used = 0
    /// The chunk is handed over once ``used`` reaches this (set by the reading thread).
    @exclusivity(unchecked) var byteLimit = Int.max
    /// Lines added.
    @exclusivity(unchecked) private(set) var count = 0
    /// Initialized entries of `checked` and `records` (set by ``check(keeping:hasher:)``).
    @exclusivity(unchecked) private var checkedCount = 0
    @exclusivity(unchecked) private var recordCount = 0
    /// `records[0..<recordsGiven]` were moved out for good (given to the caller).
    @exclusivity(unchecked) private var recordsGiven = 0
    /// `checked[0..<checkedGiven]` were moved out (handed to the caller).
    @exclusivity(unchecked) private var checkedGiven = 0
    /// Whether a line of `checked` holds a problem: its only reference, so
    /// without one the lines own nothing and need no deinitializing.
    @exclusivity(unchecked) private var anyProblem = false
    /// Signalled when ``check(keeping:hasher:)`` is done.
    let ready = DispatchSemaphore(value: 0)

    init(lines: Int) {
        capacityLines = max(lines, 1)
        spans = .allocate(capacity: capacityLines)
        checked = .allocate(capacity: capacityLines)
        records = .allocate(capacity: capacityLines)
        lineSpans = .allocate(capacity: capacityLines)
        digests = .allocate(capacity: capacityLines)
        idHashes = .allocate(capacity: capacityLines)
        keptLines = .allocate(capacity: capacityLines)
    }

    deinit {
        releaseChecked()
        (records + recordsGiven).deinitialize(count: recordCount - recordsGiven)
        checked.deallocate()
        records.deallocate()
        lineSpans.deallocate()
        digests.deallocate()
        idHashes.deallocate()
        keptLines.deallocate()
        spans.deallocate()
    }

    /// Adds `line`, whose bytes are in `buffers`' current buffer (held until
    /// ``reset()``), where they are; the caller has checked there is room
    /// (``count`` is under the chunk's lines).
    func add(_ line: ScannedLine, in buffers: ReadBuffers) {
        let n = line.isTooLong ? 0 : line.length
        if n > 0, heldGeneration != buffers.generation, let buffer = buffers.current {
            held.append(buffer)
            heldGeneration = buffers.generation
        }
        (spans + count).initialize(to: Span(number: line.number, offset: line.offset, length: line.length,
                                            bytes: line.bytes.baseAddress))
        count += 1
        used += n
    }

    /// Decodes and hashes every line, keeping what `filter` keeps (on a worker).
    func check<Keeping: LineKeeping>(keeping filter: Keeping, hasher: IDHasher) where Keeping.Kept == Kept {
        // The last use's lines and records are released here, on the worker
        // (the lines only when one holds a problem: otherwise they own nothing).
        releaseChecked()
        (records + recordsGiven).deinitialize(count: recordCount - recordsGiven)
        checkedCount = 0
        recordCount = 0
        recordsGiven = 0
        @inline(__always) func bytes(_ span: Span) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: span.bytes, count: span.length > LineCodec.maxLineLength ? 0 : span.length)
        }
        // Every line hashed first, several at once; the check takes each one's digest from here.
        for k in 0..<count { (lineSpans + k).initialize(to: LineDigest.span(bytes(spans[k]))) }
        LineDigest.of(UnsafeBufferPointer(start: lineSpans, count: count), into: digests)
        for k in 0..<count {
            let span = spans[k]
            let scanned = ScannedLine(number: span.number, offset: span.offset, length: span.length,
                                      bytes: bytes(span), hashed: digests[k])
            // Made where it stays (no copy of the ~190-byte line).
            (checked + k).initialize(to: filter.check(scanned, hasher: hasher) { record in
                (records + recordCount).initialize(to: record)
                keptLines[recordCount] = Int32(truncatingIfNeeded: k)
                recordCount += 1
            })
            if checked[k].hasProblem { anyProblem = true }
            idHashes[k] = checked[k].idHash
            checkedCount = k + 1
        }
    }

    /// Deinitializes the checked lines when one holds a problem (a reference);
    /// lines without one hold only plain bytes, and are overwritten as they are.
    private func releaseChecked() {
        if anyProblem { (checked + checkedGiven).deinitialize(count: checkedCount - checkedGiven) }
        anyProblem = false
        checkedGiven = 0
    }

    /// Calls `consumer.consume` with each checked line in order, then moves
    /// its record (when kept) out to `consumer.give` for good: the consumer
    /// owns it (and releases it wherever it wants), the chunk forgets it.
    /// Before each line, `consumer.ahead` gets the id hash of the line
    /// `lookahead` lines further (within the chunk), to prefetch; with
    /// `bytesAhead` > 0, the bytes of the line that many further are
    /// prefetched too (for a consumer whose kept values point into their
    /// lines: the report's views). With `handsKept` false, `consumer.give` is
    /// not called: the kept values stay for ``forEachKept(bytesAhead:_:)``.
    /// Inlined into each caller, where `handsKept` is a constant: the loop
    /// of a reader that hands its values over (`verify`, `state`) has no
    /// test of it per line.
    @inline(__always)
    func forEachChecked<Consumer: CheckedLineConsumer>(lookahead: Int, bytesAhead: Int = 0, handsKept: Bool = true,
                                                       into consumer: inout Consumer) throws(LedgerError) where Consumer.Kept == Kept {
        for k in 0..<min(lookahead, checkedCount) { consumer.ahead(idHashes[k]) }
        for k in 0..<min(bytesAhead, checkedCount) { prefetchBytes(ofLine: k) }
        for k in 0..<checkedCount {
            if k + lookahead < checkedCount { consumer.ahead(idHashes[k + lookahead]) }
            if bytesAhead > 0, k + bytesAhead < checkedCount { prefetchBytes(ofLine: k + bytesAhead) }
            // The checked lines and kept values a few ahead: a worker wrote them on another core.
            if k + 4 < checkedCount { LineChunk.prefetch(checked + k + 4) }
            if handsKept, bytesAhead > 0, recordsGiven + 4 < recordCount { LineChunk.prefetch(records + recordsGiven + 4) }
            // Moved out, not copied (a copy from the chunk's memory costs a
            // call, a retain and a release), and released here after `consume`.
            let line = (checked + k).move()
            checkedGiven = k + 1
            try consumer.consume(line)
            if handsKept, line.hasRecord, recordsGiven < recordCount {
                let record = (records + recordsGiven).move()
                recordsGiven += 1
                try consumer.give(record)
            }
        }
    }

    /// Hands each kept value not handed over yet to `body`, in order, to be
    /// moved out (``UnsafeMutablePointer/move()``: `body` owns it, the chunk
    /// forgets it), after the chain consumed the chunk's lines with
    /// ``forEachChecked(lookahead:bytesAhead:handsKept:into:)`` not handing
    /// them; with `bytesAhead` > 0, the line of the value that many further
    /// is prefetched. When `body` throws, the values after stay (released by
    /// the next ``check(keeping:hasher:)`` or the chunk's end).
    ///
    /// The value goes by its address, not as a `consuming Kept`: a closure
    /// of a generic value is called through reabstraction thunks, and the
    /// value copied, even where this is inlined with `Kept` known; one of a
    /// pointer is not (docs/performance.md, "the views' hand-over, tenth
    /// pass"). Inlined where `Kept` and `body` are known (the report's fold:
    /// ``LogReader/readFoldEvents(progress:_:)``).
    @inline(__always)
    func forEachKept(bytesAhead: Int, _ body: (UnsafeMutablePointer<Kept>) throws(LedgerError) -> Void) throws(LedgerError) {
        for r in recordsGiven..<min(recordsGiven + bytesAhead, recordCount) { prefetchBytes(ofLine: Int(keptLines[r])) }
        while recordsGiven < recordCount {
            let r = recordsGiven
            if bytesAhead > 0, r + bytesAhead < recordCount { prefetchBytes(ofLine: Int(keptLines[r + bytesAhead])) }
            if r + 4 < recordCount { LineChunk.prefetch(records + r + 4) }
            recordsGiven = r + 1
            try body(records + r)
        }
    }

    /// Starts loading the first `LineChunk.prefetchedBytes` of line `k`'s bytes
    /// (read by the consumer long after the reading thread read them: out
    /// of its caches by then).
    @inline(__always) private func prefetchBytes(ofLine k: Int) {
        let span = spans[k]
        guard span.length <= LineCodec.maxLineLength, let base = span.bytes else { return }
        LineChunk.prefetch(base, bytes: min(span.length, LineChunk.prefetchedBytes))
    }

    /// Starts loading the cache lines of the value at `pointer`.
    @inline(__always) private static func prefetch<T>(_ pointer: UnsafeMutablePointer<T>) {
        prefetch(UnsafeRawPointer(pointer), bytes: MemoryLayout<T>.size)
    }

    /// Starts loading the cache lines of the `bytes` bytes at `raw`.
    @inline(__always) private static func prefetch(_ raw: UnsafeRawPointer, bytes: Int) {
        var at = 0
        while at < bytes {
            pl_prefetch(raw + at)
            at += 64
        }
    }

    /// How much of a line ``prefetchBytes(ofLine:)`` loads: a writer's envelope and most of its `data`.
    private static var prefetchedBytes: Int { 384 }

    /// Empties the chunk for the reading thread to fill again (checked lines
    /// not handed over, after a stop, stay until the next ``check(keeping:hasher:)``).
    func reset() {
        used = 0
        count = 0
        held.removeAll(keepingCapacity: true)
        heldGeneration = 0
    }
}
