import Events

/// A batch whose lines were sealed ahead of the writer's lock, on top of the
/// head the log is expected to have when the batch is written: what a
/// store's group commit builds while the group before it is on disk.
///
/// Each event joins already checked and encoded (`PreparedEvents`); its line
/// is sealed at once (`PendingLine.seal(seq:after:to:)`, the writer's own
/// rule) at the seq after the last line sealed, with that line's hash as its
/// `prev`. `LedgerWriter.append(_:durability:)` then writes the bytes as they
/// are when, under its lock, the log's head is still ``base`` and no id of the
/// batch is in the log or repeats within it; otherwise it seals the batch
/// itself, as it seals any batch. An event that cannot be sealed ahead (a
/// repeat within its caller's batch, a line that would be too long) leaves the
/// batch unsealed from then on (``isSealed`` false): the writer decides.
package struct SealedBatch: Sendable {
    /// The events, checked and encoded, in order.
    package private(set) var prepared = PreparedEvents()
    /// The head the first line was (or is to be) sealed on; nil for a batch
    /// not sealed ahead.
    package private(set) var base: Head?
    /// The head after the last line sealed: where the next batch seals its
    /// first line. Nil when the batch is not sealed ahead.
    package private(set) var tip: Head?
    /// The sealed lines, each with its LF, one after another.
    private(set) var bytes: [UInt8] = []
    /// Each event's line's SHA-256: event `k` is line `base.seq + k + 1`.
    private(set) var digests: [SHA256.Digest] = []

    /// An empty batch whose first line will be sealed after `head` (nil: not sealed ahead).
    package init(on head: Head?) {
        base = head
        tip = head
    }

    /// How many events the batch holds.
    package var count: Int { prepared.count }

    /// Whether every event's line is sealed, on ``base``.
    package var isSealed: Bool { tip != nil }

    /// How many bytes the sealed lines take (0 when not sealed ahead).
    package var byteCount: Int { bytes.count }

    /// Makes room for `n` events whose lines take `size` bytes in all, so that
    /// the batch does not grow step by step as they join (a store's next group
    /// is about the size of the last one).
    package mutating func reserveCapacity(events n: Int, bytes size: Int) {
        prepared.reserveCapacity(n)
        bytes.reserveCapacity(size)
        digests.reserveCapacity(n)
    }

    /// Adds a caller's single event (moved in, not copied) and seals its line.
    package mutating func append(_ one: consuming PreparedEvent) {
        seal(one.item)
        prepared.append(one)
    }

    /// Adds a caller's batch and seals its lines.
    package mutating func append(contentsOf other: PreparedEvents) {
        prepared.append(contentsOf: other)
        for item in other.items { seal(item) }
    }

    /// Seals the next event's line after ``tip``; a repeat of an earlier event
    /// of its batch, or a line that would be too long, leaves the batch to the writer.
    private mutating func seal(_ item: PreparedEvents.Item) {
        guard let head = tip else { return }
        let seq = head.seq + 1
        let length = item.line.length(seq: seq)
        guard item.repeatOf == nil, length <= LineCodec.maxLineLength else {
            unseal()
            return
        }
        let at = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: length + 1))
        let digest = bytes.withUnsafeMutableBufferPointer { buffer in
            // `buffer` holds `at + length + 1` bytes: the base address exists.
            item.line.seal(seq: seq, after: head.sha256, to: buffer.baseAddress.unsafelyUnwrapped + at)
        }
        digests.append(digest)
        tip = Head(seq: seq, sha256: digest)
    }

    /// Leaves the batch to the writer to seal.
    private mutating func unseal() {
        tip = nil
        bytes = []
        digests = []
    }

    /// Seals every line again, on `head` (the log moved under the batch: a
    /// batch before it was written otherwise, or another writer appended).
    package mutating func reseal(on head: Head) {
        base = head
        tip = head
        bytes.removeAll(keepingCapacity: true)
        digests.removeAll(keepingCapacity: true)
        for item in prepared.items { seal(item) }
    }

    /// Takes the first `n` events out, as a batch of their own (sealed as
    /// they were); the rest is then sealed on the last of them.
    package mutating func removeFirst(_ n: Int) -> SealedBatch {
        var first = SealedBatch(on: base)
        first.prepared = prepared.removeFirst(n)
        guard let base, isSealed, n > 0 else {
            first.unseal()
            return first
        }
        var size = 0
        for k in 0..<n { size += first.prepared.items[k].line.length(seq: base.seq + k + 1) + 1 }
        first.bytes = Array(bytes[..<size])
        first.digests = Array(digests[..<n])
        first.tip = Head(seq: base.seq + n, sha256: digests[n - 1])
        bytes.removeFirst(size)
        digests.removeFirst(n)
        self.base = first.tip
        return first
    }

    /// Takes the events in `range` out (a caller's batch the writer refused)
    /// and seals the rest again on ``base``.
    package mutating func removeSubrange(_ range: Range<Int>) {
        prepared.removeSubrange(range)
        if let base { reseal(on: base) }
    }
}
