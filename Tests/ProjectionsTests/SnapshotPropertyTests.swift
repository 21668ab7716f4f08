import Events
import Foundation
import Projections
import Simulation
import Testing

/// A projector saved part-way through a log and restored goes on exactly as
/// if it had never stopped.
@Suite("Projector snapshots")
struct SnapshotPropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 42, 2025, 0xDEAD_BEEF, 77, 1234]

    static let catalog = Catalog(["inference": ["l-1", "c-1"], "vocab": ["l-2", "c-2", "c-3"], "logic": ["c-4"]])

    func options(_ user: String, streakOn: StreakMode = .daily, asOf: AsOf? = nil) -> StateOptions {
        StateOptions(user: user, asOf: asOf, streakOn: streakOn, catalog: Self.catalog)
    }

    /// The state's JSON and text at the default D and at a few days before it.
    func outputs(_ projector: LearnerProjector) -> [[UInt8]] {
        var out = [projector.state().jsonBytes, Array(projector.state().text.utf8)]
        if let last = projector.latestDay {
            for back in [1, 3, 17] { out.append(projector.state(day: last.adding(days: -back)).jsonBytes) }
        }
        return out
    }

    @Test("fold a prefix, save, restore, fold the rest: the same bytes as folding everything", arguments: seeds)
    func prefixSaveRestoreRest(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 700)
        var rng = SplitMix64(seed: seed ^ 0x5A5A)
        for user in RandomLog.users {
            for mode in StreakMode.allCases {
                var whole = LearnerProjector(options: options(user, streakOn: mode))
                whole.apply(contentsOf: records)
                for _ in 0..<3 {
                    let cut = Int.random(in: 0...records.count, using: &rng)
                    var first = LearnerProjector(options: options(user, streakOn: mode))
                    first.apply(contentsOf: records[..<cut])
                    let bytes = try first.snapshotBytes()
                    var restored = try LearnerProjector(snapshot: bytes, options: options(user, streakOn: mode))
                    #expect(restored.lastAppliedSeq == (cut == 0 ? 0 : records[cut - 1].seq))
                    #expect(restored.keptCount == first.keptCount)
                    restored.apply(contentsOf: records[cut...])
                    #expect(outputs(restored) == outputs(whole), "seed \(seed), user \(user), \(mode), cut \(cut)")
                    #expect(restored.keptCount == whole.keptCount)
                }
            }
        }
    }

    @Test("a snapshot saved again after the tail equals one saved by a full fold, restored", arguments: seeds.prefix(3))
    func chainedSnapshots(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 600)
        for user in RandomLog.users {
            var whole = LearnerProjector(options: options(user))
            whole.apply(contentsOf: records)
            // Three warm starts in a row, as three launches of an app would do.
            var projector = LearnerProjector(options: options(user))
            var bytes = try projector.snapshotBytes()
            for cut in [150, 151, 420, records.count] {
                projector = try LearnerProjector(snapshot: bytes, options: options(user))
                projector.apply(contentsOf: records[..<cut])   // already-applied records are skipped
                bytes = try projector.snapshotBytes()
            }
            let last = try LearnerProjector(snapshot: bytes, options: options(user))
            #expect(outputs(last) == outputs(whole))
        }
    }

    @Test("options the fold never reads come from the caller: day, retry limit, history days, catalog", arguments: seeds.prefix(4))
    func outputOptionsFromCaller(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 500)
        for user in RandomLog.users {
            var saved = LearnerProjector(options: StateOptions(user: user))
            saved.apply(contentsOf: records[..<250])
            let bytes = try saved.snapshotBytes()
            var other = StateOptions(user: user, retryLimit: 3, days: 5, catalog: Self.catalog)
            other.day = records.compactMap { if case .v1(let e) = $0 { e.day } else { nil } }.max()
            var restored = try LearnerProjector(snapshot: bytes, options: other)
            restored.apply(contentsOf: records[250...])
            #expect(restored.options == other)
            #expect(restored.state().jsonBytes == LearnerState(folding: records, options: other).jsonBytes)
        }
    }

    @Test("as-of filters survive a snapshot (seq and time)", arguments: seeds.prefix(4))
    func asOf(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 400)
        let stamps = records.compactMap { if case .v1(let e) = $0 { e.at } else { nil } }
        for filter in [AsOf.seq(310), AsOf.seq(90), AsOf.time(stamps[200])] {
            for user in RandomLog.users {
                let o = options(user, asOf: filter)
                var first = LearnerProjector(options: o)
                first.apply(contentsOf: records[..<120])
                var restored = try LearnerProjector(snapshot: first.snapshotBytes(), options: o)
                restored.apply(contentsOf: records[120...])
                #expect(restored.state().jsonBytes == LearnerState(folding: records, options: o).jsonBytes)
            }
        }
    }

    @Test("the Codable conformances also round-trip through JSONEncoder", arguments: seeds.prefix(3))
    func jsonCodable(seed: UInt64) throws {
        let records = RandomLog.make(seed: seed, count: 500)
        for user in RandomLog.users {
            let o = options(user, streakOn: .any, asOf: .seq(450))
            var whole = LearnerProjector(options: o)
            whole.apply(contentsOf: records)
            var first = LearnerProjector(options: o)
            first.apply(contentsOf: records[..<200])
            let json = try JSONEncoder().encode(first)
            var restored = try JSONDecoder().decode(LearnerProjector.self, from: json)
            #expect(restored.options == o)
            restored.apply(contentsOf: records[200...])
            #expect(outputs(restored) == outputs(whole))
        }
    }

    @Test("a snapshot is refused for another user, as-of or streak mode, naming both")
    func otherFold() throws {
        let records = RandomLog.make(seed: 9, count: 200)
        var projector = LearnerProjector(options: StateOptions(user: "u-1"))
        projector.apply(contentsOf: records)
        let bytes = try projector.snapshotBytes()
        let others = [StateOptions(user: "u-2"), StateOptions(user: "U-1"), StateOptions(user: "u-1", asOf: .seq(5)),
                      StateOptions(user: "u-1", streakOn: .any)]
        for other in others {
            let error = #expect(throws: ProjectorSnapshotError.self) {
                try LearnerProjector(snapshot: bytes, options: other)
            }
            #expect(error?.kind == .otherFold)
            #expect(error?.message == "it was made for user \"u-1\", as-of none, streak-on daily, not \(other.foldKey)")
        }
        // The same user written with a combining accent is another user (exact match).
        var accented = LearnerProjector(options: StateOptions(user: "u-\u{E9}"))
        accented.apply(contentsOf: records)
        #expect(throws: ProjectorSnapshotError.self) {
            try LearnerProjector(snapshot: accented.snapshotBytes(), options: StateOptions(user: "u-e\u{301}"))
        }
    }

    @Test("another snapshot version is refused: newer and older")
    func otherVersion() throws {
        let projector = LearnerProjector(options: StateOptions(user: "u-1"))
        let bytes = try projector.snapshotBytes()
        var newer = bytes
        newer[4] = UInt8(LearnerProjector.snapshotVersion + 1)
        var older = bytes
        older[4] = 0
        #expect(throws: ProjectorSnapshotError(.newerVersion, "the state was saved in projector snapshot version \(LearnerProjector.snapshotVersion + 1); this version reads only version \(LearnerProjector.snapshotVersion)")) {
            try LearnerProjector(snapshot: newer, options: StateOptions(user: "u-1"))
        }
        let error = #expect(throws: ProjectorSnapshotError.self) { try LearnerProjector(snapshot: older, options: StateOptions(user: "u-1")) }
        #expect(error?.kind == .olderVersion)
    }

    @Test("damaged bytes are refused, never misread: every truncation, trailing bytes, a renamed field, not a snapshot")
    func damaged() throws {
        var projector = LearnerProjector(options: StateOptions(user: "u-1"))
        projector.apply(contentsOf: RandomLog.make(seed: 5, count: 60))
        let bytes = try projector.snapshotBytes()
        for n in 0..<bytes.count {
            let error = #expect(throws: ProjectorSnapshotError.self) {
                try LearnerProjector(snapshot: Array(bytes[..<n]), options: StateOptions(user: "u-1"))
            }
            #expect(error?.kind == .unreadable, "truncated to \(n) bytes")
        }
        let trailing = #expect(throws: ProjectorSnapshotError.self) {
            try LearnerProjector(snapshot: bytes + [0], options: StateOptions(user: "u-1"))
        }
        #expect(trailing?.message.contains("after the value") == true)
        // A field renamed by a later version ("quizEpoch" → "quizEpochs" would shift bytes; change one letter).
        let name = Array("quizEpoch".utf8)
        var renamed = bytes
        let at = try #require((0...(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
        renamed[at + name.count - 1] = UInt8(ascii: "x")
        let error = #expect(throws: ProjectorSnapshotError.self) {
            try LearnerProjector(snapshot: renamed, options: StateOptions(user: "u-1"))
        }
        #expect(error?.kind == .unreadable)
        #expect(error?.message.contains(#"expected field "quizEpoch", found "quizEpocx""#) == true)
        #expect(throws: ProjectorSnapshotError(.unreadable, "not a learner projector snapshot")) {
            try LearnerProjector(snapshot: Array("{\"not\":\"a snapshot\"}".utf8), options: StateOptions(user: "u-1"))
        }
    }
}
