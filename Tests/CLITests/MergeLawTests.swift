import Events
import Foundation
import Ledger
import Simulation
import Testing

/// `merge` on seeded random logs: the laws as bytes, and the output checked
/// against an independent model (the set of ids, ordered by UTC minute then id).
@Suite("Merge laws")
struct MergeLawTests {
    /// A pool of events, each id with one content; its instant is `minute`.
    struct PoolEvent { var id: String; var minute: Int; var event: NewEvent }

    static func pool(_ rng: inout SplitMix64, count: Int) throws -> [PoolEvent] {
        try (0..<count).map { k in
            let minute = Int(rng.next() % 600)   // ties on purpose
            let offsets = [(0, "Z"), (120, "+02:00"), (-420, "-07:00")]
            let (shift, suffix) = offsets[Int(rng.next() % 3)]
            let local = minute + shift + 1440
            let at = String(format: "2025-05-%02dT%02d:%02d:00", 1 + local / 1440, (local / 60) % 24, local % 60) + suffix
            let id = "e-\(rng.next() % 1000)-\(k)"
            let line = #"{"id":"\#(id)","at":"\#(at)","user":"u-1","type":"hints.granted","data":{"amount":\#(1 + rng.next() % 9),"reason":"grant"}}"#
            return PoolEvent(id: id, minute: minute, event: try LineCodec.decodeNewEvent(Array(line.utf8)))
        }
    }

    /// A log of a random subset of the pool, appended in a random order.
    static func log(_ name: String, from pool: [PoolEvent], _ rng: inout SplitMix64, in dir: TemporaryDirectory) throws -> String {
        let path = dir.path(name)
        let writer = try LedgerWriter(path: path)
        var chosen = pool.filter { _ in rng.next() % 2 == 0 }
        chosen.shuffle(using: &rng)
        try writer.append(chosen.map(\.event))
        writer.close()
        return path
    }

    static func merged(_ inputs: [String], _ name: String, in dir: TemporaryDirectory) throws -> [UInt8] {
        try LogMerge.merge(inputs, into: dir.path(name))
        return dir.bytes(name)
    }

    @Test("commutative, idempotent, associative as bytes; ordered by instant then id", arguments: [7, 8, 9, 10, 11, 12] as [UInt64])
    func laws(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        var rng = SplitMix64(seed: seed)
        let pool = try Self.pool(&rng, count: 60)
        let a = try Self.log("a.log", from: pool, &rng, in: dir)
        let b = try Self.log("b.log", from: pool, &rng, in: dir)
        let c = try Self.log("c.log", from: pool, &rng, in: dir)

        let ab = try Self.merged([a, b], "ab.log", in: dir)
        #expect(try Self.merged([b, a], "ba.log", in: dir) == ab)
        #expect(try Self.merged([a, a], "aa.log", in: dir) == Self.merged([a], "a1.log", in: dir))
        #expect(try Self.merged([dir.path("a1.log")], "a2.log", in: dir) == dir.bytes("a1.log"), "merging a merged log changes nothing")
        let bc = try Self.merged([b, c], "bc.log", in: dir)
        let left = try Self.merged([dir.path("ab.log"), c], "ab_c.log", in: dir)
        let right = try Self.merged([a, dir.path("bc.log")], "a_bc.log", in: dir)
        #expect(left == right)
        #expect(left == (try Self.merged([c, b, a, b], "cbab.log", in: dir)))
        _ = bc

        // The model: the union of ids, by minute then id bytes.
        var ids = Set<String>()
        for path in [a, b, c] { try LogReader(path: path).read { ids.insert($0.id) } }
        let expected = pool.filter { ids.contains($0.id) }
            .sorted { ($0.minute, Array($0.id.utf8)).0 != $1.minute ? $0.minute < $1.minute : Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
            .map(\.id)
        var got: [String] = []
        let report = try verify(path: dir.path("ab_c.log"))
        #expect(report.isOK)
        try LogReader(path: dir.path("ab_c.log")).read { got.append($0.id) }
        #expect(got == expected)
        #expect(try Self.permissions(dir.path("ab_c.log")) == 0o600)
    }

    static func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
