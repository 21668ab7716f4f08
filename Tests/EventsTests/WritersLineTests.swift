import Foundation
import Simulation
import Testing
@testable import Events

/// The writer's-line walk (`LineDecoder.scanWritersLine`) against the general
/// walk (`scanEnvelope`): wherever the fast walk answers, its captures must
/// be the general walk's, value for value; and every line, the fast one's
/// or not, must decode (record, keys, error) exactly as with the general walk alone.
@Suite("The writer's own lines: one forward walk, the general walk's captures")
struct WritersLineTests {
    /// The captures of a line as text (kind, range, flags of every slot, data's slots and items), or the walk's error.
    static func captures(_ line: [UInt8], writersWalk: Bool) -> String {
        line.withUnsafeBytes { b in
            do throws(EventError) {
                let (_, e) = try LineDecoder.scanned(b, writersWalk: writersWalk)
                func slots(_ s: Slots) -> String {
                    (0..<MemberLayout.capacity).map { k in
                        let c = s[k]
                        return "\(c.kind)\(c.start)-\(c.end)\(c.flag ? "f" : "")\(c.nonASCII ? "n" : "")"
                    }.joined(separator: ",")
                }
                let items = e.data.items.map { "\($0.kind):\(slots($0.members.slots)) x\($0.members.extra.count)" }
                return "\(slots(e.slots)) unknown:\(e.firstUnknown ?? "-") type:\(e.data.type.map { "\($0)" } ?? "-") "
                    + "data:\(slots(e.data.members.slots)) x\(e.data.members.extra.count) items:\(items)"
            } catch {
                return "error \(error)"
            }
        }
    }

    /// Whether the fast walk takes the line.
    static func taken(_ line: [UInt8]) -> Bool {
        line.withUnsafeBytes { b in
            var decoder = LineDecoder(b)
            var e = LineDecoder.EnvelopeCapture()
            return decoder.scanWritersLine(into: &e)
        }
    }

    /// Everything a reader gets from the line: the record or error, and the keys or error.
    static func outcome(_ line: [UInt8], writersWalk: Bool) -> String {
        line.withUnsafeBytes { b in
            var out = ""
            do throws(EventError) { out += "\(try LineDecoder.record(b, writersWalk: writersWalk))" } catch { out += "error \(error) \(error.member ?? "-") \(error.offset ?? -1)" }
            do throws(EventError) { out += " | \(try LineDecoder.keyed(b, data: true, writersWalk: writersWalk))" } catch { out += " | error \(error)" }
            return out
        }
    }

    /// Checks one line: same captures where the fast walk answers, same outcome always.
    static func agree(_ line: [UInt8], _ note: @autoclosure () -> String = "") {
        if taken(line) {
            #expect(captures(line, writersWalk: true) == captures(line, writersWalk: false), "\(String(decoding: line, as: UTF8.self)) \(note())")
        }
        #expect(outcome(line, writersWalk: true) == outcome(line, writersWalk: false), "\(String(decoding: line, as: UTF8.self)) \(note())")
    }

    @Test("every line the writer writes for seeded envelopes of every type: the same captures, and the plain ones taken")
    func writersLines() {
        var fuzzer = LineFuzzer(seed: 3636)
        var taken = 0, plain = 0
        var types = Set<EventType>()
        for seq in 1...600 {
            let envelope = fuzzer.envelope(seq: seq)
            let line = LineCodec.encode(envelope)
            WritersLineTests.agree(line)
            // Escapes and non-ASCII are read by the scanner's own string reader: only members the format does not define are left to the general walk.
            if envelope.event.extraIsEmpty {
                plain += 1
                #expect(WritersLineTests.taken(line), "\(String(decoding: line, as: UTF8.self))")
            }
            if WritersLineTests.taken(line) { taken += 1; types.insert(envelope.event.type) }
        }
        #expect(plain > 100)
        #expect(taken >= plain)
        #expect(types.count == EventType.allCases.count, "taken for \(types.sorted { $0.rawValue < $1.rawValue })")
    }

    @Test("byte mutations of the writer's lines at every position: same captures where taken, same verdict always")
    func mutations() {
        var fuzzer = LineFuzzer(seed: 3637)
        let bytes: [UInt8] = [0x20, 0x09, 0x22, 0x5C, 0x2C, 0x7D, 0x7B, 0x5B, 0x5D, 0x3A, 0x30, 0x39, 0x2D, 0x2E, 0x65,
                              0x6E, 0x74, 0x00, 0x0D, 0x7F, 0xC3, 0xFF]
        for seq in 1...24 {
            let line = LineCodec.encode(fuzzer.envelope(seq: seq))
            for position in 0..<line.count {
                for byte in [bytes[position % bytes.count], bytes[(position * 7 + seq) % bytes.count]] {
                    var replaced = line
                    replaced[position] = byte
                    WritersLineTests.agree(replaced, "replaced at \(position)")
                }
                var inserted = line
                inserted.insert(bytes[(position + seq) % bytes.count], at: position)
                WritersLineTests.agree(inserted, "inserted at \(position)")
                var removed = line
                removed.remove(at: position)
                WritersLineTests.agree(removed, "removed at \(position)")
                WritersLineTests.agree(Array(line[..<position]), "cut at \(position)")
            }
        }
    }

    @Test("the fuzzer's rewritten lines (order, whitespace, escapes, broken rules) decode as with the general walk alone")
    func rewrittenLines() {
        var fuzzer = LineFuzzer(seed: 3638)
        for seq in 1...3000 {
            WritersLineTests.agree(fuzzer.line(seq: seq))
        }
    }

    @Test("every case of the bad-line set, as written and with a member dropped or doubled, decodes as with the general walk alone")
    func badLines() throws {
        let url = try #require(Bundle.module.url(forResource: "bad-lines", withExtension: "jsonl", subdirectory: "Resources"))
        let text = try String(contentsOf: url, encoding: .utf8)
        var count = 0
        for raw in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            let line: [UInt8]
            if let hex = object["hex"] as? String {
                line = stride(from: 0, to: hex.count, by: 2).compactMap { k in
                    UInt8(hex.dropFirst(k).prefix(2), radix: 16)
                }
            } else {
                line = Array(try #require(object["line"] as? String).utf8)
            }
            WritersLineTests.agree(line)
            count += 1
        }
        #expect(count > 50)
    }
}

private extension Event {
    /// Whether the payload keeps no member the format does not define (the writer then writes no nested value but its own).
    var extraIsEmpty: Bool {
        var check = ExtraCheck()
        accept(&check)
        return check.empty
    }
}

private struct ExtraCheck: PayloadVisitor {
    var empty = true
    mutating func visit<P: Payload>(_ payload: P, as type: EventType) {
        let mirror = Mirror(reflecting: payload)
        for child in mirror.children where child.label == "extra" {
            if let extra = child.value as? [JSONMember], !extra.isEmpty { empty = false }
        }
        if let answers = mirror.children.first(where: { $0.label == "answers" })?.value as? [SubmissionMade.Answer],
           answers.contains(where: { !$0.extra.isEmpty }) {
            empty = false
        }
    }
}
