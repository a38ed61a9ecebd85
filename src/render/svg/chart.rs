//! Charts: the best score over time of a local search ([`score_traces`]),
//! and solve times per instance and backend on a log scale
//! ([`bar_chart_log`], drawn by `emx bench --plot`).

use super::{escape, num, palette, Svg};

const PLOT_W: f64 = 640.0;
const PLOT_H: f64 = 320.0;
const LEFT: f64 = 70.0;
const TOP: f64 = 48.0;

/// The best score of a search over time: `points[k] = (seconds since the
/// start, score)`. Invariant: times are non-decreasing (a search appends a
/// point whenever its best score changes).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Trace {
    /// `(seconds, score)` pairs in time order.
    pub points: Vec<(f64, u32)>,
}

impl Trace {
    /// Appends a point (a time earlier than the last one is raised to it,
    /// keeping the invariant).
    pub fn push(&mut self, seconds: f64, score: u32) {
        let t = self.points.last().map_or(seconds, |&(last, _)| seconds.max(last));
        self.points.push((t, score));
    }
}

/// About `target` round tick values covering `[lo, hi]` (steps of 1, 2 or
/// 5 times a power of ten).
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|&s| s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

fn axis_frame(svg: &mut Svg, x_label: &str, y_label: &str) {
    svg.rect(LEFT, TOP, PLOT_W, PLOT_H, r##"fill="none" stroke="#333333" stroke-width="1""##);
    svg.text(
        LEFT + PLOT_W / 2.0,
        TOP + PLOT_H + 40.0,
        x_label,
        r##"font-size="13" text-anchor="middle" fill="#222222""##,
    );
    svg.text(
        18.0,
        TOP + PLOT_H / 2.0,
        y_label,
        &format!(
            r##"font-size="13" text-anchor="middle" fill="#222222" transform="rotate(-90 18 {})""##,
            num(TOP + PLOT_H / 2.0)
        ),
    );
}

fn legend(svg: &mut Svg, names: &[String], x0: f64, y: f64) {
    let mut x = x0;
    for (k, name) in names.iter().enumerate() {
        svg.rect(x, y - 10.0, 12.0, 12.0, &format!(r#"fill="{}""#, palette(k)));
        svg.text(x + 16.0, y, name, r##"font-size="12" fill="#222222""##);
        x += 28.0 + name.chars().count() as f64 * 7.0;
    }
}

/// A line chart of best score over time for one or more traces, with a
/// dashed line at `max_score` (e.g. the number of joins) when given.
pub fn score_traces(title: &str, traces: &[(&str, &Trace)], max_score: Option<u32>) -> String {
    let points = traces.iter().flat_map(|(_, t)| t.points.iter().copied());
    let (mut t_max, mut s_min, mut s_max) = (0.0f64, u32::MAX, 0u32);
    for (t, s) in points {
        t_max = t_max.max(t);
        s_min = s_min.min(s);
        s_max = s_max.max(s);
    }
    if s_min > s_max {
        (s_min, s_max) = (0, 1);
    }
    if let Some(m) = max_score {
        s_max = s_max.max(m);
    }
    let x_ticks = nice_ticks(0.0, t_max.max(1e-3), 6);
    let y_ticks = nice_ticks(s_min as f64, (s_max as f64).max(s_min as f64 + 1.0), 6);
    let (x_lo, x_hi) = (x_ticks[0], *x_ticks.last().expect("ticks"));
    let (y_lo, y_hi) = (y_ticks[0], *y_ticks.last().expect("ticks"));
    let px = |t: f64| LEFT + (t - x_lo) / (x_hi - x_lo) * PLOT_W;
    let py = |s: f64| TOP + PLOT_H - (s - y_lo) / (y_hi - y_lo) * PLOT_H;
    let mut svg = Svg::new(LEFT + PLOT_W + 30.0, TOP + PLOT_H + 56.0);
    svg.text(LEFT, 20.0, title, r##"font-size="15" font-weight="bold" fill="#111111""##);
    for &t in &x_ticks {
        svg.line((px(t), TOP), (px(t), TOP + PLOT_H), r##"stroke="#E4E4E4" stroke-width="1""##);
        svg.text(px(t), TOP + PLOT_H + 16.0, &num(t), r##"font-size="11" text-anchor="middle" fill="#333333""##);
    }
    for &s in &y_ticks {
        svg.line((LEFT, py(s)), (LEFT + PLOT_W, py(s)), r##"stroke="#E4E4E4" stroke-width="1""##);
        svg.text(LEFT - 6.0, py(s) + 4.0, &num(s), r##"font-size="11" text-anchor="end" fill="#333333""##);
    }
    axis_frame(&mut svg, "time (s)", "best score");
    if let Some(m) = max_score {
        let y = py(m as f64);
        svg.line((LEFT, y), (LEFT + PLOT_W, y), r##"stroke="#555555" stroke-width="1" stroke-dasharray="6 4""##);
        svg.text(
            LEFT + PLOT_W - 4.0,
            y + 14.0,
            &format!("max {m}"),
            r##"font-size="11" text-anchor="end" fill="#555555""##,
        );
    }
    for (k, (_, trace)) in traces.iter().enumerate() {
        // A step line: the best score holds until the next improvement.
        let mut line = Vec::new();
        for (j, &(t, s)) in trace.points.iter().enumerate() {
            if j > 0 {
                line.push((px(t), py(trace.points[j - 1].1 as f64)));
            }
            line.push((px(t), py(s as f64)));
        }
        svg.polyline(&line, &format!(r#"stroke="{}" stroke-width="2""#, palette(k)));
        if let Some(&(t, s)) = trace.points.last() {
            svg.text(
                px(t) + 4.0,
                py(s as f64) - 4.0,
                &s.to_string(),
                &format!(r#"font-size="11" fill="{}""#, palette(k)),
            );
        }
    }
    if traces.len() > 1 {
        let names: Vec<String> = traces.iter().map(|(n, _)| n.to_string()).collect();
        legend(&mut svg, &names, LEFT + 260.0, 20.0);
    }
    svg.finish()
}

/// One bar of a [`BarChart`].
#[derive(Clone, Debug, PartialEq)]
pub enum Bar {
    /// Finished in this many seconds.
    Time(f64),
    /// Stopped by the time limit (seconds): drawn hatched up to the limit.
    Timeout(f64),
    /// No time to show (skipped, error); the text says why, shown on hover.
    Missing(String),
}

/// Times per group (instance) and series (backend).
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Chart title.
    pub title: String,
    /// Group labels along the x axis.
    pub groups: Vec<String>,
    /// Series names (legend), one colour each.
    pub series: Vec<String>,
    /// `bars[group][series]`.
    pub bars: Vec<Vec<Bar>>,
}

fn time_label(decade: i32) -> String {
    match decade {
        d if d <= -7 => format!("1e{d} s"),
        -6 => "1 µs".into(),
        -5 => "10 µs".into(),
        -4 => "100 µs".into(),
        -3 => "1 ms".into(),
        -2 => "10 ms".into(),
        -1 => "100 ms".into(),
        0 => "1 s".into(),
        1 => "10 s".into(),
        2 => "100 s".into(),
        d => format!("1e{d} s"),
    }
}

/// Grouped bars of times on a log scale (a decade per grid line).
pub fn bar_chart_log(chart: &BarChart) -> String {
    const FLOOR: f64 = 1e-6;
    let times = chart.bars.iter().flatten().filter_map(|b| match b {
        Bar::Time(t) | Bar::Timeout(t) => Some(t.max(FLOOR)),
        Bar::Missing(_) => None,
    });
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for t in times {
        lo = lo.min(t);
        hi = hi.max(t);
    }
    if !lo.is_finite() {
        (lo, hi) = (1e-3, 1.0);
    }
    // Half a decade of room under the shortest bar, so it shows.
    let d_lo = (lo * 0.5).log10().floor() as i32;
    let d_hi = (hi.log10().ceil() as i32).max(d_lo + 1);
    let py = |t: f64| TOP + PLOT_H - (t.max(FLOOR).log10() - d_lo as f64) / (d_hi - d_lo) as f64 * PLOT_H;
    let n_series = chart.series.len().max(1);
    let n_groups = chart.groups.len().max(1);
    let group_w = PLOT_W / n_groups as f64;
    let bar_w = ((group_w * 0.8) / n_series as f64).min(40.0);
    let longest = chart.groups.iter().map(|g| g.chars().count()).max().unwrap_or(0) as f64;
    let slanted = longest * 6.5 > group_w;
    let label_h = if slanted { longest * 4.8 + 10.0 } else { 10.0 };
    let mut svg = Svg::new(LEFT + PLOT_W + 30.0, TOP + PLOT_H + 16.0 + label_h);
    svg.raw(concat!(
        r##"<defs><pattern id="timeout" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">"##,
        r##"<rect width="6" height="6" fill="#FFFFFF"/><rect width="3" height="6" fill="#888888"/></pattern></defs>"##
    ));
    svg.text(LEFT, 20.0, &chart.title, r##"font-size="15" font-weight="bold" fill="#111111""##);
    legend(&mut svg, &chart.series, LEFT, 38.0);
    if chart.bars.iter().flatten().any(|b| matches!(b, Bar::Timeout(_))) {
        let x = LEFT + PLOT_W - 110.0;
        svg.rect(x, 28.0, 12.0, 12.0, r##"fill="url(#timeout)" stroke="#555555" stroke-width="1""##);
        svg.text(x + 16.0, 38.0, "stopped by a limit", r##"font-size="12" fill="#222222""##);
    }
    for d in d_lo..=d_hi {
        let y = py(10f64.powi(d));
        svg.line((LEFT, y), (LEFT + PLOT_W, y), r##"stroke="#E4E4E4" stroke-width="1""##);
        svg.text(LEFT - 6.0, y + 4.0, &time_label(d), r##"font-size="11" text-anchor="end" fill="#333333""##);
    }
    let base = TOP + PLOT_H;
    for (g, bars) in chart.bars.iter().enumerate() {
        let gx = LEFT + g as f64 * group_w + (group_w - bar_w * n_series as f64) / 2.0;
        for (s, bar) in bars.iter().enumerate() {
            let x = gx + s as f64 * bar_w;
            let name = chart.series.get(s).map_or("", String::as_str);
            match bar {
                Bar::Time(t) => {
                    // At least 2 px, so that a time at the bottom decade shows.
                    let y = py(*t).min(base - 2.0);
                    svg.raw(&format!(
                        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}: {} s</title></rect>"#,
                        num(x + 1.0),
                        num(y),
                        num(bar_w - 2.0),
                        num(base - y),
                        palette(s),
                        escape(name),
                        format_secs(*t)
                    ));
                    if bar_w >= 26.0 {
                        svg.text(
                            x + bar_w / 2.0,
                            y - 3.0,
                            &short_time(*t),
                            r##"font-size="9" text-anchor="middle" fill="#333333""##,
                        );
                    }
                }
                Bar::Timeout(t) => {
                    let y = py(*t);
                    svg.raw(&format!(
                        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="url(#timeout)" stroke="{}" stroke-width="2"><title>{}: timeout after {} s</title></rect>"#,
                        num(x + 2.0),
                        num(y),
                        num(bar_w - 4.0),
                        num(base - y),
                        palette(s),
                        escape(name),
                        format_secs(*t)
                    ));
                    svg.text(x + bar_w / 2.0, y - 3.0, ">", r##"font-size="11" text-anchor="middle" fill="#333333""##);
                }
                Bar::Missing(why) => {
                    svg.raw(&format!(
                        r##"<text x="{}" y="{}" font-size="12" text-anchor="middle" fill="#999999">×<title>{}: {}</title></text>"##,
                        num(x + bar_w / 2.0),
                        num(base - 4.0),
                        escape(name),
                        escape(why)
                    ));
                }
            }
        }
        let cx = LEFT + (g as f64 + 0.5) * group_w;
        let label = chart.groups.get(g).map_or("", String::as_str);
        if slanted {
            svg.text(
                cx,
                base + 14.0,
                label,
                &format!(
                    r##"font-size="11" text-anchor="end" fill="#222222" transform="rotate(-35 {} {})""##,
                    num(cx),
                    num(base + 14.0)
                ),
            );
        } else {
            svg.text(cx, base + 16.0, label, r##"font-size="11" text-anchor="middle" fill="#222222""##);
        }
    }
    svg.rect(LEFT, TOP, PLOT_W, PLOT_H, r##"fill="none" stroke="#333333" stroke-width="1""##);
    svg.text(
        18.0,
        TOP + PLOT_H / 2.0,
        "time (log scale)",
        &format!(
            r##"font-size="13" text-anchor="middle" fill="#222222" transform="rotate(-90 18 {})""##,
            num(TOP + PLOT_H / 2.0)
        ),
    );
    svg.finish()
}

/// A time in a few characters: `850 µs`, `12 ms`, `3.4 s`, `120 s`.
fn short_time(t: f64) -> String {
    if t < 1e-3 {
        format!("{:.0} µs", t * 1e6)
    } else if t < 1.0 {
        format!("{:.0} ms", t * 1e3)
    } else if t < 10.0 {
        format!("{t:.1} s")
    } else {
        format!("{t:.0} s")
    }
}

fn format_secs(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.2}")
    } else {
        format!("{t:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(nice_ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(nice_ticks(400.0, 480.0, 6), vec![400.0, 420.0, 440.0, 460.0, 480.0]);
        let t = nice_ticks(0.0, 0.37, 6);
        assert_eq!(t.first(), Some(&0.0));
        assert!(*t.last().unwrap() >= 0.37);
    }

    #[test]
    fn trace_keeps_time_order() {
        let mut tr = Trace::default();
        tr.push(1.0, 10);
        tr.push(0.5, 12);
        assert_eq!(tr.points, vec![(1.0, 10), (1.0, 12)]);
    }
}
