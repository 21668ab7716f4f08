// libFuzzer target: the line decoder (Events.LineCodec).
//
// Built by scripts/fuzz with `swiftc -sanitize=fuzzer,address -parse-as-library`
// together with the Events module; not a SwiftPM target.
//
// For every input (one line, without its LF):
// - decodeRecord and decodeNewEvent return or throw an EventError; they never
//   crash, trap, hang or leak, and the error's description can be made;
// - a line that decodes as a version-1 envelope re-encodes to a line that
//   decodes to the same envelope and re-encodes to the same bytes (the
//   encoding is a fixed point), within the 1 MiB limit when the input was;
// - an append input that decodes, sealed at seq 1, encodes to a stored line
//   that decodes back to it;
// - the writer's-line walk (the second stage's fast walk) changes nothing:
//   the record or error, and the keys `verify` reads, are the general walk's;
// - the report's check (`checkFoldEvent`: a view read in place from the
//   second stage's captures, a submission's answers included) gives the
//   general walk's keys or error, and a view equal to the one made from the
//   record decoded whole.
// (The frozen reference decoder this target was once compared with is gone:
// EventsTests check the decoder against hand-written verdicts, Foundation's
// JSON parser and seeded properties instead.)

@testable import Events

@inline(never)
func fail(_ message: String) -> Never {
    fatalError("fuzz-decode: " + message)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let line = UnsafeRawBufferPointer(start: data, count: size)
    sameWithGeneralWalk(line)
    sameFoldView(line)

    do {
        let record = try LineCodec.decodeRecord(line)
        if case .event(let envelope) = record {
            let encoded = LineCodec.encode(envelope)
            guard case .event(let again)? = try? LineCodec.decodeRecord(encoded) else {
                fail("a decoded envelope re-encodes to a line that does not decode: \(String(decoding: encoded, as: UTF8.self))")
            }
            guard again == envelope else { fail("re-decoding changed the envelope") }
            guard LineCodec.encode(again) == encoded else { fail("the encoding is not a fixed point") }
        }
        _ = record.seq; _ = record.id; _ = record.prev; _ = record.user
    } catch {
        _ = error.description
        _ = error.message
    }

    do {
        let event = try LineCodec.decodeNewEvent(line)
        let sealed = event.sealed(seq: 1, id: event.id ?? "fuzz-1", prev: Envelope.genesis)
        let encoded = LineCodec.encode(sealed)
        // The stored form may exceed 1 MiB (seq and prev are added); otherwise it must decode back.
        if encoded.count <= LineCodec.maxLineLength {
            guard case .event(let back)? = try? LineCodec.decodeRecord(encoded), back == sealed else {
                fail("an append input sealed at seq 1 does not decode back: \(String(decoding: encoded, as: UTF8.self))")
            }
        }
    } catch {
        _ = error.description
    }
    return 0
}

/// The outcome of every reader of a stored line, with the writer's-line walk (and verify's second stage) and with the general walk alone, must be equal.
func sameWithGeneralWalk(_ line: UnsafeRawBufferPointer) {
    func outcome(_ writersWalk: Bool) -> String {
        var out = ""
        do throws(EventError) { out += "\(try LineDecoder.record(line, writersWalk: writersWalk))" } catch { out += "\(error) \(error.member ?? "-") \(error.offset ?? -1)" }
        do throws(EventError) { out += " | \(try LineDecoder.keyed(line, data: false, writersWalk: writersWalk))" } catch { out += " | \(error)" }
        // verify's keys: with the walk, the second stage's rule tables where they answer (no payload built).
        do throws(EventError) { out += " | \(try LineDecoder.keys(line, writersWalk: writersWalk))" } catch { out += " | \(error) \(error.member ?? "-") \(error.offset ?? -1)" }
        return out
    }
    let fast = outcome(true), general = outcome(false)
    guard fast == general else {
        fail("the writer's-line walk changed the outcome of \(Array(line)): \(fast) against \(general)")
    }
}

/// The report's check of a stored line (``LineCodec/checkFoldEvent(_:)``) must
/// give the general walk's keys or error, and a view equal to the one made
/// from the record decoded whole (``FoldEvent/View/init(owning:user:)``):
/// the same fields, ids and answers (a submission read in place has no
/// payload, so payloads are not compared).
func sameFoldView(_ line: UnsafeRawBufferPointer) {
    func describe(_ v: FoldEvent.View?) -> String {
        guard let v else { return "no view" }
        func text(_ b: UnsafeRawBufferPointer?) -> String { b.map { "\(Array($0))" } ?? "nil" }
        var answers: [String] = []
        v.forEachAnswer { correct, skill in answers.append("\(correct):\(text(skill))") }
        return "\(v.seq) \(v.type) \(v.day) q=\(v.questions) daily=\(v.daily) correct=\(v.correct) user=\(text(v.user))"
            + " attempt=\(text(v.attempt)) question=\(text(v.question)) skill=\(text(v.skill)) answers=\(answers)"
    }
    var fast = ""
    do throws(EventError) {
        let (keys, view) = try LineCodec.checkFoldEvent(line)
        fast = "\(keys) | \(describe(view))"
    } catch {
        fast = "\(error) \(error.member ?? "-") \(error.offset ?? -1)"
    }
    var general = ""
    do throws(EventError) {
        let keys = try LineDecoder.keys(line, writersWalk: false)
        let record = try LineDecoder.record(line, writersWalk: false)
        if case .event(let e) = record {
            var user = e.user
            general = "\(keys) | " + user.withUTF8 { describe(FoldEvent.View(owning: e, user: UnsafeRawBufferPointer($0))) }
        } else {
            general = "\(keys) | no view"
        }
    } catch {
        general = "\(error) \(error.member ?? "-") \(error.offset ?? -1)"
    }
    guard fast == general else {
        fail("the report's check differs from the general walk on \(Array(line)): \(fast) against \(general)")
    }
}
