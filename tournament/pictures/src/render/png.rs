//! SVG to PNG through resvg, with text set in the machine's fonts
//! (DejaVu Sans is asked for first; `.ci/run` installs it on a clean
//! machine). A picture without any usable font still renders, without
//! its text.

use files::error::{Error, Result};
use resvg::{tiny_skia, usvg};
use std::sync::OnceLock;

/// The system fonts, loaded once per process.
fn fonts() -> std::sync::Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<std::sync::Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            db.set_sans_serif_family("DejaVu Sans");
            std::sync::Arc::new(db)
        })
        .clone()
}

/// Rasterise `svg` at `scale` pixels per SVG unit.
///
/// # Errors
/// [`Error::Internal`] if `svg` is not SVG or the picture is empty or too
/// large (our own pictures are neither).
pub fn rasterise(svg: &str, scale: f32) -> Result<tiny_skia::Pixmap> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let internal = |what: String| Error::Internal(format!("PNG: {what}"));
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| internal(format!("bad SVG: {e}")))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| internal("empty picture".into()))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| internal("picture too large".into()))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// `svg` as PNG bytes at `scale` pixels per SVG unit.
///
/// # Errors
/// As [`rasterise`], or the PNG cannot be encoded ([`Error::Internal`]).
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>> {
    rasterise(svg, scale)?
        .encode_png()
        .map_err(|e| Error::Internal(format!("cannot encode PNG: {e}")))
}
