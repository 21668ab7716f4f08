import Events
import LedgerAnalytics
import Projections
import Testing

/// The spec's `report LOG...`: an event read before (by id) counts once,
/// where it was first read (`ReportFold.add(_:readAt:)`).
@Suite("report of several logs")
struct ReportSeveralLogsTests {
    /// An `answer.selected` line of `u-1` on 2025-10-01 (a v1 log line at `seq`).
    static func answer(_ id: String, seq: Int, question: String, correct: Bool) throws -> Record {
        let zeros = String(repeating: "0", count: 64)
        let line = #"{"v":1,"seq":\#(seq),"id":"\#(id)","at":"2025-10-01T09:0\#(seq):00Z","user":"u-1","type":"answer.selected","data":{"attempt":"a-1","question":"\#(question)","choice":1,"correct":\#(correct)},"prev":"\#(zeros)"}"#
        return try LineCodec.decodeRecord(Array(line.utf8))
    }

    @Test("the same event in two logs counts once; an id with other content is skipped and named; the first read wins")
    func verdicts() throws {
        let fold = ReportFold()
        let zeros = String(repeating: "0", count: 64)
        let start = #"{"v":1,"seq":1,"id":"s-1","at":"2025-10-01T09:00:00Z","user":"u-1","type":"quiz.started","data":{"attempt":"a-1","quiz":"daily","questions":3,"daily":true},"prev":"\#(zeros)"}"#
        #expect(fold.add(try LineCodec.decodeRecord(Array(start.utf8)), readAt: "phone.log:1") == .new)
        // phone.log: e-1 (q1 right), e-2 (q2 wrong). tablet.log: e-1 again, e-2 with q2 right, e-3 (q3 right).
        #expect(fold.add(try Self.answer("e-1", seq: 1, question: "q1", correct: true), readAt: "phone.log:1") == .new)
        #expect(fold.add(try Self.answer("e-2", seq: 2, question: "q2", correct: false), readAt: "phone.log:2") == .new)
        #expect(fold.add(try Self.answer("e-1", seq: 1, question: "q1", correct: true), readAt: "tablet.log:1") == .repeated)
        #expect(fold.add(try Self.answer("e-2", seq: 2, question: "q2", correct: true), readAt: "tablet.log:2")
                    == .conflicting(earlier: "phone.log:2"))
        #expect(fold.add(try Self.answer("e-3", seq: 3, question: "q3", correct: true), readAt: "tablet.log:3") == .new)
        let report = fold.report()
        // Counted: e-1 (right), e-2 as phone.log has it (wrong), e-3 (right): 3 answers, 2 right, 67%.
        #expect(report.totals.answers == 3)
        #expect(report.totals.accuracy == 67)
        #expect(report.totals.activeUsers == 1)
    }
}
