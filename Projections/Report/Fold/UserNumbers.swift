/// The compact folds' users (the report, the question analysis, the
/// leaderboard): numbered in the order first seen, each id stored once
/// (``ByteKeys``, compared exactly), the user of the event before remembered:
/// half the lines of a log are by the user of the line before, found without hashing.
struct UserNumbers: Sendable {
    private var ids = ByteKeys()
    /// Users by a cheap hash of their bytes: most events are by one of a
    /// few hundred users, found here without the table's seeded hash (4,096
    /// positions, 16 KiB: 700 users in 1,024 left a sixth of them sharing a
    /// pair with two others).
    private var cache = KeyCache(bits: 12)
    /// The number of the user of the latest event (-1 before one).
    private var last: Int32 = -1

    /// No user.
    init() {}

    /// How many users there are; they are numbered `0 ..< count`.
    var count: Int { ids.count }

    /// The user's number, and whether the user is new.
    mutating func number(_ user: String) -> (number: Int32, isNew: Bool) { withUTF8Bytes(user) { number($0) } }

    /// The number of the user whose id is these UTF-8 bytes, and whether the user is new.
    mutating func number(_ user: UnsafeRawBufferPointer) -> (number: Int32, isNew: Bool) {
        let index: Int, inserted: Bool
        if last >= 0, ids.key(Int(last), equals: user) {
            (index, inserted) = (Int(last), false)
        } else {
            (index, inserted) = cache.insert(user, into: &ids)
        }
        last = Int32(truncatingIfNeeded: index)
        return (last, inserted)
    }

    /// User number `k`'s id, as bytes.
    func id(_ k: Int) -> ArraySlice<UInt8> { ids.key(k) }

    /// User number `k`'s id.
    func name(_ k: Int) -> String { String(decoding: ids.key(k), as: UTF8.self) }

    /// Forgets every user (they were closed), keeping the storage.
    mutating func removeAll() {
        ids.removeAll()
        cache.removeAll()
        last = -1
    }

    /// Numbers user `id` (bytes) after the others (merging another fold's users); false when it was there.
    mutating func insert(_ id: ArraySlice<UInt8>) -> Bool {
        last = -1
        return Array(id).withUnsafeBytes { ids.insert($0).inserted }
    }
}
