@testable import Events

// Frozen copy of the former library code: see ReferenceLineCodec.swift.
/// The checks a line must pass before it is parsed as JSON: not blank, not
/// too long, no CR, no BOM, valid UTF-8.
enum ReferenceLineChecks {
    static func check(_ line: UnsafeRawBufferPointer) throws(EventError) {
        guard !line.isEmpty else { throw EventError(.blankLine, "the line is empty") }
        guard line.count <= LineCodec.maxLineLength else {
            throw EventError(.lineTooLong, "the line is \(line.count) bytes; at most \(LineCodec.maxLineLength) are allowed")
        }
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            throw EventError(.encoding, "the line starts with a byte order mark (BOM)", offset: 0)
        }
        var i = 0
        let n = line.count
        while i < n {
            let c = line[i]
            if c < 0x80 {
                if c == 0x0D { throw EventError(.lineEnding, "the line holds a CR (\\r); lines end with LF only", offset: i) }
                i += 1
                continue
            }
            guard let width = utf8Width(line, i) else {
                throw EventError(.encoding, "invalid UTF-8 at byte \(i + 1)", offset: i)
            }
            i += width
        }
    }

    /// The length of the valid UTF-8 sequence starting at `i`, or nil.
    private static func utf8Width(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        let n = b.count
        let c0 = b[i]
        @inline(__always) func cont(_ k: Int) -> Bool { k < n && b[k] & 0xC0 == 0x80 }
        switch c0 {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : nil
        case 0xE0:
            return i + 1 < n && (0xA0...0xBF).contains(b[i + 1]) && cont(i + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : nil
        case 0xED:
            return i + 1 < n && (0x80...0x9F).contains(b[i + 1]) && cont(i + 2) ? 3 : nil
        case 0xF0:
            return i + 1 < n && (0x90...0xBF).contains(b[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF4:
            return i + 1 < n && (0x80...0x8F).contains(b[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : nil
        default:
            return nil
        }
    }
}
