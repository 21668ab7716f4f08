/// A table of strings, the one builder behind every table the tool prints: a
/// header row, body rows and an optional total row, drawn as aligned text
/// for a terminal, as CSV, or as an HTML `<table>`.
///
/// Text: columns padded to their widest cell (text left-aligned, numbers
/// right-aligned), two spaces between columns, a rule under the header and
/// before the total row, trailing spaces trimmed, each line ending with LF.
/// CSV: the header and rows, fields quoted only when they hold `,`, `"` or a
/// line break. HTML: a `<thead>` of the headers, a `<tbody>` of the rows and
/// a `<tfoot>` of the total; every row's first cell is its row header
/// (`<th scope="row">`); every header and cell is escaped.
struct Table: Sendable {
    /// How a column's cells line up in text (CSV and HTML leave it to their reader).
    enum Alignment: Sendable { case left, right }

    private let headers: [String]
    private let alignments: [Alignment]
    private var rows: [[String]] = []
    private var total: [String]?

    /// A table with these column headers and alignments.
    init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    /// A table with these column headers, for CSV or HTML (text would left-align every column).
    init(_ headers: [String]) { self.init(headers.map { ($0, .left) }) }

    /// Adds a row (missing cells are blank).
    mutating func row(_ cells: [String]) { rows.append(cells) }

    /// Sets the total row, drawn after the rows (after a rule in text).
    mutating func total(_ cells: [String]) { total = cells }

    /// The table as aligned text.
    var text: String {
        var widths = headers.map(\.count)
        for row in rows + (total.map { [$0] } ?? []) {
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
        for row in rows { out += line(row) }
        if let total { out += ruler + line(total) }
        return out
    }

    /// The table as CSV: the header row, then the rows (a total row too), lines ending with LF.
    var csv: String {
        var out = ""
        for row in [headers] + rows + (total.map { [$0] } ?? []) {
            out += row.map(Self.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// A CSV field: as is, or quoted (`"` doubled) when it holds `,`, `"` or a line break.
    static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        var out = "\""
        for c in s { out += c == "\"" ? "\"\"" : String(c) }
        return out + "\""
    }

    /// The table as one HTML `<table>` element with this `id`, on one line.
    func html(id: String) -> String {
        let e = HTMLText.escape
        func cells(_ row: [String]) -> String {
            guard let first = row.first else { return "" }
            return "<th scope=\"row\">\(e(first))</th>" + row.dropFirst().map { "<td>\(e($0))</td>" }.joined()
        }
        var t = "<table id=\"\(e(id))\"><thead><tr>" + headers.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>"
        for row in rows { t += "<tr>" + cells(row) + "</tr>" }
        t += "</tbody>"
        if let total { t += "<tfoot><tr>" + cells(total) + "</tr></tfoot>" }
        return t + "</table>"
    }
}
