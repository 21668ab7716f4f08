import Events
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Ledger
import ProgressLedger
import Projections
import Simulation
import Testing

/// The device side against the real server: SyncClient over HTTP (URLSession).
@Suite("serve: devices sync through SyncClient", .serialized)
struct ServeSyncTests {
    /// A transport that loses requests or their answers, or is offline.
    final class Network: @unchecked Sendable {
        private let lock = NSLock()
        private var random: SplitMix64
        var online = true
        var lossRate = 0.0
        private(set) var lostRequests = 0, lostAnswers = 0, calls = 0
        let inner = SyncClient.urlSession(URLSession(configuration: .ephemeral))

        init(seed: UInt64) { random = SplitMix64(seed: seed) }

        private func roll() -> (lose: Bool, before: Bool, online: Bool) {
            lock.lock(); defer { lock.unlock() }
            calls += 1
            let lose = Double(random.next() % 1000) / 1000 < lossRate
            let before = random.next() % 2 == 0
            if lose { if before { lostRequests += 1 } else { lostAnswers += 1 } }
            return (lose, before, online)
        }

        var transport: SyncTransport {
            { request in
                let (lose, before, online) = self.roll()
                guard online else { throw URLError(.notConnectedToInternet) }
                if lose && before { throw URLError(.networkConnectionLost) }     // the request never arrived
                let response = try await self.inner(request)
                if lose { throw URLError(.networkConnectionLost) }              // it arrived; its answer was lost
                return response
            }
        }
    }

    struct Device {
        let name, user, outbox, replica: String
        let network: Network
        let client: SyncClient
        var recorded = 0
    }

    static func event(id: String, user: String, device: String, minute: Int, amount: Int) throws -> NewEvent {
        let at = String(format: "2025-10-%02dT%02d:%02d:00+03:00", 21 + minute / 1440, (minute / 60) % 24, minute % 60)
        return try LineCodec.decodeNewEvent(Array(#"{"id":"\#(id)","at":"\#(at)","user":"\#(user)","device":"\#(device)","type":"hints.granted","data":{"amount":\#(amount),"reason":"reward"}}"#.utf8))
    }

    @Test("two devices of one learner and one of another, offline and online, lost requests and answers, repeated pushes: replicas equal the server's logs, states equal",
          arguments: TestStore.allCases)
    func endToEnd(store: TestStore) async throws {
        guard let server = try ServerProcess(store: store) else { return }
        defer { server.terminate() }
        let scratch = try TemporaryDirectory()
        let users = ["u-1", "u 2/é"]
        var tokens: [String: String] = [:]
        for (user, token) in zip(users, try Tokens.mint(server.secretFile, users.map { ($0, "learner", 3600) })) { tokens[user] = token }
        var devices = [("phone", "u-1"), ("tablet", "u-1"), ("phone-b", "u 2/é")].enumerated().map { k, spec in
            let network = Network(seed: UInt64(k + 1) * 7919)
            network.lossRate = 0.3
            let token = tokens[spec.1] ?? ""
            let client = SyncClient(server: server.url, user: spec.1, outbox: scratch.path("\(spec.0).outbox"), replica: scratch.path("\(spec.0).replica"),
                                    token: { token }, transport: network.transport, retry: RetryPolicy(attempts: 3, delay: 0))
            return Device(name: spec.0, user: spec.1, outbox: scratch.path("\(spec.0).outbox"), replica: scratch.path("\(spec.0).replica"),
                          network: network, client: client)
        }
        var random = SplitMix64(seed: 23)
        var minute = 0
        var unavailable = 0, pushedTwice = 0
        for _ in 0..<60 {
            let k = Int(random.next() % 3)
            minute += Int(random.next() % 90)
            // Record 1 to 3 events in the outbox, online or not.
            let writer = try LedgerWriter(path: devices[k].outbox)
            for _ in 0..<(1 + Int(random.next() % 3)) {
                devices[k].recorded += 1
                try writer.append(try Self.event(id: "\(devices[k].name)-\(devices[k].recorded)", user: devices[k].user,
                                                 device: devices[k].name, minute: minute, amount: 1 + Int(random.next() % 5)))
            }
            writer.close()
            devices[k].network.online = random.next() % 3 != 0
            guard random.next() % 2 == 0 else { continue }
            do {
                var report = SyncReport()
                try await devices[k].client.push(into: &report)
                if random.next() % 4 == 0 {   // the same push again, as after an answer the app did not see
                    try await devices[k].client.push(into: &report)
                    pushedTwice += 1
                }
                try await devices[k].client.pull(into: &report)
            } catch {
                // Offline, or every try lost: the next sync sends it again. Anything else is a failure.
                guard error.kind == .unavailable else { throw error }
                unavailable += 1
            }
        }
        // Everyone back online on a good network: two rounds (a device's pull may precede another's push).
        for round in 0..<2 {
            for device in devices {
                device.network.online = true
                device.network.lossRate = 0
                let report = try await device.client.sync()
                if round == 1 { #expect(report.pushed == 0, "\(device.name) still had events to push") }
            }
        }
        #expect(devices.map(\.network.lostRequests).reduce(0, +) > 0)
        #expect(devices.map(\.network.lostAnswers).reduce(0, +) > 0)
        #expect(unavailable > 0 && pushedTwice > 0)
        let admin = try Tokens.one(server.secretFile, sub: "ops", scope: "admin")
        for device in devices {
            // The replica is the learner's server log, byte for byte.
            let serverBytes = try Data(contentsOf: URL(fileURLWithPath: server.learnerLog(device.user)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: device.replica)) == serverBytes, "\(device.name)")
            // The device's state is the server's `state`, byte for byte.
            var projector = LearnerProjector(options: StateOptions(user: device.user))
            for record in try Outbox(path: device.outbox).deviceRecords(replica: device.replica) { projector.apply(record) }
            let path = "/v1/learners/\(device.user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")/state"
            let answer = try RawHTTP(port: server.port).request("GET", path, token: admin)
            #expect(answer.status == 200)
            #expect(answer.body == projector.state().jsonBytes + [0x0A], "\(device.name)")
        }
        // Every recorded event is on the server once, and the directory verifies.
        let verify = try CLI.run(["verify", try server.ledgerDirectory()])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.contains("2 learners, \(devices.map(\.recorded).reduce(0, +)) events"), "\(verify.stdout)")
    }

    @Test("a 409 and a replica_diverged stop the sync, reported, not retried; the replica is left as it was",
          arguments: TestStore.allCases)
    func refusalsStop(store: TestStore) async throws {
        guard let server = try ServerProcess(store: store) else { return }
        defer { server.terminate() }
        let scratch = try TemporaryDirectory()
        let token = try Tokens.one(server.secretFile, sub: "u-1")
        let network = Network(seed: 1)
        let client = SyncClient(server: server.url, user: "u-1", outbox: scratch.path("a.outbox"), replica: scratch.path("a.replica"),
                                token: { token }, transport: network.transport, retry: RetryPolicy(attempts: 5, delay: 0))
        try LedgerWriter(path: scratch.path("a.outbox")).append(try Self.event(id: "e-1", user: "u-1", device: "a", minute: 1, amount: 1))
        _ = try await client.sync()
        // Another device pushed e-2; this one recorded e-2 with other content.
        let other = try RawHTTP(port: server.port)
        let body = #"{"id":"e-2","at":"2025-10-21T00:02:00+03:00","user":"u-1","device":"b","type":"hints.granted","data":{"amount":2,"reason":"reward"}}"# + "\n"
        #expect(try other.request("POST", "/v1/learners/u-1/events", token: token, body: Array(body.utf8)).status == 200)
        try LedgerWriter(path: scratch.path("a.outbox")).append(try Self.event(id: "e-2", user: "u-1", device: "a", minute: 2, amount: 9))
        let calls = network.calls
        do {
            _ = try await client.sync()
            Issue.record("the conflicting push was taken")
        } catch {
            #expect(error.kind == .conflictingDuplicate)
            #expect(error.status == 409)
            #expect(error.message.contains("e-2"))
        }
        #expect(network.calls == calls + 1)   // one request, not retried
        // The server's log rewritten behind the replica's back (a restored backup): the pull is refused.
        let replicaBefore = try Data(contentsOf: URL(fileURLWithPath: scratch.path("a.replica")))
        server.terminate()
        // e-1 with other content, the chain made anew: a valid log that is not a continuation of the replica.
        let rewritten = scratch.path("rewritten.log")
        try LedgerWriter(path: rewritten).append([try Self.event(id: "e-1", user: "u-1", device: "a", minute: 1, amount: 7),
                                                  try Self.event(id: "e-2", user: "u-1", device: "b", minute: 2, amount: 2)])
        try server.replaceLearnerLog("u-1", with: rewritten)
        try server.start()
        let diverged = SyncClient(server: server.url, user: "u-1", outbox: scratch.path("b.outbox"), replica: scratch.path("a.replica"),
                                  token: { token }, transport: network.transport, retry: RetryPolicy(attempts: 5, delay: 0))
        do {
            _ = try await diverged.sync()
            Issue.record("a rewritten server log was pulled")
        } catch {
            #expect(error.kind == .replicaDiverged, "\(error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("a.replica"))) == replicaBefore)
    }
}
