/// What an erasure did (or, for a dry run, would do): printed as its receipt.
public struct ErasureReceipt: Sendable, Hashable {
    /// The log.
    public var path: String
    /// The learner erased.
    public var user: String
    /// The seqs of the lines replaced by redaction stubs now, in order.
    public var erasedSeqs: [Int]
    /// Stubs the log already held (earlier erasures), left as they were.
    public var alreadyRedacted: Int
    /// The head before: the last line's seq and hash.
    public var headBefore: Head
    /// The head after. The same as before: a stub keeps its line's hash, so
    /// the chain's head does not move (it is read back from the new log).
    public var headAfter: Head
    /// Files beside the log removed because they held the learner's bytes or
    /// described the old log (snapshots, torn-tail side files, a crashed
    /// erasure's new file), by path.
    public var removedFiles: [String]
    /// Whether nothing was changed (a dry run).
    public var dryRun: Bool

    /// How many lines were erased now.
    public var linesErased: Int { erasedSeqs.count }
}
