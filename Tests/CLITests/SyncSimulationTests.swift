import Events
import Foundation
import Ledger
import Projections
import Simulation
import Testing

/// Three devices of one learner, a server log, random schedules: the sync
/// model of docs/sync.md driven through the library (Outbox, Replica,
/// LogReader.rawLines, LedgerWriter) with lost answers and repeated pulls.
@Suite("Sync simulation")
struct SyncSimulationTests {
    /// One device: its outbox writer, its replica, whether it is online.
    final class Device {
        let name: String
        let outbox: String
        let replica: String
        let writer: LedgerWriter
        var online = true
        var recorded: [String] = []
        init(name: String, in dir: TemporaryDirectory) throws {
            self.name = name
            outbox = dir.path("\(name).outbox")
            replica = dir.path("\(name).replica")
            writer = try LedgerWriter(path: outbox)
        }
    }

    static let user = "u-7"

    /// A random valid event of the learner at minute `minute` after 2025-03-01T00:00Z, in one of three offsets.
    static func event(id: String, minute: Int, device: String, _ rng: inout SplitMix64) throws -> NewEvent {
        let offsets = [(0, "Z"), (180, "+03:00"), (-300, "-05:00")]
        let (shift, suffix) = offsets[Int(rng.next() % 3)]
        let local = minute + shift + 24 * 60   // stays on or after 2025-03-01 locally
        let day = 1 + local / (24 * 60), hour = (local / 60) % 24, min = local % 60
        let at = String(format: "2025-03-%02dT%02d:%02d:00", day, hour, min) + suffix
        let data: String
        let type: String
        switch rng.next() % 3 {
        case 0: type = "hints.granted"; data = #"{"amount":\#(1 + rng.next() % 5),"reason":"reward"}"#
        case 1: type = "puzzle.completed"; data = #"{"puzzle":"p-\#(rng.next() % 7)","encoding":"caesar","seconds":\#(10 + rng.next() % 300)}"#
        default:
            type = "submission.made"
            data = #"{"content":"l-\#(rng.next() % 4)","kind":"lesson","category":"reading","answers":[{"question":"q1","choice":\#(rng.next() % 4),"correct":\#(rng.next() % 2 == 0)}]}"#
        }
        // `at` is shifted back by the offset so the instant is `minute` (the day above is only the local date).
        let line = #"{"id":"\#(id)","at":"\#(at)","user":"\#(user)","device":"\#(device)","type":"\#(type)","data":\#(data)}"#
        return try LineCodec.decodeNewEvent(Array(line.utf8))
    }

    /// Pushes what the device has not seen in its replica; `lost`: the answer never arrives (nothing changes on the device).
    static func push(_ d: Device, to server: LedgerWriter) throws {
        let pending = try Outbox(path: d.outbox).pending(replica: d.replica)
        guard !pending.isEmpty else { return }
        try server.append(pending.map(\.event))
    }

    /// The server's lines after `seq`.
    static func export(_ server: String, after seq: Int) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        try LogReader(path: server).rawLines(after: seq) { lines.append(Array($0)) }
        return lines
    }

    static func state(replica: String, outbox: String) throws -> [UInt8] {
        var projector = LearnerProjector(options: StateOptions(user: user))
        for record in try Outbox(path: outbox).deviceRecords(replica: replica) { projector.apply(record) }
        return projector.state().jsonBytes
    }

    @Test("three devices, random schedules, lost answers: replicas equal the server, states agree, nothing lost or doubled",
          arguments: [1, 2, 3, 42, 2025] as [UInt64])
    func simulation(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        var rng = SplitMix64(seed: seed)
        let serverPath = dir.path("server.log")
        let server = try LedgerWriter(path: serverPath)
        let devices = try (0..<3).map { try Device(name: "d\($0)", in: dir) }
        var minute = 0
        var lostPushes = 0, lostPulls = 0, repeatedPulls = 0
        for _ in 0..<240 {
            let d = devices[Int(rng.next() % 3)]
            minute += Int(rng.next() % 30)
            switch rng.next() % 10 {
            case 0...3:
                let id = "\(d.name)-\(d.recorded.count + 1)"
                try d.writer.append(try Self.event(id: id, minute: minute, device: d.name, &rng))
                d.recorded.append(id)
            case 4:
                d.online.toggle()
            case 5...6 where d.online:
                let request = rng.next() % 4
                if request == 0 { lostPushes += 1; continue }          // the request never arrives
                try Self.push(d, to: server)                           // request == 1: arrives, its answer is lost: the same
                if request == 1 { lostPushes += 1 }                    // events are pending again until pulled (retried)
            case 7...9 where d.online:
                let head = try Replica(path: d.replica).head()
                let overlap = Int(rng.next() % 3)                      // a server that resends a few lines already held
                let lines = try Self.export(serverPath, after: max(0, head.seq - overlap))
                switch rng.next() % 4 {
                case 0: lostPulls += 1                                 // the answer is lost
                case 1:
                    try Replica(path: d.replica).pull(lines)
                    try Replica(path: d.replica).pull(lines)           // delivered twice
                    repeatedPulls += 1
                default: try Replica(path: d.replica).pull(lines)
                }
            default: break
            }
        }
        // Everyone comes online: push all, then pull all.
        for d in devices { try Self.push(d, to: server) }
        for d in devices { try Replica(path: d.replica).pull(try Self.export(serverPath, after: try Replica(path: d.replica).head().seq)) }

        let serverBytes = dir.bytes("server.log")
        let serverIDs = try Self.export(serverPath, after: 0).map { try LineCodec.decodeRecord($0).id }
        let recorded = devices.flatMap(\.recorded)
        #expect(recorded.count > 50)
        #expect(Set(serverIDs) == Set(recorded), "nothing lost")
        #expect(serverIDs.count == recorded.count, "nothing doubled")
        #expect(try verify(path: serverPath).isOK)
        var serverState = LearnerProjector(options: StateOptions(user: Self.user))
        try LogReader(path: serverPath).read { serverState.apply($0) }
        for d in devices {
            #expect(dir.bytes("\(d.name).replica") == serverBytes, "\(d.name)'s replica is the server log")
            #expect(try Outbox(path: d.outbox).pending(replica: d.replica).isEmpty)
            #expect(try Self.state(replica: d.replica, outbox: d.outbox) == serverState.state().jsonBytes)
            // Its outbox events are on the server with their content (by value), whatever the order they arrived in.
            let held = try Self.export(serverPath, after: 0)
            try LogReader(path: d.outbox).rawLines { line in
                let id = (try? LineCodec.decodeRecord(line))?.id
                let match = held.first { (try? LineCodec.decodeRecord($0))?.id == id }
                #expect(match.map { LineCodec.sameContent(Array(line), $0) } == true)
            }
        }
        #expect(lostPushes + lostPulls + repeatedPulls > 0)

        // The server rewrites an old line (and re-chains after it so its own log still verifies), then records more.
        server.close()
        try Self.rewrite(serverPath, line: 2)
        let server2 = try LedgerWriter(path: serverPath)
        try server2.append(try Self.event(id: "late-1", minute: minute + 1, device: "web", &rng))
        let d = devices[0]
        let before = dir.bytes("\(d.name).replica")
        let lines = try Self.export(serverPath, after: try Replica(path: d.replica).head().seq)
        let error = #expect(throws: LedgerError.self) { try Replica(path: d.replica).pull(lines) }
        #expect(error?.code == .replicaDiverged)
        #expect(dir.bytes("\(d.name).replica") == before)
        // Asking for everything again names the rewritten line itself.
        let again = #expect(throws: LedgerError.self) { try Replica(path: d.replica).pull(try Self.export(serverPath, after: 0)) }
        #expect(again?.message.contains("differs from the replica's line 2") == true)
    }

    /// Changes line `line`'s data (a valid event still) and re-chains every line after it.
    static func rewrite(_ path: String, line: Int) throws {
        var records = try Self.export(path, after: 0).map { try LineCodec.decodeRecord($0) }
        guard case .event(var e) = records[line - 1] else { return }
        e.device = "rewritten"
        records[line - 1] = .event(e)
        var prev = Envelope.genesis
        var out: [UInt8] = []
        for record in records {
            guard case .event(var e) = record else { continue }
            e.prev = prev
            let bytes = LineCodec.encode(e)
            prev = SHA256.hash(bytes).hex
            out += bytes + [0x0A]
        }
        try Data(out).write(to: URL(fileURLWithPath: path))
    }
}
