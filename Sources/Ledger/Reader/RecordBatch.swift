import Events

/// Consecutive records of a log, in order, as
/// ``LogReader/forEachRecordBatch(progress:_:)`` hands them over (about a
/// thousand at a time), each with a hash of its user computed where it was
/// decoded, for a fold that routes records to shards by learner.
///
/// Valid only during the call that hands it over: the records lie in the
/// reader's memory, which is reused. Copy the records you keep (reading an
/// element copies it; ``records`` reads them where they lie).
public struct RecordBatch: RandomAccessCollection {
    /// The records where they lie. Valid only during the call.
    public let records: UnsafeBufferPointer<Record>
    private let userHashes: UnsafeBufferPointer<UInt64>

    init(records: UnsafeBufferPointer<Record>, userHashes: UnsafeBufferPointer<UInt64>) {
        self.records = records
        self.userHashes = userHashes
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// Past the last position: the number of records.
    public var endIndex: Int { records.count }
    /// The record at `position` (a copy).
    public subscript(position: Int) -> Record { records[position] }

    /// A 64-bit hash of the `user` of the record at `position` (its UTF-8
    /// bytes, exactly), 0 for a newer-version line without a readable user.
    ///
    /// Records of one user have the same hash during one run of the program
    /// (the hash is keyed per process: do not store it). Route by
    /// `userHash(at:) % shards` to keep each learner's records on one shard, in order.
    public func userHash(at position: Int) -> UInt64 { userHashes[position] }

    /// The hash ``userHash(at:)`` gives a record, computed on a reader's worker.
    static func userHash(_ record: Record, _ hasher: IDHasher) -> UInt64 {
        guard let user = record.user else { return 0 }
        // 0 stays for "no user": a user hashing to 0 is moved to 1.
        return Swift.max(hasher.hash(user), 1)
    }
}
