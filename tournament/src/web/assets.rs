//! The page's HTML, style and script, embedded in the binary (no network
//! at run time, no framework): the style is the replay viewer's, shared.

/// The shared style of the viewer and the web app.
pub const STYLE: &str = pictures::viewer::STYLE;
/// The web app's own style.
pub const WEB_STYLE: &str = include_str!("web.css");
/// The web app's script.
pub const SCRIPT: &str = include_str!("web.js");
const PAGE: &str = include_str!("page.html");

/// The page, with its style and script inlined and the server's token
/// (32 hexadecimal digits) in its `carcassonne-token` meta element.
pub fn page(token: &str) -> String {
    with_token(
        &PAGE
            .replace("/*STYLE*/", &format!("{STYLE}\n{WEB_STYLE}"))
            .replace("/*SCRIPT*/", SCRIPT),
        token,
    )
}

/// `html` with its `TOKEN` placeholder (in the head, before any script)
/// replaced by `token`.
pub fn with_token(html: &str, token: &str) -> String {
    html.replacen("content=\"TOKEN\"", &format!("content=\"{token}\""), 1)
}
