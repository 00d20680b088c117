//! The lab's SVG charts (the loss curve, the WDL fit, the error fit), drawn
//! with `plotters`' SVG backend: text is written as SVG `<text>`, laid out
//! with the backend's size estimate, so no font is read or needed.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use std::ops::Range;

/// Where the charts are drawn.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A drawing's failure: the backend's, which writes to a string.
pub type DrawError = DrawingAreaErrorKind<std::io::Error>;

/// The chart font.
pub const FONT: &str = "sans-serif";

/// `#rrggbb` as a colour.
pub const fn rgb(hex: u32) -> RGBColor {
    RGBColor((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// The SVG of a `width` × `height` drawing on white that `draw` makes.
pub fn svg(
    (width, height): (u32, u32),
    draw: impl FnOnce(&Area) -> Result<(), DrawError>,
) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        root.fill(&WHITE)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present())
            .map_err(|e| format!("cannot draw the chart: {e}"))?;
    }
    Ok(out)
}

/// A chart of real numbers on both axes.
pub type Plane<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The chart of `x` by `y` on `area`, captioned `title` (none when empty),
/// with `y_room` pixels for the y axis's labels; the caller draws its mesh.
pub fn plane<'a, 'b: 'a>(
    area: &'a Area<'b>,
    title: &str,
    y_room: u32,
    x: Range<f64>,
    y: Range<f64>,
) -> Result<Plane<'a, 'b>, DrawError> {
    let mut builder = ChartBuilder::on(area);
    if !title.is_empty() {
        builder.caption(title, (FONT, 14));
    }
    builder
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(y_room)
        .build_cartesian_2d(x, y)
}

/// A legend's mark for a line of `style`.
pub fn line_mark(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new([(x, y), (x + 20, y)], style)
}

/// The series' legend at `position`: each name beside its mark, on white
/// in a black frame.
pub fn legend<'a, 'b: 'a, C: CoordTranslate>(
    c: &mut ChartContext<'a, SVGBackend<'b>, C>,
    position: SeriesLabelPosition,
) -> Result<(), DrawError> {
    c.configure_series_labels()
        .position(position)
        .label_font((FONT, 12))
        .background_style(WHITE)
        .border_style(BLACK)
        .draw()
}
