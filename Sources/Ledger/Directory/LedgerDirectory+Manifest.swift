import Events

extension LedgerDirectory {
    /// `ledger.json`: `{"format":"progress-ledger-directory","version":1,
    /// "layout":"learners/HH/H64.log","source_head":"SEQ:SHA256"}` (`source_head`
    /// null unless the directory was split from a log).
    struct Manifest: Sendable {
        var sourceHead: Head?

        init(sourceHead: Head?) { self.sourceHead = sourceHead }

        /// Reads a manifest; refuses another format, a newer version or another layout.
        init(parsing bytes: [UInt8], path: String) throws(LedgerError) {
            let value: JSONValue
            do { value = try JSONDocument.parse(bytes) } catch {
                throw LedgerError(.damaged, path: path, "not a ledger manifest: \(error)")
            }
            guard case .object(let members) = value else {
                throw LedgerError(.damaged, path: path, "not a ledger manifest: not a JSON object")
            }
            func member(_ name: String) -> JSONValue? { members.first { $0.name == name }?.value }
            guard case .string(let format)? = member("format"), format == LedgerDirectory.formatName else {
                throw LedgerError(.damaged, path: path, "format: not \"\(LedgerDirectory.formatName)\"")
            }
            guard case .number(let version)? = member("version"), version == "\(LedgerDirectory.formatVersion)" else {
                throw LedgerError(.damaged, path: path, "version: this program reads version \(LedgerDirectory.formatVersion) only")
            }
            guard case .string(let layout)? = member("layout"), layout == LedgerDirectory.layout else {
                throw LedgerError(.damaged, path: path, "layout: not \"\(LedgerDirectory.layout)\"")
            }
            switch member("source_head") {
            case nil, .null?: sourceHead = nil
            case .string(let text)?:
                guard let head = Head(parsing: text) else {
                    throw LedgerError(.damaged, path: path, "source_head: not SEQ:SHA256")
                }
                sourceHead = head
            default: throw LedgerError(.damaged, path: path, "source_head: not a string")
            }
        }

        /// The file's bytes (one line).
        var bytes: [UInt8] {
            let head = sourceHead.map { "\"\($0)\"" } ?? "null"
            return Array(("{\"format\":\"\(LedgerDirectory.formatName)\",\"version\":\(LedgerDirectory.formatVersion),"
                + "\"layout\":\"\(LedgerDirectory.layout)\",\"source_head\":\(head)}\n").utf8)
        }
    }
}
