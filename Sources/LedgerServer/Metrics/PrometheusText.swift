/// Prometheus's text exposition format (version 0.0.4): a `# HELP` and a
/// `# TYPE` line per family, then one line a sample, `name{label="value"} number`.
struct PrometheusText: Sendable {
    /// The media type a scrape is answered with.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private(set) var text = ""

    /// Starts a family: its help and type (`counter`, `gauge`, `histogram`).
    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// A family of one unlabelled sample.
    mutating func single(_ name: String, _ type: String, _ help: String, _ value: String) {
        family(name, type, help)
        sample(name, [], value)
    }

    /// One sample.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + value + "\n"
    }

    /// `nanoseconds` as seconds, exactly as far as the decimal goes (`0.0005`, `2.5`, `12`).
    static func seconds(_ nanoseconds: UInt64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = nanoseconds % 1_000_000_000
        guard fraction > 0 else { return String(whole) }
        var digits = 9
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escapeLabel(_ value: String) -> String { escape(value, quote: true) }

    /// A help text: backslash and line feed escaped.
    static func escapeHelp(_ value: String) -> String { escape(value, quote: false) }

    private static func escape(_ value: String, quote: Bool) -> String {
        var out = ""
        for c in value.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"" where quote: out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
