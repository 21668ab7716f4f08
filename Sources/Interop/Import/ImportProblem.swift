/// A row of an old store that cannot be mapped: `FILE: ROW: MEMBER: what is wrong`.
package struct ImportProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given on the command line.
    package let file: String   // not a format string: a message
    /// The row (`line 4`, `rowid 3 (attempt_id X)`, `[1] (id X)`), nil for the whole file.
    package let row: String?   // not a format string: a message
    /// The member or column, nil when the fault is the file's.
    package let member: String?   // not a format string: a message
    /// What is wrong.
    package let message: String   // not a format string: a message

    /// Makes a problem.
    package init(file: String, row: String? = nil, member: String? = nil, _ message: String) {
        self.file = file; self.row = row; self.member = member; self.message = message
    }

    /// `FILE: ROW: MEMBER: message`, the parts that apply.
    package var description: String {
        [file, row, member, message].compactMap { $0 }.joined(separator: ": ")
    }
}

/// The problems of an import, every bad row of every file (nothing was appended).
package struct ImportProblems: Error, Sendable, Hashable {
    /// The problems in file and row order.
    package let problems: [ImportProblem]
}
