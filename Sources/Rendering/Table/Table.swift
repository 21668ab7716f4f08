/// A table of text for a terminal: columns padded to their widest cell, text
/// left-aligned and numbers right-aligned, two spaces between columns.
struct TextTable: Sendable {
    /// How a column's cells line up.
    enum Alignment: Sendable { case left, right }

    private let headers: [String]
    private let alignments: [Alignment]
    private var rows: [[String]] = []
    private var rules: Set<Int> = []

    /// A table with these column headers and alignments.
    init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    /// Adds a row (missing cells are blank).
    mutating func row(_ cells: [String]) { rows.append(cells) }

    /// Draws a rule before the next row.
    mutating func rule() { rules.insert(rows.count) }

    /// The table, one line per row after the header and a rule, each ending with LF.
    var text: String {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for i in widths.indices {
                let cell = i < cells.count ? cells[i] : ""
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                parts.append(alignments[i] == .right ? pad + cell : cell + pad)
            }
            var text = parts.joined(separator: "  ")
            while text.last == " " { text.removeLast() }
            return text + "\n"
        }
        let ruler = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
        var out = line(headers) + ruler
        for (k, row) in rows.enumerated() {
            if rules.contains(k) { out += ruler }
            out += line(row)
        }
        return out
    }
}
