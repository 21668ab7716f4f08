import Foundation
import Simulation
import Testing
@testable import Events

/// The writer's walk compiled per type (``WriterWalks``): its tables are the
/// member lists the codec has (nothing written twice), its type lookup finds
/// exactly the types ``EventType/init(utf8:)`` finds, and on demo lines of
/// every type and on rewrites of each of their members it makes the general
/// walk's captures and verdicts (``WritersLineTests/agree(_:_:)``).
@Suite("The writer's walk compiled per type: tables from the member lists, the general walk's captures")
struct WriterWalkTests {
    /// A spelling's bytes.
    static func bytes(_ s: Spelling) -> [UInt8] { (0..<s.count).map { s[$0] } }

    /// A walk's tokens as text.
    static func tokens(_ walk: ObjectWalk) -> [String] {
        (0..<walk.count).map { String(decoding: bytes(walk.tokens[$0]), as: UTF8.self) }
    }

    /// The tokens the writer puts before each of `names`' values, written here from the names alone.
    static func written(_ names: [String]) -> [String] {
        names.enumerated().map { k, name in (k == 0 ? "" : ",") + "\"" + name + "\":" }
    }

    /// The type the compiled lookup finds for `name` (followed by 24 other bytes, as in a line).
    static func lookup(_ name: [UInt8]) -> EventType? {
        let line = name + Array(#"","data":{"x":1},"prev":""#.utf8)
        return line.withUnsafeBytes { b in WriterWalks.shared.type(b, 0, name.count)?.0 }
    }

    @Test("each table is its object's member list: the envelope's, every type's data, a submission's answers")
    func tables() {
        let walks = WriterWalks.shared
        #expect(WriterWalkTests.tokens(walks.envelope) == WriterWalkTests.written(WriterOrder.names))
        #expect(walks.envelope.nested == EnvelopeMember.data.rawValue)
        for type in EventType.allCases {
            let found = WriterWalkTests.lookup(Array(type.rawValue.utf8))
            #expect(found == type, "\(type)")
            guard let (_, walk, rules) = Array(type.rawValue.utf8 + Array(repeating: 0x20, count: 24)).withUnsafeBytes({
                WriterWalks.shared.type($0, 0, type.rawValue.utf8.count)
            }) else { continue }
            // The rules the walk hands to the second stage are the type's own table (the same object, or none for both).
            #expect(rules?.takeUnretainedValue() === DataRules.of(type), "\(type)")
            #expect(WriterWalkTests.tokens(walk) == WriterWalkTests.written(type.layout.names), "\(type)")
            if let array = type.layout.items, let items = walk.items {
                #expect(walk.nested == array.slot)
                #expect(WriterWalkTests.tokens(items.pointee) == WriterWalkTests.written(array.layout.names), "\(type)")
                #expect(items.pointee.nested == -1)
            } else {
                #expect(walk.nested == -1 && walk.items == nil, "\(type)")
            }
        }
        // The submission's answers are the one array member of objects.
        let submission = Array("submission.made".utf8 + Array(repeating: 0x20, count: 24)).withUnsafeBytes { WriterWalks.shared.type($0, 0, 15) }
        #expect(submission?.1.items != nil)
    }

    @Test("the type lookup finds what EventType(utf8:) finds: every name, and every byte of it changed, added or removed")
    func typeLookup() {
        var differ: [String] = [], found = 0
        func check(_ name: [UInt8]) {
            let expected = name.withUnsafeBytes { EventType(utf8: $0) }
            let got = WriterWalkTests.lookup(name)
            if got != nil { found += 1 }
            if got != expected { differ.append(String(decoding: name, as: UTF8.self)) }
        }
        let values: [UInt8] = [0x00, 0x20, 0x22, 0x2E, 0x5F, 0x61, 0x65, 0x7A, 0x7F, 0x80, 0xFF]
        for type in EventType.allCases {
            let name = Array(type.rawValue.utf8)
            check(name)
            for position in name.indices {
                for value in values + [name[position] ^ 0x20, name[position] &+ 1] {
                    var changed = name
                    changed[position] = value
                    check(changed)
                }
                var removed = name
                removed.remove(at: position)
                check(removed)
                check(Array(name[..<position]))
                var added = name
                added.insert(name[position], at: position)
                check(added)
            }
            check(name + [UInt8(ascii: "s")])
        }
        for other in ["", "quiz", "answer.Selected", "hints_granted", "streak.freeze.granted", "x.y", String(repeating: "q", count: 24)] {
            check(Array(other.utf8))
        }
        #expect(differ.isEmpty, "\(differ.prefix(5))")
        #expect(found >= EventType.allCases.count)
    }

    /// The demo's events as the writer writes them, chained.
    static func demoLines(users: Int, days: Int, seed: UInt64) -> [(Envelope, [UInt8])] {
        var prev = String(repeating: "0", count: 64)
        return DemoLog(.init(users: users, days: days, seed: seed)).enumerated().map { k, e in
            let envelope = Envelope(seq: k + 1, id: e.id ?? "e-\(k + 1)", at: e.at, user: e.user, device: e.device, event: e.event, prev: prev)
            let line = LineCodec.encode(envelope)
            prev = String(decoding: line.prefix(64).map { b in Array("0123456789abcdef".utf8)[Int(b) & 15] }, as: UTF8.self)
            return (envelope, line)
        }
    }

    @Test("demo lines of every type: taken by the compiled walk, with the general walk's captures and verdicts")
    func demoLines() {
        var types = Set<EventType>(), taken = 0
        let lines = WriterWalkTests.demoLines(users: 12, days: 20, seed: 36)
        for (envelope, line) in lines {
            WritersLineTests.agree(line)
            if WritersLineTests.taken(line) {
                taken += 1
                types.insert(envelope.event.type)
            } else {
                Issue.record("not taken: \(String(decoding: line, as: UTF8.self))")
            }
        }
        #expect(taken == lines.count && lines.count > 500)
        // The demo writes every type of version 1 (version 2's come from the fuzzer's lines, WritersLineTests).
        #expect(types.count >= 8, "\(types)")
    }

    @Test("rewrites of each member of demo and fuzzer lines (moved, doubled, dropped, another kind of value): as the general walk")
    func memberRewrites() throws {
        var fuzzer = LineFuzzer(seed: 3650)
        var lines = WriterWalkTests.demoLines(users: 6, days: 8, seed: 37).map(\.1)
        lines += (1...120).map { LineCodec.encode(fuzzer.envelope(seq: $0)) }
        let values: [JSONValue] = [.null, .bool(true), .bool(false), .number("0"), .number("-1"), .number("12.5"), .number("1e3"),
                                   .string(""), .string("x"), .string("q\"1"), .string("é"), .object([]), .array([])]
        var rewrites = 0
        for line in lines {
            let tree = try line.withUnsafeBytes { b throws(EventError) in try JSONScanner.parse(b) }
            guard case .object(let envelope) = tree else { continue }
            // Each member of the envelope, and each of data, rewritten one at a time.
            func emit(_ members: [JSONMember]) {
                var out: [UInt8] = []
                DataRulesTests.compact(.object(members), into: &out)
                WritersLineTests.agree(out)
                rewrites += 1
            }
            func rewritten(_ members: [JSONMember], _ j: Int, _ k: Int) -> [[JSONMember]] {
                var moved = members
                let m = moved.remove(at: j)
                moved.insert(m, at: (j + 1 + k) % (members.count))
                var doubled = members
                doubled.insert(members[j], at: j + 1)
                var dropped = members
                dropped.remove(at: j)
                var other = members
                other[j].value = values[(j * 5 + k) % values.count]
                return [moved, doubled, dropped, other]
            }
            for j in envelope.indices {
                for e in rewritten(envelope, j, line.count) { emit(e) }
            }
            if let d = envelope.firstIndex(where: { $0.name == "data" }), case .object(let data) = envelope[d].value, !data.isEmpty {
                for j in data.indices {
                    for changed in rewritten(data, j, line.count) {
                        var e = envelope
                        e[d].value = .object(changed)
                        emit(e)
                    }
                }
            }
        }
        #expect(rewrites > 5_000)
    }

    @Test("the captures and the decoder are plain values; what they spill is beside the decoder, a value: a copy changed leaves the original as it was")
    func outOfLine() {
        // Nothing reference counted: made, copied and dropped with no retain or release.
        #expect(_isPOD(LineDecoder.EnvelopeCapture.self))
        #expect(_isPOD(DataCapture.self) && _isPOD(ObjectCapture.self) && _isPOD(ItemCapture.self))
        // The decoder too: what the captures spill is beside it (``Spilled``), so it is dropped with nothing destroyed.
        #expect(_isPOD(LineDecoder.self))
        var a = Spilled()
        #expect(!a.hasItems && a.items.isEmpty && a.extra(of: ObjectCapture()).isEmpty)
        var o = ObjectCapture()
        o.extraList = a.keep(extra: [JSONMember("x", .null)])
        var b = a
        var p = ObjectCapture()
        p.extraList = b.keep(extra: [JSONMember("y", .bool(true))])
        #expect(a.extra(of: o).map(\.name) == ["x"] && a.extra(of: p).isEmpty)
        #expect(b.extra(of: o).map(\.name) == ["x"] && b.extra(of: p).map(\.name) == ["y"])
        a.items = [ItemCapture(kind: .object)]
        let copy = a
        a.items.append(ItemCapture(kind: .null))
        #expect(copy.items.count == 1 && a.items.count == 2 && a.hasItems && !b.hasItems)
    }
}
