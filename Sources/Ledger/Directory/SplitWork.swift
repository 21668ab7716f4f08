import Events

/// `split`'s work files: the source's events, bucketed by the first three
/// characters of their learner's name (`H64`), each bucket a file of log
/// lines under `DIR/.split` (first pass), then each bucket's learners written
/// out as learner logs (second pass).
///
/// A bucket file holds the events of about 1/4,096 of the learners, so the
/// second pass holds one bucket per worker, whatever the number of learners.
struct SplitWork {
    static let folderName = ".split"
    /// Three hex characters of the name: 4,096 buckets.
    static let bucketCount = 4096

    let folder: String
    /// How many bytes of lines are held before every bucket is written out.
    let budget: Int
    let system: System
    private var buffers: [[UInt8]]
    private var written: [Bool]
    private var held = 0
    /// Users seen lately and their bucket (cleared when it grows large: a cache).
    private var bucketOfUser: [ExactString: Int] = [:]

    init(folder: String, budget: Int, system: System) {
        self.folder = folder; self.budget = max(budget, 1 << 16); self.system = system
        buffers = Array(repeating: [], count: Self.bucketCount)
        written = Array(repeating: false, count: Self.bucketCount)
    }

    /// The bucket of the learner named `name`: its first three hex characters.
    static func bucket(name: String) -> Int {
        var value = 0
        for c in name.utf8.prefix(3) {
            value = value << 4 | Int(c <= UInt8(ascii: "9") ? c &- UInt8(ascii: "0") : c &- UInt8(ascii: "a") &+ 10)
        }
        return value
    }

    func path(ofBucket bucket: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        let name = String(decoding: [digits[bucket >> 8], digits[(bucket >> 4) & 15], digits[bucket & 15]], as: UTF8.self)
        return "\(folder)/\(name).lines"
    }

    func create() throws(LedgerError) {
        do { try system.mkdir(folder) } catch { throw LedgerError(error, path: folder, doing: "creating split's work folder") }
    }

    // MARK: first pass

    /// Adds `event`'s line to its learner's bucket.
    mutating func add(_ event: Envelope) throws(LedgerError) {
        let bucket: Int
        if let known = bucketOfUser[ExactString(event.user)] {
            bucket = known
        } else {
            bucket = Self.bucket(name: LedgerDirectory.learnerName(user: event.user))
            if bucketOfUser.count >= 1 << 17 { bucketOfUser.removeAll(keepingCapacity: true) }
            bucketOfUser[ExactString(event.user)] = bucket
        }
        let line = LineCodec.encode(event)
        buffers[bucket].append(contentsOf: line)
        buffers[bucket].append(UInt8(ascii: "\n"))
        held += line.count + 1
        if held >= budget { try flush() }
    }

    /// Appends every held line to its bucket's file.
    mutating func flush() throws(LedgerError) {
        for bucket in buffers.indices where !buffers[bucket].isEmpty {
            let path = path(ofBucket: bucket)
            do throws(SystemCallError) { try system.append(buffers[bucket], toFile: path, create: !written[bucket]) } catch {
                throw LedgerError(error, path: path, doing: "writing split's work file")
            }
            written[bucket] = true
            buffers[bucket].removeAll(keepingCapacity: false)
        }
        held = 0
    }

    // MARK: second pass

    /// Writes the learner logs of every bucket into `directory`, in parallel,
    /// and removes each bucket file once its learners are durable. Returns
    /// the number of learner logs written.
    func writeLearnerLogs(into directory: LedgerDirectory, workers: Int = LedgerDirectory.workers) throws(LedgerError) -> Int {
        let paths = written.indices.filter { written[$0] }.map { path(ofBucket: $0) }
        let logs = try LedgerDirectory.fold(paths, workers: workers, makePartial: { 0 }) { (logs, path) throws(LedgerError) in
            logs += try Self.writeLearners(of: path, into: directory)
        }
        return logs.reduce(0, +)
    }

    /// One bucket: its events grouped by learner, in their order, each
    /// learner's log written, fsync'd and closed; then the bucket file removed.
    private static func writeLearners(of path: String, into directory: LedgerDirectory) throws(LedgerError) -> Int {
        let system = System()
        let bytes = try SmallFile.read(path, limit: Int.max, system: system)
        var learners: [ExactString: Int] = [:]
        var events: [[NewEvent]] = []
        var users: [String] = []
        var line = 1
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let record: Record
            do {
                record = try LineCodec.decodeRecord(bytes[start..<end])
            } catch {
                throw LedgerError(damaged: LineProblem(line: line, kind: .format(error.kind), error.message + " (split's own work file changed under it?)"),
                                  path: path)
            }
            if case .event(let e) = record {
                let k: Int
                if let known = learners[ExactString(e.user)] { k = known } else {
                    k = events.count; learners[ExactString(e.user)] = k; events.append([]); users.append(e.user)
                }
                events[k].append(NewEvent(id: e.id, at: e.at, user: e.user, device: e.device, event: e.event))
            }
            start = end + 1
            line += 1
        }
        for k in users.indices {
            let name = LedgerDirectory.learnerName(user: users[k])
            try directory.makeFolder(forLearner: name)
            let writer = try LedgerWriter(path: directory.learnerPath(name: name))
            defer { writer.close() }
            _ = try writer.append(events[k], durability: .deferred)
            try writer.sync()
        }
        do { try system.unlink(path) } catch { throw LedgerError(error, path: path, doing: "removing split's work file") }
        return users.count
    }

    /// Removes the work files and folder, as far as it can (after a failure, or when done).
    func remove() {
        for bucket in written.indices where written[bucket] { _ = try? system.unlink(path(ofBucket: bucket)) }
        _ = try? system.rmdir(folder)
    }
}
