import Foundation
import Simulation
import Testing
@testable import Events

@Suite("Round trips over seeded random events")
struct PropertyTests {
    /// Strings that stress escaping: quotes, backslashes, controls, non-BMP scalars.
    static func text(_ g: inout SplitMix64, max: Int = 20) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", "-", "\"", "\\", "/", "\u{7F}", "\u{85}", "é", "中", "𝄞", " ", "\u{2028}", "\t", "\n", "\u{1}"]
        let n = Int.random(in: 1...max, using: &g)
        var s = String.UnicodeScalarView()
        for _ in 0..<n { s.append(alphabet.randomElement(using: &g) ?? "a") }
        return String(s)
    }

    static func event(_ g: inout SplitMix64) -> Event {
        switch Int.random(in: 0..<12, using: &g) {
        case 0: return .quizStarted(QuizStarted(attempt: text(&g), quiz: text(&g), questions: Int.random(in: 1...50, using: &g),
                                                daily: Bool.random(using: &g) ? Bool.random(using: &g) : nil,
                                                title: Bool.random(using: &g) ? text(&g) : nil,
                                                extra: Bool.random(using: &g) ? [JSONMember("x-" + text(&g, max: 3), .array([.number("-0.5e-3"), .null, .string(text(&g))]))] : []))
        case 1: return .answerSelected(AnswerSelected(attempt: text(&g), question: text(&g), choice: Int.random(in: 0...(1 << 53) - 1, using: &g),   // events-v1.md: numbers at most 2^53 - 1

                                                      correct: Bool.random(using: &g), correctChoice: Bool.random(using: &g) ? 2 : nil,
                                                      skill: Bool.random(using: &g) ? text(&g) : nil, ms: Bool.random(using: &g) ? 0 : nil,
                                                      item: Bool.random(using: &g) ? "bank-\(Int.random(in: 0...999, using: &g))" : nil))
        case 2: return .hintUsed(HintUsed(attempt: text(&g), question: text(&g), hint: Bool.random(using: &g) ? .reveal : .fiftyFifty))
        case 3: return .quizFinished(AttemptEnded(attempt: text(&g)))
        case 4: return .quizAbandoned(AttemptEnded(attempt: text(&g)))
        case 5: return .puzzleCompleted(PuzzlePlayed(puzzle: text(&g), encoding: text(&g), seconds: Seconds(Double(Int.random(in: 1...100_000, using: &g)) / 8)))
        case 6: return .puzzleFailed(PuzzlePlayed(puzzle: text(&g), encoding: text(&g)))
        case 7:
            let answers = (0..<Int.random(in: 0...4, using: &g)).map { k in
                SubmissionMade.Answer(question: "q\(k)", choice: k, correct: Bool.random(using: &g), skill: Bool.random(using: &g) ? text(&g) : nil)
            }
            return .submissionMade(SubmissionMade(content: text(&g), kind: .lesson, category: text(&g), seconds: 5, answers: answers))
        case 8: return .hintsGranted(HintsGranted(amount: Int.random(in: 1...9, using: &g), reason: .reward))
        case 10: return .streakFreezeGranted(StreakFreezeGranted(amount: Int.random(in: 1...5, using: &g), reason: .allCases.randomElement(using: &g) ?? .grant))
        case 11:
            // After every day `timestamp` makes (a pause is never backdated), at most 90 days.
            let from = Day(ordinal: Int.random(in: 40_001...50_000, using: &g))
            return .streakPaused(StreakPaused(from: from, to: from.adding(days: Int.random(in: 0...89, using: &g))))
        default: return .progressReset(ProgressReset(scope: .allCases.randomElement(using: &g) ?? .all))
        }
    }

    static func timestamp(_ g: inout SplitMix64) -> Timestamp {
        let day = Day(ordinal: Int.random(in: 0...40_000, using: &g)).description
        let h = Int.random(in: 0...23, using: &g), m = Int.random(in: 0...59, using: &g), s = Int.random(in: 0...59, using: &g)
        let digits = Int.random(in: 0...9, using: &g)
        let fraction = digits == 0 ? "" : "." + String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &g))) })
        let offsets = ["Z", "+03:00", "-08:00", "+05:30", "+14:00", "-00:00"]
        let text = "\(day)T\(Day.pad(h, 2)):\(Day.pad(m, 2)):\(Day.pad(s, 2))\(fraction)\(offsets.randomElement(using: &g) ?? "Z")"
        return ts(text)
    }

    @Test("decode(encode(x)) == x and Foundation parses every line", arguments: [1, 2, 3, 42] as [UInt64])
    func roundTrips(seed: UInt64) throws {
        var g = SplitMix64(seed: seed)
        for seq in 1...500 {
            // user forbids control characters: keep the other scalars.
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: Self.text(&g).unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
            let user = scalars.isEmpty ? "u" : String(scalars)
            let e = Envelope(seq: seq, id: "id-\(seq)", at: Self.timestamp(&g), user: user,
                             device: nil, event: Self.event(&g), prev: Envelope.genesis)
            let line = LineCodec.encode(e)
            #expect(try LineCodec.decodeRecord(line) == .event(e))
            #expect(!line.contains(0x0A), "an encoded line never holds an LF")
            let parsed = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            #expect(parsed?["user"] as? String == e.user)
        }
    }
}
