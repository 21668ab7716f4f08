@testable import Projections
import Events
import Simulation
import Testing

/// The lean report fold's parts against the plain collections they replace,
/// on seeded random input wider than any log the agreement tests make: days
/// far apart and before 1970, keys of every length the hash and the
/// comparison treat differently, namespaces.
@Suite("report fold parts: active days, byte keys, day counts")
struct ReportFoldPartsTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 99, 2025]

    @Test("ActiveDays is a set of days, inserted in any order", arguments: seeds)
    func daySet(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var set = ActiveDays()
        var plain: Set<Int> = []
        let centre = Int.random(in: -800_000...2_900_000, using: &rng)
        for step in 0..<2_000 {
            // Mostly near the centre (runs), sometimes far away, in any order.
            let day = Int.random(in: 0..<10, using: &rng) == 0
                ? Int.random(in: -719_000...2_932_000, using: &rng)
                : centre + Int.random(in: -300...300, using: &rng)
            #expect(set.insert(Day(ordinal: day)) == plain.insert(day).inserted)
            if step % 97 == 0 {
                let probe = centre + Int.random(in: -310...310, using: &rng)
                #expect(set.contains(Day(ordinal: probe)) == plain.contains(probe))
            }
            if step == 1_000 {
                #expect(set.days == plain.sorted().map { Day(ordinal: $0) })
                set = ActiveDays()
                plain.removeAll()
            }
        }
    }

    @Test("ByteKeys numbers keys in first-seen order, exactly by bytes and namespace", arguments: seeds)
    func byteKeys(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var keys = ByteKeys()
        var plain: [[UInt8]: Int] = [:]
        var order: [[UInt8]] = []
        // Lengths 0 to 20 cross every branch of the hash and the comparison (0, 1-3, 4-7, 8, 9-16, 17+).
        let alphabet: [UInt8] = Array("ab\u{E9}".utf8) + [0, 0xFF]
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...20, using: &rng)
            let body = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            let tag = Int32(Int.random(in: 0...3, using: &rng))
            let whole = withUnsafeBytes(of: tag.littleEndian) { Array($0) } + body
            let found = body.withUnsafeBytes { keys.find($0, tag: tag) }
            #expect(found == plain[whole])
            let (index, inserted) = body.withUnsafeBytes { keys.insert($0, tag: tag) }
            #expect(inserted == (plain[whole] == nil))
            if inserted {
                plain[whole] = order.count
                order.append(whole)
            }
            #expect(index == plain[whole])
            #expect(Array(keys.key(index)) == body)
            #expect(body.withUnsafeBytes { keys.key(index, equals: $0) })
        }
        #expect(keys.count == order.count)
        #expect(keys.count > 1_000)
    }

    @Test("DayCounts keeps each day's counts, growing either way; zero elsewhere", arguments: seeds)
    func dayCounts(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var counts = DayCounts()
        var plain: [Int: Int] = [:]
        let start = Int.random(in: 0...30_000, using: &rng)
        for _ in 0..<3_000 {
            let day = start + Int.random(in: -400...400, using: &rng)
            counts.update(day) { $0.hints += 1 }
            plain[day, default: 0] += 1
        }
        for day in (start - 450)...(start + 450) {
            #expect(counts[day].hints == plain[day] ?? 0)
        }
    }

    /// Keys that a cheap hash of their first and last bytes cannot tell
    /// apart: the same 8-byte head and tail, different middles (and short
    /// keys of every length).
    static func collidingKeys(_ rng: inout SplitMix64, count: Int) -> [[UInt8]] {
        let alphabet: [UInt8] = Array("ab\u{E9}".utf8) + [0, 0xFF]
        return (0..<count).map { _ in
            if Int.random(in: 0..<3, using: &rng) == 0 {
                return (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            }
            let middle = (0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            return Array("u-head-1".utf8) + middle + Array("tail-end".utf8)
        }
    }

    @Test("UserNumbers (a KeyCache in front of ByteKeys) numbers users exactly, colliding ones too", arguments: seeds)
    func userNumbers(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pool = Self.collidingKeys(&rng, count: 300)
        for _ in 0..<2 {
            var users = UserNumbers()
            var plain: [[UInt8]: Int32] = [:]
            for _ in 0..<6_000 {
                let key = pool[Int.random(in: 0..<pool.count, using: &rng)]
                let (number, isNew) = key.withUnsafeBytes { users.number($0) }
                #expect(isNew == (plain[key] == nil))
                if isNew { plain[key] = Int32(plain.count) }
                #expect(number == plain[key])
                #expect(Array(users.id(Int(number))) == key)
            }
            #expect(users.count == plain.count)
            // Forgotten users are numbered again from 0 (the cache forgets them too).
            users.removeAll()
            let again = pool[0]
            let (number, isNew) = again.withUnsafeBytes { users.number($0) }
            #expect(number == 0 && isNew)
        }
    }

    @Test("ByteKeys files a key where its look-up missed as insert files it", arguments: seeds)
    func insertAtMiss(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let pool = Self.collidingKeys(&rng, count: 2_000)
        var keys = ByteKeys(), plain = ByteKeys()
        for _ in 0..<6_000 {
            let key = pool[Int.random(in: 0..<pool.count, using: &rng)]
            let tag = Int32(Int.random(in: 0...2, using: &rng))
            var miss: ByteKeys.Miss?
            let found = key.withUnsafeBytes { keys.find($0, tag: tag, orMiss: &miss) }
            let expected = key.withUnsafeBytes { plain.insert($0, tag: tag) }
            if let found {
                #expect(!expected.inserted && found == expected.index)
            } else if let miss {
                #expect(expected.inserted)
                #expect(key.withUnsafeBytes { keys.insert($0, tag: tag, at: miss) } == expected.index)
            } else {
                // An empty table misses without a slot.
                #expect(keys.count == 0)
                #expect(key.withUnsafeBytes { keys.insert($0, tag: tag).index } == expected.index)
            }
        }
        #expect(keys.count == plain.count)
        for i in 0..<keys.count {
            #expect(keys.key(i) == plain.key(i))
            #expect(keys.key(i).withUnsafeBytes { keys.find($0, tag: plain.tag(i)) } == i)
        }
    }

    @Test("AttemptIndex finds each user's attempts by exact id, the same ids under many users", arguments: seeds)
    func attemptIndex(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let ids = Self.collidingKeys(&rng, count: 60)
        var index = AttemptIndex()
        var plain: [[UInt8]: Int] = [:]
        var started = 0
        for step in 0..<8_000 {
            let user = Int32(Int.random(in: 0..<40, using: &rng))
            let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
            let whole = withUnsafeBytes(of: user.littleEndian) { Array($0) } + id
            index.user = user
            // The bytes live in an array of their own: the start right after its find, as the lifecycle does, or alone.
            let copy = id
            let before = plain[whole]
            let found = copy.withUnsafeBytes { bytes -> Int? in
                let found = index.find(bytes)
                if found == nil, Int.random(in: 0..<2, using: &rng) == 0 {
                    let day = Day(ordinal: 20_000 + step)
                    let (attempt, _) = index.start(bytes, on: day)
                    #expect(attempt == started)
                    #expect(index.day(attempt) == day)
                    plain[whole] = attempt
                    started += 1
                }
                return found
            }
            #expect(found == before)
            if let found { #expect(index.isRunning(found)) }
        }
        #expect(started > 1_000)
        // A start through a String, with no find before it, files the attempt too.
        index.user = 7
        let (attempt, _) = index.start("fresh-attempt-id", on: Day(ordinal: 1))
        #expect(index.find("fresh-attempt-id") == attempt)
        index.user = 8
        #expect(index.find("fresh-attempt-id") == nil)
    }

    @Test("DayBits is a set of days, in and outside its window, in any order", arguments: seeds)
    func dayBits(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<3 {
            var set = DayBits()
            var plain: Set<Int> = []
            let centre = Int.random(in: -800_000...2_900_000, using: &rng)
            for _ in 0..<3_000 {
                // Mostly around the first day (the window and just past its ends), sometimes years away.
                let day = Int.random(in: 0..<10, using: &rng) == 0
                    ? Int.random(in: -719_000...2_932_000, using: &rng)
                    : centre + Int.random(in: -120...300, using: &rng)
                #expect(set.insert(day) == plain.insert(day).inserted)
            }
            // Every day once: the window's ascending, then those outside it ascending.
            var seen: [Int] = []
            set.forEach { seen.append($0) }
            #expect(seen.sorted() == plain.sorted())
            #expect(Set(seen).count == seen.count)
            #expect(!set.isEmpty)
        }
        #expect(DayBits().isEmpty)
        var none: [Int] = []
        DayBits().forEach { none.append($0) }
        #expect(none.isEmpty)
    }

    @Test("KeyCache numbers keys as ByteKeys does when every key falls in one pair of positions", arguments: seeds)
    func keyCacheOnePair(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // `bits: 1`: one pair, so every key shares it (three or more push each other out).
        let pool = Self.collidingKeys(&rng, count: 12)
        for bits in [1, 2, 7] {
            var cache = KeyCache(bits: bits)
            var keys = ByteKeys()
            var plain: [[UInt8]: Int] = [:]
            for _ in 0..<3_000 {
                // Runs of one key, and keys alternating, as a log's skills come.
                let key = pool[Int.random(in: 0..<(Int.random(in: 0..<4, using: &rng) == 0 ? pool.count : 3), using: &rng)]
                let (index, inserted) = key.withUnsafeBytes { cache.insert($0, into: &keys) }
                #expect(inserted == (plain[key] == nil))
                if inserted { plain[key] = plain.count }
                #expect(index == plain[key])
                #expect(Array(keys.key(index)) == key)
            }
            #expect(keys.count == plain.count)
        }
    }

    @Test("ScoreMean's sum is exact: against a common denominator", arguments: seeds)
    func scoreMeanExact(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // 27,720 is the least common multiple of 1 ... 12: every sum is an integer count of 1/27,720ths.
        let unit = 27_720
        var mean = ScoreMean()
        var sum = 0
        for n in 1...600 {
            let questions = Int.random(in: 1...12, using: &rng)
            let score = Int.random(in: 0...questions, using: &rng)
            mean.add(score: score, questions: questions)
            sum += score * (unit / questions)
            // round(100 * sum / (unit * n)), halves up, in integers.
            let whole = unit * n
            #expect(mean.percent == (200 * sum + whole) / (2 * whole))
        }
    }
}
