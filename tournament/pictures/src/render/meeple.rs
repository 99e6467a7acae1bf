//! Meeples: a standing figure for knights, highwaymen and monks, the same
//! figure lying down for farmers, in the seat's colour.

use super::palette;

/// A meeple's outline, about 20 units tall (drawn 28), centred on (0, 0).
pub(crate) const FIGURE: &str =
    "M-2.6,-6C-5.5,-11 5.5,-11 2.6,-6L9,-3.5V0H4L7,10H1.5L0,5L-1.5,10H-7L-4,0H-9V-3.5Z";

/// The SVG of a meeple of `seat` centred on (`x`, `y`), lying when it is a
/// farmer.
pub fn meeple_svg(seat: usize, x: f64, y: f64, lying: bool) -> String {
    let turn = if lying {
        " scale(1.4) rotate(-90)"
    } else {
        " scale(1.4)"
    };
    format!(
        r#"<path transform="translate({x:.1},{y:.1}){turn}" d="{FIGURE}" fill="{}" stroke="white" stroke-width="1"/>"#,
        palette::seat(seat)
    )
}
