/// Byte strings numbered in the order they are first seen: the compact
/// folds' users, skills, quiz and question ids and (per user) attempt ids,
/// each stored once.
///
/// Keys are compared exactly, byte for byte (the spec compares ids exactly:
/// "é" and "e" + U+0301 are different users), within a namespace `tag` (the
/// user's number for attempt ids, 0 otherwise). The bytes live in one arena
/// and the table is open addressing over key numbers, so a key costs its
/// bytes and about 28 more (16 for its entry, 8 to 16 in the table), and a
/// look-up hashes once and allocates nothing.
struct ByteKeys: Sendable {
    private struct Entry: Sendable {
        /// Where the key's bytes start in `arena`.
        var offset: Int
        /// Its length.
        var length: Int32
        /// Its namespace.
        var tag: Int32
    }

    private var arena: [UInt8] = []
    private var entries: [Entry] = []
    /// Key numbers, -1 for an empty slot; a power of two long, at most half full.
    private var slots: [Int32] = []
    /// This table's hash seed.
    private let seed = ByteKeys.processSeed

    /// Makes an empty set of keys.
    init() {}

    /// How many keys there are; they are numbered `0 ..< count`.
    var count: Int { entries.count }

    /// Forgets every key, keeping the storage for the next ones.
    mutating func removeAll() {
        arena.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
    }

    /// The number of `key` in namespace `tag`, and whether it was added now.
    mutating func insert(_ key: UnsafeRawBufferPointer, tag: Int32 = 0) -> (index: Int, inserted: Bool) {
        let hash = Self.hash(key, tag, seed)
        if slots.isEmpty { slots = Array(repeating: -1, count: 16) }
        let slot = lookup(key, tag, hash)
        if slots[slot] >= 0 { return (Int(slots[slot]), false) }
        return (add(key, tag: tag, at: slot), true)
    }

    /// Files a new `key` of namespace `tag` at `slot` (where its look-up
    /// ended, no key added since): its number.
    private mutating func add(_ key: UnsafeRawBufferPointer, tag: Int32, at slot: Int) -> Int {
        let index = entries.count
        entries.append(Entry(offset: arena.count, length: Int32(truncatingIfNeeded: key.count), tag: tag))
        arena.append(contentsOf: key)
        if 2 * entries.count > slots.count {
            grow()                  // places the new key too
        } else {
            slots[slot] = Int32(truncatingIfNeeded: index)
        }
        return index
    }

    /// The number of `key` in namespace `tag`, nil when it was never inserted.
    func find(_ key: UnsafeRawBufferPointer, tag: Int32 = 0) -> Int? {
        guard !slots.isEmpty else { return nil }
        let n = slots[lookup(key, tag, Self.hash(key, tag, seed))]
        return n >= 0 ? Int(n) : nil
    }

    /// Where a look-up that found nothing ended: ``insert(_:tag:at:)`` files
    /// the same key there without hashing and probing again, while no key
    /// was added since (``count`` is still `count`).
    struct Miss {
        fileprivate let slot: Int
        /// ``count`` when the look-up was made.
        let count: Int
    }

    /// The number of `key` in namespace `tag`, or where it would be filed.
    func find(_ key: UnsafeRawBufferPointer, tag: Int32, orMiss miss: inout Miss?) -> Int? {
        guard !slots.isEmpty else { miss = nil; return nil }
        let slot = lookup(key, tag, Self.hash(key, tag, seed))
        let n = slots[slot]
        if n >= 0 { return Int(n) }
        miss = Miss(slot: slot, count: entries.count)
        return nil
    }

    /// ``insert(_:tag:)`` of a key that a look-up just missed (`miss`, made
    /// with the same key and tag, and no key added since): its new number.
    mutating func insert(_ key: UnsafeRawBufferPointer, tag: Int32, at miss: Miss) -> Int {
        guard miss.count == entries.count else { return insert(key, tag: tag).index }
        return add(key, tag: tag, at: miss.slot)
    }

    /// The bytes of key number `index`.
    func key(_ index: Int) -> ArraySlice<UInt8> {
        let e = entries[index]
        return arena[e.offset..<(e.offset + Int(e.length))]
    }

    /// The namespace of key number `index`.
    func tag(_ index: Int) -> Int32 { entries[index].tag }

    /// Whether key number `index` is `key` (in any namespace).
    @inline(__always)
    func key(_ index: Int, equals key: UnsafeRawBufferPointer) -> Bool {
        let e = entries[index]
        guard Int(e.length) == key.count else { return false }
        return arena.withUnsafeBytes { arena in
            guard let base = arena.baseAddress else { return key.isEmpty }
            return Self.equal(UnsafeRawBufferPointer(start: base + e.offset, count: key.count), key)
        }
    }

    /// The slot holding `key`, or the empty slot where it would go (`slots` is not empty).
    private func lookup(_ key: UnsafeRawBufferPointer, _ tag: Int32, _ hash: Int) -> Int {
        arena.withUnsafeBytes { arena in
            entries.withUnsafeBufferPointer { entries in
                slots.withUnsafeBufferPointer { slots in
                    let mask = slots.count - 1
                    var slot = hash & mask
                    while true {
                        let n = Int(slots[slot])
                        if n < 0 { return slot }
                        let e = entries[n]
                        if e.tag == tag, Int(e.length) == key.count,
                           let base = arena.baseAddress,
                           Self.equal(UnsafeRawBufferPointer(start: base + e.offset, count: key.count), key) {
                            return slot
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// Doubles the table, hashing the keys again (amortised: a key is
    /// rehashed about once in all).
    private mutating func grow() {
        var grown = [Int32](repeating: -1, count: max(16, 2 * slots.count))
        let mask = grown.count - 1
        arena.withUnsafeBytes { arena in
            for (index, e) in entries.enumerated() {
                let key = UnsafeRawBufferPointer(rebasing: arena[e.offset..<(e.offset + Int(e.length))])
                var slot = Self.hash(key, e.tag, seed) & mask
                while grown[slot] >= 0 { slot = (slot + 1) & mask }
                grown[slot] = Int32(truncatingIfNeeded: index)
            }
        }
        slots = grown
    }

    /// A 64-bit multiply-xorshift hash of the key's words, with its length, the
    /// namespace and a per-process seed mixed in (a log cannot choose ids that
    /// collide), finished with MurmurHash3's `fmix64`. Several times cheaper
    /// than `Hasher` on short keys, and the table needs no more.
    @inline(__always)
    private static func hash(_ key: UnsafeRawBufferPointer, _ tag: Int32, _ seed: UInt64) -> Int {
        let m: UInt64 = 0x9E37_79B9_7F4A_7C15
        let n = key.count
        var h = seed ^ (UInt64(n) &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(UInt32(bitPattern: tag))
        @inline(__always) func mix(_ word: UInt64) {
            h = (h ^ word) &* m
            h ^= h >> 29
        }
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                mix(key.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            mix(key.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))     // the last 8, overlapping
        } else if n >= 4 {
            let low = UInt64(key.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            let high = UInt64(key.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self))
            mix(low | high << 32)
        } else if n > 0 {
            mix(UInt64(key[0]) | UInt64(key[n / 2]) << 8 | UInt64(key[n - 1]) << 16)
        }
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h)
    }

    /// Drawn once per process from the standard library's seeded hasher.
    private static let processSeed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0x7265_706F_7274 as UInt64)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }()

    /// Whether two buffers of the same length hold the same bytes.
    @inline(__always)
    static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                    return false
                }
                i += 8
            }
            return a.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        }
        if n >= 4 {
            return a.loadUnaligned(fromByteOffset: 0, as: UInt32.self) == b.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
        }
        if n >= 2 {
            return a.loadUnaligned(fromByteOffset: 0, as: UInt16.self) == b.loadUnaligned(fromByteOffset: 0, as: UInt16.self)
                && a.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self) == b.loadUnaligned(fromByteOffset: n - 2, as: UInt16.self)
        }
        return n == 0 || a.load(as: UInt8.self) == b.load(as: UInt8.self)
    }
}

/// Calls `body` with the UTF-8 bytes of `string`, without copying a native string.
@inline(__always)
func withUTF8Bytes<R>(_ string: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    if let r = string.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return r }
    var copy = string
    return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
}

/// A direct-mapped cache in front of a ``ByteKeys`` whose keys are all in
/// namespace 0 (the users, the skills): a key's number is found from a
/// cheap, unseeded hash of its bytes in one probe, then checked exactly
/// against the table's own bytes. A miss (a collision included) falls back
/// to the table's seeded look-up, so ids chosen to collide here cost only
/// that look-up: the cache never decides what a key is.
struct KeyCache: Sendable {
    /// Key numbers by position, -1 for none.
    private var numbers: [Int32]
    /// 64 less the position's bits.
    private let shift: UInt64

    /// An empty cache of `2^bits` positions.
    init(bits: Int) {
        numbers = Array(repeating: -1, count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// Where `key` is cached.
    @inline(__always)
    private func position(_ key: UnsafeRawBufferPointer) -> Int {
        let n = key.count
        var w = UInt64(truncatingIfNeeded: n)
        if n >= 8 {
            let head = key.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
            let tail = key.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            w ^= head ^ (tail << 29 | tail >> 35)
        } else if n >= 4 {
            w ^= UInt64(key.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) << 8
                ^ UInt64(key.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)) << 32
        } else if n > 0 {
            w ^= (UInt64(key[0]) | UInt64(key[n / 2]) << 8 | UInt64(key[n - 1]) << 16) << 8
        }
        return Int(truncatingIfNeeded: (w &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// ``ByteKeys/insert(_:tag:)`` of `key` (namespace 0) into `keys`, this
    /// cache first: a hit is checked byte for byte against `keys`' own copy of
    /// the key; a miss goes to the table and caches what it answers.
    @inline(__always)
    mutating func insert(_ key: UnsafeRawBufferPointer, into keys: inout ByteKeys) -> (index: Int, inserted: Bool) {
        let position = position(key)
        let n = Int(numbers[position])
        if n >= 0, n < keys.count, keys.key(n, equals: key) { return (n, false) }
        let found = keys.insert(key)
        numbers[position] = Int32(truncatingIfNeeded: found.index)
        return found
    }

    /// Forgets every key.
    mutating func removeAll() {
        for i in numbers.indices { numbers[i] = -1 }
    }
}
