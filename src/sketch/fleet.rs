//! A fleet laid out as plain shapes: each site a frame, each pool a box inside its site marked
//! in its own colour (the colour of its card), the link between pools under them, and with
//! several sites the wide-area network as a band below, each site's link down to it labelled
//! with its bandwidth and latency. `charts::draw_fleet` draws it.

use super::layout::text_width;
use super::layout::{Ink, Shape, TEXT};

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

/// The fleet drawing: its size in the drawing's units and its shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetLayout {
    pub width: f64,
    pub height: f64,
    pub shapes: Vec<Shape>,
}

/// Sites side by side in a row, at most, and the narrowest a site's frame is drawn.
const PER_ROW: usize = 3;
const FRAME_MIN: f64 = 200.0;
const MARGIN: f64 = 10.0;
const GAP: f64 = 24.0;
const HEAD: f64 = 26.0;
const POOL_H: f64 = 40.0;
const POOL_GAP: f64 = 8.0;
const SWATCH: f64 = 8.0;
const BAND_GAP: f64 = 44.0;
const BAND_H: f64 = 26.0;
/// Where sites stack, the indent of their frames beside the line down to the network.
const BUS: f64 = 24.0;

/// Lays out `pools` in `sites` (one unnamed site when none is given, called `one_site`), the
/// link between pools in words (`link`, shown where a site holds more than one pool), and the
/// wide-area network's name (`wan`), `width` units wide (the page's column, so its text is
/// never scaled down). Sites that fit side by side each take their link down to the network
/// below them; more sites than fit stack, each joined to one line down the left.
pub fn fleet(
    pools: &[PoolMark],
    sites: &[SiteMark],
    one_site: &str,
    link: &str,
    wan: &str,
    width: f64,
) -> FleetLayout {
    let width = width.clamp(240.0, 4000.0);
    let fallback = [SiteMark { name: one_site.to_string(), wan: String::new() }];
    let sites = if sites.is_empty() { &fallback[..] } else { sites };
    let room = ((width - 2.0 * MARGIN + GAP) / (FRAME_MIN + GAP)).floor().max(1.0) as usize;
    let side_by_side = sites.len() <= room.min(PER_ROW);
    let columns = if side_by_side { sites.len() } else { 1 };
    let several = sites.len() > 1;
    let left = if side_by_side { MARGIN } else { MARGIN + BUS };
    let frame_w = (width - left - MARGIN - GAP * (columns - 1) as f64) / columns as f64;
    let held = |site: usize| pools.iter().filter(|p| p.site == site).count();
    let frame_h = |site: usize| {
        let n = held(site).max(1) as f64;
        let link_row = if held(site) > 1 { TEXT + 8.0 } else { 0.0 };
        HEAD + n * POOL_H + (n - 1.0) * POOL_GAP + link_row + 10.0
    };
    let mut shapes = Vec::new();
    let mut y = MARGIN;
    let mut exits = Vec::new();
    for (row, chunk) in sites.chunks(columns).enumerate() {
        let first = row * columns;
        let row_h = (first..first + chunk.len()).map(frame_h).fold(0.0, f64::max);
        for (col, site) in chunk.iter().enumerate() {
            let index = first + col;
            let x = left + col as f64 * (frame_w + GAP);
            shapes.push(Shape::Rect { x, y, w: frame_w, h: row_h, ink: Ink::Frame });
            // Stacked, a site's link is told beside its name.
            let head = if several && !side_by_side {
                format!("{} · {}", site.name, site.wan)
            } else {
                site.name.clone()
            };
            let text = fit(&head, frame_w - 16.0);
            shapes.push(Shape::Text { x: x + 8.0, y: y + 17.0, ink: Ink::Value, text });
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
            exits.push(if side_by_side {
                (x + frame_w / 2.0, y + row_h)
            } else {
                (x, y + HEAD / 2.0)
            });
        }
        y += row_h + if several && side_by_side { BAND_GAP } else { GAP };
    }
    if several {
        if !side_by_side {
            // One line down the left, joined to each site, then on to the network.
            y += BAND_GAP - GAP;
            let bus = MARGIN + BUS / 2.0;
            let top = exits.first().map_or(y, |e| e.1);
            shapes.push(Shape::Line { from: (bus, top), to: (bus, y) });
            for (x, at) in &exits {
                shapes.push(Shape::Line { from: (bus, *at), to: (*x, *at) });
            }
        }
        let band = Shape::Rect { x: MARGIN, y, w: width - 2.0 * MARGIN, h: BAND_H, ink: Ink::Box };
        shapes.push(band);
        let label = fit(wan, width - 4.0 * MARGIN);
        let label_x = (width - text_width(&label, TEXT)) / 2.0;
        shapes.push(Shape::Text { x: label_x, y: y + 17.0, ink: Ink::Text, text: label });
        if side_by_side {
            for ((x, bottom), site) in exits.iter().zip(sites) {
                shapes.push(Shape::Line { from: (*x, *bottom), to: (*x, y) });
                let text = fit(&site.wan, frame_w / 2.0 + GAP / 2.0 - 6.0);
                let ty = (bottom + y) / 2.0 + TEXT / 3.0;
                shapes.push(Shape::Text { x: x + 6.0, y: ty, ink: Ink::Value, text });
            }
        }
        y += BAND_H + MARGIN;
    } else {
        y += MARGIN - GAP;
    }
    FleetLayout { width, height: y.ceil(), shapes }
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
