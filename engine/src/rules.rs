//! The rules configuration: which options of RULES.md are switched on,
//! including the house-rule variants of RULES.md §8, their validation, and
//! the `KEY=VALUE,…` text form the command line takes.

use std::fmt;
use std::str::FromStr;

/// Options of the rules (RULES.md, marked **\[option\]**, and the variants
/// of §8). Every option defaults to the standard rule.
///
/// # Examples
/// ```
/// use engine::{Rules, Table};
///
/// let base = Rules::default();
/// assert!(base.farmers && !base.gifts && base.final_incomplete);
/// let gifts = Rules { gifts: true, ..Rules::default() };
/// assert!(gifts.gifts);
/// let house: Rules = "final_incomplete=false,hole_bonus=true".parse().unwrap();
/// assert!(!house.final_incomplete && house.hole_bonus);
/// assert!("hand=1,gifts=true".parse::<Rules>().is_err());
/// let hands: Rules = "hand=3,hand_visible=true".parse().unwrap();
/// assert_eq!((hands.hand, hands.hand_visible), (3, true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// Unknown keys are refused, so a record or run.json written for rules this
// engine lacks is never replayed under the wrong ones; the accepted keys
// are exactly the fields below.
#[cfg_attr(feature = "serde", serde(default, deny_unknown_fields))]
pub struct Rules {
    /// Farmers: meeples may lie in fields, and fields score at the end.
    pub farmers: bool,
    /// The Gifts mini-expansion (RULES.md §5).
    pub gifts: bool,
    /// Tiles in each seat's hand (0 = draw at the start of the turn).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_zero"))]
    pub hand: u8,
    /// Whether the other seats see the tiles in a hand.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub hand_visible: bool,
    /// The start tile is drawn from the bag at set-up.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub start_in_bag: bool,
    /// What happens to a drawn tile that fits nowhere.
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "Unplaceable::is_aside")
    )]
    pub unplaceable: Unplaceable,
    /// Filling a hole (tiles on all four sides) earns another turn.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub hole_bonus: bool,
    /// Unfinished roads, cities and monasteries score at the end.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_true"))]
    pub final_incomplete: bool,
    /// The table's size, limiting the play area (`None`: unbounded).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub table: Option<Table>,
    /// The table's border closes features (only with `table`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "is_false"))]
    pub table_closes: bool,
}

#[cfg(feature = "serde")]
fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(feature = "serde")]
fn is_true(b: &bool) -> bool {
    *b
}

#[cfg(feature = "serde")]
fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::STANDARD
    }
}

/// What happens to a drawn tile that cannot be placed (RULES.md §8).
///
/// # Examples
/// ```
/// use engine::{Rules, Unplaceable};
///
/// assert_eq!(Rules::default().unplaceable, Unplaceable::Aside);
/// let mut rules = Rules::default();
/// rules.set("unplaceable", "return").unwrap();
/// assert_eq!(rules.unplaceable, Unplaceable::Return);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Unplaceable {
    /// Set aside for the rest of the game (standard).
    #[default]
    Aside,
    /// Put back into the bag, and another tile drawn.
    Return,
}

impl Unplaceable {
    /// Each way with its name in the rules text (`unplaceable=return`).
    const NAMES: [(&'static str, Unplaceable); 2] = [
        ("aside", Unplaceable::Aside),
        ("return", Unplaceable::Return),
    ];

    #[cfg(feature = "serde")]
    fn is_aside(&self) -> bool {
        *self == Unplaceable::Aside
    }
}

impl fmt::Display for Unplaceable {
    /// Its name in the rules text: `aside` or `return`.
    ///
    /// # Examples
    /// ```
    /// use engine::Unplaceable;
    ///
    /// assert_eq!(Unplaceable::Return.to_string(), "return");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named = Unplaceable::NAMES.iter().find(|(_, u)| u == self);
        f.write_str(named.map_or("?", |(name, _)| name))
    }
}

/// The size of the table: `width` columns and `height` rows centred on the
/// start tile, written `"WxH"`. Both odd and at least 3 (checked by
/// [`Rules::validate`]).
///
/// # Examples
/// ```
/// use engine::Table;
///
/// let table: Table = "11x7".parse().unwrap();
/// assert_eq!((table.width, table.height), (11, 7));
/// assert_eq!(table.to_string(), "11x7");
/// assert!("10x10".parse::<Table>().is_err()); // even sizes have no centre
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "String", into = "String"))]
pub struct Table {
    /// Columns: x runs from −(width−1)/2 to (width−1)/2.
    pub width: u8,
    /// Rows: y runs from −(height−1)/2 to (height−1)/2.
    pub height: u8,
}

impl Table {
    /// Whether `(x, y)` lies on the table.
    ///
    /// # Examples
    /// ```
    /// use engine::Table;
    ///
    /// let table = Table { width: 5, height: 3 };
    /// assert!(table.contains(2, -1));
    /// assert!(!table.contains(3, 0));
    /// assert!(!table.contains(0, 2));
    /// ```
    #[inline]
    pub fn contains(self, x: i32, y: i32) -> bool {
        let (hw, hh) = (i32::from(self.width / 2), i32::from(self.height / 2));
        x.abs() <= hw && y.abs() <= hh
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Table {
    type Err = RulesError;

    /// Parse `"WxH"` (lowercase `x`), both odd and at least 3.
    fn from_str(s: &str) -> Result<Table, RulesError> {
        let bad = || RulesError::BadValue {
            key: "table",
            value: s.to_string(),
            expected: "\"WxH\" with W and H odd and at least 3 (e.g. 11x11)",
        };
        let (w, h) = s.split_once('x').ok_or_else(bad)?;
        let size = |t: &str| match t.parse::<u8>() {
            Ok(n) if n >= 3 && n % 2 == 1 && t.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(bad()),
        };
        Ok(Table {
            width: size(w)?,
            height: size(h)?,
        })
    }
}

impl TryFrom<String> for Table {
    type Error = RulesError;

    fn try_from(s: String) -> Result<Table, RulesError> {
        s.parse()
    }
}

impl From<Table> for String {
    fn from(t: Table) -> String {
        t.to_string()
    }
}

/// Why a rules configuration is refused: one line naming the key and what
/// is valid.
///
/// # Examples
/// ```
/// use engine::{Rules, RulesError};
///
/// let err = "gifts=maybe".parse::<Rules>().unwrap_err();
/// assert!(matches!(err, RulesError::BadValue { key: "gifts", .. }));
/// assert_eq!(err.to_string(), "rules key `gifts`: bad value `maybe` (expected true or false)");
/// assert!(matches!("farmers".parse::<Rules>(), Err(RulesError::Syntax(_))));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RulesError {
    /// A key that is not a rules option.
    UnknownKey(String),
    /// A value the key does not take.
    BadValue {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
        /// The values the key takes.
        expected: &'static str,
    },
    /// A `KEY=VALUE` item without `=`.
    Syntax(String),
    /// Options that cannot be combined (RULES.md §8).
    Conflict(&'static str),
    /// A key given twice (`hand=1,hand=2`).
    Repeated(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::UnknownKey(k) => write!(
                f,
                "unknown rules key `{k}` (valid keys: {})",
                Rules::KEYS.join(", ")
            ),
            RulesError::BadValue {
                key,
                value,
                expected,
            } => write!(
                f,
                "rules key `{key}`: bad value `{value}` (expected {expected})"
            ),
            RulesError::Syntax(item) => {
                write!(
                    f,
                    "rules item `{item}` is not KEY=VALUE (e.g. hole_bonus=true)"
                )
            }
            RulesError::Conflict(why) => write!(f, "rules conflict: {why}"),
            RulesError::Repeated(key) => write!(f, "rules key `{key}` given twice"),
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// The standard rules (farmers on, every other option off), usable in
    /// constants: `Rules { gifts: true, ..Rules::STANDARD }`.
    ///
    /// # Examples
    /// ```
    /// use engine::Rules;
    ///
    /// const GIFTS: Rules = Rules { gifts: true, ..Rules::STANDARD };
    /// assert_eq!(Rules::default(), Rules::STANDARD);
    /// assert!(GIFTS.farmers && GIFTS.gifts);
    /// ```
    pub const STANDARD: Rules = Rules {
        farmers: true,
        gifts: false,
        hand: 0,
        hand_visible: false,
        start_in_bag: false,
        unplaceable: Unplaceable::Aside,
        hole_bonus: false,
        final_incomplete: true,
        table: None,
        table_closes: false,
    };

    /// Every key of the rules object, in record order.
    ///
    /// # Examples
    /// ```
    /// use engine::Rules;
    ///
    /// assert_eq!(Rules::KEYS[0], "farmers");
    /// assert!(Rules::KEYS.contains(&"hole_bonus"));
    /// ```
    pub const KEYS: &'static [&'static str] = &[
        "farmers",
        "gifts",
        "hand",
        "hand_visible",
        "start_in_bag",
        "unplaceable",
        "hole_bonus",
        "final_incomplete",
        "table",
        "table_closes",
    ];

    /// Set one option from its text form (`key`, `value` as in a record or
    /// on the command line). Combinations are checked by [`Rules::validate`].
    ///
    /// # Errors
    /// An unknown key, or a value the key does not take.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, RulesError};
    ///
    /// let mut rules = Rules::default();
    /// rules.set("farmers", "false").unwrap();
    /// assert!(!rules.farmers);
    /// assert!(matches!(rules.set("dragons", "true"), Err(RulesError::UnknownKey(_))));
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        const FLAG: &[(&str, bool)] = &[("true", true), ("false", false)];
        let flag = |key: &'static str| one_of(key, value, FLAG, "true or false");
        match key {
            "farmers" => self.farmers = flag("farmers")?,
            "gifts" => self.gifts = flag("gifts")?,
            "hand" => {
                let sizes = [("0", 0), ("1", 1), ("2", 2), ("3", 3)];
                self.hand = one_of("hand", value, &sizes, "0, 1, 2 or 3")?;
            }
            "hand_visible" => self.hand_visible = flag("hand_visible")?,
            "start_in_bag" => self.start_in_bag = flag("start_in_bag")?,
            "unplaceable" => {
                self.unplaceable =
                    one_of("unplaceable", value, &Unplaceable::NAMES, "aside or return")?;
            }
            "hole_bonus" => self.hole_bonus = flag("hole_bonus")?,
            "final_incomplete" => self.final_incomplete = flag("final_incomplete")?,
            "table" => self.table = Some(value.parse()?),
            "table_closes" => self.table_closes = flag("table_closes")?,
            _ => return Err(RulesError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Check the combination: values in range, no impossible combination
    /// (RULES.md §8), and only variants the engine plays.
    ///
    /// # Errors
    /// The first problem found.
    ///
    /// # Examples
    /// ```
    /// use engine::{Rules, RulesError};
    ///
    /// assert_eq!(Rules::STANDARD.validate(), Ok(()));
    /// let clash = Rules { table_closes: true, ..Rules::STANDARD };
    /// assert!(matches!(clash.validate(), Err(RulesError::Conflict(_))));
    /// ```
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.hand > 3 {
            return Err(RulesError::BadValue {
                key: "hand",
                value: self.hand.to_string(),
                expected: "0, 1, 2 or 3",
            });
        }
        if let Some(t) = self.table {
            // Re-check the size: a struct literal bypasses the parser.
            t.to_string().parse::<Table>()?;
        }
        if self.hand > 0 && self.gifts {
            return Err(RulesError::Conflict(
                "`hand` of 1 or more cannot be combined with The Gifts (`gifts=true`)",
            ));
        }
        if self.table_closes && self.table.is_none() {
            return Err(RulesError::Conflict(
                "`table_closes=true` needs a `table` (e.g. table=11x11)",
            ));
        }
        Ok(())
    }
}

/// The value named `value` among `names` for rules key `key`, or the
/// error saying what `expected` values the key takes.
fn one_of<T: Copy>(
    key: &'static str,
    value: &str,
    names: &[(&str, T)],
    expected: &'static str,
) -> Result<T, RulesError> {
    names
        .iter()
        .find(|(name, _)| *name == value)
        .map(|&(_, v)| v)
        .ok_or_else(|| RulesError::BadValue {
            key,
            value: value.to_string(),
            expected,
        })
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Parse `KEY=VALUE,…` (each key at most once) onto the default rules,
    /// then validate. The empty string is the standard rules.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::default();
        let mut seen: Vec<&str> = Vec::new();
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| RulesError::Syntax(item.to_string()))?;
            let key = key.trim();
            if seen.contains(&key) {
                return Err(RulesError::Repeated(key.to_string()));
            }
            seen.push(key);
            rules.set(key, value.trim())?;
        }
        rules.validate()?;
        Ok(rules)
    }
}

impl Rules {
    /// Every option as `KEY=VALUE`, the standard ones included, in
    /// [`Rules::KEYS`] order (`table` only when there is one); parses back.
    /// Where the `Display` form of the standard rules is empty, this names
    /// them, for files a reader opens without the engine at hand.
    ///
    /// # Examples
    /// ```
    /// use engine::Rules;
    ///
    /// let text = Rules::STANDARD.explicit();
    /// assert!(text.starts_with("farmers=true,gifts=false,hand=0,"));
    /// assert_eq!(text.parse::<Rules>(), Ok(Rules::STANDARD));
    /// ```
    pub fn explicit(&self) -> String {
        let mut items = vec![
            format!("farmers={}", self.farmers),
            format!("gifts={}", self.gifts),
            format!("hand={}", self.hand),
            format!("hand_visible={}", self.hand_visible),
            format!("start_in_bag={}", self.start_in_bag),
            format!("unplaceable={}", self.unplaceable),
            format!("hole_bonus={}", self.hole_bonus),
            format!("final_incomplete={}", self.final_incomplete),
        ];
        if let Some(t) = self.table {
            items.push(format!("table={t}"));
        }
        items.push(format!("table_closes={}", self.table_closes));
        items.join(",")
    }
}

impl fmt::Display for Rules {
    /// The `KEY=VALUE,…` form of every option that differs from the
    /// standard rules (empty for the standard rules), in [`Rules::KEYS`]
    /// order; parses back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = Rules::STANDARD;
        let mut items: Vec<String> = Vec::new();
        macro_rules! changed {
            ($($key:ident),*) => {$(
                if self.$key != d.$key {
                    items.push(format!("{}={}", stringify!($key), self.$key));
                }
            )*};
        }
        changed!(
            farmers,
            gifts,
            hand,
            hand_visible,
            start_in_bag,
            unplaceable
        );
        changed!(hole_bonus, final_incomplete);
        if let Some(t) = self.table {
            items.push(format!("table={t}"));
        }
        changed!(table_closes);
        f.write_str(&items.join(","))
    }
}
