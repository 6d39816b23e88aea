//! What every plot is drawn on: plotters' SVG backend writing into a string, wrapped so that
//! text is measured by estimate rather than by a font system (the worker that draws the plots
//! has no document to measure text in), and the theme's colours and fonts as plotters styles.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

use super::{Size, Theme};
use crate::sketch::text_width;

/// What drawing a plot can fail with.
pub type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Text safe inside markup.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// plotters' SVG backend with text sizes estimated (`sketch::text_width`).
pub struct Svg<'a>(SVGBackend<'a>);

type Failed = DrawingErrorKind<std::io::Error>;

impl DrawingBackend for Svg<'_> {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Failed> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Failed> {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Failed> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Failed> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Failed> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failed> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Failed> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Failed> {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), Failed> {
        self.0.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), Failed> {
        // plotters writes an SVG font size of its size over 1.24.
        let size = style.size() / SVG_FONT;
        Ok((text_width(text, size).ceil() as u32, size.ceil() as u32))
    }
}

/// The drawing area of a whole plot.
pub type Area<'a> = DrawingArea<Svg<'a>, Shift>;

/// Draws a plot of `size` with `draw` on the theme's background; the SVG document, whatever
/// `draw` managed if it failed part way.
pub fn svg(size: Size, theme: &Theme, draw: impl FnOnce(&Area) -> Drawn) -> String {
    let mut out = String::with_capacity(16384);
    {
        let root = Svg(SVGBackend::with_string(&mut out, size)).into_drawing_area();
        let _ = root.fill(&color(theme.background)).map_err(Box::from).and_then(|()| draw(&root));
        let _ = root.present();
    }
    // The document as the page sets it: namespace first, text in the page's sans-serif.
    let body = out.split_once('>').map_or("", |(_, rest)| rest).trim();
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">{body}"#,
        w = size.0,
        h = size.1
    )
}

/// A `#rrggbb` colour of the theme.
pub fn color(hex: &str) -> RGBColor {
    let channel = |i: usize| hex.get(i..i + 2).and_then(|c| u8::from_str_radix(c, 16).ok());
    match (channel(1), channel(3), channel(5)) {
        (Some(r), Some(g), Some(b)) => RGBColor(r, g, b),
        _ => RGBColor(0, 0, 0),
    }
}

/// How much larger plotters' font sizes are than the SVG font size its backend writes.
const SVG_FONT: f64 = 1.24;

/// Text of `size` pixels in the theme's foreground.
pub fn font(theme: &Theme, size: f64) -> TextStyle<'static> {
    font_in(theme.foreground, size, false)
}

/// Text of `size` pixels in `colour`, bold or not.
pub fn font_in(colour: &str, size: f64, bold: bool) -> TextStyle<'static> {
    let style = if bold { FontStyle::Bold } else { FontStyle::Normal };
    ("sans-serif", size * SVG_FONT, style).into_font().color(&color(colour))
}

/// The same, hanging from its point by `pos`.
pub fn font_at(theme: &Theme, size: f64, pos: (HPos, VPos)) -> TextStyle<'static> {
    font(theme, size).pos(Pos::new(pos.0, pos.1))
}
