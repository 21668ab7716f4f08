import Events
import Ledger
import Simulation

/// The demo's devices: one learner's schedule run through the sync API
/// (outboxes, pending, append on a server log, export, pull), then checked.
enum DemoSync {
    static func run(_ schedule: DeviceSchedule, user: String, days: Int, in directory: String, _ io: Terminal) throws {
        try Folders.create(directory)
        let serverPath = directory + "/server.log"
        var pushed = 0, pulled = 0, syncs = 0
        var devices: [String] = []
        do {
            let server = try LedgerWriter(path: serverPath)
            defer { server.close() }
            var outboxes: [ExactString: LedgerWriter] = [:]
            defer { for w in outboxes.values { w.close() } }
            for step in schedule {
                switch step {
                case .serverRecord(let event):
                    try server.append(event)
                case .record(let device, let event):
                    if outboxes[ExactString(device)] == nil {
                        outboxes[ExactString(device)] = try LedgerWriter(path: "\(directory)/\(device).outbox")
                        devices.append(device)
                    }
                    try outboxes[ExactString(device)]?.append(event)
                case .sync(let device):
                    let replica = Replica(path: "\(directory)/\(device).replica")
                    let pending = try Outbox(path: "\(directory)/\(device).outbox").pending(replica: replica.path)
                    if !pending.isEmpty { pushed += try server.append(pending.map(\.event)).count }
                    var lines: [[UInt8]] = []
                    try LogReader(path: serverPath).rawLines(after: try replica.head().seq) { lines.append(Array($0)) }
                    pulled += try replica.pull(lines, source: serverPath).appended
                    syncs += 1
                }
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        let server = (try? SmallFile.read(serverPath, limit: 1 << 30))
        let equal = devices.allSatisfy { (try? SmallFile.read("\(directory)/\($0).replica", limit: 1 << 30)) == server }
        io.line("\n$ # \(user)'s devices synced through the sync API over their first \(days) day\(days == 1 ? "" : "s") (\(directory))")
        io.line("\(devices.joined(separator: ", ")): \(syncs) syncs, \(pushed) events pushed, \(pulled) lines pulled; "
                + (equal ? "every replica equals \(serverPath)" : "a replica differs from \(serverPath)"))
        if !equal { throw CLIError.failure("\(directory): a device's replica differs from the server log") }
    }
}
