import Foundation
import Ledger
import Simulation
import Testing

/// The server killed (SIGKILL) at random moments while devices push: after
/// each restart, every event answered 200 is in its learner's log and
/// `verify DIR` passes. A longer soak: scripts/serve-crash-soak.
@Suite("serve: SIGKILL under load", .serialized)
struct ServeCrashTests {
    /// Acknowledged ids, gathered from the pushing threads.
    final class Acks: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var ids: [String: Set<String>] = [:]
        func add(_ user: String, _ new: [String]) { lock.lock(); ids[user, default: []].formUnion(new); lock.unlock() }
    }

    @Test("12 kills at random moments under 4 pushing devices: every acknowledged event survives, verify DIR passes")
    func kills() throws {
        let server = try ServerProcess(["--quiet"])
        let token = try Tokens.mint(server.secretFile, (0..<4).map { ("crash-\($0)", "learner", 3600) })
        let acks = Acks()
        var random = SplitMix64(seed: 2300)
        for round in 0..<12 {
            if round > 0 { try server.start() }
            let port = server.port
            let group = DispatchGroup()
            for t in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    var n = 0
                    while let client = try? RawHTTP(port: port, timeout: 5) {
                        for _ in 0..<1000 {
                            let ids = (0..<(1 + n % 3)).map { "c\(t)-r\(round)-\(n)-\($0)" }
                            n += 1
                            let body = ids.map { #"{"id":"\#($0)","at":"2025-10-21T08:15:00+03:00","user":"crash-\#(t)","type":"hints.granted","data":{"amount":1,"reason":"seed"}}"# + "\n" }.joined()
                            guard let answer = try? client.request("POST", "/v1/learners/crash-\(t)/events", token: token[t], body: Array(body.utf8)) else { return }
                            guard answer.status == 200 else { return }
                            acks.add("crash-\(t)", ids)
                        }
                    }
                }
            }
            Thread.sleep(forTimeInterval: 0.05 + Double(random.next() % 250) / 1000)
            server.kill()
            group.wait()
            // Every acknowledged id is in its learner's log, and the directory verifies (a torn tail is only a warning).
            let verify = try CLI.run(["verify", server.directory])
            #expect(verify.status == 0, "round \(round): \(verify.stdout) \(verify.stderr)")
            for (user, ids) in acks.ids {
                let text = (try? String(contentsOfFile: server.learnerLog(user), encoding: .utf8)) ?? ""
                let held = Set(text.split(separator: "\n").compactMap { line -> String? in
                    guard let r = line.range(of: #""id":""#) else { return nil }
                    return String(line[r.upperBound...].prefix { $0 != "\"" })
                })
                let lost = ids.subtracting(held)
                #expect(lost.isEmpty, "round \(round): \(user) lost \(lost.count) acknowledged events")
            }
        }
        #expect(acks.ids.values.map(\.count).reduce(0, +) > 100)
    }
}

