import Foundation
import Testing
@testable import Events

/// What cold `state --user` reads of another learner's line: `verify`'s
/// check (`LineCodec.checkRecord`) alone, then its `user` as written
/// compared with the learner's bytes (`RecordKeys.mayBe`, in the Ledger
/// module); only a line that may be the learner's is decoded whole. That is
/// right only if the keys name the line's `user` exactly as the full decode
/// (`decodeRecord`) does: the same error for every line, and for a valid
/// line its `user` bytes (written without escapes), its text (with), or
/// none (a newer-version line without a string `user`).
@Suite("One learner's lines: verify's keys name the user as the full decode does")
struct UserRecordTests {
    /// Checks one line both ways; returns whether `user`'s read would find it
    /// another learner's from the keys alone (its `user` written without
    /// escapes, other bytes).
    @discardableResult
    static func agree(_ line: [UInt8], user: [UInt8], _ note: @autoclosure () -> String = "") -> Bool {
        line.withUnsafeBytes { b in
            let text = "\(String(decoding: line, as: UTF8.self)) user \(String(decoding: user, as: UTF8.self)) \(note())"
            let full: Result<Record, EventError>
            do throws(EventError) { full = .success(try LineCodec.decodeRecord(b)) } catch { full = .failure(error) }
            let found: Result<LineCodec.RecordKeys, EventError>
            do throws(EventError) { found = .success(try LineCodec.checkRecord(b)) } catch { found = .failure(error) }
            switch (full, found) {
            case (.failure(let expected), .failure(let error)):
                #expect("\(error) \(error.member ?? "-") \(error.offset ?? -1)" == "\(expected) \(expected.member ?? "-") \(expected.offset ?? -1)", "\(text)")
            case (.success(let record), .success(let keys)):
                switch keys.user {
                case .bytes(let range)?:
                    #expect(record.user.map { Array($0.utf8) } == Array(b[range]), "\(text)")
                    if !b[range].elementsEqual(user) {
                        #expect(record.user.map { !$0.utf8.elementsEqual(user) } == true, "\(text)")
                        return true
                    }
                case .text(let written)?:
                    #expect(record.user.map { Array($0.utf8) } == Array(written.utf8), "\(text)")
                case nil:
                    #expect(record.user == nil, "\(text)")
                }
            default:
                Issue.record("full decode \(full), verify's check \(found): \(text)")
            }
            return false
        }
    }

    @Test("the writer's lines of seeded envelopes: the learner's never found another's, another's found from the keys")
    func writersLines() {
        var fuzzer = LineFuzzer(seed: 3660)
        var others = 0
        for seq in 1...600 {
            let envelope = fuzzer.envelope(seq: seq)
            let line = LineCodec.encode(envelope)
            #expect(!UserRecordTests.agree(line, user: Array(envelope.user.utf8)))
            if UserRecordTests.agree(line, user: Array("u-1".utf8)) { others += 1 }
            // The same text in other bytes (another normalisation), and a prefix: other users.
            UserRecordTests.agree(line, user: Array(envelope.user.decomposedStringWithCanonicalMapping.utf8))
            UserRecordTests.agree(line, user: Array(envelope.user.utf8.dropLast()))
        }
        // Users written with escapes are decoded to be compared (the fuzzer's
        // stress strings: about two in three); the others are not.
        #expect(others > 150)
    }

    @Test("byte mutations, rewritten lines (order, whitespace, escapes, broken rules): the same verdict as the full decode")
    func mutatedLines() {
        var fuzzer = LineFuzzer(seed: 3661)
        let bytes: [UInt8] = [0x20, 0x22, 0x5C, 0x2C, 0x7D, 0x7B, 0x3A, 0x30, 0x2D, 0x75, 0x00, 0xC3, 0xFF]
        for seq in 1...12 {
            let envelope = fuzzer.envelope(seq: seq)
            let line = LineCodec.encode(envelope)
            for position in 0..<line.count {
                var replaced = line
                replaced[position] = bytes[(position + seq) % bytes.count]
                for user in [envelope.user, "u-1"] {
                    UserRecordTests.agree(replaced, user: Array(user.utf8), "replaced at \(position)")
                    UserRecordTests.agree(Array(line[..<position]), user: Array(user.utf8), "cut at \(position)")
                }
            }
        }
        for seq in 1...2000 {
            let line = fuzzer.line(seq: seq)
            let user = (try? LineCodec.decodeRecord(line))?.user ?? "u"
            UserRecordTests.agree(line, user: Array(user.utf8))
            UserRecordTests.agree(line, user: Array("u-1".utf8))
        }
    }

    @Test("every case of the bad-line set: the same error as the full decode, for any user")
    func badLines() throws {
        let corpus = try BadLine.corpus()
        for bad in corpus {
            for user in ["u-1", "u-2", "learner-42", ""] { UserRecordTests.agree(bad.bytes, user: Array(user.utf8), bad.name) }
        }
        #expect(corpus.count > 50)
    }

    @Test("a newer-version line: another's found from the keys; one without a string user is not, as every user's read keeps it")
    func newerLines() {
        let prev = Envelope.genesis
        let other = Array(#"{"v":3,"seq":4,"id":"n-1","user":"u-2","prev":"\#(prev)"}"#.utf8)
        let noUser = Array(#"{"v":3,"seq":4,"id":"n-1","user":7,"prev":"\#(prev)"}"#.utf8)
        #expect(UserRecordTests.agree(other, user: Array("u-1".utf8)))
        #expect(!UserRecordTests.agree(other, user: Array("u-2".utf8)))
        #expect(!UserRecordTests.agree(noUser, user: Array("u-1".utf8)))
    }
}
