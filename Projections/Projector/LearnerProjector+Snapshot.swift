import Events

/// Saving a live projector and going on from it later, without a replay.
///
/// ```swift
/// let bytes = try projector.snapshotBytes()                   // store them with the log position they match
/// var again = try LearnerProjector(snapshot: bytes, options: options)
/// again.apply(contentsOf: recordsAfterThatPosition)            // only the new tail
/// ```
///
/// The bytes hold the fold, the last `seq` applied and the options. A snapshot
/// is only continued with options that fold the same way (``StateOptions/foldKey``:
/// user, as-of, streak mode); the options the fold never reads (day, retry
/// limit, history days, catalog) are taken from the caller, so an app can ask
/// for a new day without a new snapshot.
extension LearnerProjector {
    /// The version of the snapshot bytes. Bumped whenever the fold or its
    /// stored form changes in a way that would make an old snapshot fold
    /// differently; a snapshot of another version is refused, never misread.
    public static let snapshotVersion = 1

    /// The first bytes of a projector snapshot.
    static let snapshotMagic: [UInt8] = Array("LPRJ".utf8)

    /// This projector as bytes: a header with ``snapshotVersion``, then its
    /// `Codable` form in a compact binary encoding.
    public func snapshotBytes() throws -> [UInt8] {
        var bytes = Self.snapshotMagic
        let v = UInt32(Self.snapshotVersion)
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(8 * i))) }
        bytes.append(contentsOf: try CompactEncoder().encode(self))
        return bytes
    }

    /// Restores a projector from ``snapshotBytes()`` to go on folding after
    /// the record it had applied last (``lastAppliedSeq``).
    ///
    /// Refuses bytes of another ``snapshotVersion``, bytes that do not decode,
    /// and a snapshot made for options that fold differently (another user,
    /// as-of or streak mode). The restored projector answers with `options`.
    public init(snapshot bytes: [UInt8], options: StateOptions) throws(ProjectorSnapshotError) {
        let magic = Self.snapshotMagic
        guard bytes.count >= magic.count + 4, bytes.prefix(magic.count).elementsEqual(magic) else {
            throw ProjectorSnapshotError(.unreadable, "not a learner projector snapshot")
        }
        var version = 0
        for i in 0..<4 { version |= Int(bytes[magic.count + i]) << (8 * i) }
        guard version == Self.snapshotVersion else {
            let kind: ProjectorSnapshotError.Kind = version > Self.snapshotVersion ? .newerVersion : .olderVersion
            throw ProjectorSnapshotError(kind, "the state was saved in projector snapshot version \(version); "
                                         + "this version reads only version \(Self.snapshotVersion)")
        }
        let saved: LearnerProjector
        do {
            saved = try CompactDecoder().decode(LearnerProjector.self, from: Array(bytes[(magic.count + 4)...]))
        } catch {
            throw ProjectorSnapshotError(.unreadable, "the saved state does not decode: \(error)")
        }
        guard saved.options.foldsLike(options) else {
            throw ProjectorSnapshotError(.otherFold, "it was made for \(saved.options.foldKey), not \(options.foldKey)")
        }
        self = saved.replacingOptions(options)
    }
}

extension StateOptions {
    /// What decides which events are folded and how, as one line of text:
    /// `user "u-42", as-of none, streak-on daily`.
    ///
    /// Two options with the same key fold the same way; the other options
    /// (day, retry limit, history days, catalog) are only read when the state
    /// is asked for. Snapshots are keyed by this.
    public var foldKey: String {
        "user \(quoted(user)), as-of \(asOf?.description ?? "none"), streak-on \(streakOn.rawValue)"
    }

    /// Whether a fold made with `other` can be continued with these options
    /// (same user exactly, same as-of, same streak mode).
    public func foldsLike(_ other: StateOptions) -> Bool {
        CodePoint.equal(user, other.user) && asOf == other.asOf && streakOn == other.streakOn
    }
}

/// Why projector snapshot bytes cannot be continued.
public struct ProjectorSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of refusal.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Saved by a newer version of the code.
        case newerVersion = "newer_version"
        /// Saved by an older version whose form this one no longer reads.
        case olderVersion = "older_version"
        /// Not a projector snapshot, or damaged.
        case unreadable
        /// Made for another user, as-of or streak mode.
        case otherFold = "other_fold"
    }

    /// The kind of refusal.
    public var kind: Kind
    /// What is wrong, for a person.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }

    /// The message.
    public var description: String { message }
}
