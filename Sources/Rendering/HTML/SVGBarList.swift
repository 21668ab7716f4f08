/// A horizontal bar chart of percentages with one labelled row per item (the
/// skills), for names too long to stand under vertical bars.
struct SVGBarList: Sendable {
    /// One row: its name, its percentage (nil: no data) and its tooltip.
    struct Row: Sendable {
        var label: String
        var value: Int?
        var tooltip: String
    }

    let id: String
    let title: String
    let xTitle: String
    let yTitle: String
    let rows: [Row]

    private let width = 960.0, rowHeight = 26.0
    private let left = 200.0, right = 56.0, top = 28.0, bottom = 50.0

    /// The `<svg>` element.
    var svg: String {
        let e = HTMLText.escape, f = HTMLText.number
        let plotW = width - left - right
        let plotH = rowHeight * Double(max(rows.count, 1))
        let height = top + plotH + bottom
        func x(_ v: Int) -> Double { left + plotW * Double(v) / 100 }
        var s = "<svg id=\"\(e(id))\" class=\"chart\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" "
            + "aria-labelledby=\"\(e(id))-title\" xmlns=\"http://www.w3.org/2000/svg\">"
        s += "<title id=\"\(e(id))-title\">\(e(title))</title>"
        for tick in stride(from: 0, through: 100, by: 25) {
            s += "<line class=\"grid\" x1=\"\(f(x(tick)))\" x2=\"\(f(x(tick)))\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\"/>"
            s += "<text class=\"tick\" x=\"\(f(x(tick)))\" y=\"\(f(top + plotH + 18))\" text-anchor=\"middle\">\(tick)%</text>"
        }
        s += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\"/>"
        s += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(top + plotH))\" y2=\"\(f(top + plotH))\"/>"
        s += "<text class=\"axis-title\" x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">\(e(xTitle))</text>"
        s += "<text class=\"axis-title\" x=\"\(f(left - 10))\" y=\"\(f(top - 10))\" text-anchor=\"end\">\(e(yTitle))</text>"
        s += "<g class=\"marks\">"
        for (i, row) in rows.enumerated() {
            let cy = top + rowHeight * (Double(i) + 0.5)
            s += "<text class=\"label\" x=\"\(f(left - 10))\" y=\"\(f(cy + 4))\" text-anchor=\"end\">\(e(row.label))</text>"
            let value = row.value ?? 0
            let w = max(value > 0 ? 1 : 0, x(value) - left)
            s += "<rect class=\"mark\(row.value == nil ? " empty" : "")\" data-key=\"\(e(row.label))\" "
                + "data-value=\"\(row.value.map(String.init) ?? "")\" x=\"\(f(left))\" y=\"\(f(cy - rowHeight * 0.32))\" "
                + "width=\"\(f(w))\" height=\"\(f(rowHeight * 0.64))\"><title>\(e(row.tooltip))</title></rect>"
            s += "<text class=\"value\" x=\"\(f(left + w + 6))\" y=\"\(f(cy + 4))\">\(row.value.map { "\($0)%" } ?? "–")</text>"
        }
        return s + "</g></svg>"
    }
}
