import Events

extension AuditEntry {
    /// The entry as one compact JSON object (no newline):
    /// `{"kind":"event","seq","id","day","at","device","type","attempt","text","late","anomalies","reset"}`;
    /// `late` is null or `{"after_seq","seconds"}`, `anomalies` a list of `{"kind","detail"}`.
    public var json: [UInt8] {
        var w = JSONWriter()
        w.object { w, o in
            o.string(&w, "kind", "event"); o.integer(&w, "seq", seq); o.string(&w, "id", id)
            o.day(&w, "day", day); o.timestamp(&w, "at", at); o.string(&w, "device", device)
            o.string(&w, "type", type); o.string(&w, "attempt", attempt); o.string(&w, "text", summary)
            if let late {
                o.object(&w, "late") { w, l in l.integer(&w, "after_seq", late.afterSeq); l.number(&w, "seconds", late.by.description) }
            } else {
                o.key(&w, "late"); w.null()
            }
            o.objects(&w, "anomalies", anomalies) { w, ao, a in ao.string(&w, "kind", a.kind.rawValue); ao.string(&w, "detail", a.detail) }
            o.string(&w, "reset", reset?.rawValue)
        }
        return w.bytes
    }
}
