import Events
import Simulation
import Testing
@testable import Projections

/// The compact binary coding under the projector snapshots, on its own.
@Suite("Compact binary coding")
struct SnapshotCompactCodingTests {
    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String?]
        var nested: [Inner]?
    }

    struct Everything: Codable, Equatable {
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var double: Double
        var float: Float
        var bool: Bool
        var string: String
        var optionalPresent: Int?
        var optionalAbsent: String?
        var doubleOptional: Int??
        var array: [Int]
        var empty: [String]
        var set: Set<Int>
        var byString: [String: [Int]]
        var byInt: [Int: String]
        var byStruct: [Day: Inner]
        var inner: Inner
        var innerOptional: Inner?
        var day: Day
        var timestamp: Timestamp
        var instant: Instant
        var json: JSONValue
    }

    static func sample() throws -> Everything {
        Everything(
            int: Int.min, int8: -128, int16: 32767, int32: -1, int64: Int64.max, uint: UInt.max, uint8: 255,
            uint16: 0, uint32: 4_000_000_000, uint64: UInt64.max - 1, double: -0.1, float: 3.25, bool: true,
            string: "é \u{301} 🎓 \"quoted\"\n", optionalPresent: 0, optionalAbsent: nil, doubleOptional: .some(.some(3)),
            array: [1, -2, 300_000], empty: [], set: [5, 7, 9], byString: ["b": [1], "a": [], "": [2, 3]],
            byInt: [3: "three", -1: "minus one"],
            byStruct: [Day(ordinal: 20_000): Inner(name: "x", tags: ["t", nil, ""], nested: [Inner(name: "y", tags: [], nested: nil)])],
            inner: Inner(name: "", tags: [nil], nested: []), innerOptional: nil, day: Day(ordinal: -3),
            timestamp: try Timestamp(parsing: "2025-10-21T23:55:12.120+03:00"),
            instant: Instant(seconds: -5, nanoseconds: 999_999_999),
            json: .object([JSONMember("n", .number("1e3")), JSONMember("a", .array([.null, .bool(false), .string("s")]))]))
    }

    @Test("every kind of value round-trips")
    func roundTrip() throws {
        let value = try Self.sample()
        let bytes = try CompactEncoder().encode(value)
        #expect(try CompactDecoder().decode(Everything.self, from: bytes) == value)
        // Top-level primitives and collections too.
        #expect(try CompactDecoder().decode(Int.self, from: CompactEncoder().encode(42)) == 42)
        #expect(try CompactDecoder().decode([String?].self, from: CompactEncoder().encode(["a", nil])) == ["a", nil])
        #expect(try CompactDecoder().decode(String?.self, from: CompactEncoder().encode(String?.none)) == nil)
    }

    @Test("a field read as another type, a missing field, a value too large for its type: errors, not guesses")
    func typeErrors() throws {
        struct A: Codable { var x: Int; var y: String }
        struct B: Codable { var x: String; var y: String }
        struct C: Codable { var x: Int; var y: String; var z: Int }
        struct D: Codable { var x: Int8; var y: String }
        let bytes = try CompactEncoder().encode(A(x: 1000, y: "s"))
        #expect(throws: DecodingError.self) { try CompactDecoder().decode(B.self, from: bytes) }
        #expect(throws: DecodingError.self) { try CompactDecoder().decode(C.self, from: bytes) }
        #expect(throws: DecodingError.self) { try CompactDecoder().decode(D.self, from: bytes) }
    }

    @Test("a reader that skips fields (a subset) still reads the next value in place")
    func skipsUnread() throws {
        struct Full: Codable { var a: [Int]; var b: Inner; var c: String }
        struct Pair: Codable { var first: Full; var second: Full }
        struct OnlyA: Codable { var a: [Int] }
        struct PairOfA: Codable { var first: OnlyA; var second: OnlyA }
        let full = Full(a: [1, 2], b: Inner(name: "n", tags: ["x"], nested: [Inner(name: "m", tags: [], nested: nil)]), c: "c")
        let bytes = try CompactEncoder().encode(Pair(first: full, second: Full(a: [3], b: full.b, c: "d")))
        let read = try CompactDecoder().decode(PairOfA.self, from: bytes)
        #expect(read.first.a == [1, 2] && read.second.a == [3])
    }

    @Test("random bytes and every truncation of a valid value throw instead of crashing")
    func garbage() throws {
        let bytes = try CompactEncoder().encode(try Self.sample())
        for n in 0..<bytes.count {
            #expect(throws: DecodingError.self) { try CompactDecoder().decode(Everything.self, from: Array(bytes[..<n])) }
        }
        var rng = SplitMix64(seed: 7)
        var failures = 0
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<3 { damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            do { _ = try CompactDecoder().decode(Everything.self, from: damaged) } catch { failures += 1 }
        }
        #expect(failures > 0)   // most damage is caught by the tags and keys; the rest is what the file checksum is for
    }

    @Test("the hand-written fast paths write the bytes the Codable path writes, and read them the same", arguments: [1, 2, 3, 42] as [UInt64])
    func fastPathsMatchCodable(seed: UInt64) throws {
        var records = RandomLog.make(seed: seed, count: 500)
        // A start with unknown members kept as written, and one abandoned attempt, whatever the seed.
        let extra = [JSONMember("mode", .string("timed")), JSONMember("limits", .array([.number("1e3"), .null, .bool(true)]))]
        let at = try Timestamp(parsing: "2025-12-01T10:00:00.5+05:30")
        for (k, event) in [Event.quizStarted(QuizStarted(attempt: "x-1", quiz: "q", questions: 3, daily: true, title: "T",
                                                          category: "c", difficulty: "hard", diagnostic: false, extra: extra)),
                           .answerSelected(AnswerSelected(attempt: "x-1", question: "1", choice: 0, correct: true, skill: "s")),
                           .hintUsed(HintUsed(attempt: "x-1", question: "2", hint: .reveal)),
                           .quizAbandoned(AttemptEnded(attempt: "x-1"))].enumerated() {
            records.append(.v1(Envelope(seq: records.count + 1, id: "x-\(k)", at: at, user: "u-1", event: event, prev: Envelope.genesis)))
        }
        for user in RandomLog.users {
            var projector = LearnerProjector(options: StateOptions(user: user))
            projector.apply(contentsOf: records)
            var slow = CompactEncoder()
            slow.fastPaths = false
            let generic = try slow.encode(projector)
            let fast = try CompactEncoder().encode(projector)
            #expect(fast == generic, "user \(user)")
            var slowDecoder = CompactDecoder()
            slowDecoder.fastPaths = false
            let a = try CompactDecoder().decode(LearnerProjector.self, from: generic)
            let b = try slowDecoder.decode(LearnerProjector.self, from: fast)
            #expect(a.state().jsonBytes == projector.state().jsonBytes)
            #expect(b.state().jsonBytes == projector.state().jsonBytes)
            #expect(a.keptCount == projector.keptCount && b.lastAppliedSeq == projector.lastAppliedSeq)
        }
    }

    @Test("values nested deeper than the limit are refused, also when skipped")
    func depthLimit() throws {
        struct OnlyA: Codable { var a: Int }
        func object(nesting: Int) -> [UInt8] {
            var bytes: [UInt8] = [CompactFormat.Tag.keyed.rawValue, CompactFormat.Tag.key.rawValue, 1, UInt8(ascii: "a"),
                                  CompactFormat.Tag.int.rawValue, 2, CompactFormat.Tag.key.rawValue, 1, UInt8(ascii: "b")]
            for _ in 0..<nesting { bytes += [CompactFormat.Tag.unkeyed.rawValue, 1, 0, 0, 0] }
            bytes.append(CompactFormat.Tag.null.rawValue)
            bytes.append(CompactFormat.Tag.end.rawValue)
            return bytes
        }
        #expect(try CompactDecoder().decode(OnlyA.self, from: object(nesting: 10)).a == 1)
        #expect(throws: DecodingError.self) {
            try CompactDecoder().decode(OnlyA.self, from: object(nesting: CompactFormat.maxDepth + 5))
        }
    }
}
