//! A `Sketch` laid out as plain shapes, and the places of the drawing that answer the user:
//! parts that tell their counts, power and price, and the − and + buttons of each knob.
//!
//! Nothing here draws: `charts::draw_sketch` draws the shapes (plotters, in the worker), and
//! the page lays its own buttons and parts over the drawing at the places given here, in the
//! drawing's units, so the saved image is the picture and the page's controls are real ones.

use std::fmt::Write;

use super::{Group, Knob, Part, Sketch, What};
use crate::format::Money;
use crate::numbers;

/// About how wide `text` is at `size` pixels: 0.56 em a Latin character, 1 em a CJK one.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(|c| if c as u32 >= 0x1100 { 1.0 } else { 0.56 }).sum::<f64>() * size
}

/// The words of the drawing, in the page's language.
#[derive(Clone, Copy, Debug)]
pub struct Words {
    /// Switch tiers, from the chips outward.
    pub tiers: [&'static str; 3],
    /// A pod's and a scalable unit's name, then the plural of each ("Pod", "pods").
    pub pod: [&'static str; 2],
    pub unit: [&'static str; 2],
    /// "racks", "nodes", "chips", "scale-up domains", and the heading of the opened rack.
    pub rack: &'static str,
    pub node: &'static str,
    pub chips: &'static str,
    pub domain: &'static str,
    pub one_rack: &'static str,
    /// "switches", "planes", the groups not drawn ("… {n} more"), and how many chips each part
    /// holds ("{n} chips each").
    pub switches: &'static str,
    pub planes: &'static str,
    /// Said of the top tier when each rail is a network of its own.
    pub rail_only: &'static str,
    /// Said of the top tier after the count of optical circuit switches joining a torus.
    pub ocs: &'static str,
    pub more: &'static str,
    pub each: &'static str,
    /// The knobs' labels, in `Knob` order.
    pub knobs: [&'static str; 6],
    /// Accessible name of the whole drawing.
    pub title: &'static str,
}

/// Width and height of the drawing in its own units (the page scales it to its column).
pub const WIDTH: f64 = 760.0;
pub const HEIGHT: f64 = 380.0;

/// Size of the drawing's text.
pub const TEXT: f64 = 12.0;

/// How a shape is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// An outlined box: the top tier's band, a group, a rack.
    Box,
    /// A switch, or the scale-up domain's bracket.
    Switch,
    /// A chip or a rack in a row of them.
    Chip,
    /// Text.
    Text,
    /// A figure that matters (bold).
    Value,
    /// Quieter text: counts beside glyphs, knob labels.
    Muted,
    /// An outline around what stands together (a site of a fleet).
    Frame,
    /// The mark of a fleet's pool, in the colour of its place (the palette's).
    Pool(u8),
}

/// One shape, in the drawing's units; text hangs from its baseline.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect { x: f64, y: f64, w: f64, h: f64, ink: Ink },
    Text { x: f64, y: f64, ink: Ink, text: String },
    Line { from: (f64, f64), to: (f64, f64) },
}

/// A rectangle of the drawing, in its units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// A part of the drawing that tells its counts, power and price on hover and focus.
#[derive(Clone, Debug, PartialEq)]
pub struct Spot {
    pub place: Place,
    pub info: String,
    /// The part is a box of the drawing (the top tier, a group, the rack), not a line of text.
    pub boxed: bool,
}

/// A − or + of a knob: the field it sets and to what (`None`: the step would leave the
/// field's range or break the fabric).
#[derive(Clone, Debug, PartialEq)]
pub struct Button {
    pub place: Place,
    pub path: &'static str,
    pub to: Option<f64>,
    /// `−` or `+`.
    pub sign: &'static str,
    /// Accessible name: the knob's label and the sign.
    pub label: String,
}

/// A knob as a phone lists it: its label, its value as drawn, and what − and + set.
#[derive(Clone, Debug, PartialEq)]
pub struct KnobRow {
    pub label: String,
    pub value: String,
    pub knob: Knob,
}

/// The drawing laid out.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub title: String,
    pub shapes: Vec<Shape>,
    pub spots: Vec<Spot>,
    pub buttons: Vec<Button>,
    /// The knobs in drawing order, for a list where the drawing is too small to edit.
    pub rows: Vec<KnobRow>,
}

/// A count as people read it (`16,384`, `1.5M`).
fn n(x: u64) -> String {
    numbers::format(x as f64)
}

/// What hovering a part says: how many, chips each, power and price of all of them.
pub fn info(part: &Part, name: &str, words: &Words, money: Money) -> String {
    let mut s = format!("{} {name}", n(part.count));
    if part.chips_each > 1 {
        let _ = write!(s, " · {}", words.each.replace("{n}", &n(part.chips_each)));
    }
    let _ = write!(s, " · {} kW", numbers::sig3(part.power_w / 1e3));
    if part.cost_usd > 0.0 {
        let _ = write!(s, " · {}", money.show(part.cost_usd));
    }
    s
}

/// The name of a part in the drawing's words.
fn name(what: What, tiers: u32, words: &Words) -> String {
    match what {
        What::Switches(t) => format!("{} {}", words.tiers[t], words.switches),
        What::Groups if tiers == 3 => words.pod[1].into(),
        What::Groups => words.unit[1].into(),
        What::Racks => words.rack.into(),
        What::Nodes => words.node.into(),
        What::Domains => words.domain.into(),
        What::Chips => words.chips.into(),
    }
}

/// The layout being made: shapes, and the part whose shapes are being added.
struct Sheet {
    out: Layout,
    /// The first shape of the part being drawn, its words, and whether it is a box.
    open: Option<(usize, String, bool)>,
}

impl Sheet {
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, ink: Ink) {
        self.out.shapes.push(Shape::Rect { x, y, w, h, ink });
    }
    fn text(&mut self, x: f64, y: f64, ink: Ink, text: &str) {
        self.out.shapes.push(Shape::Text { x, y, ink, text: text.to_string() });
    }
    fn line(&mut self, from: (f64, f64), to: (f64, f64)) {
        self.out.shapes.push(Shape::Line { from, to });
    }
    /// Starts a part that tells `info`: the shapes until `end` are its place.
    fn part(&mut self, info: String, boxed: bool) {
        self.open = Some((self.out.shapes.len(), info, boxed));
    }
    /// Ends the part: its place is its box, or else what its shapes cover.
    fn end(&mut self) {
        let Some((first, info, boxed)) = self.open.take() else { return };
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let shapes = &self.out.shapes[first..];
        let frame = shapes.iter().find(|s| matches!(s, Shape::Rect { ink: Ink::Box, .. }));
        for shape in frame.filter(|_| boxed).map_or(shapes, std::slice::from_ref) {
            let (a, b, c, d) = match shape {
                Shape::Rect { x, y, w, h, .. } => (*x, *y, x + w, y + h),
                Shape::Text { x, y, text, .. } => {
                    (*x, y - TEXT, x + text_width(text, TEXT), y + 3.0)
                }
                Shape::Line { from, to } => {
                    (from.0.min(to.0), from.1.min(to.1), from.0.max(to.0), from.1.max(to.1))
                }
            };
            (x0, y0, x1, y1) = (x0.min(a), y0.min(b), x1.max(c), y1.max(d));
        }
        if x0 <= x1 {
            // A thin part (the domain's bracket) is widened to something a pointer can find.
            let pad = |lo: f64, hi: f64| {
                if hi - lo < 8.0 {
                    ((lo + hi) / 2.0 - 4.0, 8.0)
                } else {
                    (lo, hi - lo)
                }
            };
            let ((x, w), (y, h)) = (pad(x0, x1.min(WIDTH)), pad(y0, y1.min(HEIGHT)));
            self.out.spots.push(Spot { place: Place { x, y, w, h }, info, boxed });
        }
    }
    /// A row of at most `max` small boxes standing for `count` things; where the row ends.
    fn glyphs(&mut self, x: f64, y: f64, count: u64, max: u64, size: f64, ink: Ink) -> f64 {
        let drawn = count.min(max);
        for i in 0..drawn {
            self.rect(x + i as f64 * (size + 2.0), y, size, size, ink);
        }
        x + drawn as f64 * (size + 2.0)
    }
    /// A knob: its label and value drawn, its − and + as buttons at their places.
    fn knob(&mut self, x: f64, y: f64, knob: &Knob, label: &str, value: &str) {
        self.text(x, y + 12.0, Ink::Muted, label);
        let bx = x + 118.0;
        for (dx, sign, to) in [(0.0, "−", knob.down), (44.0, "+", knob.up)] {
            self.out.buttons.push(Button {
                place: Place { x: bx + dx, y, w: 16.0, h: 16.0 },
                path: knob.path,
                to,
                sign,
                label: format!("{label}: {sign}"),
            });
        }
        self.text(bx + 20.0, y + 12.0, Ink::Value, value);
    }
}

/// The drawing of `s` in `words`.
pub fn layout(s: &Sketch, words: &Words) -> Layout {
    let w = WIDTH;
    let mut pen = Sheet {
        out: Layout {
            title: words.title.to_string(),
            shapes: Vec::new(),
            spots: Vec::new(),
            buttons: Vec::new(),
            rows: Vec::new(),
        },
        open: None,
    };
    let part = |what: What| s.parts.iter().find(|p| p.what == what).copied();
    let label = |what: What| name(what, s.tiers, words);
    let planes =
        if s.planes > 1 { format!(" × {} {}", s.planes, words.planes) } else { String::new() };
    // What the top tier's count does not say: how the rails and the domains are joined.
    let mut joined = String::new();
    if s.rail_only {
        let _ = write!(joined, " · {}", words.rail_only);
    }
    if s.ocs > 0 {
        let _ = write!(joined, " · {} {}", numbers::format(s.ocs as f64), words.ocs);
    }

    // The top tier: a band across the drawing.
    let top = match s.tiers {
        3 => What::Switches(2),
        2 => What::Switches(1),
        _ => What::Switches(0),
    };
    let inner = s.tiers == 3;
    if let Some(p) = part(top) {
        // The list a narrow page shows in place of the drawing says it too (its count is every
        // plane's already).
        pen.part(format!("{}{joined}", info(&p, &label(top), words, s.money)), true);
        pen.rect(10.0, 10.0, w - 20.0, 34.0, Ink::Box);
        let per_plane = p.count / s.planes.max(1) as u64;
        let end = pen.glyphs(20.0, 20.0, per_plane, 24, 12.0, Ink::Switch);
        let band = format!("{} {}{planes}{joined}", n(per_plane), label(top));
        pen.text(end + 8.0, 31.0, Ink::Text, &band);
        pen.end();
    }

    // Groups: all of them up to four; beyond, the first two, "… N more" and the last.
    let total: u64 = s.groups.iter().map(|g| g.copies).sum();
    let group_at = |i: u64| {
        let mut first = 0;
        s.groups.iter().find(|g| {
            first += g.copies;
            i < first
        })
    };
    let picks: Vec<u64> = if total <= 4 { (0..total).collect() } else { vec![0, 1, total - 1] };
    let ellipsis = total > 4;
    let shown: Vec<(Group, u64)> =
        picks.iter().filter_map(|&i| group_at(i).map(|g| (*g, i))).collect();
    let slots = shown.len() + ellipsis as usize;
    let gap = 12.0;
    let bw = ((w - 20.0 - gap * (slots as f64 - 1.0)) / slots as f64).min(260.0).floor();
    let gy = 118.0;
    let gh = 92.0;
    let [group_name, groups_name] = if inner { words.pod } else { words.unit };
    let mut x = 10.0;
    for (slot, (g, first)) in shown.iter().enumerate() {
        if ellipsis && slot == 2 {
            let more = words.more.replace("{n}", &n(total - 3));
            pen.line((x + bw / 2.0, 44.0), (x + bw / 2.0, gy));
            pen.part(format!("{more} · {} {groups_name}", n(total)), true);
            pen.rect(x, gy, bw, gh, Ink::Box);
            pen.text(x + 10.0, gy + 50.0, Ink::Muted, &more);
            pen.end();
            x += bw + gap;
        }
        pen.line((x + bw / 2.0, 44.0), (x + bw / 2.0, gy));
        let summary = format!("{} {} · {} {}", n(g.nodes), words.node, n(g.chips), words.chips);
        pen.part(format!("{group_name} {} · {summary}", first + 1), true);
        pen.rect(x, gy, bw, gh, Ink::Box);
        pen.text(x + 8.0, gy + 16.0, Ink::Value, &format!("{group_name} {}", first + 1));
        let mut y = gy + 24.0;
        let room = |size: f64| ((bw - 90.0) / size) as u64;
        if inner {
            let end = pen.glyphs(x + 8.0, y, g.spines, room(14.0), 10.0, Ink::Switch);
            pen.text(
                end + 4.0,
                y + 9.0,
                Ink::Muted,
                &format!("{} {}", n(g.spines), words.tiers[1]),
            );
            y += 16.0;
        }
        let end = pen.glyphs(x + 8.0, y, g.leaves, room(14.0), 10.0, Ink::Switch);
        pen.text(end + 4.0, y + 9.0, Ink::Muted, &format!("{} {}", n(g.leaves), words.tiers[0]));
        y += 16.0;
        let racks = g.nodes.div_ceil(s.nodes_per_rack.max(1) as u64);
        let end = pen.glyphs(x + 8.0, y, racks, room(10.0), 7.0, Ink::Chip);
        pen.text(end + 4.0, y + 8.0, Ink::Muted, &format!("{} {}", n(racks), words.rack));
        pen.text(x + 8.0, gy + gh - 8.0, Ink::Text, &summary);
        pen.end();
        x += bw + gap;
    }
    if total > 1 {
        pen.text(10.0, gy + gh + 16.0, Ink::Muted, &format!("{} {groups_name}", n(total)));
    }

    // One rack opened: its nodes, their chips, and the scale-up domain.
    let ry = 252.0;
    let rows = s.nodes_per_rack.min(6) as u64;
    let per_row = s.chips_per_node.min(18) as u64;
    if let Some(p) = part(What::Racks) {
        pen.part(info(&p, &label(What::Racks), words, s.money), true);
        pen.rect(10.0, ry, 200.0, 10.0 + rows as f64 * 12.0, Ink::Box);
        for r in 0..rows {
            pen.glyphs(16.0, ry + 6.0 + r as f64 * 12.0, per_row, 18, 8.0, Ink::Chip);
        }
        pen.end();
    }
    pen.text(10.0, ry - 6.0, Ink::Value, words.one_rack);
    if s.nodes_per_rack as u64 > rows {
        pen.text(16.0, ry + 22.0 + rows as f64 * 12.0, Ink::Muted, "…");
    }
    // The domain's bracket: inside a node, or over several.
    let nodes_in_domain =
        (s.domain as u64).div_ceil(s.chips_per_node.max(1) as u64).min(rows).max(1);
    if let Some(p) = part(What::Domains) {
        pen.part(info(&p, &label(What::Domains), words, s.money), false);
        pen.rect(214.0, ry + 5.0, 4.0, nodes_in_domain as f64 * 12.0 - 2.0, Ink::Switch);
        pen.end();
    }
    // The knobs: the rack's, then the network's.
    let values = [
        n(s.chips_per_node as u64),
        n(s.nodes_per_rack as u64),
        n(s.domain as u64),
        s.tiers.to_string(),
        s.planes.to_string(),
        format!("{}:1", numbers::format(s.oversubscription)),
    ];
    let shown = if s.tiers > 1 { 6 } else { 5 };
    for (i, (knob, value)) in s.knobs.iter().zip(&values).take(shown).enumerate() {
        pen.knob(240.0, ry - 12.0 + i as f64 * 20.0, knob, words.knobs[i], value);
        let label = words.knobs[i].to_string();
        pen.out.rows.push(KnobRow { label, value: value.clone(), knob: *knob });
    }

    // The totals, each a part that tells its power and cost.
    let mut ty = 238.0;
    for what in [What::Chips, What::Nodes, What::Racks, What::Domains] {
        if let Some(p) = part(what) {
            pen.part(info(&p, &label(what), words, s.money), false);
            pen.text(560.0, ty + 12.0, Ink::Text, &format!("{} {}", n(p.count), label(what)));
            pen.end();
            ty += 18.0;
        }
    }
    for t in (0..s.tiers.min(3) as usize).rev() {
        let Some(p) = part(What::Switches(t)) else { continue };
        if !inner || t != 2 || p.count > 0 {
            let what = label(What::Switches(t));
            pen.part(info(&p, &what, words, s.money), false);
            pen.text(560.0, ty + 12.0, Ink::Muted, &format!("{} {what}", n(p.count)));
            pen.end();
            ty += 16.0;
        }
    }
    let site = format!("{} MW · {}", numbers::sig3(s.facility_w / 1e6), s.money.show(s.capex_usd));
    pen.text(560.0, ty + 14.0, Ink::Value, &site);
    pen.out
}
