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
}
