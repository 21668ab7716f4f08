/// Inline SVG charts for the HTML report: no script, colours from the page's
/// CSS variables (so they follow light and dark mode), one `mark` element per
/// value with a `<title>` tooltip, and labelled axes.
struct SVGChart: Sendable {
    /// One value on the chart: its axis label, its tooltip and its value (nil: no data).
    struct Point: Sendable {
        var key: String
        var label: String
        var tooltip: String
        var value: Int?
    }

    /// Vertical bars, or a line with a dot per value.
    enum Style: Sendable { case bars, line }

    let id: String
    let title: String
    let xTitle: String
    let yTitle: String
    let points: [Point]
    let style: Style
    /// Fixed top of the value axis (100 for percentages), or nil to fit the data.
    let yMax: Int?
    /// Appended to tick labels (`%`).
    let unit: String

    private let width = 960.0, height = 300.0
    private let left = 64.0, right = 16.0, top = 12.0, bottom = 50.0

    init(id: String, title: String, xTitle: String, yTitle: String, points: [Point], style: Style,
         yMax: Int? = nil, unit: String = "") {
        self.id = id; self.title = title; self.xTitle = xTitle; self.yTitle = yTitle
        self.points = points; self.style = style; self.yMax = yMax; self.unit = unit
    }

    /// The `<svg>` element.
    var svg: String {
        let plotW = width - left - right, plotH = height - top - bottom
        let (maxValue, step) = axis
        let n = max(points.count, 1)
        let slot = plotW / Double(n)
        func x(_ i: Int) -> Double { left + slot * (Double(i) + 0.5) }
        func y(_ v: Int) -> Double { top + plotH - plotH * Double(v) / Double(maxValue) }
        let e = HTMLText.escape, f = HTMLText.number
        var s = "<svg id=\"\(e(id))\" class=\"chart\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" "
            + "aria-labelledby=\"\(e(id))-title\" xmlns=\"http://www.w3.org/2000/svg\">"
        s += "<title id=\"\(e(id))-title\">\(e(title))</title>"
        // Grid lines and value ticks.
        var tick = 0
        while tick <= maxValue {
            let ty = y(tick)
            s += "<line class=\"grid\" x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(ty))\" y2=\"\(f(ty))\"/>"
            s += "<text class=\"tick\" x=\"\(f(left - 8))\" y=\"\(f(ty + 4))\" text-anchor=\"end\">\(tick)\(e(unit))</text>"
            tick += step
        }
        // Axes and their titles.
        s += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\"/>"
        s += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(top + plotH))\" y2=\"\(f(top + plotH))\"/>"
        s += "<text class=\"axis-title\" x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">\(e(xTitle))</text>"
        s += "<text class=\"axis-title\" transform=\"translate(16 \(f(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">\(e(yTitle))</text>"
        // Category labels, thinned so they never overlap.
        let every = max(1, Int((Double(points.count) * 44 / plotW).rounded(.up)))
        for (i, p) in points.enumerated() where i % every == 0 {
            s += "<text class=\"tick\" x=\"\(f(x(i)))\" y=\"\(f(top + plotH + 18))\" text-anchor=\"middle\">\(e(p.label))</text>"
        }
        // The marks.
        if style == .line {
            var path = ""
            var pen = false
            for (i, p) in points.enumerated() {
                guard let v = p.value else { pen = false; continue }
                path += (pen ? " L" : (path.isEmpty ? "M" : " M")) + "\(f(x(i))) \(f(y(v)))"
                pen = true
            }
            if !path.isEmpty { s += "<path class=\"series\" d=\"\(path)\"/>" }
        }
        s += "<g class=\"marks\">"
        for (i, p) in points.enumerated() {
            let data = "data-key=\"\(e(p.key))\" data-value=\"\(p.value.map(String.init) ?? "")\""
            let tip = "<title>\(e(p.tooltip))</title>"
            guard let v = p.value else {
                s += "<circle class=\"mark empty\" \(data) cx=\"\(f(x(i)))\" cy=\"\(f(top + plotH))\" r=\"3.5\">\(tip)</circle>"
                continue
            }
            switch style {
            case .bars:
                let barW = max(1, min(slot * 0.7, 48))
                let h = max(v > 0 ? 1 : 0, top + plotH - y(v))
                s += "<rect class=\"mark\" \(data) x=\"\(f(x(i) - barW / 2))\" y=\"\(f(top + plotH - h))\" "
                    + "width=\"\(f(barW))\" height=\"\(f(h))\">\(tip)</rect>"
            case .line:
                s += "<circle class=\"mark\" \(data) cx=\"\(f(x(i)))\" cy=\"\(f(y(v)))\" r=\"4\">\(tip)</circle>"
            }
        }
        return s + "</g></svg>"
    }

    /// The top of the value axis and the tick step: fixed, or a round number above the data.
    private var axis: (max: Int, step: Int) {
        if let yMax { return (yMax, max(1, yMax / 4)) }
        let top = max(points.compactMap(\.value).max() ?? 0, 1)
        var magnitude = 1
        while magnitude * 10 <= top { magnitude *= 10 }
        for factor in [1, 2, 5, 10] {
            let step = max(1, magnitude * factor / 5)
            if step * 5 >= top { return ((top + step - 1) / step * step, step) }
        }
        return (top, max(1, top / 5))
    }
}
