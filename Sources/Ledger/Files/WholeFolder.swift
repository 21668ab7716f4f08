/// A new folder written whole or not at all: its files go into a sibling
/// folder `PATH.tmp-<pid>`, which ``finish()`` renames to `PATH`, so a reader
/// sees no folder or the whole one. `PATH` must not exist or be an empty
/// folder. Files are 0600, folders 0700. For `export --format flat`'s
/// partitions (``PartitionedOutput``) and `export --receipts`.
package final class WholeFolder {
    /// The final folder.
    package let path: String
    /// The folder written until ``finish()``.
    package let temporary: String
    private let system = System()
    /// The files written, to remove them when the folder is abandoned.
    private var written: [String] = []

    /// Starts a folder at `path`; refuses a `path` that is not missing or an empty folder.
    package init(path: String) throws(LedgerError) {
        self.path = path
        temporary = "\(path).tmp-\(System.processID())"
        if let status = try? system.lstat(path) {
            guard status.kind == .directory else { throw LedgerError(.io, path: path, "exists and is not a folder; give a new folder name") }
            let names: [String]
            do { names = try system.listDirectory(path) } catch { throw LedgerError(error, path: path, doing: "listing the output folder") }
            guard names.isEmpty else { throw LedgerError(.io, path: path, "is not empty; an export goes to a new or empty folder") }
        }
        do { try system.mkdir(temporary) } catch { throw LedgerError(error, path: temporary, doing: "creating the export folder") }
    }

    /// Writes the new file `name` (a plain name, in the folder) holding `bytes`.
    package func write(_ name: String, _ bytes: [UInt8]) throws(LedgerError) {
        let file = "\(temporary)/\(name)"
        do { try system.append(bytes, toFile: file, create: true) } catch {
            throw LedgerError(error, path: file, doing: "writing a file of the export")
        }
        written.append(file)
    }

    /// Makes every file and the folder durable (`fsync`), then renames the
    /// folder to its final name and makes the rename durable: after a crash,
    /// `PATH` is missing or whole.
    package func finish() throws(LedgerError) {
        for file in Set(written) {
            do {
                let fd = try system.open(file, .appendExisting)
                defer { system.close(fd) }
                try system.fsync(fd)
            } catch {
                throw LedgerError(error, path: file, doing: "making a file of the export durable")
            }
        }
        do {
            if let file = written.first { try system.syncDirectory(of: file) }
            try system.rename(temporary, to: path)
            try system.syncDirectory(of: path)
        } catch {
            throw LedgerError(error, path: path, doing: "renaming \(temporary) to it")
        }
    }

    /// Removes the files ``write(_:_:)`` wrote and the folder (after a failure; best effort).
    package func abandon() {
        for file in written { _ = try? system.unlink(file) }
        _ = try? system.rmdir(temporary)
    }
}
