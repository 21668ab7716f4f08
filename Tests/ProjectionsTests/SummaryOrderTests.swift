import Events
import Projections
import Testing

/// The per-quiz, per-puzzle and per-content summaries are listed in the code
/// point order of their ids (UTF-8 bytes compared), whatever the order the
/// log names them in: ids that share a prefix, differ in case, are
/// non-ASCII, and two spellings of one letter kept apart.
@Suite("state: summaries in code point order")
struct SummaryOrderTests {
    /// Ids folded in a scrambled order.
    static let ids = ["b", "a", "ab", "aa", "A", "Z", "é", "e\u{301}", "e", "z-2", "z-10", "日本", "a b", "Ä", "~", "0", "10", "9",
                      "quiz-07", "quiz-7", "quiz-070", "b\u{0}", "ba", "😀", "ÿ", "\u{7F}"]

    /// `ids` in the order of their UTF-8 bytes.
    static func byBytes(_ ids: [String]) -> [String] {
        ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// A permutation of `0..<n` (a fixed stride through the ids, not their order).
    static func scrambled(_ n: Int) -> [Int] { (0..<n).map { ($0 * 7 + 3) % n } }

    @Test("quizzes by quiz id, puzzles by puzzle then encoding, submissions by content, each in UTF-8 byte order")
    func order() {
        let ids = Self.ids
        #expect(Set(Self.scrambled(ids.count)).count == ids.count)
        var log = LogBuilder()
        var minute = 0
        func at() -> String {
            minute += 1
            return "2025-10-01T\(10 + minute / 60):\(String(minute % 60).count == 1 ? "0" : "")\(minute % 60):00Z"
        }
        for k in Self.scrambled(ids.count) {
            log.start(at(), "a-\(k)", quiz: ids[k], daily: false)
            log.finish(at(), "a-\(k)")
            // Two encodings of each puzzle, the later one in byte order first.
            log.puzzle(at(), ids[k], "vigenere")
            log.puzzle(at(), ids[k], "caesar", completed: false)
            log.submit(at(), ids[k], answers: [(true, nil)])
        }
        let state = fold(log)
        #expect(state.quizzes.map(\.quiz) == Self.byBytes(ids))
        #expect(state.puzzles.map { [$0.puzzle, $0.encoding] } == Self.byBytes(ids).flatMap { [[$0, "caesar"], [$0, "vigenere"]] })
        #expect(state.submissions.map(\.content) == Self.byBytes(ids))
        // The two spellings of "é" are two quizzes (Swift's `==` would call them one).
        #expect(state.quizzes.filter { $0.quiz == "é" }.count == 2)
    }
}
