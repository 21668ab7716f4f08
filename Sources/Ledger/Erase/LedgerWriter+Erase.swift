import Events

/// Replaces every line of `user` in the log at `path` by its redaction stub
/// (`RedactionStub`), then removes the files beside the log that hold the
/// learner's bytes or describe the old log; returns the receipt.
///
/// Takes the writer lock and checks the whole log first (as `verify` does;
/// a damaged log is refused and left as it is). The new log is written
/// beside the old one, fsync'd, renamed over it and its directory fsync'd:
/// a crash leaves the old log or the new one, never a mix. Every other line
/// keeps its bytes, so every other learner's records, and the chain's hashes
/// and head, are unchanged. Writers that had the old log open are refused at
/// their next append (`.replaced`) and reopen the new one.
///
/// Removed beside the log (in its folder): every snapshot made from this log
/// file (the new log is another file, so they no longer match), for `user`,
/// or holding `user` or an erased id as a JSON string, every torn-tail side file of this log that holds `user` or one of
/// the erased ids (as JSON strings), and new files left by an erasure that
/// crashed. Snapshots kept elsewhere are the app's to remove (they are
/// rejected anyway: see `docs/privacy.md`).
///
/// With `dryRun`, nothing is changed (no lock is taken, a torn tail is left
/// where it is) and the receipt says what would be done.
///
/// A `user` without a line in the log (a mistyped id, or a learner erased
/// before, whose lines are stubs already) throws `.notFound` and changes
/// nothing, so an erasure request never looks done for nobody; the message
/// names ids that differ from `user` only in case or surrounding spaces.
/// Only when files beside the log still hold the learner (a snapshot for
/// them, a side file, a new file left by an erasure that crashed after its
/// rename) does an erasure without lines go on: it removes those files, and
/// so a rerun finishes an erasure that failed half-way.
public func erase(path: String, user: String, dryRun: Bool = false) throws(LedgerError) -> ErasureReceipt {
    try Erasure(path: path, user: user, system: System()).run(dryRun: dryRun)
}

/// One erasure: the plan (which lines, which files), then the new log.
struct Erasure {
    var path: String
    var user: String
    var system: System

    /// The lines to replace, found in one read of the checked log.
    struct Plan {
        /// Byte offset, length (without LF) and the stub of each line of the user.
        var edits: [(offset: Int, length: Int, seq: Int, stub: [UInt8])] = []
        /// The erased lines' ids.
        var ids: [String] = []
        /// Stubs already in the log.
        var alreadyRedacted = 0
        /// Other users whose id differs from the one erased only in case or
        /// surrounding spaces (at most 3), for the message when it has no line.
        var nearUsers: [String] = []

        /// The refusal of an erasure that finds no line of the user (and no file to remove), naming the near ids.
        func notFound(user: String, path: String) -> LedgerError {
            let near = nearUsers.isEmpty ? "" : "; ids that differ only in case or spaces: "
                + nearUsers.map { "\"\($0.prefixForMessage)\"" }.joined(separator: ", ")
            return LedgerError(.notFound, path: path, "no line of user \"\(user.prefixForMessage)\": nothing was erased "
                + "(ids are exact and case-sensitive; a learner erased before has only stubs left)\(near)")
        }
    }

    func run(dryRun: Bool) throws(LedgerError) -> ErasureReceipt {
        if dryRun {
            let report = try LogReader(path: path, system: system).verify()
            if let problem = report.problem { throw LedgerError(damaged: problem, path: path) }
            let end = report.summary.tornTail?.offset
            let (plan, identity) = try RegularFile.withOpen(path, isLog: true, system: system) {
                (fd, status) throws(LedgerError) -> (Plan, FileIdentity) in
                let found = try self.plan(fd: fd, size: end ?? status.size)
                return (found, FileIdentity(device: status.device, inode: status.inode))
            }
            let removed = try filesToRemove(plan, logFile: identity)
            if plan.edits.isEmpty, removed.isEmpty { throw plan.notFound(user: user, path: path) }
            return receipt(plan, before: report.head, after: report.head, removed: removed, dryRun: true)
        }
        let writer = try LedgerWriter(path: path, create: false, system: system)
        defer { writer.close() }
        return try writer.withLock { () throws(LedgerError) -> ErasureReceipt in
            try writer.catchUp()
            let before = writer.head
            let identity = FileIdentity(device: writer.identity.device, inode: writer.identity.inode)
            let plan = try plan(fd: writer.fd, size: writer.knownSize)
            if plan.edits.isEmpty {
                guard try !filesToRemove(plan, logFile: identity).isEmpty else { throw plan.notFound(user: user, path: path) }
            } else {
                try rewrite(plan, fd: writer.fd, size: writer.knownSize)
            }
            let removed = try filesToRemove(plan, logFile: identity)
            for file in removed {
                do throws(SystemCallError) { try system.unlink(file) } catch {
                    guard error.errno != .noEntry else { continue }
                    throw LedgerError(error, path: file, doing: "removing a file that holds the erased learner's data (the log itself is erased)")
                }
            }
            if !removed.isEmpty { try writer.syncDirectory() }
            let after = try LogReader(path: path, system: system).verify()
            if let problem = after.problem { throw LedgerError(damaged: problem, path: path) }
            return receipt(plan, before: before, after: after.head, removed: removed, dryRun: false)
        }
    }

    private func receipt(_ plan: Plan, before: Head, after: Head, removed: [String], dryRun: Bool) -> ErasureReceipt {
        ErasureReceipt(path: path, user: user, erasedSeqs: plan.edits.map(\.seq), alreadyRedacted: plan.alreadyRedacted,
                       headBefore: before, headAfter: after, removedFiles: removed, dryRun: dryRun)
    }

    /// Reads the complete lines up to `size` (already checked) and finds the user's.
    func plan(fd: CInt, size: Int) throws(LedgerError) -> Plan {
        var plan = Plan()
        let scanner = LineScanner(system: system, fd: fd, path: path)
        let userBytes = Array(user.utf8)
        let folded = Erasure.folded(user)
        _ = try scanner.scan(from: 0, to: size, firstLine: 1) { (line) throws(LedgerError) in
            if !line.isTooLong, RedactionStub.parts(line.bytes) != nil { plan.alreadyRedacted += 1; return }
            switch line.decode() {
            case .failure(let e):
                throw LedgerError(.damaged, path: path, "\(e): the log changed while it was erased; nothing was changed")
            case .success(let record):
                guard let owner = record.user, owner.utf8.elementsEqual(userBytes) else {
                    if plan.edits.isEmpty, plan.nearUsers.count < 3, let owner = record.user, !plan.nearUsers.contains(owner),
                       Erasure.folded(owner) == folded { plan.nearUsers.append(owner) }
                    return
                }
                let stub = RedactionStub(seq: record.seq, redacted: LineDigest.of(line.bytes).hex, prev: record.prev)
                plan.edits.append((line.offset, line.length, record.seq, stub.encoded()))
                plan.ids.append(record.id)
            }
        }
        return plan
    }

    /// An id without case and surrounding spaces, to name the ids a mistyped one may have meant.
    static func folded(_ id: String) -> String {
        String(id.lowercased().unicodeScalars.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().map(Character.init))
    }

    /// Writes the log with the stubs in place beside it, fsyncs, renames it over the log, fsyncs the folder.
    private func rewrite(_ plan: Plan, fd: CInt, size: Int) throws(LedgerError) {
        let file = AtomicFile(noun: "log", system: system, durable: true)
        let system = self.system
        try file.replace(path) { (sink) throws(PartialWriteError) in
            let chunk = 1 << 20
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            defer { buffer.deallocate() }
            func copy(_ from: Int, _ to: Int) throws(PartialWriteError) {
                var at = from
                while at < to {
                    let n: Int
                    do throws(SystemCallError) {
                        n = try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(chunk, to - at)]), at: at)
                    } catch { throw PartialWriteError(written: 0, cause: error) }
                    guard n > 0 else { throw PartialWriteError(written: 0, cause: SystemCallError(.pread, .ioError)) }
                    try sink(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                    at += n
                }
            }
            var at = 0
            for edit in plan.edits {
                try copy(at, edit.offset)
                let result = edit.stub.withUnsafeBytes { raw in Result { () throws(PartialWriteError) in try sink(raw) } }
                try result.get()
                at = edit.offset + edit.length   // the line's LF is copied next
            }
            try copy(at, size)
        }
    }

    /// The files in the log's folder to remove (see ``erase(path:user:dryRun:)``).
    func filesToRemove(_ plan: Plan, logFile: FileIdentity) throws(LedgerError) -> [String] {
        let folder = LedgerWriter.directory(of: path)
        let base = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[path.index(after: $0)...]) } ?? path
        let names: [String]
        do { names = try system.listDirectory(folder) } catch {
            throw LedgerError(error, path: folder, doing: "listing the log's folder for snapshots and side files")
        }
        let needles = ([user] + plan.ids).map { Array(("\"" + $0 + "\"").utf8) }
        let probe = AtomicFile(noun: "file", system: system)
        var removed: [String] = []
        for name in names.sorted() {
            let file = folder == "." && !path.hasPrefix("./") ? name : folder + "/" + name
            if name.hasPrefix(base + ".tmp-") { removed.append(file); continue }
            guard case .regular(let head, _) = try probe.existing(file, head: Snapshot.magic.count) else { continue }
            if name.hasPrefix(base + ".torn-") {
                let bytes = try SmallFile.read(file, limit: SmallFile.defaultLimit, system: system)
                if needles.contains(where: { Erasure.contains(bytes, $0) }) { removed.append(file) }
            } else if head == Snapshot.magic,
                      let bytes = try? SmallFile.read(file, limit: Snapshot.sizeLimit, system: system),
                      let snapshot = try? Snapshot(decoding: bytes),
                      // The log is rewritten (another file) only when it has lines to erase.
                      (!plan.edits.isEmpty && snapshot.resumePoint.file == logFile) || snapshot.key == Snapshot.key(user: user)
                          || needles.contains(where: { Erasure.contains(snapshot.lines, $0) }) {
                removed.append(file)
            }
        }
        return removed
    }

    /// Whether `needle` occurs in `bytes`.
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        let first = needle[0]
        var k = 0
        while k <= bytes.count - needle.count {
            if bytes[k] == first, bytes[k..<(k + needle.count)].elementsEqual(needle) { return true }
            k += 1
        }
        return false
    }
}
