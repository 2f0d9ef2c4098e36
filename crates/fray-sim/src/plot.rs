//! Charts of a report, each written as SVG and PNG: the score margin's histogram, each seat's
//! and bot's score rate with its 95% interval, and each power's uses and damage a match.
//!
//! Text is drawn with the DejaVu Sans font shipped in `fonts/` (its licence beside it), so a
//! PNG reads the same on a machine without fonts.

use crate::report::{Comparison, Line, Totals};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

const FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
const WIDTH: u32 = 960;
const HEIGHT: u32 = 600;

fn font_ready() -> Result<(), String> {
    static READY: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    READY
        .get_or_init(|| {
            plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
                .map_err(|_| "the chart font does not load".to_string())
        })
        .clone()
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Draws `chart` into `dir/name.svg` and `dir/name.png`; returns both paths.
fn both(
    dir: &Path,
    name: &str,
    chart: &dyn Fn(&DrawingArea<SVGBackend, Shift>) -> Drawn,
    png: &dyn Fn(&DrawingArea<BitMapBackend, Shift>) -> Drawn,
) -> Result<Vec<PathBuf>, String> {
    let svg_path = dir.join(format!("{name}.svg"));
    let png_path = dir.join(format!("{name}.png"));
    let fail = |p: &Path, e: Box<dyn std::error::Error>| format!("{}: {e}", p.display());
    {
        let root = SVGBackend::new(&svg_path, (WIDTH, HEIGHT)).into_drawing_area();
        chart(&root).map_err(|e| fail(&svg_path, e))?;
        root.present().map_err(|e| fail(&svg_path, Box::new(e)))?;
    }
    {
        let root = BitMapBackend::new(&png_path, (WIDTH, HEIGHT)).into_drawing_area();
        png(&root).map_err(|e| fail(&png_path, e))?;
        root.present().map_err(|e| fail(&png_path, Box::new(e)))?;
    }
    Ok(vec![svg_path, png_path])
}

/// The histogram of the first seat's margin over the second.
fn margins<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, t: &Totals) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let lo = t.margins.keys().next().copied().unwrap_or(-1).min(-1);
    let hi = t.margins.keys().last().copied().unwrap_or(1).max(1);
    let top = t.margins.values().copied().max().unwrap_or(1) as f64 * 1.1;
    let first = t.seats.first().cloned().unwrap_or_default();
    let second = t.seats.get(1).cloned().unwrap_or_default();
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("Score margin, {first} less {second} ({} matches of {})", t.matches, t.system),
            ("sans-serif", 24),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d((lo..hi).into_segmented(), 0f64..top)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(format!("points of {first} less points of {second} at the end"))
        .y_desc("matches")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(BLUE.mix(0.6).filled())
            .margin(2)
            .data(t.margins.iter().map(|(m, n)| (*m, *n as f64))),
    )?;
    Ok(())
}

/// Score rates with their intervals, one bar a seat or bot (and a line at 50%).
fn rates<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, title: &str, lines: &[Line]) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let n = lines.len().max(1) as u32;
    let names: Vec<String> = lines.iter().map(|l| l.name.clone()).collect();
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        // A segmented range holds both its ends: n bars need 0..n-1.
        .build_cartesian_2d((0u32..n.saturating_sub(1)).into_segmented(), 0f64..100f64)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n as usize)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_desc("score rate, % (wins and half the draws), with 95% interval")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 16))
        .draw()?;
    chart.draw_series(lines.iter().enumerate().map(|(i, l)| {
        let i = i as u32;
        let mut bar = Rectangle::new(
            [(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), 100.0 * l.score_rate.rate)],
            GREEN.mix(0.5).filled(),
        );
        bar.set_margin(0, 0, 20, 20);
        bar
    }))?;
    chart.draw_series(lines.iter().enumerate().map(|(i, l)| {
        ErrorBar::new_vertical(
            SegmentValue::CenterOf(i as u32),
            100.0 * l.score_rate.low,
            100.0 * l.score_rate.rate,
            100.0 * l.score_rate.high,
            BLACK.stroke_width(2),
            16,
        )
    }))?;
    chart.draw_series(LineSeries::new(
        [(SegmentValue::Exact(0), 50.0), (SegmentValue::Last, 50.0)],
        RED.stroke_width(1),
    ))?;
    Ok(())
}

/// Uses and damage a match of each power, the most used first (at most 25).
fn powers<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, t: &Totals) -> Drawn
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let s = t.summary();
    let mut rows: Vec<(String, f64, f64)> = s.per_power.iter().map(|(k, p)| (k.clone(), p.uses, p.damage)).collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    rows.truncate(25);
    let n = rows.len().max(1) as u32;
    let top = rows.iter().map(|r| r.1.max(r.2)).fold(1.0f64, f64::max) * 1.1;
    let names: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut chart = ChartBuilder::on(root)
        .caption(format!("Power uses and damage a match ({} matches)", t.matches), ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(260)
        .build_cartesian_2d(0f64..top, (0u32..n.saturating_sub(1)).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n as usize)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => names.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_desc("a match")
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 16))
        .draw()?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let i = i as u32;
            let mut bar = Rectangle::new(
                [(0.0, SegmentValue::Exact(i)), (r.1, SegmentValue::CenterOf(i))],
                BLUE.mix(0.6).filled(),
            );
            bar.set_margin(2, 0, 0, 0);
            bar
        }))?
        .label("uses")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], BLUE.mix(0.6).filled()));
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let i = i as u32;
            let mut bar = Rectangle::new(
                [(0.0, SegmentValue::CenterOf(i)), (r.2, SegmentValue::Exact(i + 1))],
                RED.mix(0.6).filled(),
            );
            bar.set_margin(0, 2, 0, 0);
            bar
        }))?
        .label("damage dealt")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], RED.mix(0.6).filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()?;
    Ok(())
}

/// Writes every chart of `totals` into `dir` (made if missing); returns the files written.
pub fn write(dir: &Path, totals: &Totals) -> Result<Vec<PathBuf>, String> {
    font_ready()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let s = totals.summary();
    let mut files = both(dir, "margin", &|r| margins(r, totals), &|r| margins(r, totals))?;
    let title = format!("Score rate by seat ({} matches of {})", totals.matches, totals.system);
    files.extend(both(dir, "rate-by-seat", &|r| rates(r, &title, &s.seats), &|r| rates(r, &title, &s.seats))?);
    if s.bots.len() > 1 {
        let title = format!("Score rate by bot ({} matches of {})", totals.matches, totals.system);
        files.extend(both(dir, "rate-by-bot", &|r| rates(r, &title, &s.bots), &|r| rates(r, &title, &s.bots))?);
    }
    if !s.per_power.is_empty() {
        files.extend(both(dir, "powers", &|r| powers(r, totals), &|r| powers(r, totals))?);
    }
    Ok(files)
}

/// Writes the charts of both runs of a comparison (in `dir/base` and `dir/variant`) and the
/// two runs' score rates side by side (`dir/compare`).
pub fn write_comparison(dir: &Path, c: &Comparison) -> Result<Vec<PathBuf>, String> {
    let mut files = write(&dir.join("base"), &c.base)?;
    files.extend(write(&dir.join("variant"), &c.variant)?);
    let (b, v) = (c.base.summary(), c.variant.summary());
    let lines: Vec<Line> = b
        .seats
        .iter()
        .zip(&v.seats)
        .flat_map(|(x, y)| {
            let mut x = x.clone();
            let mut y = y.clone();
            x.name = format!("{} built-in", x.name);
            y.name = format!("{} variant", y.name);
            [x, y]
        })
        .collect();
    let title = format!("Score rate, built-in content and variant ({} matches each)", c.base.matches);
    files.extend(both(dir, "compare", &|r| rates(r, &title, &lines), &|r| rates(r, &title, &lines))?);
    Ok(files)
}
