import Events

/// What a read keeps of each line, made on the worker that checks it:
/// records (``RecordFilter``) or the report's ``FoldEvent/View``s (``FoldEvents``).
/// Every line is checked with every rule either way.
protocol LineKeeping: Sendable {
    /// What is kept of a line.
    associatedtype Kept
    /// Checks and hashes `line`, handing what is kept of it to `keep`.
    func check(_ line: ScannedLine, hasher: IDHasher, keep: (consuming Kept) -> Void) -> CheckedLine
    /// Whether what is kept points into the line's bytes, which the consumer
    /// then reads (the pipeline prefetches them a few lines ahead).
    static var readsLines: Bool { get }
}

extension LineKeeping {
    static var readsLines: Bool { false }
}

extension RecordFilter: LineKeeping {
    func check(_ line: ScannedLine, hasher: IDHasher, keep: (consuming Record) -> Void) -> CheckedLine {
        line.checked(keeping: self, hasher: hasher, keep: keep)
    }
}

/// The report's read of a log: each event's ``FoldEvent/View``
/// (``ScannedLine/checkedFoldEvent(hasher:keep:)``), its ids where they are
/// in the line's bytes: those stay in their chunk until the view has been
/// handed over (a chunk is filled again only after it was consumed).
struct FoldEvents: LineKeeping {
    static var readsLines: Bool { true }

    // Inlined into the chunk's check, as ``ScannedLine/checkedFoldEvent(hasher:keep:)`` is.
    @inline(__always)
    func check(_ line: ScannedLine, hasher: IDHasher, keep: (consuming FoldEvent.View) -> Void) -> CheckedLine {
        line.checkedFoldEvent(hasher: hasher, keep: keep)
    }
}

extension ScannedLine {
    /// Checks and hashes the line as ``checkedKeys(data:hasher:)`` does (a
    /// stub first, then every rule, with the same errors) and hands its
    /// ``FoldEvent/View`` to `keep` (not for a stub, a line that breaks the
    /// format or a newer-version line): a writer's line plainly keeping its
    /// rules is read from the second stage's captures, no string made, its
    /// ids in the line's bytes (`LineCodec.checkFoldEvent`). Inlined into
    /// the chunk's check, where `keep` is known: called, it took the view
    /// through a generic closure's copy (docs/performance.md, "the views'
    /// hand-over, tenth pass").
    @inline(__always)
    func checkedFoldEvent(hasher: IDHasher, keep: (consuming FoldEvent.View) -> Void) -> CheckedLine {
        if let stub = checkedStub(hasher: hasher) { return stub }
        do throws(EventError) {
            let (keys, event) = try LineCodec.checkFoldEvent(try checkedLength())
            let line = CheckedLine(self, keys: keys, hasher: hasher, hasRecord: event != nil)
            if let event { keep(event) }
            return line
        } catch {
            return CheckedLine(number: number, offset: offset, length: length, problem: error.at(line: number))
        }
    }
}

extension LogReader {
    /// Calls `body` with the ``FoldEvent/View`` of every event of the log, in
    /// log order, checking the whole chain as ``read(_:_:)`` does (the same
    /// errors, the same torn tail, `progress` as ``Options/progress``): the
    /// report's read of one log, whose fold counts only what these hold.
    ///
    /// A view's ids are mostly bytes of its line, in the reader's memory:
    /// valid during the call to `body` only (fold it there; copy what must
    /// outlive the call).
    ///
    /// On a long log `body` runs on a thread of its own, a checked chunk's
    /// views at a time, handed over by reference to the chunk (which waits
    /// for them before it is filled again), while the calling thread reads
    /// and runs the chain: one call at a time, in log order, every call
    /// made before this returns. When the read throws, `body` has seen none
    /// of the events after the line refused, and maybe not all before it.
    /// `progress` is called on the calling thread.
    package func readFoldEvents(progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                                _ body: (consuming FoldEvent.View) throws(LedgerError) -> Void) throws(LedgerError) -> LogRead {
        // The fold's loop over a chunk's views, written here where the view's
        // type is known: `forEachKept` is inlined and `body` called directly
        // with each view moved out of the chunk (a closure of one view stored
        // in the generic ``KeptFoldThread`` took two reabstraction thunks and
        // a copy of the view an event). The loop, not `body`, is what is
        // made escaping for the fold's thread: `withoutActuallyEscaping`'s
        // thunk is called once a chunk, not once a view.
        // At most 2 chunks wait for or are in the fold: a fold read's chunks
        // are of up to 512 KiB (``KeepingPipeline/foldChunkBytes``), so as
        // many bytes as 4 of 256 KiB before; 4 of them held 3 MiB more at
        // the peak, for the same time (docs/performance.md, "the report,
        // eleventh pass").
        let bytesAhead = FoldEvents.readsLines ? 8 : 0
        return try withoutActuallyEscaping({ (chunk: LineChunk<FoldEvent.View>) throws(LedgerError) in
            try chunk.forEachKept(bytesAhead: bytesAhead) { (view) throws(LedgerError) in try body(view.move()) }
        }) { (foldChunk) throws(LedgerError) in
            LogRead(summary: try scanWhole(Options(progress: progress), keeping: FoldEvents(), tracking: false,
                                           foldThread: KeptFoldThread(limit: 2, fold: foldChunk), body).summary)
        }
    }
}
