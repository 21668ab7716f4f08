import Events
import SyncWire

/// A request's query parameters (`?after=3&limit=100`), decoded, each given
/// at most once, and only the names its route takes.
struct Query: Sendable {
    private var values: [String: String] = [:]

    /// Decodes `query` (nil: none), refusing (`400`) a bad escape, a name given
    /// twice, or a name not in `allowed`.
    init(_ query: String?, allowed: [String]) throws(HTTPError) {
        guard let query, !query.isEmpty else { return }
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentEncoding.decode(Array(parts[0]), plusIsSpace: true),
                  let value = PercentEncoding.decode(parts.count == 2 ? Array(parts[1]) : [], plusIsSpace: true) else {
                throw .badRequest("the query holds a bad percent-escape or bytes that are not UTF-8")
            }
            guard allowed.contains(name) else {
                let takes = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
                throw .badRequest("unknown query parameter \"\(name)\" (this endpoint takes: \(takes))")
            }
            guard values[name] == nil else { throw .badRequest("query parameter \"\(name)\" is given twice") }
            values[name] = value
        }
    }

    /// The value of `name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// `name` as an integer in `range`; `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(HTTPError) -> Int {
        guard let text = values[name] else { return fallback }
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(text), range.contains(n) else {
            throw .badRequest("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return n
    }

    /// `name` as a day (`YYYY-MM-DD`), if given.
    func day(_ name: String) throws(HTTPError) -> Day? {
        guard let text = values[name] else { return nil }
        guard let day = Day(text) else { throw .badRequest("\(name) must be a day YYYY-MM-DD, not \"\(text)\"") }
        return day
    }
}
