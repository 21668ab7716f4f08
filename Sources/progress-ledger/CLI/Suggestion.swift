/// "Did you mean": the known name closest to a mistyped one (`sate` →
/// `state`, `--usr` → `--user`), by edit distance over Unicode scalars
/// (insertions, deletions, substitutions, and two neighbours swapped).
enum Suggestion {
    /// The name of `known` closest to `typed`, when it is close enough to be
    /// a typo: at most 2 edits and fewer than half the name's length (the
    /// first in `known` on a tie); nil otherwise.
    static func closest(to typed: String, among known: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for name in known {
            let d = distance(typed, name)
            guard d <= 2, d * 2 < max(name.unicodeScalars.count, 2) else { continue }
            if best == nil || d < best?.distance ?? .max { best = (name, d) }
        }
        return best?.name
    }

    /// ` (did you mean 'NAME'?)` for the closest name, or nothing.
    static func hint(for typed: String, among known: [String]) -> String {
        closest(to: typed, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// The optimal-string-alignment distance between `a` and `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a.unicodeScalars), t = Array(b.unicodeScalars)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        // Three rows of the table: two back (for a swap), one back, this one.
        var before = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var row = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            row[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { row[j] = min(row[j], before[j - 2] + 1) }
            }
            (before, previous, row) = (previous, row, before)
        }
        return previous[t.count]
    }
}
