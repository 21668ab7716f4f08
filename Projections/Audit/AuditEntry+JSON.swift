import Events

extension AuditEntry {
    /// The entry as one compact JSON object (no newline):
    /// `{"kind":"event","seq","id","day","at","device","type","attempt","text","late","anomalies","reset"}`;
    /// `late` is null or `{"after_seq","seconds"}`, `anomalies` a list of `{"kind","detail"}`.
    public var json: [UInt8] {
        var w = JSONWriter()
        var o = ObjectWriter(&w)
        o.key(&w, "kind"); w.string("event")
        o.key(&w, "seq"); w.integer(seq)
        o.key(&w, "id"); w.string(id)
        o.key(&w, "day"); w.day(day)
        o.key(&w, "at"); w.timestamp(at)
        o.key(&w, "device"); w.string(device)
        o.key(&w, "type"); w.string(type)
        o.key(&w, "attempt"); w.string(attempt)
        o.key(&w, "text"); w.string(summary)
        o.key(&w, "late")
        if let late {
            var l = ObjectWriter(&w)
            l.key(&w, "after_seq"); w.integer(late.afterSeq)
            l.key(&w, "seconds"); w.number(late.by.description)
            l.end(&w)
        } else {
            w.null()
        }
        o.key(&w, "anomalies")
        w.array(anomalies) { w, a in
            var ao = ObjectWriter(&w)
            ao.key(&w, "kind"); w.string(a.kind.rawValue)
            ao.key(&w, "detail"); w.string(a.detail)
            ao.end(&w)
        }
        o.key(&w, "reset"); w.string(reset?.rawValue)
        o.end(&w)
        return w.bytes
    }
}
