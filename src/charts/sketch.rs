//! The cluster drawing (`sketch::Layout`) drawn with plotters, on the same backend and in the
//! same theme as the plots; the page lays its buttons over it.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::svg::{self, color, font_in, Area, Drawn};
use super::Theme;
use crate::sketch::{FleetLayout, Ink, Layout, Shape, HEIGHT, TEXT, WIDTH};

/// The drawing as an SVG document.
pub fn draw_sketch(layout: &Layout, theme: &Theme) -> String {
    svg::svg((WIDTH as u32, HEIGHT as u32), theme, |area| shapes(area, &layout.shapes, theme))
}

/// The fleet drawing (`sketch::fleet`) as an SVG document, in the same hand.
pub fn draw_fleet(layout: &FleetLayout, theme: &Theme) -> String {
    let size = (layout.width as u32, layout.height.clamp(1.0, 4000.0) as u32);
    svg::svg(size, theme, |area| shapes(area, &layout.shapes, theme))
}

/// The colour of a fleet's pool by its place: the palette's, the same the page marks its card
/// with.
pub fn pool_colour(theme: &Theme, place: usize) -> &'static str {
    theme.palette[place % theme.palette.len()]
}

fn shapes(area: &Area, shapes: &[Shape], theme: &Theme) -> Drawn {
    let (accent, panel, outline) =
        (color(theme.palette[0]), color(theme.panel), color(theme.outline));
    let at = |x: f64, y: f64| (x.round() as i32, y.round() as i32);
    for shape in shapes {
        match shape {
            Shape::Rect { x, y, w, h, ink: Ink::Box } => {
                let corners = [at(*x, *y), at(x + w, y + h)];
                area.draw(&Rectangle::new(corners, panel.filled()))?;
                area.draw(&Rectangle::new(corners, outline.stroke_width(1)))?;
            }
            Shape::Rect { x, y, w, h, ink: Ink::Frame } => {
                let corners = [at(*x, *y), at(x + w, y + h)];
                area.draw(&Rectangle::new(corners, outline.stroke_width(2)))?;
            }
            Shape::Rect { x, y, w, h, ink: Ink::Pool(place) } => {
                let fill = color(pool_colour(theme, usize::from(*place)));
                area.draw(&Rectangle::new([at(*x, *y), at(x + w, y + h)], fill.filled()))?;
            }
            Shape::Rect { x, y, w, h, .. } => {
                area.draw(&Rectangle::new([at(*x, *y), at(x + w, y + h)], accent.filled()))?;
            }
            Shape::Text { x, y, ink, text } => {
                let style = match ink {
                    Ink::Value => font_in(theme.foreground, TEXT, true),
                    Ink::Muted => font_in(theme.muted, TEXT, false),
                    _ => font_in(theme.foreground, TEXT, false),
                };
                // Text hangs from its baseline; plotters centres it on a point half an x-height
                // lower, a quarter of its size.
                let style = style.pos(Pos::new(HPos::Left, VPos::Center));
                area.draw(&Text::new(text.clone(), at(*x, y - TEXT / 4.0), style))?;
            }
            Shape::Line { from, to } => {
                let path = vec![at(from.0, from.1), at(to.0, to.1)];
                area.draw(&PathElement::new(path, outline.stroke_width(1)))?;
            }
        }
    }
    Ok(())
}
