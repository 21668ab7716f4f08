/// Byte strings numbered in the order they are first seen: the compact
/// folds' users, skills, quiz and question ids and (per user) attempt ids,
/// each stored once.
///
/// Keys are compared exactly, byte for byte (the spec compares ids exactly:
/// "é" and "e" + U+0301 are different users), within a namespace `tag` (the
/// user's number for attempt ids, 0 otherwise). The bytes live in one arena
/// and the table is open addressing over key numbers, so a key costs its
/// bytes and about 40 more (16 for its entry, 16 to 32 in the table), and a
/// look-up hashes once and allocates nothing.
///
/// Each slot holds its key's number and the high 32 bits of its hash, so a
/// probe passes over a slot of another hash without reading that key's
/// entry or bytes (on a large table each is a cache miss: a new attempt's
/// look-up, which must reach an empty slot, read 1 to 3 of each before).
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
    /// Per slot, 0 when empty, else ``Self/slot(_:hash:)``'s word (the key's
    /// number and its hash's high half); a power of two long, at most half full.
    private var slots: [UInt64] = []
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
        for i in slots.indices { slots[i] = 0 }
    }

    /// A slot's word for key number `index` whose hash is `hash`: the
    /// hash's high 32 bits above `index + 1` (never 0, an empty slot's word).
    @inline(__always)
    private static func slot(_ index: Int, hash: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: hash) & 0xFFFF_FFFF_0000_0000 | UInt64(truncatingIfNeeded: index + 1) & 0xFFFF_FFFF
    }

    /// The key number in a slot's word (-1 for an empty slot).
    @inline(__always)
    private static func number(_ word: UInt64) -> Int { Int(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1 }

    /// The number of `key` in namespace `tag`, and whether it was added now.
    mutating func insert(_ key: UnsafeRawBufferPointer, tag: Int32 = 0) -> (index: Int, inserted: Bool) {
        let hash = Self.hash(key, tag, seed)
        if slots.isEmpty { slots = Array(repeating: 0, count: 16) }
        let slot = lookup(key, tag, hash)
        let n = Self.number(slots[slot])
        if n >= 0 { return (n, false) }
        return (add(key, tag: tag, at: slot, hash: hash), true)
    }

    /// Files a new `key` of namespace `tag`, whose hash is `hash`, at `slot`
    /// (where its look-up ended, no key added since): its number.
    private mutating func add(_ key: UnsafeRawBufferPointer, tag: Int32, at slot: Int, hash: Int) -> Int {
        let index = entries.count
        entries.append(Entry(offset: arena.count, length: Int32(truncatingIfNeeded: key.count), tag: tag))
        arena.append(contentsOf: key)
        if 2 * entries.count > slots.count {
            grow()                  // places the new key too
        } else {
            slots[slot] = Self.slot(index, hash: hash)
        }
        return index
    }

    /// The number of `key` in namespace `tag`, nil when it was never inserted.
    func find(_ key: UnsafeRawBufferPointer, tag: Int32 = 0) -> Int? {
        guard !slots.isEmpty else { return nil }
        let n = Self.number(slots[lookup(key, tag, Self.hash(key, tag, seed))])
        return n >= 0 ? n : nil
    }

    /// Where a look-up that found nothing ended: ``insert(_:tag:at:)`` files
    /// the same key there without hashing and probing again, while no key
    /// was added since (``count`` is still `count`).
    struct Miss {
        fileprivate let slot: Int
        /// The key's hash.
        fileprivate let hash: Int
        /// ``count`` when the look-up was made.
        let count: Int
    }

    /// The number of `key` in namespace `tag`, or where it would be filed.
    func find(_ key: UnsafeRawBufferPointer, tag: Int32, orMiss miss: inout Miss?) -> Int? {
        guard !slots.isEmpty else { miss = nil; return nil }
        let hash = Self.hash(key, tag, seed)
        let slot = lookup(key, tag, hash)
        let n = Self.number(slots[slot])
        if n >= 0 { return n }
        miss = Miss(slot: slot, hash: hash, count: entries.count)
        return nil
    }

    /// ``insert(_:tag:)`` of a key that a look-up just missed (`miss`, made
    /// with the same key and tag, and no key added since): its new number.
    mutating func insert(_ key: UnsafeRawBufferPointer, tag: Int32, at miss: Miss) -> Int {
        guard miss.count == entries.count else { return insert(key, tag: tag).index }
        return add(key, tag: tag, at: miss.slot, hash: miss.hash)
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
                    let high = UInt64(truncatingIfNeeded: hash) & 0xFFFF_FFFF_0000_0000
                    var slot = hash & mask
                    while true {
                        let word = slots[slot]
                        if word == 0 { return slot }
                        // Another hash: not this key (its entry and bytes not read).
                        guard word & 0xFFFF_FFFF_0000_0000 == high else {
                            slot = (slot + 1) & mask
                            continue
                        }
                        let e = entries[Self.number(word)]
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
        var grown = [UInt64](repeating: 0, count: max(16, 2 * slots.count))
        let mask = grown.count - 1
        arena.withUnsafeBytes { arena in
            for (index, e) in entries.enumerated() {
                let key = UnsafeRawBufferPointer(rebasing: arena[e.offset..<(e.offset + Int(e.length))])
                let hash = Self.hash(key, e.tag, seed)
                var slot = hash & mask
                while grown[slot] != 0 { slot = (slot + 1) & mask }
                grown[slot] = Self.slot(index, hash: hash)
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

/// A two-way cache in front of a ``ByteKeys`` whose keys are all in
/// namespace 0 (the users, the skills): a key's number is found from a
/// cheap, unseeded hash of its bytes in one pair of positions, then checked
/// exactly against the table's own bytes. A miss (a collision included)
/// falls back to the table's seeded look-up, so ids chosen to collide here
/// cost only that look-up: the cache never decides what a key is.
///
/// Two ways, not one: with one, two keys at one position (two of a log's 14
/// skills in 128 positions; a fifth of 700 users in 1,024) pushed each
/// other out, every use of one a look-up in the table. A miss files the key
/// in the pair's first way, the key there moving to the second.
struct KeyCache: Sendable {
    /// Key numbers by position, -1 for none.
    private var numbers: [Int32]
    /// 64 less the position's bits.
    private let shift: UInt64

    /// An empty cache of `2^bits` positions (`2^(bits - 1)` pairs).
    init(bits: Int) {
        numbers = Array(repeating: -1, count: 1 << max(bits, 1))
        shift = UInt64(64 - max(bits, 1))
    }

    /// The first of the pair of positions where `key` may be cached (even).
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
        return Int(truncatingIfNeeded: (w &* 0x9E37_79B9_7F4A_7C15) >> shift) & ~1
    }

    /// ``ByteKeys/insert(_:tag:)`` of `key` (namespace 0) into `keys`, this
    /// cache first: a hit is checked byte for byte against `keys`' own copy of
    /// the key; a miss goes to the table and caches what it answers.
    @inline(__always)
    mutating func insert(_ key: UnsafeRawBufferPointer, into keys: inout ByteKeys) -> (index: Int, inserted: Bool) {
        let position = position(key)
        // `position` is even and below `numbers.count`, a power of two >= 2: both are in bounds.
        let (first, second) = numbers.withUnsafeBufferPointer { (Int($0[position]), Int($0[position + 1])) }
        if first >= 0, first < keys.count, keys.key(first, equals: key) { return (first, false) }
        if second >= 0, second < keys.count, keys.key(second, equals: key) { return (second, false) }
        let found = keys.insert(key)
        numbers[position + 1] = Int32(truncatingIfNeeded: first)
        numbers[position] = Int32(truncatingIfNeeded: found.index)
        return found
    }

    /// Forgets every key.
    mutating func removeAll() {
        for i in numbers.indices { numbers[i] = -1 }
    }
}
