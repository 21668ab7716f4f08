/// What a checked read does with its lines on the reading thread, in log
/// order: the chain's checks and the caller's bookkeeping (`consume`), the
/// kept values (`give`), and the index's prefetch a few lines ahead (`ahead`).
///
/// A type, not closures, so that the pipeline is specialized for each
/// reader (`verify`, the checked read under `state` and `report`, the
/// writer's catch-up) and calls it directly: reached through closures, each
/// line paid partial-apply thunks on the reading thread (docs/performance.md,
/// "the reading thread, seventh pass").
protocol CheckedLineConsumer<Kept> {
    /// What a kept line carries (``LineKeeping/Kept``).
    associatedtype Kept
    /// The ``CheckedLine/idHash`` of a line a few ahead of the one consumed next (to prefetch).
    func ahead(_ idHash: UInt64)
    /// A line checked by itself, in order. Throwing stops the read.
    mutating func consume(_ line: borrowing CheckedLine) throws(LedgerError)
    /// The value kept of the line just consumed (the consumer owns it). Throwing stops the read.
    mutating func give(_ kept: consuming Kept) throws(LedgerError)
    /// Where the pipeline hands each chunk's kept values instead of `give`,
    /// on a thread of its own (nil: `give`, on the reading thread). Each
    /// reader but the report's is nil.
    var foldThread: KeptFoldThread<Kept>? { get }
}

extension CheckedLineConsumer {
    var foldThread: KeptFoldThread<Kept>? { nil }
}

/// A consumer made of closures that are valid while a read lasts (the
/// writer's catch-up); ``KeepingPipeline/run(from:to:firstLine:ahead:_:give:)`` makes it.
struct ClosureConsumer<Kept>: CheckedLineConsumer {
    let prefetch: (UInt64) -> Void
    let consumeLine: (borrowing CheckedLine) throws(LedgerError) -> Void
    let giveKept: (consuming Kept) throws(LedgerError) -> Void

    func ahead(_ idHash: UInt64) { prefetch(idHash) }
    func consume(_ line: borrowing CheckedLine) throws(LedgerError) { try consumeLine(line) }
    func give(_ kept: consuming Kept) throws(LedgerError) { try giveKept(kept) }
}
