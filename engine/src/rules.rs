//! The rules configuration: which options of RULES.md are switched on.

/// Options of the rules (RULES.md, marked **\[option\]**).
///
/// # Examples
/// ```
/// use engine::Rules;
///
/// let base = Rules::default();
/// assert!(base.farmers && !base.gifts);
/// let gifts = Rules { gifts: true, ..Rules::default() };
/// assert!(gifts.gifts);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Rules {
    /// Farmers: meeples may lie in fields, and fields score at the end.
    pub farmers: bool,
    /// The Gifts mini-expansion (RULES.md §5).
    pub gifts: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            farmers: true,
            gifts: false,
        }
    }
}
