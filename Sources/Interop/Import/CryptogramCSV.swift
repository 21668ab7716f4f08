/// The rows of `sqlite3 -csv -header DB 'SELECT * FROM puzzle_progress_attempts'`:
/// RFC 4180 quoting, LF or CRLF; an unquoted empty field is NULL, a quoted `""`
/// an empty string; the header names the columns (docs/import.md).
enum CryptogramCSV {
    static func rows(_ bytes: [UInt8]) throws(CryptogramFileError) -> [CryptogramRow] {
        let records = split(bytes)
        guard let header = records.first else {
            throw CryptogramFileError(row: "line 1", member: nil, message: "no header")
        }
        let names = header.fields.map { if case .text(let s) = $0 { s } else { "" } }
        var index: [Int] = []
        for column in CryptogramRow.columns {
            guard let k = names.firstIndex(of: column) else {
                throw CryptogramFileError(row: "line 1", member: column, message: "missing from the header")
            }
            index.append(k)
        }
        return records.dropFirst().map { record in
            CryptogramRow(label: "line \(record.line)",
                          cells: index.map { record.fields.indices.contains($0) ? number(record.fields[$0], column: $0, index) : .null })
        }
    }

    /// `completion_time` unquoted is read as a number's text.
    private static func number(_ cell: CryptogramRow.Cell, column: Int, _ index: [Int]) -> CryptogramRow.Cell {
        if column == index[5], case .text(let s) = cell, Double(s) != nil { return .number(s) }
        return cell
    }

    /// Records with their first line number; empty lines skipped.
    static func split(_ bytes: [UInt8]) -> [(line: Int, fields: [CryptogramRow.Cell])] {
        var out: [(Int, [CryptogramRow.Cell])] = []
        var fields: [CryptogramRow.Cell] = []
        var field: [UInt8] = []
        var quoted = false, inQuotes = false
        var line = 1, recordLine = 1
        var i = 0
        func endField() {
            fields.append(field.isEmpty && !quoted ? .null : .text(String(decoding: field, as: UTF8.self)))
            field = []; quoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0] == .null) { out.append((recordLine, fields)) }
            fields = []
        }
        while i < bytes.count {
            let c = bytes[i]
            if inQuotes {
                if c == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") { field.append(c); i += 2; continue }
                    inQuotes = false
                } else {
                    if c == 0x0A { line += 1 }
                    field.append(c)
                }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inQuotes = true; quoted = true
            case UInt8(ascii: ","): endField()
            case 0x0D where i + 1 < bytes.count && bytes[i + 1] == 0x0A: break
            case 0x0A:
                endRecord(); line += 1; recordLine = line
            default: field.append(c)
            }
            i += 1
        }
        if !field.isEmpty || quoted || !fields.isEmpty { endRecord() }
        return out
    }
}
