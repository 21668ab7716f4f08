/// Escaping for text and attribute values in HTML and inline SVG.
enum HTMLText {
    /// `&`, `<`, `>`, `"` and `'` as character references.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A number for SVG coordinates: at most one decimal, no trailing `.0`.
    static func number(_ x: Double) -> String {
        let tenths = Int((x * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let m = abs(tenths)
        return m % 10 == 0 ? sign + String(m / 10) : sign + "\(m / 10).\(m % 10)"
    }
}
