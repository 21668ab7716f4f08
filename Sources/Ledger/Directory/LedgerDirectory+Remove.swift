extension LedgerDirectory {
    /// Removes a ledger directory made for one read and no longer wanted (the
    /// server's reads over a PostgreSQL store write the directory `export
    /// --store` would, in a scratch folder): its learner logs, their
    /// folders, the manifest and the directory itself, and nothing else (a
    /// folder still holding another file stays). Best effort: what cannot be
    /// removed is left.
    package func removeScratch() {
        let system = System()
        let root = "\(path)/learners"
        for folder in (try? system.listDirectory(root)) ?? [] where folder.utf8.count == 2 && folder.utf8.allSatisfy(Self.isHexDigit) {
            for file in (try? system.listDirectory("\(root)/\(folder)")) ?? [] where file.hasSuffix(".log") {
                _ = try? system.unlink("\(root)/\(folder)/\(file)")
            }
            _ = try? system.rmdir("\(root)/\(folder)")
        }
        _ = try? system.rmdir(root)
        _ = try? system.unlink("\(path)/\(Self.manifestName)")
        _ = try? system.rmdir(path)
    }
}
