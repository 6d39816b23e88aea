//! A fleet laid out as plain shapes: each site a frame, each pool a box inside its site marked
//! in its own colour (the colour of its card), the link between pools under them, and with
//! several sites the wide-area network as a band below, each site's link down to it labelled
//! with its bandwidth and latency. `charts::draw_fleet` draws it.

use super::layout::{Ink, Shape, TEXT, WIDTH};
use crate::charts::text_width;

/// A pool as drawn: its two lines (chip and count, then its share) and the site it stands in,
/// by place in the sites given.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolMark {
    pub name: String,
    pub detail: String,
    pub site: usize,
}

/// A site as drawn: its name and its wide-area link in words (`10 Gb/s · 5 ms`).
#[derive(Clone, Debug, PartialEq)]
pub struct SiteMark {
    pub name: String,
    pub wan: String,
}

/// The fleet drawing: its height in the drawing's units (its width is `WIDTH`) and shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetLayout {
    pub height: f64,
    pub shapes: Vec<Shape>,
}

/// Sites side by side in a row, at most.
const PER_ROW: usize = 3;
const MARGIN: f64 = 10.0;
const GAP: f64 = 24.0;
const HEAD: f64 = 26.0;
const POOL_H: f64 = 40.0;
const POOL_GAP: f64 = 8.0;
const SWATCH: f64 = 8.0;
const BAND_GAP: f64 = 44.0;
const BAND_H: f64 = 26.0;

/// Lays out `pools` in `sites` (one unnamed site when none is given, called `one_site`), the
/// link between pools in words (`link`, shown where a site holds more than one pool), and the
/// wide-area network's name (`wan`).
pub fn fleet(
    pools: &[PoolMark],
    sites: &[SiteMark],
    one_site: &str,
    link: &str,
    wan: &str,
) -> FleetLayout {
    let fallback = [SiteMark { name: one_site.to_string(), wan: String::new() }];
    let sites = if sites.is_empty() { &fallback[..] } else { sites };
    let columns = sites.len().clamp(1, PER_ROW);
    let frame_w = (WIDTH - 2.0 * MARGIN - GAP * (columns - 1) as f64) / columns as f64;
    let held = |site: usize| pools.iter().filter(|p| p.site == site).count();
    let frame_h = |site: usize| {
        let n = held(site).max(1) as f64;
        let link_row = if held(site) > 1 { TEXT + 8.0 } else { 0.0 };
        HEAD + n * POOL_H + (n - 1.0) * POOL_GAP + link_row + 10.0
    };
    let mut shapes = Vec::new();
    let mut y = MARGIN;
    // Where each site's link leaves its frame: the middle of its bottom edge.
    let mut exits = Vec::new();
    for (row, chunk) in sites.chunks(PER_ROW).enumerate() {
        let first = row * PER_ROW;
        let row_h = (first..first + chunk.len()).map(frame_h).fold(0.0, f64::max);
        for (col, site) in chunk.iter().enumerate() {
            let index = first + col;
            let x = MARGIN + col as f64 * (frame_w + GAP);
            shapes.push(Shape::Rect { x, y, w: frame_w, h: row_h, ink: Ink::Frame });
            shapes.push(Shape::Text {
                x: x + 8.0,
                y: y + 17.0,
                ink: Ink::Value,
                text: fit(&site.name, frame_w - 16.0),
            });
            let mut py = y + HEAD;
            for (colour, pool) in pools.iter().enumerate().filter(|(_, p)| p.site == index) {
                let (px, pw) = (x + 8.0, frame_w - 16.0);
                shapes.push(Shape::Rect { x: px, y: py, w: pw, h: POOL_H, ink: Ink::Box });
                let swatch = Ink::Pool(colour as u8);
                shapes.push(Shape::Rect { x: px, y: py, w: SWATCH, h: POOL_H, ink: swatch });
                let tx = px + SWATCH + 6.0;
                let room = pw - SWATCH - 12.0;
                let (name, detail) = (fit(&pool.name, room), fit(&pool.detail, room));
                shapes.push(Shape::Text { x: tx, y: py + 16.0, ink: Ink::Text, text: name });
                shapes.push(Shape::Text { x: tx, y: py + 32.0, ink: Ink::Muted, text: detail });
                py += POOL_H + POOL_GAP;
            }
            if held(index) > 1 {
                let text = fit(link, frame_w - 16.0);
                shapes.push(Shape::Text { x: x + 8.0, y: py + TEXT - 2.0, ink: Ink::Muted, text });
            }
            exits.push((x + frame_w / 2.0, y + row_h));
        }
        y += row_h + if sites.len() > 1 { BAND_GAP } else { GAP };
    }
    if sites.len() > 1 {
        // The wide-area network below every site, each site's link down to it.
        let band_y = y;
        let band =
            Shape::Rect { x: MARGIN, y: band_y, w: WIDTH - 2.0 * MARGIN, h: BAND_H, ink: Ink::Box };
        shapes.push(band);
        let label = fit(wan, WIDTH - 4.0 * MARGIN);
        let label_x = (WIDTH - text_width(&label, TEXT)) / 2.0;
        shapes.push(Shape::Text { x: label_x, y: band_y + 17.0, ink: Ink::Text, text: label });
        for ((x, bottom), site) in exits.iter().zip(sites) {
            shapes.push(Shape::Line { from: (*x, *bottom), to: (*x, band_y) });
            let text = fit(&site.wan, frame_w / 2.0 + GAP / 2.0 - 6.0);
            let ty = (bottom + band_y) / 2.0 + TEXT / 3.0;
            shapes.push(Shape::Text { x: x + 6.0, y: ty, ink: Ink::Value, text });
        }
        y = band_y + BAND_H + MARGIN;
    } else {
        y += MARGIN - GAP;
    }
    FleetLayout { height: y.ceil(), shapes }
}

/// `text` cut to `room` units with an ellipsis where it does not fit.
fn fit(text: &str, room: f64) -> String {
    if text_width(text, TEXT) <= room {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        if text_width(&out, TEXT) + text_width(&format!("{c}…"), TEXT) > room {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}
